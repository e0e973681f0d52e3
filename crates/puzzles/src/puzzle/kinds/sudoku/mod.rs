//! Sudoku with box size `b` (`n = b * b` digits: 4x4, 9x9, 16x16, 25x25).
//!
//! One variable per (cell, digit): id `(r * n + c) * n + d`. Families: `cell` (each cell holds
//! one digit), `row-digit`, `column-digit` and `box-digit` (each digit once per unit), all
//! exactly one: `4 n^2` rows. Clues are givens.

pub mod file;
pub mod generate;
pub mod kind;
pub mod table;

pub use kind::{grid, SudokuKind, SUDOKU};

use crate::model::{Coord, Model, ModelBuilder, ModelHints, Sense};
use crate::puzzle::kind::Kind;

/// The symbol of digit index `d` (0-based): the model's one symbol table,
/// [`crate::model::value_symbol`].
pub use crate::model::value_symbol as symbol;

/// The digit index of `ch` (case-insensitive letters), if it is a digit symbol below `n`.
pub fn digit_of(ch: char, n: usize) -> Option<usize> {
    let d = match ch {
        '1'..='9' => ch as usize - '1' as usize,
        'a'..='z' => ch as usize - 'a' as usize + 9,
        'A'..='Z' => ch as usize - 'A' as usize + 9,
        _ => return None,
    };
    (d < n).then_some(d)
}

/// A Sudoku grid: box size and the clues.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sudoku {
    box_size: usize,
    /// Row-major cells: `Some(d)` for a clue of digit index `d`.
    cells: Vec<Option<usize>>,
}

impl Sudoku {
    /// An empty grid with boxes `box_size x box_size`.
    pub fn empty(box_size: usize) -> Sudoku {
        let n = box_size * box_size;
        Sudoku {
            box_size,
            cells: vec![None; n * n],
        }
    }

    /// A grid from row-major cells; `None` unless there are `n^2` cells with digits below `n`.
    pub fn from_cells(box_size: usize, cells: Vec<Option<usize>>) -> Option<Sudoku> {
        let n = box_size * box_size;
        (cells.len() == n * n && cells.iter().flatten().all(|&d| d < n))
            .then_some(Sudoku { box_size, cells })
    }

    /// Box side `b`.
    pub fn box_size(&self) -> usize {
        self.box_size
    }

    /// Digits (and rows, columns) `n = b^2`.
    pub fn size(&self) -> usize {
        self.box_size * self.box_size
    }

    /// Row-major cells.
    pub fn cells(&self) -> &[Option<usize>] {
        &self.cells
    }

    /// Number of clues.
    pub fn clues(&self) -> usize {
        self.cells.iter().flatten().count()
    }

    /// The grid as one line of `n^2` symbols, `.` for an empty cell.
    pub fn to_line(&self) -> String {
        self.cells.iter().map(|c| c.map_or('.', symbol)).collect()
    }

    /// The box index of cell `(r, c)`.
    pub fn box_of(&self, r: usize, c: usize) -> usize {
        (r / self.box_size) * self.box_size + c / self.box_size
    }

    /// The 0-1 model with the clues as givens. Fails only when two clues clash (then the error
    /// names them). The structure (variables, rows, families) is built once per box size and
    /// shared by every Sudoku model of that size; a puzzle adds only its name and givens.
    pub fn to_model(&self, name: impl Into<String>) -> Result<Model, crate::model::ModelError> {
        let n = self.size();
        let givens = self
            .cells
            .iter()
            .enumerate()
            .filter_map(|(i, cell)| cell.map(|d| i * n + d))
            .collect();
        shape_of(self.box_size).with_givens(name, givens)
    }
}

/// Box sizes whose shape is kept for the life of the process (4x4 up to 64x64 grids).
const CACHED_BOX_SIZES: usize = 8;

/// The empty Sudoku model of box size `box_size`: from the process-wide cache for small sizes
/// (built on first use, then shared by reference), built afresh for larger ones.
fn shape_of(box_size: usize) -> Model {
    use std::sync::{Mutex, OnceLock};
    static SHAPES: OnceLock<Mutex<Vec<Option<Model>>>> = OnceLock::new();
    if box_size >= CACHED_BOX_SIZES {
        return empty_model(box_size);
    }
    let cache = SHAPES.get_or_init(|| Mutex::new(vec![None; CACHED_BOX_SIZES]));
    let mut cache = cache
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    cache[box_size]
        .get_or_insert_with(|| empty_model(box_size))
        .clone()
}

/// Builds the Sudoku structure with no clues: `n^3` variables labelled from their
/// coordinates, `4 n^2` exactly-one rows.
fn empty_model(box_size: usize) -> Model {
    let n = box_size * box_size;
    let id = |r: usize, c: usize, d: usize| (r * n + c) * n + d;
    let mut b = ModelBuilder::new("", SUDOKU.puzzle_kind(&[("box_size", box_size)]));
    b.hints(ModelHints {
        coordinate_family: Some("cell".into()),
        ..ModelHints::default()
    });
    for r in 0..n {
        for c in 0..n {
            for d in 0..n {
                b.coord_variable(Coord::CellValue {
                    row: r,
                    col: c,
                    value: d,
                });
            }
        }
    }
    let f = b.family("cell");
    for r in 0..n {
        for c in 0..n {
            b.row(f, (0..n).map(|d| id(r, c, d)).collect(), Sense::ExactlyOne);
        }
    }
    let f = b.family("row-digit");
    for r in 0..n {
        for d in 0..n {
            b.row(f, (0..n).map(|c| id(r, c, d)).collect(), Sense::ExactlyOne);
        }
    }
    let f = b.family("column-digit");
    for c in 0..n {
        for d in 0..n {
            b.row(f, (0..n).map(|r| id(r, c, d)).collect(), Sense::ExactlyOne);
        }
    }
    let f = b.family("box-digit");
    for bx in 0..n {
        let (r0, c0) = ((bx / box_size) * box_size, (bx % box_size) * box_size);
        for d in 0..n {
            let vars = (0..n)
                .map(|i| id(r0 + i / box_size, c0 + i % box_size, d))
                .collect();
            b.row(f, vars, Sense::ExactlyOne);
        }
    }
    // A model without givens always builds: rows are non-empty, in range, duplicate-free.
    b.build()
        .unwrap_or_else(|e| unreachable!("empty Sudoku model: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nine_by_nine_has_729_variables_and_324_rows() {
        let m = Sudoku::empty(3).to_model("s").unwrap();
        let s = m.summary();
        assert_eq!((s.variables, s.constraints, s.nonzeros), (729, 324, 2916));
    }

    #[test]
    fn symbols_round_trip() {
        for n in [4, 9, 16, 25] {
            for d in 0..n {
                assert_eq!(digit_of(symbol(d), n), Some(d));
            }
            assert_eq!(digit_of(symbol(n - 1), n - 1), None);
        }
        assert_eq!(digit_of('0', 9), None);
    }

    #[test]
    fn clashing_clues_are_refused() {
        let mut cells = vec![None; 16];
        cells[0] = Some(0);
        cells[1] = Some(0);
        let s = Sudoku::from_cells(2, cells).unwrap();
        assert!(s.to_model("x").is_err());
    }
}
