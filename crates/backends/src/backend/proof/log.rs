//! The proof-logging hooks: a [`ProofLog`] observer a search (the shared search of
//! [`crate::backend::search`], `xcc`'s) calls at each decision, each backtrack out of a
//! decision, each solution and at the end, so that a VeriPB proof ([`super::VeriPbWriter`])
//! can be written as the search runs. Here, below both the searches and the writer, so each
//! depends on this file and neither on the other.
//!
//! The search's steps map to proof steps as follows. A decision sets one model variable
//! (placing a model variable: `x = 1`; placing the slack partner of a variable in no equation:
//! `x = 0`). When the search leaves a decision (its subtree is exhausted, or it met a
//! contradiction or a solution there), the negation of the decision prefix is implied by
//! reverse unit propagation: at a contradiction because the search's propagation is no
//! stronger than pseudo-Boolean unit propagation when logging (the clique-cover rule is off),
//! after a solution because the solution's exclusion (`solx`) or improvement (`soli`) step is
//! already logged, at an exhausted choice point because every alternative's clause is
//! already logged, and at a branch-and-bound prune because the bound's own derivation
//! ([`ProofLog::bound_prune`]) was logged just before. The last step, when the root is
//! exhausted, is the contradiction.
//!
//! [`NoProof`] is the default: every hook is an empty inline call behind a `bool` the search
//! checks once per node (`enabled`), so a search without a proof pays one branch per node.

use crate::backend::branch_bound::PolOp;

/// An observer of the search's decisions, for proof logging. Every method has an empty
/// default, so an implementation picks what it needs. Costs are the implementation's.
pub trait ProofLog {
    /// Whether the search should call the hooks at all (and keep its propagation no stronger
    /// than pseudo-Boolean unit propagation, which a checker can replay).
    fn enabled(&self) -> bool {
        false
    }
    /// The search decided model variable `var` (0-based) to `value`.
    fn decide(&mut self, var: usize, value: bool) {
        let _ = (var, value);
    }
    /// The search leaves its latest decision: the negation of the decision prefix, that
    /// decision included, is now implied.
    fn retract(&mut self) {}
    /// A solution: `ones` are the model variables set to 1 (every other is 0). `improving`:
    /// `None` when counting or solving, `Some(true)` when it beats the incumbent of an
    /// optimisation (its value is `value`), `Some(false)` when it does not.
    fn solution(&mut self, ones: &[u32], improving: Option<bool>, value: i128) {
        let _ = (ones, improving, value);
    }
    /// Branch and bound prunes the current node (or closes the latest choice point) because
    /// its bound reaches the incumbent: `derivation` (see [`PolOp`]) derives, from the latest
    /// improving solution's constraint, a constraint falsified under the node's assignment,
    /// so the next retraction's clause follows by unit propagation.
    fn bound_prune(&mut self, derivation: &[PolOp]) {
        let _ = derivation;
    }
    /// Every decision has been retracted: the remaining space is empty (the contradiction).
    fn exhausted(&mut self) {}
}

/// The proof log that logs nothing (the search without a proof).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProof;

impl ProofLog for NoProof {}
