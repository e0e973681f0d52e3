//! MPS, fixed or free, the 0-1 subset (fields are split at whitespace, so names hold no
//! spaces, as in every free-MPS file and nearly every fixed one):
//!
//! ```text
//! NAME          knap
//! OBJSENSE
//!     MAX
//! ROWS
//!  N  obj
//!  L  budget_0
//! COLUMNS
//!     MARKER                 'MARKER'                 'INTORG'
//!     x         obj       3   budget_0  2
//!     y         obj       2   budget_0  3
//!     MARKER                 'MARKER'                 'INTEND'
//! RHS
//!     rhs       budget_0  4
//! BOUNDS
//!  UP bnd       x         1
//!  UP bnd       y         1
//! ENDATA
//! ```
//!
//! `*` lines are comments. Rows are `N` (the first is the objective, kept when some column
//! has an entry in it, even 0; further free rows are ignored), `E`, `L`, `G`; `OBJSENSE MAX` (on one line or two) maximises. A column is binary
//! when bounded `BV`, or integer (between `MARKER` `INTORG` and `INTEND`) with `UP 1` (or `UI
//! 1`); `LO 0` / `LI 0` may be given. Anything else (a continuous or general-integer column,
//! another bound, a nonzero `RANGES` entry, a constant on the objective row, a fractional or
//! huge coefficient) is a located error naming the column or row. A row named `NAME_K` (K a
//! number) goes to the family `NAME`, others to `row`; the model keeps each row's name, as the
//! LP reader does.
//!
//! Costs: the rows are gathered column by column and written at `ENDATA` (the model's own
//! size); one hash look-up per name.

use std::collections::HashMap;

use super::{exact_integer, quoted, Format, LinearSink, Lit, ReadError, Source, Stopped};
use crate::model::{Model, ObjectiveSense, Relation};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Start,
    Name,
    ObjSense,
    Rows,
    Columns,
    Rhs,
    Ranges,
    Bounds,
    End,
}

/// One row of the ROWS section.
struct RowInfo {
    name: String,
    /// `None` for a free (`N`) row.
    relation: Option<Relation>,
    terms: Vec<(Lit, i128)>,
    rhs: i128,
    at: (usize, usize),
}

#[derive(Clone, Copy)]
struct ColumnInfo {
    at: (usize, usize),
    integer: bool,
    binary: bool,
    upper_one: bool,
}

struct Reader {
    sink: LinearSink,
    section: Section,
    sense: ObjectiveSense,
    rows: Vec<RowInfo>,
    row_ids: HashMap<String, usize>,
    /// Index of the objective row in `rows`.
    objective: Option<usize>,
    objective_terms: Vec<(Lit, i128)>,
    columns: Vec<ColumnInfo>,
    integer_block: bool,
    nonzeros: usize,
}

/// Fixed or free MPS, the 0-1 subset (`.mps`).
pub const FORMAT: Format = Format::new("mps", &["mps"], read);

/// Reads an MPS file (see the module docs) as a model named `name`.
pub fn read(lines: &mut Source<'_>, name: &str) -> Result<Model, Stopped> {
    let mut r = Reader {
        sink: LinearSink::new(name),
        section: Section::Start,
        sense: ObjectiveSense::Minimize,
        rows: Vec::new(),
        row_ids: HashMap::new(),
        objective: None,
        objective_terms: Vec::new(),
        columns: Vec::new(),
        integer_block: false,
        nonzeros: 0,
    };
    let mut last = 0;
    while let Some((number, line)) = lines.next_line()? {
        last = number;
        r.line(line, number).map_err(|e| lines.error(e))?;
    }
    r.finish(last).map_err(|e| lines.error(e))
}

impl Reader {
    fn line(&mut self, line: &str, number: usize) -> Result<(), ReadError> {
        if line.starts_with('*') || line.trim().is_empty() {
            return Ok(());
        }
        let words = super::words(line);
        let indented = line.starts_with([' ', '\t']);
        if !indented {
            return self.header(&words, number);
        }
        match self.section {
            Section::ObjSense => self.objsense(&words, number),
            Section::Rows => self.row(&words, number),
            Section::Columns => self.column(&words, number),
            Section::Rhs => self.rhs(&words, number),
            Section::Ranges => {
                let (c, w) = words[0];
                Err(ReadError::at(
                    number,
                    c,
                    "no RANGES entries (ranged rows are not supported; write two rows)",
                    quoted(w),
                ))
            }
            Section::Bounds => self.bound(&words, number),
            Section::Start | Section::Name | Section::End => {
                let (c, w) = words[0];
                Err(ReadError::at(number, c, "a section header (NAME, ROWS, COLUMNS, RHS, BOUNDS, ENDATA) at the start of the line", quoted(w)))
            }
        }
    }

    fn header(&mut self, words: &[(usize, &str)], number: usize) -> Result<(), ReadError> {
        let (column, word) = words[0];
        if self.section == Section::End {
            return Err(ReadError::at(
                number,
                column,
                "nothing after ENDATA",
                quoted(word),
            ));
        }
        self.section = match word.to_ascii_uppercase().as_str() {
            "NAME" => Section::Name,
            "OBJSENSE" => {
                if words.len() > 1 {
                    self.objsense(&words[1..], number)?;
                    Section::Start
                } else {
                    Section::ObjSense
                }
            }
            "ROWS" => Section::Rows,
            "COLUMNS" => Section::Columns,
            "RHS" => Section::Rhs,
            "RANGES" => Section::Ranges,
            "BOUNDS" => Section::Bounds,
            "ENDATA" => Section::End,
            other => {
                let expected = "an MPS section: NAME, OBJSENSE, ROWS, COLUMNS, RHS, RANGES, BOUNDS or ENDATA (QUADOBJ, QMATRIX, SOS and other sections are not supported)";
                return Err(ReadError::at(number, column, expected, quoted(other)));
            }
        };
        Ok(())
    }

    fn objsense(&mut self, words: &[(usize, &str)], number: usize) -> Result<(), ReadError> {
        let (column, word) = words[0];
        self.sense = match word.to_ascii_uppercase().as_str() {
            "MAX" | "MAXIMIZE" | "MAXIMISE" => ObjectiveSense::Maximize,
            "MIN" | "MINIMIZE" | "MINIMISE" => ObjectiveSense::Minimize,
            _ => return Err(ReadError::at(number, column, "MAX or MIN", quoted(word))),
        };
        Ok(())
    }

    fn row(&mut self, words: &[(usize, &str)], number: usize) -> Result<(), ReadError> {
        let [(column, kind), (name_col, name)] = words[..] else {
            let (c, w) = words[0];
            return Err(ReadError::at(
                number,
                c,
                "a row: N, E, L or G and its name",
                quoted(w),
            ));
        };
        let relation = match kind.to_ascii_uppercase().as_str() {
            "N" => None,
            "E" => Some(Relation::Equal),
            "L" => Some(Relation::AtMost),
            "G" => Some(Relation::AtLeast),
            _ => {
                return Err(ReadError::at(
                    number,
                    column,
                    "a row type N, E, L or G",
                    quoted(kind),
                ))
            }
        };
        if name.chars().any(char::is_control) {
            // The model keeps row names, and prints them in messages and exports.
            return Err(ReadError::at(
                number,
                name_col,
                "a row name without control characters",
                format!("{name:?}"),
            ));
        }
        if self.row_ids.contains_key(name) {
            return Err(ReadError::at(
                number,
                name_col,
                "rows named once each",
                format!("{} again", quoted(name)),
            ));
        }
        if relation.is_none() && self.objective.is_none() {
            self.objective = Some(self.rows.len());
        }
        self.row_ids.insert(name.to_string(), self.rows.len());
        self.rows.push(RowInfo {
            name: name.to_string(),
            relation,
            terms: Vec::new(),
            rhs: 0,
            at: (number, name_col),
        });
        Ok(())
    }

    fn column(&mut self, words: &[(usize, &str)], number: usize) -> Result<(), ReadError> {
        if words.len() >= 3 && words[1].1.trim_matches('\'') == "MARKER" {
            let marker = words[2].1.trim_matches('\'');
            self.integer_block = match marker {
                "INTORG" => true,
                "INTEND" => false,
                _ => {
                    return Err(ReadError::at(
                        number,
                        words[2].0,
                        "the marker 'INTORG' or 'INTEND'",
                        quoted(words[2].1),
                    ))
                }
            };
            return Ok(());
        }
        let (column, name) = words[0];
        if words.len() != 3 && words.len() != 5 {
            return Err(ReadError::at(
                number,
                column,
                "a column entry: COLUMN ROW VALUE [ROW VALUE]",
                format!("{} fields", words.len()),
            ));
        }
        let known = self.sink.lookup(name);
        let v = self.sink.var(name, (number, column))?;
        if known.is_none() {
            self.columns.push(ColumnInfo {
                at: (number, column),
                integer: self.integer_block,
                binary: false,
                upper_one: false,
            });
        }
        for pair in words[1..].chunks(2) {
            let [(row_col, row), (value_col, value)] = pair[..] else {
                continue;
            };
            let what = format!("the coefficient of column '{name}' in row '{row}'");
            let (r, value) = self.row_value(number, (row_col, row), (value_col, value), &what)?;
            self.nonzeros += 1;
            if self.nonzeros > super::MAX_NONZEROS {
                let expected = format!("a model of at most {} nonzeros", super::MAX_NONZEROS);
                return Err(ReadError::at(number, row_col, expected, "a larger one"));
            }
            if Some(r) == self.objective {
                self.objective_terms.push((Lit::pos(v), value));
            } else if self.rows[r].relation.is_some() {
                self.rows[r].terms.push((Lit::pos(v), value));
            }
        }
        Ok(())
    }

    /// One `row value` pair of a COLUMNS or RHS line: the row's index (it must be named in
    /// ROWS) and the value as an exact integer (`what` names it in the error).
    fn row_value(
        &self,
        number: usize,
        (row_col, row): (usize, &str),
        (value_col, value): (usize, &str),
        what: &str,
    ) -> Result<(usize, i128), ReadError> {
        let Some(&r) = self.row_ids.get(row) else {
            return Err(ReadError::at(
                number,
                row_col,
                "a row named in ROWS",
                quoted(row),
            ));
        };
        let parsed = exact_integer(value).map_err(|e| e.at(number, value_col, what, value))?;
        Ok((r, parsed))
    }

    fn rhs(&mut self, words: &[(usize, &str)], number: usize) -> Result<(), ReadError> {
        // The set name may be left out in free MPS: pairs start at field 0 or 1.
        let pairs = if words.len() % 2 == 1 {
            &words[1..]
        } else {
            words
        };
        for pair in pairs.chunks(2) {
            let [(row_col, row), (value_col, value)] = pair[..] else {
                continue;
            };
            let what = format!("the right-hand side of row '{row}'");
            let (r, value) = self.row_value(number, (row_col, row), (value_col, value), &what)?;
            if self.rows[r].relation.is_none() && value != 0 {
                return Err(ReadError::at(
                    number,
                    value_col,
                    "no constant on the objective row (objective constants are not supported)",
                    quoted(&value.to_string()),
                ));
            }
            self.rows[r].rhs = value;
        }
        Ok(())
    }

    fn bound(&mut self, words: &[(usize, &str)], number: usize) -> Result<(), ReadError> {
        let (column, kind) = words[0];
        let kind = kind.to_ascii_uppercase();
        let no_value = matches!(kind.as_str(), "BV" | "FR" | "MI" | "PL");
        // The bound-set name may be left out in free MPS; a bound that takes no value may
        // still carry one (`BV bnd x 1`, as some writers put it): it is read and ignored.
        let fields = words.len() - 1;
        let named = match (no_value, fields) {
            (_, 3) => true,
            // `BV bnd x` or `BV x 1`: the second word is the column when the first names one.
            (true, 2) => self.sink.lookup(words[1].1).is_none(),
            _ => false,
        };
        let takes_value = !no_value || fields == if named { 3 } else { 2 };
        let col_index = if named { 2 } else { 1 };
        let Some(&(col_col, col)) = words.get(col_index) else {
            return Err(ReadError::at(
                number,
                column,
                "a bound: TYPE [SET] COLUMN [VALUE]",
                format!("{} fields", words.len()),
            ));
        };
        let Some(v) = self.sink.lookup(col) else {
            return Err(ReadError::at(
                number,
                col_col,
                "a column named in COLUMNS",
                quoted(col),
            ));
        };
        let value = match (takes_value, words.get(col_index + 1)) {
            (true, Some(&(vc, text))) => Some(
                exact_integer(text)
                    .map_err(|e| e.at(number, vc, &format!("the bound of column '{col}'"), text))?,
            ),
            (true, None) => {
                return Err(ReadError::at(
                    number,
                    col_col,
                    "a bound value after the column",
                    "none",
                ))
            }
            (false, _) => None,
        };
        let info = &mut self.columns[v];
        match (kind.as_str(), value) {
            ("BV", _) => info.binary = true,
            ("UP" | "UI", Some(1)) => info.upper_one = true,
            ("LO" | "LI", Some(0)) => {}
            _ => {
                let found = format!(
                    "'{kind}{}' on column '{col}'",
                    value.map_or(String::new(), |x| format!(" {x}"))
                );
                return Err(ReadError::at(number, column, "the bounds of a 0-1 column: BV, UP 1, LO 0 (UI 1, LI 0); other bounds make it continuous or general-integer, which zeroone does not read", found));
            }
        }
        Ok(())
    }

    fn finish(mut self, last: usize) -> Result<Model, ReadError> {
        if self.section != Section::End {
            return Err(ReadError::at(
                last.max(1),
                0,
                "ENDATA at the end of the file",
                "the end of the file",
            ));
        }
        for (v, c) in self.columns.iter().enumerate() {
            if !(c.binary || (c.integer && c.upper_one)) {
                let why = if c.integer {
                    "a 0-1 column: an integer column needs the bound UP 1 (general-integer columns are not supported)"
                } else {
                    "a 0-1 column: bounded BV, or integer (MARKER INTORG) with UP 1; continuous columns are not supported"
                };
                return Err(ReadError::at(
                    c.at.0,
                    c.at.1,
                    why,
                    format!("column '{}'", self.sink.label(v)),
                ));
            }
        }
        let objective_at = self.objective.map_or((1, 1), |r| self.rows[r].at);
        let mut families: HashMap<String, usize> = HashMap::new();
        for row in std::mem::take(&mut self.rows) {
            let Some(relation) = row.relation else {
                continue;
            };
            let family_name = super::lp::family_of(&row.name);
            let family = match families.get(&family_name) {
                Some(&f) => f,
                None => {
                    let f = self.sink.family(&family_name);
                    families.insert(family_name, f);
                    f
                }
            };
            let label = format!("row '{}'", row.name);
            let id = (self.sink).row(family, &row.terms, relation, row.rhs, &label, row.at)?;
            if let Some(id) = id {
                self.sink.name_row(id, &row.name);
            }
        }
        // An objective row that names a column is an objective, even when every cost is 0
        // (as JSON and OPB keep one); with no entry it is a feasibility problem.
        if !self.objective_terms.is_empty() {
            let terms = std::mem::take(&mut self.objective_terms);
            self.sink.objective(self.sense, &terms, objective_at)?;
        }
        self.sink.finish((last.max(1), 0))
    }
}

#[cfg(test)]
mod tests {
    use super::super::read_str;

    const HEAD: &str =
        "NAME t\nROWS\n N obj\n G c\nCOLUMNS\n x c 1\n y c 1\nRHS\n rhs c 1\nBOUNDS\n";

    #[test]
    fn a_binary_bound_may_carry_a_value_with_or_without_a_set_name() {
        // Issue 35, item 8: `BV bnd x 1` took `bnd` for the column ("expected a column named
        // in COLUMNS, found 'bnd'").
        for bounds in [
            " BV bnd x 1\n BV bnd y\n",
            " BV x 1\n BV y\n",
            " BV bnd x\n BV y 1\n",
        ] {
            let m = read_str(super::FORMAT, &format!("{HEAD}{bounds}ENDATA\n"), "t").unwrap();
            assert_eq!(m.own_variables(), 2, "{bounds}");
        }
        let e = read_str(super::FORMAT, &format!("{HEAD} BV bnd z 1\nENDATA\n"), "t").unwrap_err();
        assert!(e.to_string().contains("'z'"), "{e}");
        assert_eq!((e.line, e.column), (11, 9), "{e}");
    }

    #[test]
    fn an_objective_row_with_entries_is_kept_even_at_cost_zero() {
        let zero = "NAME t\nROWS\n N obj\n G c\nCOLUMNS\n x obj 0 c 1\n y c 1\nRHS\n rhs c 1\nBOUNDS\n BV bnd x\n BV bnd y\nENDATA\n";
        let m = read_str(super::FORMAT, zero, "t").unwrap();
        assert!(m.objective().is_some_and(|o| o.terms().next().is_none()));
        let none = format!("{HEAD} BV bnd x\n BV bnd y\nENDATA\n");
        assert!(read_str(super::FORMAT, &none, "t")
            .unwrap()
            .objective()
            .is_none());
    }
}
