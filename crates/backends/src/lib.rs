//! zeroone-backends: the engines of zeroone, on the model of [`zeroone_model`] (the facade
//! crate `zeroone` re-exports [`backend`] as `zeroone::backend`).
//!
//! [`backend`] holds the `Backend` trait and its optional abilities, the registry, verified
//! runs, typed row refusals, one file or folder per engine (the shared search:
//! [`backend::search`]) and the worker process with hard limits ([`backend::worker`]).
//!
//! The lower layer's modules are re-exported at this crate's root, visible inside it only, so
//! that every `crate::model::...` path of the moved files still resolves: the files are the
//! same whichever crate holds them.
#![deny(missing_docs)]

pub mod backend;

pub(crate) use zeroone_model::{encode, export, model, suggest};

// The unit tests build their models from the puzzle kinds, a layer above: a dev-dependency
// (cargo allows the cycle). The models they build are this crate's `crate::model` types, since
// zeroone-model is built once; nothing else of the puzzles crate may meet a test's own types.
#[cfg(test)]
pub(crate) use zeroone_puzzles::puzzle;
