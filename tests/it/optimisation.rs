//! Optimisation conformance: every optimising backend against brute force on models with an
//! objective (minimise and maximise, negative costs, ties, infeasible, a single solution, and a
//! seeded family of random models with every row kind), and the command line around it
//! (located input errors, exports, `solve --all`, `count --optimal`).

use std::process::{Command, Output};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zeroone::backend::{
    make_backend, optimal_solutions_verified, solutions_verified, solve_verified, BackendOptions,
    Outcome, Status,
};
use zeroone::model::{Coord, Model, ModelBuilder, ObjectiveSense, PuzzleKind, Sense};
use zeroone::puzzle::QueensBoard;

/// A row: its variables, its weights (`None`: all 1) and its sense.
type Row = (Vec<usize>, Option<Vec<u64>>, Sense);

fn generic(name: &str, n: usize, rows: &[Row], sense: ObjectiveSense, costs: &[i64]) -> Model {
    let mut b = ModelBuilder::new(name, PuzzleKind::Generic);
    for i in 0..n {
        b.variable(format!("x{i}"), Coord::Free);
    }
    let f = b.family("rows");
    for (vars, weights, s) in rows {
        match weights {
            Some(w) => b.weighted_row(f, vars.clone(), w.clone(), *s),
            None => b.row(f, vars.clone(), *s),
        };
    }
    b.objective(sense, costs.iter().copied().enumerate().collect());
    b.build().unwrap()
}

/// A random model: `n` variables, a few rows of every kind over random subsets, costs in
/// -9..=9 (a third of them negative), either sense. Seeded: the same models on every run.
fn random_model(rng: &mut ChaCha8Rng, index: usize) -> Model {
    let n = rng.gen_range(5..=12);
    let mut rows = Vec::new();
    for _ in 0..rng.gen_range(1..=5) {
        let mut vars: Vec<usize> = (0..n).filter(|_| rng.gen_bool(0.4)).collect();
        if vars.is_empty() {
            vars.push(rng.gen_range(0..n));
        }
        let len = vars.len() as u64;
        let row = match rng.gen_range(0..5) {
            0 => (vars, None, Sense::ExactlyOne),
            1 => (vars, None, Sense::AtMostOne),
            2 => (vars, None, Sense::AtLeast(rng.gen_range(1..=len.min(3)))),
            3 => {
                let w: Vec<u64> = (0..len).map(|_| rng.gen_range(1..=6)).collect();
                let cap = rng.gen_range(1..=w.iter().sum::<u64>());
                (vars, Some(w), Sense::AtMost(cap))
            }
            _ => {
                let w: Vec<u64> = (0..len).map(|_| rng.gen_range(1..=4)).collect();
                let k = rng.gen_range(1..=w.iter().sum::<u64>());
                (vars, Some(w), Sense::Exactly(k))
            }
        };
        rows.push(row);
    }
    let costs: Vec<i64> = (0..n).map(|_| rng.gen_range(-9..=9)).collect();
    let sense = if rng.gen_bool(0.5) {
        ObjectiveSense::Minimize
    } else {
        ObjectiveSense::Maximize
    };
    generic(&format!("random-{index}"), n, &rows, sense, &costs)
}

/// The hand-made cases, then 40 random ones.
fn cases() -> Vec<Model> {
    use ObjectiveSense::{Maximize, Minimize};
    let q4 = QueensBoard::bare(4).to_model("queens-4");
    let ties = q4.clone().with_objective(None).unwrap();
    let flat = zeroone::model::Objective::new(Minimize, ties.num_variables(), [(0, 0)]).unwrap();
    let diagonal: Vec<(usize, i64)> = (0..16).map(|v| (v, (v % 5) as i64 - 2)).collect();
    let queens_costs = zeroone::model::Objective::new(Maximize, 16, diagonal).unwrap();
    let q3 = QueensBoard::bare(3).to_model("queens-3");
    let q3_costs = zeroone::model::Objective::new(Minimize, 9, [(4, 1)]).unwrap();
    let mut cases = vec![
        // Exactly one of three, cheapest wins.
        generic(
            "pick-min",
            3,
            &[(vec![0, 1, 2], None, Sense::ExactlyOne)],
            Minimize,
            &[3, 1, 2],
        ),
        // Two knapsack rows, maximise.
        generic(
            "knapsack-2",
            5,
            &[
                (
                    vec![0, 1, 2, 3, 4],
                    Some(vec![3, 4, 5, 2, 6]),
                    Sense::AtMost(10),
                ),
                (
                    vec![0, 1, 2, 3, 4],
                    Some(vec![5, 1, 3, 4, 2]),
                    Sense::AtMost(8),
                ),
            ],
            Maximize,
            &[7, 5, 8, 3, 9],
        ),
        // Cover with negative costs: the negative ones are always worth taking.
        generic(
            "cover-negative",
            5,
            &[
                (vec![0, 1], None, Sense::AtLeast(1)),
                (vec![1, 2, 3], None, Sense::AtLeast(1)),
                (vec![3, 4], None, Sense::AtLeast(1)),
            ],
            Minimize,
            &[2, 3, -1, 4, -2],
        ),
        // No solution at all.
        q3.with_objective(Some(q3_costs)).unwrap(),
        // Both 4-queens solutions cost 0: a tie.
        ties.with_objective(Some(flat)).unwrap(),
        q4.with_objective(Some(queens_costs)).unwrap(),
        // Knuth's exact cover: one solution.
        generic(
            "single",
            6,
            &[
                (vec![0, 1], None, Sense::ExactlyOne),
                (vec![4, 5], None, Sense::ExactlyOne),
                (vec![3, 4], None, Sense::ExactlyOne),
                (vec![0, 1, 2], None, Sense::ExactlyOne),
                (vec![2, 3], None, Sense::ExactlyOne),
                (vec![3, 4], None, Sense::ExactlyOne),
                (vec![0, 2, 4, 5], None, Sense::ExactlyOne),
            ],
            Maximize,
            &[-4, 6, 1, -3, 2, 5],
        ),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    cases.extend((0..40).map(|i| random_model(&mut rng, i)));
    cases
}

fn solve(name: &str, model: &Model) -> Outcome {
    solve_with(name, &[], model)
}

/// `name` with the parameters `params` (plus `code=unitary` for `vsa`) on `model`.
fn solve_with(name: &str, params: &[(&str, &str)], model: &Model) -> Outcome {
    let mut options = BackendOptions::default();
    if name == "vsa" {
        options.params.insert("code".into(), "unitary".into());
    }
    for (k, v) in params {
        options.params.insert((*k).into(), (*v).into());
    }
    let mut backend = make_backend(name, &options).unwrap();
    solve_verified(backend.as_mut(), model).unwrap()
}

/// Brute force's optimum: every solution valued by hand (not through any backend's search).
fn reference(model: &Model) -> Option<i128> {
    let mut brute = make_backend("brute", &BackendOptions::default()).unwrap();
    let o = model.objective().unwrap();
    let mut values = Vec::new();
    solutions_verified(brute.as_mut(), model, None, &mut |s| {
        values.push(o.value(&s.ones))
    })
    .unwrap();
    let best = match o.sense() {
        ObjectiveSense::Minimize => values.iter().min(),
        ObjectiveSense::Maximize => values.iter().max(),
    };
    best.copied()
}

#[test]
fn the_cases_cover_both_senses_ties_infeasible_and_single_solutions() {
    let cases = cases();
    let optima: Vec<Option<i128>> = cases.iter().map(reference).collect();
    assert!(optima.iter().any(Option::is_none), "an infeasible case");
    assert!(cases
        .iter()
        .any(|m| m.objective().unwrap().sense() == ObjectiveSense::Maximize));
    assert!(cases
        .iter()
        .any(|m| m.objective().unwrap().costs().iter().any(|&c| c < 0)));
    assert_eq!(optima[0], Some(1));
    assert_eq!(
        optima[2],
        Some(2 - 1 - 2),
        "cover-negative takes x0, x2, x4"
    );
    assert_eq!(optima[4], Some(0), "the 4-queens tie");
    assert_eq!(optima[6], Some(6 - 3 + 5), "Knuth's cover B, D, F");
    let random_feasible = optima[7..].iter().filter(|o| o.is_some()).count();
    assert!(
        random_feasible >= 20,
        "{random_feasible} feasible random cases"
    );
}

fn conforms(name: &str) {
    conforms_with(name, &[]);
}

fn conforms_with(name: &str, params: &[(&str, &str)]) {
    for model in cases() {
        let what = format!("{name} {params:?} on {}", model.name());
        let out = solve_with(name, params, &model);
        match reference(&model) {
            Some(best) => {
                assert_eq!(out.status, Status::Optimal, "{what}: {:?}", out.reason);
                assert_eq!(out.objective, Some(best), "{what}");
                assert_eq!(out.bound, Some(best), "{what}");
                assert!(out.verified && out.solution.is_some(), "{what}");
            }
            None => assert_eq!(out.status, Status::Infeasible, "{what}: {:?}", out.reason),
        }
    }
}

#[test]
fn brute_force_optimises() {
    conforms("brute");
}

#[test]
fn bitset_branch_and_bound_optimises() {
    conforms("bitset");
}

#[test]
fn enum_branch_and_bound_optimises() {
    conforms("enum");
    let mut options = BackendOptions::default();
    options.params.insert("order".into(), "mrv".into());
    for model in cases() {
        let mut backend = make_backend("enum", &options).unwrap();
        let out = solve_verified(backend.as_mut(), &model).unwrap();
        match reference(&model) {
            Some(best) => assert_eq!(
                (out.status, out.objective),
                (Status::Optimal, Some(best)),
                "enum order=mrv on {}: {:?}",
                model.name(),
                out.reason
            ),
            None => assert_eq!(out.status, Status::Infeasible, "{}", model.name()),
        }
    }
}

#[test]
fn vsa_with_an_exact_code_optimises() {
    conforms("vsa");
}

#[test]
fn milp_optimises() {
    conforms("milp");
}

#[cfg(feature = "highs")]
#[test]
fn highs_optimises() {
    conforms("highs");
}

#[test]
fn sat_solution_improving_optimises() {
    // With fixing by the branch-and-bound bound (the default) and without.
    conforms("sat");
    conforms_with("sat", &[("bound-fixing", "false")]);
}

#[test]
fn gauss_is_exact_when_it_answers() {
    for model in cases() {
        let out = solve("gauss", &model);
        match (out.status, reference(&model)) {
            (Status::Optimal, Some(best)) => assert_eq!(out.objective, Some(best)),
            (Status::Infeasible, None) | (Status::Unknown, _) => {}
            (s, best) => panic!("gauss on {}: {s:?}, brute {best:?}", model.name()),
        }
    }
}

#[test]
fn backends_without_an_objective_search_refuse_naming_why() {
    let model = &cases()[1];
    let out = solve("dp", model);
    assert_eq!(out.status, Status::Unsupported, "dp");
    assert!(
        out.reason.as_deref().unwrap().contains("cannot optimise"),
        "dp: {:?}",
        out.reason
    );
    let mut options = BackendOptions::default();
    options.params.insert("code".into(), "gaussian".into());
    options.params.insert("dim".into(), "64".into());
    let mut vsa = make_backend("vsa", &options).unwrap();
    let out = solve_verified(vsa.as_mut(), &cases()[4]).unwrap();
    assert_eq!(out.status, Status::Unsupported, "{:?}", out.reason);
    assert!(out.reason.unwrap().contains("approximate"));
}

#[test]
fn every_optimal_solution_is_listed_by_each_streaming_backend_alike() {
    for model in cases().iter().take(12) {
        let o = model.objective().unwrap();
        let Some(best) = reference(model) else {
            continue;
        };
        let mut expected = Vec::new();
        let mut brute = make_backend("brute", &BackendOptions::default()).unwrap();
        solutions_verified(brute.as_mut(), model, None, &mut |s| {
            if o.value(&s.ones) == best {
                expected.push(s.ones.clone());
            }
        })
        .unwrap();
        expected.sort();
        for name in ["bitset", "sat", "brute"] {
            let mut backend = make_backend(name, &BackendOptions::default()).unwrap();
            let mut got = Vec::new();
            let (best_out, stream) =
                optimal_solutions_verified(backend.as_mut(), model, None, &mut |s| {
                    got.push(s.ones.clone())
                })
                .unwrap();
            assert_eq!(best_out.objective, Some(best), "{name} on {}", model.name());
            let stream = stream.unwrap();
            assert!(stream.exhaustive && stream.count == got.len() as u128);
            got.sort();
            assert_eq!(got, expected, "{name} on {}", model.name());
        }
    }
    // The 4-queens tie has two optimal solutions.
    let mut bitset = make_backend("bitset", &BackendOptions::default()).unwrap();
    let (_, stream) =
        optimal_solutions_verified(bitset.as_mut(), &cases()[4], None, &mut |_| {}).unwrap();
    assert_eq!(stream.unwrap().count, 2);
}

#[test]
fn ties_are_broken_the_same_way_on_every_run() {
    for model in cases() {
        let first = solve("bitset", &model);
        let again = solve("bitset", &model);
        assert_eq!(first.solution, again.solution, "{}", model.name());
    }
}

#[test]
fn costs_up_to_two_to_the_53_are_summed_exactly() {
    // Two variables at 2^53 each: 2^54 is exact in i128, and x0 + x1 <= 2 takes both.
    let big = 1i64 << 53;
    let model = generic(
        "big",
        3,
        &[(vec![0, 1, 2], None, Sense::AtMost(2))],
        ObjectiveSense::Maximize,
        &[big, big, big - 1],
    );
    for name in ["brute", "bitset", "sat", "milp"] {
        let out = solve(name, &model);
        assert_eq!(out.status, Status::Optimal, "{name}: {:?}", out.reason);
        assert_eq!(out.objective, Some(2 * i128::from(big)), "{name}");
    }
}

fn zeroone(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .output()
        .unwrap()
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

const KNAPSACK: &str = r#"{"name": "k",
 "variables": ["a", "b", "c", "d"],
 "families": [{"name": "cap", "sense": "at-most", "rhs": 5, "rows": [["a", "b", "c", "d"]],
               "weights": [[2, 3, 4, 1]]}],
 "objective": {"sense": "maximize", "costs": {"a": 3, "b": 4, "c": 5, "d": 1}}}
"#;

#[test]
fn bad_objectives_are_located_errors_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    for (bad, expected, line) in [
        (r#""c": 5, "e": 1"#, "'e'", 5),
        (r#""c": 5.5, "d": 1"#, "floating point", 5),
        (r#""c": 9007199254740993, "d": 1"#, "2^53", 5),
        (r#""c": -9007199254740993, "d": 1"#, "2^53", 5),
    ] {
        let text = KNAPSACK.replace(r#""c": 5, "d": 1"#, bad);
        let file = write(&dir, "bad.json", &text);
        let out = zeroone(&["solve", &file]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains(expected), "{bad}: {err}");
        assert!(err.contains(&format!("bad.json:{line}:")), "{bad}: {err}");
    }
    let text = KNAPSACK.replace("maximize", "largest");
    let file = write(&dir, "sense.json", &text);
    let out = zeroone(&["solve", &file]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("minimize or maximize") && err.contains("sense.json:5:"),
        "{err}"
    );
    let toml = "variables = [\"a\", \"b\"]\n[[families]]\nname = \"one\"\nsense = \"exactly-one\"\nrows = [[\"a\", \"b\"]]\n[objective]\nsense = \"minimize\"\n[objective.costs]\na = 2\nz = 1\n";
    let file = write(&dir, "bad.toml", toml);
    let out = zeroone(&["solve", &file]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("'z'"), "{err}");
}

#[test]
fn the_command_line_solves_shows_exports_and_counts_optima() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(&dir, "k.json", KNAPSACK);
    let out = zeroone(&["solve", &file, "--json", "--stable"]);
    assert!(out.status.success());
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["status"], "optimal");
    assert_eq!(line["objective"], 7);
    assert_eq!(line["ones"], serde_json::json!(["a", "b"]));
    let show = String::from_utf8(zeroone(&["show", &file]).stdout).unwrap();
    assert!(
        show.contains("objective: maximize 3 a + 4 b + 5 c + 1 d"),
        "{show}"
    );
    let lp = String::from_utf8(zeroone(&["export", &file, "--format", "lp"]).stdout).unwrap();
    assert!(
        lp.contains("Maximize\n obj: 3 x0_a + 4 x1_b + 5 x2_c + 1 x3_d\nSubject To"),
        "{lp}"
    );
    let mps = String::from_utf8(zeroone(&["export", &file, "--format", "mps"]).stdout).unwrap();
    assert!(
        mps.contains("OBJSENSE\n    MAX\n") && mps.contains(" obj 5\n"),
        "{mps}"
    );
    let opb = String::from_utf8(zeroone(&["export", &file, "--format", "opb"]).stdout).unwrap();
    assert!(opb.contains("min: -3 x1 -4 x2 -5 x3 -1 x4 ;"), "{opb}");
    let cnf = zeroone(&["export", &file, "--format", "cnf"]);
    assert_eq!(cnf.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&cnf.stderr).contains("cannot carry the model's objective"));
    // XCC has no objective and no comment miniexact accepts: refused like CNF, nothing written
    // (issue 35, item 6: it once dropped the objective silently).
    let pick = r#"{"variables": ["a", "b"], "families": [{"name": "one", "sense": "exactly-one", "rows": [["a", "b"]]}],
 "objective": {"sense": "minimize", "costs": {"a": 1}}}"#;
    let unit = write(&dir, "pick.json", pick);
    let out = dir.path().join("pick.xcc");
    let xcc = zeroone(&[
        "export",
        &unit,
        "--format",
        "xcc",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(xcc.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&xcc.stderr);
    assert!(
        stderr.contains("xcc export cannot carry the model's objective"),
        "{stderr}"
    );
    assert!(!out.exists(), "no partial output file");
    // With d costing 2, a + b and c + d both reach 7: two optimal solutions, listed and counted.
    let tie = KNAPSACK.replace(r#""d": 1"#, r#""d": 2"#);
    let file = write(&dir, "tie.json", &tie);
    let count = zeroone(&["count", &file, "--optimal", "--json", "--stable"]);
    let line: serde_json::Value = serde_json::from_slice(&count.stdout).unwrap();
    assert_eq!(
        (line["status"].as_str(), line["count"].as_u64()),
        (Some("solved"), Some(2))
    );
    let all = zeroone(&["solve", &file, "--all", "--json"]);
    let lines: Vec<serde_json::Value> = String::from_utf8(all.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (closing, lines) = lines.split_last().unwrap();
    assert_eq!(
        (closing["status"].as_str(), closing["solutions"].as_u64()),
        (Some("optimal"), Some(2))
    );
    assert_eq!(lines.len(), 2);
    assert!(lines
        .iter()
        .all(|l| l["objective"] == 7 && l["status"] == "optimal"));
    let plain = zeroone(&["count", &file, "--json", "--stable"]);
    let line: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert_eq!(
        line["count"], 9,
        "count keeps its meaning: every feasible packing"
    );
    let dp = zeroone(&["solve", &file, "--backend", "dp"]);
    assert_eq!(dp.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&dp.stdout).contains("unsupported"));
}

#[test]
fn the_json_export_round_trips_the_objective() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(&dir, "k.json", KNAPSACK);
    let out = zeroone(&["export", &file, "--format", "json"]);
    let back = write(&dir, "back.json", &String::from_utf8(out.stdout).unwrap());
    let a = zeroone(&["solve", &file, "--json", "--stable"]).stdout;
    let b = zeroone(&["solve", &back, "--json", "--stable"]).stdout;
    assert_eq!(a, b);
    // Puzzle files have no objective.
    let q = QueensBoard::bare(4).to_model("q");
    assert!(q.objective().is_none());
}

#[test]
fn the_example_models_have_their_documented_optima() {
    let root = env!("CARGO_MANIFEST_DIR");
    for (file, optimum, optimal_solutions) in [
        ("models/set-cover-weighted.json", 11, 1),
        ("models/knapsack-multi.toml", 80, 1),
        ("models/queens-cheapest-6.json", 13, 1),
    ] {
        let path = format!("{root}/{file}");
        for backend in ["bitset", "milp", "sat", "brute"] {
            let out = zeroone(&["solve", &path, "--backend", backend, "--json", "--stable"]);
            let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            if line["status"] == "unsupported" {
                assert_eq!(backend, "brute", "{file}");
                continue;
            }
            assert_eq!(line["status"], "optimal", "{file} by {backend}: {line}");
            assert_eq!(line["objective"], optimum, "{file} by {backend}");
        }
        let count = zeroone(&["count", &path, "--optimal", "--json", "--stable"]);
        let line: serde_json::Value = serde_json::from_slice(&count.stdout).unwrap();
        assert_eq!(line["count"], optimal_solutions, "{file}");
    }
}

#[test]
fn sat_stops_itself_at_its_time_limit_with_its_incumbent_and_bound() {
    // The 60-item knapsack takes sat far longer than a second to prove (minutes, release
    // build); its first solution comes in milliseconds. Stopped at 2 s: `feasible`, the
    // incumbent verified, its bound proved (at least the value: maximising), within the limit
    // plus little; with no time at all: `timeout`, no solution.
    let path = format!(
        "{}/models/generated/optimisation/knapsack-60.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let model = zeroone::puzzle::parse::load_models(std::path::Path::new(&path))
        .unwrap()
        .remove(0);
    let run = |limit: std::time::Duration| {
        let options = BackendOptions {
            time_limit: Some(limit),
            ..BackendOptions::default()
        };
        let mut sat = make_backend("sat", &options).unwrap();
        let start = std::time::Instant::now();
        let out = solve_verified(sat.as_mut(), &model).unwrap();
        (out, start.elapsed())
    };
    let (out, took) = run(std::time::Duration::from_secs(2));
    assert_eq!(out.status, Status::Feasible, "{:?}", out.reason);
    assert!(out.verified);
    let (value, bound) = (out.objective.unwrap(), out.bound.unwrap());
    assert!(bound >= value, "{value} {bound}");
    assert!(took < std::time::Duration::from_secs(6), "{took:?}");
    let (out, _) = run(std::time::Duration::ZERO);
    assert_eq!(out.status, Status::Timeout, "{:?}", out.reason);
    assert!(out.solution.is_none());
}
