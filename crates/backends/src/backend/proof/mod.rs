//! Certified answers: VeriPB proofs of what a backend claims (a count, infeasibility, an
//! optimum), written beside the model as OPB and checked by the `veripb` checker.
//!
//! - [`VeriPbWriter`] writes the proof as the search runs (see
//!   [`ProofLog`] for which search step becomes which proof step).
//! - [`Prover`] is the ability of a backend to run with a proof log (`bitset` has it; the
//!   others refuse `--proof` with their reason, see [`crate::backend::Backend::prover`]).
//! - [`prove_to_dir`] writes `NAME.opb` and `NAME.pbp` for one model; [`check`] runs the
//!   installed `veripb` binary on a pair and confirms the claim.
//!
//! What a certificate means: `veripb` checks every step (each `rup` by reverse unit
//! propagation, each `solx`/`soli` solution against every constraint of the OPB), and zeroone
//! checks that the proof's claim agrees with what was checked: a count is the number of
//! `solx` steps *and* the contradiction `rup >= 1 ;` was derived after them (every solution
//! excluded, nothing left); infeasible and optimum are `veripb`'s own conclusions (`UNSAT`,
//! `BOUNDS v v`). The OPB has the model's variables only (no auxiliary variables), so the
//! solutions are counted over the model's variables, as zeroone counts them.

mod check;
pub mod log;
mod verified;
mod writer;

pub use check::{check, find_checker, rejection, Checked, CHECKER_INSTALL};
pub use log::ProofLog;
pub use verified::{prove_verified, NoProof, Proved, ProvedAnswer};
pub use writer::{opb_constraint_count, VeriPbWriter, WrittenProof};

use std::path::{Path, PathBuf};

use crate::backend::{BackendError, Stats};
use crate::model::{Model, Solution};
use thiserror::Error;

/// Errors of writing or checking a proof.
#[derive(Debug, Error)]
pub enum ProofError {
    /// A proof or model file could not be written or read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The `veripb` binary is not installed.
    #[error("the proof checker `veripb` was not found (looked in $ZEROONE_VERIPB, $PATH and ~/.cargo/bin); install with: {CHECKER_INSTALL}")]
    CheckerMissing,
    /// The checker could not read its input (a syntax error, a proof for another formula):
    /// bad input, with the checker's located message.
    #[error("{0}")]
    Unreadable(String),
    /// The backend failed while proving.
    #[error(transparent)]
    Backend(#[from] BackendError),
}

/// What a proof claims, written into it (`% zeroone claim: ...`) and confirmed by [`check`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// Exactly `count` solutions (`exhaustive`), or at least that many.
    Count {
        /// The number of solutions.
        count: u128,
        /// Whether the search was exhausted (else the count is a lower bound).
        exhaustive: bool,
    },
    /// A solution exists (the search stopped at the first).
    Solution,
    /// No solution.
    Infeasible,
    /// The optimum, in the OPB's minimisation form.
    Optimum {
        /// The minimum of the OPB objective.
        value: i128,
    },
    /// Nothing proved (stopped by a limit).
    Nothing,
}

impl Claim {
    /// The claim as the proof's comment writes it (read back by [`Claim::parse`]).
    pub fn text(&self) -> String {
        match self {
            Claim::Count {
                count,
                exhaustive: true,
            } => format!("count {count}"),
            Claim::Count { count, .. } => format!("at least {count}"),
            Claim::Solution => "solution".into(),
            Claim::Infeasible => "infeasible".into(),
            Claim::Optimum { value } => format!("optimum {value}"),
            Claim::Nothing => "nothing".into(),
        }
    }

    /// Whether the claim settles an answer worth certifying: not `nothing` and not a count
    /// cut short ("at least k", whose check of every solution step could take far longer
    /// than the run). Free.
    pub fn settles_an_answer(&self) -> bool {
        !matches!(
            self,
            Claim::Nothing
                | Claim::Count {
                    exhaustive: false,
                    ..
                }
        )
    }

    /// The claim of a `% zeroone claim: TEXT` comment's text.
    pub fn parse(text: &str) -> Option<Claim> {
        let text = text.trim();
        let number = |s: &str| s.trim().parse::<u128>().ok();
        Some(match text {
            "solution" => Claim::Solution,
            "infeasible" => Claim::Infeasible,
            "nothing" => Claim::Nothing,
            _ if text.starts_with("count ") => Claim::Count {
                count: number(&text[6..])?,
                exhaustive: true,
            },
            _ if text.starts_with("at least ") => Claim::Count {
                count: number(&text[9..])?,
                exhaustive: false,
            },
            _ if text.starts_with("optimum ") => Claim::Optimum {
                value: text[8..].trim().parse().ok()?,
            },
            _ => return None,
        })
    }
}

/// What a backend is asked to prove.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProofTask {
    /// Find one solution, or prove there is none.
    Solve,
    /// Count every solution (exhaustively).
    Count,
    /// Count solutions, stopping after this many (a uniqueness check counts up to 2): the
    /// proof claims the exact count when the search ends first, else at least the limit.
    CountUpTo(u64),
    /// Find an optimal solution and prove it optimal (the model has an objective).
    Optimize,
}

/// The answer of a run with a proof log.
#[derive(Debug, Clone, Default)]
pub struct ProvedRun {
    /// Solutions found (counting), 1 or 0 (solving), the improving solutions (optimising).
    pub count: u128,
    /// The first solution (solving, counting) or the best (optimising).
    pub witness: Option<Solution>,
    /// Optimising: the best value in minimisation form (the OPB objective's value).
    pub min_value: Option<i128>,
    /// Whether the search space was exhausted (the answer is complete).
    pub exhausted: bool,
    /// Optimising, stopped: the bound on the optimum (minimisation form) the search proved,
    /// when it knows one. The search's own claim, as without a proof: the proof certifies
    /// nothing about a stopped run.
    pub bound: Option<i128>,
    /// The run's statistics.
    pub stats: Stats,
}

/// The ability to run with a proof log (see the module docs).
pub trait Prover {
    /// Runs `task` on `model`, reporting every step to `log`.
    fn prove(
        &mut self,
        model: &Model,
        task: ProofTask,
        log: &mut dyn ProofLog,
    ) -> Result<ProvedRun, BackendError>;
}

/// A proof written by [`prove_to_dir`]: the files, the answer and its claim.
#[derive(Debug, Clone)]
pub struct ProofFiles {
    /// `DIR/NAME.opb`.
    pub opb: PathBuf,
    /// `DIR/NAME.pbp`.
    pub pbp: PathBuf,
    /// What the proof claims.
    pub claim: Claim,
    /// The backend's answer.
    pub run: ProvedRun,
}

/// `name` made safe as a file name: letters, digits, `-`, `_` and `.` kept, every other
/// character `_`, no leading dot, at most 100 characters, never empty.
pub fn safe_file_name(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(100)
        .collect();
    while s.starts_with('.') {
        s.replace_range(0..1, "_");
    }
    if s.is_empty() {
        s.push_str("model");
    }
    s
}

/// Runs `task` on `model` with `prover`, writing `DIR/NAME.opb` (the model, see
/// [`crate::export::opb`]) and `DIR/NAME.pbp` (the proof), `NAME` the safe form of `name`.
/// The witness is not verified here (the caller runs the shared verifier). Cost: the run with
/// logging, plus writing both files.
pub fn prove_to_dir(
    prover: &mut dyn Prover,
    model: &Model,
    task: ProofTask,
    dir: &Path,
    name: &str,
) -> Result<ProofFiles, ProofError> {
    let stem = safe_file_name(name);
    let opb = dir.join(format!("{stem}.opb"));
    let pbp = dir.join(format!("{stem}.pbp"));
    zeroone_model::output::write_atomically(&opb, crate::export::opb::to_opb(model).as_bytes())
        .map_err(|source| ProofError::Io {
            path: opb.clone(),
            source,
        })?;
    let mut writer = VeriPbWriter::create(&pbp, model)?;
    let run = prover.prove(model, task, &mut writer)?;
    let claim = match (task, run.exhausted) {
        (_, true) if run.count == 0 => Claim::Infeasible,
        (ProofTask::Optimize, true) => Claim::Optimum {
            value: run.min_value.unwrap_or_default(),
        },
        (ProofTask::Count | ProofTask::CountUpTo(_), exhaustive) => Claim::Count {
            count: run.count,
            exhaustive,
        },
        (ProofTask::Solve, _) if run.count > 0 => Claim::Solution,
        _ => Claim::Nothing,
    };
    writer.finish(&claim)?;
    Ok(ProofFiles {
        opb,
        pbp,
        claim,
        run,
    })
}
