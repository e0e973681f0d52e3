//! Knuth's exact-cover input, as his DLX1/DLX2/DLX3 and SSXCC programs read it (and
//! `miniexact`):
//!
//! ```text
//! | a comment
//! a b 2:3|c | x y
//! a x:red
//! b c y
//! c x:red
//! ```
//!
//! Lines starting with `|` are comments, blank lines are skipped. The first line names the
//! items: primary ones, then (after a lone `|`) secondary ones. A primary item may carry
//! multiplicities, `u:v|name` or `v|name` (Knuth's DLX3), or `name:u;v` (the `miniexact -m`
//! dialect zeroone's export writes): it is then covered between `u` and `v` times. Every
//! further line is an option: the items it covers, a secondary item perhaps with a colour
//! (`x:red`). Each option is a variable (labelled by its items joined with `,`; a repeated
//! option gets `#2`, `#3`, ...).
//!
//! Rows: a primary item is an "exactly one" row over its options (`u <= sum <= v` with
//! multiplicities: one or two rows of the family `primary`); an uncoloured secondary item
//! an "at most one" row (family `secondary`). A secondary item used with colours gets, per
//! colour `c`, an auxiliary variable `y` ("the item has colour `c`"; see
//! [`crate::model::Derived`]), tied by rows of the family `colour`: `o + ~y <= 1` for each
//! option `o` giving it colour `c` (`o` implies `y`), and `~y + sum o >= 1` (`y` implies one
//! of them); the `secondary` row then says at most one of the colours and the uncoloured
//! options: `sum y + sum uncoloured <= 1`. The rows fix every `y`, so counts are those of
//! Knuth's programs. An item with one colour and no uncoloured use needs no row.
//!
//! With multiplicities, a count is every set of options within the bounds: what DLX3 calls
//! the *total* solutions. Where every item left has its lower bound met and room for all of
//! its options left, DLX3 stops and counts one *core* solution whose `k` options left are
//! free: `2^k` total ("Altogether 1 solution (2 total)"). `miniexact` reports the core count;
//! zeroone's count is the total, as a brute force counts it.
//!
//! Costs: every option is held until the end (the rows are per item); one hash look-up per
//! item name.

use std::collections::{BTreeMap, HashMap};

use super::{exact_integer, quoted, Format, LinearSink, Lit, ReadError, Source, Stopped};
use crate::model::{Model, Relation, VarId};

/// One item of the first line.
struct Item {
    name: String,
    primary: bool,
    /// Covered between `low` and `high` times (primary items).
    low: u64,
    high: u64,
    /// Where it was named.
    at: (usize, usize),
    /// Options holding it without a colour.
    plain: Vec<VarId>,
    /// Options giving it each colour, by colour name.
    coloured: BTreeMap<String, Vec<VarId>>,
}

/// Knuth's exact-cover input (`.xcc`, `.dlx`).
pub const FORMAT: Format = Format::new("xcc", &["xcc", "dlx"], read);

/// Reads an XCC file (see the module docs) as a model named `name`.
pub fn read(lines: &mut Source<'_>, name: &str) -> Result<Model, Stopped> {
    let mut r = Reader {
        sink: LinearSink::new(name),
        items: Vec::new(),
        by_name: HashMap::new(),
        labels: HashMap::new(),
        nonzeros: 0,
    };
    let mut last = 0;
    while let Some((number, line)) = lines.next_line()? {
        last = number;
        let trimmed = line.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        if trimmed.is_empty() || trimmed.starts_with('|') {
            continue;
        }
        let result = if r.items.is_empty() {
            r.items_line(line, number)
        } else {
            r.option(line, number)
        };
        result.map_err(|e| lines.error(e))?;
    }
    r.finish(last).map_err(|e| lines.error(e))
}

struct Reader {
    sink: LinearSink,
    items: Vec<Item>,
    by_name: HashMap<String, usize>,
    /// Options per label, to number repeated ones.
    labels: HashMap<String, usize>,
    nonzeros: usize,
}

/// Whether `name` may name an item: not empty, no `:` or `|`.
fn is_item_name(name: &str) -> bool {
    !name.is_empty() && !name.contains([':', '|', ';'])
}

impl Reader {
    fn items_line(&mut self, line: &str, number: usize) -> Result<(), ReadError> {
        let mut primary = true;
        for (column, word) in super::words(line) {
            if word == "|" {
                if !primary {
                    return Err(ReadError::at(
                        number,
                        column,
                        "one '|' between primary and secondary items",
                        "a second '|'",
                    ));
                }
                primary = false;
                continue;
            }
            let (name, low, high) = if primary {
                multiplicity(word).map_err(|e| ReadError::at(number, column, e, quoted(word)))?
            } else {
                (word, 1, 1)
            };
            if !is_item_name(name) {
                let expected = if primary {
                    "an item name (no ':', '|' or ';'), or u:v|name for a primary item covered u to v times"
                } else {
                    "a secondary item name (no ':', '|' or ';'; multiplicities are for primary items)"
                };
                return Err(ReadError::at(number, column, expected, quoted(word)));
            }
            if self.by_name.contains_key(name) {
                return Err(ReadError::at(
                    number,
                    column,
                    "items named once each",
                    format!("{} a second time", quoted(name)),
                ));
            }
            self.by_name.insert(name.to_string(), self.items.len());
            self.items.push(Item {
                name: name.to_string(),
                primary,
                low,
                high,
                at: (number, column),
                plain: Vec::new(),
                coloured: BTreeMap::new(),
            });
        }
        if self.items.is_empty() {
            return Err(ReadError::at(number, 1, "at least one item", "a lone '|'"));
        }
        Ok(())
    }

    fn option(&mut self, line: &str, number: usize) -> Result<(), ReadError> {
        let words = super::words(line);
        let mut used: Vec<(usize, Option<&str>)> = Vec::with_capacity(words.len());
        for &(column, word) in &words {
            let (name, colour) = match word.split_once(':') {
                Some((n, c)) => (n, Some(c)),
                None => (word, None),
            };
            let Some(&item) = self.by_name.get(name) else {
                return Err(ReadError::at(
                    number,
                    column,
                    "an item named on the first line",
                    quoted(name),
                ));
            };
            if let Some(c) = colour {
                if self.items[item].primary {
                    return Err(ReadError::at(
                        number,
                        column,
                        "a colour on a secondary item only",
                        format!("{} on the primary item {}", quoted(c), quoted(name)),
                    ));
                }
                if !is_item_name(c) {
                    return Err(ReadError::at(
                        number,
                        column,
                        "a colour name after ':' (no ':', '|' or ';')",
                        quoted(word),
                    ));
                }
            }
            if used.iter().any(|&(i, _)| i == item) {
                return Err(ReadError::at(
                    number,
                    column,
                    "each item at most once in an option",
                    format!("{} again", quoted(name)),
                ));
            }
            used.push((item, colour));
        }
        if !used.iter().any(|&(item, _)| self.items[item].primary) {
            // Never chosen by Knuth's programs (see the module docs): left out.
            return Ok(());
        }
        self.nonzeros += used.len();
        if self.nonzeros > super::MAX_NONZEROS {
            let expected = format!(
                "options holding at most {} items in all",
                super::MAX_NONZEROS
            );
            return Err(ReadError::at(number, 1, expected, "more"));
        }
        let text: Vec<&str> = words.iter().map(|w| w.1).collect();
        let mut label = text.join(",");
        let seen = self.labels.entry(label.clone()).or_insert(0);
        *seen += 1;
        if *seen > 1 {
            label = format!("{label}#{seen}");
        }
        let var = self.sink.var(&label, (number, 1))?;
        for (item, colour) in used {
            let item = &mut self.items[item];
            match colour {
                None => item.plain.push(var),
                Some(c) => item.coloured.entry(c.to_string()).or_default().push(var),
            }
        }
        Ok(())
    }

    fn finish(mut self, last: usize) -> Result<Model, ReadError> {
        if self.items.is_empty() {
            return Err(ReadError::at(
                last.max(1),
                0,
                "a first line naming the items",
                "none",
            ));
        }
        let primary = self.sink.family("primary");
        let secondary = self.sink.family("secondary");
        let colour = self.sink.family("colour");
        for item in std::mem::take(&mut self.items) {
            let ones = |vars: &[VarId]| -> Vec<(Lit, i128)> {
                vars.iter().map(|&v| (Lit::pos(v), 1)).collect()
            };
            let row = format!("item {}", quoted(&item.name));
            if item.primary {
                let terms = ones(&item.plain);
                let (low, high) = (i128::from(item.low), i128::from(item.high));
                if low == high {
                    self.sink
                        .row(primary, &terms, Relation::Equal, low, &row, item.at)?;
                } else {
                    self.sink
                        .row(primary, &terms, Relation::AtLeast, low, &row, item.at)?;
                    self.sink
                        .row(primary, &terms, Relation::AtMost, high, &row, item.at)?;
                }
                continue;
            }
            let mut terms = ones(&item.plain);
            if item.coloured.len() + usize::from(!item.plain.is_empty()) > 1 {
                for (c, options) in &item.coloured {
                    let y = self
                        .sink
                        .auxiliary(format!("#colour {}:{c}", item.name), item.at)?;
                    for &o in options {
                        let implies = [(Lit::pos(o), 1), (Lit::neg(y), 1)];
                        self.sink
                            .row(colour, &implies, Relation::AtMost, 1, &row, item.at)?;
                    }
                    let mut needs = ones(options);
                    needs.push((Lit::neg(y), 1));
                    self.sink
                        .row(colour, &needs, Relation::AtLeast, 1, &row, item.at)?;
                    terms.push((Lit::pos(y), 1));
                }
            }
            self.sink
                .row(secondary, &terms, Relation::AtMost, 1, &row, item.at)?;
        }
        self.sink.finish((last.max(1), 0))
    }
}

/// A primary item's name and multiplicities: `u:v|name`, `v|name`, `name:u;v` or `name`.
fn multiplicity(word: &str) -> Result<(&str, u64, u64), String> {
    let number = |s: &str| -> Result<u64, String> {
        match exact_integer(s) {
            Ok(k)
                if k >= 0
                    && !s.starts_with(['+', '-'])
                    && s.bytes().all(|b| b.is_ascii_digit()) =>
            {
                Ok(k as u64)
            }
            _ => Err("multiplicities u:v that are whole numbers with u <= v".into()),
        }
    };
    let (name, low, high) = if let Some((bounds, name)) = word.split_once('|') {
        match bounds.split_once(':') {
            Some((u, v)) => (name, number(u)?, number(v)?),
            None => {
                let v = number(bounds)?;
                (name, v, v)
            }
        }
    } else if let Some((name, bounds)) = word.split_once(':') {
        let Some((u, v)) = bounds.split_once(';') else {
            return Err("name:u;v for a primary item covered u to v times".into());
        };
        (name, number(u)?, number(v)?)
    } else {
        (word, 1, 1)
    };
    if low > high {
        return Err("multiplicities u:v that are whole numbers with u <= v".into());
    }
    Ok((name, low, high))
}
