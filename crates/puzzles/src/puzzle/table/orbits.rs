//! Counting placements and their orbits with the enumerator: the constrained levels and the
//! "up to symmetry" levels of the kinds' tables ([`orbit_stats`] by canonical forms, checked
//! against Burnside's lemma).

use std::ops::ControlFlow;

use num_bigint::BigUint;

use crate::backend::enumerate::{EnumSettings, Enumerator, Order};
use crate::model::{Coord, Model};
use crate::puzzle::symmetry::{Group, Orbits};
use crate::puzzle::table::TableError;

/// The placements of `model` restricted to `families`, counted by the enumerator over
/// rayon's pool.
pub(crate) fn enum_count(model: &Model, families: &[&str]) -> Result<u128, TableError> {
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
pub(crate) fn checked_orbits(orbits: &Orbits) -> Result<BigUint, TableError> {
    let canonical = BigUint::from(orbits.canonical);
    match orbits.burnside() {
        Some(b) if b == canonical => Ok(canonical),
        b => Err(TableError::Burnside {
            canonical: canonical.to_string(),
            burnside: b.map_or("not a whole number".into(), |b| b.to_string()),
        }),
    }
}
