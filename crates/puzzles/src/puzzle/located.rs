//! What every puzzle reader shares, below the formats and the kinds: located errors
//! ([`ParseError`], [`ParseErrorKind`], the [`Locator`] that places them, [`line_col`]) and the
//! blocks of a block format ([`Block`], [`GridLine`], [`BlockReader`]). The public paths are
//! [`crate::puzzle::parse`]'s. Costs: one pass over the text.

use std::fmt;

use thiserror::Error;

use crate::model::ModelError;
use crate::read::generic::{GenericError, GenericErrorKind};

/// A malformed or unreadable puzzle file, located as precisely as the format allows.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct ParseError {
    /// The file, as given by the caller.
    pub file: String,
    /// 0-based index of the puzzle in the file, when the error is inside one.
    pub puzzle: Option<usize>,
    /// 1-based line; 0 when the error concerns the whole file (it could not be read).
    pub line: usize,
    /// 1-based column (in characters); 0 when no column applies.
    pub column: usize,
    /// What was expected and what was found.
    pub kind: ParseErrorKind,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if self.column > 0 {
                write!(f, ":{}", self.column)?;
            }
        }
        write!(f, ": ")?;
        if let Some(p) = self.puzzle {
            write!(f, "puzzle {p}: ")?;
        }
        write!(f, "{}", self.kind)
    }
}

/// What went wrong in a puzzle file. Each message says what was expected and what was found.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseErrorKind {
    /// The file could not be read.
    #[error("expected a readable file, found an error: {0}")]
    Io(String),
    /// The bytes are not UTF-8 text.
    #[error("expected UTF-8 text, found a byte sequence that is not")]
    NotText,
    /// A file named `.gz` whose bytes are not gzip data.
    #[error("expected gzip data in a file named .gz, found bytes that do not start with the gzip magic number 1f 8b")]
    NotGzip,
    /// A line, block or document larger than any puzzle of its format (reading stops there,
    /// so memory stays bounded whatever the input).
    #[error(
        "expected {what} of at most {cap} (the most a {format} file holds), found a larger one"
    )]
    TooLarge {
        /// `a line`, `a block`, `a model`.
        what: &'static str,
        /// The cap, in words (`4096 bytes`, `2048 lines`).
        cap: String,
        /// The format's name.
        format: &'static str,
    },
    /// The file name does not say which format it is in.
    #[error("expected a file ending in {known} (optionally .gz), or --format, found '{found}'")]
    UnknownFormat {
        /// The extension found (`.csv`, or `no extension`).
        found: String,
        /// The extensions zeroone reads, in words (`.hex, .queens, ... or .dlx`).
        known: String,
    },
    /// Standard input was named (`-`) without saying its format.
    #[error("expected --format {names} to read standard input, found none")]
    FormatNeeded {
        /// The format names, joined by `|`.
        names: String,
    },
    /// The file holds no puzzle at all.
    #[error("expected at least one {0}, found none")]
    NoPuzzle(&'static str),
    /// A hex board with an even number of rows.
    #[error("expected an odd number of rows (a hex board has width 2s-1), found {0} rows")]
    EvenWidth(usize),
    /// A hex row with the wrong number of cells.
    #[error("expected {expected} cells in row {row} of a width-{width} hex board, found {found}")]
    HexRowLength {
        /// Row (0-based).
        row: usize,
        /// Board width.
        width: usize,
        /// Cells the row must have.
        expected: usize,
        /// Cells it has.
        found: usize,
    },
    /// A Queens row with the wrong number of cells.
    #[error("expected {size} cells in row {row} of a {size}x{size} Queens grid, found {found}")]
    QueensRowLength {
        /// Row (0-based).
        row: usize,
        /// Grid side.
        size: usize,
        /// Cells the row has.
        found: usize,
    },
    /// The number of distinct region letters differs from the number of rows.
    #[error("expected {expected} colour regions (one per row), found {found} ({letters})")]
    RegionCount {
        /// Regions needed (the width or size).
        expected: usize,
        /// Regions present.
        found: usize,
        /// The letters used, in order.
        letters: String,
    },
    /// A character that has no meaning here.
    #[error("expected {expected}, found '{found}'")]
    UnknownChar {
        /// What would have been accepted.
        expected: String,
        /// The character found.
        found: char,
    },
    /// A grid mixing `.` (bare geometry) and region letters.
    #[error("expected every cell to be '{first}' like the first cell (all '.' for bare geometry, or all region letters), found '{found}'")]
    MixedBlank {
        /// The first cell's character.
        first: char,
        /// The offending character.
        found: char,
    },
    /// A Sudoku line whose length is not `n*n` for a supported `n`.
    #[error("expected a Sudoku line of 16, 81, 256 or 625 cells, found {0} characters")]
    SudokuLength(usize),
    /// A Sudoku clue repeating a digit already in its row, column or box.
    #[error("expected a digit not yet in its {unit}, found '{symbol}', already given at row {first_row} column {first_col}")]
    ClashingClue {
        /// The repeated symbol.
        symbol: char,
        /// `row`, `column` or `box`.
        unit: &'static str,
        /// Row of the first clue (0-based).
        first_row: usize,
        /// Column of the first clue (0-based).
        first_col: usize,
    },
    /// Anything else a puzzle kind's reader refuses (kinds added as plug-ins use this rather
    /// than a variant of their own).
    #[error("expected {expected}, found {found}")]
    Invalid {
        /// What the kind's format needs here.
        expected: String,
        /// What the file holds.
        found: String,
    },
    /// A `# solution:` line that is malformed or breaks the rules.
    #[error("expected {expected}, found {found}")]
    BadSolution {
        /// What a solution line must be.
        expected: String,
        /// What it is.
        found: String,
    },
    /// A model that is well formed but inconsistent (duplicate labels, empty rows, clashing
    /// givens): a kind's board that builds no model.
    #[error("expected a consistent model, found: {0}")]
    Model(Box<ModelError>),
    /// What is wrong with a generic model (JSON or TOML), as its reader says
    /// ([`crate::read::generic`]).
    #[error(transparent)]
    GenericModel(GenericErrorKind),
}

pub(crate) use crate::read::generic::line_col;

impl ParseError {
    /// The error `e` of a generic model (JSON or TOML, read by [`crate::read::generic`]) in the
    /// file named `file`.
    pub fn in_generic_model(file: &str, e: GenericError) -> ParseError {
        ParseError {
            file: file.into(),
            puzzle: Some(0),
            line: e.line,
            column: e.column,
            kind: ParseErrorKind::GenericModel(e.kind),
        }
    }
}

/// Where parse errors point: the file being read. Kinds' readers make their errors with it.
pub struct Locator<'a> {
    /// The file, as errors name it.
    pub file: &'a str,
}

impl Locator<'_> {
    /// An error in this file: in puzzle `puzzle` (0-based, `None` for the whole file), at
    /// 1-based `line` and `column` (0: none applies).
    pub fn error(
        &self,
        puzzle: Option<usize>,
        line: usize,
        column: usize,
        kind: ParseErrorKind,
    ) -> ParseError {
        ParseError {
            file: self.file.into(),
            puzzle,
            line,
            column,
            kind,
        }
    }
}

/// One non-blank, non-comment line of a block: its line number and its characters with their
/// 1-based columns (whitespace skipped).
#[derive(Debug, Clone)]
pub struct GridLine {
    /// 1-based line number.
    pub line: usize,
    /// The non-blank characters, each with its 1-based column.
    pub cells: Vec<(usize, char)>,
    /// Column just past the last character of the line.
    pub end: usize,
}

/// A block of consecutive non-blank lines: its rows (every line not starting with `#`) and its
/// comments (`#` lines, trimmed, with their line numbers). Never empty of rows.
#[derive(Debug, Clone, Default)]
pub struct Block {
    /// The rows, in file order.
    pub rows: Vec<GridLine>,
    /// The comment lines (line number, trimmed text starting with `#`), in file order.
    pub comments: Vec<(usize, String)>,
}

/// Whitespace in every format: Unicode whitespace and the byte-order mark U+FEFF (which
/// editors put at the start of a file, and which is no puzzle cell).
pub(crate) fn is_blank(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// Cuts `text` into blocks separated by blank lines, as the stream reader does (for a kind's
/// `read_str` on a whole text; a leading byte-order mark is dropped); comments before a
/// block's first grid line and followed by a blank line belong to no block. Cost: one pass.
pub(crate) fn blocks(text: &str) -> Vec<Block> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = BlockReader::default();
    let mut out: Vec<Block> = (text.lines().enumerate())
        .filter_map(|(i, raw)| reader.push(i + 1, raw))
        .collect();
    out.extend(reader.finish());
    out
}

/// Gathers the lines of a block file (hex, Queens, ...) into blocks, one line at a time: a blank line
/// ends a block; comments before a block's first grid line are dropped at a blank line.
#[derive(Default)]
pub(crate) struct BlockReader {
    current: Block,
    /// Lines and bytes gathered into `current` (comments included), for the input caps.
    lines: usize,
    bytes: usize,
}

impl BlockReader {
    /// Takes line `line` (1-based, without its line break); returns the block it completes.
    pub(crate) fn push(&mut self, line: usize, raw: &str) -> Option<Block> {
        let trimmed = raw.trim_matches(is_blank);
        if trimmed.is_empty() {
            (self.lines, self.bytes) = (0, 0);
            if !self.current.rows.is_empty() {
                return Some(std::mem::take(&mut self.current));
            }
            self.current.comments.clear();
            return None;
        }
        self.lines += 1;
        self.bytes += raw.len();
        if trimmed.starts_with('#') {
            self.current.comments.push((line, trimmed.to_string()));
        } else {
            let cells = raw
                .chars()
                .enumerate()
                .filter(|&(_, c)| !is_blank(c))
                .map(|(col, c)| (col + 1, c))
                .collect();
            self.current.rows.push(GridLine {
                line,
                cells,
                end: raw.chars().count() + 1,
            });
        }
        None
    }

    /// Lines and bytes of the block being gathered (comments included).
    pub(crate) fn pending(&self) -> (usize, usize) {
        (self.lines, self.bytes)
    }

    /// The last block, at the end of the file.
    pub(crate) fn finish(&mut self) -> Option<Block> {
        (self.lines, self.bytes) = (0, 0);
        (!self.current.rows.is_empty()).then(|| std::mem::take(&mut self.current))
    }
}
