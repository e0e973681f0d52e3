//! The 0-1 model: binary variables, rows `sum w_i x_i (=, <=, >=) k` grouped into named
//! families, givens, and an optional linear objective ([`objective`]); the one verifier every
//! answer passes through ([`verify`]). Every puzzle kind builds one; every backend reads one. The model knows
//! nothing about any backend.
//!
//! Costs: a model stores each row as a sorted `Vec<VarId>`, so memory is linear in the number of
//! nonzeros. (The dense view of the equality rows, for `gauss` alone, is that backend's:
//! `backend::gauss::DenseEqualities`.)

pub mod objective;
pub mod verify;

mod access;
mod builder;
mod derived;
mod error;
mod kind;
mod labels;
mod reduce;
mod rows;
mod serial;
mod shape;
mod solution;
#[cfg(test)]
mod tests;

pub use access::{Model, ModelSummary};
pub use builder::ModelBuilder;
pub use derived::Derived;
pub use error::ModelError;
pub use kind::{BoardSymmetry, Coord, ModelHints, PuzzleKind};
pub use objective::{Objective, ObjectiveError, ObjectiveSense, MAX_COST};
pub use reduce::Reduction;
pub use rows::{
    coord_label, is_sense_name, parse_sense, value_symbol, Constraint, Family, Relation, Sense,
    Variable, MAX_COEFFICIENT, VALUE_SYMBOLS,
};
pub use solution::Solution;

/// Index of a variable in [`Model::variables`].
pub type VarId = usize;
/// Index of a row in [`Model::constraints`].
pub type RowId = usize;
/// Index of a family in [`Model::families`].
pub type FamilyId = usize;
