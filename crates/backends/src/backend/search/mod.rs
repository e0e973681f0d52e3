//! One backtracking search for every model, with a pluggable legality engine.
//!
//! The search ([`run`]) works on any [`Model`](crate::model::Model): it places variables (sets them to 1) and asks a
//! [`LegalityEngine`] which variables are still legal, i.e. would take none of their rows past
//! its upper bound (for an exact-cover row: sit in no row that already holds a placed
//! variable). Two engines drive it: [`crate::backend::bitset`] (exact row sums) and
//! [`crate::backend::vsa`] (bundled shift-code vectors queried by FFT circular correlation), so
//! the cost of the vector representation is measured against the very same steps.
//!
//! Rows are `sum_i w_i x_i (=, <=, >=) k`. Upper bounds (`= k`, `<= k`) are the engines'
//! business: a variable whose weight no longer fits is not legal. Lower bounds (`= k`, `>= k`)
//! are the search's: each such row keeps its placed weight `sum` and the weight still
//! placeable `avail` (that of its legal variables).
//!
//! The search itself:
//! - **Propagation to a fixed point** with one general rule: a row with lower bound `k` and
//!   `sum < k` has slack `sum + avail - k`; every legal variable heavier than the slack is
//!   forced (without it the row cannot reach `k`). With unit weights: slack 0 forces every
//!   remaining candidate. For "exactly one" rows this is the single rule "a single legal
//!   variable is forced"; on Sudoku it covers naked singles (a `cell` row) and hidden singles
//!   (a `row-digit`, `column-digit` or `box-digit` row). Exact-cover rows keep their own fast
//!   path (a legal count per row, no sums).
//! - **Clique cover** (general rows with a lower bound, once the rule above is at a fixed
//!   point): the row's legal variables are covered greedily by parts of the exact-cover rows
//!   (`= 1`, `<= 1`) through them; each part takes at most one variable, so the sum of the
//!   parts' largest weights bounds what the row can still gain. Below the need: contradiction.
//!   Equal to it: every part must take one variable of its largest weight, so the part's
//!   lighter variables and the rest of the exact-cover row it came from are excluded, and a
//!   part with one such variable forces it (on Star Battle: the 2x2-window argument).
//! - **Contradiction**: an open "exactly one" row with no legal variable left, or a row whose
//!   `sum + avail` (or clique-cover bound) falls below its lower bound; the search backtracks
//!   at once.
//! - **Choice point**: MRV, counting branches: an open "exactly one" row branches once per legal
//!   variable; an open general row with `c` legal variables that needs at least `need` more
//!   (missing weight over its largest weight, rounded up) counts `c - need + 1` (its slack in
//!   variables, plus one), the same measure for both. Ties go to "exactly one" rows, then the
//!   lowest row id. Candidates are ordered by LCV (how many peers, i.e. other legal variables
//!   sharing one of their other rows, they leave legal: most first; ties to the lowest id).
//! - **Branching**: on an "exactly one" row, candidate `i` is placed (the others are then shut
//!   out by the row). On a general row, alternative `i` places candidate `i` and *excludes*
//!   candidates `0..i` for the rest of that branch (the first of the candidates to be placed),
//!   so every solution is met exactly once however many variables the row takes.
//! - **An explicit stack** of decisions; undoing a decision unplaces (the VSA engine subtracts
//!   item vectors) every variable placed since, and lets back the exclusions made since.
//!
//! Variables that sit in no equation (only in `<=` or `>=` rows) get a slack partner here: a
//! synthetic "exactly one" row `{v, not-v}` (family `slack`), so the same branching decides
//! them and counting stays exact. A variable in an equation needs none: once the equation holds,
//! every variable of it left out is shut out by its upper bound. Slack variables never appear in
//! solutions. A solution is met when every "exactly one" row and every lower bound holds.
//!
//! Cost per placement: the engine's `place` plus one `legal` query (for `vsa` that is one FFT
//! batch), then work proportional to the number of variables whose legality changed times the
//! rows they sit in. A choice point scans the open rows once. Models with general rows pay a
//! weight per (variable, row) pair in the layout and a sum per row, and per demand row and
//! round of propagation one clique cover (its length times the exact-cover rows through each
//! variable; the layout keeps those as bit masks over the row, for rows of up to 128
//! variables).
mod backend;
mod choose;
mod engine;
mod layout;
mod propagate;
mod run;
mod state;
#[cfg(test)]
mod tests;

pub use crate::backend::proof::log::{NoProof, ProofLog};
pub use backend::{LayoutCache, SearchBackend};
pub use engine::{LegalityEngine, RowGate};
pub use layout::{Layout, VarSet};
pub use run::{root_propagation, run, run_optimizing, run_proved, run_streaming, RootPropagation};
pub use state::{Goal, SearchOutcome};
