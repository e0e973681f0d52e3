//! What a run covers and how: the options of a run, its shard, the job keys of an experiment.
//!
//! This is the bottom of the harness with [`crate::harness::record`]: the runner, the table
//! run, the store and the reports all read it, and it reads none of them.

use std::path::PathBuf;
use std::str::FromStr;

use crate::backend::stop::StopFlag;
use crate::backend::Registry;
use crate::harness::experiment::Experiment;
use crate::harness::record::RunKey;

/// One slice of a sharded run: shard `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 1.
    pub index: usize,
    /// How many slices.
    pub count: usize,
}

impl FromStr for Shard {
    type Err = String;
    /// Parses `k/N` with `1 <= k <= N`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("expected k/N with 1 <= k <= N (like 2/8), found '{s}'");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// Whether the instance at `position` belongs to this shard.
    pub fn holds(&self, position: usize) -> bool {
        position % self.count == self.index - 1
    }
}

/// How to run an experiment.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Worker processes at once (`None`: one per core).
    pub jobs: Option<usize>,
    /// Continue the record file, skipping jobs already on record.
    pub resume: bool,
    /// Replace an existing record file.
    pub fresh: bool,
    /// Run only this slice (writes `NAME.shard-k-of-N.jsonl`, no reports).
    pub shard: Option<Shard>,
    /// Folder for records and reports.
    pub reports_dir: PathBuf,
    /// Stop after this many new records (for tests that simulate a killed run).
    pub stop_after: Option<usize>,
    /// Draw a progress bar on stderr (it stays hidden when stderr is not a terminal).
    pub progress: bool,
    /// The command line, for the report header.
    pub command: String,
    /// Memory limit per run in MB (`--memory-limit`); overrides the experiment's
    /// `memory_limit`.
    pub memory_limit: Option<u64>,
    /// The `zeroone` binary the workers run (`None`: this executable). Tests that call the
    /// library from their own binary point it at `CARGO_BIN_EXE_zeroone`.
    pub worker_exe: Option<PathBuf>,
    /// The backends the run can make: this binary's, plus any a program added
    /// ([`Registry::with`]); the added ones run in this process, not in a worker.
    pub registry: Registry,
    /// A stop request (the Python package's Ctrl-C): once raised, no new run starts and the
    /// worker of a running one is killed; runs cut short are not recorded, so the record file
    /// is resumable as after `--max-runs`.
    pub stop: Option<StopFlag>,
}

impl RunOptions {
    /// Defaults: all cores, fresh run refused if records exist, reports in `reports/`.
    pub fn new(reports_dir: impl Into<PathBuf>) -> RunOptions {
        RunOptions {
            jobs: None,
            resume: false,
            fresh: false,
            shard: None,
            reports_dir: reports_dir.into(),
            stop_after: None,
            progress: false,
            command: String::new(),
            memory_limit: None,
            worker_exe: None,
            registry: Registry::builtin(),
            stop: None,
        }
    }

    /// The worker processes this run starts at most: `jobs`, else the logical cores.
    pub fn workers(&self) -> usize {
        self.jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1)
    }
}

/// What a run did.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSummary {
    /// Jobs in this run's slice.
    pub jobs: usize,
    /// Jobs already on record (skipped by `--resume`).
    pub already_done: usize,
    /// Jobs run now.
    pub ran: usize,
    /// Whether `stop_after` cut the run short.
    pub stopped: bool,
    /// The record file.
    pub records: PathBuf,
    /// Report files written.
    pub reports: Vec<PathBuf>,
}

/// Every job key of the experiment for `instances`, in experiment order.
pub fn job_keys(experiment: &Experiment, instances: &[String]) -> Vec<RunKey> {
    let mut keys = Vec::new();
    for inst in instances {
        for b in &experiment.backends {
            for rep in 0..experiment.repetitions {
                keys.push((inst.clone(), b.label.clone(), rep));
            }
        }
    }
    keys
}

/// The items of this run's shard (all of them when the run is not sharded), in order, with
/// their positions in the whole list.
pub fn in_shard<T>(items: Vec<T>, shard: Option<Shard>) -> Vec<(usize, T)> {
    items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| shard.is_none_or(|s| s.holds(*i)))
        .collect()
}
