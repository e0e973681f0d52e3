//! zeroone-harness: experiments, plans, resumable parallel runs, records, reports and figures,
//! above every other layer (the facade crate `zeroone` re-exports [`harness`] and
//! [`build_info`] as `zeroone::harness` and `zeroone::build_info`).
//!
//! [`build_info`] lives here, with its build script, because the records are its lowest user.
//!
//! The lower layers' modules are re-exported at this crate's root, visible inside it only, so
//! that every `crate::model::...`, `crate::backend::...` or `crate::puzzle::...` path of the
//! moved files still resolves: the files are the same whichever crate holds them.
#![deny(missing_docs)]

pub mod build_info;
pub mod harness;

pub(crate) use zeroone_backends::backend;
pub(crate) use zeroone_model::{model, output, read, suggest};
pub(crate) use zeroone_puzzles::{puzzle, render};
// Only the tests name the tables by their public path.
