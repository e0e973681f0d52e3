//! The exact legality engine (`--backend bitset`): plain integer row counts and a legal-variable
//! bitset, driving the shared search of [`crate::backend::search`]. It is the framework's fast
//! path for Sudoku and the yardstick the `vsa` engine is measured against (same search, same
//! steps, only the legality test differs).
//!
//! Cost: placing a variable clears the word masks of its rows and logs each word it changes
//! (index and old value); undoing puts the logged words back. The log holds the words the
//! placements on the current path changed, so memory follows the rows placed, not the number
//! of variables times the depth. A legality query is free (the bitset is kept current).
//! Options: none besides the time limit.

use crate::backend::search::{Layout, LegalityEngine, SearchBackend, VarSet};
use crate::backend::{BackendError, BackendOptions, RowRefusal};

/// The legal set as a bitset. Placing a variable clears the bits of every exact-cover row it
/// sits in (word masks, so a 9x9 Sudoku placement is about 16 word operations), logging the old
/// value of each word it changes; undoing puts those back (placements are undone in reverse
/// order, as the trait says). A general row keeps its weighted sum: placing adds the variable's weight and
/// clears the row's variables that no longer fit under its upper bound (a prefix of the row,
/// heaviest first, see [`Layout::shut_out`]); undoing subtracts the weight.
#[derive(Debug, Clone, Default)]
pub struct BitsetEngine {
    legal: VarSet,
    /// The words the placements changed, as `(index, old value)`, oldest first (large sets).
    saved: Vec<(u32, u64)>,
    /// The whole set before each placement on the current path (sets of at most
    /// [`WHOLE_COPY_MAX_WORDS`] words: a copy of a few words costs less than the log).
    copies: Vec<u64>,
    /// Whether placements save whole copies (see `copies`) instead of logging words.
    whole: bool,
    /// Per placement on the current path: the length of `saved` before it.
    marks: Vec<usize>,
    /// Per row: the weight placed in it (kept for general rows only).
    sums: Vec<u64>,
}

/// The largest legal set (in words) that a placement saves whole: up to it a copy costs less
/// than logging the words a placement changes (a 9x9 Sudoku has 12 words), beyond it the log
/// keeps memory to the words changed instead of `variables / 64` per placement.
const WHOLE_COPY_MAX_WORDS: usize = 256;

impl LegalityEngine for BitsetEngine {
    fn name(&self) -> &'static str {
        "bitset"
    }

    fn reset(&mut self, layout: &Layout) -> Result<(), BackendError> {
        self.legal = VarSet::full(layout.num_vars);
        self.saved.clear();
        self.marks.clear();
        self.copies.clear();
        self.whole = self.legal.words().len() <= WHOLE_COPY_MAX_WORDS;
        self.sums.clear();
        self.sums.resize(layout.num_rows, 0);
        if layout.general {
            for r in 0..layout.num_rows {
                if layout.general_row[r] {
                    for &v in &layout.row(r)[..layout.shut_out(r, 0)] {
                        self.legal.remove(v as usize);
                    }
                }
            }
        }
        Ok(())
    }

    fn exact(&self) -> bool {
        true
    }

    /// A placement clears (and its undo restores) words of the placed variable's rows only.
    fn local(&self) -> bool {
        true
    }

    /// Every row kind: the engine keeps exact weighted row sums, and the search keeps the
    /// lower bounds.
    fn rows_supported(&self, _model: &crate::model::Model) -> Result<(), RowRefusal> {
        Ok(())
    }

    fn place(&mut self, layout: &Layout, var: usize) {
        let mut log = if self.whole {
            self.copies.extend_from_slice(self.legal.words());
            None
        } else {
            self.marks.push(self.saved.len());
            Some(&mut self.saved)
        };
        if !layout.general {
            for &r in layout.rows_of(var) {
                let masks = layout.row_words(r as usize);
                self.legal.remove_words_logged(masks, log.as_deref_mut());
            }
            return;
        }
        self.legal.remove_logged(var, log.as_deref_mut());
        for (&r, &w) in layout.rows_of(var).iter().zip(layout.weights_of(var)) {
            let r = r as usize;
            if !layout.general_row[r] {
                self.legal
                    .remove_words_logged(layout.row_words(r), log.as_deref_mut());
                continue;
            }
            self.sums[r] += w;
            let out = layout.shut_out(r, self.sums[r]);
            if out == layout.row(r).len() {
                self.legal
                    .remove_words_logged(layout.row_words(r), log.as_deref_mut());
                continue;
            }
            for &v in &layout.row(r)[..out] {
                self.legal.remove_logged(v as usize, log.as_deref_mut());
            }
        }
    }

    fn unplace(&mut self, layout: &Layout, var: usize) {
        if self.whole {
            let at = self.copies.len() - self.legal.words().len();
            self.legal.copy_from(&self.copies[at..]);
            self.copies.truncate(at);
        } else {
            let at = self.marks.pop().expect("unplace follows a place");
            self.legal.restore(&self.saved[at..]);
            self.saved.truncate(at);
        }
        if layout.general {
            for (&r, &w) in layout.rows_of(var).iter().zip(layout.weights_of(var)) {
                if layout.general_row[r as usize] {
                    self.sums[r as usize] -= w;
                }
            }
        }
    }

    fn legal(&mut self, _layout: &Layout) -> &VarSet {
        &self.legal
    }
}

/// The `bitset` backend: the shared search with [`BitsetEngine`]. Solves and counts, exactly.
pub type BitsetBackend = SearchBackend<BitsetEngine>;

impl BitsetBackend {
    /// A bitset backend; reads only the time limit from `options`.
    pub fn new(options: &BackendOptions) -> Self {
        SearchBackend::with_engine(BitsetEngine::default(), options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Coord, ModelBuilder, PuzzleKind, Sense};

    /// `n` variables, one `>= 1` row over the first two (the rest unconstrained: each gets a
    /// slack partner in the layout).
    fn loose(n: usize) -> crate::model::Model {
        let mut b = ModelBuilder::new("loose", PuzzleKind::Generic);
        for i in 0..n {
            b.variable(format!("v{i}"), Coord::Free);
        }
        let f = b.family("clause");
        b.row(f, vec![0, 1], Sense::AtLeast(1));
        b.build().unwrap()
    }

    #[test]
    fn undo_records_only_the_words_a_placement_changes() {
        // Placing once saved the whole legal bitset (`variables / 64` words), so a path of
        // `n` placements held n^2 / 64 words: 100 MB at 20,000 variables, 4 GB at a million
        // (issue 35). The record must follow the words the placements change.
        let n = 20_000;
        let layout = Layout::new(&loose(n));
        let mut engine = BitsetEngine::default();
        engine.reset(&layout).unwrap();
        let before: Vec<u64> = engine.legal.words().to_vec();
        let mut snapshots = Vec::new();
        for v in 0..n {
            if v % 5_000 == 0 {
                snapshots.push(engine.legal.words().to_vec());
            }
            engine.place(&layout, v);
        }
        assert!(
            engine.saved.len() <= 4 * n,
            "{} words saved for {n} placements",
            engine.saved.len()
        );
        for v in (0..n).rev() {
            engine.unplace(&layout, v);
            if v % 5_000 == 0 {
                assert_eq!(Some(engine.legal.words().to_vec()), snapshots.pop());
            }
        }
        assert_eq!(engine.legal.words(), &before[..]);
        assert!(engine.saved.is_empty());
    }
}
