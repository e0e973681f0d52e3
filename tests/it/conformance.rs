//! The shared conformance suite: every backend the registry lists runs through [`conformance`]
//! under each setting its entry promises ([`BackendInfo::promises`]), with no list of backends
//! here: a new backend's registry line brings it in, and a test fails if it runs no case.
//! Which parts apply (solving, counting, streaming) follows from the backend's abilities.
//!
//! Reference answers come from the brute-force backend on models of at most 25 free variables,
//! and from published counts for larger ones.

use zeroone::backend::{
    count_verified, make_backend, solutions_verified, solve_verified, BackendInfo, BackendOptions,
    Promise, Registry, Status,
};
use zeroone::model::{Coord, Model, ModelBuilder, PuzzleKind, Sense};
use zeroone::puzzle::{HexBoard, QueensBoard, Sudoku};

/// The status a verified count must have: `solved` when it is complete, `limit` when it was
/// cut short (at its limit or a time limit; the partial count stands).
fn complete_or_limit(exhaustive: bool) -> Status {
    if exhaustive {
        Status::Solved
    } else {
        Status::Limit
    }
}

fn sudoku(line: &str) -> Model {
    let cells = line
        .chars()
        .map(|c| zeroone::puzzle::kinds::sudoku::digit_of(c, 4))
        .collect();
    Sudoku::from_cells(2, cells)
        .unwrap()
        .to_model(line)
        .unwrap()
}

fn generic_with_at_most_one() -> Model {
    // One of {a, b, c}, one of {c, d}, at most one of {a, d}: the solutions are {c} and {b, d}.
    let mut b = ModelBuilder::new("generic", PuzzleKind::Generic);
    let v: Vec<usize> = ["a", "b", "c", "d"]
        .iter()
        .map(|l| b.variable(*l, Coord::Free))
        .collect();
    let f = b.family("first");
    b.row(f, vec![v[0], v[1], v[2]], Sense::ExactlyOne);
    let g = b.family("second");
    b.row(g, vec![v[2], v[3]], Sense::ExactlyOne);
    let h = b.family("apart");
    b.row(h, vec![v[0], v[3]], Sense::AtMostOne);
    b.build().unwrap()
}

/// The cases, with their solution counts.
pub(crate) fn cases() -> Vec<(Model, u128)> {
    let mut cases: Vec<(Model, Option<u128>)> = vec![
        (HexBoard::geometry(1).unwrap().to_model("hex-1"), None),
        (HexBoard::geometry(3).unwrap().to_model("hex-3"), None),
        (HexBoard::geometry(5).unwrap().to_model("hex-5"), None),
        (QueensBoard::bare(3).to_model("queens-3"), None),
        (QueensBoard::bare(4).to_model("queens-4"), None),
        (QueensBoard::bare(5).to_model("queens-5"), None),
        (
            QueensBoard::with_regions(vec![
                vec![0, 0, 1, 1],
                vec![0, 2, 1, 1],
                vec![2, 2, 3, 3],
                vec![2, 2, 3, 3],
            ])
            .unwrap()
            .to_model("queens-4-regions"),
            None,
        ),
        (sudoku("1.3.3.1.2.4.4.2."), None),
        (sudoku("12.43.........21"), None),
        (sudoku("1..2..3..3..2..1"), None),
        (generic_with_at_most_one(), None),
        // 4x4 Sudoku grids: 288 (a known count; too many variables for brute force).
        (
            Sudoku::empty(2).to_model("sudoku-4-empty").unwrap(),
            Some(288),
        ),
    ];
    let mut brute = make_backend("brute", &BackendOptions::default()).unwrap();
    cases
        .drain(..)
        .map(|(m, known)| {
            let count = known.unwrap_or_else(|| {
                let c = count_verified(brute.as_mut(), &m, None).unwrap();
                assert!(c.exhaustive && c.status == Status::Solved, "{}", m.name());
                c.count.to_u128().unwrap()
            });
            (m, count)
        })
        .collect()
}

/// Runs the backend `name` of `registry` with `options` through every case within
/// `promise.max_free`, holding it to `promise`; returns how many cases it ran.
fn conformance(
    registry: &Registry,
    name: &str,
    options: BackendOptions,
    promise: Promise,
) -> usize {
    let mut backend = registry.make(name, &options).unwrap();
    assert_eq!(backend.name(), name);
    let has_solver = backend.solver().is_some();
    let has_counter = backend.counter().is_some();
    assert!(
        has_solver || has_counter,
        "{name} can neither solve nor count"
    );
    let mut ran = 0;
    for (model, expected) in cases() {
        if model.reduce().model.num_variables() > promise.max_free {
            continue;
        }
        ran += 1;
        let what = format!("{name} {:?} on {}", promise.params, model.name());
        if has_solver {
            check_solve(backend.as_mut(), &model, expected, promise, &what);
        }
        if backend.streamer().is_some() {
            check_stream(backend.as_mut(), &model, expected, promise, &what);
        }
        if has_counter {
            check_count(backend.as_mut(), &model, expected, promise, &what);
        }
    }
    ran
}

/// Runs every entry of `registry` under each of its promised settings; returns, per entry, how
/// many cases it ran (summed over its settings).
/// The entries run side by side, one thread each (the hand-listed tests this replaced ran as
/// separate tests, side by side too); a failing entry's panic is raised again here.
pub(crate) fn conformance_of_registry(registry: &Registry) -> Vec<(&'static str, usize)> {
    std::thread::scope(|scope| {
        let running: Vec<_> = (registry.entries().iter())
            .map(|info| (info.name, scope.spawn(|| conformance_of(registry, info))))
            .collect();
        (running.into_iter())
            .map(|(name, run)| {
                let ran = run.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
                (name, ran)
            })
            .collect()
    })
}

/// Runs one entry under each of its promised settings; returns how many cases it ran.
pub(crate) fn conformance_of(registry: &Registry, info: &BackendInfo) -> usize {
    (info.promises.iter())
        .map(|p| conformance(registry, info.name, p.options(), *p))
        .sum()
}

/// The names of the entries that ran no case: an entry with no promised setting, or whose
/// settings skip every case.
pub(crate) fn without_cases(ran: &[(&'static str, usize)]) -> Vec<&'static str> {
    (ran.iter())
        .filter(|(_, n)| *n == 0)
        .map(|(name, _)| *name)
        .collect()
}

fn check_solve(
    backend: &mut dyn zeroone::backend::Backend,
    model: &Model,
    expected: u128,
    promise: Promise,
    what: &str,
) {
    let out = solve_verified(backend, model).unwrap();
    assert_ne!(out.status, Status::Error, "{what}: {:?}", out.reason);
    match (expected > 0, out.status) {
        (true, Status::Solved) => assert!(out.verified && out.solution.is_some(), "{what}"),
        (false, Status::Infeasible) => assert!(out.solution.is_none(), "{what}"),
        (_, Status::Unknown) => assert!(!promise.complete, "{what}: unknown"),
        (_, s) => panic!("{what}: {s:?} but the model has {expected} solutions"),
    }
}

fn check_count(
    backend: &mut dyn zeroone::backend::Backend,
    model: &Model,
    expected: u128,
    promise: Promise,
    what: &str,
) {
    let all = count_verified(backend, model, None).unwrap();
    assert_eq!(
        all.status,
        complete_or_limit(all.exhaustive),
        "{what}: {:?}",
        all.reason
    );
    if promise.counts {
        assert!(
            all.exhaustive,
            "{what}: count without a limit stopped early"
        );
    }
    if all.exhaustive {
        assert_eq!(all.count, expected, "{what}: count");
    }
    for limit in [1u64, 2] {
        let some = count_verified(backend, model, Some(limit)).unwrap();
        assert_eq!(
            some.status,
            complete_or_limit(some.exhaustive),
            "{what}: {:?}",
            some.reason
        );
        assert!(some.count <= limit as u128, "{what}: past the limit");
        if promise.counts {
            assert_eq!(
                some.count,
                expected.min(limit as u128),
                "{what}: limit {limit}"
            );
            assert_eq!(some.exhaustive, expected < limit as u128 || some.exhaustive);
        }
    }
}

/// A backend that streams solutions hands over every solution once, each verified: as many as
/// the model has (when it promises complete counts), and no more than a limit asks.
fn check_stream(
    backend: &mut dyn zeroone::backend::Backend,
    model: &Model,
    expected: u128,
    promise: Promise,
    what: &str,
) {
    let mut seen = Vec::new();
    let all = solutions_verified(backend, model, None, &mut |s| seen.push(s.clone())).unwrap();
    assert_ne!(
        all.status,
        Status::Error,
        "{what}: stream: {:?}",
        all.reason
    );
    assert_eq!(all.count, seen.len() as u128, "{what}: stream count");
    if promise.counts {
        assert!(all.exhaustive, "{what}: stream stopped early");
        assert_eq!(all.count, expected, "{what}: stream count");
        let status = if expected > 0 {
            Status::Solved
        } else {
            Status::Infeasible
        };
        assert_eq!(all.status, status, "{what}: stream status");
    }
    let one = solutions_verified(backend, model, Some(1), &mut |_| {}).unwrap();
    assert_eq!(one.count, expected.min(1), "{what}: stream limit 1");
    assert!(
        !one.exhaustive || expected == 0,
        "{what}: stream limit 1 exhaustive"
    );
}

/// Every registered backend runs the shared suite under each setting its registry entry
/// promises, and runs at least one case. 143 cases with the default features (12 settings of
/// 11 backends; brute skips the one case past 25 free variables); the hand list this replaced ran
/// 131, without `auto`.
#[test]
fn every_registered_backend_conforms_and_runs_a_case() {
    let ran = conformance_of_registry(&Registry::builtin());
    assert_eq!(without_cases(&ran), Vec::<&str>::new(), "{ran:?}");
    let names: Vec<&str> = ran.iter().map(|(n, _)| *n).collect();
    assert!(
        names.contains(&"auto") && names.contains(&"brute"),
        "{names:?}"
    );
    let total: usize = ran.iter().map(|(_, n)| n).sum();
    let settings: usize = (Registry::builtin().entries().iter())
        .map(|e| e.promises.len())
        .sum();
    assert_eq!(total, settings * cases().len() - 1, "{ran:?}");
}

#[test]
fn an_entry_that_promises_no_setting_or_skips_every_case_is_named() {
    // The entries take brute's place (a backend names itself as its entry does).
    let brute = *Registry::builtin().get("brute").unwrap();
    let silent = BackendInfo {
        promises: &[],
        ..brute
    };
    const NONE_FREE: Promise = Promise {
        max_free: 0,
        ..Promise::EXACT
    };
    let skipping = BackendInfo {
        promises: &[NONE_FREE],
        ..brute
    };
    let ran = vec![
        (
            "silent",
            conformance_of(&Registry::builtin().with(silent), &silent),
        ),
        (
            "skipping",
            conformance_of(&Registry::builtin().with(skipping), &skipping),
        ),
        ("brute", conformance_of(&Registry::builtin(), &brute)),
    ];
    assert_eq!(without_cases(&ran), ["silent", "skipping"]);
}

#[test]
fn brute_force_refuses_large_models_cleanly() {
    let mut backend = make_backend("brute", &BackendOptions::default()).unwrap();
    let big = Sudoku::empty(2).to_model("big").unwrap();
    let out = solve_verified(backend.as_mut(), &big).unwrap();
    // Refused, not failed: `unsupported` with the reason (it was reported as `error`).
    assert_eq!(out.status, Status::Unsupported);
    assert!(out.reason.unwrap().contains("at most 25"));
    let counted = count_verified(backend.as_mut(), &big, None).unwrap();
    assert_eq!(counted.status, Status::Unsupported);
}

#[test]
fn the_cases_cover_unique_multiple_and_infeasible_models() {
    let counts: Vec<u128> = cases().into_iter().map(|(_, c)| c).collect();
    assert!(counts.contains(&0));
    assert!(counts.contains(&1));
    assert!(counts.iter().any(|&c| c >= 2));
}

/// A random generic model over `n` variables: unit-weight rows of every sense (`= k`, `<= k`,
/// `>= k`, exact cover), from a fixed linear congruential stream.
fn random_cardinality_model(n: usize, rows: usize, seed: u64) -> Model {
    let mut state = seed;
    let mut next = move |m: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % m
    };
    let mut b = ModelBuilder::new(format!("random-{seed}"), PuzzleKind::Generic);
    let v: Vec<usize> = (0..n)
        .map(|i| b.variable(format!("x{i}"), Coord::Free))
        .collect();
    let f = b.family("rows");
    for _ in 0..rows {
        let mut vars: Vec<usize> = v.iter().copied().filter(|_| next(3) == 0).collect();
        if vars.is_empty() {
            vars.push(v[next(n as u64) as usize]);
        }
        let k = next(vars.len() as u64 + 1);
        let sense = match next(5) {
            0 => Sense::Exactly(k),
            1 => Sense::AtMost(k),
            2 => Sense::AtLeast(k),
            3 => Sense::ExactlyOne,
            _ => Sense::AtMostOne,
        };
        b.row(f, vars, sense.normalized(true));
    }
    if next(2) == 0 {
        b.given(v[next(n as u64) as usize]);
    }
    b.build().unwrap_or_else(|_| {
        // Givens that break a row: the same rows without a given.
        random_cardinality_model(n, rows, seed.wrapping_add(1 << 40))
    })
}

#[test]
fn xcc_counts_random_cardinality_models_like_brute_force_and_bitset() {
    let mut solved = 0;
    for seed in 0..60 {
        let model = random_cardinality_model(12, 6, seed);
        let brute = count_with("brute", &model);
        assert_eq!(count_with("xcc", &model), brute, "{}", model.name());
        assert_eq!(count_with("bitset", &model), brute, "{}", model.name());
        solved += usize::from(brute > 0);
        let mut every = Vec::new();
        let mut xcc = make_backend("xcc", &BackendOptions::default()).unwrap();
        let out =
            solutions_verified(xcc.as_mut(), &model, None, &mut |s| every.push(s.clone())).unwrap();
        assert_eq!(
            (out.count, out.exhaustive),
            (brute, true),
            "{}",
            model.name()
        );
    }
    // The stream is not all infeasible models: the cross-check bites.
    assert!(solved >= 15, "only {solved} of 60 models have solutions");
}

fn count_with(name: &str, model: &Model) -> u128 {
    let mut backend = make_backend(name, &BackendOptions::default()).unwrap();
    let out = count_verified(backend.as_mut(), model, None).unwrap();
    assert_eq!(out.status, Status::Solved, "{name}: {:?}", out.reason);
    out.count.to_u128().unwrap()
}

#[test]
fn xcc_has_the_published_counts_of_the_classic_exact_cover_problems() {
    use zeroone::puzzle::generate::exact_cover::{langford, n_queens, pentominoes};
    for (model, count) in [
        (n_queens(8), 92),
        (n_queens(10), 724),
        (langford(7), 52),
        (langford(8), 300),
        (pentominoes(3, 20), 8),
        (pentominoes(4, 15), 1472),
    ] {
        assert_eq!(count_with("xcc", &model), count, "{}", model.name());
    }
}

fn xcc_engine(engine: &str) -> Box<dyn zeroone::backend::Backend> {
    let mut options = BackendOptions::default();
    options.params.insert("engine".into(), engine.into());
    make_backend("xcc", &options).unwrap()
}

#[test]
fn every_xcc_engine_has_the_published_counts_and_names_itself() {
    use zeroone::puzzle::generate::exact_cover::{langford, n_queens, pentominoes};
    let all: &[&str] = &["transposed", "sweep", "byte-counts", "counts"];
    // Pentominoes' tables are too large for byte-counts, their items too long for transposed.
    for (model, count, engines) in [
        (n_queens(9), 352, all),
        (langford(8), 300, all),
        (pentominoes(3, 20), 8, &["sweep", "counts"]),
    ] {
        for &engine in engines {
            let mut xcc = xcc_engine(engine);
            let out = count_verified(xcc.as_mut(), &model, None).unwrap();
            assert_eq!(out.status, Status::Solved, "{engine}: {:?}", out.reason);
            assert_eq!(out.count, count, "{engine} on {}", model.name());
            assert_eq!(out.stats.extra["engine"], engine);
        }
    }
    // A model past 128 items: the sweep refuses it (so does the transposed engine), auto falls
    // back to an MRV engine.
    let big = n_queens(40);
    let out = count_verified(xcc_engine("sweep").as_mut(), &big, Some(1)).unwrap();
    assert_eq!(out.status, Status::Unsupported, "{:?}", out.reason);
    assert!(out.reason.unwrap().contains("engine 'sweep'"));
    let out = count_verified(xcc_engine("auto").as_mut(), &big, Some(1)).unwrap();
    assert_eq!(out.stats.extra["engine"], "counts");
    // Every item in one family (an `.xcc` file, the pieces first as the polyomino package
    // writes them): the sweep's order comes from the items' structure, not the families, so
    // auto sweeps it as it sweeps the generator's model (see `xcc_semantics`).
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/xcc/pentominoes-3x20.xcc");
    let text = std::fs::read_to_string(path).unwrap();
    let one_family = zeroone::read::read_str(zeroone::read::xcc::FORMAT, &text, "p3x20").unwrap();
    let auto = count_verified(xcc_engine("auto").as_mut(), &one_family, None).unwrap();
    assert_eq!(auto.stats.extra["engine"], "sweep");
    assert_eq!(auto.count, 8);
    let out = count_verified(xcc_engine("auto").as_mut(), &n_queens(9), None).unwrap();
    assert_eq!(out.stats.extra["engine"], "transposed");
    let out = count_verified(xcc_engine("auto").as_mut(), &pentominoes(3, 20), None).unwrap();
    assert_eq!(out.stats.extra["engine"], "sweep");
    let out = count_verified(xcc_engine("transposed").as_mut(), &pentominoes(3, 20), None).unwrap();
    assert_eq!(out.status, Status::Unsupported, "{:?}", out.reason);
    assert!(out.reason.unwrap().contains("engine 'transposed'"));
}

/// A random exact-cover model over `n` variables: `rows` rows, each "exactly one" or "at most
/// one" over a random subset, sometimes a `<= 0` row, sometimes a given; from a fixed linear
/// congruential stream.
fn random_exact_cover_model(n: usize, rows: usize, seed: u64) -> Model {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(7);
    let mut next = move |m: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % m
    };
    let mut b = ModelBuilder::new(format!("exact-cover-{seed}"), PuzzleKind::Generic);
    let v: Vec<usize> = (0..n)
        .map(|i| b.variable(format!("x{i}"), Coord::Free))
        .collect();
    let f = b.family("rows");
    for _ in 0..rows {
        let mut vars: Vec<usize> = v.iter().copied().filter(|_| next(4) == 0).collect();
        if vars.is_empty() {
            vars.push(v[next(n as u64) as usize]);
        }
        let sense = match next(9) {
            0..=5 => Sense::ExactlyOne,
            6 | 7 => Sense::AtMostOne,
            _ if vars.len() == 1 => Sense::AtMost(0),
            _ => Sense::AtMostOne,
        };
        b.row(f, vars, sense);
    }
    if next(3) == 0 {
        b.given(v[next(n as u64) as usize]);
    }
    b.build()
        .unwrap_or_else(|_| random_exact_cover_model(n, rows, seed.wrapping_add(1 << 40)))
}

#[test]
fn every_exact_cover_engine_counts_random_exact_cover_like_brute_force() {
    let mut solved = 0;
    for seed in 0..80 {
        let model = random_exact_cover_model(14, 7, seed);
        let brute = count_with("brute", &model);
        for engine in ["transposed", "sweep", "byte-counts", "counts"] {
            let out = count_verified(xcc_engine(engine).as_mut(), &model, None).unwrap();
            assert_eq!(out.status, Status::Solved, "{engine}: {:?}", out.reason);
            assert_eq!(out.count, brute, "{engine} on {}", model.name());
        }
        solved += usize::from(brute > 0);
    }
    // Not all infeasible: the cross-check bites.
    assert!(solved >= 20, "only {solved} of 80 models have solutions");
}

#[test]
fn the_transposed_engine_agrees_with_bitset_under_givens_and_stops_at_a_limit() {
    use zeroone::puzzle::generate::exact_cover::{langford, n_queens};
    let model = n_queens(8);
    // Every single queen as a given: the counts sum to 8 x 92 (each solution has 8 queens).
    let mut total = 0;
    for v in 0..64 {
        let Ok(given) = model.with_givens(format!("given-{v}"), vec![v]) else {
            continue;
        };
        let out = count_verified(xcc_engine("transposed").as_mut(), &given, None).unwrap();
        assert_eq!(out.count, count_with("bitset", &given), "given {v}");
        total += out.count.to_u128().unwrap();
    }
    assert_eq!(total, 8 * 92);
    let out = count_verified(xcc_engine("transposed").as_mut(), &langford(8), Some(7)).unwrap();
    assert_eq!((out.status, out.count.to_u128()), (Status::Limit, Some(7)));
    let mut seen = 0;
    let mut xcc = xcc_engine("transposed");
    let out = solutions_verified(xcc.as_mut(), &n_queens(6), None, &mut |_| seen += 1).unwrap();
    assert_eq!((out.count, seen, out.exhaustive), (4, 4, true));
    // 15-queens (2,279,184 solutions, about a second) under a 1 ms limit: the clock is read.
    let mut options = BackendOptions {
        time_limit: Some(std::time::Duration::from_millis(1)),
        ..BackendOptions::default()
    };
    options.params.insert("engine".into(), "transposed".into());
    let mut xcc = make_backend("xcc", &options).unwrap();
    let out = count_verified(xcc.as_mut(), &n_queens(15), None).unwrap();
    assert_eq!((out.status, out.exhaustive), (Status::Limit, false));
    assert!(out.count < 2_279_184 && out.stats.extra["engine"] == "transposed");
}

#[test]
fn the_transposed_engine_counts_sudoku_like_bitset_in_its_wide_form() {
    // 9x9 Sudoku: 324 primary items of 9 options (16-bit lanes, the 8-word open set). A
    // 17-clue puzzle is unique; without one of its clues it has several solutions: 1,225,
    // 329, 3,556 and 7,309 for the clues dropped here (the others leave 9,282 to 518,474,
    // which cost an unoptimised test build seconds each and check nothing more).
    let line = "000000010400000000020000000000050407008000300001090000300400200050100000000806000";
    let cells: Vec<Option<usize>> = line
        .chars()
        .map(|c| zeroone::puzzle::kinds::sudoku::digit_of(c, 9))
        .collect();
    let clues: Vec<usize> = (0..81).filter(|&i| cells[i].is_some()).collect();
    let mut several = 0;
    for drop in [None, Some(1), Some(2), Some(13), Some(16)] {
        let mut cells = cells.clone();
        if let Some(k) = drop {
            cells[clues[k]] = None;
        }
        let model = Sudoku::from_cells(3, cells)
            .unwrap()
            .to_model("17-clue")
            .unwrap();
        let out = count_verified(xcc_engine("transposed").as_mut(), &model, None).unwrap();
        assert_eq!(out.stats.extra["engine"], "transposed");
        assert_eq!(
            out.count,
            count_with("bitset", &model),
            "without clue {drop:?}"
        );
        assert_eq!(
            out.count == 1,
            drop.is_none(),
            "without clue {drop:?}: {}",
            out.count
        );
        several += usize::from(out.count > 1);
    }
    assert_eq!(several, 4);
    let out = count_verified(
        xcc_engine("auto").as_mut(),
        &Sudoku::empty(2).to_model("4x4").unwrap(),
        None,
    )
    .unwrap();
    assert_eq!(
        (out.count.to_u128().unwrap(), &out.stats.extra["engine"]),
        (288, &"transposed".into())
    );
}

#[test]
fn the_sweep_agrees_with_bitset_under_givens_and_stops_at_a_limit() {
    use zeroone::puzzle::generate::exact_cover::n_queens;
    let model = n_queens(8);
    // Every single queen as a given: the counts sum to 8 x 92 (each solution has 8 queens).
    let mut total = 0;
    for v in 0..64 {
        let Ok(given) = model.with_givens(format!("given-{v}"), vec![v]) else {
            continue;
        };
        let sweep = count_verified(xcc_engine("sweep").as_mut(), &given, None).unwrap();
        assert_eq!(sweep.count, count_with("bitset", &given), "given {v}");
        total += sweep.count.to_u128().unwrap();
    }
    assert_eq!(total, 8 * 92);
    let out = count_verified(xcc_engine("sweep").as_mut(), &model, Some(5)).unwrap();
    assert_eq!((out.status, out.count.to_u128()), (Status::Limit, Some(5)));
}

#[test]
fn xcc_counts_star_battles_like_bitset() {
    use zeroone::puzzle::kinds::star::StarBoard;
    for (n, stars) in [(5, 1), (6, 1), (8, 2), (9, 2)] {
        let model = StarBoard::bare(n, stars).to_model(format!("star-{n}-{stars}"));
        assert_eq!(
            count_with("xcc", &model),
            count_with("bitset", &model),
            "{n}x{n}, {stars} stars"
        );
    }
}

#[test]
fn xcc_refuses_weighted_rows_by_name_and_stops_at_its_time_limit() {
    let mut b = ModelBuilder::new("weighted", PuzzleKind::Generic);
    let x = b.variable("x", Coord::Free);
    let y = b.variable("y", Coord::Free);
    let f = b.family("budget");
    b.weighted_row(f, vec![x, y], vec![2, 3], Sense::AtMost(4));
    let mut xcc = make_backend("xcc", &BackendOptions::default()).unwrap();
    let out = count_verified(xcc.as_mut(), &b.build().unwrap(), None).unwrap();
    assert_eq!(out.status, Status::Unsupported);
    assert!(
        out.reason.unwrap().contains("row 0 of family 'budget'"),
        "the reason names the row"
    );
    let options = BackendOptions {
        time_limit: Some(std::time::Duration::from_millis(20)),
        ..BackendOptions::default()
    };
    let mut xcc = make_backend("xcc", &options).unwrap();
    let big = zeroone::puzzle::generate::exact_cover::pentominoes(6, 10);
    let out = count_verified(xcc.as_mut(), &big, None).unwrap();
    assert_eq!((out.status, out.exhaustive), (Status::Limit, false));
    assert!(out.count < 9356);
    // Pentominoes go to the sweep, which counts mask tests rather than updates.
    assert!(out.stats.nodes > 0 && out.stats.extra.contains_key("tests"));
}
