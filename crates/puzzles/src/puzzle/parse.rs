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
//! - JSON / TOML: a generic model; see [`crate::read::generic`].
//!
//! Region letters become region indices in letter order (`A` < `Z` < `a` < `z`), so writing a
//! board back with its kind's writer ([`crate::puzzle::kind::Board::to_text`]) and reading it again
//! gives the same board.
//!
//! Costs: one pass over the text; the Queens solution check builds the board's model once.

mod stream;

pub use stream::{gunzip_if_needed, open, stem_of, InputReader, PuzzleStream, STDIN_NAME};

use std::path::Path;

use crate::model::Model;
use crate::puzzle::kind::Kind;
use crate::puzzle::kinds::{self, KINDS};
use crate::puzzle::Puzzle;

pub(crate) use crate::puzzle::located::{blocks, is_blank, line_col, BlockReader};
pub use crate::puzzle::located::{Block, GridLine, Locator, ParseError, ParseErrorKind};

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
            .chain(crate::read::FORMATS.iter().copied().map(Format::Program))
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

/// The error of a file name that says no format (`found`: its extension, or `no extension`).
pub(crate) fn unknown_format(found: String) -> ParseErrorKind {
    ParseErrorKind::UnknownFormat {
        found,
        known: extensions_text(),
    }
}

/// The error of standard input read without a format.
pub(crate) fn format_needed() -> ParseErrorKind {
    ParseErrorKind::FormatNeeded {
        names: format_names("|"),
    }
}

/// The extensions zeroone reads, in words (`.hex, .queens, .sudoku, .txt, .json or .toml`).
fn extensions_text() -> String {
    let mut all: Vec<String> = KINDS
        .iter()
        .flat_map(|k| k.extensions().iter().map(|e| format!(".{e}")))
        .collect();
    all.extend([".txt".into(), ".json".into(), ".toml".into()]);
    let programs = crate::read::FORMATS.iter().flat_map(|f| f.extensions());
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

#[cfg(test)]
mod tests;
