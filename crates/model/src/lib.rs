//! zeroone-model: the lowest layer of zeroone (the facade crate `zeroone` re-exports every
//! module here under the same path, `zeroone::model`, `zeroone::read`, ...).
//!
//! | module | what it holds |
//! |---|---|
//! | [`output`], [`suggest`] | atomic writes, did-you-mean |
//! | [`model`] | the 0-1 model (rows, builder, reductions, JSON form), the objective ([`model::objective`]), the verifier ([`model::verify`]) |
//! | [`export`], [`read`] | the model written as LP, MPS, OPB, CNF, XCC or JSON for other solvers; 0-1 programs read from OPB, DIMACS CNF, LP, MPS and Knuth's XCC files |
//!
//! Each module names the others as `crate::model`, `crate::output`, ...; the crates above
//! re-export this crate's modules at their own root (`pub(crate) use zeroone_model::model;`),
//! so the same paths resolve in every layer and a file moves between crates unchanged.
#![deny(missing_docs)]

pub mod encode;
pub mod export;
pub mod model;
pub mod output;
pub mod read;
pub mod suggest;
