//! Instances listed, not built: under a memory limit the process that runs an experiment only
//! lists its instances (id, file, index within the file, origin), and each worker builds the
//! model of its job itself, under its own address-space limit (issue 35: the parent read an
//! 18-byte file declaring 8 M variables at 1.76 GB, and held every model of the experiment at
//! once). A job carries an [`InstanceSpec`] as its `source`; the worker's
//! [`crate::harness::instance_builder::InstanceBuilder`]
//! reads the file (within the memory limit as a budget, as [`crate::read::with_memory_budget`]
//! gives: a file whose model would pass it is [`crate::backend::worker::UnbuiltKind::PastMemoryLimit`], recorded
//! `memout`) or makes the generated board, and builds the model.
//!
//! Costs: listing reads the files of puzzle boards (small, as without a limit) and opens no
//! file of a 0-1 program or generic model; a worker reads a file once per model it builds, and
//! a file of many boards once per worker process (the boards are kept, their models are not).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Where a worker finds one instance: the job's `source` under a memory limit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstanceSpec {
    /// The instance's id (the model's name).
    pub id: String,
    /// The file and index, or the generator.
    pub origin: SpecOrigin,
    /// The memory limit of the run, in MB: the budget the worker reads the file within.
    pub memory_limit_mb: u64,
    /// Whether the instance is the model of a file given alone (`file = ...`) that this process
    /// did not read: such a file that does not read is bad input, so the runner has a worker
    /// build it before anything runs. Not sent.
    #[serde(skip)]
    pub alone: bool,
}

/// The origin of an [`InstanceSpec`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum SpecOrigin {
    /// Puzzle `index` (0-based) of the file `path`.
    File {
        /// The file (resolved path).
        path: PathBuf,
        /// Its position in the file.
        index: usize,
    },
    /// A built-in board.
    Builtin {
        /// The family's name ([`crate::harness::source::BuiltinFamily::name`]).
        family: String,
        /// The board's size.
        size: usize,
    },
    /// Random Sudoku `index` of a `generate = "sudoku-random"` source.
    RandomSudoku {
        /// Box size.
        box_size: usize,
        /// Clues kept.
        clues: usize,
        /// The source's seed.
        seed: u64,
        /// Which puzzle of the source.
        index: u64,
    },
}

impl InstanceSpec {
    /// The spec as a job's `source`.
    pub fn to_source(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

/// Whether the file at `path` holds a 0-1 program or a generic model (one model, built when
/// read) rather than puzzle boards, by its name alone (a `.txt` file holds boards).
pub fn holds_a_model(path: &Path) -> bool {
    crate::puzzle::parse::format_of(path, "").is_some_and(|f| f.kind().is_none())
}
