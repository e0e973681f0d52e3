//! The exact legality engine (`--backend bitset`): plain integer row counts and a legal-variable
//! bitset, driving the shared search of [`crate::backend::search`]. It is the framework's fast
//! path for Sudoku and the yardstick the `vsa` engine is measured against (same search, same
//! steps, only the legality test differs).
//!
//! Cost: placing a variable saves the legal bitset (`variables / 64` words) and clears the word
//! masks of its rows; undoing restores the saved words. A legality query is free (the bitset is
//! kept current). Options: none besides the time limit.

use crate::backend::search::{Layout, LegalityEngine, SearchBackend, VarSet};
use crate::backend::{BackendError, BackendOptions};

/// The legal set as a bitset. Placing a variable clears the bits of every row it sits in (word
/// masks, so a 9x9 Sudoku placement is about 16 word operations) after saving the previous set;
/// undoing restores the saved set (placements are undone in reverse order, as the trait says).
#[derive(Debug, Clone, Default)]
pub struct BitsetEngine {
    legal: VarSet,
    saved: Vec<u64>,
}

impl LegalityEngine for BitsetEngine {
    fn name(&self) -> &'static str {
        "bitset"
    }

    fn reset(&mut self, layout: &Layout) -> Result<(), BackendError> {
        self.legal = VarSet::full(layout.num_vars);
        self.saved.clear();
        Ok(())
    }

    fn exact(&self) -> bool {
        true
    }

    fn place(&mut self, layout: &Layout, var: usize) {
        self.saved.extend_from_slice(self.legal.words());
        for &r in layout.rows_of(var) {
            self.legal.remove_words(layout.row_words(r as usize));
        }
    }

    fn unplace(&mut self, _layout: &Layout, _var: usize) {
        let n = self.legal.words().len();
        let at = self.saved.len() - n;
        self.legal.copy_from(&self.saved[at..]);
        self.saved.truncate(at);
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
