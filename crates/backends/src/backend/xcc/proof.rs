//! `xcc` with a proof log: the `counts` engine (MRV, every model `xcc` takes) run with the
//! hooks of [`Searcher::run_logged`], whichever engine `auto` would pick, so the answer
//! certified is the answer of the engine that logged it (`extra.engine` says `counts`).

use std::time::Instant;

use super::{memo_name, Xcc};
use crate::backend::proof::ProofLog;
use crate::backend::proof::{ProofTask, ProvedRun, Prover};
use crate::backend::{BackendError, Stats};
use crate::model::{Model, Solution};

impl Xcc {
    /// Why this `xcc` cannot log a proof of `model`, if it cannot: a memo engine asked for by
    /// name (it counts by caching sub-counts, which a proof would have to justify per cache
    /// hit), or unconstrained variables (each solution would stand for `2^free` assignments,
    /// every one a `solx` step).
    pub(crate) fn no_proof_for(&self, model: Option<&Model>) -> Option<String> {
        if let Some(name) = memo_name(self.engine) {
            return Some(format!(
                "engine '{name}' counts by caching sub-counts and logs no proof (use engine=counts or the default)"
            ));
        }
        let free = model.map(|m| {
            super::problem::free_variables(m)
                .iter()
                .filter(|&&f| f)
                .count()
        });
        free.filter(|&f| f > 0).map(|f| {
            format!("the model has {f} unconstrained variables (their 2^{f} completions are not logged)")
        })
    }

    /// The refusal of `--proof` (see [`Xcc::no_proof_for`]).
    pub(super) fn proof_refusal(&self) -> Option<String> {
        self.no_proof_for(None)
    }
}

impl Prover for Xcc {
    fn prove(
        &mut self,
        model: &Model,
        task: ProofTask,
        log: &mut dyn ProofLog,
    ) -> Result<ProvedRun, BackendError> {
        let refuse = |reason: String| BackendError::TooLarge {
            backend: "xcc".into(),
            reason,
        };
        if task == ProofTask::Optimize {
            return Err(refuse("xcc does not optimise (use bitset)".into()));
        }
        if let Some(why) = self.no_proof_for(Some(model)) {
            return Err(refuse(why));
        }
        let limit = self.time_limit;
        self.prepare(model);
        let problem = &self.cache.as_ref().expect("prepared above").problem;
        super::search::frames_fit(problem, crate::backend::memory::usable_memory)
            .map_err(|why| refuse(format!("engine 'counts' {why}")))?;
        let mut stats = Stats::default();
        stats.extra.insert("engine".into(), "counts".into());
        let (mut count, mut witness) = (0u128, None);
        let n = problem.model_options;
        // How many solutions to find before stopping.
        let enough = match task {
            ProofTask::Solve => 1,
            ProofTask::CountUpTo(n) => u128::from(n),
            _ => u128::MAX,
        };
        let mut found = |chosen: &[u32]| {
            count += 1;
            if witness.is_none() {
                let ones = chosen.iter().map(|&o| o as usize).filter(|&o| o < n);
                witness = Some(Solution::new(ones.collect()));
            }
            count < enough
        };
        let start = Instant::now();
        let ending = self.searcher.run_logged(
            problem,
            model.givens(),
            limit,
            &mut stats,
            &mut found,
            Some(log),
        );
        stats.seconds = start.elapsed().as_secs_f64();
        Ok(ProvedRun {
            count,
            witness,
            min_value: None,
            exhausted: ending == super::search::Ending::Exhausted,
            bound: None,
            stats,
        })
    }
}
