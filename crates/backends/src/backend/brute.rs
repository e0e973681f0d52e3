//! Brute force: tries every 0-1 assignment of the free variables. The reference backend for
//! tests; it takes models with at most [`MAX_FREE`] variables once the givens are applied, and
//! every row kind (each row's weighted sum is compared with its bounds).
//!
//! Cost: `2^free * rows` word operations (about 30 M assignments for 25 free variables).

use crate::backend::{
    count_by_enumeration, solve_by_enumeration, Backend, BackendError, BackendOptions, CountReport,
    Counter, SolveReport, Solver, Stats,
};
use crate::model::{Constraint, Model, Sense, Solution};

/// The largest number of free variables brute force accepts.
pub const MAX_FREE: usize = 25;

/// Assignments tried between two checks of the stop flag (about a millisecond).
const STOP_EVERY: u64 = 1 << 15;

/// The brute-force backend (`--backend brute`).
#[derive(Debug, Clone, Default)]
pub struct BruteForce;

impl BruteForce {
    /// A brute-force backend; it reads no options.
    pub fn new(_options: &BackendOptions) -> Self {
        BruteForce
    }

    /// Enumerates solutions, calling `found` for each until it returns false. Returns the count
    /// and whether the enumeration finished.
    fn enumerate(
        model: &Model,
        mut found: impl FnMut(Solution) -> bool,
        stats: &mut Stats,
    ) -> Result<(u128, bool), BackendError> {
        let reduction = model.reduce();
        let m = &reduction.model;
        let n = m.num_variables();
        if n > MAX_FREE {
            return Err(BackendError::TooLarge {
                backend: "brute".into(),
                reason: format!("{n} free variables; brute force takes at most {MAX_FREE}"),
            });
        }
        if reduction.infeasible {
            return Ok((0, true));
        }
        let rows: Vec<BruteRow> = m.constraints().iter().map(BruteRow::new).collect();
        let stop = crate::backend::stop::current();
        let mut count = 0u128;
        for x in 0u64..(1u64 << n) {
            if x % STOP_EVERY == 0 {
                crate::backend::stop::check(&stop, "brute")?;
            }
            let x = x as u32;
            stats.nodes += 1;
            let ok = rows.iter().all(|row| row.holds(x));
            if ok {
                count += 1;
                let ones = (0..n).filter(|&i| x >> i & 1 == 1).collect();
                if !found(reduction.lift(&Solution::new(ones))) {
                    stats.solutions = count as u64;
                    return Ok((count, false));
                }
            }
        }
        stats.solutions = count as u64;
        Ok((count, true))
    }
}

/// One row as brute force checks it: a bit mask of its variables and, for a weighted row, the
/// weight of each of them.
struct BruteRow {
    mask: u32,
    weights: Option<Vec<(u32, u64)>>,
    sense: Sense,
}

impl BruteRow {
    fn new(c: &Constraint) -> BruteRow {
        BruteRow {
            mask: c.vars.iter().fold(0u32, |acc, &v| acc | 1 << v),
            weights: c
                .weights
                .as_ref()
                .map(|_| c.terms().map(|(v, w)| (1u32 << v, w)).collect()),
            sense: c.sense,
        }
    }

    /// Whether assignment `x` (bit `v` = variable `v`) satisfies the row.
    fn holds(&self, x: u32) -> bool {
        let sum = match &self.weights {
            None => u64::from((x & self.mask).count_ones()),
            Some(terms) => terms
                .iter()
                .filter(|&&(bit, _)| x & bit != 0)
                .map(|&(_, w)| w)
                .sum(),
        };
        self.sense.holds(sum)
    }
}

impl Solver for BruteForce {
    fn solve(&mut self, model: &Model) -> Result<SolveReport, BackendError> {
        solve_by_enumeration(&mut |found, stats| Self::enumerate(model, found, stats))
    }
}

impl Counter for BruteForce {
    fn count(&mut self, model: &Model, limit: Option<u64>) -> Result<CountReport, BackendError> {
        count_by_enumeration(limit, &mut |found, stats| {
            Self::enumerate(model, found, stats)
        })
    }
}

impl crate::backend::SolutionStream for BruteForce {
    fn for_each_solution(
        &mut self,
        model: &Model,
        found: &mut dyn FnMut(Solution) -> std::ops::ControlFlow<()>,
    ) -> Result<crate::backend::StreamReport, BackendError> {
        crate::backend::stream::stream_by_enumeration(
            &mut |each, stats| Self::enumerate(model, each, stats),
            found,
        )
    }
}

impl crate::backend::Optimizer for BruteForce {
    /// Values every solution; the first of the best value in enumeration order wins.
    fn optimize(&mut self, model: &Model) -> Result<crate::backend::OptimizeReport, BackendError> {
        crate::backend::optimize::optimize_by_enumeration(model, &mut |found, stats| {
            Self::enumerate(model, found, stats)
        })
    }
}

impl Backend for BruteForce {
    fn name(&self) -> &'static str {
        "brute"
    }
    fn solver(&mut self) -> Option<&mut dyn Solver> {
        Some(self)
    }
    fn counter(&mut self) -> Option<&mut dyn Counter> {
        Some(self)
    }
    fn streamer(&mut self) -> Option<&mut dyn crate::backend::SolutionStream> {
        Some(self)
    }
    fn optimizer(&mut self) -> Option<&mut dyn crate::backend::Optimizer> {
        Some(self)
    }
    fn size_caps(&self) -> &'static str {
        "25 free variables (MAX_FREE)"
    }
    /// Every row kind: each assignment's weighted row sums are checked against the bounds.
    fn rows_supported(&self, _model: &Model) -> Result<(), crate::backend::RowRefusal> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{count_verified, make_backend};
    use crate::model::{Coord, ModelBuilder, PuzzleKind};

    #[test]
    fn counts_two_ones_per_row_and_column_and_weighted_rows() {
        // A001499: 90 matrices of size 4 x 4 with two ones in every row and column.
        let m = crate::backend::fixtures::line_sums(4, Sense::Exactly(2), Sense::Exactly(2));
        let mut brute = make_backend("brute", &BackendOptions::default()).unwrap();
        let out = count_verified(brute.as_mut(), &m, None).unwrap();
        assert_eq!(
            (out.count.to_u128().unwrap(), out.exhaustive, out.verified),
            (90, true, true)
        );
        // Subsets of {1, ..., 6} summing to 7: 1+6, 2+5, 3+4 and 1+2+4.
        let mut b = ModelBuilder::new("subset-sum", PuzzleKind::Generic);
        let v: Vec<usize> = (1..=6)
            .map(|i| b.variable(format!("w{i}"), Coord::Free))
            .collect();
        let f = b.family("sum");
        b.weighted_row(f, v, (1..=6).collect(), Sense::Exactly(7));
        let out = count_verified(brute.as_mut(), &b.build().unwrap(), None).unwrap();
        assert_eq!((out.count.to_u128().unwrap(), out.verified), (4, true));
    }
}
