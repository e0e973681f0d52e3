//! Why a backend cannot read a model's rows ([`RowRefusal`]): the row, and what about it the
//! backend does not read ([`RowLimit`]). A backend's [`Backend::rows_supported`] answers with
//! one; the verified runners turn it into [`BackendError::UnsupportedRows`] before the backend
//! runs, so a model it cannot read is `unsupported`, never a wrong answer.
//!
//! [`Backend::rows_supported`]: crate::backend::Backend::rows_supported
//! [`BackendError::UnsupportedRows`]: crate::backend::BackendError::UnsupportedRows

use std::fmt;

use thiserror::Error;

use crate::model::verify::row_words;
use crate::model::{Constraint, Model, Sense};

/// A row a backend cannot read: where it is, and why. Its message names the row by family
/// and index (and by its own name when its file gave it one), then says what is unsupported.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{} {limit}", row_words(.label.as_deref(), *.index, .family))]
pub struct RowRefusal {
    /// The row's family name.
    pub family: String,
    /// The row's index within its family.
    pub index: usize,
    /// The row's own name ([`Model::row_label`]), if its file gave it one (boxed: the error
    /// stays small).
    pub label: Option<Box<str>>,
    /// What about the row the backend does not read.
    pub limit: RowLimit,
}

/// What about a row a backend does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowLimit {
    /// The backend reads exact-cover rows only (`= 1`, `<= 1` on unit weights); this row is
    /// `sense`, with weights or not.
    ExactCoverOnly {
        /// The row's sense.
        sense: Sense,
        /// Whether it has weights other than 1.
        weighted: bool,
    },
    /// `dp` keys its states by one bit per open row, which cannot hold the running sum this
    /// general row (`sense`, with weights or not) needs.
    NoRunningSum {
        /// The row's sense.
        sense: Sense,
        /// Whether it has weights other than 1.
        weighted: bool,
    },
    /// The backend reads unit-weight rows only (`xcc`: exact cover with multiplicities); this
    /// `sense` row has other weights.
    UnitWeightsOnly {
        /// The row's sense.
        sense: Sense,
    },
    /// The row's CNF encoding would be too large to build (`sat`, estimated before building);
    /// another `--pb-encoding` may fit.
    EncodingTooLarge {
        /// The pseudo-Boolean encoding that would be used (`totalizer`, `gte`, `dpw`, `adder`).
        encoding: &'static str,
        /// [`crate::encode::cnf::encoding_estimate`] of the row.
        estimate: u128,
    },
    /// The row's total weight is above what the backend reads exactly (`vsa`: f32 bundles).
    TotalWeightAbove {
        /// The row's total weight.
        total: u64,
        /// The largest total weight read exactly.
        max: u64,
    },
}

impl fmt::Display for RowLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let with_weights = |w: bool| if w { " with weights" } else { "" };
        match self {
            RowLimit::ExactCoverOnly { sense, weighted } => write!(
                f,
                "is {sense}{}, and only exact-cover rows (= 1, <= 1 on unit weights) are supported",
                with_weights(*weighted)
            ),
            RowLimit::NoRunningSum { sense, weighted } => write!(
                f,
                "is {sense}{}: dp keys its states by one bit per open row (used or not), which \
                 cannot hold the running sum such a row needs; use bitset, enum, brute or milp",
                with_weights(*weighted)
            ),
            RowLimit::UnitWeightsOnly { sense } => write!(
                f,
                "({sense}) has weights other than 1, and xcc reads only unit-weight rows (exact \
                 cover with multiplicities)"
            ),
            RowLimit::EncodingTooLarge { encoding, estimate } => write!(
                f,
                "is too large for the {encoding} CNF encoding: about {estimate} clauses and table \
                 entries, above the cap of {} (another --pb-encoding may fit)",
                crate::encode::cnf::MAX_ENCODING_SIZE
            ),
            RowLimit::TotalWeightAbove { total, max } => write!(
                f,
                "has total weight {total}; vsa bundles are f32 and read sums exactly only up to \
                 {max}"
            ),
        }
    }
}

impl RowRefusal {
    /// The refusal of row `c` of `model` for `limit`.
    pub fn of(model: &Model, c: &Constraint, limit: RowLimit) -> RowRefusal {
        let row = model.families()[c.family].rows.get(c.index).copied();
        RowRefusal {
            family: model.families()[c.family].name.clone(),
            index: c.index,
            label: row.and_then(|r| model.row_label(r)).map(Box::from),
            limit,
        }
    }
}

/// The first row of `model` that is not an exact-cover row, refused with the limit `limit`
/// makes of its sense and weights ([`RowLimit::ExactCoverOnly`] or
/// [`RowLimit::NoRunningSum`]). Cost: one scan of the row senses.
pub fn first_general_row_refused(
    model: &Model,
    limit: fn(Sense, bool) -> RowLimit,
) -> Result<(), RowRefusal> {
    match model.first_general_row() {
        None => Ok(()),
        Some(c) => Err(RowRefusal::of(
            model,
            c,
            limit(c.sense, c.weights.is_some()),
        )),
    }
}
