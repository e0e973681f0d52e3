//! The search-space table machinery every kind's table shares: the [`Table`] and its cells
//! and formats, the options ([`TableOptions`], [`Method`]), errors ([`TableError`]), the
//! closed forms ([`binomial`], [`factorial`]), a board's own count ([`board_count`]) and level
//! legends. It sits below the kinds, so a kind's table (its folder's `table.rs`) builds on it;
//! the tables themselves, and the orbits that need the symmetry groups, are the kinds' (each
//! kind's `table.rs`).
//!
//! Costs: the closed forms are instant; [`board_count`] is one exhaustive verified count.

use num_bigint::BigUint;
use num_traits::{One, Zero};
use thiserror::Error;

use crate::model::Model;
use crate::puzzle::Puzzle;

mod format;
mod levels;
mod orbits;
mod sweep;
#[cfg(test)]
mod tests;

pub use format::{group_digits, log10_of, Cell, Format, Table};
pub use levels::SpaceLevels;
pub use orbits::orbit_stats;
pub(crate) use orbits::{checked_orbits, enum_count};
pub use sweep::{
    gib_cell, Figures, Setting, Settings, ShardCache, ShardColumn, ShardColumns, ShardedSweep,
    SweepMarks, SweptTable,
};

/// Errors of the table layer.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TableError {
    /// A width or size the table cannot take.
    #[error("{0}")]
    BadSize(String),
    /// A counter failed.
    #[error("counting failed: {0}")]
    Count(String),
    /// The count would need more memory than allowed: refused before it starts.
    #[error("{0}")]
    Memory(String),
    /// Orbit counting by canonical forms disagreed with Burnside's lemma (a bug, never shown
    /// as a number).
    #[error("orbit count {canonical} by canonical forms disagrees with Burnside's {burnside}")]
    Burnside {
        /// Orbits by canonical forms.
        canonical: String,
        /// Orbits by Burnside's lemma.
        burnside: String,
    },
}

/// How the constrained levels are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Dynamic programming over rows (fast; the default).
    #[default]
    Dp,
    /// The enumerator, one placement at a time (for cross-checks; slow past width 15).
    Enum,
}

/// What to compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableOptions {
    /// Counting method of the constrained levels.
    pub method: Method,
    /// Orbits are counted by canonical forms (enumerating every placement, checked against
    /// Burnside) only when the placements to enumerate number at most this many.
    pub orbit_limit: u128,
    /// Above `orbit_limit`, hex orbits come from Burnside's lemma with fixed points counted on
    /// orbit models (cost grows about as the square root of the count); false leaves them empty.
    pub burnside: bool,
    /// Refuse a hex count whose estimated peak memory is above this many bytes (`None`: the
    /// memory the system has available, `MemAvailable`; no check when that is unknown).
    pub memory_limit: Option<u64>,
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions {
            method: Method::Dp,
            orbit_limit: 2_000_000,
            burnside: true,
            memory_limit: None,
        }
    }
}

/// `n choose k`, exact.
pub fn binomial(n: u64, k: u64) -> BigUint {
    if k > n {
        return BigUint::zero();
    }
    let k = k.min(n - k);
    let mut acc = BigUint::one();
    for i in 0..k {
        acc = acc * BigUint::from(n - i) / BigUint::from(i + 1);
    }
    acc
}

/// `n!`, exact.
pub fn factorial(n: u64) -> BigUint {
    (1..=n).fold(BigUint::one(), |acc, i| acc * BigUint::from(i))
}

/// `2^e`, exactly.
pub(crate) fn pow2(e: u64) -> BigUint {
    BigUint::one() << e
}

/// A board's own solution count (with its colours or regions), by the `enum` backend through
/// [`count_verified`](crate::backend::count_verified): every witness is verified and the count
/// must be exhaustive.
pub fn board_count(model: &Model) -> Result<BigUint, TableError> {
    use crate::backend::{count_verified, make_backend, BackendOptions, Status};
    let mut backend = make_backend("enum", &BackendOptions::default())
        .map_err(|e| TableError::Count(e.to_string()))?;
    let out = count_verified(backend.as_mut(), model, None)
        .map_err(|e| TableError::Count(e.to_string()))?;
    if out.status != Status::Solved || !out.exhaustive {
        return Err(TableError::Count(format!(
            "{}: {}",
            model.name(),
            out.reason
                .unwrap_or_else(|| "the count did not finish".into())
        )));
    }
    Ok(out.count.as_big().clone())
}

/// The legend of a level list as Markdown: one line per level, its name and definition.
pub fn level_legend(levels: &[(&str, &str)]) -> String {
    levels
        .iter()
        .map(|(name, what)| format!("- **{name}**: {what}\n"))
        .collect()
}

/// The table of one size or of a list of sizes, for a kind whose table takes `--size N` or
/// `--sizes A-B` (or its own flags): `levels` computes a size's levels, `one` renders one size
/// and `many` a list; [`TableError::BadSize`] with `usage` when neither is given. Cost: one
/// `levels` per size.
pub fn one_or_many<L>(
    size: Option<usize>,
    sizes: Option<&[usize]>,
    usage: &str,
    levels: impl Fn(usize) -> Result<L, TableError>,
    one: fn(&L) -> Table,
    many: fn(&[L]) -> Table,
) -> Result<Table, TableError> {
    match (size, sizes) {
        (Some(n), None) => Ok(one(&levels(n)?)),
        (None, Some(all)) => {
            let all = all
                .iter()
                .map(|&n| levels(n))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(many(&all))
        }
        _ => Err(TableError::BadSize(usage.into())),
    }
}

/// A board's levels with its own count: when the board has regions (`regions`), its model's
/// [`board_count`] is stored by `set_board`. Cost: that count.
pub fn with_board_count<L>(
    levels: Result<L, TableError>,
    regions: bool,
    model: &Model,
    set_board: fn(&mut L, BigUint),
) -> Result<L, TableError> {
    let mut levels = levels?;
    if regions {
        set_board(&mut levels, board_count(model)?);
    }
    Ok(levels)
}

/// What `zeroone table KIND` asks of a kind's table, in the kind's own terms: a size or a list
/// of sizes (read from the flags [`SpaceTable::size_flags`] names), and the settings some
/// kinds read.
#[derive(Debug, Clone)]
pub struct TableRequest<'a> {
    /// One size (`--width` for hex, `--size` for the others).
    pub size: Option<usize>,
    /// Several sizes, one row each (`--widths`, `--sizes`).
    pub sizes: Option<Vec<usize>>,
    /// Star Battle: stars per row, column and region.
    pub stars: usize,
    /// Sudoku: the grid as one line of `n^2` symbols.
    pub grid: Option<&'a str>,
    /// Sudoku: stop counting solutions at this many.
    pub solution_limit: u64,
    /// How the levels are counted.
    pub options: &'a TableOptions,
}

/// A kind's search-space table: the optional ability a kind offers through
/// [`Kind::table`](crate::puzzle::kind::Kind::table), so `zeroone table KIND` (and a board
/// file's table) reach it through the kind registry. Cost: the kind's counts (see its
/// `table.rs`).
pub trait SpaceTable: Sync {
    /// The flags that give one size and several sizes: `("size", "sizes")` unless the kind
    /// says otherwise (hex: `("width", "widths")`).
    fn size_flags(&self) -> (&'static str, &'static str) {
        ("size", "sizes")
    }
    /// The table of the whole kind for `request`; [`TableError::BadSize`] for a request it
    /// cannot take (a missing size, a bad grid).
    fn family_table(&self, request: &TableRequest) -> Result<Table, TableError>;
    /// Whether [`SpaceTable::board_table`] tabulates boards read from files (none by default).
    fn reads_boards(&self) -> bool {
        false
    }
    /// The table of one board of the kind (`puzzle`, whose model is `model`), with the board's
    /// own count where the kind has one; `None` when the kind has no board tables or `puzzle`
    /// is not of the kind.
    fn board_table(
        &self,
        _puzzle: &Puzzle,
        _model: &Model,
        _request: &TableRequest,
    ) -> Option<Result<Table, TableError>> {
        None
    }
    /// The kind's count split into shards (`zeroone table KIND --width N --shard k/K` and
    /// `--estimate`), when its hardest level needs more memory than one machine has (hex);
    /// `None` by default.
    fn sharded(&self) -> Option<&dyn ShardedCount> {
        None
    }
    /// The table as a table experiment (`kind = "table"`) sweeps it, under its own `[table]`
    /// key; `None` (the default) when the kind's table is not swept.
    fn swept(&self) -> Option<&dyn SweptTable> {
        None
    }
}

/// What `--shard k/K` or `--estimate` asks of a [`ShardedCount`]: the size, the shard, and the
/// settings as the command line gave them (the kind parses them and names a bad one in its
/// [`TableError::BadSize`] message, spelt as the flag).
#[derive(Debug, Clone, Copy)]
pub struct ShardRequest<'a> {
    /// The board size (`--width`).
    pub size: usize,
    /// Shard `k` of `K` (1-based), for `--shard`.
    pub shard: Option<(usize, usize)>,
    /// `--row-order`, as given.
    pub row_order: Option<&'a str>,
    /// `--streamed-rows`, as given.
    pub streamed_rows: Option<usize>,
    /// `--estimate-states`: measure layers while they hold at most this many states.
    pub estimate_states: usize,
    /// Refuse a shard whose estimated peak memory is above this many bytes (`None`: the
    /// memory the system has available).
    pub memory_limit: Option<u64>,
}

/// A count split into shards: the optional ability of a [`SpaceTable`] behind `--shard` and
/// `--estimate` (hex's three-axis count, `kinds/hex/shards/`). Cost: one shard's count, or
/// the first layers' dynamic programme for an estimate.
pub trait ShardedCount: Sync {
    /// One shard's partial count (`request.shard`), as a table of what it counted and held;
    /// refused with [`TableError::Memory`] when its estimated peak is above the limit.
    fn shard_table(&self, request: &ShardRequest) -> Result<Table, TableError>;
    /// The estimated peak memory per shard for the shard counts worth asking a cluster for,
    /// and how it was estimated: the tables to print (Markdown shows all, other formats the
    /// first).
    fn estimate_tables(&self, request: &ShardRequest) -> Result<Vec<Table>, TableError>;
}
