//! Proved bounds, gaps and incumbent traces of the optimisers (issue 39, items 1 and 2):
//! stopped early (no time at all: the searches stop at their first check, after 256 steps),
//! every optimiser reports a bound with its solution, on the right side of the optimum found
//! by trying every assignment here (no backend involved); the gap options stop a search early
//! with an honest status; the trace records the incumbents and bounds in order.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zeroone::backend::{make_backend, solve_verified, BackendOptions, Outcome, Status};
use zeroone::model::{Coord, Model, ModelBuilder, ObjectiveSense, PuzzleKind, Sense};

/// A 0-1 knapsack over `n` items (weights 3 to 20: `vsa` reads sums up to 1024), each item's
/// value its weight plus 10 (the strongly correlated kind, hard for branch and bound). Packing
/// (`maximise`): at most half the total weight, maximising the value; covering: at least half
/// the total weight, minimising the value.
fn knapsack(n: usize, seed: u64, maximise: bool) -> Model {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut b = ModelBuilder::new(format!("knapsack-{n}"), PuzzleKind::Generic);
    let vars: Vec<usize> = (0..n)
        .map(|i| b.variable(format!("x{i}"), Coord::Free))
        .collect();
    let f = b.family("capacity");
    let w: Vec<u64> = (0..n).map(|_| rng.gen_range(3..=20)).collect();
    let half = w.iter().sum::<u64>() / 2;
    let (sense, objective) = match maximise {
        true => (Sense::AtMost(half), ObjectiveSense::Maximize),
        false => (Sense::AtLeast(half), ObjectiveSense::Minimize),
    };
    b.weighted_row(f, vars, w.clone(), sense);
    let values = w
        .iter()
        .enumerate()
        .map(|(i, &w)| (i, w as i64 + 10))
        .collect();
    b.objective(objective, values);
    b.build().unwrap()
}

/// The knapsack's optimum by dynamic programming over the weight (no backend involved):
/// packing, the best value within each capacity; covering, the least value reaching each
/// weight (weights above the need counted as the need).
fn knapsack_optimum(model: &Model) -> i128 {
    let row = &model.constraints()[0];
    let objective = model.objective().unwrap();
    let items: Vec<(usize, i128)> = row
        .terms()
        .map(|(v, w)| (w as usize, objective.value(&[v])))
        .collect();
    match row.sense.bounds() {
        (0, Some(cap)) => {
            let cap = cap as usize;
            let mut best = vec![0i128; cap + 1];
            for &(w, value) in &items {
                for c in (w..=cap).rev() {
                    best[c] = best[c].max(best[c - w] + value);
                }
            }
            best[cap]
        }
        (need, _) => {
            let need = need as usize;
            let mut best = vec![i128::MAX; need + 1];
            best[0] = 0;
            for &(w, value) in &items {
                for c in (0..=need).rev() {
                    if best[c] != i128::MAX {
                        let to = (c + w).min(need);
                        best[to] = best[to].min(best[c] + value);
                    }
                }
            }
            best[need]
        }
    }
}

/// An optimal packing of a packing knapsack (its ones), by the dynamic programme of
/// [`knapsack_optimum`] walked back.
fn knapsack_packing(model: &Model) -> Vec<usize> {
    let row = &model.constraints()[0];
    let objective = model.objective().unwrap();
    let cap = row.sense.bounds().1.unwrap() as usize;
    let items: Vec<(usize, usize, i128)> = row
        .terms()
        .map(|(v, w)| (v, w as usize, objective.value(&[v])))
        .collect();
    // best[i][c]: the best value of the first i items within capacity c.
    let mut best = vec![vec![0i128; cap + 1]; items.len() + 1];
    for (i, &(_, w, value)) in items.iter().enumerate() {
        for c in 0..=cap {
            best[i + 1][c] = best[i][c];
            if c >= w {
                best[i + 1][c] = best[i + 1][c].max(best[i][c - w] + value);
            }
        }
    }
    let (mut c, mut ones) = (cap, Vec::new());
    for i in (0..items.len()).rev() {
        if best[i + 1][c] != best[i][c] {
            ones.push(items[i].0);
            c -= items[i].1;
        }
    }
    ones.sort_unstable();
    ones
}

/// A weighted set cover: `sets` sets over `elements` elements (each set holds each element
/// with probability 1/4, each element in at least two sets), minimising the cost.
fn set_cover(sets: usize, elements: usize, seed: u64) -> Model {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut b = ModelBuilder::new(format!("cover-{sets}"), PuzzleKind::Generic);
    let vars: Vec<usize> = (0..sets)
        .map(|i| b.variable(format!("s{i}"), Coord::Free))
        .collect();
    let f = b.family("element");
    for _ in 0..elements {
        let mut holding: Vec<usize> = vars
            .iter()
            .copied()
            .filter(|_| rng.gen_bool(0.25))
            .collect();
        while holding.len() < 2 {
            let v = rng.gen_range(0..sets);
            if !holding.contains(&v) {
                holding.push(v);
            }
        }
        holding.sort_unstable();
        b.row(f, holding, Sense::AtLeast(1));
    }
    let costs = (0..sets).map(|i| (i, rng.gen_range(3..=30))).collect();
    b.objective(ObjectiveSense::Minimize, costs);
    b.build().unwrap()
}

/// The set cover's optimum by dynamic programming over the sets of elements covered (no
/// backend involved).
fn cover_optimum(model: &Model) -> i128 {
    let elements = model.constraints().len();
    let objective = model.objective().unwrap();
    let mut covers = vec![0u32; model.num_variables()];
    for (e, row) in model.constraints().iter().enumerate() {
        for (v, _) in row.terms() {
            covers[v] |= 1 << e;
        }
    }
    let full = (1usize << elements) - 1;
    let mut best = vec![i128::MAX; full + 1];
    best[0] = 0;
    for (v, &c) in covers.iter().enumerate() {
        let cost = objective.value(&[v]);
        for mask in (0..=full).rev() {
            if best[mask] != i128::MAX {
                let to = mask | c as usize;
                best[to] = best[to].min(best[mask] + cost);
            }
        }
    }
    best[full]
}

/// The optimum of a test model, by the method its kind allows.
fn optimum(model: &Model) -> i128 {
    match model.name().starts_with("knapsack") {
        true => knapsack_optimum(model),
        false => cover_optimum(model),
    }
}

fn run(
    name: &str,
    model: &Model,
    limit: Option<std::time::Duration>,
    params: &[(&str, &str)],
) -> Outcome {
    let mut options = BackendOptions {
        time_limit: limit,
        ..BackendOptions::default()
    };
    if name == "vsa" {
        options.params.insert("code".into(), "unitary".into());
    }
    for (k, v) in params {
        options.params.insert((*k).into(), (*v).into());
    }
    let mut backend = make_backend(name, &options).unwrap();
    solve_verified(backend.as_mut(), model).unwrap()
}

/// `bound` and `value` sandwich `optimum` (on the sides the model's sense says).
fn sandwiched(model: &Model, out: &Outcome, optimum: i128) -> Result<(), String> {
    let (Some(value), Some(bound)) = (out.objective, out.bound) else {
        return Err(format!("no value or no bound: {out:?}"));
    };
    let ok = match model.objective().unwrap().sense() {
        ObjectiveSense::Minimize => bound <= optimum && optimum <= value,
        ObjectiveSense::Maximize => value <= optimum && optimum <= bound,
    };
    match ok {
        true => Ok(()),
        false => Err(format!("bound {bound}, optimum {optimum}, value {value}")),
    }
}

#[test]
fn every_optimiser_stopped_early_reports_a_bound_on_the_right_side_of_the_optimum() {
    let models = [
        knapsack(70, 2, true),
        knapsack(70, 5, false),
        set_cover(40, 14, 3),
    ];
    let mut stopped = std::collections::BTreeSet::new();
    for model in &models {
        let optimum = optimum(model);
        for name in ["bitset", "vsa", "enum"] {
            let out = run(name, model, Some(std::time::Duration::ZERO), &[]);
            let what = format!("{name} on {}", model.name());
            eprintln!(
                "{what}: {:?} {:?} {:?} (optimum {optimum})",
                out.status, out.objective, out.bound
            );
            if out.status == Status::Feasible {
                stopped.insert(name);
            }
            assert!(
                matches!(out.status, Status::Feasible | Status::Optimal),
                "{what}: {:?} {:?}",
                out.status,
                out.reason
            );
            sandwiched(model, &out, optimum)
                .map_err(|e| format!("{what}: {e}"))
                .unwrap();
            if out.status == Status::Optimal {
                assert_eq!(
                    (out.objective, out.bound),
                    (Some(optimum), Some(optimum)),
                    "{what}"
                );
            }
        }
    }
    // Every optimiser was stopped before its proof at least once (so its bound at a stop
    // was checked).
    assert_eq!(stopped.len(), 3, "{stopped:?}");
}

/// `count` covering knapsacks of `n` items each, on disjoint items: each row asks for at
/// least half its weight (3 to 20 per item). Minimising the values `w + 10`, or maximising
/// their negatives. Every solution takes at least 1/40 of each row's items, so a search
/// places many ones (and makes a node per item) before its first solution: with no time at
/// all, every optimiser stops before it.
fn covering_knapsacks(count: usize, n: usize, seed: u64, sense: ObjectiveSense) -> Model {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut b = ModelBuilder::new(format!("knapsacks-{count}x{n}"), PuzzleKind::Generic);
    let f = b.family("capacity");
    let mut costs = Vec::new();
    for k in 0..count {
        let vars: Vec<usize> = (0..n)
            .map(|i| b.variable(format!("k{k}x{i}"), Coord::Free))
            .collect();
        let w: Vec<u64> = (0..n).map(|_| rng.gen_range(3..=20)).collect();
        let half = w.iter().sum::<u64>() / 2;
        let sign = if sense == ObjectiveSense::Maximize {
            -1
        } else {
            1
        };
        costs.extend(
            vars.iter()
                .zip(&w)
                .map(|(&v, &w)| (v, sign * (w as i64 + 10))),
        );
        b.weighted_row(f, vars, w, Sense::AtLeast(half));
    }
    b.objective(sense, costs);
    b.build().unwrap()
}

/// The optimum of [`covering_knapsacks`]: each row's by the dynamic programme of
/// [`knapsack_optimum`] (its costs taken positive), summed, in the objective's sign.
fn covering_knapsacks_optimum(model: &Model) -> i128 {
    let objective = model.objective().unwrap();
    let sign = match objective.sense() {
        ObjectiveSense::Minimize => 1,
        ObjectiveSense::Maximize => -1,
    };
    let least: i128 = (model.constraints().iter())
        .map(|row| {
            let mut b = ModelBuilder::new("knapsack-row", PuzzleKind::Generic);
            let vars: Vec<usize> = (0..row.terms().count())
                .map(|i| b.variable(format!("x{i}"), Coord::Free))
                .collect();
            let f = b.family("capacity");
            let w: Vec<u64> = row.terms().map(|(_, w)| w).collect();
            let costs = (row.terms().enumerate())
                .map(|(i, (v, _))| (i, (sign * objective.value(&[v])) as i64))
                .collect();
            b.weighted_row(f, vars, w, row.sense);
            b.objective(ObjectiveSense::Minimize, costs);
            knapsack_optimum(&b.build().unwrap())
        })
        .sum();
    sign * least
}

/// Whether `bound` cuts off `optimum`: the optimum is strictly better than the bound claims
/// any solution can be, under `model`'s sense.
fn cuts_off(model: &Model, bound: i128, optimum: i128) -> bool {
    model.objective().unwrap().better(optimum, bound)
}

/// Every registered backend that stops itself at a time limit, under each setting its registry
/// entry promises, given no time at all; each named with its settings.
fn with_no_time() -> Vec<(&'static str, String, Box<dyn zeroone::backend::Backend>)> {
    let mut made = Vec::new();
    for info in zeroone::backend::registry() {
        for promise in info.promises.iter().filter(|_| info.uses_time_limit) {
            let options = BackendOptions {
                time_limit: Some(std::time::Duration::ZERO),
                ..promise.options()
            };
            let backend = make_backend(info.name, &options).unwrap();
            made.push((
                info.name,
                format!("{} {:?}", info.name, promise.params),
                backend,
            ));
        }
    }
    made
}

#[test]
fn every_optimiser_stopped_before_its_first_solution_reports_a_bound_that_keeps_the_optimum() {
    // Every registered backend that stops itself at a time limit and optimises, under each
    // setting its registry entry promises, with no time at all: `timeout` with no solution
    // (the run really had no incumbent), and a bound on the right side of the optimum, with
    // no gap (there is no value to measure it from).
    let models = [
        covering_knapsacks(100, 60, 39, ObjectiveSense::Minimize),
        covering_knapsacks(100, 60, 40, ObjectiveSense::Maximize),
    ];
    let mut checked = std::collections::BTreeSet::new();
    for model in &models {
        let optimum = covering_knapsacks_optimum(model);
        let sense = model.objective().unwrap().sense();
        for (name, setting, mut backend) in with_no_time() {
            if backend.optimizer().is_none() {
                continue;
            }
            let what = format!("{setting} on {sense:?}");
            let out = solve_verified(backend.as_mut(), model).unwrap();
            eprintln!(
                "{what}: {:?} {:?} (optimum {optimum})",
                out.status, out.bound
            );
            assert_eq!(out.status, Status::Timeout, "{what}: {:?}", out.reason);
            assert!(out.solution.is_none() && out.objective.is_none(), "{what}");
            let bound = out.bound.unwrap_or_else(|| panic!("{what}: no bound"));
            assert!(
                !cuts_off(model, bound, optimum),
                "{what}: bound {bound} cuts off the optimum {optimum}"
            );
            assert_eq!((out.gap(), out.gap_ratio()), (None, None), "{what}");
            checked.insert(name);
        }
    }
    for name in ["bitset", "vsa", "enum", "sat", "milp", "auto"] {
        assert!(checked.contains(name), "{name} not checked: {checked:?}");
    }
}

#[test]
fn a_run_with_a_proof_log_stopped_before_its_first_solution_keeps_its_bound() {
    // The proof-logging path of every registered backend that logs proofs of an
    // optimisation, with no time at all: `timeout`, no solution, and the search's bound on
    // the right side of the optimum (the proof claims nothing of a stopped run).
    use zeroone::backend::proof::{prove_verified, ProofTask, ProvedAnswer};
    let model = covering_knapsacks(100, 60, 41, ObjectiveSense::Maximize);
    let optimum = covering_knapsacks_optimum(&model);
    let mut checked = Vec::new();
    for (name, what, mut backend) in with_no_time() {
        let dir = tempfile::tempdir().unwrap();
        let task = ProofTask::Optimize;
        let Ok(proved) = prove_verified(backend.as_mut(), &model, task, dir.path(), "k") else {
            continue;
        };
        let ProvedAnswer::Solve(out) = proved.answer else {
            panic!("{what}: an optimisation answers as a solve");
        };
        assert_eq!(out.status, Status::Timeout, "{what}: {:?}", out.reason);
        assert!(out.solution.is_none() && out.gap().is_none(), "{what}");
        let bound = out.bound.unwrap_or_else(|| panic!("{what}: no bound"));
        assert!(
            !cuts_off(&model, bound, optimum),
            "{what}: {bound} {optimum}"
        );
        checked.push(name);
    }
    assert!(checked.contains(&"bitset"), "{checked:?}");
}

#[test]
fn the_search_bound_rises_above_the_root_bound_and_the_trace_is_in_order() {
    // A 20-item knapsack: stopped at once, the search's bound is at least as tight as the
    // root bound (maximising: at most it); run to the end, the trace's incumbents improve
    // and its bounds only tighten (maximising: fall), ending at the optimum.
    let model = knapsack(30, 7, true);
    let optimum = optimum(&model);
    let root = zeroone::backend::branch_bound::root_bound(&model).unwrap();
    assert!(root >= optimum);
    let out = run("bitset", &model, Some(std::time::Duration::ZERO), &[]);
    sandwiched(&model, &out, optimum).unwrap();
    assert!(
        out.bound.unwrap() <= root,
        "{:?} above the root's {root}",
        out.bound
    );
    let full = run("bitset", &model, None, &[]);
    let trace = &full.stats.trace;
    assert!(trace.len() >= 2, "{trace:?}");
    let values: Vec<i128> = trace.iter().filter_map(|p| p.value).collect();
    let bounds: Vec<i128> = trace.iter().filter_map(|p| p.bound).collect();
    assert!(values.windows(2).all(|w| w[0] <= w[1]), "{values:?}");
    assert!(bounds.windows(2).all(|w| w[0] >= w[1]), "{bounds:?}");
    assert!(trace.windows(2).all(|w| w[0].seconds <= w[1].seconds));
    let last = trace.last().unwrap();
    assert_eq!((last.value, last.bound), (Some(optimum), Some(optimum)));
    // enum keeps a trace too, in the model's own values even where its reduction fixed
    // variables (a given item here: its value counts from the first point on).
    let mut b = ModelBuilder::new("knapsack-given", PuzzleKind::Generic);
    let vars: Vec<usize> = (0..12)
        .map(|i| b.variable(format!("x{i}"), Coord::Free))
        .collect();
    let f = b.family("capacity");
    let w: Vec<u64> = (0..12).map(|i| 3 + (i * 7) % 11).collect();
    b.weighted_row(f, vars, w.clone(), Sense::AtMost(w.iter().sum::<u64>() / 2));
    b.objective(
        ObjectiveSense::Maximize,
        w.iter()
            .enumerate()
            .map(|(i, &w)| (i, w as i64 + 10))
            .collect(),
    );
    b.given(0);
    let given = b.build().unwrap();
    let out = run("enum", &given, None, &[]);
    let bitset = run("bitset", &given, None, &[]);
    assert_eq!(out.objective, bitset.objective);
    let last = out.stats.trace.last().expect("enum keeps a trace");
    assert_eq!(
        (last.value, last.bound),
        (out.objective, out.objective),
        "{:?}",
        out.stats.trace
    );
    let values: Vec<i128> = out.stats.trace.iter().filter_map(|p| p.value).collect();
    assert!(values.windows(2).all(|w| w[0] <= w[1]), "{values:?}");
    // The trace goes into the JSON of the stats and back.
    let json = serde_json::to_value(&full.stats).unwrap();
    assert!(json["trace"]
        .as_array()
        .is_some_and(|a| a.len() == trace.len()));
    let back: zeroone::backend::Stats = serde_json::from_value(json).unwrap();
    assert_eq!(&back.trace, trace);
}

#[test]
fn the_gap_options_stop_early_with_status_feasible_and_zero_gap_is_optimal() {
    let model = set_cover(40, 16, 11);
    let optimum = optimum(&model);
    let full = run("bitset", &model, None, &[]);
    assert_eq!(full.objective, Some(optimum));
    for name in ["bitset", "auto", "enum"] {
        // auto sends this objective to milp, but to bitset (which honours gaps) when a gap
        // option is given: the run without one to compare with is bitset's.
        let engine = if name == "auto" { "bitset" } else { name };
        let full = run(engine, &model, None, &[]);
        // A generous relative gap: the first incumbent within 100% of the bound stops it.
        let out = run(name, &model, None, &[("gap", "1")]);
        assert!(
            matches!(out.status, Status::Feasible | Status::Optimal),
            "{name}: {out:?}"
        );
        sandwiched(&model, &out, optimum).unwrap();
        assert!(out.gap().unwrap() <= 1.0, "{name}: {:?}", out.gap());
        if out.status == Status::Feasible {
            assert!(
                out.reason.as_deref().unwrap().contains("gap"),
                "{:?}",
                out.reason
            );
            assert!(out.stats.nodes <= full.stats.nodes);
        }
        // An absolute gap.
        let out = run(name, &model, None, &[("abs-gap", "5")]);
        sandwiched(&model, &out, optimum).unwrap();
        let (v, b) = (out.objective.unwrap(), out.bound.unwrap());
        assert!(v - b <= 5, "{name}: {v} {b}");
        // Gap 0: only a proof stops it.
        let out = run(name, &model, None, &[("gap", "0")]);
        assert_eq!(out.status, Status::Optimal, "{name}");
        assert_eq!(out.objective, Some(optimum));
    }
    // The first incumbent of a search is within a 1000% gap: the search stops at once.
    let out = run("bitset", &model, None, &[("gap", "10")]);
    assert_eq!(out.status, Status::Feasible, "{out:?}");
    assert!(
        out.stats.nodes < full.stats.nodes,
        "{} {}",
        out.stats.nodes,
        full.stats.nodes
    );
    // Backends that cannot honour a gap refuse it by name.
    for name in ["milp", "brute", "dp"] {
        let mut options = BackendOptions::default();
        options.params.insert("gap".into(), "0.1".into());
        let err = make_backend(name, &options).err().expect(name).to_string();
        assert!(err.contains("gap"), "{name}: {err}");
    }
    let mut options = BackendOptions::default();
    options.params.insert("gap".into(), "-1".into());
    assert!(make_backend("bitset", &options).is_err());
}

fn zeroone(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

const KNAPSACK_60: &str = "models/generated/optimisation/knapsack-60.json";

#[test]
fn the_command_line_shows_bound_gap_and_trace_and_takes_the_gap_options() {
    // Stopped by the time limit (in a worker process): feasible, with the bound, the gap as
    // a float and an exact fraction, and the trace in the statistics.
    let out = zeroone(&[
        "solve",
        KNAPSACK_60,
        "--backend",
        "bitset",
        "--time-limit",
        "0.3",
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (value, bound) = (
        json["objective"].as_i64().unwrap(),
        json["bound"].as_i64().unwrap(),
    );
    if json["status"] == "feasible" {
        // Maximising: the bound is at least the value, and at least the optimum (854).
        assert!(bound >= 854 && value <= 854, "{json}");
        let exact = format!("{}/{}", bound - value, value);
        assert_eq!(json["gap_exact"], exact.as_str(), "{json}");
        let gap = json["gap"].as_f64().unwrap();
        assert!((gap - (bound - value) as f64 / value as f64).abs() < 1e-12);
    }
    let trace = json["stats"]["trace"].as_array().unwrap();
    assert!(
        !trace.is_empty() && trace.iter().all(|p| p["t"].is_number()),
        "{json}"
    );
    // The gap option: 5% is met by an early incumbent against the root bound.
    let out = zeroone(&[
        "solve",
        KNAPSACK_60,
        "--backend",
        "bitset",
        "--gap",
        "0.05",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["status"], "feasible", "{json}");
    assert!(json["gap"].as_f64().unwrap() <= 0.05, "{json}");
    assert!(
        json["reason"].as_str().unwrap().contains("gap tolerance"),
        "{json}"
    );
    // In text: the bound and the gap, with its exact fraction.
    let out = zeroone(&["solve", KNAPSACK_60, "--backend", "bitset", "--gap", "0.05"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(", bound ") && text.contains("% (") && text.contains("feasible"),
        "{text}"
    );
    // Refused: a backend that cannot honour it, a bad value (exit 2, naming the option).
    for args in [
        &["--backend", "milp", "--gap", "0.1"][..],
        &["--backend", "bitset", "--gap=-1"][..],
        &["--backend", "bitset", "--gap", "inf"][..],
        &["--backend", "bitset", "--abs-gap", "x"][..],
    ] {
        let out = zeroone(&[&["solve", KNAPSACK_60][..], args].concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("gap"), "{args:?}: {stderr}");
    }
}

#[test]
fn the_command_line_shows_the_bound_of_a_run_stopped_before_a_solution_with_no_gap() {
    // 1 us is no time at all for 6,000 items: `timeout`, no value, the bound on the right
    // side of the optimum, and no gap (null in JSON, `-` in text), for a search and the MILP.
    let model = covering_knapsacks(100, 60, 39, ObjectiveSense::Minimize);
    let optimum = covering_knapsacks_optimum(&model);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("knapsacks.json");
    std::fs::write(&path, zeroone::export::json::to_json(&model).unwrap()).unwrap();
    let file = path.to_str().unwrap();
    for backend in ["bitset", "milp"] {
        let args = [
            "solve",
            file,
            "--backend",
            backend,
            "--time-limit",
            "0.000001",
        ];
        let out = zeroone(&[&args[..], &["--json"]].concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{backend}: {stderr}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["status"], "timeout", "{backend}: {json}");
        let bound = json["bound"].as_i64().expect("a bound") as i128;
        assert!(
            bound <= optimum,
            "{backend}: {bound} above the optimum {optimum}"
        );
        for key in ["objective", "gap", "gap_exact"] {
            assert!(json[key].is_null(), "{backend}: {key} in {json}");
        }
        let out = zeroone(&args);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains(&format!("timeout by {backend}"))
                && text.contains(&format!(", bound {bound}, gap -")),
            "{backend}: {text}"
        );
    }
}

#[test]
fn solve_progress_prints_the_incumbent_bound_and_gap_of_an_optimiser() {
    // The 60-item knapsack takes bitset a few seconds in a test build (no limit: in this
    // process); lines every 0.2 s carry its incumbent, bound and gap.
    let out = zeroone(&[
        "solve",
        KNAPSACK_60,
        "--backend",
        "bitset",
        "--progress",
        "0.2",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("still solving puzzle 0 with bitset"),
        "{stderr}"
    );
    assert!(
        stderr.contains(": incumbent ") && stderr.contains(", bound ") && stderr.contains(", gap "),
        "{stderr}"
    );
}

#[test]
fn a_pool_lists_every_solution_within_the_gap_of_the_optimum_and_the_n_best() {
    // Against brute force's every solution, valued here: the pool within G is exactly those
    // within G of the optimum, for both senses; with a limit, the n best values in order.
    use zeroone::backend::{solutions_verified, solutions_within_verified};
    for model in [
        knapsack(14, 21, true),
        knapsack(14, 22, false),
        set_cover(14, 8, 23),
    ] {
        let objective = model.objective().unwrap().clone();
        let mut brute = make_backend("brute", &BackendOptions::default()).unwrap();
        let mut all = Vec::new();
        solutions_verified(brute.as_mut(), &model, None, &mut |s| {
            all.push(objective.value(&s.ones))
        })
        .unwrap();
        let optimum = optimum(&model);
        let mut by_quality = all.clone();
        by_quality.sort_by_key(|&v| objective.flip(v));
        for within in [0u128, 3, 20] {
            for name in ["bitset", "brute"] {
                let mut backend = make_backend(name, &BackendOptions::default()).unwrap();
                let mut got = Vec::new();
                let (best, stream) =
                    solutions_within_verified(backend.as_mut(), &model, within, None, &mut |s| {
                        got.push(objective.value(&s.ones))
                    })
                    .unwrap();
                assert_eq!(best.objective, Some(optimum));
                assert!(stream.unwrap().exhaustive);
                got.sort_by_key(|&v| objective.flip(v));
                let expected: Vec<i128> = by_quality
                    .iter()
                    .copied()
                    .filter(|v| v.abs_diff(optimum) <= within)
                    .collect();
                assert_eq!(got, expected, "{name} within {within} on {}", model.name());
            }
        }
        // The 5 best (within a gap wide enough to hold them all), best first.
        let mut backend = make_backend("bitset", &BackendOptions::default()).unwrap();
        let mut got = Vec::new();
        let (_, stream) =
            solutions_within_verified(backend.as_mut(), &model, u128::MAX, Some(5), &mut |s| {
                got.push(objective.value(&s.ones))
            })
            .unwrap();
        assert_eq!(stream.unwrap().count, got.len() as u128);
        assert_eq!(
            got,
            by_quality[..5.min(by_quality.len())],
            "{}",
            model.name()
        );
    }
}

#[test]
fn solve_all_within_prints_a_verified_pool_and_refuses_a_model_without_objective() {
    let file = "models/generated/optimisation/knapsack-20.json";
    let out = zeroone(&[
        "solve",
        file,
        "--backend",
        "bitset",
        "--all",
        "--within",
        "30",
        "--limit",
        "4",
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 5, "{lines:?}");
    let optimum = lines[0]["objective"].as_i64().unwrap();
    assert_eq!(lines[0]["status"], "optimal");
    let values: Vec<i64> = lines[..4]
        .iter()
        .map(|l| l["objective"].as_i64().unwrap())
        .collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
    for l in &lines[1..4] {
        assert!(l["verified"] == true && l["bound"] == optimum, "{l}");
        let v = l["objective"].as_i64().unwrap();
        assert!(optimum - v <= 30);
        assert_eq!(
            l["status"],
            if v == optimum { "optimal" } else { "feasible" }
        );
    }
    assert_eq!(
        (lines[4]["solutions"].as_u64(), lines[4]["status"].as_str()),
        (Some(4), Some("limit"))
    );
    let out = zeroone(&[
        "solve",
        "models/hex-bare.hex",
        "--index",
        "0",
        "--all",
        "--within",
        "3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--within needs a model with an objective")
    );
}

#[test]
fn a_hint_seeds_the_incumbent_and_a_broken_hint_is_not_trusted() {
    // The 70-item knapsack stopped at once: without a hint its incumbent is below the
    // optimum; with the optimal solution as the hint, the stopped run returns the optimum.
    let model = knapsack(70, 2, true);
    let best = optimum(&model);
    let plain = run("bitset", &model, Some(std::time::Duration::ZERO), &[]);
    assert!(plain.objective.unwrap() < best, "{plain:?}");
    let ones = knapsack_packing(&model);
    assert_eq!(model.objective().unwrap().value(&ones), best);
    let hint: Vec<String> = (0..model.num_variables())
        .map(|v| format!("{v}={}", u8::from(ones.contains(&v))))
        .collect();
    let hint = hint.join(",");
    for name in ["bitset", "auto"] {
        let out = run(
            name,
            &model,
            Some(std::time::Duration::ZERO),
            &[("hint", &hint)],
        );
        assert_eq!(out.objective, Some(best), "{name}: {out:?}");
        sandwiched(&model, &out, best).unwrap();
        assert_eq!(out.stats.extra["hint_incumbent"], true);
    }
    // A complete hint that breaks the capacity row: never the answer, only an order.
    let model = knapsack(30, 7, true);
    let best = optimum(&model);
    let all_in: Vec<String> = (0..model.num_variables())
        .map(|v| format!("{v}=1"))
        .collect();
    let out = run("bitset", &model, None, &[("hint", &all_in.join(","))]);
    assert_eq!((out.status, out.objective), (Status::Optimal, Some(best)));
    assert_eq!(out.stats.extra["hint_incumbent"], false);
    // A partial hint orders the choices; the answer is the same optimum.
    let out = run("bitset", &model, None, &[("hint", "0=1,1=0,5=1")]);
    assert_eq!((out.status, out.objective), (Status::Optimal, Some(best)));
    // Bad hints are refused: malformed, a variable twice, beyond the model.
    for bad in ["0=2", "x=1", "0=1,0=0"] {
        let mut options = BackendOptions::default();
        options.params.insert("hint".into(), bad.into());
        assert!(make_backend("bitset", &options).is_err(), "{bad}");
    }
    let out = run("bitset", &model, None, &[("hint", "999=1")]);
    assert_eq!(out.status, Status::Error, "{out:?}");
}

#[test]
fn solve_hint_reads_solve_output_and_partial_assignments_with_located_errors() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    };
    let file = "models/generated/optimisation/knapsack-20.json";
    let solved = zeroone(&["solve", file, "--backend", "bitset", "--json"]);
    let text = zeroone(&["solve", file, "--backend", "bitset"]);
    let optimum =
        serde_json::from_slice::<serde_json::Value>(&solved.stdout).unwrap()["objective"].clone();
    for hint in [
        write("solution.json", &String::from_utf8_lossy(&solved.stdout)),
        write("solution.txt", &String::from_utf8_lossy(&text.stdout)),
        write(
            "partial.txt",
            "# a partial assignment\nitem2=1, item3=1 item4=0\n",
        ),
    ] {
        let out = zeroone(&[
            "solve",
            file,
            "--backend",
            "bitset",
            "--json",
            "--hint",
            &hint,
        ]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{hint}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            (&json["status"], &json["objective"]),
            (&"optimal".into(), &optimum),
            "{hint}"
        );
    }
    // Located errors, exit 2; a backend that cannot take a hint refuses it.
    for (text, expected) in [
        ("item2=1 item3=7\n", ":1:9: expected LABEL=0 or LABEL=1"),
        ("\nnothing=1\n", ":2:1: 'nothing' is no variable"),
        ("item2=1 item2=0\n", "given both 0 and 1"),
    ] {
        let hint = write("bad.txt", text);
        let out = zeroone(&["solve", file, "--hint", &hint]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{text}: {stderr}");
        assert!(stderr.contains(expected), "{text}: {stderr}");
    }
    let hint = write("partial.txt", "item2=1\n");
    let out = zeroone(&["solve", file, "--backend", "milp", "--hint", &hint]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not take option 'hint'"));
    // A solution that breaks a row is reported with the verifier's violation, not trusted.
    let labels: Vec<String> = (0..20).map(|i| format!("item{i}")).collect();
    let hint = write("greedy.txt", &format!("ones: {}\n", labels.join(" ")));
    let out = zeroone(&[
        "solve",
        file,
        "--backend",
        "bitset",
        "--json",
        "--hint",
        &hint,
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("not a solution of") && stderr.contains("must be <="),
        "{stderr}"
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (&json["status"], &json["objective"]),
        (&"optimal".into(), &optimum)
    );
}
