//! Reading 0-1 programs other people wrote: OPB ([`opb`]), DIMACS CNF ([`cnf`]), CPLEX LP
//! ([`lp`]), MPS ([`mps`]) and Knuth's exact-cover format ([`xcc`]). One file per format, whose
//! `FORMAT` ([`Format`]) says its name, extensions and reader, and one line in `formats!`
//! below, which lists it in [`FORMATS`]; all share the located error ([`ReadError`]), the line
//! source ([`Lines`], seen by a reader as a [`Source`]), the number rules ([`exact_integer`])
//! and the normalisation of signed rows ([`LinearSink`]). zeroone's own generic model, JSON or
//! TOML, is read whole by [`generic`] (serde), with its own located errors.
//!
//! Every reader turns the file into a [`Model`] with positive-weight rows: a negated literal or
//! a negative coefficient becomes a complement variable (`-w x` is `w ~x - w`; see
//! [`crate::model::Derived`]), which answers, counts and objective values never show. Anything
//! that is not a 0-1 linear model (a general-integer or continuous variable, a bound other than
//! 0 and 1, a fractional or huge coefficient, a product of variables) is a [`ReadError`] at its
//! line and column, naming the variable or row and what is supported.
//!
//! Memory: readers take one line at a time from their source (which caps its length at
//! [`MAX_LINE_BYTES`]) and build the model as they go; a model may hold at most
//! [`MAX_NONZEROS`] nonzeros and [`MAX_VARIABLES`] variables, so any input, however long, reads
//! in bounded memory. Costs: one pass over the text, one hash look-up per variable name.

pub mod generic;

mod budget;
mod sink;

pub use budget::{refused_for_budget, with_memory_budget, BYTES_PER_NONZERO, BYTES_PER_VARIABLE};
pub use sink::{LinearSink, Lit};

use std::cell::Cell;
use std::fmt;

use thiserror::Error;

use crate::model::{Model, MAX_COEFFICIENT};

/// The longest line the readers take (16 MiB): far above any line of a real instance (the
/// longest OPB rows of the PB competitions are a few MB), low enough to bound memory.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// The most nonzeros (row entries, complements' rows included) a model read from a file may
/// have: 2^25, about 33 million, or some 1.5 GB of model. A larger input is refused at the row
/// that passes the cap.
pub const MAX_NONZEROS: usize = 1 << 25;

/// The most variables (complements and auxiliary ones included) a model read from a file may
/// have: 2^24, about 16.7 million.
pub const MAX_VARIABLES: usize = 1 << 24;

/// Declares the built-in formats, one line each: the module of the format's reader, whose
/// `FORMAT` gives its name, its extensions and its `read`.
macro_rules! formats {
    ($($module:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// Every format zeroone reads, in the order help texts list them. A format defined
        /// elsewhere (a [`Format::new`] value) reads through [`read`] like these; joining it to
        /// the list is one line: `[FORMATS, &[MINE]].concat()`.
        pub const FORMATS: &[Format] = &[$($module::FORMAT),*];
    };
}

formats! {
    opb,
    cnf,
    lp,
    mps,
    xcc,
}

/// What a format's reader returns when it stops on an error. The error itself (the source's
/// own, or the reader's [`ReadError`] given to [`Lines::error`]) waits in the source [`read`]
/// handed the reader, and [`read`] returns it to the caller; so one reader serves every kind of
/// source. Only this module makes one.
#[derive(Debug)]
pub struct Stopped {
    _private: (),
}

/// The source a format's reader reads from: any [`Lines`], its error type set aside
/// ([`Stopped`]). Each line costs one dynamic call.
pub type Source<'a> = dyn Lines<Error = Stopped> + 'a;

/// A format's reader: its lines and the model's name in, the model (or [`Stopped`]) out.
pub type Reader = fn(&mut Source<'_>, &str) -> Result<Model, Stopped>;

/// A format of 0-1 programs zeroone reads: its `--format` name, its file extensions and its
/// reader. A plain value (copying one costs nothing), so a format defined outside this module
/// reads through [`read`] exactly as the built-in ones ([`FORMATS`]) do. Two formats are equal
/// when their names are.
#[derive(Clone, Copy)]
pub struct Format {
    name: &'static str,
    extensions: &'static [&'static str],
    reader: Reader,
}

impl Format {
    /// The format named `name` (its `--format` name, lower case), read from files ending in
    /// `extensions` (lower case, without the dot) by `reader`.
    pub const fn new(
        name: &'static str,
        extensions: &'static [&'static str],
        reader: Reader,
    ) -> Format {
        Format {
            name,
            extensions,
            reader,
        }
    }

    /// The `--format` name (`opb`, `cnf`, `lp`, `mps`, `xcc`).
    pub fn name(self) -> &'static str {
        self.name
    }

    /// The file extensions, lower case, without the dot.
    pub fn extensions(self) -> &'static [&'static str] {
        self.extensions
    }

    /// The built-in format whose files end in `extension` (lower case, no dot).
    pub fn by_extension(extension: &str) -> Option<Format> {
        Format::by_extension_in(FORMATS, extension)
    }

    /// The format of `formats` whose files end in `extension` (lower case, no dot): the first
    /// that claims it.
    pub fn by_extension_in(formats: &[Format], extension: &str) -> Option<Format> {
        formats
            .iter()
            .copied()
            .find(|f| f.extensions.contains(&extension))
    }
}

impl PartialEq for Format {
    fn eq(&self, other: &Format) -> bool {
        self.name == other.name
    }
}

impl Eq for Format {}

impl std::hash::Hash for Format {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name.hash(state);
    }
}

impl fmt::Debug for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Format({})", self.name)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// A malformed or unsupported 0-1 program: where (1-based line and column; column 0 when none
/// applies) and what was expected instead of what was found. The caller adds the file name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{line}:{column}: expected {expected}, found {found}")]
pub struct ReadError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column in characters (0: the whole line).
    pub column: usize,
    /// What the format (or zeroone's 0-1 subset of it) needs here.
    pub expected: String,
    /// What the file holds.
    pub found: String,
}

impl ReadError {
    /// An error at `line`, `column`.
    pub fn at(
        line: usize,
        column: usize,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> ReadError {
        ReadError {
            line,
            column,
            expected: expected.into(),
            found: found.into(),
        }
    }
}

/// Where a reader gets its lines: one at a time, numbered from 1, without line breaks. The
/// source's own failures (unreadable input, bad UTF-8, a line past its cap) are its `Error`;
/// [`Lines::error`] turns a reader's [`ReadError`] into one (adding the file name).
pub trait Lines {
    /// The source's error.
    type Error;
    /// The next line and its 1-based number, or `None` at the end.
    fn next_line(&mut self) -> Result<Option<(usize, &str)>, Self::Error>;
    /// A reader's error as the source's.
    fn error(&self, e: ReadError) -> Self::Error;
}

/// The lines of a text held in memory (tests, small inputs). Errors stay [`ReadError`]s.
pub struct TextLines<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
}

impl<'a> TextLines<'a> {
    /// The lines of `text`.
    pub fn new(text: &'a str) -> Self {
        TextLines {
            lines: text.lines().enumerate(),
        }
    }
}

impl Lines for TextLines<'_> {
    type Error = ReadError;
    fn next_line(&mut self) -> Result<Option<(usize, &str)>, ReadError> {
        Ok(self.lines.next().map(|(i, l)| (i + 1, l)))
    }
    fn error(&self, e: ReadError) -> ReadError {
        e
    }
}

/// Reads one model in `format` from `lines`, named `name`: the format's reader, given `lines`
/// with their error type set aside; its error, if any, comes back as `lines`' own.
pub fn read<L: Lines + ?Sized>(
    format: Format,
    lines: &mut L,
    name: &str,
) -> Result<Model, L::Error> {
    let mut source = Erased {
        inner: lines,
        failure: Cell::new(None),
    };
    match (format.reader)(&mut source, name) {
        Ok(model) => Ok(model),
        Err(Stopped { .. }) => Err(match source.failure.take() {
            Some(failure) => failure,
            None => source.inner.error(ReadError::at(
                0,
                0,
                "a reader that says why it stopped",
                format!("the {} reader stopped without an error", format.name),
            )),
        }),
    }
}

/// `inner` with its error type set aside: its failures (and the reader's errors, turned into
/// its own by [`Lines::error`]) wait in `failure` for [`read`].
struct Erased<'a, L: Lines + ?Sized> {
    inner: &'a mut L,
    failure: Cell<Option<L::Error>>,
}

impl<L: Lines + ?Sized> Lines for Erased<'_, L> {
    type Error = Stopped;
    fn next_line(&mut self) -> Result<Option<(usize, &str)>, Stopped> {
        match self.inner.next_line() {
            Ok(line) => Ok(line),
            Err(failure) => {
                self.failure.set(Some(failure));
                Err(Stopped { _private: () })
            }
        }
    }
    fn error(&self, e: ReadError) -> Stopped {
        self.failure.set(Some(self.inner.error(e)));
        Stopped { _private: () }
    }
}

/// Reads one model in `format` from `text` (see [`read`]).
///
/// ```
/// use zeroone::read::{opb, read_str};
///
/// // x1 or not x2; at most one of x1, x2, x3 (written with negative coefficients).
/// let m = read_str(opb::FORMAT, "+1 x1 +1 ~x2 >= 1 ;\n-1 x1 -1 x2 -1 x3 >= -1 ;\n", "t").unwrap();
/// assert_eq!(m.own_variables(), 3); // x1 x2 x3; the complement ~x2 is derived
/// assert_eq!(m.num_variables(), 4);
/// let e = read_str(opb::FORMAT, "+1 x1 x2 >= 1 ;\n", "t").unwrap_err();
/// assert_eq!((e.line, e.column), (1, 7));
/// ```
pub fn read_str(format: Format, text: &str, name: &str) -> Result<Model, ReadError> {
    read(format, &mut TextLines::new(text), name)
}

/// Why a number is not a coefficient zeroone takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberError {
    /// Not a number at all.
    NotANumber,
    /// A number with a nonzero fractional part (`2.5`, `1e-1`).
    Fractional,
    /// An integer above 2^53 in absolute value.
    TooLarge,
}

impl NumberError {
    /// The error at `line`, `column` for the text `found`, saying `what` the number is.
    pub fn at(self, line: usize, column: usize, what: &str, found: &str) -> ReadError {
        let expected = match self {
            NumberError::NotANumber => format!("{what}: a number"),
            NumberError::Fractional => {
                format!("{what}: an integer (0-1 programs with integer coefficients only)")
            }
            NumberError::TooLarge => {
                format!("{what}: an integer of at most 2^53 = {MAX_COEFFICIENT} in absolute value")
            }
        };
        ReadError::at(line, column, expected, format!("'{found}'"))
    }
}

/// The exact integer `text` writes: `12`, `+3`, `-4`, and the float spellings of integers
/// (`3.0`, `1e3`, `2.50e1`) that LP and MPS writers use. Refuses a fractional value and one
/// above 2^53 in absolute value, exactly (no floating point). Costs one pass over the text.
pub fn exact_integer(text: &str) -> Result<i128, NumberError> {
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (whole, fraction) = match mantissa.find('.') {
        Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
        None => (mantissa, ""),
    };
    let digits_ok = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && fraction.is_empty()) || !digits_ok(whole) || !digits_ok(fraction) {
        return Err(NumberError::NotANumber);
    }
    let exponent: i64 = match exponent {
        None => 0,
        Some(e) => {
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || !digits_ok(digits) {
                return Err(NumberError::NotANumber);
            }
            // Exponents beyond 40 make a nonzero value either huge or fractional below.
            let clipped = if digits.len() > 4 {
                9999
            } else {
                digits.parse().unwrap_or(0)
            };
            if e.starts_with('-') {
                -clipped
            } else {
                clipped
            }
        }
    };
    // The value is digits * 10^(exponent - fraction.len()), digits without leading zeros.
    let all: String = format!("{whole}{fraction}");
    let all = all.trim_start_matches('0');
    if all.is_empty() {
        return Ok(0);
    }
    let shift = exponent - fraction.len() as i64;
    let trailing = all.len() - all.trim_end_matches('0').len();
    if shift < 0 && trailing < shift.unsigned_abs() as usize {
        return Err(NumberError::Fractional);
    }
    let kept = if shift < 0 {
        &all[..all.len() - shift.unsigned_abs() as usize]
    } else {
        all
    };
    let zeros = shift.max(0) as usize;
    if kept.len() + zeros > 17 {
        return Err(NumberError::TooLarge);
    }
    let mut value: i128 = kept.parse().map_err(|_| NumberError::NotANumber)?;
    for _ in 0..zeros {
        value *= 10;
    }
    if value > i128::from(MAX_COEFFICIENT) {
        return Err(NumberError::TooLarge);
    }
    Ok(if negative { -value } else { value })
}

/// The whitespace-separated words of `line`, each with its 1-based column in characters.
pub fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    let mut column = 0;
    for (i, c) in line.char_indices() {
        column += 1;
        let blank = c.is_whitespace() || c == '\u{feff}';
        match (blank, start) {
            (true, Some((s, col))) => {
                out.push((col, &line[s..i]));
                start = None;
            }
            (false, None) => start = Some((i, column)),
            _ => {}
        }
    }
    if let Some((s, col)) = start {
        out.push((col, &line[s..]));
    }
    out
}

/// `text` for an error message: quoted, cut to 40 characters.
pub(crate) fn quoted(text: &str) -> String {
    let mut cut: String = text.chars().take(40).collect();
    if cut.len() < text.len() {
        cut.push_str("...");
    }
    format!("'{cut}'")
}

#[cfg(test)]
mod malformed;
#[cfg(test)]
pub(crate) mod tests;
