//! What an engine plugs into the search: the [`LegalityEngine`] trait, and [`RowGate`], which
//! turns the row sums an engine reads into the legal set.

use super::layout::{Layout, VarSet};
use crate::backend::{BackendError, RowRefusal, Stats};
use crate::model::Model;

/// Decides which variables are legal: a variable is legal when none of its rows holds a placed
/// variable. The search tells the engine every placement and every undo; the engine answers
/// with the legal set. Engines may be approximate ([`LegalityEngine::exact`] false); the search
/// then never claims infeasibility or an exhaustive count, and the verifier judges any answer.
pub trait LegalityEngine {
    /// Short name (`bitset`, `vsa`).
    fn name(&self) -> &'static str;
    /// Prepares for a new model; forgets all placements. Called once per solve.
    fn reset(&mut self, layout: &Layout) -> Result<(), BackendError>;
    /// Whether the engine's answers are exact for the layout given to the last `reset`.
    fn exact(&self) -> bool;
    /// Records that `var` is placed (set to 1).
    fn place(&mut self, layout: &Layout, var: usize);
    /// Undoes a [`LegalityEngine::place`] of `var` (placements are undone in reverse order).
    fn unplace(&mut self, layout: &Layout, var: usize);
    /// The legal variables given the current placements (placed variables are never legal).
    fn legal(&mut self, layout: &Layout) -> &VarSet;
    /// Whether placing or taking back a variable changes the legality of the variables of its
    /// own rows only (then the search reads back only those words of the legal set after a
    /// step, instead of all `variables / 64`). False unless the engine promises it.
    fn local(&self) -> bool {
        false
    }
    /// Adds engine-specific figures (FFT batches, ...) to `stats.extra`.
    fn report(&self, _stats: &mut Stats) {}
    /// `Err` naming the first row of `model` the engine cannot read exactly, and why. Every
    /// engine says which rows it reads (no default; the search itself keeps the sums and
    /// bounds of general rows, so an exact engine reads every row kind). Should cost at most
    /// one scan of the rows.
    fn rows_supported(&self, model: &Model) -> Result<(), RowRefusal>;
}

/// Turns row sums into the legal set: tracks, per row, the weighted sum an engine read for it
/// and how many of its variables (a prefix, heaviest first) that sum shuts out (see
/// [`Layout::shut_out`]), and per variable how many rows shut it out. Shared by the engines so
/// that they differ only in how they learn the sums. An exact-cover row is the case where a
/// sum of 1 shuts out the whole row. Cost per sum change: the change in the prefix.
#[derive(Debug, Clone, Default)]
pub struct RowGate {
    pub(super) sums: Vec<u64>,
    pub(super) shut: Vec<u32>,
    pub(super) blocked: Vec<u32>,
    pub(super) legal: VarSet,
}

impl RowGate {
    /// All sums 0, every variable legal unless a row's bound already shuts it out (a weight
    /// above the row's right-hand side, or any variable of a `= 0` row).
    pub fn reset(&mut self, layout: &Layout) {
        self.sums.clear();
        self.sums.resize(layout.num_rows, 0);
        self.shut.clear();
        self.shut.resize(layout.num_rows, 0);
        self.blocked.clear();
        self.blocked.resize(layout.num_vars, 0);
        self.legal = VarSet::full(layout.num_vars);
        for r in 0..layout.num_rows {
            if layout.general_row[r] {
                let shut = layout.shut_out(r, 0);
                self.shut[r] = shut as u32;
                for &v in &layout.row(r)[..shut] {
                    self.block(v as usize);
                }
            }
        }
    }

    /// The sum last read for row `r`.
    #[inline]
    pub fn sum(&self, r: usize) -> u64 {
        self.sums[r]
    }

    /// Marks row `r` occupied (sum 1) or free (sum 0): the exact-cover case of
    /// [`RowGate::set_sum`].
    #[inline]
    pub fn set(&mut self, layout: &Layout, r: usize, occupied: bool) {
        self.set_sum(layout, r, occupied as u64);
    }

    /// Records that row `r`'s weighted sum reads `sum`, updating the legality of the variables
    /// it shuts out or lets back in.
    #[inline]
    pub fn set_sum(&mut self, layout: &Layout, r: usize, sum: u64) {
        if self.sums[r] == sum {
            return;
        }
        self.sums[r] = sum;
        let old = self.shut[r] as usize;
        let new = layout.shut_out(r, sum);
        if old == new {
            return;
        }
        self.shut[r] = new as u32;
        let row = layout.row(r);
        if new > old {
            for &v in &row[old..new] {
                self.block(v as usize);
            }
        } else {
            for &v in &row[new..old] {
                self.unblock(v as usize);
            }
        }
    }

    /// Marks a placed variable illegal (`placed`) or lets it back (a placed variable is never
    /// legal, even when its rows have room for it again).
    #[inline]
    pub fn set_placed(&mut self, var: usize, placed: bool) {
        if placed {
            self.block(var);
        } else {
            self.unblock(var);
        }
    }

    #[inline]
    pub(super) fn block(&mut self, v: usize) {
        if self.blocked[v] == 0 {
            self.legal.remove(v);
        }
        self.blocked[v] += 1;
    }

    #[inline]
    pub(super) fn unblock(&mut self, v: usize) {
        self.blocked[v] -= 1;
        if self.blocked[v] == 0 {
            self.legal.insert(v);
        }
    }

    /// The legal set.
    #[inline]
    pub fn legal(&self) -> &VarSet {
        &self.legal
    }
}
