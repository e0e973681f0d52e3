//! General 0-1 rows (`sum w_i x_i (=, <=, >=) k`) through every backend.
//!
//! Each registered backend either accepts a model ([`Backend::rows_supported`] is `Ok`), and
//! must then solve it verified and count it exactly, or refuses it, and must then say
//! `unsupported` with the row it cannot read. Never a wrong count, never `solved` for a model
//! it did not read.
//!
//! Reference counts: OEIS A001499 (n x n 0-1 matrices with exactly two ones in every row and
//! column: 1, 6, 90, 2040, 67950 for n = 2..6) and subset counts computed here by a plain
//! dynamic program over the weights (independent of every backend).

use zeroone::backend::{
    count_verified, make_backend, registry, solve_verified, Backend, BackendOptions, Status,
};
use zeroone::model::{Coord, Model, ModelBuilder, PuzzleKind, Sense};

/// A builder holding `n x n` cells with `per_line` ones in every row and column, and the cells.
fn line_sums(name: String, n: usize, per_line: u64) -> (ModelBuilder, Vec<usize>) {
    let mut b = ModelBuilder::new(name, PuzzleKind::Generic);
    let x: Vec<usize> = (0..n * n)
        .map(|i| {
            b.coord_variable(Coord::Cell {
                row: i / n,
                col: i % n,
            })
        })
        .collect();
    let rows = b.family("row");
    for r in 0..n {
        b.row(
            rows,
            (0..n).map(|c| x[r * n + c]).collect(),
            Sense::Exactly(per_line),
        );
    }
    let cols = b.family("column");
    for c in 0..n {
        b.row(
            cols,
            (0..n).map(|r| x[r * n + c]).collect(),
            Sense::Exactly(per_line),
        );
    }
    (b, x)
}

/// `n x n` cells, `per_line` ones in every row and column.
fn k_per_line(n: usize, per_line: u64) -> Model {
    line_sums(format!("{per_line}-per-line-{n}"), n, per_line)
        .0
        .build()
        .unwrap()
}

/// A bare `n x n` Star Battle with `stars` stars per row and column and no two stars touching
/// (at most one in every 2x2 window): no regions, no auxiliary variables.
fn bare_star_battle(n: usize, stars: u64) -> Model {
    let (mut b, x) = line_sums(format!("star-{n}-{stars}"), n, stars);
    let apart = b.family("apart");
    for r in 0..n - 1 {
        for c in 0..n - 1 {
            let window = vec![
                x[r * n + c],
                x[r * n + c + 1],
                x[(r + 1) * n + c],
                x[(r + 1) * n + c + 1],
            ];
            b.row(apart, window, Sense::AtMostOne);
        }
    }
    b.build().unwrap()
}

/// Subsets of items with `weights` whose weights sum to `sense` (one weighted row).
fn subset_sum(weights: &[u64], sense: Sense) -> Model {
    let mut b = ModelBuilder::new("subset-sum", PuzzleKind::Generic);
    let x: Vec<usize> = (0..weights.len())
        .map(|i| b.variable(format!("item{i}"), Coord::Free))
        .collect();
    let f = b.family("sum");
    b.weighted_row(f, x, weights.to_vec(), sense);
    b.build().unwrap()
}

/// How many subsets of `weights` have a sum satisfying `sense`: a dynamic program over sums.
fn subsets_reference(weights: &[u64], sense: Sense) -> u128 {
    let total: u64 = weights.iter().sum();
    let mut ways = vec![0u128; total as usize + 1];
    ways[0] = 1;
    for &w in weights {
        for s in (w as usize..=total as usize).rev() {
            ways[s] += ways[s - w as usize];
        }
    }
    (0..=total)
        .filter(|&s| sense.holds(s))
        .map(|s| ways[s as usize])
        .sum()
}

/// At least two of five chosen, at most one of the first two, weights on a second row:
/// counted here by listing all 32 assignments.
fn mixed_senses() -> (Model, u128) {
    let mut b = ModelBuilder::new("mixed", PuzzleKind::Generic);
    let x: Vec<usize> = (0..5)
        .map(|i| b.variable(format!("x{i}"), Coord::Free))
        .collect();
    let f = b.family("at-least");
    b.row(f, x.clone(), Sense::AtLeast(2));
    let g = b.family("pair");
    b.row(g, vec![x[0], x[1]], Sense::AtMostOne);
    let h = b.family("budget");
    b.weighted_row(h, x.clone(), vec![3, 1, 4, 1, 5], Sense::AtMost(8));
    let model = b.build().unwrap();
    let weights = [3u64, 1, 4, 1, 5];
    let count = (0u32..32)
        .filter(|m| {
            let on = |i: usize| m >> i & 1 == 1;
            let ones = m.count_ones();
            let budget: u64 = (0..5).filter(|&i| on(i)).map(|i| weights[i]).sum();
            ones >= 2 && !(on(0) && on(1)) && budget <= 8
        })
        .count() as u128;
    (model, count)
}

/// Three items must add up to exactly 7 with weights 1, 2, 3: impossible (at most 6).
fn infeasible() -> Model {
    subset_sum(&[1, 2, 3], Sense::Exactly(7))
}

/// Two per line on 4 x 4 with two givens in the first row: the rest of that row is 0, and
/// the count is that of the 3 x 4 remainder with the columns' needs reduced.
fn two_per_line_with_givens() -> (Model, u128) {
    let bare = k_per_line(4, 2);
    let model = bare.with_givens("2-per-line-4-givens", vec![0, 1]).unwrap();
    // By symmetry every one of the 6 first-row patterns extends in 90 / 6 = 15 ways.
    (model, 15)
}

/// The cases: model, exact count, and whether only the fast counters count it.
fn cases() -> Vec<(Model, u128, bool)> {
    let weights: Vec<u64> = (1..=12).collect();
    let primes = [2u64, 3, 5, 7, 11, 13, 17, 19, 23];
    let mut cases = vec![
        (k_per_line(3, 2), 6, false),
        (k_per_line(4, 2), 90, false),
        (k_per_line(5, 2), 2040, false),
        (k_per_line(6, 2), 67950, true),
        (k_per_line(4, 0), 1, false),
        (
            subset_sum(&weights, Sense::Exactly(20)),
            subsets_reference(&weights, Sense::Exactly(20)),
            false,
        ),
        (
            subset_sum(&primes, Sense::AtLeast(80)),
            subsets_reference(&primes, Sense::AtLeast(80)),
            false,
        ),
        (
            subset_sum(&primes, Sense::AtMost(9)),
            subsets_reference(&primes, Sense::AtMost(9)),
            false,
        ),
        (infeasible(), 0, false),
    ];
    let (m, c) = mixed_senses();
    cases.push((m, c, false));
    let (m, c) = two_per_line_with_givens();
    cases.push((m, c, false));
    cases
}

/// Backends that count fast enough for tens of thousands of solutions in a debug build.
const FAST_COUNTERS: [&str; 4] = ["bitset", "vsa", "enum", "dp"];
/// Backends that count by re-solving with a cut per solution: small counts only.
const CUT_COUNTERS: [&str; 3] = ["milp", "highs", "brute"];

/// Checks one backend on one case; returns whether it accepted the model.
fn check(backend: &mut dyn Backend, model: &Model, expected: u128, big: bool) -> bool {
    let name = backend.name();
    let accepted = backend.rows_supported(model).is_ok();
    if backend.solver().is_some() {
        let solved = solve_verified(backend, model).unwrap();
        let why = solved.reason.clone().unwrap_or_default();
        if !accepted {
            assert_eq!(
                solved.status,
                Status::Unsupported,
                "{name} on {}: {why}",
                model.name()
            );
            assert!(
                why.contains("row"),
                "{name} on {}: the refusal names no row: {why}",
                model.name()
            );
            return false;
        }
        let too_large = solved.status == Status::Unsupported && name == "brute";
        if name != "gauss" && !too_large {
            let want = if expected > 0 {
                Status::Solved
            } else {
                Status::Infeasible
            };
            assert_eq!(solved.status, want, "{name} on {}: {why}", model.name());
            assert_eq!(solved.verified, expected > 0, "{name} on {}", model.name());
        }
    }
    let cheap = if CUT_COUNTERS.contains(&name) {
        expected <= 100
    } else {
        !big || FAST_COUNTERS.contains(&name)
    };
    if backend.counter().is_some() && cheap {
        let counted = count_verified(backend, model, None).unwrap();
        let why = counted.reason.clone().unwrap_or_default();
        if !accepted {
            assert_eq!(
                counted.status,
                Status::Unsupported,
                "{name} on {}: {why}",
                model.name()
            );
            return false;
        }
        if !(counted.status == Status::Unsupported && name == "brute") {
            assert_eq!(
                counted.status,
                Status::Solved,
                "{name} on {}: {why}",
                model.name()
            );
            assert_eq!(
                counted.count,
                expected,
                "{name} counted {} wrongly",
                model.name()
            );
        }
    }
    accepted
}

#[test]
fn every_backend_counts_general_rows_exactly_or_refuses_them() {
    let cases = cases();
    let mut accepted_by = Vec::new();
    for info in registry() {
        let Ok(mut backend) = make_backend(info.name, &BackendOptions::default()) else {
            continue; // an engine not built into this binary (a cargo feature)
        };
        let accepted = (cases.iter())
            .filter(|(m, expected, big)| check(backend.as_mut(), m, *expected, *big))
            .count();
        accepted_by.push((info.name, accepted));
    }
    // The refusals above are honest; this makes sure the suite is not vacuous.
    assert!(
        accepted_by.iter().any(|&(_, n)| n == cases.len()),
        "no backend accepted every general-row case: {accepted_by:?}"
    );
}

#[test]
fn the_reference_counts_are_what_they_say() {
    // The dynamic program against a hand count: subsets of {1, 2, 3, 4} summing to 5 are
    // {1, 4} and {2, 3}; at least 9 of {2, 3, 5}: only {2, 3, 5} (10), as {3, 5} is 8.
    assert_eq!(subsets_reference(&[1, 2, 3, 4], Sense::Exactly(5)), 2);
    assert_eq!(subsets_reference(&[2, 3, 5], Sense::AtLeast(9)), 1);
    assert_eq!(subsets_reference(&[2, 3, 5], Sense::AtMost(4)), 3); // {}, {2}, {3}
    assert_eq!(mixed_senses().1, 11);
}

#[test]
fn a_star_battle_needs_no_auxiliary_variables() {
    let model = bare_star_battle(8, 2);
    assert_eq!(model.num_variables(), 64);
    assert_eq!(model.constraints().len(), 8 + 8 + 49);
    // The backends that read general rows agree on its count.
    let mut counts = Vec::new();
    for name in FAST_COUNTERS {
        let mut backend = make_backend(name, &BackendOptions::default()).unwrap();
        if backend.rows_supported(&model).is_err() {
            continue;
        }
        let counted = count_verified(backend.as_mut(), &model, None).unwrap();
        assert_eq!(
            counted.status,
            Status::Solved,
            "{name}: {:?}",
            counted.reason
        );
        counts.push((name, counted.count));
    }
    assert!(
        counts.iter().any(|&(name, _)| name == "bitset"),
        "bitset refused it: {counts:?}"
    );
    assert!(counts.windows(2).all(|w| w[0].1 == w[1].1), "{counts:?}");
}
