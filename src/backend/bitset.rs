//! The exact legality engine (`--backend bitset`): plain integer row counts and a legal-variable
//! bitset, driving the shared search of [`crate::backend::search`]. It is the framework's fast
//! path for Sudoku and the yardstick the `vsa` engine is measured against (same search, same
//! steps, only the legality test differs).
//!
//! Cost: placing a variable saves the legal bitset (`variables / 64` words) and clears the word
//! masks of its rows; undoing restores the saved words. A legality query is free (the bitset is
//! kept current). Options: none besides the time limit.

use crate::backend::search::{Layout, LegalityEngine, SearchBackend, VarSet};
use crate::backend::{BackendError, BackendOptions, RowRefusal};

/// The legal set as a bitset. Placing a variable clears the bits of every exact-cover row it
/// sits in (word masks, so a 9x9 Sudoku placement is about 16 word operations) after saving the
/// previous set; undoing restores the saved set (placements are undone in reverse order, as the
/// trait says). A general row keeps its weighted sum: placing adds the variable's weight and
/// clears the row's variables that no longer fit under its upper bound (a prefix of the row,
/// heaviest first, see [`Layout::shut_out`]); undoing subtracts the weight.
#[derive(Debug, Clone, Default)]
pub struct BitsetEngine {
    legal: VarSet,
    saved: Vec<u64>,
    /// Per row: the weight placed in it (kept for general rows only).
    sums: Vec<u64>,
}

impl LegalityEngine for BitsetEngine {
    fn name(&self) -> &'static str {
        "bitset"
    }

    fn reset(&mut self, layout: &Layout) -> Result<(), BackendError> {
        self.legal = VarSet::full(layout.num_vars);
        self.saved.clear();
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

    /// Every row kind: the engine keeps exact weighted row sums, and the search keeps the
    /// lower bounds.
    fn rows_supported(&self, _model: &crate::model::Model) -> Result<(), RowRefusal> {
        Ok(())
    }

    fn place(&mut self, layout: &Layout, var: usize) {
        self.saved.extend_from_slice(self.legal.words());
        if !layout.general {
            for &r in layout.rows_of(var) {
                self.legal.remove_words(layout.row_words(r as usize));
            }
            return;
        }
        self.legal.remove(var);
        for (&r, &w) in layout.rows_of(var).iter().zip(layout.weights_of(var)) {
            let r = r as usize;
            if !layout.general_row[r] {
                self.legal.remove_words(layout.row_words(r));
                continue;
            }
            self.sums[r] += w;
            let out = layout.shut_out(r, self.sums[r]);
            if out == layout.row(r).len() {
                self.legal.remove_words(layout.row_words(r));
                continue;
            }
            for &v in &layout.row(r)[..out] {
                self.legal.remove(v as usize);
            }
        }
    }

    fn unplace(&mut self, layout: &Layout, var: usize) {
        let n = self.legal.words().len();
        let at = self.saved.len() - n;
        self.legal.copy_from(&self.saved[at..]);
        self.saved.truncate(at);
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
