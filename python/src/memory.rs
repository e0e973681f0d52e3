//! Memory checked before it is taken. Rust aborts the process when an allocation fails (its
//! alloc-error hook is unstable), and in Python that kills the interpreter (issue 35: a
//! 2 M-variable model under an address-space limit). So every allocation of the Python paths
//! that grows with the input is first checked here against what this process can still take
//! ([`usable_memory`]: the system's available memory and the address-space limit, the same
//! guard the CLI's engines use), and refused with `MemoryError` naming both; reading a file is
//! held to that memory as a budget ([`zeroone::read::with_memory_budget`], the CLI's
//! mechanism), so a header declaring more than fits is refused at its line.
//!
//! The estimates are floors times a margin, not measurements: a check passes well before the
//! allocator would fail, so what it refuses would have been close to the limit. Costs: one
//! read of two small `/proc` files per check; the sizes come from a pass the caller makes.

use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;

use zeroone::backend::memory::usable_memory;
use zeroone::model::Model;
use zeroone::read::{BYTES_PER_NONZERO, BYTES_PER_VARIABLE};

/// How many times its floor a model's run may take beside the model: the run's copy of the
/// model's variables, and an engine's state linear in the model (its own guards cover what
/// grows faster). Measured: `bitset` solving one clause over 1,000,000 variables peaked 370 MB
/// above the model (about 9 times the floor of 40 MB); 12 leaves a margin.
const RUN_MARGIN: u64 = 12;

/// `bytes` in MB, for messages.
fn mb(bytes: u64) -> String {
    format!("{} MB", bytes.div_ceil(1 << 20))
}

/// Refuses (`MemoryError`) `need` bytes for `what` when this process cannot take them; passes
/// when the system does not say what it can take.
pub fn ensure(need: u64, what: impl FnOnce() -> String) -> PyResult<()> {
    match usable_memory() {
        Some(usable) if need > usable => Err(PyMemoryError::new_err(format!(
            "{} needs about {}, and this process can take {} more (the smaller of the system's \
             available memory and its address-space limit); nothing was changed",
            what(),
            mb(need),
            mb(usable)
        ))),
        _ => Ok(()),
    }
}

/// The least a model of `variables` and `nonzeros` holds (the readers' budget floor).
pub fn model_floor(variables: usize, nonzeros: usize) -> u64 {
    (variables as u64)
        .saturating_mul(BYTES_PER_VARIABLE)
        .saturating_add((nonzeros as u64).saturating_mul(BYTES_PER_NONZERO))
}

/// Refuses a solve, count or stream of a model of `variables` and `nonzeros` that this process
/// cannot hold [`RUN_MARGIN`] times.
pub fn ensure_run(variables: usize, nonzeros: usize, what: &str) -> PyResult<()> {
    let need = model_floor(variables, nonzeros).saturating_mul(RUN_MARGIN);
    ensure(need, || {
        format!("{what} a model of {variables} variables and {nonzeros} nonzeros")
    })
}

/// The variables and nonzeros of `model`. Cost: one pass over the rows.
pub fn size_of(model: &Model) -> (usize, usize) {
    let nonzeros = model.constraints().iter().map(|c| c.vars.len()).sum();
    (model.num_variables(), nonzeros)
}

/// How many items `seq` has and how long they are in all (`len()` of each; 0 for one without a
/// length), without converting any: the sizes a check needs before the conversion allocates.
pub fn lengths(seq: &Bound<'_, PyAny>) -> PyResult<(u64, u64)> {
    let (mut items, mut total) = (0u64, 0u64);
    for item in seq.try_iter()? {
        items += 1;
        total += item?.len().unwrap_or(0) as u64;
    }
    Ok((items, total))
}

/// Runs `read` within three quarters of what this process can take, as a read budget (the
/// budget counts a model's floor, which a reader may pass by a little: a model measured at
/// 41 bytes a variable against the floor's 40, and the reader's own buffers); returns what
/// `read` returned and whether it was refused for passing the budget.
pub fn within_budget<R>(read: impl FnOnce() -> R) -> (R, bool) {
    let budget = usable_memory().map(|m| m / 4 * 3);
    zeroone::read::with_memory_budget(budget, || zeroone::read::refused_for_budget(read))
}

/// The `MemoryError` of a read refused for its budget (`located`: the reader's message).
pub fn refused(located: impl std::fmt::Display) -> PyErr {
    PyMemoryError::new_err(format!(
        "{located} (three quarters of the memory this process can take)"
    ))
}
