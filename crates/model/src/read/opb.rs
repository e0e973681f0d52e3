//! OPB, the pseudo-Boolean competition format (linear subset):
//!
//! ```text
//! * #variable= 3 #constraint= 2
//! min: +2 x1 -1 ~x3 ;
//! +3 x1 -2 x2 +1 x3 >= 1 ;
//! +1 x1 +1 x2 = 1 ;
//! ```
//!
//! Lines starting with `*` are comments; the header `* #variable= N` declares `x1..xN` (model
//! variables `0..N`, so answers keep the file's numbering; a larger `xK` is refused), and its
//! `#constraint= M` the number of constraints (the objective is not one): a constraint past
//! `M` is refused where it starts, fewer at the end of the file. A
//! constraint is terms `COEF LITERAL` (a literal is a name such as `x5`, or `~x5` for its
//! negation), a relation `>=`, `=` or `<=`, an integer and `;`; it may run over several lines.
//! The older syntax `+3*x1` (a `*` between coefficient and literal) reads the same.
//! `min:` / `max:` start the objective. Two literals after one coefficient are a product (a
//! non-linear term) and are refused. A comment `* family NAME` (as zeroone's OPB export writes)
//! puts the rows after it in family `NAME`; otherwise rows are in family `constraint`. A
//! comment `* row NAME` (two words, as the export writes for a row an LP or MPS file named)
//! names the constraint after it.
//!
//! Costs: one pass; one row's terms held at a time.

use super::{exact_integer, quoted, Format, LinearSink, Lit, ReadError, Source, Stopped};
use crate::model::{FamilyId, Model, ObjectiveSense, Relation};

/// One token of an OPB line, with its 1-based column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token<'a> {
    /// `;`
    End,
    /// `>=`, `=`, `<=` (or something else made of `<`, `=`, `>`).
    Relation(&'a str),
    /// Any other run of characters: a number, a literal, `min:`, ...
    Word(&'a str),
}

fn tokens(line: &str) -> Vec<(usize, Token<'_>)> {
    let mut out = Vec::new();
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (start, c) = chars[i];
        let column = i + 1;
        // `*` between a coefficient and its literal (`+3*x1`, the older competition syntax
        // minisat+ and the PB'05 files use) separates like a space.
        if c.is_whitespace() || c == '\u{feff}' || c == '*' {
            i += 1;
            continue;
        }
        let class = |c: char| {
            if c == ';' {
                0
            } else if matches!(c, '<' | '=' | '>') {
                1
            } else {
                2
            }
        };
        let kind = class(c);
        let mut j = i + 1;
        while kind != 0
            && j < chars.len()
            && !chars[j].1.is_whitespace()
            && chars[j].1 != '*'
            && class(chars[j].1) == kind
        {
            j += 1;
        }
        let end = chars.get(j).map_or(line.len(), |&(b, _)| b);
        let text = &line[start..end];
        out.push((
            column,
            match kind {
                0 => Token::End,
                1 => Token::Relation(text),
                _ => Token::Word(text),
            },
        ));
        i = j;
    }
    out
}

/// What the reader is in the middle of.
#[derive(Default)]
struct Pending {
    /// `Some` inside the objective line.
    objective: Option<ObjectiveSense>,
    terms: Vec<(Lit, i128)>,
    /// A coefficient waiting for its literal, with its column and line.
    coefficient: Option<(i128, usize, usize)>,
    relation: Option<Relation>,
    rhs: Option<i128>,
    /// Where the statement started.
    start: Option<(usize, usize)>,
}

/// The reader's state across lines.
struct Reader {
    sink: LinearSink,
    /// `N` of `#variable= N`, when the header gave it.
    declared: Option<usize>,
    /// `M` of `#constraint= M`, when the header gave it: a constraint past it is refused where
    /// it starts, fewer at the end.
    declared_rows: Option<usize>,
    family: Option<FamilyId>,
    /// The name a `* row NAME` comment gives the next constraint.
    row_name: Option<String>,
    rows: usize,
    seen_objective: bool,
    pending: Pending,
}

/// The pseudo-Boolean competition format (`.opb`).
pub const FORMAT: Format = Format::new("opb", &["opb"], read);

/// Reads an OPB file (see the module docs) as a model named `name`.
pub fn read(lines: &mut Source<'_>, name: &str) -> Result<Model, Stopped> {
    let mut r = Reader {
        sink: LinearSink::new(name),
        declared: None,
        declared_rows: None,
        family: None,
        row_name: None,
        rows: 0,
        seen_objective: false,
        pending: Pending::default(),
    };
    let mut last = 0;
    while let Some((number, line)) = lines.next_line()? {
        last = number;
        let result = match line.trim_start().strip_prefix('*') {
            Some(comment) => r.comment(comment, number),
            None => r.line(line, number),
        };
        result.map_err(|e| lines.error(e))?;
    }
    let finish = || -> Result<Model, ReadError> {
        if let Some((line, column)) = r.pending.start {
            return Err(ReadError::at(
                line,
                column,
                "the constraint started here to end with ';'",
                "the end of the file",
            ));
        }
        if let Some(declared) = r.declared_rows.filter(|&m| m != r.rows) {
            let expected = format!("{declared} constraints, as the header on line 1 declares");
            let found = format!("{} constraints", r.rows);
            return Err(ReadError::at(last.max(1), 0, expected, found));
        }
        r.sink.finish((last.max(1), 0))
    };
    finish().map_err(|e| lines.error(e))
}

impl Reader {
    /// A `*` line: the `#variable=` header (first line only), a `family NAME` comment, a
    /// `row NAME` comment (exactly two words), or nothing.
    fn comment(&mut self, text: &str, line: usize) -> Result<(), ReadError> {
        let words = super::words(text);
        if line == 1 {
            for pair in words.windows(2) {
                if pair[0].1 == "#variable=" {
                    let (col, n) = pair[1];
                    if self.declared.is_some() {
                        let expected = "one '#variable=' count on the header line";
                        return Err(ReadError::at(line, col + 1, expected, "a second one"));
                    }
                    let count = n
                        .parse::<usize>()
                        .ok()
                        .filter(|&k| k <= super::MAX_VARIABLES)
                        .ok_or_else(|| {
                            ReadError::at(
                                line,
                                col + 1,
                                format!("a number of variables up to {}", super::MAX_VARIABLES),
                                quoted(n),
                            )
                        })?;
                    self.sink.declare_numbered(count, (line, col + 1))?;
                    self.declared = Some(count);
                }
                if pair[0].1 == "#constraint=" {
                    self.constraint_count(pair[1], line)?;
                }
            }
        }
        if self.pending.start.is_some() {
            return Ok(());
        }
        match words[..] {
            [(_, "family"), (_, name), ..] => self.family = Some(self.sink.family(name)),
            [(_, "row"), (_, name)] => self.row_name = Some(name.to_string()),
            _ => {}
        }
        Ok(())
    }

    /// `M` of the header's `#constraint= M` (`word` at its 0-based column `col`).
    fn constraint_count(
        &mut self,
        (col, word): (usize, &str),
        line: usize,
    ) -> Result<(), ReadError> {
        if self.declared_rows.is_some() {
            let expected = "one '#constraint=' count on the header line";
            return Err(ReadError::at(line, col + 1, expected, "a second one"));
        }
        let count = (word.parse::<usize>().ok())
            .filter(|&m| m <= super::MAX_NONZEROS)
            .ok_or_else(|| {
                let expected = format!("a number of constraints up to {}", super::MAX_NONZEROS);
                ReadError::at(line, col + 1, expected, quoted(word))
            })?;
        self.declared_rows = Some(count);
        Ok(())
    }

    fn line(&mut self, line: &str, number: usize) -> Result<(), ReadError> {
        for (column, token) in tokens(line) {
            self.token(token, number, column)?;
        }
        Ok(())
    }

    fn token(&mut self, token: Token<'_>, line: usize, column: usize) -> Result<(), ReadError> {
        let p = &mut self.pending;
        if p.start.is_none() {
            p.start = Some((line, column));
            if let Token::Word(w @ ("min:" | "max:")) = token {
                if self.seen_objective {
                    return Err(ReadError::at(
                        line,
                        column,
                        "one objective line",
                        "a second one",
                    ));
                }
                self.seen_objective = true;
                p.objective = Some(if w == "min:" {
                    ObjectiveSense::Minimize
                } else {
                    ObjectiveSense::Maximize
                });
                return Ok(());
            }
        }
        match token {
            Token::End => self.end(line, column),
            Token::Relation(op) => {
                let relation = match op {
                    ">=" => Relation::AtLeast,
                    "<=" => Relation::AtMost,
                    "=" => Relation::Equal,
                    _ => {
                        return Err(ReadError::at(
                            line,
                            column,
                            "a relation >=, = or <=",
                            quoted(op),
                        ))
                    }
                };
                if p.objective.is_some() || p.relation.is_some() {
                    return Err(ReadError::at(line, column, "a term or ';'", quoted(op)));
                }
                if let Some((_, l, c)) = p.coefficient {
                    return Err(ReadError::at(
                        l,
                        c,
                        "a literal after this coefficient",
                        quoted(op),
                    ));
                }
                p.relation = Some(relation);
                Ok(())
            }
            Token::Word(word) => self.word(word, line, column),
        }
    }

    fn word(&mut self, word: &str, line: usize, column: usize) -> Result<(), ReadError> {
        let p = &mut self.pending;
        if p.relation.is_some() {
            if p.rhs.is_some() {
                return Err(ReadError::at(
                    line,
                    column,
                    "';' after the right-hand side",
                    quoted(word),
                ));
            }
            let rhs =
                exact_integer(word).map_err(|e| e.at(line, column, "the right-hand side", word))?;
            p.rhs = Some(rhs);
            return Ok(());
        }
        if word.starts_with(|c: char| c.is_ascii_digit() || c == '+' || c == '-') {
            if let Some((_, l, c)) = p.coefficient {
                return Err(ReadError::at(
                    l,
                    c,
                    "a literal after this coefficient",
                    quoted(word),
                ));
            }
            let coef =
                exact_integer(word).map_err(|e| e.at(line, column, "a coefficient", word))?;
            p.coefficient = Some((coef, line, column));
            return Ok(());
        }
        let Some((coef, _, _)) = p.coefficient.take() else {
            let expected = if p.terms.is_empty() {
                "a coefficient before the literal (OPB terms are 'COEF LITERAL')"
            } else {
                "a coefficient before the literal (two literals after one coefficient are a product: non-linear terms are not supported)"
            };
            return Err(ReadError::at(line, column, expected, quoted(word)));
        };
        let (negated, name) = match word.strip_prefix('~') {
            Some(rest) => (true, rest),
            None => (false, word),
        };
        if name.is_empty() || !name.starts_with(|c: char| c.is_alphabetic() || c == '_') {
            return Err(ReadError::at(
                line,
                column,
                "a literal such as x5 or ~x5",
                quoted(word),
            ));
        }
        if let (Some(n), Some(k)) = (self.declared, name.strip_prefix('x')) {
            if k.parse::<usize>().is_ok_and(|k| k == 0 || k > n) {
                let expected = format!("a variable of x1..x{n} (the header declares {n})");
                return Err(ReadError::at(line, column, expected, quoted(name)));
            }
        }
        let var = self.sink.var(name, (line, column))?;
        let lit = if negated {
            Lit::neg(var)
        } else {
            Lit::pos(var)
        };
        self.pending.terms.push((lit, coef));
        Ok(())
    }

    /// `;`: the statement ends.
    fn end(&mut self, line: usize, column: usize) -> Result<(), ReadError> {
        let p = std::mem::take(&mut self.pending);
        let at = p.start.unwrap_or((line, column));
        if let Some((_, l, c)) = p.coefficient {
            return Err(ReadError::at(
                l,
                c,
                "a literal after this coefficient",
                "';'",
            ));
        }
        if let Some(sense) = p.objective {
            return self.sink.objective(sense, &p.terms, at);
        }
        let (Some(relation), Some(rhs)) = (p.relation, p.rhs) else {
            let expected = if p.relation.is_none() {
                "a relation >=, = or <= before ';'"
            } else {
                "a right-hand side before ';'"
            };
            return Err(ReadError::at(line, column, expected, "';'"));
        };
        let family = match self.family {
            Some(f) => f,
            None => {
                let f = self.sink.family("constraint");
                self.family = Some(f);
                f
            }
        };
        self.rows += 1;
        if let Some(declared) = self.declared_rows.filter(|&m| self.rows > m) {
            // Refused at the first constraint too many, not after reading the rest.
            let expected = format!("{declared} constraints, as the header on line 1 declares");
            let found = format!("constraint {} here", self.rows);
            return Err(ReadError::at(at.0, at.1, expected, found));
        }
        let row = format!("constraint {} (line {})", self.rows, at.0);
        let name = self.row_name.take();
        if let (Some(id), Some(name)) = (
            self.sink.row(family, &p.terms, relation, rhs, &row, at)?,
            name,
        ) {
            self.sink.name_row(id, &name);
        }
        Ok(())
    }
}
