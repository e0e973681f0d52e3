//! The HiGHS backend (`--backend highs`, cargo feature `highs`): the MILP backend of
//! [`crate::backend::milp`] with HiGHS as its engine instead of microlp, for side-by-side
//! comparisons. Same model, presolve, options (`relax`, `presolve`), counting by no-good cuts and time limit; HiGHS
//! runs single-threaded so timings compare with microlp's.
//!
//! Building it compiles HiGHS from source (cmake and libclang-dev needed; several minutes).

use crate::backend::milp::{Engine, Milp};
use crate::backend::{BackendError, BackendOptions};

/// Makes the HiGHS backend. Reads `relax` (`true`/`false`) and `presolve` (as `milp`).
pub fn new(options: &BackendOptions) -> Result<Milp, BackendError> {
    Milp::with_engine(Engine::Highs, "highs", options)
}
