//! Presolve for the LP-based backends: what the shared search's propagation proves before any
//! choice, applied to the model before it reaches an LP engine.
//!
//! [`presolve`] runs [`root_propagation`] (the `bitset` search's propagation from the givens to
//! its fixed point, with no choice made: forced ones from "exactly one" rows and lower bounds,
//! zeros from upper bounds and the clique-cover rule; on models with general rows, also
//! failed-literal probing: a variable whose 1 propagates to a contradiction is 0) and then
//! [`Model::reduce_fixed`]: every
//! fixed variable leaves the model, each row loses them and its right-hand side drops by the
//! weight fixed to 1, and rows left always true are dropped. A contradiction, or a row that the
//! fixed values overfill or leave short, proves the model has no solution.
//!
//! Exactness: every fixing holds in every solution, so the reduced model's solutions, lifted by
//! [`Reduction::lift`], are exactly the original model's solutions (a bijection); counts by
//! no-good cuts over the reduced variables stay exact. An objective over the original variables
//! carries through unchanged in value: the variables fixed to 1 (`reduction.ones`) add their
//! costs as a constant, those fixed to 0 add nothing, and each reduced variable `i` keeps the
//! cost of `reduction.original[i]`.
//!
//! Cost: one root node of the search (building its layout is linear in the nonzeros), with
//! probing one propagation per open variable and round, plus one pass over the nonzeros to
//! write the reduced model. On a 9x9 Killer Sudoku: milliseconds.

use std::time::Instant;

use serde::Serialize;

use crate::backend::bitset::BitsetEngine;
use crate::backend::search::{root_propagation, Layout, RootPropagation};
use crate::backend::BackendError;
use crate::model::{Model, Reduction};

/// How much presolve does (the MILP backends' param `presolve`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PresolveLevel {
    /// Givens only ([`Model::reduce`]): the engine sees the model as written.
    Off,
    /// The search's propagation to its fixed point.
    Propagate,
    /// Propagation plus failed-literal probing (models with general rows).
    #[default]
    Probe,
}

impl std::str::FromStr for PresolveLevel {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "off" => Ok(PresolveLevel::Off),
            "propagate" => Ok(PresolveLevel::Propagate),
            "probe" => Ok(PresolveLevel::Probe),
            other => Err(format!("unknown presolve level '{other}'")),
        }
    }
}

/// What presolve did, for a backend's statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct PresolveStats {
    /// Variables fixed to 1 (givens included).
    pub fixed_ones: usize,
    /// Variables fixed to 0.
    pub fixed_zeros: usize,
    /// Rows of the original model left out of the reduced one (satisfied, always true, or
    /// emptied).
    pub rows_dropped: usize,
    /// Rows of the reduced model.
    pub rows_kept: usize,
}

/// A presolved model: the reduction (the smaller model and the way back) and what it cost.
#[derive(Debug, Clone)]
pub struct Presolved {
    /// The reduced model, the map from its variables to the original ones, the variables fixed
    /// to 1 and whether presolve proved the model infeasible.
    pub reduction: Reduction,
    /// Fixings and dropped rows.
    pub stats: PresolveStats,
}

/// Presolves `model` at `level` (see the module docs), probing until `deadline` at the latest.
/// `reduction.infeasible` is set when presolve proves that `model` has no solution; otherwise
/// the reduced model has exactly the original's solutions once lifted.
pub fn presolve(
    model: &Model,
    level: PresolveLevel,
    deadline: Option<Instant>,
) -> Result<Presolved, BackendError> {
    let n = model.num_variables();
    let probe = match level {
        PresolveLevel::Off => return Ok(summarize(model, model.reduce())),
        PresolveLevel::Propagate => None,
        PresolveLevel::Probe => Some(deadline),
    };
    let values = match root_propagation(&mut BitsetEngine::default(), &Layout::new(model), probe)? {
        RootPropagation::Fixed(values) => values,
        RootPropagation::Contradiction => {
            // Nothing to keep: an empty model marked infeasible.
            let mut reduction = model.reduce_fixed(&vec![Some(false); n]);
            reduction.infeasible = true;
            reduction.ones.clear();
            return Ok(Presolved {
                stats: PresolveStats {
                    rows_dropped: model.constraints().len(),
                    ..PresolveStats::default()
                },
                reduction,
            });
        }
    };
    Ok(summarize(model, model.reduce_fixed(&values)))
}

/// `reduction` of `model` with its statistics.
fn summarize(model: &Model, reduction: Reduction) -> Presolved {
    let fixed_ones = reduction.ones.len();
    let fixed_zeros = model.num_variables() - fixed_ones - reduction.original.len();
    let rows_kept = reduction.model.constraints().len();
    Presolved {
        stats: PresolveStats {
            fixed_ones,
            fixed_zeros,
            rows_dropped: model.constraints().len() - rows_kept,
            rows_kept,
        },
        reduction,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::verify::Verifier;
    use crate::model::{Coord, ModelBuilder, PuzzleKind, Sense, Solution};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Every solution of `model`, by trying all `2^n` points (small models only).
    fn brute_solutions(model: &Model) -> Vec<Solution> {
        let n = model.num_variables();
        let verifier = Verifier::new(model);
        let mut all: Vec<Solution> = (0..1u32 << n)
            .map(|m| Solution::from_bools(&(0..n).map(|i| m >> i & 1 == 1).collect::<Vec<_>>()))
            .filter(|s| verifier.accepts(s))
            .collect();
        all.sort_by(|a, b| a.ones.cmp(&b.ones));
        all
    }

    /// The original solutions presolve leaves: the reduced model's solutions, lifted.
    fn lifted_solutions(p: &Presolved) -> Vec<Solution> {
        if p.reduction.infeasible {
            return Vec::new();
        }
        let mut all: Vec<Solution> = brute_solutions(&p.reduction.model)
            .iter()
            .map(|s| p.reduction.lift(s))
            .collect();
        all.sort_by(|a, b| a.ones.cmp(&b.ones));
        all
    }

    fn vars(b: &mut ModelBuilder, n: usize) -> Vec<usize> {
        (0..n)
            .map(|i| b.variable(format!("v{i}"), Coord::Free))
            .collect()
    }

    #[test]
    fn forced_values_are_fixed_and_satisfied_rows_dropped() {
        // c given: c + b = 1 forces b = 0, a + b = 1 then forces a = 1; the weighted row
        // 2a + 3b + 4c + 5d <= 14 is always true and dropped; d stays free.
        let mut b = ModelBuilder::new("chain", PuzzleKind::Generic);
        let v = vars(&mut b, 4);
        let f = b.family("pair");
        b.row(f, vec![v[0], v[1]], Sense::ExactlyOne);
        b.row(f, vec![v[1], v[2]], Sense::ExactlyOne);
        let g = b.family("loose");
        b.weighted_row(g, v.clone(), vec![2, 3, 4, 5], Sense::AtMost(14));
        b.given(v[2]);
        let model = b.build().unwrap();
        for level in [PresolveLevel::Propagate, PresolveLevel::Probe] {
            let p = presolve(&model, level, None).unwrap();
            assert!(!p.reduction.infeasible);
            assert_eq!(p.reduction.ones, vec![v[0], v[2]]);
            assert_eq!(p.reduction.original, vec![v[3]]);
            let stats = PresolveStats {
                fixed_ones: 2,
                fixed_zeros: 1,
                rows_dropped: 3,
                rows_kept: 0,
            };
            assert_eq!(p.stats, stats);
            assert_eq!(lifted_solutions(&p), brute_solutions(&model));
        }
        // Off applies the givens alone: b = 0 (it shares an exact-cover row with c), a stays.
        let p = presolve(&model, PresolveLevel::Off, None).unwrap();
        assert_eq!(p.reduction.original, vec![v[0], v[3]]);
    }

    #[test]
    fn probing_fixes_what_propagation_alone_leaves_open() {
        // a + b <= 1, a + c <= 1, b + c + d >= 2: a = 1 empties the last row's reach, so
        // a = 0; propagation alone decides nothing.
        let mut b = ModelBuilder::new("probe", PuzzleKind::Generic);
        let v = vars(&mut b, 4);
        let f = b.family("at-most-one");
        b.row(f, vec![v[0], v[1]], Sense::AtMostOne);
        b.row(f, vec![v[0], v[2]], Sense::AtMostOne);
        let g = b.family("demand");
        b.row(g, vec![v[1], v[2], v[3]], Sense::AtLeast(2));
        let model = b.build().unwrap();
        let propagated = presolve(&model, PresolveLevel::Propagate, None).unwrap();
        assert_eq!(propagated.stats.fixed_zeros, 0);
        let probed = presolve(&model, PresolveLevel::Probe, None).unwrap();
        assert_eq!(probed.stats.fixed_zeros, 1);
        assert!(!probed.reduction.original.contains(&v[0]));
        assert_eq!(lifted_solutions(&probed), brute_solutions(&model));
        assert_eq!(lifted_solutions(&propagated), brute_solutions(&model));
    }

    #[test]
    fn a_contradiction_in_presolve_is_a_sound_infeasibility_proof() {
        // a + b = 1 and a + b >= 2 cannot both hold.
        let mut b = ModelBuilder::new("clash", PuzzleKind::Generic);
        let v = vars(&mut b, 3);
        let f = b.family("one");
        b.row(f, vec![v[0], v[1]], Sense::ExactlyOne);
        let g = b.family("two");
        b.row(g, vec![v[0], v[1], v[2]], Sense::Exactly(3));
        let model = b.build().unwrap();
        assert!(brute_solutions(&model).is_empty());
        for level in [PresolveLevel::Propagate, PresolveLevel::Probe] {
            let p = presolve(&model, level, None).unwrap();
            assert!(p.reduction.infeasible, "{level:?}");
        }
        // The MILP backend says infeasible without calling its engine.
        let mut milp = crate::backend::milp::Milp::new(&Default::default()).unwrap();
        let out = crate::backend::solve_verified(&mut milp, &model).unwrap();
        assert_eq!(out.status, crate::backend::Status::Infeasible);
        assert_eq!(out.stats.extra["solves"], 0);
    }

    #[test]
    fn presolve_keeps_exactly_the_solutions_of_random_models() {
        // Random rows of every kind (unit, weighted, =, <=, >=) with a given now and then;
        // the lifted solutions of the reduced model must be the original's, at every level.
        let mut rng = ChaCha8Rng::seed_from_u64(25);
        let (mut checked, mut infeasible, mut fixed) = (0, 0, 0);
        while checked < 300 {
            let n = rng.gen_range(3..=8);
            let mut b = ModelBuilder::new("random", PuzzleKind::Generic);
            let v = vars(&mut b, n);
            let f = b.family("rows");
            for _ in 0..rng.gen_range(1..=5) {
                let mut row: Vec<usize> = v.iter().copied().filter(|_| rng.gen_bool(0.5)).collect();
                if row.is_empty() {
                    row.push(v[rng.gen_range(0..n)]);
                }
                if rng.gen_bool(0.3) {
                    let sense = [Sense::ExactlyOne, Sense::AtMostOne][rng.gen_range(0..2)];
                    b.row(f, row, sense);
                } else {
                    let weights: Vec<u64> = row.iter().map(|_| rng.gen_range(1..=4)).collect();
                    let k = rng.gen_range(0..=weights.iter().sum::<u64>() + 1);
                    let sense = [Sense::Exactly(k), Sense::AtMost(k), Sense::AtLeast(k)]
                        [rng.gen_range(0..3)];
                    b.weighted_row(f, row, weights, sense);
                }
            }
            if rng.gen_bool(0.3) {
                b.given(v[rng.gen_range(0..n)]);
            }
            let Ok(model) = b.build() else {
                continue; // givens the builder refuses (two in one exact-cover row, ...)
            };
            checked += 1;
            let truth = brute_solutions(&model);
            for level in [
                PresolveLevel::Off,
                PresolveLevel::Propagate,
                PresolveLevel::Probe,
            ] {
                let p = presolve(&model, level, None).unwrap();
                assert_eq!(lifted_solutions(&p), truth, "{level:?} on {model:?}");
                if level == PresolveLevel::Probe {
                    infeasible += p.reduction.infeasible as usize;
                    fixed += (p.stats.fixed_ones + p.stats.fixed_zeros > 0) as usize;
                }
            }
        }
        // The sample exercises both outcomes.
        assert!(
            infeasible > 10 && fixed > 50,
            "{infeasible} infeasible, {fixed} with fixings"
        );
    }

    #[test]
    fn presolve_levels_parse() {
        assert_eq!("probe".parse(), Ok(PresolveLevel::Probe));
        assert_eq!("off".parse(), Ok(PresolveLevel::Off));
        assert_eq!("propagate".parse(), Ok(PresolveLevel::Propagate));
        assert!("all".parse::<PresolveLevel>().is_err());
    }
}
