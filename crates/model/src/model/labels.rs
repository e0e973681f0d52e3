//! [`Labels`]: the labels a model stores for its variables, where some variable's label is not
//! the one its coordinates make ([`crate::model::coord_label`]). The first variables may be
//! *numbered* (`x1`, `x2`, ... in order, as a CNF or OPB header declares them): their labels
//! are made from their ids when asked for, so a file declaring millions of variables it never
//! uses costs no string per variable (issue 35: `p cnf 8388608 1` held 8 M boxed strings).

use std::borrow::Cow;

/// Stored labels: variables `0..numbered` are `x1..x{numbered}` (made on demand), variable
/// `numbered + i` is `stored[i]`. Costs 16 bytes and one allocation per stored label, nothing
/// per numbered one.
#[derive(Debug, Clone, Default)]
pub(super) struct Labels {
    numbered: usize,
    stored: Vec<Box<str>>,
}

impl Labels {
    /// The labels `x1..x{n}` of the first `n` variables, none stored.
    pub(super) fn numbered(n: usize) -> Labels {
        Labels {
            numbered: n,
            stored: Vec::new(),
        }
    }

    /// Every label given, stored.
    pub(super) fn stored(stored: Vec<Box<str>>) -> Labels {
        Labels {
            numbered: 0,
            stored,
        }
    }

    /// How many variables have a label here.
    pub(super) fn len(&self) -> usize {
        self.numbered + self.stored.len()
    }

    /// The label of variable `v` (which must have one). A numbered label costs one small
    /// allocation.
    pub(super) fn get(&self, v: usize) -> Cow<'_, str> {
        match v.checked_sub(self.numbered) {
            None => Cow::Owned(format!("x{}", v + 1)),
            Some(i) => Cow::Borrowed(&self.stored[i]),
        }
    }

    /// Appends the label of the next variable.
    pub(super) fn push(&mut self, label: Box<str>) {
        self.stored.push(label);
    }

    /// Whether `label` is the label of a numbered variable (`xK`, `K` in `1..=numbered`
    /// written without leading zeros). Free of allocation.
    pub(super) fn is_numbered(&self, label: &str) -> bool {
        let Some(digits) = label.strip_prefix('x') else {
            return false;
        };
        if digits.starts_with('0')
            || digits.is_empty()
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return false;
        }
        digits
            .parse::<usize>()
            .is_ok_and(|k| (1..=self.numbered).contains(&k))
    }

    /// The stored labels with the id of their variable.
    pub(super) fn stored_labels(&self) -> impl Iterator<Item = (usize, &str)> {
        (self.numbered..).zip(self.stored.iter().map(|l| &**l))
    }

    /// Replaces the stored label of variable `v` (which must not be numbered).
    pub(super) fn set(&mut self, v: usize, label: Box<str>) {
        self.stored[v - self.numbered] = label;
    }

    /// The first label that two variables share, if any. Costs one hash per stored label and
    /// one parse of each stored label that looks numbered.
    pub(super) fn first_duplicate(&self) -> Option<&str> {
        let mut seen = std::collections::HashSet::with_capacity(self.stored.len());
        self.stored
            .iter()
            .map(|l| &**l)
            .find(|&l| self.is_numbered(l) || !seen.insert(l))
    }

    /// The labels after moving variable `old` to `new_id[old]` for every variable (a
    /// permutation). Numbered labels stay numbered while the move keeps them in place;
    /// otherwise every label is stored.
    pub(super) fn moved(self, new_id: &[usize]) -> Labels {
        let k = self.numbered;
        if (0..k).all(|v| new_id[v] == v) {
            // The numbered variables keep ids 0..k, so the others move among k.. only.
            let mut stored = vec![Box::<str>::default(); self.stored.len()];
            for (i, label) in self.stored.into_iter().enumerate() {
                stored[new_id[k + i] - k] = label;
            }
            return Labels {
                numbered: k,
                stored,
            };
        }
        let mut moved = vec![Box::<str>::default(); self.len()];
        for (old, &new) in new_id.iter().enumerate().take(self.len()) {
            moved[new] = self.get(old).into();
        }
        Labels::stored(moved)
    }
}

/// The names a model's rows were given in their file (an LP row `cov3: x + y >= 1`, an MPS
/// row): `(row id, name)` pairs sorted by row id, for the named rows only. A model whose rows
/// have no names of their own (every puzzle, every OPB or CNF file) holds an empty list: no
/// allocation at all. Costs 24 bytes and one allocation per named row; a look-up is a binary
/// search.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct RowLabels {
    named: Vec<(usize, Box<str>)>,
}

impl RowLabels {
    /// The name of row `r`, if it has one.
    pub(super) fn get(&self, r: usize) -> Option<&str> {
        let i = self.named.binary_search_by_key(&r, |(row, _)| *row).ok()?;
        Some(&self.named[i].1)
    }

    /// Names row `r` (replacing an earlier name of it). Cheap when rows are named in order,
    /// as readers do.
    pub(super) fn set(&mut self, r: usize, label: Box<str>) {
        match self.named.binary_search_by_key(&r, |(row, _)| *row) {
            Ok(i) => self.named[i].1 = label,
            Err(i) => self.named.insert(i, (r, label)),
        }
    }

    /// Whether no row is named.
    pub(super) fn is_empty(&self) -> bool {
        self.named.is_empty()
    }

    /// The named rows, in row order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (usize, &str)> {
        self.named.iter().map(|(r, l)| (*r, &**l))
    }

    /// The names after the rows moved: row `r` becomes `new_row(r)`, or is dropped with its
    /// name when that is `None`. Costs a copy of each kept name and a sort.
    pub(super) fn renumbered(&self, new_row: impl Fn(usize) -> Option<usize>) -> RowLabels {
        let mut named: Vec<(usize, Box<str>)> = (self.named.iter())
            .filter_map(|(r, l)| Some((new_row(*r)?, l.clone())))
            .collect();
        named.sort_unstable_by_key(|(r, _)| *r);
        RowLabels { named }
    }
}
