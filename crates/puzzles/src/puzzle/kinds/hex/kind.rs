//! The hex kind as the registry sees it: name, file format, titles, drawing, answers.

use crate::model::{Model, ModelError, PuzzleKind, Solution};
use crate::puzzle::grid::{cell_placements, draw_cells};
use crate::puzzle::kind::{Answer, Board, Builtin, Kind, Reader, MAX_BUILTIN_SIZE};
use crate::puzzle::{HexBoard, Puzzle};

/// The hex kind (`.hex` files, models tagged `hex` with parameter `width`).
#[derive(Debug, Clone, Copy)]
pub struct HexKind;

/// The registered hex kind.
pub static HEX: HexKind = HexKind;

impl Kind for HexKind {
    fn generator(&self) -> Option<&dyn crate::puzzle::generate::Generator> {
        Some(self)
    }
    fn table(&self) -> Option<&dyn crate::puzzle::table::SpaceTable> {
        Some(&super::table::HexTable)
    }

    fn name(&self) -> &'static str {
        "hex"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["hex"]
    }

    fn noun(&self) -> &'static str {
        "hex board"
    }

    fn size_axis(&self) -> &'static str {
        "hex board width"
    }

    fn reader(&self) -> Reader {
        Reader::Blocks(super::file::read_block)
    }

    fn title(&self, kind: &PuzzleKind) -> String {
        format!("hex board, width {}", kind.param("width").unwrap_or(0))
    }

    fn description(&self, kind: &PuzzleKind) -> String {
        format!("hex board of width {}", kind.param("width").unwrap_or(0))
    }

    fn draw(&self, model: &Model, solution: Option<&Solution>) -> Option<String> {
        let width = model.kind().param("width")?;
        Some(draw_cells(model, solution, width, "colour", true))
    }

    fn answer(&self, model: &Model, solution: Option<&Solution>) -> Answer {
        Answer::Placements(solution.map(|s| cell_placements(model, s)))
    }

    fn builtins(&self) -> &'static [Builtin] {
        &BUILTINS
    }
}

/// The bare hex geometry of each odd width (`generate = "hex"`).
static BUILTINS: [Builtin; 1] = [Builtin {
    name: "hex",
    valid_sizes: "odd widths up to 999",
    accepts: odd_width,
    board: bare_board,
}];

fn odd_width(size: usize) -> bool {
    size % 2 == 1 && size <= MAX_BUILTIN_SIZE
}

fn bare_board(width: usize) -> Option<Puzzle> {
    HexBoard::geometry(width).map(Puzzle::of)
}

impl Board for HexBoard {
    fn kind(&self) -> &'static dyn Kind {
        &HEX
    }

    fn to_model(&self, name: String) -> Result<Model, ModelError> {
        Ok(HexBoard::to_model(self, name))
    }

    fn size(&self) -> usize {
        self.width()
    }

    fn to_text(&self) -> String {
        super::file::write(self)
    }
}
