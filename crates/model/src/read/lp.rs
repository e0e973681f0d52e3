//! CPLEX LP, the 0-1 subset that zeroone writes and HiGHS, CBC, Gurobi and CPLEX write for
//! 0-1 models:
//!
//! ```text
//! \ a comment
//! Maximize
//!  obj: 3 x + 2 y - z
//! Subject To
//!  budget_0: 2 x + 3 y + z <= 4
//!  pick_0: x - y >= 0
//! Bounds
//!  0 <= z <= 1
//! Binary
//!  x y
//! General
//!  z
//! End
//! ```
//!
//! Sections (case-insensitive, at the start of a line): `Minimize`/`Maximize` (also
//! `min`, `max`, `minimum`, `maximum`, British spellings), `Subject To` (`st`, `s.t.`,
//! `such that`), `Bounds`, `Binary`/`Binaries`/`Bin`, `General`/`Generals`/`Gen`, `End`. A row
//! is `[name:] terms relation integer`, over as many lines as it likes; terms are `[+|-]
//! [coefficient] variable`. Every variable must be binary: listed under `Binary`, or under
//! `General` with the bounds `0 <= x <= 1`. Anything else (a continuous or general-integer
//! variable, a bound other than 0 or 1, `free`, a quadratic `[...]` term, a fractional or huge
//! coefficient, a constant in the objective, semi-continuous or SOS sections) is a located
//! error naming the variable or row.
//!
//! A row named `NAME_K` (K a number, as zeroone's export names rows) goes to the family
//! `NAME`; other rows to the family `row`. The model keeps each row's name
//! ([`crate::model::Model::row_label`]; not stored when it is the name the exports give the row
//! anyway). An empty objective is no objective (a feasibility
//! problem); one that names variables is kept even when every cost is 0, as JSON and OPB keep it.
//!
//! Costs: one pass; one row's terms held at a time; one hash look-up per variable name.

use std::collections::HashMap;

use super::{exact_integer, quoted, Format, LinearSink, Lit, ReadError, Source, Stopped};
use crate::model::{FamilyId, Model, ObjectiveSense, Relation, VarId};

/// A token of an LP line with its 1-based column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token<'a> {
    Number(&'a str),
    Name(&'a str),
    Sign(bool),
    Relation(Relation),
    Colon,
    /// Anything the 0-1 subset does not take (`[`, `*`, `^`, `/`, ...).
    Other(&'a str),
}

fn is_name_start(c: char) -> bool {
    c.is_alphabetic() || "_!\"#$%&(),;?@'{}|~".contains(c)
}

fn is_name_char(c: char) -> bool {
    is_name_start(c) || c.is_ascii_digit() || c == '.'
}

/// The tokens of `line`.
fn tokens(line: &str) -> Vec<(usize, Token<'_>)> {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let byte = |i: usize| chars.get(i).map_or(line.len(), |&(b, _)| b);
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i].1;
        let column = i + 1;
        let start = i;
        if c.is_whitespace() || c == '\u{feff}' {
            i += 1;
            continue;
        }
        let token = if c.is_ascii_digit() || c == '.' {
            while i < chars.len() && (chars[i].1.is_ascii_digit() || chars[i].1 == '.') {
                i += 1;
            }
            if i < chars.len() && matches!(chars[i].1, 'e' | 'E') {
                let mut j = i + 1;
                if j < chars.len() && matches!(chars[j].1, '+' | '-') {
                    j += 1;
                }
                if j < chars.len() && chars[j].1.is_ascii_digit() {
                    while j < chars.len() && chars[j].1.is_ascii_digit() {
                        j += 1;
                    }
                    i = j;
                }
            }
            Token::Number(&line[byte(start)..byte(i)])
        } else if is_name_start(c) {
            while i < chars.len() && is_name_char(chars[i].1) {
                i += 1;
            }
            Token::Name(&line[byte(start)..byte(i)])
        } else if c == '+' || c == '-' {
            i += 1;
            Token::Sign(c == '-')
        } else if c == ':' {
            i += 1;
            Token::Colon
        } else if matches!(c, '<' | '>' | '=') {
            while i < chars.len() && matches!(chars[i].1, '<' | '>' | '=') {
                i += 1;
            }
            match &line[byte(start)..byte(i)] {
                "<" | "<=" | "=<" => Token::Relation(Relation::AtMost),
                ">" | ">=" | "=>" => Token::Relation(Relation::AtLeast),
                "=" => Token::Relation(Relation::Equal),
                other => Token::Other(other),
            }
        } else {
            i += 1;
            Token::Other(&line[byte(start)..byte(i)])
        };
        out.push((column, token));
    }
    out
}

/// The LP sections.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Start,
    Objective(ObjectiveSense),
    Constraints,
    Bounds,
    Binary,
    General,
    End,
}

/// The section a line opens, and the column where the rest of the line starts (after the
/// keyword); `None` when the line opens none.
fn section_of(line: &str) -> Option<(Section, usize)> {
    let words = super::words(line);
    let (_, first) = *words.first()?;
    let lower = first.to_ascii_lowercase();
    let after = |n: usize| words.get(n).map_or(line.chars().count() + 1, |&(c, _)| c);
    let section = match lower.as_str() {
        "minimize" | "minimise" | "minimum" | "min" => Section::Objective(ObjectiveSense::Minimize),
        "maximize" | "maximise" | "maximum" | "max" => Section::Objective(ObjectiveSense::Maximize),
        "st" | "s.t." | "st." | "subject" | "such" => {
            if matches!(lower.as_str(), "subject" | "such") {
                let second = words.get(1).map(|w| w.1.to_ascii_lowercase());
                if second.as_deref() != Some(if lower == "subject" { "to" } else { "that" }) {
                    return None;
                }
                return Some((Section::Constraints, after(2)));
            }
            Section::Constraints
        }
        "bounds" | "bound" => Section::Bounds,
        "binary" | "binaries" | "bin" => Section::Binary,
        "general" | "generals" | "gen" | "integer" | "integers" => Section::General,
        "end" => Section::End,
        "semi-continuous"
        | "semis"
        | "semi"
        | "sos"
        | "sos1"
        | "sos2"
        | "pwl"
        | "general constraints" => {
            return Some((Section::End, usize::MAX));
        }
        _ => return None,
    };
    // Whatever follows the keyword on its line is content of the section (`Maximize obj: x`,
    // `Binary x y`).
    Some((section, after(1)))
}

/// What is known about one variable, indexed by the sink's variable id. The slots of the
/// complements the sink makes between two of the file's variables stay at the default, with
/// `own` false: they need no declaration.
#[derive(Default, Clone, Copy)]
struct VarInfo {
    /// A variable of the file (not a complement).
    own: bool,
    first_use: (usize, usize),
    binary: bool,
    general: bool,
    /// An explicit upper bound of 1 (what makes a general variable binary).
    upper_one: bool,
}

/// A token with its line and column.
type Located<'a> = (usize, usize, Token<'a>);

struct Reader {
    sink: LinearSink,
    section: Section,
    vars: Vec<VarInfo>,
    /// The tokens of the statement being read (owned: statements run over lines).
    pending: Vec<(usize, usize, OwnedToken)>,
    families: HashMap<String, FamilyId>,
    rows: usize,
    seen_objective: bool,
}

/// A token kept across lines.
#[derive(Debug, Clone, PartialEq, Eq)]
enum OwnedToken {
    Number(String),
    Name(String),
    Sign(bool),
    Relation(Relation),
    Colon,
    Other(String),
}

impl OwnedToken {
    fn of(t: Token<'_>) -> OwnedToken {
        match t {
            Token::Number(s) => OwnedToken::Number(s.into()),
            Token::Name(s) => OwnedToken::Name(s.into()),
            Token::Sign(b) => OwnedToken::Sign(b),
            Token::Relation(r) => OwnedToken::Relation(r),
            Token::Colon => OwnedToken::Colon,
            Token::Other(s) => OwnedToken::Other(s.into()),
        }
    }

    fn text(&self) -> String {
        match self {
            OwnedToken::Number(t) | OwnedToken::Name(t) | OwnedToken::Other(t) => t.clone(),
            OwnedToken::Sign(true) => "-".into(),
            OwnedToken::Sign(false) => "+".into(),
            OwnedToken::Relation(r) => r.to_string(),
            OwnedToken::Colon => ":".into(),
        }
    }
}

/// CPLEX LP, the 0-1 subset (`.lp`).
pub const FORMAT: Format = Format::new("lp", &["lp"], read);

/// Reads an LP file (see the module docs) as a model named `name`.
pub fn read(lines: &mut Source<'_>, name: &str) -> Result<Model, Stopped> {
    let mut r = Reader {
        sink: LinearSink::new(name),
        section: Section::Start,
        vars: Vec::new(),
        pending: Vec::new(),
        families: HashMap::new(),
        rows: 0,
        seen_objective: false,
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
        let text = line.find('\\').map_or(line, |i| &line[..i]);
        if text.trim().is_empty() {
            return Ok(());
        }
        if self.section == Section::End {
            let column = super::words(text).first().map_or(1, |w| w.0);
            return Err(ReadError::at(
                number,
                column,
                "nothing after 'End'",
                quoted(text.trim()),
            ));
        }
        let mut skip = 0;
        if let Some((section, rest)) = section_of(text) {
            if rest == usize::MAX {
                let expected = "the sections of a 0-1 model (objective, Subject To, Bounds, Binary, General, End); semi-continuous, SOS and general constraints are not supported";
                return Err(ReadError::at(number, 1, expected, quoted(text.trim())));
            }
            self.close_section()?;
            if matches!(section, Section::Objective(_)) {
                if self.seen_objective {
                    return Err(ReadError::at(
                        number,
                        1,
                        "one objective section",
                        "a second one",
                    ));
                }
                self.seen_objective = true;
            }
            self.section = section;
            skip = rest - 1;
        }
        let located: Vec<Located<'_>> = tokens(text)
            .into_iter()
            .filter(|&(c, _)| c > skip)
            .map(|(c, t)| (number, c, t))
            .collect();
        match self.section {
            Section::Start => match located.first() {
                Some(&(l, c, t)) => Err(ReadError::at(
                    l,
                    c,
                    "a section: Minimize or Maximize, then Subject To",
                    format!("'{}'", OwnedToken::of(t).text()),
                )),
                None => Ok(()),
            },
            Section::Objective(_) => {
                self.pending
                    .extend(located.iter().map(|&(l, c, t)| (l, c, OwnedToken::of(t))));
                Ok(())
            }
            Section::Constraints => self.constraint_tokens(&located),
            Section::Bounds => {
                if located.is_empty() {
                    return Ok(());
                }
                let owned: Vec<_> = located
                    .iter()
                    .map(|&(l, c, t)| (l, c, OwnedToken::of(t)))
                    .collect();
                self.bound(&owned)
            }
            Section::Binary | Section::General => {
                for &(l, c, t) in &located {
                    let Token::Name(name) = t else {
                        return Err(ReadError::at(
                            l,
                            c,
                            "a variable name",
                            format!("'{}'", OwnedToken::of(t).text()),
                        ));
                    };
                    let v = self.var(name, (l, c))?;
                    if self.section == Section::Binary {
                        self.vars[v].binary = true;
                    } else {
                        self.vars[v].general = true;
                    }
                }
                Ok(())
            }
            Section::End => Ok(()),
        }
    }

    /// The end of a section: the objective is complete; a row must not be left open.
    fn close_section(&mut self) -> Result<(), ReadError> {
        let pending = std::mem::take(&mut self.pending);
        match self.section {
            Section::Objective(sense) => self.objective(sense, &pending),
            _ => match pending.first() {
                Some((l, c, _)) => Err(ReadError::at(
                    *l,
                    *c,
                    "the row started here to end with a relation and a right-hand side",
                    "the next section",
                )),
                None => Ok(()),
            },
        }
    }

    /// Tokens of the Subject To section: a row ends at the number after its relation.
    fn constraint_tokens(&mut self, located: &[Located<'_>]) -> Result<(), ReadError> {
        for &(l, c, t) in located {
            let after_relation = self
                .pending
                .iter()
                .rposition(|(_, _, t)| matches!(t, OwnedToken::Relation(_)));
            self.pending.push((l, c, OwnedToken::of(t)));
            if let (Some(_), Token::Number(_)) = (after_relation, t) {
                let row = std::mem::take(&mut self.pending);
                self.constraint(&row)?;
            }
        }
        Ok(())
    }

    fn var(&mut self, name: &str, at: (usize, usize)) -> Result<VarId, ReadError> {
        let v = self.sink.var(name, at)?;
        if v >= self.vars.len() {
            // Complements made since the last new variable took the ids in between.
            self.vars.resize(v + 1, VarInfo::default());
            self.vars[v] = VarInfo {
                own: true,
                first_use: at,
                ..VarInfo::default()
            };
        }
        Ok(v)
    }

    /// Splits `name:` off a statement.
    fn label(
        tokens: &[(usize, usize, OwnedToken)],
    ) -> (Option<&str>, &[(usize, usize, OwnedToken)]) {
        match tokens {
            [(_, _, OwnedToken::Name(n)), (_, _, OwnedToken::Colon), rest @ ..] => (Some(n), rest),
            _ => (None, tokens),
        }
    }

    /// `[+|-] [coefficient] variable` terms, up to the first token that is none.
    fn terms(
        &mut self,
        tokens: &[(usize, usize, OwnedToken)],
        what: &str,
    ) -> Result<(Vec<(Lit, i128)>, usize), ReadError> {
        let mut terms = Vec::new();
        let mut i = 0;
        while i < tokens.len() {
            let (mut sign, mut coef) = (false, None);
            let start = i;
            if let (_, _, OwnedToken::Sign(negative)) = &tokens[i] {
                sign = *negative;
                i += 1;
            }
            if let Some((l, c, OwnedToken::Number(text))) = tokens.get(i) {
                coef = Some(exact_integer(text).map_err(|e| e.at(*l, *c, what, text))?);
                i += 1;
            }
            let number_at = i.checked_sub(1).filter(|_| coef.is_some());
            match tokens.get(i) {
                Some((l, c, OwnedToken::Name(name))) => {
                    let v = self.var(name, (*l, *c))?;
                    let k = coef.unwrap_or(1);
                    terms.push((Lit::pos(v), if sign { -k } else { k }));
                    i += 1;
                }
                Some((l, c, OwnedToken::Other(o)))
                    if matches!(o.as_str(), "[" | "]" | "*" | "^" | "/") =>
                {
                    return Err(ReadError::at(
                        *l,
                        *c,
                        "a linear term (quadratic and other non-linear terms are not supported)",
                        quoted(o),
                    ));
                }
                _ if i == start => return Ok((terms, i)),
                other => {
                    let point = number_at.unwrap_or(start);
                    let (l, c) = (tokens[point].0, tokens[point].1);
                    let found = other.map_or("the end".to_string(), |t| quoted(&t.2.text()));
                    let expected = if coef.is_some() {
                        "a variable after the coefficient (constants belong on the right-hand side; the objective takes none)"
                    } else {
                        "a variable after the sign"
                    };
                    return Err(ReadError::at(l, c, expected, found));
                }
            }
        }
        Ok((terms, i))
    }

    fn objective(
        &mut self,
        sense: ObjectiveSense,
        tokens: &[(usize, usize, OwnedToken)],
    ) -> Result<(), ReadError> {
        let (_, body) = Self::label(tokens);
        let (terms, used) = self.terms(body, "a cost")?;
        if let Some((l, c, t)) = body.get(used) {
            return Err(ReadError::at(
                *l,
                *c,
                "a term of the objective",
                quoted(&t.text()),
            ));
        }
        if terms.is_empty() {
            return Ok(()); // an empty objective: a feasibility problem
        }
        let at = tokens.first().map_or((1, 1), |t| (t.0, t.1));
        self.sink.objective(sense, &terms, at)
    }

    fn constraint(&mut self, tokens: &[(usize, usize, OwnedToken)]) -> Result<(), ReadError> {
        let at = (tokens[0].0, tokens[0].1);
        let (name, body) = Self::label(tokens);
        let (terms, used) = self.terms(body, "a coefficient")?;
        let rest = &body[used..];
        let (relation, rhs_tokens) = match rest {
            [(_, _, OwnedToken::Relation(r)), tail @ ..] => (*r, tail),
            [(l, c, t), ..] => {
                return Err(ReadError::at(
                    *l,
                    *c,
                    "a term or a relation <=, >=, =",
                    quoted(&t.text()),
                ))
            }
            [] => {
                return Err(ReadError::at(
                    at.0,
                    at.1,
                    "a relation after the terms",
                    "none",
                ))
            }
        };
        let rhs = match rhs_tokens {
            [(l, c, OwnedToken::Number(t))] => {
                exact_integer(t).map_err(|e| e.at(*l, *c, "the right-hand side", t))?
            }
            [(_, _, OwnedToken::Sign(neg)), (l, c, OwnedToken::Number(t))] => {
                let k = exact_integer(t).map_err(|e| e.at(*l, *c, "the right-hand side", t))?;
                if *neg {
                    -k
                } else {
                    k
                }
            }
            [(l, c, t), ..] => {
                return Err(ReadError::at(
                    *l,
                    *c,
                    "a number as the right-hand side (variables belong on the left)",
                    quoted(&t.text()),
                ))
            }
            [] => return Err(ReadError::at(at.0, at.1, "a right-hand side", "none")),
        };
        self.rows += 1;
        let (family_name, label) = match name {
            Some(n) => (family_of(n), format!("row '{n}'")),
            None => (
                "row".to_string(),
                format!("row {} (line {})", self.rows, at.0),
            ),
        };
        let family = match self.families.get(&family_name) {
            Some(&f) => f,
            None => {
                let f = self.sink.family(&family_name);
                self.families.insert(family_name, f);
                f
            }
        };
        let row = self.sink.row(family, &terms, relation, rhs, &label, at)?;
        if let (Some(row), Some(name)) = (row, name) {
            self.sink.name_row(row, name);
        }
        Ok(())
    }

    /// One line of Bounds: `x <= 1`, `0 <= x`, `0 <= x <= 1`, `x >= 0`; anything else
    /// (`free`, other values) is refused, naming the variable.
    fn bound(&mut self, tokens: &[(usize, usize, OwnedToken)]) -> Result<(), ReadError> {
        let unsupported = |l: usize, c: usize, found: String| {
            ReadError::at(l, c, "the bounds of a 0-1 variable: 0 <= x, x >= 0, x <= 1 or 0 <= x <= 1 (other bounds make it continuous or general-integer, which zeroone does not read)", found)
        };
        let name_at = tokens
            .iter()
            .position(|t| matches!(t.2, OwnedToken::Name(_)));
        let Some(i) = name_at else {
            let (l, c, t) = &tokens[0];
            return Err(unsupported(*l, *c, quoted(&t.text())));
        };
        let (l, c, OwnedToken::Name(name)) = &tokens[i] else {
            return Err(unsupported(
                tokens[i].0,
                tokens[i].1,
                quoted(&tokens[i].2.text()),
            ));
        };
        if name.eq_ignore_ascii_case("free")
            || name.eq_ignore_ascii_case("inf")
            || name.eq_ignore_ascii_case("infinity")
        {
            return Err(unsupported(*l, *c, quoted(name)));
        }
        if let Some((l2, c2, t)) = tokens
            .get(i + 1)
            .filter(|t| matches!(&t.2, OwnedToken::Name(_)))
        {
            return Err(unsupported(
                *l2,
                *c2,
                format!("{} for variable '{name}'", quoted(&t.text())),
            ));
        }
        let v = self.var(name, (*l, *c))?;
        let value = |ts: &[(usize, usize, OwnedToken)]| -> Option<i128> {
            match ts {
                [(_, _, OwnedToken::Number(t))] => exact_integer(t).ok(),
                [(_, _, OwnedToken::Sign(neg)), (_, _, OwnedToken::Number(t))] => {
                    exact_integer(t).ok().map(|k| if *neg { -k } else { k })
                }
                _ => None,
            }
        };
        // Left part: `value rel` before the name; right part: `rel value` after it.
        let mut sides = Vec::new();
        if i > 0 {
            match &tokens[i - 1].2 {
                OwnedToken::Relation(r) => {
                    sides.push((flip(*r), value(&tokens[..i - 1]), &tokens[0]))
                }
                _ => {
                    return Err(unsupported(
                        tokens[0].0,
                        tokens[0].1,
                        format!("'{}' for variable '{name}'", tokens[0].2.text()),
                    ))
                }
            }
        }
        if let Some((_, _, OwnedToken::Relation(r))) = tokens.get(i + 1) {
            sides.push((*r, value(&tokens[i + 2..]), &tokens[i + 1]));
        } else if let Some(t) = tokens.get(i + 1) {
            return Err(unsupported(
                t.0,
                t.1,
                format!("'{}' for variable '{name}'", t.2.text()),
            ));
        }
        for (rel, value, t) in sides {
            match (rel, value) {
                (Relation::AtLeast, Some(0)) => {}
                (Relation::AtMost, Some(1)) => self.vars[v].upper_one = true,
                _ => {
                    let text: Vec<String> = tokens.iter().map(|t| t.2.text()).collect();
                    return Err(unsupported(
                        t.0,
                        t.1,
                        format!("'{}' for variable '{name}'", text.join(" ")),
                    ));
                }
            }
        }
        Ok(())
    }

    fn finish(mut self, last: usize) -> Result<Model, ReadError> {
        self.close_section()?;
        if self.section == Section::Start {
            return Err(ReadError::at(
                last.max(1),
                0,
                "an LP model: Minimize or Maximize, Subject To, ..., End",
                "no section",
            ));
        }
        for (v, info) in self.vars.iter().enumerate() {
            let binary = info.binary || (info.general && info.upper_one);
            if info.own && !binary {
                let (l, c) = info.first_use;
                let what = if info.general {
                    "a 0-1 variable: a General variable needs the bound 'x <= 1' (general-integer variables are not supported)"
                } else {
                    "a 0-1 variable: every variable listed under Binary (or General with 0 <= x <= 1); continuous variables are not supported"
                };
                return Err(ReadError::at(
                    l,
                    c,
                    what,
                    format!("variable '{}'", self.sink.label(v)),
                ));
            }
        }
        self.sink.finish((last.max(1), 0))
    }
}

fn flip(r: Relation) -> Relation {
    match r {
        Relation::AtMost => Relation::AtLeast,
        Relation::AtLeast => Relation::AtMost,
        Relation::Equal => Relation::Equal,
    }
}

/// The family of a row named `name`: `NAME` for `NAME_K` (K a number), else `row`.
pub(crate) fn family_of(name: &str) -> String {
    match name.rsplit_once('_') {
        Some((family, k))
            if !family.is_empty() && !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) =>
        {
            family.to_string()
        }
        _ => "row".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::read_str;
    use crate::model::verify::Verifier;
    use crate::model::Solution;

    #[test]
    fn a_variable_named_like_a_complement_keeps_its_meaning() {
        // `~y` is a variable of the file; `-y` makes the complement of y, which must not take
        // its label (issue 35, item 8: refused as "two variables are labelled '~y'").
        let text =
            "Minimize\n obj: y + ~y\nSubject To\n c: x - y + ~y >= 0\nBinary\n x y ~y\nEnd\n";
        let m = read_str(super::FORMAT, text, "t").unwrap();
        assert_eq!(m.own_variables(), 3);
        let labels: Vec<String> = (0..m.num_variables())
            .map(|v| m.label(v).into_owned())
            .collect();
        assert_eq!(labels, ["y", "~y", "x", "~y#2"]);
        // Brute force over y, ~y, x (the complement follows y): x - y + ~y >= 0 fails only at
        // x = 0, y = 1, ~y = 0.
        let v = Verifier::new(&m);
        let mut feasible = 0;
        for bits in 0..8usize {
            let mut ones: Vec<usize> = (0..3).filter(|i| bits >> i & 1 == 1).collect();
            if bits & 1 == 0 {
                ones.push(3);
            }
            if v.accepts(&Solution::new(ones)) {
                feasible += 1;
            }
        }
        assert_eq!(feasible, 7);
    }

    #[test]
    fn an_objective_naming_variables_is_kept_even_at_cost_zero() {
        // Issue 35, item 8: an all-zero objective was dropped (status solved, `count --optimal`
        // refused), while JSON and OPB keep theirs. An empty one is a feasibility problem.
        let zero = "Maximize\n obj: 0 x + 0 y\nSubject To\n c: x + y >= 1\nBinary\n x y\nEnd\n";
        let m = read_str(super::FORMAT, zero, "t").unwrap();
        let o = m.objective().expect("the objective is kept");
        assert!(o.is_maximize() && o.terms().next().is_none());
        let empty = "Minimize\n obj:\nSubject To\n c: x + y >= 1\nBinary\n x y\nEnd\n";
        assert!(read_str(super::FORMAT, empty, "t")
            .unwrap()
            .objective()
            .is_none());
    }
}
