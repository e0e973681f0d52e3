//! Certified answers (issue 38): proofs written by `bitset` for counts, uniqueness,
//! infeasibility and optima, each checked by `veripb` and cross-checked against brute force or
//! a known count; tampered proofs (a step deleted or altered, a count claimed one too high or
//! low) must be rejected; backends that cannot log refuse `--proof` (exit 2).
//!
//! The checker is the `veripb` binary (`.ci/run` installs it, so CI never skips); without it
//! each test prints why it skipped and passes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zeroone::backend::proof::{
    check, find_checker, prove_to_dir, Checked, Claim, ProofFiles, ProofTask,
};
use zeroone::backend::{make_backend, solutions_verified, BackendOptions};
use zeroone::model::{Coord, Model, ModelBuilder, ObjectiveSense, PuzzleKind, Sense};
use zeroone::puzzle::generate::exact_cover::{langford, n_queens, pentominoes};

/// Whether `veripb` is installed; prints the skip reason when not.
fn have_checker(test: &str) -> bool {
    let found = find_checker().is_some();
    if !found {
        eprintln!("{test}: skipped, the proof checker veripb is not installed (cargo install veripb --version '^3' --locked)");
    }
    found
}

/// Proves `task` on `model` with `bitset` into `dir`.
fn prove(model: &Model, task: ProofTask, dir: &Path) -> ProofFiles {
    prove_with("bitset", model, task, dir)
}

/// Proves `task` on `model` with `backend` into `dir`.
fn prove_with(backend: &str, model: &Model, task: ProofTask, dir: &Path) -> ProofFiles {
    let mut backend = make_backend(backend, &BackendOptions::default()).unwrap();
    let prover = backend.prover().expect("the backend logs proofs");
    prove_to_dir(prover, model, task, dir, model.name()).unwrap()
}

/// Proves with `bitset` and checks; panics unless certified.
fn certified(model: &Model, task: ProofTask) -> Claim {
    certified_by("bitset", model, task)
}

/// Proves with `backend` and checks; panics unless certified.
fn certified_by(backend: &str, model: &Model, task: ProofTask) -> Claim {
    let dir = tempfile::tempdir().unwrap();
    let files = prove_with(backend, model, task, dir.path());
    match check(&files.opb, &files.pbp).unwrap() {
        Checked::Certified { claim, .. } => {
            assert_eq!(claim.as_ref(), Some(&files.claim));
            files.claim
        }
        Checked::Rejected { reason } => panic!("{}: rejected: {reason}", model.name()),
    }
}

fn exact(count: u128) -> Claim {
    Claim::Count {
        count,
        exhaustive: true,
    }
}

#[test]
fn counts_of_queens_langford_and_pentominoes_are_certified() {
    if !have_checker("counts") {
        return;
    }
    assert_eq!(certified(&n_queens(6), ProofTask::Count), exact(4));
    assert_eq!(certified(&n_queens(8), ProofTask::Count), exact(92));
    assert_eq!(certified(&langford(7), ProofTask::Count), exact(52));
    assert_eq!(certified(&langford(5), ProofTask::Count), Claim::Infeasible);
    assert_eq!(certified(&pentominoes(3, 20), ProofTask::Count), exact(8));
}

/// The most retractions (`rup 1 ...` steps) alive at once in `text`, counting ids as the
/// checker does from `f N`, and the number of retractions written.
fn live_retractions(text: &str) -> (usize, usize) {
    let (mut next, mut live, mut most, mut written) = (0usize, Vec::new(), 0, 0);
    for line in text.lines() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("f") => next = words.next().unwrap().parse::<usize>().unwrap() + 1,
            Some("del") => {
                let ids: Vec<usize> = words.skip(1).filter_map(|w| w.parse().ok()).collect();
                live.retain(|id| !ids.contains(id));
            }
            Some("rup" | "solx" | "soli" | "pol") => {
                if line.starts_with("rup 1 ") {
                    live.push(next);
                    written += 1;
                    most = most.max(live.len());
                }
                next += 1;
            }
            _ => {}
        }
    }
    (most, written)
}

#[test]
fn retractions_delete_the_deeper_ones_they_subsume() {
    let dir = tempfile::tempdir().unwrap();
    for backend in ["bitset", "xcc"] {
        let files = prove_with(backend, &n_queens(9), ProofTask::Count, dir.path());
        let text = std::fs::read_to_string(&files.pbp).unwrap();
        let (most, written) = live_retractions(&text);
        // A path of at most 9 decisions, each with its open siblings (at most 9 each).
        assert!(written > 500, "{backend}: {written} retractions");
        assert!(most <= 81, "{backend}: {most} of {written} alive at once");
        if have_checker("retractions") {
            let verdict = check(&files.opb, &files.pbp).unwrap();
            let Checked::Certified { claim, .. } = verdict else {
                panic!("{backend}: {verdict:?}")
            };
            assert_eq!(claim, Some(exact(352)));
        }
    }
}

#[test]
fn xcc_counts_and_refutations_are_certified() {
    if !have_checker("xcc") {
        return;
    }
    let count = ProofTask::Count;
    assert_eq!(certified_by("xcc", &n_queens(8), count), exact(92));
    assert_eq!(certified_by("xcc", &langford(7), count), exact(52));
    assert_eq!(certified_by("xcc", &langford(6), count), Claim::Infeasible);
    assert_eq!(certified_by("xcc", &pentominoes(3, 20), count), exact(8));
    assert_eq!(
        certified_by("xcc", &pigeonhole(5, 4), ProofTask::Solve),
        Claim::Infeasible
    );
    assert_eq!(certified_by("xcc", &pigeonhole(4, 4), count), exact(24));
    // Multiplicities (a 2-star Star Battle board: `= 2` rows), and a puzzle's givens.
    for file in ["star-10x10-2.star", "sudoku-9x9.sudoku"] {
        let model = &zeroone::puzzle::parse::load_models(&model_file(file)).unwrap()[0];
        assert_eq!(certified_by("xcc", model, count), exact(1), "{file}");
    }
    // Tampering with xcc's proofs is caught too.
    let dir = tempfile::tempdir().unwrap();
    let files = prove_with("xcc", &n_queens(6), count, dir.path());
    let text = std::fs::read_to_string(&files.pbp).unwrap();
    assert!(accepted(&files.opb, dir.path(), &text));
    let first_solution = text.lines().position(|l| l.starts_with("solx")).unwrap();
    assert!(!accepted(
        &files.opb,
        dir.path(),
        &without(&text, |i, _| i == first_solution)
    ));
}

#[test]
fn counts_up_to_a_limit_are_certified_exact_or_at_least_the_limit() {
    if !have_checker("count up to") {
        return;
    }
    let sudoku = &zeroone::puzzle::parse::load_models(&model_file("sudoku-9x9.sudoku")).unwrap()[0];
    let at_least = |count| Claim::Count {
        count,
        exhaustive: false,
    };
    for backend in ["bitset", "xcc"] {
        // A uniqueness check: the search ends before the limit, so the count is exact.
        assert_eq!(
            certified_by(backend, sudoku, ProofTask::CountUpTo(2)),
            exact(1)
        );
        assert_eq!(
            certified_by(backend, &n_queens(6), ProofTask::CountUpTo(5)),
            exact(4)
        );
        // Stopped at the limit: the proof holds the limit's solutions, nothing more.
        assert_eq!(
            certified_by(backend, &n_queens(8), ProofTask::CountUpTo(2)),
            at_least(2)
        );
        let dir = tempfile::tempdir().unwrap();
        let files = prove_with(backend, &n_queens(8), ProofTask::CountUpTo(3), dir.path());
        let text = std::fs::read_to_string(&files.pbp).unwrap();
        assert_eq!(text.lines().filter(|l| l.starts_with("solx")).count(), 3);
        assert!(
            !text.contains("rup >= 1 ;"),
            "no contradiction after a stop"
        );
        assert_eq!(files.claim, at_least(3));
        // Claimed exact, the same proof is rejected: it never refutes the rest.
        let exact_claim = text.replace("% zeroone claim: at least 3", "% zeroone claim: count 3");
        assert!(!accepted(&files.opb, dir.path(), &exact_claim));
    }
}

#[test]
fn count_limit_with_certify_on_the_command_line() {
    if !have_checker("count --limit --certify") {
        return;
    }
    let file = model_file("sudoku-9x9.sudoku");
    let out = zeroone(&[
        "count",
        file.to_str().unwrap(),
        "--index",
        "0",
        "--backend",
        "bitset",
        "--limit",
        "2",
        "--certify",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(": 1 solution [bitset]; certified"),
        "{stdout}"
    );
    let out = zeroone(&[
        "count",
        file.to_str().unwrap(),
        "--index",
        "0",
        "--optimal",
        "--certify",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn sudoku_uniqueness_is_certified() {
    if !have_checker("sudoku") {
        return;
    }
    let models = zeroone::puzzle::parse::load_models(&model_file("sudoku-9x9.sudoku")).unwrap();
    assert!(!models.is_empty());
    for model in models.iter().take(3) {
        assert_eq!(
            certified(model, ProofTask::Count),
            exact(1),
            "{}",
            model.name()
        );
    }
}

/// Pigeonhole: `p` pigeons, each in exactly one of `h` holes, at most one per hole.
fn pigeonhole(p: usize, h: usize) -> Model {
    let mut b = ModelBuilder::new(format!("php-{p}-{h}"), PuzzleKind::Generic);
    for i in 0..p {
        for j in 0..h {
            b.variable(format!("p{i}h{j}"), Coord::Free);
        }
    }
    let pigeons = b.family("pigeon");
    for i in 0..p {
        b.row(
            pigeons,
            (0..h).map(|j| i * h + j).collect(),
            Sense::ExactlyOne,
        );
    }
    let holes = b.family("hole");
    for j in 0..h {
        b.row(holes, (0..p).map(|i| i * h + j).collect(), Sense::AtMostOne);
    }
    b.build().unwrap()
}

#[test]
fn pigeonhole_infeasibility_is_certified() {
    if !have_checker("pigeonhole") {
        return;
    }
    for (p, h) in [(3, 2), (4, 3), (5, 4), (6, 5)] {
        let model = pigeonhole(p, h);
        assert_eq!(certified(&model, ProofTask::Solve), Claim::Infeasible);
        assert_eq!(certified(&model, ProofTask::Count), Claim::Infeasible);
    }
    assert_eq!(certified(&pigeonhole(4, 4), ProofTask::Count), exact(24));
}

/// A random model with rows of every kind and costs in -9..=9.
fn random_model(rng: &mut ChaCha8Rng, index: usize) -> Model {
    let n = rng.gen_range(4..=10);
    let mut b = ModelBuilder::new(format!("random-{index}"), PuzzleKind::Generic);
    for i in 0..n {
        b.variable(format!("x{i}"), Coord::Free);
    }
    let f = b.family("rows");
    for _ in 0..rng.gen_range(1..=5) {
        let mut vars: Vec<usize> = (0..n).filter(|_| rng.gen_bool(0.45)).collect();
        if vars.is_empty() {
            vars.push(rng.gen_range(0..n));
        }
        let len = vars.len() as u64;
        match rng.gen_range(0..5) {
            0 => b.row(f, vars, Sense::ExactlyOne),
            1 => b.row(f, vars, Sense::AtMostOne),
            2 => b.row(f, vars, Sense::AtLeast(rng.gen_range(1..=len.min(3)))),
            3 => {
                let w: Vec<u64> = (0..len).map(|_| rng.gen_range(1..=6)).collect();
                let cap = rng.gen_range(1..=w.iter().sum::<u64>());
                b.weighted_row(f, vars, w, Sense::AtMost(cap))
            }
            _ => {
                let w: Vec<u64> = (0..len).map(|_| rng.gen_range(1..=4)).collect();
                let k = rng.gen_range(1..=w.iter().sum::<u64>());
                b.weighted_row(f, vars, w, Sense::Exactly(k))
            }
        };
    }
    let sense = if rng.gen_bool(0.5) {
        ObjectiveSense::Minimize
    } else {
        ObjectiveSense::Maximize
    };
    b.objective(sense, (0..n).map(|v| (v, rng.gen_range(-9..=9))).collect());
    b.build().unwrap()
}

/// A random model `xcc` reads: unit-weight rows only (exactly one, at most one, at least k,
/// exactly k), every variable in some row, no objective.
fn random_unit_model(rng: &mut ChaCha8Rng, index: usize) -> Model {
    let n = rng.gen_range(4..=12);
    let mut b = ModelBuilder::new(format!("unit-{index}"), PuzzleKind::Generic);
    for i in 0..n {
        b.variable(format!("x{i}"), Coord::Free);
    }
    let f = b.family("rows");
    let mut seen = vec![false; n];
    for _ in 0..rng.gen_range(2..=6) {
        let vars: Vec<usize> = (0..n).filter(|_| rng.gen_bool(0.4)).collect();
        if vars.len() < 2 {
            continue;
        }
        vars.iter().for_each(|&v| seen[v] = true);
        let len = vars.len() as u64;
        match rng.gen_range(0..4) {
            0 => b.row(f, vars, Sense::ExactlyOne),
            1 => b.row(f, vars, Sense::AtMostOne),
            2 => b.row(f, vars, Sense::AtLeast(rng.gen_range(1..=len.min(3)))),
            _ => b.row(f, vars, Sense::Exactly(rng.gen_range(1..=len.min(3)))),
        };
    }
    // The rest share an at-most-one row (of two variables at least: `xcc` takes a variable
    // alone in its rows as unconstrained, and refuses to log its completions).
    let mut rest: Vec<usize> = (0..n).filter(|&v| !seen[v]).collect();
    if rest.len() == 1 {
        rest.push((rest[0] + 1) % n);
    }
    if !rest.is_empty() {
        b.row(f, rest, Sense::AtMostOne);
    }
    b.build().unwrap()
}

/// `xcc` leaves forced choices out of its proofs (a `rup` there would only repeat unit
/// propagation), so its certified counts of random models with forced choices, refutations
/// and multiplicities are checked against brute force.
#[test]
fn xcc_counts_of_random_unit_row_models_are_certified_and_match_brute_force() {
    if !have_checker("xcc random") {
        return;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(384);
    let mut brute = make_backend("brute", &BackendOptions::default()).unwrap();
    let (mut feasible, mut infeasible) = (0, 0);
    for i in 0..40 {
        let model = random_unit_model(&mut rng, i);
        let mut count = 0u128;
        solutions_verified(brute.as_mut(), &model, None, &mut |_| count += 1).unwrap();
        let expected = match count {
            0 => Claim::Infeasible,
            n => exact(n),
        };
        assert_eq!(
            certified_by("xcc", &model, ProofTask::Count),
            expected,
            "{i}"
        );
        if count == 0 {
            infeasible += 1;
        } else {
            feasible += 1;
        }
    }
    assert!(
        feasible >= 10 && infeasible >= 2,
        "{feasible} feasible, {infeasible} infeasible"
    );
}

/// Brute force's solutions' objective values (minimisation form, as the OPB writes them).
fn brute_values(model: &Model) -> Vec<i128> {
    let mut brute = make_backend("brute", &BackendOptions::default()).unwrap();
    let o = model.objective().unwrap();
    let mut values = Vec::new();
    solutions_verified(brute.as_mut(), model, None, &mut |s| {
        let v = o.value(&s.ones);
        values.push(if o.is_maximize() { -v } else { v });
    })
    .unwrap();
    values
}

#[test]
fn counts_and_optima_of_random_models_are_certified_and_match_brute_force() {
    if !have_checker("random") {
        return;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(38);
    let (mut feasible, mut infeasible) = (0, 0);
    for i in 0..40 {
        let model = random_model(&mut rng, i);
        let values = brute_values(&model);
        let expected_count = match values.len() {
            0 => Claim::Infeasible,
            n => exact(n as u128),
        };
        assert_eq!(certified(&model, ProofTask::Count), expected_count, "{i}");
        let expected_optimum = match values.iter().min() {
            None => Claim::Infeasible,
            Some(&value) => Claim::Optimum { value },
        };
        assert_eq!(
            certified(&model, ProofTask::Optimize),
            expected_optimum,
            "{i}"
        );
        if values.is_empty() {
            infeasible += 1;
        } else {
            feasible += 1;
        }
    }
    assert!(
        feasible >= 10 && infeasible >= 2,
        "{feasible} feasible, {infeasible} infeasible"
    );
}

/// The plain `bitset` optimisation of `model`: its search nodes and its optimum in
/// minimisation form (as the OPB and the claim write it); `None` when infeasible.
fn plain_optimum(model: &Model) -> (u64, Option<i128>) {
    let mut backend = make_backend("bitset", &BackendOptions::default()).unwrap();
    let report = backend.optimizer().unwrap().optimize(model).unwrap();
    let o = model.objective().unwrap();
    (report.stats.nodes, report.value.map(|v| o.flip(v)))
}

/// Proves the optimum of `model`, checks the proof, and asserts that the search with the proof
/// visited as many nodes as without one and found the same optimum (`expected` when given,
/// else the plain search's). The number of `pol` steps (bound prunes the proof justifies).
fn certified_like_plain(model: &Model, expected: Option<Option<i128>>) -> usize {
    let name = model.name().to_string();
    let dir = tempfile::tempdir().unwrap();
    let files = prove(model, ProofTask::Optimize, dir.path());
    match check(&files.opb, &files.pbp).unwrap() {
        Checked::Certified { claim, .. } => assert_eq!(claim.as_ref(), Some(&files.claim)),
        Checked::Rejected { reason } => panic!("{name}: rejected: {reason}"),
    }
    let (nodes, optimum) = plain_optimum(model);
    assert_eq!(
        files.run.stats.nodes, nodes,
        "{name}: nodes with and without the proof"
    );
    let claimed = match files.claim {
        Claim::Optimum { value } => Some(value),
        Claim::Infeasible => None,
        ref other => panic!("{name}: {other:?}"),
    };
    assert_eq!(claimed, optimum, "{name}");
    if let Some(expected) = expected {
        assert_eq!(claimed, expected, "{name}: against brute force");
    }
    let text = std::fs::read_to_string(&files.pbp).unwrap();
    text.lines().filter(|l| l.starts_with("pol ")).count()
}

/// The optimisation models of `experiments/certificates.sh` whose proofs check in about a
/// second: each optimum certified, with the plain search's node count (every prune of the
/// dual ascent and of the packing relaxations is logged as a `pol` derivation, none is given
/// up for a weaker one the checker replays by propagation alone).
#[test]
fn optimisation_models_are_certified_with_the_plain_node_counts() {
    if !have_checker("optimisation") {
        return;
    }
    let mut prunes = 0;
    for file in [
        "generated/optimisation/knapsack-20.json",
        "generated/optimisation/knapsack-30.json",
        "generated/optimisation/setcover-20.json",
        "generated/optimisation/setcover-30.json",
        "generated/optimisation/queens-cost-6.json",
        "generated/optimisation/queens-cost-7.json",
        "queens-cheapest-6.json",
        "set-cover-weighted.json",
        "knapsack-multi.toml",
    ] {
        let model = &zeroone::puzzle::parse::load_models(&model_file(file)).unwrap()[0];
        prunes += certified_like_plain(model, None);
    }
    assert!(prunes >= 50, "{prunes} bound prunes logged");
}

/// A random optimisation model of one of three kinds over 5 to 12 variables: a weighted set
/// cover (`>= k` rows, weights 1 to 4, costs 1 to 9), a knapsack with one to three capacity
/// rows (maximise values 1 to 12; with several rows the surrogate relaxation takes part), or
/// an exact cover (`= 1` and `<= 1` rows, costs -6 to 9).
fn random_optimisation_model(rng: &mut ChaCha8Rng, index: usize) -> Model {
    let n = rng.gen_range(5..=12);
    let kind = index % 3;
    let mut b = ModelBuilder::new(format!("opt-{kind}-{index}"), PuzzleKind::Generic);
    for i in 0..n {
        b.variable(format!("x{i}"), Coord::Free);
    }
    let f = b.family("rows");
    let some = |rng: &mut ChaCha8Rng, p: f64| -> Vec<usize> {
        let vars: Vec<usize> = (0..n).filter(|_| rng.gen_bool(p)).collect();
        if vars.is_empty() {
            vec![rng.gen_range(0..n)]
        } else {
            vars
        }
    };
    let (sense, costs): (ObjectiveSense, Vec<i64>) = match kind {
        0 => {
            for _ in 0..rng.gen_range(2..=6) {
                let vars = some(rng, 0.4);
                let w: Vec<u64> = vars.iter().map(|_| rng.gen_range(1..=4)).collect();
                let k = rng.gen_range(1..=w.iter().sum::<u64>().min(6));
                b.weighted_row(f, vars, w, Sense::AtLeast(k));
            }
            (
                ObjectiveSense::Minimize,
                (0..n).map(|_| rng.gen_range(1..=9)).collect(),
            )
        }
        1 => {
            for _ in 0..rng.gen_range(1..=3) {
                let vars = some(rng, 0.7);
                let w: Vec<u64> = vars.iter().map(|_| rng.gen_range(1..=9)).collect();
                let cap = rng.gen_range(1..=w.iter().sum::<u64>());
                b.weighted_row(f, vars, w, Sense::AtMost(cap));
            }
            (
                ObjectiveSense::Maximize,
                (0..n).map(|_| rng.gen_range(1..=12)).collect(),
            )
        }
        _ => {
            for _ in 0..rng.gen_range(2..=5) {
                let vars = some(rng, 0.35);
                let sense = if rng.gen_bool(0.7) {
                    Sense::ExactlyOne
                } else {
                    Sense::AtMostOne
                };
                b.row(f, vars, sense);
            }
            (
                ObjectiveSense::Minimize,
                (0..n).map(|_| rng.gen_range(-6..=9)).collect(),
            )
        }
    };
    b.objective(sense, costs.into_iter().enumerate().collect());
    b.build().unwrap()
}

/// Random weighted set covers, knapsacks and exact covers: every optimum (or infeasibility)
/// certified, equal to brute force's, found in the plain search's number of nodes.
#[test]
fn random_cover_and_packing_optima_are_certified_like_the_plain_search() {
    if !have_checker("random optimisation") {
        return;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(3838);
    let (mut prunes, mut infeasible) = (0, 0);
    for i in 0..60 {
        let model = random_optimisation_model(&mut rng, i);
        let best = brute_values(&model).into_iter().min();
        infeasible += usize::from(best.is_none());
        prunes += certified_like_plain(&model, Some(best));
    }
    assert!(
        prunes >= 40 && infeasible <= 30,
        "{prunes} prunes, {infeasible} infeasible"
    );
}

/// The words of a `pol` line that are constraint ids (not followed by `*` or `d`).
fn pol_ids(line: &str) -> Vec<usize> {
    let words: Vec<&str> = line.split(' ').collect();
    (1..words.len())
        .filter(|&i| words[i].parse::<u64>().is_ok())
        .filter(|&i| !matches!(words.get(i + 1), Some(&"*") | Some(&"d")))
        .collect()
}

/// A bound prune's derivation that the next step needs (with only the objective-improving
/// constraint in its place the checker rejects the proof) is rejected too with wrong
/// multipliers: its rows taken 0 times instead of their dual values (the literal axioms left
/// as they were). So is the proof with every derivation replaced.
#[test]
fn wrong_multipliers_in_bound_derivations_are_rejected() {
    if !have_checker("pol tamper") {
        return;
    }
    let model = &zeroone::puzzle::parse::load_models(&model_file(
        "generated/optimisation/setcover-20.json",
    ))
    .unwrap()[0];
    let dir = tempfile::tempdir().unwrap();
    let files = prove(model, ProofTask::Optimize, dir.path());
    let text = std::fs::read_to_string(&files.pbp).unwrap();
    assert!(accepted(&files.opb, dir.path(), &text), "the real proof");
    let lines: Vec<&str> = text.lines().collect();
    // Each derivation replaced by a copy of its improving constraint (ids stay in step).
    let bare = |i: usize| format!("pol {} ;", lines[i].split(' ').nth(1).unwrap());
    let replaced = |i: usize, by: &str| -> String {
        (lines.iter().enumerate())
            .map(|(j, l)| format!("{}\n", if j == i { by } else { l }))
            .collect()
    };
    let pols: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("pol "))
        .collect();
    let all_bare: String = (lines.iter().enumerate())
        .map(|(j, l)| {
            format!(
                "{}\n",
                if pols.contains(&j) {
                    bare(j)
                } else {
                    l.to_string()
                }
            )
        })
        .collect();
    assert!(
        !accepted(&files.opb, dir.path(), &all_bare),
        "every derivation replaced"
    );
    let mut tampered = 0;
    for &i in &pols {
        if accepted(&files.opb, dir.path(), &replaced(i, &bare(i))) {
            continue; // unit propagation finds the conflict without this derivation
        }
        // Every row's multiplier (the word before each `*` after a row id) set to 0.
        let ids = pol_ids(lines[i]);
        let mut words: Vec<&str> = lines[i].split(' ').collect();
        for &at in &ids[1..] {
            if words.get(at + 2) == Some(&"*") {
                words[at + 1] = "0";
            }
        }
        let wrong = words.join(" ");
        assert_ne!(wrong, lines[i]);
        assert!(
            !accepted(&files.opb, dir.path(), &replaced(i, &wrong)),
            "line {i} tampered: {wrong}"
        );
        tampered += 1;
        if tampered == 6 {
            break;
        }
    }
    assert!(tampered >= 3, "{tampered} derivations tampered");
}

/// Whether the checker (with zeroone's claim check) accepts `text` as the proof of `opb`.
fn accepted(opb: &Path, dir: &Path, text: &str) -> bool {
    let path = dir.join("tampered.pbp");
    std::fs::write(&path, text).unwrap();
    matches!(check(opb, &path), Ok(Checked::Certified { .. }))
}

/// `text` with every line for which `drop` holds removed.
fn without(text: &str, drop: impl Fn(usize, &str) -> bool) -> String {
    text.lines()
        .enumerate()
        .filter(|&(i, l)| !drop(i, l))
        .map(|(_, l)| format!("{l}\n"))
        .collect()
}

/// Tampering that would fake the answer, each rejected: a solution step deleted (with the
/// claim as it was, and with the claim lowered to match), the claimed count one too high and
/// one too low, the contradiction deleted, every intermediate `rup` step deleted. (Deleting a
/// single intermediate `rup` step may leave a proof that is still valid: unit propagation can
/// rederive it; that fakes nothing, so it is not asked to fail.)
fn tampering_is_rejected(model: &Model, task: ProofTask) {
    let dir = tempfile::tempdir().unwrap();
    let files = prove(model, task, dir.path());
    let text = std::fs::read_to_string(&files.pbp).unwrap();
    assert!(accepted(&files.opb, dir.path(), &text), "the real proof");
    let Claim::Count { count, .. } = files.claim else {
        panic!("a count: {:?}", files.claim)
    };
    let claim = |n: u128| format!("claim: count {n}");
    for wrong in [count + 1, count - 1] {
        let claimed = text.replace(&claim(count), &claim(wrong));
        assert!(
            !accepted(&files.opb, dir.path(), &claimed),
            "count {wrong} claimed"
        );
    }
    // Deletions only spare the checker work: the proof stands without them, and the
    // tampered proofs below drop them, so that a rejection is for the step removed and not for
    // a deletion whose ids shifted.
    let is_deletion = |l: &str| l.starts_with("del id");
    let kept = without(&text, |_, l| is_deletion(l));
    assert!(accepted(&files.opb, dir.path(), &kept), "without deletions");
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("solx"))
    {
        let deleted = without(&text, |j, l| j == i || is_deletion(l));
        assert!(
            !accepted(&files.opb, dir.path(), &deleted),
            "step {i} deleted: {line}"
        );
        let lowered = deleted.replace(&claim(count), &claim(count - 1));
        assert!(
            !accepted(&files.opb, dir.path(), &lowered),
            "step {i} deleted, claim lowered"
        );
    }
    let no_contradiction = without(&text, |_, l| l == "rup >= 1 ;");
    assert!(!accepted(&files.opb, dir.path(), &no_contradiction));
    let no_steps = without(&text, |_, l| l.starts_with("rup 1 ") || is_deletion(l));
    assert_ne!(no_steps, text);
    assert!(
        !accepted(&files.opb, dir.path(), &no_steps),
        "intermediate steps deleted"
    );
}

#[test]
fn tampered_proofs_are_rejected() {
    if !have_checker("tamper") {
        return;
    }
    tampering_is_rejected(&n_queens(6), ProofTask::Count);
    tampering_is_rejected(&langford(4), ProofTask::Count);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut tampered = 0;
    for i in 0..30 {
        let model = random_model(&mut rng, i);
        if brute_values(&model).len() >= 3 {
            tampering_is_rejected(&model, ProofTask::Count);
            tampered += 1;
        }
        if tampered == 3 {
            break;
        }
    }
    assert_eq!(tampered, 3);
}

fn zeroone(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .output()
        .unwrap()
}

fn model_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(name)
}

#[test]
fn backends_that_cannot_log_refuse_proof_with_their_reason() {
    let file = model_file("sudoku-4x4.sudoku");
    for backend in ["sat", "dp", "enum", "milp", "xcc"] {
        let mut args = vec!["count", file.to_str().unwrap(), "--backend", backend];
        args.push("--certify");
        if backend == "xcc" {
            // xcc logs with its search engines, not with the memo engines.
            args.extend(["--param", "engine=memo"]);
        }
        let out = zeroone(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{backend}: {stderr}");
        assert!(stderr.contains("cannot log proofs"), "{backend}: {stderr}");
        assert!(out.stdout.is_empty(), "{backend}: no answer printed");
    }
}

#[test]
fn the_command_line_writes_certifies_and_checks_proofs() {
    if !have_checker("cli") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let file = model_file("sudoku-4x4.sudoku");
    let out = zeroone(&[
        "count",
        file.to_str().unwrap(),
        "--backend",
        "bitset",
        "--proof",
        d,
        "--certify",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().count(), 4);
    for line in stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["certificate"], "checked");
        assert_eq!(v["claim"], "count 1");
    }
    let mut pairs: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pbp"))
        .collect();
    pairs.sort();
    assert_eq!(pairs.len(), 4);
    let pbp = &pairs[0];
    let opb = pbp.with_extension("opb");
    let ok = zeroone(&["check", opb.to_str().unwrap(), pbp.to_str().unwrap()]);
    assert_eq!(ok.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&ok.stdout).starts_with("certified: count 1"));
    // A claim one too high: rejected with the reason, exit 1.
    let text = std::fs::read_to_string(pbp).unwrap();
    let bad = dir.path().join("bad.pbp");
    std::fs::write(&bad, text.replace("claim: count 1", "claim: count 2")).unwrap();
    let out = zeroone(&["check", opb.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("certificate rejected: the proof claims 2 solutions but excludes 1"));
    // A count stopped by the time limit is certified as a lower bound ("at least N").
    let big =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/exact-cover/n-queens-15.json");
    let args = ["count", big.to_str().unwrap(), "--backend", "bitset"];
    let out = zeroone(&[&args[..], &["--time-limit", "0.5", "--certify", "--json"]].concat());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["claim"].as_str().unwrap().starts_with("at least "), "{v}");
    assert_eq!(v["certificate"], "checked", "{v}");
    // Bad input: a missing file, garbage, a proof for another model: exit 2, located.
    std::fs::write(dir.path().join("garbage.pbp"), "garbage\n").unwrap();
    std::fs::write(dir.path().join("garbage.opb"), "garbage\n").unwrap();
    let other = dir.path().join("other.opb");
    std::fs::write(&other, "* #variable= 1 #constraint= 1\n+1 x1 >= 1 ;\n").unwrap();
    for (model, proof, says) in [
        (opb.clone(), dir.path().join("missing.pbp"), "missing.pbp"),
        (
            opb.clone(),
            dir.path().join("garbage.pbp"),
            "garbage.pbp: Syntax error",
        ),
        (
            dir.path().join("garbage.opb"),
            pbp.clone(),
            "garbage.opb:1:1",
        ),
        (other, pbp.clone(), "constraints"),
    ] {
        let out = zeroone(&["check", model.to_str().unwrap(), proof.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
    }
}

#[test]
fn generated_boards_are_certified_unique_and_read_back() {
    if !have_checker("generate --certify") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let line = "# certified unique: bitset's VeriPB proof of the count 1 checked by veripb";
    for (kind, extra) in [
        ("queens", &["--width", "6"][..]),
        ("hex", &["--width", "5"][..]),
        ("star", &["--width", "8", "--stars", "1"][..]),
        ("killer", &["--width", "4"][..]),
    ] {
        let mut args = vec!["generate", kind, "--count", "2", "--seed", "5"];
        args.extend(extra);
        let plain = zeroone(&args);
        args.push("--certify");
        let certified = zeroone(&args);
        let stderr = String::from_utf8_lossy(&certified.stderr);
        assert!(certified.status.success(), "{kind}: {stderr}");
        let text = String::from_utf8(certified.stdout).unwrap();
        // The same boards, each with the certificate's line after its `# unique by:` line.
        assert_eq!(text.matches(line).count(), 2, "{kind}: {text}");
        let with_line = String::from_utf8(plain.stdout)
            .unwrap()
            .replace('\n', "\n\u{0}")
            .split('\u{0}')
            .map(|l| match l.starts_with("# unique by:") {
                true => format!("{l}{line}\n"),
                false => l.to_string(),
            })
            .collect::<String>();
        assert_eq!(text, with_line, "{kind}");
        // The certified file reads back: each board counted unique again.
        let file = dir.path().join(format!("boards.{kind}"));
        std::fs::write(&file, &text).unwrap();
        let counted = zeroone(&[
            "count",
            file.to_str().unwrap(),
            "--backend",
            "bitset",
            "--json",
        ]);
        let out = String::from_utf8_lossy(&counted.stdout);
        assert!(counted.status.success(), "{kind}: {out}");
        assert_eq!(out.matches("\"count\":1,").count(), 2, "{kind}: {out}");
    }
}

#[test]
fn generate_certify_without_the_checker_is_refused_before_any_board() {
    let out = Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(["generate", "queens", "--width", "6", "--certify"])
        .env("ZEROONE_VERIPB", "/no/such/veripb")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--certify: the proof checker `veripb` was not found"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn auto_certifies_through_the_engine_of_its_choice_that_logs() {
    if !have_checker("auto") {
        return;
    }
    let count = ProofTask::Count;
    // Exact cover goes to xcc's counts engine: set partitions of 6 items (Bell(6) = 203),
    // which auto counts with the memo when no proof is asked, and Langford pairs.
    let partitions = zeroone::puzzle::generate::counting::set_partitions(6).unwrap();
    assert_eq!(certified_by("auto", &partitions, count), exact(203));
    assert_eq!(certified_by("auto", &langford(7), count), exact(52));
    // Rows xcc does not read (a Star Battle board's `= 2` rows go to bitset), and an
    // infeasible model.
    let star = &zeroone::puzzle::parse::load_models(&model_file("star-10x10-2.star")).unwrap()[0];
    assert_eq!(certified_by("auto", star, count), exact(1));
    assert_eq!(
        certified_by("auto", &pigeonhole(5, 4), ProofTask::Solve),
        Claim::Infeasible
    );
}
