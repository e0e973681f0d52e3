//! zeroone: 0-1 integer programming on grid puzzles.
//!
//! Data flows one way: puzzle text → [`model::Model`] (families of "exactly one" / "at most one"
//! rows) → a [`backend::Backend`] → a verified [`backend::Outcome`] → records and reports.
//!
//! | part | what it holds |
//! |---|---|
//! | [`model`] | the 0-1 model, its sparse and dense views, givens |
//! | [`objective`] | an optional linear objective (minimise / maximise), exact integer costs |
//! | [`puzzle`] | hex boards, square Queens, Sudoku: builders |
//! | [`puzzle::parse`] | reading and writing puzzle files, with located errors |
//! | [`puzzle::generate`] | boards with exactly one solution: the machinery every kind's generator (in its folder) shares |
//! | [`render`] | models and verified outcomes as text and JSON (CLI, harness) |
//! | [`verify`] | the one verifier every answer passes through |
//! | [`backend`] | the backend trait, the registry, verified runs, one file per backend |
//! | [`export`] | the model written as LP, MPS, OPB, CNF or JSON for other solvers |
//! | [`symmetry`] | board symmetry groups, orbit counts by canonical forms and Burnside |
//! | [`table`] | the search-space table: exact counts per modelling level |
//! | [`worker`] | isolated runs: worker processes with hard time and memory limits, measured |
//! | [`harness`] | experiment files, parallel resumable runs, records, reports, plots |
//! | [`testing`] | stable, serialisable views of a model and its solutions, for snapshot tests |
//! | [`build_info`] | the version and commit this binary was built from |
#![deny(missing_docs)]

pub mod backend;
pub mod build_info;
pub mod export;
pub mod harness;
pub mod model;
pub mod output;
pub mod puzzle;
pub mod render;
pub mod space;
pub mod suggest;
pub mod testing;
