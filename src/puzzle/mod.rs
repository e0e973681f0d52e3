//! Puzzle families and their builders. Each puzzle turns into a [`Model`]; none of them knows
//! any backend.

pub mod generate;
pub mod hex;
pub mod killer;
pub mod parse;
pub mod queens;
pub mod star;
pub mod sudoku;

pub use hex::HexBoard;
pub use queens::QueensBoard;
pub use sudoku::Sudoku;

use crate::model::{Coord, Model, PuzzleKind, Solution};

/// The positions of the ones of `solution` as `[row, position-in-row]` pairs, for hex and
/// Queens answers; `None` for other kinds.
pub fn placements(model: &Model, solution: &Solution) -> Option<Vec<[usize; 2]>> {
    match model.kind() {
        PuzzleKind::Hex { .. } | PuzzleKind::Queens { .. } => Some(
            solution
                .ones
                .iter()
                .filter_map(|&v| match model.variables()[v].coord {
                    Coord::Cell { row, col } => Some([row, col]),
                    _ => None,
                })
                .collect(),
        ),
        _ => None,
    }
}

/// The filled grid of a Sudoku answer as `n^2` symbols (`.` where no digit is set); `None` for
/// other kinds.
pub fn sudoku_grid(model: &Model, solution: &Solution) -> Option<String> {
    let PuzzleKind::Sudoku { box_size } = model.kind() else {
        return None;
    };
    let n = box_size * box_size;
    let mut grid = vec!['.'; n * n];
    for &v in &solution.ones {
        if let Coord::CellValue { row, col, value } = model.variables()[v].coord {
            grid[row * n + col] = sudoku::symbol(value);
        }
    }
    Some(grid.into_iter().collect())
}

/// One puzzle read from a file, before it becomes a model.
#[derive(Debug, Clone, PartialEq)]
pub enum Puzzle {
    /// A hex board (coloured, or the bare geometry).
    Hex(HexBoard),
    /// A square Queens grid.
    Queens(QueensBoard),
    /// A Sudoku grid.
    Sudoku(Sudoku),
    /// A generic model read from JSON or TOML.
    Model(Model),
}

impl Puzzle {
    /// The 0-1 model of this puzzle, named `name`. Fails only for Sudoku clues that clash
    /// (parsers report those with their position first).
    pub fn to_model(&self, name: impl Into<String>) -> Result<Model, crate::model::ModelError> {
        Ok(match self {
            Puzzle::Hex(b) => b.to_model(name),
            Puzzle::Queens(q) => q.to_model(name),
            Puzzle::Sudoku(s) => s.to_model(name)?,
            Puzzle::Model(m) => m.clone().renamed(name),
        })
    }
}
