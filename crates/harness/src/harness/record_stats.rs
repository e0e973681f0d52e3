//! [`RecordStats`]: a record's `stats` object, the backend's [`Stats`] and, for a row of a
//! table experiment, the exact levels it computed ([`SpaceLevels`], the kinds' tables'). The
//! levels are the table experiment's, not a backend's, so they live here beside the record
//! rather than in [`Stats`]; in JSON they stay where records have always had them, the
//! `levels` object inside `stats` right after `seconds`.

use std::ops::{Deref, DerefMut};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::backend::Stats;
use crate::puzzle::table::SpaceLevels;

/// A record's statistics: what the run's backend reported and, for a table row, its levels.
/// Dereferences to the backend's [`Stats`], so `record.stats.nodes` reads as it always has.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RecordStats {
    /// The backend's statistics (for a table row: its time and figures).
    pub run: Stats,
    /// The exact counts of a search-space table row; `None` for every backend run (and for
    /// table records made before the levels had their own object, which kept them in
    /// `stats.extra`).
    pub levels: Option<SpaceLevels>,
}

/// The key of the levels inside a record's `stats` object.
const LEVELS: &str = "levels";

impl From<Stats> for RecordStats {
    fn from(run: Stats) -> RecordStats {
        RecordStats { run, levels: None }
    }
}

impl Deref for RecordStats {
    type Target = Stats;

    fn deref(&self) -> &Stats {
        &self.run
    }
}

impl DerefMut for RecordStats {
    fn deref_mut(&mut self) -> &mut Stats {
        &mut self.run
    }
}

impl Serialize for RecordStats {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let levels = self.levels.as_ref().map(|l| (LEVELS, l));
        self.run.serialize_with_entry(levels, s)
    }
}

impl<'de> Deserialize<'de> for RecordStats {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RecordStats, D::Error> {
        let (run, levels) = Stats::deserialize_with_entry(LEVELS, d)?;
        Ok(RecordStats { run, levels })
    }
}
