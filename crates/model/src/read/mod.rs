//! Reading 0-1 programs other people wrote: OPB ([`opb`]), DIMACS CNF ([`cnf`]), CPLEX LP
//! ([`lp`]), MPS ([`mps`]) and Knuth's exact-cover format ([`xcc`]). One file per format; all
//! share the located error ([`ReadError`]), the line source ([`Lines`]), the number rules
//! ([`exact_integer`]) and the normalisation of signed rows ([`LinearSink`]).
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

pub mod cnf;
pub mod lp;
pub mod mps;
pub mod opb;
pub mod xcc;

mod budget;
mod sink;

pub use budget::{refused_for_budget, with_memory_budget, BYTES_PER_NONZERO, BYTES_PER_VARIABLE};
pub use sink::{LinearSink, Lit};

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

/// A format of 0-1 programs zeroone reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// The pseudo-Boolean competition format (`.opb`).
    Opb,
    /// DIMACS CNF (`.cnf`).
    Cnf,
    /// CPLEX LP, the 0-1 subset (`.lp`).
    Lp,
    /// Fixed or free MPS, the 0-1 subset (`.mps`).
    Mps,
    /// Knuth's exact-cover input (`.xcc`, `.dlx`).
    Xcc,
}

impl Format {
    /// Every format, in the order help texts list them.
    pub const ALL: [Format; 5] = [
        Format::Opb,
        Format::Cnf,
        Format::Lp,
        Format::Mps,
        Format::Xcc,
    ];

    /// The `--format` name (`opb`, `cnf`, `lp`, `mps`, `xcc`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Opb => "opb",
            Format::Cnf => "cnf",
            Format::Lp => "lp",
            Format::Mps => "mps",
            Format::Xcc => "xcc",
        }
    }

    /// The file extensions, lower case, without the dot.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Format::Opb => &["opb"],
            Format::Cnf => &["cnf"],
            Format::Lp => &["lp"],
            Format::Mps => &["mps"],
            Format::Xcc => &["xcc", "dlx"],
        }
    }

    /// The format whose files end in `extension` (lower case, no dot).
    pub fn by_extension(extension: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.extensions().contains(&extension))
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
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

/// Reads one model in `format` from `lines`, named `name`.
pub fn read<L: Lines>(format: Format, lines: &mut L, name: &str) -> Result<Model, L::Error> {
    match format {
        Format::Opb => opb::read(lines, name),
        Format::Cnf => cnf::read(lines, name),
        Format::Lp => lp::read(lines, name),
        Format::Mps => mps::read(lines, name),
        Format::Xcc => xcc::read(lines, name),
    }
}

/// Reads one model in `format` from `text` (see [`read`]).
///
/// ```
/// use zeroone::read::{read_str, Format};
///
/// // x1 or not x2; at most one of x1, x2, x3 (written with negative coefficients).
/// let m = read_str(Format::Opb, "+1 x1 +1 ~x2 >= 1 ;\n-1 x1 -1 x2 -1 x3 >= -1 ;\n", "t").unwrap();
/// assert_eq!(m.own_variables(), 3); // x1 x2 x3; the complement ~x2 is derived
/// assert_eq!(m.num_variables(), 4);
/// let e = read_str(Format::Opb, "+1 x1 x2 >= 1 ;\n", "t").unwrap_err();
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
