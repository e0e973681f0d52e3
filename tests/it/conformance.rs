//! The shared conformance suite: every backend runs through [`conformance`], once each. A new
//! backend adds one test at the bottom with its name and what it promises.
//!
//! Reference answers come from the brute-force backend on models of at most 25 free variables,
//! and from published counts for larger ones.

use zeroone::backend::{
    count_verified, make_backend, solutions_verified, solve_verified, BackendOptions, Status,
};
use zeroone::model::{Coord, Model, ModelBuilder, PuzzleKind, Sense};
use zeroone::puzzle::{HexBoard, QueensBoard, Sudoku};

/// What a backend promises.
#[derive(Clone, Copy)]
struct Promise {
    /// Every solve ends in `solved` or `infeasible` (no `unknown`).
    complete: bool,
    /// Counting without a limit always finishes.
    counts: bool,
    /// Cases with more free variables (after the givens) are skipped.
    max_free: usize,
}

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
        .map(|c| zeroone::puzzle::sudoku::digit_of(c, 4))
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
fn cases() -> Vec<(Model, u128)> {
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
                c.count
            });
            (m, count)
        })
        .collect()
}

fn conformance(name: &str, options: BackendOptions, promise: Promise) {
    let mut backend = make_backend(name, &options).unwrap();
    assert_eq!(backend.name(), name);
    let has_solver = backend.solver().is_some();
    let has_counter = backend.counter().is_some();
    assert!(
        has_solver || has_counter,
        "{name} can neither solve nor count"
    );
    for (model, expected) in cases() {
        if model.reduce().model.num_variables() > promise.max_free {
            continue;
        }
        let what = format!("{name} on {}", model.name());
        if has_solver {
            let out = solve_verified(backend.as_mut(), &model).unwrap();
            assert_ne!(out.status, Status::Error, "{what}: {:?}", out.reason);
            match (expected > 0, out.status) {
                (true, Status::Solved) => assert!(out.verified && out.solution.is_some(), "{what}"),
                (false, Status::Infeasible) => assert!(out.solution.is_none(), "{what}"),
                (_, Status::Unknown) => assert!(!promise.complete, "{what}: unknown"),
                (_, s) => panic!("{what}: {s:?} but the model has {expected} solutions"),
            }
        }
        if backend.streamer().is_some() {
            check_stream(backend.as_mut(), &model, expected, promise, &what);
        }
        if has_counter {
            let all = count_verified(backend.as_mut(), &model, None).unwrap();
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
                let some = count_verified(backend.as_mut(), &model, Some(limit)).unwrap();
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

#[test]
fn brute_force_conforms() {
    let promise = Promise {
        complete: true,
        counts: true,
        max_free: zeroone::backend::brute::MAX_FREE,
    };
    conformance("brute", BackendOptions::default(), promise);
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

#[test]
fn enumerator_conforms() {
    let promise = Promise {
        complete: true,
        counts: true,
        max_free: usize::MAX,
    };
    conformance("enum", BackendOptions::default(), promise);
    let mut mrv = BackendOptions::default();
    mrv.params.insert("order".into(), "mrv".into());
    conformance("enum", mrv, promise);
}

#[test]
fn dp_counter_conforms() {
    let promise = Promise {
        complete: true,
        counts: true,
        max_free: usize::MAX,
    };
    conformance("dp", BackendOptions::default(), promise);
}

#[test]
fn gauss_conforms() {
    // Sound but incomplete: `unknown` whenever elimination leaves a free variable.
    let promise = Promise {
        complete: false,
        counts: false,
        max_free: usize::MAX,
    };
    conformance("gauss", BackendOptions::default(), promise);
}

#[test]
fn milp_conforms() {
    let promise = Promise {
        complete: true,
        counts: true,
        max_free: usize::MAX,
    };
    conformance("milp", BackendOptions::default(), promise);
}

#[test]
fn milp_relaxation_conforms() {
    // The LP relaxation answers only when its vertex is integral or the LP is infeasible, and
    // cannot count.
    let mut options = BackendOptions::default();
    options.params.insert("relax".into(), "true".into());
    let promise = Promise {
        complete: false,
        counts: false,
        max_free: usize::MAX,
    };
    conformance("milp", options, promise);
}

#[cfg(feature = "highs")]
#[test]
fn highs_conforms() {
    let promise = Promise {
        complete: true,
        counts: true,
        max_free: usize::MAX,
    };
    conformance("highs", BackendOptions::default(), promise);
}

#[test]
fn bitset_conforms() {
    let promise = Promise {
        complete: true,
        counts: true,
        max_free: usize::MAX,
    };
    conformance("bitset", BackendOptions::default(), promise);
}

#[test]
fn vsa_unitary_conforms() {
    let mut options = BackendOptions {
        seed: 5,
        ..BackendOptions::default()
    };
    options.params.insert("code".into(), "unitary".into());
    let promise = Promise {
        complete: true,
        counts: true,
        max_free: usize::MAX,
    };
    conformance("vsa", options, promise);
}

#[test]
fn sat_conforms() {
    let promise = Promise {
        complete: true,
        counts: true,
        max_free: usize::MAX,
    };
    conformance("sat", BackendOptions::default(), promise);
}
