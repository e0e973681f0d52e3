//! [`ModelError`]: what can be wrong with a model being built or read.

use crate::model::{ObjectiveError, RowId, VarId};
use thiserror::Error;

use crate::model::MAX_COEFFICIENT;

/// Errors found while building a model.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ModelError {
    /// A row names a variable id the model does not have.
    #[error("row {index} of family '{family}' names variable {var}, but the model has {variables} variables")]
    UnknownVariable {
        /// Family name.
        family: String,
        /// Row index within the family.
        index: usize,
        /// The bad id.
        var: VarId,
        /// How many variables exist.
        variables: usize,
    },
    /// A row with no variables (it could never hold as "exactly one").
    #[error("row {index} of family '{family}' is empty")]
    EmptyRow {
        /// Family name.
        family: String,
        /// Row index within the family.
        index: usize,
    },
    /// A row lists the same variable twice.
    #[error("row {index} of family '{family}' lists variable '{label}' twice")]
    DuplicateInRow {
        /// Family name.
        family: String,
        /// Row index within the family.
        index: usize,
        /// The repeated variable.
        label: String,
    },
    /// A row gives a variable weight 0 (weights are positive integers).
    #[error("row {index} of family '{family}' gives '{label}' weight 0; weights are positive")]
    ZeroWeight {
        /// Family name.
        family: String,
        /// Row index within the family.
        index: usize,
        /// The variable with weight 0.
        label: String,
    },
    /// A weight, right-hand side or row's total weight exceeds [`MAX_COEFFICIENT`].
    #[error("row {index} of family '{family}' has a {what} of {value}, above the limit 2^53 = {MAX_COEFFICIENT}")]
    CoefficientTooLarge {
        /// Family name.
        family: String,
        /// Row index within the family.
        index: usize,
        /// `weight`, `right-hand side` or `total weight`.
        what: &'static str,
        /// The value (saturated at `u64::MAX` for a total that overflows).
        value: u64,
    },
    /// The weights of a row do not match its variables one to one.
    #[error("row {index} of family '{family}' has {vars} variables but {weights} weights")]
    WeightCount {
        /// Family name.
        family: String,
        /// Row index within the family.
        index: usize,
        /// Number of variables.
        vars: usize,
        /// Number of weights.
        weights: usize,
    },
    /// The givens of a row already sum past its upper bound.
    #[error(
        "givens {givens} sum to {sum} in row {index} of family '{family}', which must be {sense}"
    )]
    OverfullRow {
        /// The givens in the row, labels joined by ", ".
        givens: String,
        /// Their weighted sum.
        sum: u64,
        /// The row's sense, as text (`= 2`, `<= 15`).
        sense: String,
        /// Family of the row.
        family: String,
        /// Row index within the family.
        index: usize,
    },
    /// Two variables share a label.
    #[error("two variables are labelled '{0}'")]
    DuplicateLabel(String),
    /// The objective names a variable the model does not have, twice, or with a cost out of
    /// range.
    #[error("{0}")]
    Objective(#[from] ObjectiveError),
    /// Two families share a name.
    #[error("two families are named '{0}'")]
    DuplicateFamily(String),
    /// A row name given to a row the model does not have, empty, or holding a control
    /// character.
    #[error("row {row} is named \"{label}\", but row names are non-empty, without control characters, and name one of the {rows} rows")]
    RowLabel {
        /// The row's id.
        row: RowId,
        /// How many rows the model has.
        rows: usize,
        /// The name, escaped.
        label: String,
    },
    /// A derived variable that is not among the last variables, or a complement of an unknown
    /// variable or of itself (a hand-edited serialized model).
    #[error("variable {var} is marked derived, but derived variables are the last of the {variables} and complement another variable")]
    Derived {
        /// The variable.
        var: VarId,
        /// How many variables exist.
        variables: usize,
    },
    /// A count projection names a variable id the model does not have.
    #[error("the count is projected onto variable {var}, which does not exist (the model has {variables} variables)")]
    UnknownProjected {
        /// The variable named.
        var: VarId,
        /// How many variables the model has.
        variables: usize,
    },
    /// A given names a variable id the model does not have.
    #[error("given {var} does not exist (the model has {variables} variables)")]
    UnknownGiven {
        /// The bad id.
        var: VarId,
        /// How many variables exist.
        variables: usize,
    },
    /// Two givens share a row, so no assignment can keep both.
    #[error("givens '{first}' and '{second}' clash in row {index} of family '{family}'")]
    ClashingGivens {
        /// One given.
        first: String,
        /// The other given.
        second: String,
        /// Family of the shared row.
        family: String,
        /// Row index within the family.
        index: usize,
    },
}
