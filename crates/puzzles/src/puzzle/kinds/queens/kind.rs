//! The Queens kind as the registry sees it: name, file format, titles, drawing, answers.

use crate::model::{Model, ModelError, PuzzleKind, Solution};
use crate::puzzle::grid::{cell_placements, draw_cells};
use crate::puzzle::kind::{Answer, Board, Builtin, Kind, Reader, MAX_BUILTIN_SIZE};
use crate::puzzle::{Puzzle, QueensBoard};

/// The Queens kind (`.queens` files, models tagged `queens` with parameter `size`).
#[derive(Debug, Clone, Copy)]
pub struct QueensKind;

/// The registered Queens kind.
pub static QUEENS: QueensKind = QueensKind;

impl Kind for QueensKind {
    fn generator(&self) -> Option<&dyn crate::puzzle::generate::Generator> {
        Some(self)
    }
    fn table(&self) -> Option<&dyn crate::puzzle::table::SpaceTable> {
        Some(&super::table::QueensTable)
    }

    fn name(&self) -> &'static str {
        "queens"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["queens"]
    }

    fn noun(&self) -> &'static str {
        "Queens grid"
    }

    fn size_axis(&self) -> &'static str {
        "Queens grid side n"
    }

    fn reader(&self) -> Reader {
        Reader::Blocks(super::file::read_block)
    }

    /// A `.txt` file that is no Sudoku is read as Queens: the weakest claim, made on any line.
    fn txt_claim(&self, _first: &str) -> u8 {
        1
    }

    fn title(&self, kind: &PuzzleKind) -> String {
        let size = kind.param("size").unwrap_or(0);
        format!("Queens, {size}x{size}")
    }

    fn description(&self, kind: &PuzzleKind) -> String {
        let size = kind.param("size").unwrap_or(0);
        format!("queens {size}x{size}")
    }

    fn draw(&self, model: &Model, solution: Option<&Solution>) -> Option<String> {
        let size = model.kind().param("size")?;
        Some(draw_cells(model, solution, size, "region", false))
    }

    fn answer(&self, model: &Model, solution: Option<&Solution>) -> Answer {
        Answer::Placements(solution.map(|s| cell_placements(model, s)))
    }

    fn builtins(&self) -> &'static [Builtin] {
        &BUILTINS
    }
}

/// The bare `n x n` grid, no regions (`generate = "queens-bare"`).
static BUILTINS: [Builtin; 1] = [Builtin {
    name: "queens-bare",
    valid_sizes: "sizes from 1 to 999",
    accepts: side_in_range,
    board: bare_board,
}];

fn side_in_range(size: usize) -> bool {
    (1..=MAX_BUILTIN_SIZE).contains(&size)
}

fn bare_board(size: usize) -> Option<Puzzle> {
    (size >= 1).then(|| Puzzle::of(QueensBoard::bare(size)))
}

impl Board for QueensBoard {
    fn kind(&self) -> &'static dyn Kind {
        &QUEENS
    }

    fn to_model(&self, name: String) -> Result<Model, ModelError> {
        Ok(QueensBoard::to_model(self, name))
    }

    fn size(&self) -> usize {
        QueensBoard::size(self)
    }

    fn states_solution(&self) -> bool {
        self.known_solution.is_some()
    }

    fn to_text(&self) -> String {
        super::file::write(self)
    }
}
