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

use std::fmt;
use std::path::Path;

use thiserror::Error;

use crate::model::{Model, ModelError, Solution};
use crate::puzzle::{sudoku, HexBoard, Puzzle, QueensBoard, Sudoku};
use crate::render::region_letter;
use crate::verify::Verifier;

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
    /// The file name does not say which format it is in.
    #[error("expected a file ending in .hex, .queens, .sudoku, .txt, .json or .toml (optionally .gz), or --format, found '{0}'")]
    UnknownFormat(String),
    /// Standard input was named (`-`) without saying its format.
    #[error("expected --format hex|queens|sudoku|json|toml to read standard input, found none")]
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

/// The file formats zeroone reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Hex boards (`.hex`).
    Hex,
    /// Square Queens grids (`.queens`).
    Queens,
    /// Sudoku, one per line (`.sudoku`, or a `.txt` that looks like one).
    Sudoku,
    /// A generic model in JSON (`.json`).
    Json,
    /// A generic model in TOML (`.toml`).
    Toml,
}

impl Format {
    /// Every format, in the order of [`Format::name`]'s list.
    pub const ALL: [Format; 5] = [
        Format::Hex,
        Format::Queens,
        Format::Sudoku,
        Format::Json,
        Format::Toml,
    ];

    /// A short lower-case name (`hex`, `queens`, `sudoku`, `json`, `toml`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Hex => "hex",
            Format::Queens => "queens",
            Format::Sudoku => "sudoku",
            Format::Json => "json",
            Format::Toml => "toml",
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;

    /// Reads a format name as `--format` takes it.
    fn from_str(name: &str) -> Result<Format, String> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| {
                format!("expected one of hex, queens, sudoku, json, toml, found '{name}'")
            })
    }
}

const SUDOKU_SIZES: [usize; 4] = [16, 81, 256, 625];

/// The format of a file, from its extension (a final `.gz` is skipped: `x.txt.gz` is a
/// `.txt`). A `.txt` file is sniffed: when its first non-blank, non-comment line is a Sudoku
/// line (16, 81, 256 or 625 characters of digits, letters, `.` or `0`, with at least one digit,
/// `.` or `0`) it is Sudoku, otherwise Queens. Returns `None` for other extensions.
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
    Some(Some(match extension(path)?.as_str() {
        "hex" => Format::Hex,
        "queens" => Format::Queens,
        "sudoku" => Format::Sudoku,
        "json" => Format::Json,
        "toml" => Format::Toml,
        "txt" => return Some(None),
        _ => return None,
    }))
}

fn extension(path: &Path) -> Option<String> {
    Some(path.extension()?.to_str()?.to_ascii_lowercase())
}

/// Sudoku when `first` (the first non-blank, non-comment line, trimmed) looks like a Sudoku
/// line, otherwise Queens.
pub(crate) fn sniff_txt(first: &str) -> Format {
    let sudoku_like = SUDOKU_SIZES.contains(&first.chars().count())
        && first.chars().all(|c| c.is_ascii_alphanumeric() || c == '.')
        && first.chars().any(|c| c.is_ascii_digit() || c == '.');
    if sudoku_like {
        Format::Sudoku
    } else {
        Format::Queens
    }
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
/// let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/hex-bare.hex");
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

pub(crate) struct Locator<'a> {
    pub(crate) file: &'a str,
}

impl Locator<'_> {
    pub(crate) fn error(
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

/// One non-blank, non-comment line of a grid block: its line number and its cells with their
/// 1-based columns (whitespace skipped).
pub(crate) struct GridLine {
    line: usize,
    cells: Vec<(usize, char)>,
    /// Column just past the last character of the line.
    end: usize,
}

/// A block of consecutive non-blank lines: grid lines and comments.
#[derive(Default)]
pub(crate) struct Block {
    rows: Vec<GridLine>,
    comments: Vec<(usize, String)>,
}

/// Whitespace in every format: Unicode whitespace and the byte-order mark U+FEFF (which
/// editors put at the start of a file, and which is no puzzle cell).
pub(crate) fn is_blank(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// Gathers the lines of a hex or Queens file into blocks, one line at a time: a blank line
/// ends a block; comments before a block's first grid line are dropped at a blank line.
#[derive(Default)]
pub(crate) struct BlockReader {
    current: Block,
}

impl BlockReader {
    /// Takes line `line` (1-based, without its line break); returns the block it completes.
    pub(crate) fn push(&mut self, line: usize, raw: &str) -> Option<Block> {
        let trimmed = raw.trim_matches(is_blank);
        if trimmed.is_empty() {
            if !self.current.rows.is_empty() {
                return Some(std::mem::take(&mut self.current));
            }
            self.current.comments.clear();
        } else if trimmed.starts_with('#') {
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

    /// The last block, at the end of the file.
    pub(crate) fn finish(&mut self) -> Option<Block> {
        (!self.current.rows.is_empty()).then(|| std::mem::take(&mut self.current))
    }
}

/// Cells of a grid block as region indices (`None` for a bare grid), after checking the
/// characters, that `.` and letters are not mixed, and that there are `n` regions.
fn regions_of(
    rows: &[GridLine],
    n: usize,
    puzzle: usize,
    at: &Locator,
) -> Result<Option<Vec<Vec<usize>>>, ParseError> {
    let first = rows[0].cells[0].1;
    for row in rows {
        for &(col, c) in &row.cells {
            if !(c.is_ascii_alphabetic() || c == '.') {
                return Err(at.error(
                    Some(puzzle),
                    row.line,
                    col,
                    ParseErrorKind::UnknownChar {
                        expected: "a region letter (A-Z, a-z) or '.'".into(),
                        found: c,
                    },
                ));
            }
            if (c == '.') != (first == '.') {
                return Err(at.error(
                    Some(puzzle),
                    row.line,
                    col,
                    ParseErrorKind::MixedBlank { first, found: c },
                ));
            }
        }
    }
    if first == '.' {
        return Ok(None);
    }
    // Letters in reading order of first appearance, to point at the first extra one.
    let mut seen: Vec<char> = Vec::new();
    for row in rows {
        for &(col, c) in &row.cells {
            if !seen.contains(&c) {
                seen.push(c);
                if seen.len() > n {
                    let mut letters = seen.clone();
                    letters.sort_unstable();
                    return Err(at.error(
                        Some(puzzle),
                        row.line,
                        col,
                        ParseErrorKind::RegionCount {
                            expected: n,
                            found: count_letters(rows),
                            letters: letters_text(rows),
                        },
                    ));
                }
            }
        }
    }
    if seen.len() < n {
        return Err(at.error(
            Some(puzzle),
            rows[0].line,
            rows[0].cells[0].0,
            ParseErrorKind::RegionCount {
                expected: n,
                found: seen.len(),
                letters: letters_text(rows),
            },
        ));
    }
    seen.sort_unstable();
    Ok(Some(
        rows.iter()
            .map(|row| {
                row.cells
                    .iter()
                    .map(|&(_, c)| seen.binary_search(&c).unwrap_or(0))
                    .collect()
            })
            .collect(),
    ))
}

fn sorted_letters(rows: &[GridLine]) -> Vec<char> {
    let mut letters: Vec<char> = rows
        .iter()
        .flat_map(|r| r.cells.iter().map(|&(_, c)| c))
        .collect();
    letters.sort_unstable();
    letters.dedup();
    letters
}

fn count_letters(rows: &[GridLine]) -> usize {
    sorted_letters(rows).len()
}

fn letters_text(rows: &[GridLine]) -> String {
    sorted_letters(rows).into_iter().collect()
}

/// Reads block `p` of a hex file as a board.
pub(crate) fn hex_block(block: &Block, p: usize, at: &Locator) -> Result<Puzzle, ParseError> {
    let rows = &block.rows;
    let n = rows.len();
    if n % 2 == 0 {
        let last = &rows[n - 1];
        return Err(at.error(
            Some(p),
            last.line,
            last.cells[0].0,
            ParseErrorKind::EvenWidth(n),
        ));
    }
    let geometry = HexBoard::geometry(n)
        .ok_or_else(|| at.error(Some(p), rows[0].line, 1, ParseErrorKind::EvenWidth(n)))?;
    for (r, row) in rows.iter().enumerate() {
        let expected = geometry.row_len(r);
        let found = row.cells.len();
        if found != expected {
            let column = if found > expected {
                row.cells[expected].0
            } else {
                row.end
            };
            return Err(at.error(
                Some(p),
                row.line,
                column,
                ParseErrorKind::HexRowLength {
                    row: r,
                    width: n,
                    expected,
                    found,
                },
            ));
        }
    }
    Ok(Puzzle::Hex(match regions_of(rows, n, p, at)? {
        None => geometry,
        Some(regions) => HexBoard::coloured(regions).unwrap_or(geometry),
    }))
}

/// Reads block `p` of a Queens file as a grid, with its `# solution:` comment if any.
pub(crate) fn queens_block(block: &Block, p: usize, at: &Locator) -> Result<Puzzle, ParseError> {
    let rows = &block.rows;
    let n = rows.len();
    for (r, row) in rows.iter().enumerate() {
        let found = row.cells.len();
        if found != n {
            let column = if found > n { row.cells[n].0 } else { row.end };
            return Err(at.error(
                Some(p),
                row.line,
                column,
                ParseErrorKind::QueensRowLength {
                    row: r,
                    size: n,
                    found,
                },
            ));
        }
    }
    let mut board = match regions_of(rows, n, p, at)? {
        None => QueensBoard::bare(n),
        Some(regions) => QueensBoard::with_regions(regions).unwrap_or_else(|| QueensBoard::bare(n)),
    };
    for (line, comment) in &block.comments {
        let body = comment.trim_start_matches('#').trim_start_matches(is_blank);
        let rest = body
            .strip_prefix("solution-computed:")
            .or_else(|| body.strip_prefix("solution:"));
        if let Some(rest) = rest {
            // Column of `rest` within the original line, for pointing at tokens.
            let offset = comment.chars().count() - rest.chars().count();
            board.known_solution = Some(parse_solution(&board, rest, *line, offset, p, at)?);
            break;
        }
    }
    Ok(Puzzle::Queens(board))
}

/// Reads the columns of a `# solution:` line and checks them against the board's rules.
/// `offset` is the number of characters of the (trimmed) comment before `rest`.
fn parse_solution(
    board: &QueensBoard,
    rest: &str,
    line: usize,
    offset: usize,
    p: usize,
    at: &Locator,
) -> Result<Vec<usize>, ParseError> {
    let n = board.size();
    let bad = |column: usize, expected: String, found: String| {
        at.error(
            Some(p),
            line,
            column,
            ParseErrorKind::BadSolution { expected, found },
        )
    };
    let mut cols = Vec::new();
    let mut chars = rest.char_indices().peekable();
    // Split on whitespace, keeping each token's character column.
    let mut tokens: Vec<(usize, String)> = Vec::new();
    while let Some(&(i, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let start_col = offset + rest[..i].chars().count() + 1;
        let mut token = String::new();
        while let Some(&(_, c)) = chars.peek() {
            if c.is_whitespace() {
                break;
            }
            token.push(c);
            chars.next();
        }
        tokens.push((start_col, token));
    }
    let end = offset + rest.chars().count() + 1;
    for (col, token) in &tokens {
        match token.parse::<usize>() {
            Ok(c) if c < n => cols.push(c),
            _ => {
                return Err(bad(
                    *col,
                    format!("a column number from 0 to {}", n.saturating_sub(1)),
                    format!("'{token}'"),
                ))
            }
        }
    }
    if cols.len() != n {
        let column = tokens.get(n).map_or(end, |t| t.0);
        return Err(bad(
            column,
            format!("{n} columns (one per row)"),
            format!("{}", cols.len()),
        ));
    }
    let model = board.to_model("solution check");
    let solution = Solution::new(cols.iter().enumerate().map(|(r, &c)| r * n + c).collect());
    if let Err(v) = Verifier::new(&model).check(&solution) {
        return Err(bad(
            offset + 1,
            "a placement that keeps the rules".into(),
            format!("one that breaks them: {v}"),
        ));
    }
    Ok(cols)
}

/// Reads line `line` of a Sudoku file as puzzle `p`; `None` for a blank or comment line.
pub(crate) fn sudoku_line(
    raw: &str,
    line: usize,
    p: usize,
    at: &Locator,
) -> Result<Option<Puzzle>, ParseError> {
    let trimmed = raw.trim_matches(is_blank);
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(None);
    }
    let lead = raw.chars().take_while(|&c| is_blank(c)).count();
    let len = trimmed.chars().count();
    let Some(box_size) = SUDOKU_SIZES.iter().position(|&s| s == len).map(|i| i + 2) else {
        let nearest = *SUDOKU_SIZES
            .iter()
            .min_by_key(|&&s| s.abs_diff(len))
            .unwrap_or(&81);
        let column = lead + nearest.min(len) + 1;
        return Err(at.error(Some(p), line, column, ParseErrorKind::SudokuLength(len)));
    };
    let n = box_size * box_size;
    let mut cells = Vec::with_capacity(len);
    for (k, c) in trimmed.chars().enumerate() {
        cells.push(match c {
            '.' | '0' => None,
            _ => match sudoku::digit_of(c, n) {
                Some(d) => Some(d),
                None => {
                    let expected = if n <= 9 {
                        format!("a digit 1-{n}, '.' or '0'")
                    } else {
                        format!(
                            "a digit 1-9, a letter A-{} (either case), '.' or '0'",
                            sudoku::symbol(n - 1)
                        )
                    };
                    return Err(at.error(
                        Some(p),
                        line,
                        lead + k + 1,
                        ParseErrorKind::UnknownChar { expected, found: c },
                    ));
                }
            },
        });
    }
    check_clues(&cells, box_size, trimmed, line, lead, p, at)?;
    let grid = Sudoku::from_cells(box_size, cells).unwrap_or_else(|| Sudoku::empty(box_size));
    Ok(Some(Puzzle::Sudoku(grid)))
}

/// Refuses a clue repeating a digit in its row, column or box, pointing at the second clue of
/// the first clashing pair in reading order. Costs one pass with a digit mask per unit (`3 n`
/// words); the first clue of a clash is looked up only when there is one.
fn check_clues(
    cells: &[Option<usize>],
    box_size: usize,
    text: &str,
    line: usize,
    lead: usize,
    p: usize,
    at: &Locator,
) -> Result<(), ParseError> {
    let n = box_size * box_size;
    let unit_of = |k: usize| {
        let (r, c) = (k / n, k % n);
        [r, n + c, 2 * n + (r / box_size) * box_size + c / box_size]
    };
    // Per unit (row, n + column, 2n + box): the digits already given in it.
    let mut seen = vec![0u32; 3 * n];
    for (k, cell) in cells.iter().enumerate() {
        let Some(d) = *cell else { continue };
        let units = unit_of(k);
        for (which, &u) in units.iter().enumerate() {
            if seen[u] & (1 << d) != 0 {
                let prev = (0..k)
                    .find(|&j| cells[j] == Some(d) && unit_of(j)[which] == u)
                    .unwrap_or(k);
                return Err(at.error(
                    Some(p),
                    line,
                    lead + k + 1,
                    ParseErrorKind::ClashingClue {
                        symbol: text.chars().nth(k).unwrap_or('?'),
                        unit: ["row", "column", "box"][which],
                        first_row: prev / n,
                        first_col: prev % n,
                    },
                ));
            }
        }
        for u in units {
            seen[u] |= 1 << d;
        }
    }
    Ok(())
}

/// A hex board as an indented hexagon drawing (one cell letter per position, cells separated by
/// a space, rows shifted by half a cell), which [`parse_str`] reads back to the same board.
/// Bare boards are drawn with `.`. Boards with more than 52 regions cannot be written.
pub fn write_hex(board: &HexBoard) -> String {
    let n = board.width();
    let mut out = String::new();
    for r in 0..n {
        let len = board.row_len(r);
        out.push_str(&" ".repeat(n - len));
        let cells: Vec<String> = (0..len)
            .map(|k| {
                board
                    .regions()
                    .map_or('.', |regions| region_letter(regions[r][k]))
                    .to_string()
            })
            .collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    out
}

/// A Queens grid as `n` lines of region letters (`.` when bare), followed by a
/// `# solution: ...` line when the solution is known; [`parse_str`] reads it back.
pub fn write_queens(board: &QueensBoard) -> String {
    let n = board.size();
    let mut out = String::new();
    for r in 0..n {
        for c in 0..n {
            out.push(
                board
                    .regions()
                    .map_or('.', |regions| region_letter(regions[r][c])),
            );
        }
        out.push('\n');
    }
    if let Some(sol) = &board.known_solution {
        let cols: Vec<String> = sol.iter().map(|c| c.to_string()).collect();
        out.push_str(&format!("# solution: {}\n", cols.join(" ")));
    }
    out
}

#[cfg(test)]
mod tests;
