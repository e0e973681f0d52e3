//! Reading a puzzle file one puzzle at a time: [`PuzzleStream`] holds one line (Sudoku) or one
//! block of lines (hex, Queens) at a time, so memory does not grow with the number of puzzles
//! in the file. A generic model (JSON, TOML) is one document and is read whole.
//!
//! [`open`] opens a path (`-` for standard input), reads gzip transparently (by the gzip magic
//! bytes, whatever the name), and picks the format from the extension or from the caller.
//! Errors are the parsers' own [`ParseError`]s, located by file, puzzle, line and column.
//!
//! Costs: one pass over the bytes; per line one UTF-8 check and one copy into a reused buffer.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use super::{
    format_of_name, is_blank, line_col, sniff_txt, BlockReader, Format, Locator, ParseError,
    ParseErrorKind,
};
use crate::model::Model;
use crate::puzzle::kind::{InputCaps, ReadBlock, ReadLine, Reader};
use crate::puzzle::kinds::KINDS;
use crate::puzzle::Puzzle;

/// The name standard input gets in errors and in model names.
pub const STDIN_NAME: &str = "<stdin>";

/// Lines of the input, decoded one at a time into a reused buffer.
struct Lines<R> {
    reader: R,
    /// Lines read so far (the 1-based number of the line in `text`).
    line: usize,
    bytes: Vec<u8>,
    text: String,
    /// Lines read ahead (to sniff a `.txt` file), given back before reading more.
    pending: VecDeque<(usize, String)>,
    /// The longest line accepted, in bytes, and the format it is the cap of (for the error).
    max_line: usize,
    format_name: &'static str,
}

/// Up to `limit` bytes of `reader`, in a buffer that never grows past `limit` (doubling, then
/// capped): a reader that never ends (`/dev/zero`) costs `limit` bytes, not the next power of
/// two above it.
fn read_capped(reader: &mut impl Read, limit: usize) -> std::io::Result<Vec<u8>> {
    let mut bytes: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 64 * 1024];
    while bytes.len() < limit {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n.min(limit - bytes.len()),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if bytes.len() + n > bytes.capacity() {
            let want = (2 * bytes.capacity()).max(bytes.len() + n).min(limit);
            bytes.reserve_exact(want - bytes.len());
        }
        bytes.extend_from_slice(&chunk[..n]);
    }
    Ok(bytes)
}

/// The largest JSON or TOML model read, in bytes (32 MiB): a model of a 25x25 Sudoku is about
/// 1 MB; a larger input is refused before it is parsed.
pub const MAX_MODEL_BYTES: usize = 32 * 1024 * 1024;

/// The caps of `format`'s kind (the loosest of every kind while a `.txt` is being sniffed).
fn caps_of(format: Option<Format>) -> (InputCaps, &'static str) {
    if let Some(Format::Program(program)) = format {
        let caps = InputCaps {
            line_bytes: crate::read::MAX_LINE_BYTES,
            ..InputCaps::BOARDS
        };
        return (caps, program.name());
    }
    match format.and_then(Format::kind) {
        Some(kind) => (kind.input_caps(), kind.name()),
        None => {
            let line_bytes = KINDS
                .iter()
                .map(|k| k.input_caps().line_bytes)
                .max()
                .unwrap_or(InputCaps::BOARDS.line_bytes);
            let name = format.map_or("txt", Format::name);
            (
                InputCaps {
                    line_bytes,
                    ..InputCaps::BOARDS
                },
                name,
            )
        }
    }
}

/// The error for a piece of input past its cap, at `line` (0: the whole file).
fn too_large(
    file: &str,
    line: usize,
    what: &'static str,
    cap: String,
    format: &'static str,
) -> ParseError {
    ParseError {
        file: file.into(),
        puzzle: None,
        line,
        column: usize::from(line > 0),
        kind: ParseErrorKind::TooLarge { what, cap, format },
    }
}

impl<R: BufRead> Lines<R> {
    /// Reads the next line (without its line break) into `self.text`; returns its number, or
    /// `None` at the end. A read failure or a non-UTF-8 byte is a located error.
    fn next_line(&mut self, file: &str) -> Result<Option<usize>, ParseError> {
        if let Some((line, text)) = self.pending.pop_front() {
            self.text = text;
            return Ok(Some(line));
        }
        self.bytes.clear();
        // At most the cap, its line break and one byte more: a longer line is never held.
        let read = (&mut self.reader)
            .take(self.max_line as u64 + 3)
            .read_until(b'\n', &mut self.bytes)
            .map_err(|e| io_error(file, self.line + 1, &e))?;
        if read == 0 {
            return Ok(None);
        }
        self.line += 1;
        if self.bytes.last() == Some(&b'\n') {
            self.bytes.pop();
            if self.bytes.last() == Some(&b'\r') {
                self.bytes.pop();
            }
        }
        if self.bytes.len() > self.max_line {
            let cap = format!("{} bytes", self.max_line);
            return Err(too_large(file, self.line, "a line", cap, self.format_name));
        }
        let text = std::str::from_utf8(&self.bytes).map_err(|e| {
            let good = std::str::from_utf8(&self.bytes[..e.valid_up_to()]).unwrap_or("");
            not_text(file, self.line, good.chars().count() + 1)
        })?;
        self.text.clear();
        self.text.push_str(text);
        Ok(Some(self.line))
    }

    /// Everything left, as one UTF-8 text (a byte-order mark at its start becomes a space).
    /// At most [`MAX_MODEL_BYTES`]: a larger input is an error, read no further.
    fn rest(&mut self, file: &str) -> Result<String, ParseError> {
        let bytes = read_capped(&mut self.reader, MAX_MODEL_BYTES + 1)
            .map_err(|e| io_error(file, 0, &e))?;
        if bytes.len() > MAX_MODEL_BYTES {
            let cap = format!("{} MiB", MAX_MODEL_BYTES >> 20);
            return Err(too_large(file, 0, "a model", cap, self.format_name));
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            let bytes = e.as_bytes();
            let good = std::str::from_utf8(&bytes[..e.utf8_error().valid_up_to()]).unwrap_or("");
            let (line, column) = line_col(good, good.len());
            not_text(file, line, column)
        })?;
        Ok(match text.strip_prefix('\u{feff}') {
            Some(rest) => format!(" {rest}"),
            None => text,
        })
    }
}

/// The lines of a stream as a 0-1 program reader takes them ([`crate::read::Lines`]): with
/// the stream's caps, UTF-8 check and line numbers; a reader's error gets the file name.
struct ProgramLines<'a, R> {
    lines: &'a mut Lines<R>,
    file: &'a str,
}

impl<R: BufRead> crate::read::Lines for ProgramLines<'_, R> {
    type Error = ParseError;

    fn next_line(&mut self) -> Result<Option<(usize, &str)>, ParseError> {
        match self.lines.next_line(self.file)? {
            Some(number) => Ok(Some((number, self.lines.text.as_str()))),
            None => Ok(None),
        }
    }

    fn error(&self, e: crate::read::ReadError) -> ParseError {
        ParseError {
            file: self.file.into(),
            puzzle: None,
            line: e.line,
            column: e.column,
            kind: ParseErrorKind::Invalid {
                expected: e.expected,
                found: e.found,
            },
        }
    }
}

fn io_error(file: &str, line: usize, e: &std::io::Error) -> ParseError {
    ParseError {
        file: file.into(),
        puzzle: None,
        line,
        column: 0,
        kind: ParseErrorKind::Io(e.to_string()),
    }
}

fn not_text(file: &str, line: usize, column: usize) -> ParseError {
    ParseError {
        file: file.into(),
        puzzle: None,
        line,
        column,
        kind: ParseErrorKind::NotText,
    }
}

/// The puzzles of one input, read one at a time, in file order. Yields each puzzle or the
/// first error, then stops. Memory: one line or one block of lines (a whole document for
/// JSON/TOML), whatever the number of puzzles.
pub struct PuzzleStream<R> {
    lines: Lines<R>,
    file: String,
    stem: String,
    /// `None` for a `.txt` file until its first grid line says Sudoku or Queens.
    format: Option<Format>,
    blocks: BlockReader,
    /// Puzzles yielded so far.
    produced: usize,
    done: bool,
}

impl<R: BufRead> PuzzleStream<R> {
    /// A stream over `reader` in `format` (`None`: a `.txt` file, sniffed as Sudoku or Queens by
    /// its first grid line); `file` names the input in errors, and its stem names the models.
    pub fn new(reader: R, format: Option<Format>, file: &str) -> Self {
        let (caps, format_name) = caps_of(format);
        PuzzleStream {
            lines: Lines {
                reader,
                line: 0,
                bytes: Vec::new(),
                text: String::new(),
                pending: VecDeque::new(),
                max_line: caps.line_bytes,
                format_name,
            },
            file: file.to_string(),
            stem: stem_of(Path::new(file)),
            format,
            blocks: BlockReader::default(),
            produced: 0,
            done: false,
        }
    }

    /// The input's name, as errors give it.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The stem that names the models (`royle_17clue` for `data/royle_17clue.txt.gz`).
    pub fn stem(&self) -> &str {
        &self.stem
    }

    /// The models of the puzzles, each with its 0-based index in the file and named
    /// `"{stem}#{index}"`. A puzzle whose model cannot be built is an error naming it.
    pub fn models(self) -> impl Iterator<Item = Result<(usize, Model), ParseError>> {
        let file = self.file.clone();
        let stem = self.stem.clone();
        self.enumerate().map(move |(i, puzzle)| {
            let model = puzzle?
                .to_model(format!("{stem}#{i}"))
                .map_err(|e| ParseError {
                    file: file.clone(),
                    puzzle: Some(i),
                    line: 0,
                    column: 0,
                    kind: ParseErrorKind::Model(Box::new(e)),
                })?;
            Ok((i, model))
        })
    }

    /// Reads ahead to the first grid line of a `.txt` file and decides its format.
    fn sniff(&mut self) -> Result<Format, ParseError> {
        let mut ahead = VecDeque::new();
        let mut first = String::new();
        while let Some(line) = self.lines.next_line(&self.file)? {
            let text = std::mem::take(&mut self.lines.text);
            let trimmed = text.trim_matches(is_blank);
            let found = !trimmed.is_empty() && !trimmed.starts_with('#');
            if found {
                first = trimmed.to_string();
            }
            ahead.push_back((line, text));
            if found {
                break;
            }
        }
        self.lines.pending = ahead;
        let format = sniff_txt(&first);
        self.format = Some(format);
        let (caps, name) = caps_of(self.format);
        (self.lines.max_line, self.lines.format_name) = (caps.line_bytes, name);
        Ok(format)
    }

    fn next_puzzle(&mut self) -> Result<Option<Puzzle>, ParseError> {
        let format = match self.format {
            Some(format) => format,
            None => self.sniff()?,
        };
        if let Format::Program(program) = format {
            if self.produced > 0 {
                return Ok(None);
            }
            let name = self.stem.clone();
            let mut source = ProgramLines {
                lines: &mut self.lines,
                file: &self.file,
            };
            let model = crate::read::read(program, &mut source, &name)?;
            return Ok(Some(Puzzle::Model(model)));
        }
        let Some(kind) = format.kind() else {
            if self.produced > 0 {
                return Ok(None);
            }
            let text = self.lines.rest(&self.file)?;
            let model = if format == Format::Json {
                crate::read::generic::parse_json(&text)
            } else {
                crate::read::generic::parse_toml(&text)
            };
            let model = model.map_err(|e| ParseError::in_generic_model(&self.file, e))?;
            return Ok(Some(Puzzle::Model(model)));
        };
        let found = match kind.reader() {
            Reader::Lines(read) => self.next_line_puzzle(read)?,
            Reader::Blocks(read) => self.next_block(read, kind.input_caps(), kind.name())?,
        };
        if found.is_none() && self.produced == 0 {
            let at = Locator { file: &self.file };
            return Err(at.error(None, 1, 1, ParseErrorKind::NoPuzzle(kind.noun())));
        }
        Ok(found)
    }

    fn next_line_puzzle(&mut self, read: ReadLine) -> Result<Option<Puzzle>, ParseError> {
        while let Some(line) = self.lines.next_line(&self.file)? {
            let at = Locator { file: &self.file };
            if let Some(p) = read(&self.lines.text, line, self.produced, &at)? {
                return Ok(Some(p));
            }
        }
        Ok(None)
    }

    fn next_block(
        &mut self,
        read: ReadBlock,
        caps: InputCaps,
        format: &'static str,
    ) -> Result<Option<Puzzle>, ParseError> {
        let block = loop {
            match self.lines.next_line(&self.file)? {
                Some(line) => {
                    if let Some(block) = self.blocks.push(line, &self.lines.text) {
                        break block;
                    }
                    let (lines, bytes) = self.blocks.pending();
                    if lines > caps.block_lines {
                        let cap = format!("{} lines", caps.block_lines);
                        return Err(too_large(&self.file, line, "a block", cap, format));
                    }
                    if bytes > caps.block_bytes {
                        let cap = format!("{} bytes", caps.block_bytes);
                        return Err(too_large(&self.file, line, "a block", cap, format));
                    }
                }
                None => match self.blocks.finish() {
                    Some(block) => break block,
                    None => return Ok(None),
                },
            }
        };
        let at = Locator { file: &self.file };
        read(&block, self.produced, &at).map(Some)
    }
}

impl<R: BufRead> Iterator for PuzzleStream<R> {
    type Item = Result<Puzzle, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.next_puzzle() {
            Ok(Some(p)) => {
                self.produced += 1;
                Some(Ok(p))
            }
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// The file stem that names models: the name without its directories, a final `.gz` and the
/// format extension (`stdin` for standard input).
pub fn stem_of(path: &Path) -> String {
    if path.as_os_str() == "-" || path.as_os_str() == STDIN_NAME {
        return "stdin".into();
    }
    let mut name = path
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if let Some(inner) = name
        .strip_suffix(".gz")
        .or_else(|| name.strip_suffix(".GZ"))
    {
        name = inner.to_string();
    }
    Path::new(&name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// An input to read puzzles from: a file or standard input, gzip-compressed or not.
pub type InputReader = Box<dyn BufRead + Send>;

/// Opens `path` (`-`: standard input) as a stream of puzzles. The format is `format` when
/// given, otherwise the extension's (a final `.gz` skipped; `.txt` sniffed). Gzip data is
/// recognised by its magic bytes and decompressed on the fly. Fails, with line 0, when the
/// file cannot be opened or its format is unknown.
pub fn open(path: &Path, format: Option<Format>) -> Result<PuzzleStream<InputReader>, ParseError> {
    let stdin = path.as_os_str() == "-";
    let file = if stdin {
        STDIN_NAME.to_string()
    } else {
        path.display().to_string()
    };
    let whole_file = |kind| ParseError {
        file: file.clone(),
        puzzle: None,
        line: 0,
        column: 0,
        kind,
    };
    let format = match (format, stdin) {
        (Some(f), _) => Some(f),
        (None, true) => return Err(whole_file(super::format_needed())),
        (None, false) => format_of_name(path).ok_or_else(|| {
            let ext = path
                .extension()
                .map(|e| format!(".{}", e.to_string_lossy()))
                .unwrap_or_else(|| "no extension".into());
            whole_file(super::unknown_format(ext))
        })?,
    };
    let raw: Box<dyn Read + Send> = if stdin {
        Box::new(std::io::stdin())
    } else {
        Box::new(
            std::fs::File::open(path).map_err(|e| whole_file(ParseErrorKind::Io(e.to_string())))?,
        )
    };
    let mut buffered = BufReader::with_capacity(1 << 16, raw);
    if !stdin && named_gz(path) {
        let head = buffered
            .fill_buf()
            .map_err(|e| whole_file(ParseErrorKind::Io(e.to_string())))?;
        if !head.starts_with(&GZIP_MAGIC) {
            return Err(whole_file(ParseErrorKind::NotGzip));
        }
    }
    let reader =
        gunzip_if_needed(buffered).map_err(|e| whole_file(ParseErrorKind::Io(e.to_string())))?;
    let mut stream = PuzzleStream::new(reader, format, &file);
    if !stdin {
        stream.stem = stem_of(path);
    }
    Ok(stream)
}

/// The first two bytes of every gzip member.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Whether `path` is named as a gzip file (`.gz`, any case).
fn named_gz(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"))
}

/// `reader` itself, or a gzip decoder over it when its first bytes are the gzip magic number.
/// Concatenated gzip members are read as one stream (as `zcat` does).
pub fn gunzip_if_needed<R: BufRead + Send + 'static>(
    mut reader: R,
) -> std::io::Result<InputReader> {
    let head = reader.fill_buf()?;
    if head.starts_with(&GZIP_MAGIC) {
        let decoder = flate2::bufread::MultiGzDecoder::new(reader);
        Ok(Box::new(BufReader::with_capacity(1 << 16, decoder)))
    } else {
        Ok(Box::new(reader))
    }
}
