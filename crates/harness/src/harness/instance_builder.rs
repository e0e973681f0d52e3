//! The worker's side of [`crate::harness::listing`]: the model of a listed instance, built in
//! the worker from its [`InstanceSpec`] (apart from the listing, which the process that only
//! lists instances uses, so that neither file needs the other's half).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::backend::worker::{BuiltModel, Unbuilt, UnbuiltKind};
use crate::harness::listing::{InstanceSpec, SpecOrigin};
use crate::harness::source::BuiltinFamily;
use crate::puzzle::Puzzle;

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
            } => Ok(Puzzle::of(
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
