//! The Killer Sudoku kind as the registry sees it: name, file format, titles, drawing,
//! answers (the filled grid as one line).

use std::sync::Arc;

use super::{grid_of, KillerBoard};
use crate::model::value_symbol as symbol;
use crate::model::{Model, ModelError, PuzzleKind, Solution};
use crate::puzzle::kind::{Answer, Board, InputCaps, Kind, Reader};
use crate::puzzle::parse::{Block, Locator, ParseError};
use crate::puzzle::Puzzle;

/// The Killer Sudoku kind (`.killer` files, models tagged `killer` with parameter
/// `box_size`).
#[derive(Debug, Clone, Copy)]
pub struct KillerKind;

/// The registered Killer Sudoku kind.
pub static KILLER: KillerKind = KillerKind;

fn read_block(block: &Block, p: usize, at: &Locator) -> Result<Puzzle, ParseError> {
    super::file::read_block(block, p, at).map(|b| Puzzle::Board(Arc::new(b)))
}

fn digits(kind: &PuzzleKind) -> usize {
    kind.param("box_size").map_or(0, |b| b * b)
}

impl Kind for KillerKind {
    fn generator(&self) -> Option<&dyn crate::puzzle::generate::Generator> {
        Some(self)
    }

    fn name(&self) -> &'static str {
        "killer"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["killer"]
    }

    fn noun(&self) -> &'static str {
        "Killer Sudoku"
    }

    fn size_axis(&self) -> &'static str {
        "Killer Sudoku side n (9 for 9x9)"
    }

    fn reader(&self) -> Reader {
        Reader::Blocks(read_block)
    }

    /// A 25x25 grid has 25 rows and at most 62 cage lines.
    fn input_caps(&self) -> InputCaps {
        InputCaps {
            line_bytes: 4 * 1024,
            block_lines: 1024,
            block_bytes: 256 * 1024,
        }
    }

    fn title(&self, kind: &PuzzleKind) -> String {
        let n = digits(kind);
        format!("Killer Sudoku, {n}x{n}")
    }

    fn description(&self, kind: &PuzzleKind) -> String {
        let n = digits(kind);
        format!("killer sudoku {n}x{n}")
    }

    fn draw(&self, model: &Model, solution: Option<&Solution>) -> Option<String> {
        super::draw::draw(model, solution)
    }

    fn answer(&self, model: &Model, solution: Option<&Solution>) -> Answer {
        let n = digits(model.kind());
        Answer::Grid(solution.map(|s| grid_of(n, s).into_iter().map(symbol).collect()))
    }
}

impl Board for KillerBoard {
    fn kind(&self) -> &'static dyn Kind {
        &KILLER
    }

    fn to_model(&self, name: String) -> Result<Model, ModelError> {
        Ok(KillerBoard::to_model(self, name))
    }

    fn size(&self) -> usize {
        KillerBoard::size(self)
    }

    fn to_text(&self) -> String {
        super::file::write(self)
    }
}

#[cfg(test)]
mod tests {
    use crate::puzzle::kind::Answer;
    use crate::puzzle::kinds;
    use crate::puzzle::parse::load;

    #[test]
    fn killer_files_read_through_the_registry() {
        let kind = kinds::by_extension("killer").unwrap();
        let file =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/killer-9x9.killer");
        let puzzles = load(&file).unwrap();
        let model = puzzles[0].to_model("k").unwrap();
        assert_eq!((model.kind().tag(), model.num_variables()), ("killer", 729));
        let board = crate::puzzle::kinds::killer::file::read_str(
            &std::fs::read_to_string(&file).unwrap(),
            "k",
        )
        .unwrap()
        .remove(0);
        let own = crate::puzzle::kinds::killer::search::count(&board, Some(2));
        let answer = kind.answer(&model, Some(&board.solution_of(&own.solutions[0])));
        let Answer::Grid(Some(line)) = answer else {
            panic!("no grid")
        };
        assert_eq!(line.len(), 81);
        assert!(kind.draw(&model, None).unwrap().contains("  ........."));
    }
}
