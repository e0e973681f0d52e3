//! Tests of the search: counts against known sequences and brute force, and the propagation
//! rules one by one.

use super::engine::{LegalityEngine, RowGate};
use super::layout::Layout;
use super::run::run;
use super::state::{Goal, SearchOutcome};
use crate::backend::bitset::{BitsetBackend, BitsetEngine};
use crate::backend::vsa::VsaBackend;
use crate::backend::{count_verified, Backend, BackendOptions, Status};
use crate::model::{Coord, ModelBuilder, PuzzleKind};
use crate::model::{Model, Sense};

/// One row of a test model: family name, variables, weights (`None`: all 1), sense.
type RowSpec = (&'static str, Vec<usize>, Option<Vec<u64>>, Sense);

/// A generic model with `n` variables `x0..`, and `rows`.
fn model(n: usize, rows: &[RowSpec]) -> Model {
    let mut b = ModelBuilder::new("t", PuzzleKind::Generic);
    for i in 0..n {
        b.variable(format!("x{i}"), Coord::Free);
    }
    let mut families: Vec<(&str, usize)> = Vec::new();
    for (name, vars, weights, sense) in rows {
        let f = match families.iter().find(|(n, _)| n == name) {
            Some(&(_, f)) => f,
            None => {
                let f = b.family(*name);
                families.push((name, f));
                f
            }
        };
        match weights {
            Some(w) => b.weighted_row(f, vars.clone(), w.clone(), *sense),
            None => b.row(f, vars.clone(), *sense),
        };
    }
    b.build().unwrap()
}

/// `n x n` 0-1 matrices whose every row and column sum is `sense`.
fn matrices(n: usize, sense: Sense) -> Model {
    crate::backend::fixtures::line_sums(n, sense, sense)
}

fn backends() -> Vec<Box<dyn Backend>> {
    let o = BackendOptions::default();
    vec![
        Box::new(BitsetBackend::new(&o)),
        Box::new(VsaBackend::new(&o).unwrap()),
    ]
}

fn count(b: &mut dyn Backend, m: &Model) -> u128 {
    let out = count_verified(b, m, None).unwrap();
    assert_eq!(out.status, Status::Solved, "{}: {:?}", b.name(), out.reason);
    out.count.to_u128().unwrap()
}

#[test]
fn two_ones_in_every_row_and_column_match_a001499() {
    for (n, want) in [(2, 1u128), (3, 6), (4, 90), (5, 2040), (6, 67950)] {
        let m = matrices(n, Sense::Exactly(2));
        for mut b in backends() {
            assert_eq!(count(b.as_mut(), &m), want, "{} n = {n}", b.name());
        }
    }
}

#[test]
fn at_least_one_in_every_row_and_column_matches_a048291() {
    for (n, want) in [(1, 1u128), (2, 7), (3, 265), (4, 41503)] {
        let m = matrices(n, Sense::AtLeast(1));
        for mut b in backends() {
            assert_eq!(count(b.as_mut(), &m), want, "{} n = {n}", b.name());
        }
    }
}

/// Subsets of `weights` with sum in `relation target`, by trying all of them.
fn subsets(weights: &[u64], sense: Sense) -> u128 {
    (0u32..1 << weights.len())
        .filter(|mask| {
            let sum: u64 = (0..weights.len())
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| weights[i])
                .sum();
            sense.holds(sum)
        })
        .count() as u128
}

#[test]
fn weighted_rows_count_subset_sums() {
    let weights: Vec<u64> = (1..=10).collect();
    // Distinct parts of 15 no larger than 10: 27 partitions of 15 minus 7 with a part > 10.
    assert_eq!(subsets(&weights, Sense::Exactly(15)), 20);
    let odd = vec![3, 5, 7, 7, 9, 12, 20, 1];
    for (w, sense) in [
        (&weights, Sense::Exactly(15)),
        (&weights, Sense::AtMost(9)),
        (&weights, Sense::AtLeast(40)),
        (&odd, Sense::Exactly(21)),
        (&odd, Sense::Exactly(0)),
        (&odd, Sense::AtLeast(64)),
        (&odd, Sense::Exactly(65)),
    ] {
        let m = model(
            w.len(),
            &[("sum", (0..w.len()).collect(), Some(w.clone()), sense)],
        );
        for mut b in backends() {
            assert_eq!(
                count(b.as_mut(), &m),
                subsets(w, sense),
                "{} {sense}",
                b.name()
            );
        }
    }
}

/// 2-star Star Battle boards of side `n` with no regions: two stars in every row and
/// column, no two touching, by a plain row-by-row search (the oracle).
fn two_star_placements(n: usize) -> u128 {
    fn go(n: usize, row: usize, prev: u32, cols: &mut [u8]) -> u128 {
        if row == n {
            return cols.iter().all(|&c| c == 2) as u128;
        }
        let mut total = 0;
        for a in 0..n {
            for b in a + 2..n {
                let mask = 1u32 << a | 1 << b;
                let near = prev | prev << 1 | prev >> 1;
                if mask & near != 0 || cols[a] == 2 || cols[b] == 2 {
                    continue;
                }
                cols[a] += 1;
                cols[b] += 1;
                total += go(n, row + 1, mask, cols);
                cols[a] -= 1;
                cols[b] -= 1;
            }
        }
        total
    }
    go(n, 0, 0, &mut vec![0; n])
}

/// The bare 2-star model: rows and columns `= 2`, every 2x2 block `<= 1`.
fn two_star_model(n: usize) -> Model {
    let mut rows = Vec::new();
    for i in 0..n {
        rows.push((
            "row",
            (0..n).map(|j| i * n + j).collect(),
            None,
            Sense::Exactly(2),
        ));
        rows.push((
            "column",
            (0..n).map(|j| j * n + i).collect(),
            None,
            Sense::Exactly(2),
        ));
    }
    for i in 0..n - 1 {
        for j in 0..n - 1 {
            let block = vec![
                i * n + j,
                i * n + j + 1,
                (i + 1) * n + j,
                (i + 1) * n + j + 1,
            ];
            rows.push(("block", block, None, Sense::AtMostOne));
        }
    }
    model(n * n, &rows)
}

#[test]
fn bare_two_star_boards_are_counted_without_auxiliary_variables() {
    for n in [5, 6, 8] {
        let want = two_star_placements(n);
        assert!(n < 8 || want > 0);
        let m = two_star_model(n);
        assert_eq!(m.num_variables(), n * n);
        let mut b = BitsetBackend::new(&BackendOptions::default());
        assert_eq!(count(&mut b, &m), want, "n = {n}");
    }
}

/// Runs the bitset search to the end and returns its outcome.
fn run_bitset(m: &Model) -> SearchOutcome {
    let layout = Layout::new(m);
    run(
        &mut BitsetEngine::default(),
        &layout,
        Goal::Count { limit: None },
        None,
    )
    .unwrap()
}

/// `pairs` independent "exactly one" pairs after variable `first`: 2^pairs ways, so a
/// search that does not notice a dead row at once wanders through them.
fn free_pairs(first: usize, pairs: usize) -> Vec<RowSpec> {
    (0..pairs)
        .map(|i| {
            (
                "pair",
                vec![first + 2 * i, first + 2 * i + 1],
                None,
                Sense::ExactlyOne,
            )
        })
        .collect()
}

#[test]
fn a_row_with_no_slack_forces_every_candidate() {
    // x0 + x1 + x2 = 3 and x3 + x4 >= 2 have slack 0 from the start: all five are forced
    // without a guess.
    let mut rows = vec![
        ("three", vec![0, 1, 2], None, Sense::Exactly(3)),
        ("two", vec![3, 4], None, Sense::AtLeast(2)),
    ];
    rows.extend(free_pairs(5, 3));
    let m = model(11, &rows);
    let out = run_bitset(&m);
    assert_eq!(out.count, 8);
    // Only the free pairs are guessed: 1 + 2 + 4 frames of two guesses each.
    assert_eq!(out.stats.guesses, 2 + 4 + 8, "{:?}", out.stats);
    for s in &out.solutions {
        assert!([0, 1, 2, 3, 4].iter().all(|v| s.ones.contains(v)));
    }
    // Weighted: 3 x0 + 2 x1 + x2 = 5 with x2 given out by an "exactly one" row with x3
    // given: slack 0 forces x0 and x1.
    let mut b = ModelBuilder::new("w", PuzzleKind::Generic);
    for i in 0..4 {
        b.variable(format!("x{i}"), Coord::Free);
    }
    let f = b.family("w");
    b.weighted_row(f, vec![0, 1, 2], vec![3, 2, 1], Sense::Exactly(5));
    let g = b.family("e");
    b.row(g, vec![2, 3], Sense::ExactlyOne);
    b.given(3);
    let m = b.build().unwrap();
    let out = run_bitset(&m);
    assert_eq!(out.count, 1);
    assert_eq!(out.stats.guesses, 0);
    assert_eq!(out.solutions[0].ones, vec![0, 1, 3]);
}

#[test]
fn candidates_that_would_overshoot_are_not_legal() {
    // 3 x0 + 3 x1 + 2 x2 + x3 <= 5: once x0 is placed, x1 (3 > 2 left) is out, x2 and x3
    // stay; then x2 placed: x3 (1 > 0 left) is out too.
    let m = model(
        4,
        &[(
            "w",
            vec![0, 1, 2, 3],
            Some(vec![3, 3, 2, 1]),
            Sense::AtMost(5),
        )],
    );
    let layout = Layout::new(&m);
    let mut bitset = BitsetEngine::default();
    let mut gate = RowGate::default();
    bitset.reset(&layout).unwrap();
    gate.reset(&layout);
    bitset.place(&layout, 0);
    gate.set_sum(&layout, 0, 3);
    gate.set_placed(0, true);
    for legal in [bitset.legal(&layout).clone(), gate.legal().clone()] {
        assert!(!legal.contains(0) && !legal.contains(1));
        assert!(legal.contains(2) && legal.contains(3));
    }
    bitset.place(&layout, 2);
    gate.set_sum(&layout, 0, 5);
    gate.set_placed(2, true);
    for legal in [bitset.legal(&layout).clone(), gate.legal().clone()] {
        assert!((0..4).all(|v| !legal.contains(v)));
    }
    bitset.unplace(&layout, 2);
    gate.set_sum(&layout, 0, 3);
    gate.set_placed(2, false);
    for legal in [bitset.legal(&layout).clone(), gate.legal().clone()] {
        assert!(!legal.contains(1) && legal.contains(2) && legal.contains(3));
    }
    // A weight above the right-hand side is never legal, nor is anything in a `= 0` row.
    let m = model(
        3,
        &[
            ("w", vec![0, 1], Some(vec![7, 2]), Sense::AtMost(4)),
            ("z", vec![2], None, Sense::Exactly(0)),
        ],
    );
    let layout = Layout::new(&m);
    bitset.reset(&layout).unwrap();
    gate.reset(&layout);
    for legal in [bitset.legal(&layout).clone(), gate.legal().clone()] {
        assert!(!legal.contains(0) && legal.contains(1) && !legal.contains(2));
    }
    assert_eq!(run_bitset(&m).count, 2);
}

#[test]
fn a_row_that_cannot_reach_its_bound_backtracks_at_once() {
    // x0 + x1 + x2 >= 3 but x0, x1 are "exactly one": dead at the root, before any of the
    // 2^12 ways of the free pairs is tried.
    let mut rows = vec![
        ("three", vec![0, 1, 2], None, Sense::AtLeast(3)),
        ("one", vec![0, 1], None, Sense::ExactlyOne),
    ];
    rows.extend(free_pairs(3, 12));
    let m = model(27, &rows);
    let out = run_bitset(&m);
    assert_eq!(out.count, 0);
    assert!(out.exhausted);
    assert_eq!(out.stats.guesses, 0, "{:?}", out.stats);
    // Dead one level down: x0 + x1 + x2 + x3 >= 3 with (x0 | x1) and (x2 | x3) each
    // "exactly one" holds at the root (4 legal, slack 1) but fails in both branches of the
    // first choice, before any of the 2^12 ways of the free pairs is tried.
    let mut rows = vec![
        ("one", vec![0, 1], None, Sense::ExactlyOne),
        ("one", vec![2, 3], None, Sense::ExactlyOne),
        ("three", vec![0, 1, 2, 3], None, Sense::AtLeast(3)),
    ];
    rows.extend(free_pairs(4, 12));
    let m = model(28, &rows);
    let out = run_bitset(&m);
    assert_eq!(out.count, 0);
    // The pairs cover the row's candidates with two parts of one variable each: a bound of
    // 2 < 3, seen by the clique cover at the root.
    assert_eq!(out.stats.guesses, 0, "{:?}", out.stats);
}

#[test]
fn a_tight_clique_cover_empties_the_rest_of_its_windows() {
    // a0 + a1 + a2 + a3 = 2 with windows {a0, a1, b0} and {a2, a3, b1} (at most one each):
    // the two windows must each give the row one star, so b0 and b1 are out, and their
    // "exactly one" partners p0, p1 are forced, at the root. Then 4 ways for the a's.
    let (a, b0, b1, p0, p1) = ([0, 1, 2, 3], 4, 5, 6, 7);
    let rows = vec![
        ("pair", vec![b0, p0], None, Sense::ExactlyOne),
        ("pair", vec![b1, p1], None, Sense::ExactlyOne),
        ("two", a.to_vec(), None, Sense::Exactly(2)),
        ("window", vec![a[0], a[1], b0], None, Sense::AtMostOne),
        ("window", vec![a[2], a[3], b1], None, Sense::AtMostOne),
    ];
    let m = model(8, &rows);
    let out = run_bitset(&m);
    assert_eq!(out.count, 4);
    assert!(out
        .solutions
        .iter()
        .all(|s| s.ones.contains(&p0) && s.ones.contains(&p1)));
    // Only the a's are guessed: 3 alternatives for the row (4 candidates, 2 needed; the
    // third dies at once), 2 more under each of the first two. Without the cover, the
    // pairs (two candidates each) would be branched on first, at 12 guesses.
    assert_eq!(out.stats.guesses, 7, "{:?}", out.stats);
    assert_eq!(
        out.stats.steps - out.stats.guesses,
        2,
        "p0 and p1 are forced"
    );
}

#[test]
fn exact_cover_rows_keep_the_exact_cover_path() {
    let m = matrices(5, Sense::ExactlyOne);
    assert!(!Layout::new(&m).general);
    let mut b = BitsetBackend::new(&BackendOptions::default());
    assert_eq!(count(&mut b, &m), 120);
}

#[test]
fn vsa_refuses_rows_too_heavy_for_its_bundles_and_bitset_takes_them() {
    let m = model(
        2,
        &[(
            "w",
            vec![0, 1],
            Some(vec![1000, 1000]),
            Sense::Exactly(1000),
        )],
    );
    let mut vsa = VsaBackend::new(&BackendOptions::default()).unwrap();
    assert!(vsa
        .rows_supported(&m)
        .unwrap_err()
        .to_string()
        .contains("2000"));
    let out = count_verified(&mut vsa, &m, None).unwrap();
    assert_eq!(out.status, Status::Unsupported);
    let mut b = BitsetBackend::new(&BackendOptions::default());
    assert_eq!(count(&mut b, &m), 2);
}
