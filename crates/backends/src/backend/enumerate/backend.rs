//! [`EnumBackend`]: the enumerator as a backend (`--backend enum`).

use super::enumerator::Enumerator;
use super::{EnumSettings, Order, NAME};
use crate::backend::{
    Backend, BackendError, BackendOptions, CountReport, Counter, Found, SolveReport, Solver, Stats,
    Undecided,
};
use crate::model::{Model, Solution};
use std::ops::ControlFlow;

/// The enumerator backend (`--backend enum`): solves, counts, honours a time limit.
#[derive(Debug, Clone)]
pub struct EnumBackend {
    pub(super) settings: EnumSettings,
    /// The gap tolerances an optimisation stops at (options `gap`, `abs-gap`), checked
    /// against the bound at the root at each improving solution.
    pub(super) gap_limit: crate::backend::incumbent::GapLimit,
}

impl EnumBackend {
    /// A backend with the settings read from `options` (see the module docs).
    pub fn new(options: &BackendOptions) -> Result<EnumBackend, BackendError> {
        Ok(EnumBackend {
            settings: EnumSettings::from_options(options)?,
            gap_limit: crate::backend::incumbent::GapLimit::from_options("enum", options)?,
        })
    }

    pub(super) fn annotate(&self, stats: &mut Stats, e: &Enumerator) {
        stats.extra.insert(
            "order".into(),
            match self.settings.order {
                Order::Fixed => "fixed",
                Order::Mrv => "mrv",
            }
            .into(),
        );
        if let Some(c) = e.coordinate() {
            stats.extra.insert("coordinate".into(), c.into());
        }
    }
}

impl Solver for EnumBackend {
    fn solve(&mut self, model: &Model) -> Result<SolveReport, BackendError> {
        let e = Enumerator::new(model, &self.settings)?;
        let (first, mut summary) = e.first();
        self.annotate(&mut summary.stats, &e);
        let found = match first {
            Some(s) => Found::Solution(s),
            None if summary.timed_out => Found::TimedOut,
            None if !summary.finished => Found::Undecided(Undecided::Stopped),
            None => Found::Infeasible,
        };
        Ok(SolveReport {
            found,
            stats: summary.stats,
        })
    }
}

impl Counter for EnumBackend {
    fn count(&mut self, model: &Model, limit: Option<u64>) -> Result<CountReport, BackendError> {
        let e = Enumerator::new(model, &self.settings)?;
        let (count, witnesses, mut summary) = e.count(limit);
        self.annotate(&mut summary.stats, &e);
        Ok(CountReport {
            count: count.into(),
            end: summary.end(),
            witnesses,
            stats: summary.stats,
        })
    }
}

impl crate::backend::SolutionStream for EnumBackend {
    fn for_each_solution(
        &mut self,
        model: &Model,
        found: &mut dyn FnMut(Solution) -> ControlFlow<()>,
    ) -> Result<crate::backend::StreamReport, BackendError> {
        let e = Enumerator::new(model, &self.settings)?;
        let mut summary = e.for_each_solution(|s| found(s.clone()));
        self.annotate(&mut summary.stats, &e);
        Ok(crate::backend::StreamReport {
            end: summary.end(),
            stats: summary.stats,
        })
    }
}

impl Backend for EnumBackend {
    fn name(&self) -> &'static str {
        NAME
    }
    fn size_caps(&self) -> &'static str {
        "4,096 rows (MAX_ROWS)"
    }
    /// Every row kind: exact-cover rows are bits, general rows running sums.
    fn rows_supported(&self, _model: &Model) -> Result<(), crate::backend::RowRefusal> {
        Ok(())
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
    /// Branch and bound over the enumeration (see `enumerate/optimize.rs`).
    fn optimizer(&mut self) -> Option<&mut dyn crate::backend::Optimizer> {
        Some(self)
    }
}
