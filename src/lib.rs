//! zeroone: 0-1 integer programming for puzzles and models.
//!
//! A puzzle or a model file becomes a [`model::Model`]: binary variables and rows
//! `sum w_i x_i (=, <=, >=) k` grouped into named families, with an optional linear objective.
//! The same model goes to any backend (Gaussian elimination, MILP, enumeration and `dp`
//! counting, the VSA and bitset searches, exact cover, SAT, brute force); every answer passes
//! the one verifier ([`model::verify`]) before it is printed or counted, and the harness runs
//! experiments over many models and backends and writes reports from the records.
//!
//! ```
//! use zeroone::backend::{count_verified, make_backend, solve_verified, BackendOptions, Status};
//! use zeroone::puzzle::QueensBoard;
//!
//! // The Queens puzzle's rules on an 8x8 board without regions: one queen per row and per
//! // column, no two touching (a diagonal neighbour included), as a 0-1 model.
//! let model = QueensBoard::bare(8).to_model("8x8, no regions");
//! let mut backend = make_backend("bitset", &BackendOptions::default()).unwrap();
//! let outcome = solve_verified(backend.as_mut(), &model).unwrap();
//! assert_eq!(outcome.status, Status::Solved); // verified before it is returned
//! let counted = count_verified(backend.as_mut(), &model, None).unwrap();
//! assert_eq!(counted.count, 5242); // OEIS A002464; exact, every witness verified
//! ```
//!
//! Data flows one way, and so do imports: each layer is a crate (`zeroone-model`,
//! `zeroone-backends`, `zeroone-puzzles`, `zeroone-harness`) that depends only on the crates of
//! the layers listed before it, and this crate re-exports them all under the paths below.
//!
//! | layer | what it holds |
//! |---|---|
//! | [`output`], [`suggest`], [`build_info`] | atomic writes, did-you-mean, the binary's version |
//! | [`model`] | the 0-1 model (rows, builder, reductions, JSON form, one file each), the objective ([`model::objective`]), the verifier ([`model::verify`]) |
//! | [`export`], [`read`] | the model written as LP, MPS, OPB, CNF, XCC or JSON for other solvers; 0-1 programs read from OPB, DIMACS CNF, LP, MPS and Knuth's XCC files |
//! | [`backend`] | the backend trait and its optional abilities, the registry, verified runs, typed row refusals ([`backend::RowRefusal`]), one file or folder per engine (the shared search: [`backend::search`]), the worker process with hard limits ([`backend::worker`]) |
//! | [`puzzle`] | file formats with located errors, the generic JSON/TOML model, and one folder per kind under [`puzzle::kinds`] (hex, Queens, Sudoku, Star Battle, Killer Sudoku) with its optional generator and search-space table, on the machinery the kinds share: generators ([`puzzle::generate`]), search-space tables ([`puzzle::table`]), symmetry groups ([`puzzle::symmetry`]); [`render`], [`testing`] beside it |
//! | [`space`] | the facade's own: the public paths of the search-space tables ([`space::table`]) and symmetry groups, re-exported from [`puzzle`] |
//! | [`harness`] | experiment files, plans, resumable parallel runs, records, reports and figures |
//!
//! The command-line interface (`src/cli/`, the `zeroone` binary) sits on top of all of them.
#![deny(missing_docs)]

// The layers are crates of their own (CONTRIBUTING.md, "Where things live"); this crate
// re-exports each of their modules under the path it always had.
pub use zeroone_backends::backend;
pub use zeroone_harness::{build_info, harness};
pub use zeroone_model::{encode, export, model, output, read, suggest};
pub use zeroone_puzzles::{puzzle, render, testing};
pub mod space;
