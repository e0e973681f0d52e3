//! Reading and writing puzzle files: `.hex`, `.queens`, Sudoku lines (`.sudoku`, `.txt`) and
//! generic models in JSON or TOML.
//!
//! Every malformed input gives exactly one [`ParseError`] naming the file, the puzzle (0-based
//! index in the file), the line and column (1-based) and what was expected. Parsers never
//! panic, whatever the bytes (a property test feeds them random input).
//!
//! Formats, in short:
//! - `.hex`: `n` lines of region letters (`A-Z`, `a-z`, case-sensitive, so up to 52 regions);
//!   whitespace is ignored, so a board may be drawn as an indented hexagon. Boards are separated
//!   by blank lines; lines whose first non-blank character is `#` are comments. A board written
//!   all in `.` is the bare geometry.
//! - `.queens`: `n` lines of `n` region letters, separated and commented as `.hex`. A comment
//!   `# solution: c0 c1 ...` or `# solution-computed: ...` inside a block gives the known solution
//!   (0-based column of the queen in each row); it is checked against the rules when read. An
//!   all-`.` grid has no regions.
//! - Sudoku: one puzzle per line, `n*n` cells (`n` = 4, 9, 16, 25): `1`-`9`, then letters `A`..
//!   (either case) for 16x16 and 25x25; `.` or `0` for an empty cell. Blank and `#` lines are
//!   skipped.
//! - JSON / TOML: a generic model; see [`generic`].
//!
//! Region letters become region indices in letter order (`A` < `Z` < `a` < `z`), so writing a
//! board back with [`write_hex`] / [`write_queens`] and reading it again gives the same board.
//!
//! Costs: one pass over the text; the Queens solution check builds the board's model once.

pub mod generic;
mod stream;

pub use stream::{gunzip_if_needed, open, stem_of, InputReader, PuzzleStream, STDIN_NAME};

/// The `.hex` writer (kept here, where callers found it before kinds got their folders).
pub use crate::puzzle::kinds::hex::file::write as write_hex;
/// The `.queens` writer (kept here, where callers found it before kinds got their folders).
pub use crate::puzzle::kinds::queens::file::write as write_queens;

use std::fmt;
use std::path::Path;

use thiserror::Error;

use crate::model::{Model, ModelError};
use crate::puzzle::kind::Kind;
use crate::puzzle::kinds::{self, KINDS};
use crate::puzzle::Puzzle;

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
    #[error("expected a file ending in {exts} (optionally .gz), or --format, found '{0}'", exts = extensions_text())]
    UnknownFormat(String),
    /// Standard input was named (`-`) without saying its format.
    #[error(
        "expected --format {} to read standard input, found none",
        format_names("|")
    )]
    FormatNeeded,
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
    /// JSON or TOML that is not well formed or does not have the model's shape.
    #[error("expected a generic model (JSON/TOML), found an error: {0}")]
    Syntax(String),
    /// A label or family name holding a control character (newline, tab, ...), which would
    /// break the line-based formats zeroone writes.
    #[error("expected a {what} without control characters (newline, tab, ...), found {found:?}")]
    ControlChar {
        /// `variable label` or `family name`.
        what: &'static str,
        /// The text as read.
        found: String,
    },
    /// A generic-model value out of its range or of the wrong shape (a sense name, a negative
    /// right-hand side, a zero weight, a weight list not matching its row).
    #[error("expected {expected}, found {found}")]
    BadValue {
        /// What would have been accepted.
        expected: String,
        /// What was found.
        found: String,
    },
    /// A generic-model row or given naming a variable that was not declared.
    #[error("expected the label of a declared variable, found '{0}'")]
    UnknownVariable(String),
    /// A generic model that is well formed but inconsistent (duplicate labels, empty rows,
    /// clashing givens).
    #[error("expected a consistent model, found: {0}")]
    Model(Box<ModelError>),
}

/// The file formats zeroone reads: each registered puzzle kind's own format
/// ([`crate::puzzle::kinds::KINDS`]), and the generic model in JSON or TOML.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// The format of the registered puzzle kind of this name (`hex`, `queens`, `sudoku`).
    Puzzle(&'static str),
    /// A generic model in JSON (`.json`).
    Json,
    /// A generic model in TOML (`.toml`).
    Toml,
    /// A 0-1 program in another tool's format: OPB, DIMACS CNF, LP, MPS or XCC (see
    /// [`crate::read`]).
    Program(crate::read::Format),
}

#[allow(non_upper_case_globals)]
impl Format {
    /// Hex boards (`.hex`).
    pub const Hex: Format = Format::Puzzle("hex");
    /// Square Queens grids (`.queens`).
    pub const Queens: Format = Format::Puzzle("queens");
    /// Sudoku, one per line (`.sudoku`, or a `.txt` that looks like one).
    pub const Sudoku: Format = Format::Puzzle("sudoku");

    /// Every format: the registered kinds in registry order, then `json` and `toml`, then
    /// the 0-1 program formats (`opb`, `cnf`, `lp`, `mps`, `xcc`).
    pub fn all() -> Vec<Format> {
        KINDS
            .iter()
            .map(|k| Format::Puzzle(k.name()))
            .chain([Format::Json, Format::Toml])
            .chain(crate::read::Format::ALL.map(Format::Program))
            .collect()
    }

    /// A short lower-case name (`hex`, `queens`, `sudoku`, `json`, `toml`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Puzzle(name) => name,
            Format::Json => "json",
            Format::Toml => "toml",
            Format::Program(f) => f.name(),
        }
    }

    /// The puzzle kind whose format this is; `None` for the generic model (and for a name no
    /// kind is registered under).
    pub fn kind(self) -> Option<&'static dyn Kind> {
        match self {
            Format::Puzzle(name) => kinds::by_name(name),
            Format::Json | Format::Toml | Format::Program(_) => None,
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;

    /// Reads a format name as `--format` takes it.
    fn from_str(name: &str) -> Result<Format, String> {
        Format::all()
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| format!("expected one of {}, found '{name}'", format_names(", ")))
    }
}

/// The names of every format, joined by `sep` (`hex, queens, sudoku, json, toml`).
fn format_names(sep: &str) -> String {
    Format::all()
        .iter()
        .map(|f| f.name())
        .collect::<Vec<_>>()
        .join(sep)
}

/// The extensions zeroone reads, in words (`.hex, .queens, .sudoku, .txt, .json or .toml`).
fn extensions_text() -> String {
    let mut all: Vec<String> = KINDS
        .iter()
        .flat_map(|k| k.extensions().iter().map(|e| format!(".{e}")))
        .collect();
    all.extend([".txt".into(), ".json".into(), ".toml".into()]);
    let programs = crate::read::Format::ALL.iter().flat_map(|f| f.extensions());
    all.extend(programs.map(|e| format!(".{e}")));
    let last = all.pop().unwrap_or_default();
    format!("{} or {last}", all.join(", "))
}

/// The format of a file, from its extension (a final `.gz` is skipped: `x.txt.gz` is a
/// `.txt`). A `.txt` file is sniffed: the kind that claims its first non-blank, non-comment
/// line most strongly reads it ([`crate::puzzle::kind::Kind::txt_claim`]: a Sudoku line of 16,
/// 81, 256 or 625 characters is Sudoku, anything else Queens). Returns `None` for other
/// extensions.
pub fn format_of(path: &Path, text: &str) -> Option<Format> {
    match format_of_name(path)? {
        Some(format) => Some(format),
        None => {
            let first = text
                .lines()
                .map(|l| l.trim_matches(is_blank))
                .find(|l| !l.is_empty() && !l.starts_with('#'))
                .unwrap_or("");
            Some(sniff_txt(first))
        }
    }
}

/// The format named by a file's extension: `Some(None)` for `.txt` (to be sniffed), `None`
/// for an unknown extension. A final `.gz` is skipped.
pub(crate) fn format_of_name(path: &Path) -> Option<Option<Format>> {
    let mut path = path;
    if extension(path).as_deref() == Some("gz") {
        path = Path::new(path.file_stem()?);
    }
    let ext = extension(path)?;
    Some(Some(match ext.as_str() {
        "json" => Format::Json,
        "toml" => Format::Toml,
        "txt" => return Some(None),
        _ => match crate::read::Format::by_extension(&ext) {
            Some(program) => Format::Program(program),
            None => Format::Puzzle(kinds::by_extension(&ext)?.name()),
        },
    }))
}

fn extension(path: &Path) -> Option<String> {
    Some(path.extension()?.to_str()?.to_ascii_lowercase())
}

/// The format of a `.txt` file whose first non-blank, non-comment line (trimmed) is `first`:
/// the kind claiming it most strongly ([`kinds::for_txt`]); Queens when none does.
pub(crate) fn sniff_txt(first: &str) -> Format {
    kinds::for_txt(first).map_or(Format::Queens, |k| Format::Puzzle(k.name()))
}

/// Parses the text of a file in `format`; `file` names it in errors. Returns every puzzle in
/// file order, or the first error. The same code as the streaming reader ([`PuzzleStream`]).
///
/// ```
/// use zeroone::puzzle::parse::{parse_str, Format};
///
/// let puzzles = parse_str("1.3.3.1.2.4.4.2.\n", Format::Sudoku, "mine.sudoku").unwrap();
/// assert_eq!(puzzles[0].to_model("4x4").unwrap().num_variables(), 64);
/// // A bad puzzle is a located error: file, line, column, what was expected.
/// let err = parse_str("1.3.\n1.3.3.1.2.4.4.2.\n", Format::Sudoku, "mine.sudoku").unwrap_err();
/// assert!(err.to_string().starts_with("mine.sudoku:1:"), "{err}");
/// ```
pub fn parse_str(text: &str, format: Format, file: &str) -> Result<Vec<Puzzle>, ParseError> {
    PuzzleStream::new(text.as_bytes(), Some(format), file).collect()
}

/// Parses raw bytes: like [`parse_str`], after checking the bytes are UTF-8 (a bad byte is
/// reported with its line and column).
pub fn parse_bytes(bytes: &[u8], format: Format, file: &str) -> Result<Vec<Puzzle>, ParseError> {
    PuzzleStream::new(bytes, Some(format), file).collect()
}

/// Reads and parses a puzzle file, choosing the format with [`format_of`]; `.gz` files are
/// read through gzip. An unreadable file or an unknown extension is a [`ParseError`] with
/// line 0. Holds every puzzle of the file: use [`open`] to read one at a time.
pub fn load(path: &Path) -> Result<Vec<Puzzle>, ParseError> {
    open(path, None)?.collect()
}

/// Reads a puzzle file and builds the model of every puzzle, named `"{file_stem}#{index}"`.
/// Holds every model of the file: use [`open`] and [`PuzzleStream::models`] to stream.
///
/// ```
/// use std::path::Path;
/// use zeroone::puzzle::parse::{load_models, open};
///
/// let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/hex-bare.hex");
/// let models = load_models(&file).unwrap();
/// assert_eq!(models[0].name(), "hex-bare#0");
/// // The same file one puzzle at a time: memory does not grow with the file.
/// let mut streamed = 0;
/// for item in open(&file, None).unwrap().models() {
///     let (index, model) = item.unwrap();
///     assert_eq!(model.num_variables(), models[index].num_variables());
///     streamed += 1;
/// }
/// assert_eq!(streamed, models.len());
/// ```
pub fn load_models(path: &Path) -> Result<Vec<Model>, ParseError> {
    open(path, None)?
        .models()
        .map(|m| m.map(|(_, m)| m))
        .collect()
}

/// The 1-based line and column (in characters) of byte offset `offset` of `text`.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
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

#[cfg(test)]
mod tests;
