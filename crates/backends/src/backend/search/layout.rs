//! The model flattened for the search and its engines: [`Layout`] (rows and columns as
//! compressed lists, slack variables, cliques of demand rows) and the [`VarSet`] bit set.

use crate::model::{Model, Sense};

/// A fixed-size set of variables, one bit each. Cost: `n / 64` words.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct VarSet {
    pub(super) words: Vec<u64>,
}

impl VarSet {
    /// An empty set able to hold ids below `n`.
    pub fn new(n: usize) -> Self {
        VarSet {
            words: vec![0; n.div_ceil(64)],
        }
    }

    /// Whether `v` is in the set.
    #[inline]
    pub fn contains(&self, v: usize) -> bool {
        self.words[v >> 6] >> (v & 63) & 1 == 1
    }

    /// Adds `v`.
    #[inline]
    pub fn insert(&mut self, v: usize) {
        self.words[v >> 6] |= 1 << (v & 63);
    }

    /// Removes `v`.
    #[inline]
    pub fn remove(&mut self, v: usize) {
        self.words[v >> 6] &= !(1 << (v & 63));
    }

    /// The underlying words (bit `v & 63` of word `v >> 6` is variable `v`).
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Makes this set a copy of `other` (same capacity).
    #[inline]
    pub fn copy_from(&mut self, other: &[u64]) {
        self.words.copy_from_slice(other);
    }

    /// Removes every member of a row given as `(word index, mask)` pairs.
    #[inline]
    pub fn remove_words(&mut self, masks: &[(u32, u64)]) {
        for &(w, m) in masks {
            self.words[w as usize] &= !m;
        }
    }

    /// [`VarSet::remove_words`] that logs each word it changes, as `(index, old value)`, in
    /// `log` when there is one (for [`VarSet::restore`]). Cost: the row's words; the log grows
    /// by those it changes.
    #[inline]
    pub fn remove_words_logged(&mut self, masks: &[(u32, u64)], log: Option<&mut Vec<(u32, u64)>>) {
        let Some(log) = log else {
            return self.remove_words(masks);
        };
        for &(w, m) in masks {
            let old = self.words[w as usize];
            if old & m != 0 {
                log.push((w, old));
                self.words[w as usize] = old & !m;
            }
        }
    }

    /// [`VarSet::remove`] that logs the word it changes in `log`, as
    /// [`VarSet::remove_words_logged`] does.
    #[inline]
    pub fn remove_logged(&mut self, v: usize, log: Option<&mut Vec<(u32, u64)>>) {
        self.remove_words_logged(&[((v >> 6) as u32, 1 << (v & 63))], log);
    }

    /// Undoes logged removals: puts back the old value of every word of `log`, latest first.
    #[inline]
    pub fn restore(&mut self, log: &[(u32, u64)]) {
        for &(w, old) in log.iter().rev() {
            self.words[w as usize] = old;
        }
    }

    /// A set holding every id below `n`.
    pub fn full(n: usize) -> Self {
        let mut s = VarSet::new(n);
        for (i, w) in s.words.iter_mut().enumerate() {
            let left = n - i * 64;
            *w = if left >= 64 {
                u64::MAX
            } else {
                (1u64 << left) - 1
            };
        }
        s
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }
}

/// The model flattened for the search and the engines: rows and columns as compressed lists,
/// plus slack variables (see the module docs). Built once per solve; cost linear in the nonzeros
/// (plus a sort of each general row by weight).
#[derive(Debug, Clone)]
pub struct Layout {
    /// Variables of the model (ids below this are model variables).
    pub model_vars: usize,
    /// Model variables plus slack variables.
    pub num_vars: usize,
    /// Rows: the model's rows in order, then one slack row per slack variable.
    pub num_rows: usize,
    pub(super) row_start: Vec<u32>,
    pub(super) row_vars: Vec<u32>,
    pub(super) row_weights: Vec<u64>,
    pub(super) var_start: Vec<u32>,
    pub(super) var_rows: Vec<u32>,
    pub(super) var_weights: Vec<u64>,
    /// Per row: whether it is an "exactly one" row.
    pub exactly_one: Vec<bool>,
    /// Per row: whether it is a general row (not `= 1` / `<= 1` on unit weights). A general
    /// row lists its variables heaviest first (ties by id), so the variables a partial sum
    /// shuts out are always a prefix of the row.
    pub general_row: Vec<bool>,
    /// Whether any row is general (the exact-cover fast paths are taken when not).
    pub general: bool,
    /// Per row: the smallest weighted sum it allows (1 for "exactly one", 0 for `<=` rows).
    pub lower: Vec<u64>,
    /// Per row: the largest weighted sum it allows (`u64::MAX` for `>=` rows).
    pub upper: Vec<u64>,
    /// Per row: its largest weight.
    pub max_weight: Vec<u64>,
    /// General rows with a positive lower bound (`= k`, `>= k`): the rows the search must
    /// fill, besides the "exactly one" rows.
    pub demand_rows: Vec<u32>,
    /// Per row: its family (the model's family ids; slack rows get `families.len() - 1`).
    pub row_family: Vec<u32>,
    /// Per row: its index inside its family.
    pub row_index: Vec<u32>,
    /// Family names (the model's, then `slack` when slack rows exist).
    pub families: Vec<String>,
    /// Number of rows in each family.
    pub family_rows: Vec<u32>,
    /// The givens (model variable ids).
    pub givens: Vec<usize>,
    /// The longest row of the model.
    pub max_row_len: usize,
    pub(super) word_start: Vec<u32>,
    pub(super) word_masks: Vec<(u32, u64)>,
    /// Per nonzero (indexed like the rows' variables), plus one: where its cliques start in
    /// `cliques`. Empty when no row is general.
    pub(super) clique_start: Vec<u32>,
    /// For each position `i` of a demand row of 2 to 128 variables: the exact-cover rows
    /// (`= 1`, `<= 1`) through its variable that hold at least two of the row's variables, as
    /// (row, mask of the row positions they hold). See [`State::propagate_cover`].
    pub(super) cliques: Vec<Clique>,
    /// Per row when general rows exist: the most positions one of its cliques holds (0 when
    /// it has none).
    pub(super) clique_width: Vec<u32>,
    /// Per variable, plus one, when general rows exist: where its entries start in `tracked`.
    pub(super) tracked_start: Vec<u32>,
    /// The (variable, row) pairs whose legal count the search keeps when general rows exist
    /// (see [`Layout::tracked`]), grouped by variable.
    pub(super) tracked: Vec<TrackedRow>,
}

/// What the clique cover of a demand row says (see [`State::propagate_cover`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Cover {
    /// The cover bound exceeds the need (or no cover was tried): nothing follows.
    Loose,
    /// The bound is below the need: the row cannot be filled.
    Short,
    /// The bound equals the need: every part must take one of its heaviest variables.
    Tight,
}

/// An exact-cover row through a variable of a demand row, seen from that demand row.
#[derive(Debug, Clone, Copy)]
pub(super) struct Clique {
    /// The exact-cover row.
    pub(super) row: u32,
    /// How many of the demand row's variables it holds (at least two).
    pub(super) width: u32,
    /// Those variables, as positions in the demand row.
    pub(super) mask: u128,
}

/// One row of a variable whose legal count and weight [`State::sync`] keeps up to date.
#[derive(Debug, Clone, Copy)]
pub(super) struct TrackedRow {
    pub(super) row: u32,
    /// What losing a legal variable means for the row: see [`TrackedRow::DEMAND`].
    pub(super) kind: u32,
    pub(super) weight: u64,
}

impl TrackedRow {
    /// An "exactly one" row: queued when at most one legal variable is left.
    pub(super) const EXACTLY_ONE: u32 = 0;
    /// A general row with a lower bound: queued whenever it loses a variable.
    pub(super) const DEMAND: u32 = 1;
    /// A general row without a lower bound: counted, never queued.
    pub(super) const UPPER: u32 = 2;
}

impl Layout {
    /// Flattens `model`. Cost: two passes over the nonzeros.
    pub fn new(model: &Model) -> Layout {
        let n = model.num_variables();
        let cons = model.constraints();
        // A variable in an equation is settled once that equation holds (every other variable
        // of a full `= k` row would overshoot); the others get slack partners.
        let mut in_eq = vec![false; n];
        for c in cons {
            if c.sense.is_equality() {
                for &v in &c.vars {
                    in_eq[v] = true;
                }
            }
        }
        let slack: Vec<usize> = (0..n).filter(|&v| !in_eq[v]).collect();
        let num_vars = n + slack.len();
        let num_rows = cons.len() + slack.len();
        let mut families: Vec<String> = model.families().iter().map(|f| f.name.clone()).collect();
        let mut family_rows: Vec<u32> = model
            .families()
            .iter()
            .map(|f| f.rows.len() as u32)
            .collect();
        if !slack.is_empty() {
            families.push("slack".into());
            family_rows.push(slack.len() as u32);
        }
        let slack_family = families.len().saturating_sub(1) as u32;
        let mut l = Layout {
            model_vars: n,
            num_vars,
            num_rows,
            row_start: Vec::with_capacity(num_rows + 1),
            row_vars: Vec::with_capacity(model.nonzeros() + 2 * slack.len()),
            row_weights: Vec::with_capacity(model.nonzeros() + 2 * slack.len()),
            var_start: Vec::new(),
            var_rows: Vec::new(),
            var_weights: Vec::new(),
            exactly_one: Vec::with_capacity(num_rows),
            general_row: Vec::with_capacity(num_rows),
            general: false,
            lower: Vec::with_capacity(num_rows),
            upper: Vec::with_capacity(num_rows),
            max_weight: Vec::with_capacity(num_rows),
            demand_rows: Vec::new(),
            row_family: Vec::with_capacity(num_rows),
            row_index: Vec::with_capacity(num_rows),
            families,
            family_rows,
            givens: model.givens().to_vec(),
            max_row_len: 0,
            word_start: Vec::new(),
            word_masks: Vec::new(),
            clique_start: Vec::new(),
            cliques: Vec::new(),
            clique_width: Vec::new(),
            tracked_start: Vec::new(),
            tracked: Vec::new(),
        };
        let mut terms: Vec<(usize, u64)> = Vec::new();
        for c in cons {
            terms.clear();
            terms.extend(c.terms());
            let general = !c.is_unit();
            if general {
                terms.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            }
            let (low, high) = c.sense.bounds();
            l.push_row(&terms, c.sense == Sense::ExactlyOne, general, (low, high));
            l.row_family.push(c.family as u32);
            l.row_index.push(c.index as u32);
        }
        for (i, &v) in slack.iter().enumerate() {
            l.push_row(&[(v, 1), (n + i, 1)], true, false, (1, Some(1)));
            l.row_family.push(slack_family);
            l.row_index.push(i as u32);
        }
        l.row_start.push(l.row_vars.len() as u32);
        l.general = l.general_row.iter().any(|&g| g);
        l.demand_rows = (0..num_rows)
            .filter(|&r| l.general_row[r] && l.lower[r] > 0)
            .map(|r| r as u32)
            .collect();
        l.build_columns();
        l.build_word_masks();
        l.build_cliques();
        l.build_tracked();
        l
    }

    /// The tracked rows of every variable (see [`Layout::tracked`]). Cost: one pass over the
    /// nonzeros; nothing when no row is general.
    pub(super) fn build_tracked(&mut self) {
        if !self.general {
            return;
        }
        self.tracked_start = Vec::with_capacity(self.num_vars + 1);
        for v in 0..self.num_vars {
            self.tracked_start.push(self.tracked.len() as u32);
            let (start, end) = (self.var_start[v] as usize, self.var_start[v + 1] as usize);
            for i in start..end {
                let r = self.var_rows[i] as usize;
                let kind = if self.exactly_one[r] {
                    TrackedRow::EXACTLY_ONE
                } else if !self.general_row[r] {
                    continue;
                } else if self.lower[r] > 0 {
                    TrackedRow::DEMAND
                } else {
                    TrackedRow::UPPER
                };
                self.tracked.push(TrackedRow {
                    row: r as u32,
                    kind,
                    weight: self.var_weights[i],
                });
            }
        }
        self.tracked_start.push(self.tracked.len() as u32);
    }

    /// The tracked rows of `v` (general rows exist).
    #[inline]
    pub(super) fn tracked_of(&self, v: usize) -> &[TrackedRow] {
        &self.tracked[self.tracked_start[v] as usize..self.tracked_start[v + 1] as usize]
    }

    /// The cliques of every demand row (see [`Layout::cliques_at`]). Cost: for each variable
    /// of a demand row, the lengths of the exact-cover rows through it; nothing when no row is
    /// general.
    pub(super) fn build_cliques(&mut self) {
        if !self.general {
            return;
        }
        let mut demand = vec![false; self.num_rows];
        for &r in &self.demand_rows {
            demand[r as usize] = true;
        }
        // Per exact-cover row, the positions of the current demand row it holds, and how many.
        let mut through = vec![(0u128, 0u32); self.num_rows];
        let mut cliques = Vec::new();
        let mut clique_start = Vec::with_capacity(self.row_vars.len() + 1);
        let mut clique_width = vec![0; self.num_rows];
        let is_clique = |q: u32| !self.general_row[q as usize];
        for r in 0..self.num_rows {
            let vars = self.row(r);
            if !demand[r] || !(2..=128).contains(&vars.len()) {
                clique_start.extend(std::iter::repeat_n(cliques.len() as u32, vars.len()));
                continue;
            }
            for (i, &v) in vars.iter().enumerate() {
                for &q in self.rows_of(v as usize).iter().filter(|&&q| is_clique(q)) {
                    let (mask, width) = &mut through[q as usize];
                    *mask |= 1 << i;
                    *width += 1;
                }
            }
            let from = cliques.len();
            for &v in vars {
                clique_start.push(cliques.len() as u32);
                let at = cliques.len();
                for &q in self.rows_of(v as usize).iter().filter(|&&q| is_clique(q)) {
                    let (mask, width) = through[q as usize];
                    if width >= 2 {
                        cliques.push(Clique {
                            row: q,
                            width,
                            mask,
                        });
                    }
                }
                // Widest first: the search stops at the first narrower than its best part.
                if cliques.len() - at > 1 {
                    cliques[at..].sort_unstable_by_key(|c| (std::cmp::Reverse(c.width), c.row));
                }
            }
            for &v in vars {
                for &q in self.rows_of(v as usize) {
                    through[q as usize] = (0, 0);
                }
            }
            clique_width[r] = cliques[from..].iter().map(|c| c.width).max().unwrap_or(0);
        }
        clique_start.push(cliques.len() as u32);
        (self.cliques, self.clique_start, self.clique_width) =
            (cliques, clique_start, clique_width);
    }

    /// The cliques through position `i` of row `r`: exact-cover rows holding that variable
    /// and at least one more of row `r`, each with the mask of row `r`'s positions it holds.
    /// Empty unless `r` is a demand row of at most 128 variables.
    #[inline]
    pub(super) fn cliques_at(&self, r: usize, i: usize) -> &[Clique] {
        if self.clique_start.is_empty() {
            return &[];
        }
        let at = self.row_start[r] as usize + i;
        &self.cliques[self.clique_start[at] as usize..self.clique_start[at + 1] as usize]
    }

    /// Whether any position of row `r` has a clique.
    #[inline]
    pub(super) fn has_cliques(&self, r: usize) -> bool {
        self.clique_width.get(r).is_some_and(|&w| w > 0)
    }

    pub(super) fn push_row(
        &mut self,
        terms: &[(usize, u64)],
        exactly_one: bool,
        general: bool,
        bounds: (u64, Option<u64>),
    ) {
        self.row_start.push(self.row_vars.len() as u32);
        self.row_vars.extend(terms.iter().map(|&(v, _)| v as u32));
        self.row_weights.extend(terms.iter().map(|&(_, w)| w));
        self.exactly_one.push(exactly_one);
        self.general_row.push(general);
        self.lower.push(bounds.0);
        self.upper.push(bounds.1.unwrap_or(u64::MAX));
        self.max_weight
            .push(terms.iter().map(|&(_, w)| w).max().unwrap_or(1));
        self.max_row_len = self.max_row_len.max(terms.len());
    }

    /// Columns by counting sort, each with the variable's weight in that row.
    pub(super) fn build_columns(&mut self) {
        let mut deg = vec![0u32; self.num_vars + 1];
        for &v in &self.row_vars {
            deg[v as usize + 1] += 1;
        }
        for i in 0..self.num_vars {
            deg[i + 1] += deg[i];
        }
        self.var_start = deg.clone();
        let mut fill = deg;
        self.var_rows = vec![0u32; self.row_vars.len()];
        self.var_weights = vec![0u64; self.row_vars.len()];
        for r in 0..self.num_rows {
            let (start, end) = (self.row_start[r] as usize, self.row_start[r + 1] as usize);
            for i in start..end {
                let v = self.row_vars[i] as usize;
                self.var_rows[fill[v] as usize] = r as u32;
                self.var_weights[fill[v] as usize] = self.row_weights[i];
                fill[v] += 1;
            }
        }
    }

    /// Each row as (word index, bit mask) pairs over the variable bitset.
    pub(super) fn build_word_masks(&mut self) {
        self.word_start = Vec::with_capacity(self.num_rows + 1);
        for r in 0..self.num_rows {
            self.word_start.push(self.word_masks.len() as u32);
            let first = self.word_masks.len();
            for i in self.row_start[r] as usize..self.row_start[r + 1] as usize {
                let v = self.row_vars[i];
                let (w, bit) = (v >> 6, 1u64 << (v & 63));
                match self.word_masks[first..].iter_mut().find(|(x, _)| *x == w) {
                    Some((_, m)) => *m |= bit,
                    None => self.word_masks.push((w, bit)),
                }
            }
        }
        self.word_start.push(self.word_masks.len() as u32);
    }

    /// The model variable a variable stands for in a proof: `(v, true)` for a model variable
    /// `v` (placing it sets it to 1), `(partner, false)` for a slack variable (placing it sets
    /// its partner, the one model variable of its slack row, to 0). Constant time.
    pub fn decision_literal(&self, v: usize) -> (usize, bool) {
        if v < self.model_vars {
            return (v, true);
        }
        let slack_rows = self.num_vars - self.model_vars;
        let r = self.num_rows - slack_rows + (v - self.model_vars);
        (self.row(r)[0] as usize, false)
    }

    /// The variables of row `r` (a general row lists them heaviest first).
    #[inline]
    pub fn row(&self, r: usize) -> &[u32] {
        &self.row_vars[self.row_start[r] as usize..self.row_start[r + 1] as usize]
    }

    /// The weights of row `r`, parallel to [`Layout::row`].
    #[inline]
    pub fn row_weights(&self, r: usize) -> &[u64] {
        &self.row_weights[self.row_start[r] as usize..self.row_start[r + 1] as usize]
    }

    /// Row `r` as `(word index, mask)` pairs over a [`VarSet`] of all variables.
    #[inline]
    pub fn row_words(&self, r: usize) -> &[(u32, u64)] {
        &self.word_masks[self.word_start[r] as usize..self.word_start[r + 1] as usize]
    }

    /// Whether the search keeps a legal count for row `r` when general rows exist: "exactly
    /// one" and general rows; an "at most one" row's count only matters to LCV, which then
    /// counts its legal variables on demand (see [`State::candidates`]).
    #[inline]
    pub(super) fn tracked(&self, r: usize) -> bool {
        self.exactly_one[r] || self.general_row[r]
    }

    /// The rows variable `v` sits in.
    #[inline]
    pub fn rows_of(&self, v: usize) -> &[u32] {
        &self.var_rows[self.var_start[v] as usize..self.var_start[v + 1] as usize]
    }

    /// The weights of `v` in its rows, parallel to [`Layout::rows_of`].
    #[inline]
    pub fn weights_of(&self, v: usize) -> &[u64] {
        &self.var_weights[self.var_start[v] as usize..self.var_start[v + 1] as usize]
    }

    /// How many of row `r`'s variables (a prefix, heaviest first) a weighted sum of `sum`
    /// shuts out: those whose weight would take the row past its upper bound. Every
    /// variable of a full `= 1` / `<= 1` row; none of a `>=` row. Cost: the prefix length.
    #[inline]
    pub fn shut_out(&self, r: usize, sum: u64) -> usize {
        let upper = self.upper[r];
        if upper == u64::MAX {
            return 0;
        }
        let weights = self.row_weights(r);
        if sum > upper || (sum == upper && self.max_weight[r] == 1) {
            return weights.len();
        }
        if self.max_weight[r] == 1 {
            return 0;
        }
        let room = upper - sum;
        weights.iter().take_while(|&&w| w > room).count()
    }
}
