//! The default backend (`--backend auto`, what `solve` and `count` use without `--backend`):
//! the fastest exact engine that reads the model, as measured in `reports/exact-cover.md`.
//! That is `xcc` for exact cover with no objective where its `transposed` engine (at most 512
//! primary items of at most 64 options each: Langford pairs, n-queens, Sudoku, bare hex boards)
//! or its `sweep` engine (at most 128 items: pentominoes) takes the model, where it is faster
//! than `bitset` (see the report), and `bitset` otherwise: general rows and objectives (which
//! `xcc` does not read), and multiplicity models such as Star Battle, where `xcc`'s MRV
//! engines are level with `bitset` or slower.
//! [`Backend::serving`] names the engine a model goes to, so records say `xcc` or `bitset`,
//! never `auto`.
//!
//! Cost: one scan of the rows and the variables' rows per model shape to choose (a batch of
//! puzzles of one shape is judged once); then the chosen engine's. Both engines keep their per-model caches between calls. Options: none besides the
//! time limit (both read it).

use std::ops::ControlFlow;

use crate::backend::bitset::BitsetBackend;
use crate::backend::xcc::{self, Xcc};
use crate::backend::{
    Backend, BackendError, BackendOptions, CountReport, Counter, OptimizeReport, Optimizer,
    RowRefusal, SolutionStream, SolveReport, Solver, StreamReport,
};
use crate::model::{Model, Solution};

/// The default backend: `xcc` or `bitset`, chosen per model (see the module docs).
#[derive(Debug)]
pub struct Auto {
    xcc: Xcc,
    bitset: BitsetBackend,
    /// The last model routed and whether it went to `xcc`: a batch of puzzles of one shape
    /// (which differ in their givens only) is judged once.
    last: Option<(Model, bool)>,
}

impl Auto {
    /// Both engines, with the time limit of `options`.
    pub fn new(options: &BackendOptions) -> Result<Auto, BackendError> {
        Ok(Auto {
            xcc: Xcc::new(options)?,
            bitset: BitsetBackend::new(options).with_optimiser_options(options)?,
            last: None,
        })
    }

    /// Whether `model` goes to `xcc`: no objective, and its `transposed` or `sweep` engine
    /// takes the model (see [`xcc::transposed_takes`], [`xcc::sweep_takes`]).
    pub fn takes_xcc(model: &Model) -> bool {
        model.objective().is_none() && (xcc::transposed_takes(model) || xcc::sweep_takes(model))
    }

    /// The verdict of [`Auto::takes_xcc`] on the last model routed, when `model` shares its
    /// shape (rows and variables) and has an objective alike.
    fn known(&self, model: &Model) -> Option<bool> {
        let (last, xcc) = self.last.as_ref()?;
        let alike = last.shares_shape_with(model)
            && last.objective().is_none() == model.objective().is_none();
        alike.then_some(*xcc)
    }

    /// The engine serving `model`.
    fn engine(&mut self, model: &Model) -> &mut dyn Backend {
        let xcc = self.known(model).unwrap_or_else(|| {
            let xcc = Auto::takes_xcc(model);
            self.last = Some((model.clone(), xcc));
            xcc
        });
        if xcc {
            &mut self.xcc
        } else {
            &mut self.bitset
        }
    }

    /// The error of an engine that lacks an ability both engines have (never happens).
    fn missing(ability: &str) -> BackendError {
        BackendError::Unsupported {
            backend: "auto".into(),
            ability: ability.into(),
        }
    }
}

impl Solver for Auto {
    fn solve(&mut self, model: &Model) -> Result<SolveReport, BackendError> {
        match self.engine(model).solver() {
            Some(s) => s.solve(model),
            None => Err(Auto::missing("solve")),
        }
    }
}

impl Counter for Auto {
    fn count(&mut self, model: &Model, limit: Option<u64>) -> Result<CountReport, BackendError> {
        match self.engine(model).counter() {
            Some(c) => c.count(model, limit),
            None => Err(Auto::missing("count")),
        }
    }
}

impl SolutionStream for Auto {
    fn for_each_solution(
        &mut self,
        model: &Model,
        found: &mut dyn FnMut(Solution) -> ControlFlow<()>,
    ) -> Result<StreamReport, BackendError> {
        match self.engine(model).streamer() {
            Some(s) => s.for_each_solution(model, found),
            None => Err(Auto::missing("stream solutions")),
        }
    }
}

/// Objectives always go to `bitset` (its branch and bound; `xcc` has none).
impl Optimizer for Auto {
    fn optimize(&mut self, model: &Model) -> Result<OptimizeReport, BackendError> {
        match self.bitset.optimizer() {
            Some(o) => o.optimize(model),
            None => Err(Auto::missing("optimise")),
        }
    }
}

impl Backend for Auto {
    fn name(&self) -> &'static str {
        "auto"
    }
    fn serving(&self, model: &Model) -> &'static str {
        if self.known(model).unwrap_or_else(|| Auto::takes_xcc(model)) {
            self.xcc.name()
        } else {
            self.bitset.name()
        }
    }
    fn solver(&mut self) -> Option<&mut dyn Solver> {
        Some(self)
    }
    fn counter(&mut self) -> Option<&mut dyn Counter> {
        Some(self)
    }
    fn streamer(&mut self) -> Option<&mut dyn SolutionStream> {
        Some(self)
    }
    fn optimizer(&mut self) -> Option<&mut dyn Optimizer> {
        Some(self)
    }
    /// What `bitset` reads (every row kind); `xcc` reads a subset.
    fn rows_supported(&self, model: &Model) -> Result<(), RowRefusal> {
        self.bitset.rows_supported(model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{count_verified, make_backend, Status};
    use crate::model::{Coord, ModelBuilder, PuzzleKind, Sense};

    fn count_by(backend: &mut dyn Backend, model: &Model) -> u128 {
        let out = count_verified(backend, model, None).unwrap();
        assert_eq!(out.status, Status::Solved, "{:?}", out.reason);
        out.count.to_u128().unwrap()
    }

    #[test]
    fn exact_cover_goes_to_xcc_and_weighted_rows_to_bitset_with_brute_force_counts() {
        let mut auto = Auto::new(&BackendOptions::default()).unwrap();
        let mut brute = make_backend("brute", &BackendOptions::default()).unwrap();
        let mut b = ModelBuilder::new("cover", PuzzleKind::Generic);
        let x: Vec<usize> = (0..4)
            .map(|i| b.variable(format!("x{i}"), Coord::Free))
            .collect();
        let f = b.family("rows");
        b.row(f, vec![x[0], x[1]], Sense::ExactlyOne);
        b.row(f, vec![x[2], x[3]], Sense::ExactlyOne);
        b.row(f, vec![x[0], x[2]], Sense::AtMostOne);
        let cover = b.build().unwrap();
        assert_eq!(auto.serving(&cover), "xcc");
        // x0 x3, x1 x2, x1 x3.
        assert_eq!(count_by(&mut auto, &cover), 3);
        assert_eq!(count_by(brute.as_mut(), &cover), 3);

        let mut b = ModelBuilder::new("weighted", PuzzleKind::Generic);
        let x: Vec<usize> = (0..4)
            .map(|i| b.variable(format!("x{i}"), Coord::Free))
            .collect();
        let f = b.family("knapsack");
        b.weighted_row(f, x, vec![1, 2, 3, 4], Sense::Exactly(5));
        let weighted = b.build().unwrap();
        assert_eq!(auto.serving(&weighted), "bitset");
        // {1, 4} and {2, 3}.
        assert_eq!(count_by(&mut auto, &weighted), 2);
        assert_eq!(count_by(brute.as_mut(), &weighted), 2);
    }
}
