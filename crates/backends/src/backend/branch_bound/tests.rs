//! Unit tests of the bounds and of their recorded derivations.

use super::*;
use crate::model::{Coord, Model, ModelBuilder, ObjectiveSense, PuzzleKind, Sense};
use rand::{Rng, SeedableRng};

/// A model over `n` variables with `rows` (variables, weights, sense) and minimisation
/// costs `costs`.
fn model(n: usize, rows: &[(Vec<usize>, Vec<u64>, Sense)], costs: &[i64]) -> Model {
    let mut b = ModelBuilder::new("t", PuzzleKind::Generic);
    for i in 0..n {
        b.variable(format!("x{i}"), Coord::Free);
    }
    let f = b.family("rows");
    for (vars, weights, sense) in rows {
        b.weighted_row(f, vars.clone(), weights.clone(), *sense);
    }
    b.objective(
        ObjectiveSense::Minimize,
        costs.iter().copied().enumerate().collect(),
    );
    b.build().unwrap()
}

/// The bound at the root (nothing placed, every variable legal).
fn root_bound(m: &Model) -> i128 {
    let layout = Layout::new(m);
    let mut bound = CostBound::new(&layout, m.objective().unwrap());
    bound.lower_bound(&layout, &VarSet::full(layout.num_vars), &[])
}

/// Every feasible assignment (its ones) with its value, by trying them all.
fn brute_solutions(m: &Model) -> Vec<(Vec<usize>, i128)> {
    let n = m.num_variables();
    let o = m.objective().unwrap();
    (0u32..1 << n)
        .filter_map(|mask| {
            let ones: Vec<usize> = (0..n).filter(|&v| mask >> v & 1 == 1).collect();
            let holds = m.constraints().iter().all(|c| {
                let sum: u64 = c
                    .terms()
                    .filter(|(v, _)| ones.contains(v))
                    .map(|t| t.1)
                    .sum();
                let (low, high) = c.sense.bounds();
                sum >= low && high.is_none_or(|h| sum <= h)
            });
            holds.then(|| {
                let value = o.value(&ones);
                (ones, value)
            })
        })
        .collect()
}

/// The optimum by trying every assignment (`None`: infeasible).
pub(super) fn brute_optimum(m: &Model) -> Option<i128> {
    brute_solutions(m).into_iter().map(|(_, v)| v).min()
}

/// A random model over 3 to 10 variables: unit and weighted rows of every sense, costs
/// -9 to 12.
pub(super) fn random_model(rng: &mut rand_chacha::ChaCha8Rng) -> (Model, String) {
    let n = rng.gen_range(3..=10);
    let mut rows = Vec::new();
    for _ in 0..rng.gen_range(1..=5) {
        let vars: Vec<usize> = (0..n).filter(|_| rng.gen_bool(0.5)).collect();
        if vars.is_empty() {
            continue;
        }
        let unit = rng.gen_bool(0.5);
        let weights: Vec<u64> = (0..vars.len())
            .map(|_| if unit { 1 } else { rng.gen_range(1..=7) })
            .collect();
        let total: u64 = weights.iter().sum();
        let sense = match rng.gen_range(0..4) {
            0 if unit => Sense::ExactlyOne,
            0 | 1 => Sense::AtLeast(rng.gen_range(1..=total.min(4))),
            2 => Sense::AtMost(rng.gen_range(1..=total)),
            _ => Sense::Exactly(rng.gen_range(1..=total)),
        };
        rows.push((vars, weights, sense));
    }
    let costs: Vec<i64> = (0..n).map(|_| rng.gen_range(-9..=12)).collect();
    let what = format!("{rows:?} {costs:?}");
    (model(n, &rows, &costs), what)
}

#[test]
fn dual_ascent_counts_rows_that_share_a_variable() {
    // Cover {a, b} and {b, c}; a = 1, b = 3, c = 1: the optimum is a + c = 2. Counting
    // one row per disjoint variable set gives 1; the dual ascent charges b only 1 for
    // the first row and still has 1 for the second.
    let rows = [
        (vec![0, 1], vec![1, 1], Sense::AtLeast(1)),
        (vec![1, 2], vec![1, 1], Sense::AtLeast(1)),
    ];
    let m = model(3, &rows, &[1, 3, 1]);
    assert_eq!(root_bound(&m), 2);
    assert_eq!(brute_optimum(&m), Some(2));
}

#[test]
fn the_root_bound_never_exceeds_the_optimum_on_random_models() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(21);
    let mut feasible = 0;
    for _ in 0..300 {
        let (m, what) = random_model(&mut rng);
        if let Some(best) = brute_optimum(&m) {
            feasible += 1;
            assert!(root_bound(&m) <= best, "{what}");
        }
    }
    assert!(feasible > 100, "{feasible} feasible models");
}

#[test]
fn fixing_against_an_incumbent_keeps_every_better_solution() {
    // Against each feasible value in turn (worst first, as a solution-improving search
    // meets them), every strictly better solution must obey the fixings, and `NoneBetter`
    // must mean there is none.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2121);
    let (mut fixings, mut proofs) = (0, 0);
    for _ in 0..300 {
        let (m, what) = random_model(&mut rng);
        let solutions = brute_solutions(&m);
        let mut values: Vec<i128> = solutions.iter().map(|s| s.1).collect();
        values.sort_unstable_by(|a, b| b.cmp(a));
        values.dedup();
        let layout = Layout::new(&m);
        let mut bound = CostBound::new(&layout, m.objective().unwrap());
        let mut fixed = vec![None; layout.model_vars];
        for &incumbent in &values {
            let better = solutions.iter().filter(|s| s.1 < incumbent);
            match bound.fix_against(&layout, &mut fixed, incumbent) {
                BoundFixing::NoneBetter => {
                    assert_eq!(better.count(), 0, "{incumbent}: {what}");
                    proofs += 1;
                    break;
                }
                BoundFixing::Fixed(new) => {
                    fixings += new.len();
                    for (ones, value) in better {
                        for (v, f) in fixed.iter().enumerate() {
                            let one = ones.contains(&v);
                            assert!(
                                f.is_none_or(|f| f == one),
                                "x{v} fixed {f:?}, but {ones:?} = {value} beats {incumbent}: {what}"
                            );
                        }
                    }
                }
            }
        }
    }
    // The test exercises both outcomes.
    assert!(
        fixings > 100 && proofs > 50,
        "{fixings} fixings, {proofs} proofs"
    );
}

#[test]
fn the_lp_bounds_round_the_right_way() {
    // Cover 5 with (4, w4), then half of (3, w2): 4 + 3/2 = 5.5 -> 6; the critical
    // item is the one taken in part.
    assert_eq!(
        cover_bound(&mut [(4, 4), (3, 2)], 5),
        Some((6, Some((3, 2))))
    );
    // Cover 3 with (5, w2), (5, w2): 5 + 5/2 = 7.5 -> 8.
    assert_eq!(
        cover_bound(&mut [(5, 2), (5, 2)], 3),
        Some((8, Some((5, 2))))
    );
    // A negative item covers for free: no critical item.
    assert_eq!(cover_bound(&mut [(-2, 3), (7, 1)], 3), Some((-2, None)));
    assert_eq!(cover_bound(&mut [(1, 1)], 2), None);
    // Pack room 3 with (-6, w2), (-4, w2): -6 - 4/2 = -8; the second does not fit.
    assert_eq!(pack_bound(&mut [(-4, 2), (-6, 2)], 3), (-8, Some((-4, 2))));
    // -5 * 1/2 = -2.5 -> -2.
    assert_eq!(pack_bound(&mut [(-5, 2)], 1), (-2, Some((-5, 2))));
    // A weightless item always fits, after the room is used up too.
    assert_eq!(pack_bound(&mut [(-5, 2), (-1, 0)], 2), (-6, None));
}
