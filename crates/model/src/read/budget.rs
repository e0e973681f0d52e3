//! A memory budget for the models the readers build on one thread: a run under a memory limit
//! (an experiment's `memory_limit`) reads its files with the limit as the budget, so a tiny
//! file whose header declares millions of variables is refused at that header instead of
//! being built by the process that only hands models to the workers.
//!
//! Costs: one thread-local read per variable or row counted; nothing without a budget.

use std::cell::Cell;

use super::ReadError;

/// What one variable of a model read from a file costs at least: its place in the model (its
/// coordinates, 32 bytes) and its column start (8 bytes); a named variable's label comes on
/// top (40 bytes in all measured on `p cnf 8388608 1`, whose numbered labels are not stored;
/// taken at that floor, so a model that fits is never refused).
pub const BYTES_PER_VARIABLE: u64 = 40;

/// What one nonzero costs at least: its variable in the row and in the column view.
pub const BYTES_PER_NONZERO: u64 = 16;

thread_local! {
    static BUDGET: Cell<Option<u64>> = const { Cell::new(None) };
    /// Whether a read on this thread was refused for passing its budget, since the last
    /// [`refused_for_budget`] began.
    static PASSED: Cell<bool> = const { Cell::new(false) };
}

/// Puts the budget back when the read ends, however it ends.
struct Restore(Option<u64>);

impl Drop for Restore {
    fn drop(&mut self) {
        BUDGET.with(|b| b.set(self.0));
    }
}

/// Runs `read` with every model the readers build on this thread held to `bytes` (`None`: no
/// budget beyond [`super::MAX_VARIABLES`] and [`super::MAX_NONZEROS`]); a model that would
/// pass it is a [`ReadError`] at the line that passes it (a header's declared variables, at
/// the header). The budget before is restored afterwards.
pub fn with_memory_budget<R>(bytes: Option<u64>, read: impl FnOnce() -> R) -> R {
    let _restore = Restore(BUDGET.with(|b| b.replace(bytes)));
    read()
}

/// Runs `read` and says whether a model it read was refused for passing this thread's budget
/// (see [`with_memory_budget`]): a caller that runs models under a memory limit records such a
/// file as out of memory, as its run would have been, instead of as malformed. Cost: two
/// thread-local accesses.
pub fn refused_for_budget<R>(read: impl FnOnce() -> R) -> (R, bool) {
    let before = PASSED.with(|p| p.replace(false));
    let out = read();
    let passed = PASSED.with(Cell::get);
    // A caller around this one sees the refusal too.
    PASSED.with(|p| p.set(before || passed));
    (out, passed)
}

/// `Err` located at `at` when a model of `variables` variables and `nonzeros` nonzeros needs
/// more than this thread's budget (see [`with_memory_budget`]).
pub(super) fn check(
    variables: usize,
    nonzeros: usize,
    at: (usize, usize),
) -> Result<(), ReadError> {
    let Some(budget) = BUDGET.with(Cell::get) else {
        return Ok(());
    };
    let need = (variables as u64)
        .saturating_mul(BYTES_PER_VARIABLE)
        .saturating_add((nonzeros as u64).saturating_mul(BYTES_PER_NONZERO));
    if need <= budget {
        return Ok(());
    }
    PASSED.with(|p| p.set(true));
    Err(ReadError::at(
        at.0,
        at.1,
        format!(
            "a model within the memory limit of {} MB this run reads under",
            budget >> 20
        ),
        format!(
            "{variables} variables and {nonzeros} nonzeros, at least {} MB",
            need >> 20
        ),
    ))
}
