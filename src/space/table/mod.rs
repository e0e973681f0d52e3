//! The search-space table: how many candidate placements each level of modelling leaves, as
//! exact big integers, for hex boards (the seed's table), square Queens and Sudoku.
//!
//! Levels for a hex board of width `n` (`N = 3s(s-1) + 1` cells, `s = (n+1)/2`):
//! every cell 0/1 (`2^N`), exactly `n` cells (`C(N, n)`), one per row (the product of the row
//! lengths), the second axis too, all three axes, all three axes up to the 12 rotations and
//! reflections, and (for a coloured board) the board's own solution count. Queens of size `n`:
//! `2^(n^2)`, `C(n^2, n)`, `n^n`, `n!`, no touching (OEIS A002464), up to the 8 symmetries of the
//! square, and a board's count with its regions. Sudoku: `2^(n^3)`, `C(n^3, n^2)`, `n^(n^2)`, the
//! product of candidate counts after the givens and after naked/hidden singles, and the
//! solution count.
//!
//! Counting methods: the closed forms are computed directly; the constrained levels use the
//! [`dp`](crate::backend::dp) counter (fast at every width) or the
//! [`enumerate`](crate::backend::enumerate) backend ([`Method`]); orbits are counted by
//! canonical forms over the enumerated placements and checked against Burnside's lemma, so they
//! are limited to widths where enumeration is affordable ([`TableOptions::orbit_limit`]).
//!
//! Costs: the closed forms are instant; hex counts by dp take milliseconds up to width 15 and
//! grow about 5-10x per width step beyond (see `reports/search-space-widths.md`).

use std::ops::ControlFlow;

use num_bigint::BigUint;
use num_traits::{One, Zero};
use thiserror::Error;

use crate::backend::enumerate::{EnumSettings, Enumerator, Order};
use crate::model::{Coord, Model};
use crate::space::symmetry::{Group, Orbits};

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

fn pow2(e: u64) -> BigUint {
    BigUint::one() << e
}

fn enum_count(model: &Model, families: &[&str]) -> Result<u128, TableError> {
    let settings = EnumSettings {
        families: Some(families.iter().map(|s| s.to_string()).collect()),
        parallel: true,
        ..EnumSettings::default()
    };
    let e = Enumerator::new(model, &settings).map_err(|e| TableError::Count(e.to_string()))?;
    Ok(e.count(None).0)
}

/// Orbit statistics of the placements of `model` restricted to `families`, as one-per-row
/// tuples (`column` maps a variable to its tuple column), by streaming every placement.
pub fn orbit_stats(
    model: &Model,
    families: &[&str],
    group: &Group,
    column: impl Fn(usize, usize) -> usize,
) -> Result<Orbits, TableError> {
    let settings = EnumSettings {
        families: Some(families.iter().map(|s| s.to_string()).collect()),
        order: Order::Fixed,
        ..EnumSettings::default()
    };
    let e = Enumerator::new(model, &settings).map_err(|e| TableError::Count(e.to_string()))?;
    let cells: Vec<(usize, usize)> = model
        .variables()
        .iter()
        .map(|v| match v.coord {
            Coord::Cell { row, col } => (row, column(row, col)),
            _ => (0, 0),
        })
        .collect();
    let mut orbits = Orbits::new(group);
    let mut tuple = vec![0; group.size];
    let mut scratch = vec![0; group.size];
    e.for_each_solution(|s| {
        for &v in &s.ones {
            let (r, c) = cells[v];
            tuple[r] = c;
        }
        orbits.add(group, &tuple, &mut scratch);
        ControlFlow::Continue(())
    });
    Ok(orbits)
}

/// Orbits by canonical forms, after checking them against Burnside's lemma.
fn checked_orbits(orbits: &Orbits) -> Result<BigUint, TableError> {
    let canonical = BigUint::from(orbits.canonical);
    match orbits.burnside() {
        Some(b) if b == canonical => Ok(canonical),
        b => Err(TableError::Burnside {
            canonical: canonical.to_string(),
            burnside: b.map_or("not a whole number".into(), |b| b.to_string()),
        }),
    }
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
    Ok(BigUint::from(out.count))
}

/// The legend of a level list as Markdown: one line per level, its name and definition.
pub fn level_legend(levels: &[(&str, &str)]) -> String {
    levels
        .iter()
        .map(|(name, what)| format!("- **{name}**: {what}\n"))
        .collect()
}

mod format;
mod hex;
mod queens;
mod sudoku;
#[cfg(test)]
mod tests;

pub use format::{group_digits, log10_of, Cell, Format, Table};
pub use hex::{
    hex_fixed_points_by_symmetry, hex_levels, hex_levels_but_three_axes, hex_memory_guard,
    hex_memory_tables, hex_orbits_by_burnside, hex_part_table, hex_table, hex_three_axes_part,
    hex_widths_table, orbits_from_fixed_points, HexLevels, GUARD_BUDGET, HEX_LEVELS,
};
pub use queens::{queens_levels, queens_sizes_table, queens_table, QueensLevels, QUEENS_LEVELS};
pub use sudoku::{sudoku_candidates, sudoku_levels, sudoku_table, SudokuLevels};
