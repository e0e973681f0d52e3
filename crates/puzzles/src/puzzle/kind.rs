//! What a puzzle kind offers, as one trait ([`Kind`]) that every kind folder implements
//! (`puzzle/kinds/KIND/`: hex, Queens, Sudoku, Star Battle, Killer Sudoku) and the registry ([`super::kinds::KINDS`]) lists.
//! The parser, the renderer, the exporters and the harness ask the kind through it; they never
//! name a kind.
//!
//! A puzzle read from a file is a [`Board`]: it knows its kind, its size, its model and its text.
//!
//! Costs: a trait object call per question; nothing is stored.

use std::fmt;

use crate::model::{Model, ModelError, PuzzleKind, Solution};
use crate::puzzle::generate::Generator;
use crate::puzzle::located::{Block, Locator, ParseError};
use crate::puzzle::Puzzle;

/// Reads one line of a one-puzzle-per-line file: the raw line, its 1-based number, the index
/// the next puzzle gets, and where errors point. `Ok(None)` for a line holding no puzzle (blank
/// or `#` comment).
pub type ReadLine = fn(&str, usize, usize, &Locator) -> Result<Option<Puzzle>, ParseError>;

/// Reads one block of a block file (consecutive non-blank lines; see [`Block`]) as puzzle `p`.
pub type ReadBlock = fn(&Block, usize, &Locator) -> Result<Puzzle, ParseError>;

/// How a kind's files are cut into puzzles; the shared stream reader does the cutting (and
/// gzip, UTF-8 checks, line numbers), the kind reads each piece.
#[derive(Clone, Copy)]
pub enum Reader {
    /// One puzzle per line; the kind skips blank and comment lines itself.
    Lines(ReadLine),
    /// Puzzles as blocks separated by blank lines. Lines starting with `#` are the block's
    /// comments (a kind may read settings or a known solution from them, e.g. `# solution:`);
    /// every other line is a row of the block, whatever it holds (grid rows, `SYMBOL SUM`
    /// lines, ...).
    Blocks(ReadBlock),
}

impl fmt::Debug for Reader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reader::Lines(_) => "Reader::Lines",
            Reader::Blocks(_) => "Reader::Blocks",
        })
    }
}

/// A verified answer in the form `zeroone solve --json` prints for a kind (`None`: no verified
/// solution).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// `[row, position-in-row]` of each piece (boards of pieces: hex, Queens).
    Placements(Option<Vec<[usize; 2]>>),
    /// The filled grid as one line of symbols (Sudoku).
    Grid(Option<String>),
}

/// The largest board size (hex width, Queens side) a built-in family makes: a guard, since such
/// boards already have about a million variables.
pub const MAX_BUILTIN_SIZE: usize = 999;

/// The most one piece of a kind's file may hold, so that reading any input (a huge file,
/// `/dev/zero`, a gzip bomb, endless standard input) takes bounded memory: a longer line or a
/// larger block is refused with its location before more is read. Chosen well above the largest
/// puzzle the format can describe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputCaps {
    /// Bytes in one line, without its line break.
    pub line_bytes: usize,
    /// Lines (grid rows, sum lines and comments) in one block of a block format.
    pub block_lines: usize,
    /// Bytes in one block of a block format.
    pub block_bytes: usize,
}

impl InputCaps {
    /// The caps of the board formats up to [`MAX_BUILTIN_SIZE`] rows (hex, Queens): a width-999
    /// board drawn as an indented hexagon has lines of about 3,000 bytes and 999 rows.
    pub const BOARDS: InputCaps = InputCaps {
        line_bytes: 16 * 1024,
        block_lines: 2 * 1024,
        block_bytes: 4 * 1024 * 1024,
    };
}

/// A family of boards a kind makes without a file, one per size, for harness sources
/// (`generate = "NAME"` in an experiment file).
#[derive(Debug)]
pub struct Builtin {
    /// The name experiment files use (`hex`, `queens-bare`, `sudoku-empty`).
    pub name: &'static str,
    /// The sizes accepted, in words, for error messages.
    pub valid_sizes: &'static str,
    /// Whether `size` makes a board of this family.
    pub accepts: fn(usize) -> bool,
    /// The board of `size`, if there is one.
    pub board: fn(usize) -> Option<Puzzle>,
}

/// A puzzle kind: its file format (the reader here; the writer is [`Board::to_text`]), its
/// notation, its drawing and (through [`Board::to_model`]) its model builder. Implemented once
/// per kind, by a unit struct in the kind's folder, and listed in [`super::kinds::KINDS`].
pub trait Kind: Sync {
    /// The kind's name: the `--format` name, the tag of its models' [`PuzzleKind`] and the
    /// `kind` of JSON records (`hex`, `queens`, `sudoku`).
    fn name(&self) -> &'static str;

    /// The file extensions of its files, lower case, without the dot (`["hex"]`).
    fn extensions(&self) -> &'static [&'static str];

    /// What one puzzle of a file is called in errors ("expected at least one hex board").
    fn noun(&self) -> &'static str;

    /// How its files are read.
    fn reader(&self) -> Reader;

    /// What [`Board::size`] measures, as an axis label ("hex board width"): figures that
    /// plot against size say it, and never join kinds whose sizes mean different things.
    fn size_axis(&self) -> &'static str {
        "puzzle size"
    }

    /// The most one line and one block of its files may hold ([`InputCaps::BOARDS`] unless the
    /// kind's puzzles are smaller).
    fn input_caps(&self) -> InputCaps {
        InputCaps::BOARDS
    }

    /// How strongly `first` (the first non-blank, non-comment line of a `.txt` file, trimmed)
    /// says "this kind": 0 not at all; the kind with the highest claim reads the file. Kinds
    /// that never come as `.txt` keep the default 0.
    fn txt_claim(&self, first: &str) -> u8 {
        let _ = first;
        0
    }

    /// The kind and size in words for `zeroone show` ("hex board, width 9").
    fn title(&self, kind: &PuzzleKind) -> String;

    /// The kind and size in words for export headers ("hex board of width 9").
    fn description(&self, kind: &PuzzleKind) -> String;

    /// The model's kind for a board of this kind with size parameters `params`: the tag is
    /// [`Kind::name`], and the description in words travels with it (export headers print it
    /// without asking the registry).
    fn puzzle_kind(&self, params: &[(&'static str, usize)]) -> PuzzleKind {
        let kind = PuzzleKind::new(self.name(), params);
        let words = self.description(&kind);
        kind.described(words)
    }

    /// The puzzle drawn from its model alone: with the pieces or digits of `solution`, or as
    /// given (regions, clues) when `solution` is `None`. `None` when the model lacks what the
    /// drawing needs (its size parameter).
    fn draw(&self, model: &Model, solution: Option<&Solution>) -> Option<String>;

    /// The answer `solve --json` prints for `solution` (`None`: no verified solution).
    fn answer(&self, model: &Model, solution: Option<&Solution>) -> Answer;

    /// The families of boards the kind makes without a file (none by default).
    fn builtins(&self) -> &'static [Builtin] {
        &[]
    }

    /// Its generator of boards with exactly one solution, which `zeroone generate KIND` runs
    /// (none by default).
    fn generator(&self) -> Option<&dyn Generator> {
        None
    }

    /// Its search-space table, which `zeroone table KIND` (and a board file's table) runs
    /// (none by default).
    fn table(&self) -> Option<&dyn crate::puzzle::table::SpaceTable> {
        None
    }
}

/// A board as [`Any`](std::any::Any), so that code knowing the kind can reach the concrete
/// board ([`crate::puzzle::Puzzle::board_as`]); every `'static` type has it, so a kind writes
/// nothing for it.
pub trait AsAny {
    /// `self` as `Any`.
    fn as_any(&self) -> &dyn std::any::Any;
}

impl<T: std::any::Any> AsAny for T {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// One puzzle of a kind, as read from a file or made by a generator: what the rest of the
/// program may ask of any puzzle without knowing its kind.
pub trait Board: AsAny + fmt::Debug + Send + Sync + 'static {
    /// The kind the puzzle is of.
    fn kind(&self) -> &'static dyn Kind;

    /// The 0-1 model, named `name`. Fails only when the puzzle's data clash (givens in one row).
    fn to_model(&self, name: String) -> Result<Model, ModelError>;

    /// The puzzle's size as filters and tables give it (rows of the board, digits of a Sudoku).
    fn size(&self) -> usize;

    /// Whether the puzzle's file states a known solution.
    fn states_solution(&self) -> bool {
        false
    }

    /// The puzzle as its file format writes it; the kind's reader reads it back to the same
    /// puzzle.
    fn to_text(&self) -> String;
}
