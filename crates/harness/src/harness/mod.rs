//! The experiment harness: an experiment file (TOML) names instance sources, backend
//! configurations, repetitions and time and memory limits; the harness runs every (instance,
//! backend, repetition) job in a worker process ([`crate::backend::worker`]), appends one JSON line per
//! finished run, and writes Markdown, CSV and SVG reports from those lines alone.
//!
//! Data flows one way: experiment -> jobs -> workers -> store -> report. The modules, from the
//! bottom up (each uses only those above it in this table):
//!
//! | file | what it holds |
//! |---|---|
//! | [`experiment`] | the experiment file schema and its located errors |
//! | [`source`] | instance sources: puzzle files, shared data sets, built-in boards; sampling, filters |
//! | [`record`] | one finished run as one JSON line; the record file, its lock, merging; medians |
//! | [`figures`] | backend-specific figures, named per backend (never pooled) |
//! | [`stats`] | competition statistics: PAR-2, time distributions, spread, ratios, the VBS |
//! | [`plan`] | the options of a run, shards, job keys |
//! | [`certify`] | certified runs: proof files beside the records, checked, compressed when large |
//! | [`store`] | where records live; opening them for a run (resume, fresh, the lock) |
//! | [`plot`] | SVG plots (time distributions, search-space sizes) |
//! | [`report`] | Markdown and CSV reports from records alone (`zeroone report`) |
//! | [`table_run`] | the search-space table experiment (`kind = "table"`) |
//! | [`runner`] | running the jobs in worker processes, resumable and shardable; merging shards |
//! | [`peers`] | the experiment's peer solvers through `experiments/peers/peers.py`, into the same records |
//! | [`slurm`] | a sharded run as a Slurm job array and a merge job: scripts, requests, shards to rerun |
//!
//! Every answer counted in a record has passed the shared verifier: the runner only calls
//! [`crate::backend::solve_verified`] and [`crate::backend::count_verified`], or under
//! `certify = true` [`crate::backend::proof::prove_verified`], which verifies the same way and
//! whose proof [`certify`] then checks.

pub mod certify;
pub mod experiment;
pub mod figures;
pub mod instance_builder;
pub mod listing;
pub mod optimisation;
pub mod peers;
pub mod plan;
pub mod plot;
pub mod raster;
pub mod record;
pub mod record_stats;
pub mod report;
pub mod runner;
pub mod slurm;
pub mod source;
pub mod stats;
pub mod store;
pub mod table_run;

use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

pub use experiment::{BackendConfig, Experiment, ExperimentKind, Task};
pub use plan::{RunOptions, RunSummary, Shard};
pub use record::Record;
pub use runner::run_experiment;

/// Errors of the harness layer. `Experiment`, `Source`, `Records`, `Busy`, `RecordsExist` and
/// `NoRecords` are bad input (the CLI exits 2 and nothing is run or written); the others come
/// up while running or writing, and the internal failures (`Threads`, `Poisoned`, `NoBinary`)
/// are never the user's input.
#[derive(Debug, Error)]
pub enum HarnessError {
    /// The experiment file is malformed; the message names file, line and column or key.
    #[error("{file}:{location}: {message}")]
    Experiment {
        /// The experiment file.
        file: PathBuf,
        /// `line:column` when known, else the key path (`backends[2].name`).
        location: String,
        /// What is wrong and what was expected.
        message: String,
    },
    /// An instance source could not be read or parsed, or records do not belong to the
    /// experiment.
    #[error("{0}")]
    Source(String),
    /// A run without `--resume` or `--fresh` would replace existing records.
    #[error("{} exists: pass --resume to continue it or --fresh to start over", path.display())]
    RecordsExist {
        /// The record file.
        path: PathBuf,
    },
    /// There are no records to report or merge.
    #[error("{what}: {hint}")]
    NoRecords {
        /// What is missing (a file, or the shards in a folder).
        what: String,
        /// What to do about it.
        hint: String,
    },
    /// The worker threads of a run could not be started (an internal failure, not bad input).
    #[error("cannot start {count} threads: {source}")]
    Threads {
        /// Threads asked for.
        count: usize,
        /// Why the thread pool failed.
        source: rayon::ThreadPoolBuildError,
    },
    /// A thread panicked while holding a lock the run shares (an internal failure).
    #[error("{what} lock poisoned: a thread of this run panicked while holding it")]
    Poisoned {
        /// What the lock guards.
        what: &'static str,
    },
    /// The `zeroone` binary the workers run could not be found (an internal failure).
    #[error("cannot find the zeroone binary: {source}")]
    NoBinary {
        /// Why `current_exe` failed.
        source: io::Error,
    },
    /// A record file is corrupt (a bad line that is not the torn last one), or two shards
    /// disagree about the same run.
    #[error("{file}:{line}: {message}")]
    Records {
        /// The record file.
        file: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// Another run holds the lock of this record file (one writer per record file).
    #[error("{file} is being written by another run ({holder}); wait for it to finish, or use another --reports folder or --shard")]
    Busy {
        /// The record file.
        file: PathBuf,
        /// Who holds the lock (pid, host, since when), as its lock file says.
        holder: String,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// A peer of the experiment cannot run (its interpreter, script or Python package is
    /// missing: bad input) or its script failed.
    #[error("peer '{label}': {message}")]
    Peer {
        /// The peer's label.
        label: String,
        /// What is missing or went wrong, and what to do.
        message: String,
        /// Whether it is the user's setup (exit 2) rather than a failed run (exit 1).
        bad_input: bool,
    },
    /// Drawing a plot failed.
    #[error("plot {path}: {message}")]
    Plot {
        /// The SVG file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

impl HarnessError {
    /// Whether this error is the user's input (exit status 2) rather than a failed run.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            HarnessError::Experiment { .. }
                | HarnessError::Source(_)
                | HarnessError::Records { .. }
                | HarnessError::Busy { .. }
                | HarnessError::RecordsExist { .. }
                | HarnessError::NoRecords { .. }
                | HarnessError::Peer {
                    bad_input: true,
                    ..
                }
        )
    }

    pub(crate) fn io(path: &Path, source: io::Error) -> HarnessError {
        HarnessError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Writes `contents` to `path`, creating its folder first, through
/// [`crate::output::write_atomically`]: a reader never sees a half-written report. Cost: one
/// extra rename.
pub fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), HarnessError> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| HarnessError::io(dir, e))?;
    crate::output::write_atomically(path, contents).map_err(|e| HarnessError::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_failures_are_never_bad_input_and_say_what_failed() {
        let poisoned = HarnessError::Poisoned {
            what: "record file",
        };
        let no_binary = HarnessError::NoBinary {
            source: io::Error::from(io::ErrorKind::NotFound),
        };
        for e in [&poisoned, &no_binary] {
            assert!(!e.is_bad_input(), "{e}");
        }
        assert!(poisoned
            .to_string()
            .starts_with("record file lock poisoned"));
        assert!(no_binary
            .to_string()
            .starts_with("cannot find the zeroone binary: "));
        let exists = HarnessError::RecordsExist {
            path: PathBuf::from("r/x.jsonl"),
        };
        assert!(exists.is_bad_input());
        assert_eq!(
            exists.to_string(),
            "r/x.jsonl exists: pass --resume to continue it or --fresh to start over"
        );
    }
}
