//! The Star Battle kind as the registry sees it: name, file format, titles, drawing, answers.

use std::sync::Arc;

use super::StarBoard;
use crate::model::{Model, ModelError, PuzzleKind, Solution};
use crate::puzzle::grid::cell_placements;
use crate::puzzle::kind::{Answer, Board, Kind, Reader};
use crate::puzzle::parse::{Block, Locator, ParseError};
use crate::puzzle::Puzzle;

/// The Star Battle kind (`.star` files, models tagged `star` with parameters `size` and
/// `stars`).
#[derive(Debug, Clone, Copy)]
pub struct StarKind;

/// The registered Star Battle kind.
pub static STAR: StarKind = StarKind;

fn read_block(block: &Block, p: usize, at: &Locator) -> Result<Puzzle, ParseError> {
    super::file::read_block(block, p, at).map(|b| Puzzle::Board(Arc::new(b)))
}

fn size_and_stars(kind: &PuzzleKind) -> (usize, usize) {
    (
        kind.param("size").unwrap_or(0),
        kind.param("stars").unwrap_or(1),
    )
}

impl Kind for StarKind {
    fn generator(&self) -> Option<&dyn crate::puzzle::generate::Generator> {
        Some(self)
    }
    fn table(&self) -> Option<&dyn crate::puzzle::table::SpaceTable> {
        Some(&super::table::StarTable)
    }

    fn name(&self) -> &'static str {
        "star"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["star"]
    }

    fn noun(&self) -> &'static str {
        "Star Battle grid"
    }

    fn size_axis(&self) -> &'static str {
        "Star Battle grid side n"
    }

    fn reader(&self) -> Reader {
        Reader::Blocks(read_block)
    }

    fn title(&self, kind: &PuzzleKind) -> String {
        let (n, k) = size_and_stars(kind);
        format!(
            "Star Battle, {n}x{n}, {k} star{}",
            if k == 1 { "" } else { "s" }
        )
    }

    fn description(&self, kind: &PuzzleKind) -> String {
        let (n, k) = size_and_stars(kind);
        format!("star battle {n}x{n} with {k} stars per row, column and region")
    }

    fn draw(&self, model: &Model, solution: Option<&Solution>) -> Option<String> {
        super::draw::draw(model, solution)
    }

    fn answer(&self, model: &Model, solution: Option<&Solution>) -> Answer {
        Answer::Placements(solution.map(|s| cell_placements(model, s)))
    }
}

impl Board for StarBoard {
    fn kind(&self) -> &'static dyn Kind {
        &STAR
    }

    fn to_model(&self, name: String) -> Result<Model, ModelError> {
        Ok(StarBoard::to_model(self, name))
    }

    fn size(&self) -> usize {
        StarBoard::size(self)
    }

    fn states_solution(&self) -> bool {
        self.known_solution.is_some()
    }

    fn to_text(&self) -> String {
        super::file::write(self)
    }
}

#[cfg(test)]
mod tests {
    use crate::puzzle::parse::{load, parse_str};
    use crate::puzzle::{kinds, Puzzle};

    #[test]
    fn star_files_read_through_the_registry() {
        let kind = kinds::by_extension("star").unwrap();
        assert_eq!(kind.name(), "star");
        let text = "# stars: 1\nAB\nBA\n\nAAAA\nBBBB\nCCCC\nDDDD\n# solution: 1 3 0 2\n";
        let found = crate::puzzle::parse::format_of(std::path::Path::new("x.star"), text);
        let puzzles = parse_str(text, found.unwrap(), "x.star").unwrap();
        assert_eq!(puzzles.len(), 2);
        let Puzzle::Board(b) = &puzzles[1] else {
            panic!("not a plug-in board")
        };
        assert!(b.states_solution());
        let model = puzzles[1].to_model("x").unwrap();
        assert_eq!(model.kind().tag(), "star");
        let drawn = kind.draw(&model, None).unwrap();
        assert_eq!(drawn, "AAAA\nBBBB\nCCCC\nDDDD\n");
        let file =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/star-10x10-2.star");
        assert!(!load(&file).unwrap().is_empty());
    }
}
