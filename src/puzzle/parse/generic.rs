//! Generic models in JSON or TOML: any exact-cover style problem without writing Rust.
//!
//! Shape (JSON shown; TOML is the same with `[[families]]` tables):
//!
//! ```json
//! {
//!   "name": "optional name",
//!   "variables": ["a", "b", {"label": "c", "row": 0, "col": 2}],
//!   "families": [
//!     {"name": "first", "sense": "exactly-one", "rows": [["a", "b", "c"]]},
//!     {"name": "apart", "sense": "at-most-one", "rows": [["a", "c"]]}
//!   ],
//!   "givens": ["b"]
//! }
//! ```
//!
//! A variable is a label or a table with `label` and optional coordinates `row`, `col` (and
//! `value`, for a cell holding a value). `sense` is `exactly-one` or `at-most-one`. `givens`
//! (optional) lists variables fixed to 1. Unknown keys are refused.
//!
//! Errors are located: syntax and shape errors where the parser stopped; a row or given naming
//! an undeclared variable, a repeated label, an empty row or clashing givens at the offending
//! element. To locate those, the file is read a second time (only when it is wrong) with the
//! offending element marked, and the JSON/TOML reader reports where it met it.
//!
//! Costs: one pass to read, one to check; a second read only for a bad file.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;

use super::{line_col, ParseError, ParseErrorKind};
use crate::model::{Coord, Model, ModelBuilder, ModelError, PuzzleKind, Sense};

/// Reading state shared by every [`Located`] value during one read: a running element number,
/// and (second read only) the element to stop at with an error message.
#[derive(Default)]
struct ReadState {
    next: usize,
    stop_at: Option<(usize, String)>,
}

thread_local! {
    static READ: RefCell<ReadState> = RefCell::new(ReadState::default());
}

/// A value with its element number in document order (assigned as it is read).
#[derive(Debug, Clone)]
struct Located<T> {
    value: T,
    seq: usize,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Located<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = T::deserialize(d)?;
        READ.with(|r| {
            let mut r = r.borrow_mut();
            let seq = r.next;
            r.next += 1;
            match &r.stop_at {
                Some((at, message)) if *at == seq => Err(de::Error::custom(message.clone())),
                _ => Ok(Located { value, seq }),
            }
        })
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ModelFile {
    #[serde(default)]
    name: Option<String>,
    variables: Vec<VariableSpec>,
    families: Vec<FamilySpec>,
    #[serde(default)]
    givens: Vec<Located<String>>,
}

#[derive(Debug)]
struct VariableSpec {
    label: Located<String>,
    coord: Coord,
}

impl<'de> Deserialize<'de> for VariableSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(VariableVisitor(PhantomData))
    }
}

struct VariableVisitor<'de>(PhantomData<&'de ()>);

impl<'de> Visitor<'de> for VariableVisitor<'de> {
    type Value = VariableSpec;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a variable: a label, or a table with \"label\" and optional \"row\", \"col\", \"value\"")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<VariableSpec, E> {
        let label = Located::deserialize(de::value::StrDeserializer::<E>::new(v))?;
        Ok(VariableSpec {
            label,
            coord: Coord::Free,
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<VariableSpec, A::Error> {
        let mut label: Option<Located<String>> = None;
        let (mut row, mut col, mut value) = (None, None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "label" => label = Some(map.next_value()?),
                "row" => row = Some(map.next_value::<usize>()?),
                "col" => col = Some(map.next_value::<usize>()?),
                "value" => value = Some(map.next_value::<usize>()?),
                other => {
                    return Err(de::Error::unknown_field(
                        other,
                        &["label", "row", "col", "value"],
                    ))
                }
            }
        }
        let label = label.ok_or_else(|| de::Error::missing_field("label"))?;
        let coord = match (row, col, value) {
            (Some(row), Some(col), None) => Coord::Cell { row, col },
            (Some(row), Some(col), Some(value)) => Coord::CellValue { row, col, value },
            (None, None, None) => Coord::Free,
            _ => return Err(de::Error::custom(
                "expected both \"row\" and \"col\" (and optionally \"value\"), or no coordinates",
            )),
        };
        Ok(VariableSpec { label, coord })
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FamilySpec {
    name: Located<String>,
    sense: Sense,
    rows: Vec<Located<Vec<Located<String>>>>,
}

/// The first problem of a well-formed file.
struct Problem {
    /// Element number (in reading order) of the offending element; `usize::MAX` for none.
    seq: usize,
    /// The error.
    kind: ParseErrorKind,
    /// Text to look for inside the span a TOML error reports (which is the enclosing array),
    /// and which occurrence of it is meant (1-based).
    needle: Option<(String, usize)>,
}

fn problem(seq: usize, kind: ParseErrorKind, needle: Option<(String, usize)>) -> Problem {
    Problem { seq, kind, needle }
}

fn quoted(label: &str, occurrence: usize) -> Option<(String, usize)> {
    Some((format!("\"{label}\""), occurrence))
}

/// A label or family name with a control character (a newline, a tab, ...), which would break
/// the line-based formats zeroone writes (LP, MPS, OPB and CNF comment headers, tables).
fn control_char(what: &'static str, seq: usize, text: &str) -> Option<Problem> {
    text.chars().any(char::is_control).then(|| {
        problem(
            seq,
            ParseErrorKind::ControlChar {
                what,
                found: text.to_string(),
            },
            None,
        )
    })
}

/// Builds the model, or finds the first problem (in the order: variables, families, givens).
/// Costs one pass over the file's elements (one hash per label and per row entry): linear in
/// the size of the file.
fn build(file: ModelFile) -> Result<Model, Problem> {
    let mut b = ModelBuilder::new(file.name.clone().unwrap_or_default(), PuzzleKind::Generic);
    let mut ids: HashMap<&str, usize> = HashMap::with_capacity(file.variables.len());
    if file.variables.is_empty() {
        return Err(problem(
            usize::MAX,
            ParseErrorKind::NoPuzzle("variable"),
            None,
        ));
    }
    for v in &file.variables {
        if let Some(p) = control_char("variable label", v.label.seq, &v.label.value) {
            return Err(p);
        }
        if ids.contains_key(v.label.value.as_str()) {
            return Err(problem(
                v.label.seq,
                model_error(ModelError::DuplicateLabel(v.label.value.clone())),
                quoted(&v.label.value, 2),
            ));
        }
        let id = b.variable(v.label.value.clone(), v.coord);
        ids.insert(&v.label.value, id);
    }
    let lookup = |l: &Located<String>| {
        ids.get(l.value.as_str()).copied().ok_or_else(|| {
            problem(
                l.seq,
                ParseErrorKind::UnknownVariable(l.value.clone()),
                quoted(&l.value, 1),
            )
        })
    };
    let mut family_names: HashSet<&str> = HashSet::new();
    // For each variable, the rows (numbered across families) it lies in; for each row, its
    // family and index. Used to find clashing givens.
    let mut rows_of: Vec<Vec<usize>> = vec![Vec::new(); ids.len()];
    let mut row_at: Vec<(usize, usize)> = Vec::new();
    // The last row each variable was seen in, to spot a variable listed twice in one row.
    let mut last_row: Vec<usize> = vec![usize::MAX; ids.len()];
    for (fi, fam) in file.families.iter().enumerate() {
        if let Some(p) = control_char("family name", fam.name.seq, &fam.name.value) {
            return Err(p);
        }
        if !family_names.insert(&fam.name.value) {
            return Err(problem(
                fam.name.seq,
                model_error(ModelError::DuplicateFamily(fam.name.value.clone())),
                None,
            ));
        }
        let f = b.family(fam.name.value.clone());
        for (index, row) in fam.rows.iter().enumerate() {
            if row.value.is_empty() {
                return Err(problem(
                    row.seq,
                    model_error(ModelError::EmptyRow {
                        family: fam.name.value.clone(),
                        index,
                    }),
                    Some(("[]".into(), 1)),
                ));
            }
            let global = row_at.len();
            row_at.push((fi, index));
            let mut vars = Vec::with_capacity(row.value.len());
            for l in &row.value {
                let v = lookup(l)?;
                if last_row[v] == global {
                    return Err(problem(
                        l.seq,
                        model_error(ModelError::DuplicateInRow {
                            family: fam.name.value.clone(),
                            index,
                            label: l.value.clone(),
                        }),
                        quoted(&l.value, 2),
                    ));
                }
                last_row[v] = global;
                vars.push(v);
                rows_of[v].push(global);
            }
            b.row(f, vars, fam.sense);
        }
    }
    givens(&file, &lookup, &rows_of, &row_at, &mut b)?;
    // Every check the builder makes was made above with a position; keep its answer anyway.
    b.build()
        .map_err(|e| problem(usize::MAX, model_error(e), None))
}

/// Adds the givens to `b`, refusing two givens in one row: the error names the earliest given
/// the new one clashes with, and their first shared row. Linear in the givens' rows.
fn givens(
    file: &ModelFile,
    lookup: &dyn Fn(&Located<String>) -> Result<usize, Problem>,
    rows_of: &[Vec<usize>],
    row_at: &[(usize, usize)],
    b: &mut ModelBuilder,
) -> Result<(), Problem> {
    // For each row, the position (in `given_vars`) of the given it holds.
    let mut owner: Vec<Option<usize>> = vec![None; row_at.len()];
    let mut is_given = vec![false; rows_of.len()];
    let mut given_vars: Vec<usize> = Vec::new();
    for g in &file.givens {
        let v = lookup(g)?;
        if is_given[v] {
            continue; // listed twice: still one given
        }
        let clash = rows_of[v]
            .iter()
            .filter_map(|&r| owner[r].map(|o| (o, r)))
            .min_by_key(|&(o, _)| o);
        if let Some((o, r)) = clash {
            let (fi, index) = row_at[r];
            return Err(problem(
                g.seq,
                model_error(ModelError::ClashingGivens {
                    first: file.variables[given_vars[o]].label.value.clone(),
                    second: g.value.clone(),
                    family: file.families[fi].name.value.clone(),
                    index,
                }),
                quoted(&g.value, 1),
            ));
        }
        for &r in &rows_of[v] {
            owner[r] = Some(given_vars.len());
        }
        is_given[v] = true;
        given_vars.push(v);
        b.given(v);
    }
    Ok(())
}

/// Runs `read` with a fresh element counter, stopping with `stop_at` when given.
fn with_state<T>(stop_at: Option<(usize, String)>, read: impl FnOnce() -> T) -> T {
    READ.with(|r| {
        *r.borrow_mut() = ReadState { next: 0, stop_at };
    });
    let out = read();
    READ.with(|r| *r.borrow_mut() = ReadState::default());
    out
}

fn error(file: &str, line: usize, column: usize, kind: ParseErrorKind) -> ParseError {
    ParseError {
        file: file.into(),
        puzzle: Some(0),
        line,
        column,
        kind,
    }
}

/// Column of the start of the JSON token that ends at or just before `column` (1-based) on
/// `line`: serde_json reports custom errors at (or just after) the end of the element it read.
fn json_token_start(text: &str, line: usize, column: usize) -> usize {
    let Some(src) = text.lines().nth(line.saturating_sub(1)) else {
        return column.max(1);
    };
    let chars: Vec<char> = src.chars().collect();
    // 0-based index of the element's last character: the one before the column, or the one at it.
    let last = [column.saturating_sub(2), column.saturating_sub(1)]
        .into_iter()
        .find(|&i| i < chars.len() && matches!(chars[i], '"' | ']' | '}'));
    let Some(last) = last else {
        return column.max(1);
    };
    if chars[last] == '"' {
        // The opening quote: the previous quote not escaped by a backslash.
        let mut i = last;
        while i > 0 {
            i -= 1;
            if chars[i] == '"' && (i == 0 || chars[i - 1] != '\\') {
                return i + 1;
            }
        }
        return last + 1;
    }
    let (close, open) = if chars[last] == ']' {
        (']', '[')
    } else {
        ('}', '{')
    };
    let mut depth = 0usize;
    let mut i = last + 1;
    while i > 0 {
        i -= 1;
        if chars[i] == close {
            depth += 1;
        } else if chars[i] == open {
            depth -= 1;
            if depth == 0 {
                return i + 1;
            }
        }
    }
    last + 1
}

/// Strips serde_json's " at line L column C" suffix from a message.
fn json_message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// Reads a generic model from JSON. `file` names it in errors.
pub fn parse_json(text: &str, file: &str) -> Result<Model, ParseError> {
    let parsed = with_state(None, || serde_json::from_str::<ModelFile>(text));
    let model_file = parsed.map_err(|e| {
        let kind = if e.is_eof() && text.trim().is_empty() {
            ParseErrorKind::NoPuzzle("model")
        } else {
            ParseErrorKind::Syntax(json_message(&e))
        };
        error(file, e.line().max(1), e.column().max(1), kind)
    })?;
    build(model_file).map_err(|p| {
        let located = with_state(Some((p.seq, p.kind.to_string())), || {
            serde_json::from_str::<ModelFile>(text)
        });
        match located {
            Err(e) if p.seq != usize::MAX => error(
                file,
                e.line(),
                json_token_start(text, e.line(), e.column()),
                p.kind,
            ),
            _ => error(file, 1, 1, p.kind),
        }
    })
}

/// Reads a generic model from TOML. `file` names it in errors.
pub fn parse_toml(text: &str, file: &str) -> Result<Model, ParseError> {
    let at = |e: &toml::de::Error| {
        let (line, column) = e.span().map_or((1, 1), |s| line_col(text, s.start));
        (line, column)
    };
    let parsed = with_state(None, || toml::from_str::<ModelFile>(text));
    let model_file = parsed.map_err(|e| {
        let (line, column) = at(&e);
        let kind = if text.trim().is_empty() {
            ParseErrorKind::NoPuzzle("model")
        } else {
            ParseErrorKind::Syntax(e.message().trim().to_string())
        };
        error(file, line, column, kind)
    })?;
    build(model_file).map_err(|p| {
        let located = with_state(Some((p.seq, p.kind.to_string())), || {
            toml::from_str::<ModelFile>(text)
        });
        match located {
            Err(e) if p.seq != usize::MAX => {
                // toml reports the span of the enclosing value; look for the element inside it.
                let offset = e.span().map_or(0, |span| {
                    let inside = text.get(span.clone()).unwrap_or("");
                    p.needle
                        .as_ref()
                        .and_then(|(needle, nth)| {
                            let single = needle.replace('"', "'");
                            let found = [needle.as_str(), single.as_str()]
                                .into_iter()
                                .find_map(|n| inside.match_indices(n).nth(nth - 1).map(|(i, _)| i));
                            found
                        })
                        .map_or(span.start, |i| span.start + i)
                });
                let (line, column) = line_col(text, offset);
                error(file, line, column, p.kind)
            }
            _ => error(file, 1, 1, p.kind),
        }
    })
}

fn model_error(e: ModelError) -> ParseErrorKind {
    ParseErrorKind::Model(Box::new(e))
}
