//! The coordinate-tuple enumerator (`--backend enum`): the hex write-up's method, generalised over
//! any model.
//!
//! One family supplies the coordinates of the tuple (hex and Queens: `row`, Sudoku: `cell`; a
//! generic model: the first family of "exactly one" rows that partitions the variables). The
//! search walks its lines in order and places one variable per line; every other row is a
//! distinctness rule checked the moment a variable is placed. Placing a variable marks every row
//! containing it as used, so the state of the search is one bitset over the rows and a variable is
//! available when none of its rows is used. "Exactly one" rows whose variables all lie on lines
//! already passed, yet are unused, prune the branch at once.
//!
//! Rows that are not coordinate lines but "exactly one" are branched on too once the coordinate
//! lines are done, and variables in no "exactly one" row are chosen in or out at the end, so the
//! enumeration is exact on every model.
//!
//! General rows (`sum w x (=, <=, >=) k` with `k != 1` or weights) are not bits: each keeps a
//! running sum along the path. Placing a variable that would take a row past its upper bound is
//! refused at once, and every node checks each general row against its lower bound with an
//! upper bound on what it can still gain (each coordinate line still to come adds at most its
//! heaviest variable of the row, each free variable its weight), pruning as soon as a row can no
//! longer reach it. The coordinate family stays an "exactly one" family; a model with none
//! (e.g. rows and columns `= 2`) is enumerated by choosing its variables in or out, pruned the
//! same way. With `order = mrv` the lower bounds are checked only once the free phase starts.
//! Cost per node: one comparison per general row, plus the general rows of the placed variable.
//!
//! Options (`BackendOptions::params`):
//! - `families`: comma list of the families to keep (`row,diag`); the others are dropped, so the
//!   answers are solutions of [`Model::restricted_to`](crate::model::Model::restricted_to) of that list (verify them against it).
//! - `order`: `fixed` (coordinate lines in model order, as in the seed; the default) or `mrv`
//!   (at every node the "exactly one" row with the fewest available variables, any family).
//! - `coordinate`: the family that supplies the coordinates (default: by puzzle kind).
//! - `threads`: `1` for a sequential count; otherwise counts without a limit split the search
//!   tree over rayon's pool.
//!
//! Costs: one node per placed variable; each node costs one AND over `ceil(rows / 64)` words per
//! candidate tried (`mrv` scans every open row instead). Memory is the model plus one bitset per
//! variable; nothing is allocated per node (a solution is built only when handed to a callback).

use std::time::Duration;

use crate::backend::{BackendError, BackendOptions, CountEnd, Stats};

const NAME: &str = "enum";

/// Branching order of the enumerator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// The coordinate family's lines in model order, then any other "exactly one" rows (the
    /// seed's method).
    #[default]
    Fixed,
    /// At every node, the open "exactly one" row with the fewest available variables.
    Mrv,
}

/// Settings of one enumeration, read from [`BackendOptions`] by [`EnumSettings::from_options`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EnumSettings {
    /// Families to keep (`None`: all).
    pub families: Option<Vec<String>>,
    /// Branching order.
    pub order: Order,
    /// Family supplying the coordinates (`None`: chosen by puzzle kind).
    pub coordinate: Option<String>,
    /// Wall-clock limit per call.
    pub time_limit: Option<Duration>,
    /// Whether counts without a limit may use rayon's thread pool.
    pub parallel: bool,
}

impl EnumSettings {
    /// Reads `families`, `order`, `coordinate`, `threads` and the time limit.
    pub fn from_options(options: &BackendOptions) -> Result<EnumSettings, BackendError> {
        let bad = |key: &str, value: &str, expected: &str| BackendError::BadOption {
            backend: NAME.into(),
            key: key.into(),
            value: value.into(),
            expected: expected.into(),
        };
        let families = match options.params.get("families") {
            None => None,
            Some(list) => {
                let names: Vec<String> = list
                    .split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect();
                if names.is_empty() {
                    return Err(bad("families", list, "a comma list of family names"));
                }
                Some(names)
            }
        };
        let order = match options.params.get("order").map(String::as_str) {
            None | Some("fixed") => Order::Fixed,
            Some("mrv") => Order::Mrv,
            Some(other) => return Err(bad("order", other, "'fixed' or 'mrv'")),
        };
        let threads: usize = options.param(NAME, "threads", 0, "a thread count (0 = all)")?;
        Ok(EnumSettings {
            families,
            order,
            coordinate: options.params.get("coordinate").cloned(),
            time_limit: options.checked_time_limit(NAME)?,
            parallel: threads != 1,
        })
    }
}

/// What one enumeration did.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchSummary {
    /// Solutions met (each handed to the callback, or counted).
    pub solutions: u128,
    /// Whether the whole tree was searched (false: the callback stopped it, the limit or the
    /// time limit was hit).
    pub finished: bool,
    /// Whether the time limit stopped the search.
    pub timed_out: bool,
    /// Nodes, nodes per depth, solutions and seconds.
    pub stats: Stats,
}

impl SearchSummary {
    /// How the enumeration ended (the enumerator is exact: a finished search is complete).
    pub fn end(&self) -> CountEnd {
        match (self.finished, self.timed_out) {
            (true, _) => CountEnd::Complete,
            (false, true) => CountEnd::TimedOut,
            (false, false) => CountEnd::AtLimit,
        }
    }
}

/// A plan with its bitset width chosen at run time.
#[derive(Debug, Clone)]
enum AnyPlan {
    W1(Box<Plan<1>>),
    W2(Box<Plan<2>>),
    W4(Box<Plan<4>>),
    W8(Box<Plan<8>>),
    W16(Box<Plan<16>>),
    W32(Box<Plan<32>>),
    W64(Box<Plan<64>>),
}

macro_rules! with_plan {
    ($plan:expr, $p:ident => $body:expr) => {
        match $plan {
            AnyPlan::W1($p) => $body,
            AnyPlan::W2($p) => $body,
            AnyPlan::W4($p) => $body,
            AnyPlan::W8($p) => $body,
            AnyPlan::W16($p) => $body,
            AnyPlan::W32($p) => $body,
            AnyPlan::W64($p) => $body,
        }
    };
}

mod backend;
mod enumerator;
mod optimize;
mod plan;
mod search;
#[cfg(test)]
mod tests;

pub use backend::EnumBackend;
use enumerator::trim_depths;
pub use enumerator::{Enumerator, MAX_ROWS};
use plan::Plan;
use search::{Search, Sink};
