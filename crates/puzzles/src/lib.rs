//! zeroone-puzzles: the puzzle kinds of zeroone, above [`zeroone_model`] and
//! [`zeroone_backends`] (the facade crate `zeroone` re-exports every module here under the same
//! path, `zeroone::puzzle`, ...).
//!
//! | module | what it holds |
//! |---|---|
//! | [`puzzle`] | file formats with located errors, the generic JSON/TOML model, and one folder per kind under [`puzzle::kinds`] with its optional generator and search-space table, on the machinery the kinds share: generators ([`puzzle::generate`]), search-space tables ([`puzzle::table`]), symmetry groups ([`puzzle::symmetry`]) |
//! | [`render`], [`testing`] | drawings of boards and models; snapshots of a model for tests |
//!
//! The lower layers' modules are re-exported at this crate's root, visible inside it only, so
//! that every `crate::model::...` or `crate::backend::...` path of the moved files still
//! resolves: the files are the same whichever crate holds them.
#![deny(missing_docs)]

pub mod puzzle;
pub mod render;
pub mod testing;

pub(crate) use zeroone_backends::backend;
pub(crate) use zeroone_model::{model, output, read, suggest};
// Only the tests write models out.
#[cfg(test)]
pub(crate) use zeroone_model::export;
