//! Brute force: tries every 0-1 assignment of the free variables. The reference backend for
//! tests; it takes models with at most [`MAX_FREE`] variables once the givens are applied.
//!
//! Cost: `2^free * rows` word operations (about 30 M assignments for 25 free variables).

use std::time::Instant;

use crate::backend::{
    Backend, BackendError, BackendOptions, CountReport, Counter, Found, SolveReport, Solver, Stats,
    WITNESS_LIMIT,
};
use crate::model::{Model, Sense, Solution};

/// The largest number of free variables brute force accepts.
pub const MAX_FREE: usize = 25;

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
        let rows: Vec<(u32, Sense)> = m
            .constraints()
            .iter()
            .map(|c| (c.vars.iter().fold(0u32, |acc, &v| acc | 1 << v), c.sense))
            .collect();
        let mut count = 0u128;
        for x in 0u64..(1u64 << n) {
            let x = x as u32;
            stats.nodes += 1;
            let ok = rows
                .iter()
                .all(|&(mask, sense)| sense.holds((x & mask).count_ones() as usize));
            if ok {
                count += 1;
                let ones = (0..n).filter(|&i| x >> i & 1 == 1).collect();
                if !found(reduction.lift(&Solution::new(ones))) {
                    return Ok((count, false));
                }
            }
        }
        Ok((count, true))
    }
}

impl Solver for BruteForce {
    fn solve(&mut self, model: &Model) -> Result<SolveReport, BackendError> {
        let start = Instant::now();
        let mut stats = Stats::default();
        let mut first = None;
        Self::enumerate(
            model,
            |s| {
                first = Some(s);
                false
            },
            &mut stats,
        )?;
        stats.solutions = first.is_some() as u64;
        stats.seconds = start.elapsed().as_secs_f64();
        Ok(SolveReport {
            found: first.map_or(Found::Infeasible, Found::Solution),
            stats,
        })
    }
}

impl Counter for BruteForce {
    fn count(&mut self, model: &Model, limit: Option<u64>) -> Result<CountReport, BackendError> {
        let start = Instant::now();
        let mut stats = Stats::default();
        if limit == Some(0) {
            return Ok(CountReport {
                count: 0,
                exhaustive: false,
                witnesses: Vec::new(),
                stats,
            });
        }
        let mut witnesses = Vec::new();
        let mut seen = 0u64;
        let (count, finished) = Self::enumerate(
            model,
            |s| {
                seen += 1;
                if witnesses.len() < WITNESS_LIMIT {
                    witnesses.push(s);
                }
                limit.is_none_or(|l| seen < l)
            },
            &mut stats,
        )?;
        stats.solutions = count as u64;
        stats.seconds = start.elapsed().as_secs_f64();
        Ok(CountReport {
            count,
            // Stopping exactly at the last solution still means we did not look further.
            exhaustive: finished,
            witnesses,
            stats,
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
}
