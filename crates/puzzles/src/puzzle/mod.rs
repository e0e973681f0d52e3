//! Puzzle kinds and their builders. The format machinery (blocks, locators, streaming, the
//! generic JSON/TOML model) is here; each kind lives in its own folder under [`kinds`]
//! (geometry, file reader and writer, notation, drawing, model builder, optional generator and
//! search-space table), implements [`kind::Kind`] and is listed once, in the registry
//! ([`KINDS`]). Each puzzle turns into
//! a [`Model`]; none of them knows any backend. The generic JSON/TOML model is the case with
//! no geometry.

pub mod generate;
pub mod grid;
pub mod kind;
pub mod kinds;
mod located;
pub mod parse;
pub mod symmetry;
pub mod table;

use std::sync::Arc;

pub use self::kinds::hex::HexBoard;
pub use self::kinds::queens::QueensBoard;
pub use self::kinds::sudoku::Sudoku;
pub use self::kinds::KINDS;

use crate::model::{Model, Solution};
use kind::Board;

/// The positions of the ones of `solution` as `[row, position-in-row]` pairs, for models whose
/// variables are board cells ([`crate::model::ModelHints::cell_grid`]: hex, Queens); `None`
/// for other models.
pub fn placements(model: &Model, solution: &Solution) -> Option<Vec<[usize; 2]>> {
    model
        .hints()
        .cell_grid
        .then(|| grid::cell_placements(model, solution))
}

/// One puzzle read from a file, before it becomes a model.
#[derive(Debug, Clone)]
pub enum Puzzle {
    /// A puzzle of a registered kind (its board, as the kind's reader made it; reach the
    /// concrete board with [`Puzzle::board_as`]).
    Board(Arc<dyn Board>),
    /// A generic model read from JSON or TOML.
    Model(Model),
}

impl PartialEq for Puzzle {
    /// Same kind and same data: boards compare by kind and file text (which the kind's reader
    /// reads back to the same board), models by value.
    fn eq(&self, other: &Puzzle) -> bool {
        match (self, other) {
            (Puzzle::Model(a), Puzzle::Model(b)) => a == b,
            (Puzzle::Board(a), Puzzle::Board(b)) => {
                a.kind().name() == b.kind().name() && a.to_text() == b.to_text()
            }
            _ => false,
        }
    }
}

impl Puzzle {
    /// The puzzle as a [`Board`] of its kind; `None` for a generic model.
    pub fn board(&self) -> Option<&dyn Board> {
        match self {
            Puzzle::Board(b) => Some(&**b),
            Puzzle::Model(_) => None,
        }
    }

    /// The 0-1 model of this puzzle, named `name`. Fails only for puzzle data that clash, such
    /// as Sudoku clues (parsers report those with their position first).
    pub fn to_model(&self, name: impl Into<String>) -> Result<Model, crate::model::ModelError> {
        match self {
            Puzzle::Board(b) => b.to_model(name.into()),
            Puzzle::Model(m) => Ok(m.clone().renamed(name)),
        }
    }

    /// The puzzle's board as its concrete type (`puzzle.board_as::<Sudoku>()`), for code that
    /// knows the kind (the kind's own table, tests); `None` for a model or another kind.
    pub fn board_as<B: Board>(&self) -> Option<&B> {
        kind::AsAny::as_any(self.board()?).downcast_ref()
    }

    /// The puzzle wrapping `board`.
    pub fn of(board: impl Board) -> Puzzle {
        Puzzle::Board(Arc::new(board))
    }

    /// The puzzle's size as filters give it: its kind's ([`Board::size`]), or the number of
    /// variables of a generic model.
    pub fn size(&self) -> usize {
        match self {
            Puzzle::Model(m) => m.num_variables(),
            _ => self.board().map_or(0, |b| b.size()),
        }
    }

    /// Whether the puzzle's file states a known solution.
    pub fn states_solution(&self) -> bool {
        self.board().is_some_and(|b| b.states_solution())
    }
}

#[cfg(test)]
mod tests {
    use super::kind::{Answer, Board, Kind, Reader};
    use super::*;
    use crate::model::{Coord, ModelBuilder, ModelError, PuzzleKind, Sense};

    /// A kind that is not registered: what a plug-in kind's puzzle looks like to the rest of
    /// the program before (and whether or not) its registry line exists.
    struct Pairs;

    static PAIRS: Pairs = Pairs;

    impl Kind for Pairs {
        fn name(&self) -> &'static str {
            "pairs"
        }
        fn extensions(&self) -> &'static [&'static str] {
            &["pairs"]
        }
        fn noun(&self) -> &'static str {
            "pair"
        }
        fn reader(&self) -> Reader {
            Reader::Lines(|_, _, _, _| Ok(None))
        }
        fn title(&self, _: &PuzzleKind) -> String {
            "pairs".into()
        }
        fn description(&self, _: &PuzzleKind) -> String {
            "pairs".into()
        }
        fn draw(&self, _: &Model, _: Option<&Solution>) -> Option<String> {
            None
        }
        fn answer(&self, _: &Model, _: Option<&Solution>) -> Answer {
            Answer::Grid(None)
        }
    }

    /// `n` variables, exactly one of each consecutive pair; `stated` says a solution is known.
    #[derive(Debug)]
    struct PairsBoard {
        n: usize,
        stated: bool,
    }

    impl Board for PairsBoard {
        fn kind(&self) -> &'static dyn Kind {
            &PAIRS
        }
        fn to_model(&self, name: String) -> Result<Model, ModelError> {
            let mut b = ModelBuilder::new(name, PAIRS.puzzle_kind(&[("n", self.n)]));
            let vars: Vec<_> = (0..self.n)
                .map(|col| b.coord_variable(Coord::Cell { row: 0, col }))
                .collect();
            let f = b.family("pair");
            for pair in vars.chunks(2) {
                b.row(f, pair.to_vec(), Sense::ExactlyOne);
            }
            b.build()
        }
        fn size(&self) -> usize {
            self.n
        }
        fn states_solution(&self) -> bool {
            self.stated
        }
        fn to_text(&self) -> String {
            format!("{}\n", self.n)
        }
    }

    #[test]
    fn a_board_of_a_plug_in_kind_is_a_puzzle_like_the_others() {
        let p = Puzzle::Board(Arc::new(PairsBoard { n: 4, stated: true }));
        let m = p.to_model("four").unwrap();
        assert_eq!(
            (m.name(), m.num_variables(), m.constraints().len()),
            ("four", 4, 2)
        );
        assert_eq!(m.kind().name(), "pairs");
        assert_eq!((p.size(), p.states_solution()), (4, true));
        let same = Puzzle::Board(Arc::new(PairsBoard {
            n: 4,
            stated: false,
        }));
        let other = Puzzle::Board(Arc::new(PairsBoard { n: 6, stated: true }));
        assert!(
            p == same && p != other,
            "plug-in puzzles compare by kind and text"
        );
        // Not registered: output that asks the registry treats its models as kind-less, and
        // nothing panics; its description travels with the model.
        assert!(kinds::of(m.kind()).is_none());
        assert_eq!(crate::render::drawing(&m, None), None);
        assert_eq!(crate::export::describe_kind(m.kind()), "pairs");
        let read_back: Model = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
        assert_eq!(
            crate::export::describe_kind(read_back.kind()),
            "pairs model"
        );
    }

    #[test]
    fn kind_parameters_compare_equal_in_any_order() {
        let a = PuzzleKind::new("star", &[("stars", 2), ("size", 8)]);
        let b = PuzzleKind::new("star", &[("size", 8), ("stars", 2)]);
        let back: PuzzleKind = serde_json::from_str(&serde_json::to_string(&a).unwrap()).unwrap();
        assert_eq!((a.clone(), back), (b, a));
    }
}
