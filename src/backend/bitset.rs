//! The exact legality engine (`--backend bitset`): plain integer row counts and a legal-variable
//! bitset, driving the shared search of [`crate::backend::search`]. It is the framework's fast
//! path for Sudoku and the yardstick the `vsa` engine is measured against (same search, same
//! steps, only the legality test differs).
//!
//! Cost: placing or undoing a variable touches each of its rows once; a row that becomes
//! occupied or free updates each of its variables once (9x9 Sudoku: 4 rows of 9). A legality
//! query is free (the bitset is kept current). Options: none besides the time limit.

use std::time::Duration;

use crate::backend::search::{self, Layout, LayoutCache, LegalityEngine, RowGate, VarSet};
use crate::backend::{
    Backend, BackendError, BackendOptions, CountReport, Counter, SolveReport, Solver, TimeLimit,
};
use crate::model::Model;

/// Exact row counts: a row is occupied when it holds at least one placed variable.
#[derive(Debug, Clone, Default)]
pub struct BitsetEngine {
    placed_in_row: Vec<u16>,
    gate: RowGate,
}

impl LegalityEngine for BitsetEngine {
    fn name(&self) -> &'static str {
        "bitset"
    }

    fn reset(&mut self, layout: &Layout) -> Result<(), BackendError> {
        self.placed_in_row.clear();
        self.placed_in_row.resize(layout.num_rows, 0);
        self.gate.reset(layout);
        Ok(())
    }

    fn exact(&self) -> bool {
        true
    }

    fn place(&mut self, layout: &Layout, var: usize) {
        for &r in layout.rows_of(var) {
            let r = r as usize;
            self.placed_in_row[r] += 1;
            if self.placed_in_row[r] == 1 {
                self.gate.set(layout, r, true);
            }
        }
    }

    fn unplace(&mut self, layout: &Layout, var: usize) {
        for &r in layout.rows_of(var) {
            let r = r as usize;
            self.placed_in_row[r] -= 1;
            if self.placed_in_row[r] == 0 {
                self.gate.set(layout, r, false);
            }
        }
    }

    fn legal(&mut self, _layout: &Layout) -> &VarSet {
        self.gate.legal()
    }
}

/// The `bitset` backend: the shared search with [`BitsetEngine`]. Solves and counts, exactly.
#[derive(Debug, Clone, Default)]
pub struct BitsetBackend {
    engine: BitsetEngine,
    time_limit: Option<Duration>,
    layouts: LayoutCache,
}

impl BitsetBackend {
    /// A bitset backend; reads only the time limit from `options`.
    pub fn new(options: &BackendOptions) -> Self {
        BitsetBackend {
            engine: BitsetEngine::default(),
            time_limit: options.time_limit,
            layouts: LayoutCache::default(),
        }
    }
}

impl Solver for BitsetBackend {
    fn solve(&mut self, model: &Model) -> Result<SolveReport, BackendError> {
        search::solve_report(&mut self.engine, &mut self.layouts, model, self.time_limit)
    }
}

impl Counter for BitsetBackend {
    fn count(&mut self, model: &Model, limit: Option<u64>) -> Result<CountReport, BackendError> {
        search::count_report(
            &mut self.engine,
            &mut self.layouts,
            model,
            limit,
            self.time_limit,
        )
    }
}

impl TimeLimit for BitsetBackend {
    fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.time_limit = limit;
    }
}

impl Backend for BitsetBackend {
    fn name(&self) -> &'static str {
        "bitset"
    }
    fn solver(&mut self) -> Option<&mut dyn Solver> {
        Some(self)
    }
    fn counter(&mut self) -> Option<&mut dyn Counter> {
        Some(self)
    }
    fn time_limit(&mut self) -> Option<&mut dyn TimeLimit> {
        Some(self)
    }
}
