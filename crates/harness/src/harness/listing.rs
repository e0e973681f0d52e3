//! Instances listed, not built: under a memory limit the process that runs an experiment only
//! lists its instances (id, file, index within the file, origin), and each worker builds the
//! model of its job itself, under its own address-space limit (issue 35: the parent read an
//! 18-byte file declaring 8 M variables at 1.76 GB, and held every model of the experiment at
//! once). A job carries an [`InstanceSpec`] as its `source`; the worker's [`InstanceBuilder`]
//! reads the file (within the memory limit as a budget, as [`crate::read::with_memory_budget`]
//! gives: a file whose model would pass it is [`UnbuiltKind::PastMemoryLimit`], recorded
//! `memout`) or makes the generated board, and builds the model.
//!
//! Costs: listing reads the files of puzzle boards (small, as without a limit) and opens no
//! file of a 0-1 program or generic model; a worker reads a file once per model it builds, and
//! a file of many boards once per worker process (the boards are kept, their models are not).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::backend::worker::{BuiltModel, Unbuilt, UnbuiltKind};
use crate::harness::source::BuiltinFamily;
use crate::puzzle::Puzzle;

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
        /// The family's name ([`BuiltinFamily::name`]).
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

/// What a worker builds its jobs' models with under a memory limit (its builder, see
/// [`crate::backend::worker::serve_with`]): it keeps the boards of the last file of boards it
/// read, so the instances of one Sudoku file cost one read per worker.
#[derive(Debug, Default)]
pub struct InstanceBuilder {
    boards: Option<(PathBuf, Vec<Puzzle>)>,
}

fn unbuilt(kind: UnbuiltKind, message: String) -> Unbuilt {
    Unbuilt { kind, message }
}

impl InstanceBuilder {
    /// The model of the instance `source` (an [`InstanceSpec`]) describes, with its size.
    /// Cost: reading its file (or making its board) and building the model.
    pub fn build(&mut self, source: &serde_json::Value) -> Result<BuiltModel, Unbuilt> {
        let spec = InstanceSpec::deserialize(source).map_err(|e| {
            unbuilt(
                UnbuiltKind::Unreadable,
                format!("worker: not an instance: {e}"),
            )
        })?;
        let puzzle = self.puzzle(&spec)?;
        let size = puzzle.size();
        let model = match puzzle {
            // The model read is the one run: renamed, not copied.
            Puzzle::Model(m) => m.renamed(spec.id.as_str()),
            other => (other.to_model(spec.id.as_str()))
                .map_err(|e| unbuilt(UnbuiltKind::NoModel, e.to_string()))?,
        };
        Ok(BuiltModel {
            model,
            size: Some(size),
        })
    }

    fn puzzle(&mut self, spec: &InstanceSpec) -> Result<Puzzle, Unbuilt> {
        match &spec.origin {
            SpecOrigin::File { path, index } => self.read_file(path, *index, spec.memory_limit_mb),
            SpecOrigin::Builtin { family, size } => BuiltinFamily::from_name(family)
                .and_then(|f| f.board(*size))
                .ok_or_else(|| {
                    let why = format!("generate = \"{family}\" makes no board of size {size}");
                    unbuilt(UnbuiltKind::NoModel, why)
                }),
            SpecOrigin::RandomSudoku {
                box_size,
                clues,
                seed,
                index,
            } => Ok(Puzzle::Sudoku(
                crate::puzzle::kinds::sudoku::generate::generate(*box_size, *clues, *seed, *index)
                    .puzzle,
            )),
        }
    }

    /// Puzzle `index` of `path`, read within `memory_mb` as a budget (or from the boards kept).
    fn read_file(&mut self, path: &Path, index: usize, memory_mb: u64) -> Result<Puzzle, Unbuilt> {
        if let Some((kept, boards)) = &self.boards {
            if kept == path {
                return boards
                    .get(index)
                    .cloned()
                    .ok_or_else(|| no_puzzle(path, index));
            }
        }
        self.boards = None;
        let budget = Some(memory_mb.saturating_mul(1 << 20));
        let (read, past) = crate::read::with_memory_budget(budget, || {
            crate::read::refused_for_budget(|| crate::harness::source::read_puzzles(path))
        });
        let mut puzzles = read.map_err(|e| match past {
            true => unbuilt(UnbuiltKind::PastMemoryLimit, e.to_string()),
            false => unbuilt(UnbuiltKind::Unreadable, e.to_string()),
        })?;
        if index >= puzzles.len() {
            return Err(no_puzzle(path, index));
        }
        if puzzles.len() > 1 && puzzles.iter().all(|p| p.board().is_some()) {
            let puzzle = puzzles[index].clone();
            self.boards = Some((path.to_path_buf(), puzzles));
            return Ok(puzzle);
        }
        Ok(puzzles.swap_remove(index))
    }
}

/// A file that no longer holds the puzzle the parent listed (changed while the run went on).
fn no_puzzle(path: &Path, index: usize) -> Unbuilt {
    let why = format!(
        "{}: expected a puzzle at position {index}, found fewer (the file changed during the run?)",
        path.display()
    );
    unbuilt(UnbuiltKind::Unreadable, why)
}
