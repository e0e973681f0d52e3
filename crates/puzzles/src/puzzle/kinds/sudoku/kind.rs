//! The Sudoku kind as the registry sees it: name, file format, titles, drawing (box drawing),
//! answers (the filled grid as one line).

use crate::model::{Coord, Model, ModelError, PuzzleKind, Solution};
use crate::puzzle::kind::{Answer, Board, Builtin, InputCaps, Kind, Reader};
use crate::puzzle::{Puzzle, Sudoku};

/// The Sudoku kind (`.sudoku` files and Sudoku-like `.txt` files, models tagged `sudoku` with
/// parameter `box_size`).
#[derive(Debug, Clone, Copy)]
pub struct SudokuKind;

/// The registered Sudoku kind.
pub static SUDOKU: SudokuKind = SudokuKind;

impl Kind for SudokuKind {
    fn name(&self) -> &'static str {
        "sudoku"
    }

    fn table(&self) -> Option<&dyn crate::puzzle::table::SpaceTable> {
        Some(&super::table::SudokuTable)
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["sudoku"]
    }

    fn noun(&self) -> &'static str {
        "Sudoku line"
    }

    fn size_axis(&self) -> &'static str {
        "Sudoku side n (9 for 9x9)"
    }

    fn reader(&self) -> Reader {
        Reader::Lines(super::file::read_line)
    }

    /// A 25x25 line is 625 cells; 4 KiB leaves room for blanks and comments.
    fn input_caps(&self) -> InputCaps {
        InputCaps {
            line_bytes: 4 * 1024,
            ..InputCaps::BOARDS
        }
    }

    /// A `.txt` file whose first line looks like a Sudoku line is Sudoku (above Queens' claim).
    fn txt_claim(&self, first: &str) -> u8 {
        if super::file::looks_like_sudoku(first) {
            2
        } else {
            0
        }
    }

    fn title(&self, kind: &PuzzleKind) -> String {
        let n = digits(kind);
        format!("Sudoku, {n}x{n}")
    }

    fn description(&self, kind: &PuzzleKind) -> String {
        let n = digits(kind);
        format!("sudoku {n}x{n}")
    }

    /// The grid in box drawing: the cells of `solution`, or the givens.
    fn draw(&self, model: &Model, solution: Option<&Solution>) -> Option<String> {
        let box_size = model.kind().param("box_size")?;
        let givens = Solution::new(model.givens().to_vec());
        let line = grid(model, solution.unwrap_or(&givens))?;
        Some(line_text(&line, box_size))
    }

    fn answer(&self, model: &Model, solution: Option<&Solution>) -> Answer {
        Answer::Grid(solution.and_then(|s| grid(model, s)))
    }

    fn builtins(&self) -> &'static [Builtin] {
        &BUILTINS
    }
}

/// The empty grid of each box size (`generate = "sudoku-empty"`).
static BUILTINS: [Builtin; 1] = [Builtin {
    name: "sudoku-empty",
    valid_sizes: "box sizes 1 to 6",
    accepts: box_size_in_range,
    board: empty_board,
}];

fn box_size_in_range(box_size: usize) -> bool {
    (1..=6).contains(&box_size)
}

fn empty_board(box_size: usize) -> Option<Puzzle> {
    box_size_in_range(box_size).then(|| Puzzle::of(Sudoku::empty(box_size)))
}

fn digits(kind: &PuzzleKind) -> usize {
    let b = kind.param("box_size").unwrap_or(0);
    b * b
}

/// The filled grid of a Sudoku answer as `n^2` symbols (`.` where no digit is set); `None` for
/// models of other kinds.
pub fn grid(model: &Model, solution: &Solution) -> Option<String> {
    if model.kind().tag() != SUDOKU.name() {
        return None;
    }
    let n = digits(model.kind());
    let mut grid = vec!['.'; n * n];
    for &v in &solution.ones {
        if let Some(Coord::CellValue { row, col, value }) =
            model.variables().get(v).map(|x| x.coord)
        {
            if let Some(cell) = grid.get_mut(row * n + col) {
                *cell = super::symbol(value);
            }
        }
    }
    Some(grid.into_iter().collect())
}

/// Draws one Sudoku line of `n^2` symbols (`.` for empty, `n = box_size^2`) in the `+-------+`
/// box drawing, one text line per grid row. Cost: linear in the cells.
pub fn line_text(line: &str, box_size: usize) -> String {
    let n = box_size * box_size;
    let grid: Vec<char> = line.chars().collect();
    let rule = format!(
        "{}+\n",
        format!("+{}", "-".repeat(2 * box_size + 1)).repeat(box_size)
    );
    let mut out = String::new();
    for r in 0..n {
        if r % box_size == 0 {
            out.push_str(&rule);
        }
        for c in 0..n {
            if c % box_size == 0 {
                out.push_str("| ");
            }
            out.push(grid.get(r * n + c).copied().unwrap_or('.'));
            out.push(' ');
        }
        out.push_str("|\n");
    }
    out.push_str(&rule);
    out
}

impl Board for Sudoku {
    fn kind(&self) -> &'static dyn Kind {
        &SUDOKU
    }

    fn to_model(&self, name: String) -> Result<Model, ModelError> {
        Sudoku::to_model(self, name)
    }

    fn size(&self) -> usize {
        Sudoku::size(self)
    }

    fn to_text(&self) -> String {
        format!("{}\n", self.to_line())
    }
}
