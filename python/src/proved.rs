//! `certify=True` and `proof=DIR` of `solve` and `count`: the run with the backend's proof log
//! ([`prove_verified`]: the answer verified as usual), then, under `certify`, the checker
//! (`veripb`) on the proof. A backend that cannot log a proof of the model is refused
//! (`OptionError`), never run uncertified; a proof the checker rejects makes the result an
//! `error` whose reason is the checker's, with `certificate == "rejected"`.

use std::path::{Path, PathBuf};

use zeroone::backend::proof::{
    find_checker, prove_verified, rejection, ProofTask, ProvedAnswer, CHECKER_INSTALL,
};
use zeroone::backend::{Backend, Status};
use zeroone::model::Model;

/// What the caller asked for: a checked proof, and where to keep the files (a temporary folder,
/// removed after the check, when `None`).
#[derive(Debug, Clone, Default)]
pub struct ProofRequest {
    /// Run the checker on the proof.
    pub certify: bool,
    /// Keep `NAME.opb` and `NAME.pbp` in this folder.
    pub dir: Option<PathBuf>,
}

impl ProofRequest {
    /// Whether a proof is asked for at all.
    pub fn wanted(&self) -> bool {
        self.certify || self.dir.is_some()
    }

    /// Refuses what cannot be honoured before anything runs: a backend without a proof log,
    /// a missing checker. Cost: a few `stat` calls.
    pub fn refusal(&self, backend: &mut dyn Backend) -> Option<String> {
        let name = backend.name();
        if backend.prover().is_none() {
            return Some(format!(
                "certify/proof: backend '{name}' cannot log proofs: {} (bitset and xcc do)",
                backend.no_prover_reason()
            ));
        }
        if self.certify && find_checker().is_none() {
            return Some(format!(
                "certify: the proof checker `veripb` was not found (looked in $ZEROONE_VERIPB, $PATH and ~/.cargo/bin); install it with: {CHECKER_INSTALL}"
            ));
        }
        None
    }
}

/// A run with a proof: the verified answer and `checked`, `rejected` or `none` (not checked,
/// or the run stopped without a claim).
pub struct ProvedResult {
    /// The answer, as the ordinary runners give it (a rejected proof makes it an `error`).
    pub answer: ProvedAnswer,
    /// `checked`, `rejected` or `none`.
    pub certificate: &'static str,
}

/// Runs `task` on `model` with `backend`'s proof log as `request` asks (see the module docs).
/// `Err` is a refusal (the backend logs no proof of this model) or a folder that cannot be
/// made. Cost: the run with logging, and the checker's run under `certify`.
pub fn run_proved(
    backend: &mut dyn Backend,
    model: &Model,
    task: ProofTask,
    request: &ProofRequest,
) -> Result<ProvedResult, String> {
    let temp;
    let dir: &Path = match &request.dir {
        Some(d) => {
            std::fs::create_dir_all(d).map_err(|e| format!("proof {}: {e}", d.display()))?;
            d
        }
        None => {
            temp = tempfile::tempdir().map_err(|e| format!("a temporary folder: {e}"))?;
            temp.path()
        }
    };
    let proved = prove_verified(backend, model, task, dir, model.name())
        .map_err(|e| format!("certify/proof: {e}"))?;
    let mut answer = proved.answer;
    // A run stopped by its time limit (a partial count included) certifies no answer.
    if !request.certify || !proved.claim.settles_an_answer() {
        return Ok(ProvedResult {
            answer,
            certificate: "none",
        });
    }
    let Some(reason) = rejection(&proved.opb, &proved.pbp) else {
        return Ok(ProvedResult {
            answer,
            certificate: "checked",
        });
    };
    let why = Some(format!("certificate rejected: {reason}"));
    match &mut answer {
        ProvedAnswer::Solve(o) => (o.status, o.reason) = (Status::Error, why),
        ProvedAnswer::Count(o) => (o.status, o.reason) = (Status::Error, why),
    }
    Ok(ProvedResult {
        answer,
        certificate: "rejected",
    })
}
