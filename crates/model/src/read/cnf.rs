//! DIMACS CNF:
//!
//! ```text
//! c comment
//! p cnf 3 2
//! 1 -2 0
//! 2 3 -1 0
//! ```
//!
//! `c` lines are comments, but for `c p show v1 v2 ... 0` (the model-counting competition's
//! projection: a count is over the variables shown, any number of such lines): the variables
//! shown become the model's count projection ([`crate::model::Model::count_projection`]) unless
//! they are all `V` (positive variable numbers up to `V`, the line ended by `0`, else a located
//! error). zeroone counts over every variable, so counting a projected model is refused
//! (status `unsupported`) rather than answered over the wrong variables; solving it and listing
//! its solutions (each an assignment of every variable) are unaffected. `p cnf V C` declares variables `x1..xV` (model variables `0..V`)
//! and `C` clauses; then clauses, each a list of nonzero literals (`-k` negates `xk`) ended by
//! `0`, over as many lines as they like. A clause is an "at least one" row of the family
//! `clause` over its literals; a negative literal is the complement `~xk` (see
//! [`crate::model::Derived`]). A repeated literal counts once; the empty clause makes the
//! model infeasible. A literal past `V`, a clause count other than `C` (more is refused at
//! the first clause too many, fewer at the end), or a `%` line (the end marker of some
//! benchmark files) followed by more clauses are located errors.
//!
//! Costs: one pass; one clause held at a time; the model grows by one row per clause.

use super::{quoted, Format, LinearSink, Lit, ReadError, Source, Stopped};
use crate::model::{Model, Relation};

/// DIMACS CNF (`.cnf`).
pub const FORMAT: Format = Format::new("cnf", &["cnf"], read);

/// Reads a DIMACS CNF file (see the module docs) as a model named `name`.
pub fn read(lines: &mut Source<'_>, name: &str) -> Result<Model, Stopped> {
    let mut r = Reader {
        sink: LinearSink::new(name),
        header: None,
        clause: Vec::new(),
        clause_start: None,
        clauses: 0,
        ended: false,
        family: 0,
        shown: None,
    };
    r.family = r.sink.family("clause");
    let mut last = 0;
    while let Some((number, line)) = lines.next_line()? {
        last = number;
        r.line(line, number).map_err(|e| lines.error(e))?;
    }
    r.finish(last).map_err(|e| lines.error(e))
}

struct Reader {
    sink: LinearSink,
    /// `(V, C, line)` of the `p cnf` line.
    header: Option<(usize, usize, usize)>,
    clause: Vec<(Lit, i128)>,
    clause_start: Option<(usize, usize)>,
    clauses: usize,
    /// After a `%` line.
    ended: bool,
    family: usize,
    /// The variables of the `c p show` lines (0-based), when there are any.
    shown: Option<Vec<usize>>,
}

impl Reader {
    fn line(&mut self, line: &str, number: usize) -> Result<(), ReadError> {
        let words = super::words(line);
        let Some(&(column, first)) = words.first() else {
            return Ok(());
        };
        let word = |i: usize| words.get(i).map(|w| w.1);
        if first == "c" && word(1) == Some("p") && word(2) == Some("show") {
            return self.show(&words[3..], number, column);
        }
        if first.starts_with('c') {
            return Ok(()); // a comment
        }
        if first == "%" {
            self.ended = true;
            return Ok(());
        }
        if first == "p" {
            return self.header(&words, number);
        }
        let Some((vars, _, _)) = self.header else {
            let expected = "the header 'p cnf VARIABLES CLAUSES' before the first clause";
            return Err(ReadError::at(number, column, expected, quoted(first)));
        };
        if self.ended {
            let expected = "nothing after the '%' end marker";
            return Err(ReadError::at(number, column, expected, quoted(first)));
        }
        for &(column, word) in &words {
            let k: i64 = word.parse().map_err(|_| {
                ReadError::at(
                    number,
                    column,
                    "a literal: a nonzero integer, or 0 to end the clause",
                    quoted(word),
                )
            })?;
            if k == 0 {
                self.end_clause(number, column)?;
                continue;
            }
            if k.unsigned_abs() as usize > vars {
                let expected = format!(
                    "a literal between -{vars} and {vars} (the header declares {vars} variables)"
                );
                return Err(ReadError::at(number, column, expected, quoted(word)));
            }
            self.clause_start.get_or_insert((number, column));
            if self.clause.len() >= super::MAX_NONZEROS {
                let expected = format!("a clause of at most {} literals", super::MAX_NONZEROS);
                return Err(ReadError::at(number, column, expected, "a longer one"));
            }
            let var = k.unsigned_abs() as usize - 1;
            let lit = if k < 0 { Lit::neg(var) } else { Lit::pos(var) };
            self.clause.push((lit, 1));
        }
        Ok(())
    }

    /// The variables of one `c p show` line (its words after `show`), starting at `column`.
    fn show(
        &mut self,
        words: &[(usize, &str)],
        number: usize,
        column: usize,
    ) -> Result<(), ReadError> {
        let Some((vars, _, header_line)) = self.header else {
            let expected = "the header 'p cnf VARIABLES CLAUSES' before 'c p show'";
            return Err(ReadError::at(number, column, expected, "'c p show' first"));
        };
        let shown = self.shown.get_or_insert_with(Vec::new);
        let mut ended = false;
        for &(column, word) in words {
            if ended {
                let expected = "the end of the 'c p show' line after its 0";
                return Err(ReadError::at(number, column, expected, quoted(word)));
            }
            match word.parse::<usize>() {
                Ok(0) => ended = true,
                Ok(k) if k <= vars => shown.push(k - 1),
                _ => {
                    let expected = format!(
                        "a variable to show, 1 to {vars} (the header on line {header_line} \
                         declares {vars}), or 0 to end the line"
                    );
                    return Err(ReadError::at(number, column, expected, quoted(word)));
                }
            }
        }
        if !ended {
            let column = words.last().map_or(column, |w| w.0 + w.1.len());
            let expected = "the 'c p show' line to end with 0";
            return Err(ReadError::at(
                number,
                column,
                expected,
                "the end of the line",
            ));
        }
        Ok(())
    }

    fn header(&mut self, words: &[(usize, &str)], number: usize) -> Result<(), ReadError> {
        if let Some((_, _, first)) = self.header {
            let expected = format!("one 'p cnf' line (the first is on line {first})");
            return Err(ReadError::at(number, 1, expected, "a second one"));
        }
        let format = words.get(1).map_or("", |w| w.1);
        if format != "cnf" {
            let expected = "'p cnf VARIABLES CLAUSES' (weighted, 'wcnf', and other DIMACS kinds are not 0-1 feasibility models zeroone reads)";
            return Err(ReadError::at(
                number,
                words.get(1).map_or(2, |w| w.0),
                expected,
                quoted(format),
            ));
        }
        let number_at = |i: usize, what: &str, cap: usize| -> Result<usize, ReadError> {
            let (column, word) = words.get(i).copied().unwrap_or((0, ""));
            word.parse::<usize>()
                .ok()
                .filter(|&n| n <= cap)
                .ok_or_else(|| {
                    ReadError::at(
                        number,
                        column,
                        format!("the number of {what} (at most {cap})"),
                        quoted(word),
                    )
                })
        };
        let vars = number_at(2, "variables", super::MAX_VARIABLES / 2)?;
        let clauses = number_at(3, "clauses", super::MAX_NONZEROS)?;
        if let Some(&(column, extra)) = words.get(4) {
            return Err(ReadError::at(
                number,
                column,
                "the end of the 'p cnf' line",
                quoted(extra),
            ));
        }
        self.sink.declare_numbered(vars, (number, 1))?;
        self.header = Some((vars, clauses, number));
        Ok(())
    }

    fn end_clause(&mut self, line: usize, column: usize) -> Result<(), ReadError> {
        self.clauses += 1;
        let at = self.clause_start.take().unwrap_or((line, column));
        if let Some((_, declared, header_line)) = self.header.filter(|h| self.clauses > h.1) {
            // Refused at the first clause too many, not after reading the rest.
            let expected =
                format!("{declared} clauses, as the header on line {header_line} declares");
            let found = format!("clause {} here", self.clauses);
            return Err(ReadError::at(at.0, at.1, expected, found));
        }
        self.clause.sort_unstable();
        self.clause.dedup();
        let row = format!("clause {} (line {})", self.clauses, at.0);
        let terms = std::mem::take(&mut self.clause);
        self.sink
            .row(self.family, &terms, Relation::AtLeast, 1, &row, at)?;
        self.clause = terms;
        self.clause.clear();
        Ok(())
    }

    fn finish(mut self, last: usize) -> Result<Model, ReadError> {
        let Some((_, declared, header_line)) = self.header else {
            return Err(ReadError::at(
                last.max(1),
                0,
                "the header 'p cnf VARIABLES CLAUSES'",
                "none",
            ));
        };
        if let Some((line, column)) = self.clause_start {
            return Err(ReadError::at(
                line,
                column,
                "the clause started here to end with 0",
                "the end of the file",
            ));
        }
        if self.clauses != declared {
            let expected =
                format!("{declared} clauses, as the header on line {header_line} declares");
            return Err(ReadError::at(
                last.max(1),
                0,
                expected,
                format!("{}", self.clauses),
            ));
        }
        self.clause.clear();
        if let Some(shown) = self.shown.take() {
            self.sink.project_count(shown);
        }
        self.sink.finish((last.max(1), 0))
    }
}
