//! A kind's table swept by a table experiment (`kind = "table"`): the optional ability of a
//! [`SpaceTable`](super::SpaceTable) that says what the harness needs to run and report it
//! without knowing the kind: the `[table]` key listing its sizes, its record group, its level
//! names, one size's exact levels, its table of sizes and, as an ability of its own
//! ([`ShardedSweep`]), a count split into shards.
//!
//! Costs: those of the kind's counts; everything else here is a look-up.

use std::any::Any;
use std::collections::BTreeMap;

use num_bigint::BigUint;

use super::levels::SpaceLevels;

use super::{Table, TableError};

/// A setting of a sweep's `[table]` keys as the experiment file gives it, for the kind to
/// read and check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Setting {
    /// A whole number (`streamed_rows = 3`).
    Number(i64),
    /// A text (`row_order = "middle-first"`).
    Text(String),
}

impl std::fmt::Display for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Setting::Number(n) => write!(f, "{n}"),
            Setting::Text(t) => f.write_str(t),
        }
    }
}

/// The settings of a sharded count, by `[table]` key (only the keys
/// [`ShardedSweep::setting_keys`] names).
pub type Settings = BTreeMap<String, Setting>;

/// A record's own figures of a shard (states held, seconds of each phase), by key: they go
/// to the record's `stats.extra` as they are.
pub type Figures = BTreeMap<String, serde_json::Value>;

/// What a sharded count keeps from one shard for the next of the same size (hex: the source
/// layer), kept by the harness between rows and emptied before any other row.
pub type ShardCache = Option<Box<dyn Any>>;

/// How a sweep marks the sizes an experiment file lists under [`SweepMarks::key`] (hex: the
/// seed write-up's width-9 row).
#[derive(Debug, Clone, Copy)]
pub struct SweepMarks {
    /// The `[table]` key listing the sizes to mark (`mark_hex_widths`).
    pub key: &'static str,
    /// The sentence under the table when a size is marked (starts and ends with a newline).
    pub note: &'static str,
    /// The level (index into [`SweptTable::levels`]) whose curve the plot marks.
    pub level: usize,
    /// The plot's label of a marked size.
    pub label: fn(usize) -> String,
}

/// A kind's table as a table experiment sweeps it: one record per size (`{group}-{size}`),
/// whose `count` is the most constrained level and whose levels are all kept exactly, then a
/// table of sizes, a level legend and one curve per level. Reached through
/// [`SpaceTable::swept`](super::SpaceTable::swept). Cost: the kind's counts.
pub trait SweptTable: Sync {
    /// The record group, id prefix and report file part (`hex`: records `hex-9`, report
    /// `NAME.hex.csv`, curves `hex: ...`).
    fn group(&self) -> &'static str;
    /// The `[table]` key listing the sizes to count (`hex_widths`).
    fn sizes_key(&self) -> &'static str;
    /// How marked sizes are shown, when the kind marks any (none by default).
    fn marks(&self) -> Option<SweepMarks> {
        None
    }
    /// The levels, named and defined, in the order of the table's columns and the plot's
    /// curves.
    fn levels(&self) -> &'static [(&'static str, &'static str)];
    /// The line that introduces the level legend in the report (ends with a blank line).
    fn legend_heading(&self) -> &'static str;
    /// One size's levels, exact: the record's count (the most constrained level) and every
    /// level by key, or why the size cannot be counted.
    fn size_levels(&self, size: usize) -> Result<(BigUint, SpaceLevels), TableError>;
    /// The count of each of [`SweptTable::levels`] (`None`: not computed) read back from
    /// recorded levels; `None` when a level the table needs is missing (the size is left out).
    fn level_counts(&self, size: usize, recorded: &SpaceLevels) -> Option<Vec<Option<BigUint>>>;
    /// The table of the sizes on record (each one [`SweptTable::level_counts`] reads), one
    /// row per size with the size in the first column.
    fn sizes_table(&self, recorded: &[(usize, SpaceLevels)]) -> Table;
    /// The count split into shards, when the kind's hardest level can need more memory than
    /// one machine has (hex); `None` by default.
    fn sharded(&self) -> Option<&dyn ShardedSweep> {
        None
    }
}

/// One of a kind's own columns of the shard table: its header, and its cell read from a
/// shard record's [`Figures`].
pub type ShardColumn = (&'static str, fn(&Figures) -> String);

/// How the report shows a sharded sweep's shards: a heading, the name of the count column
/// and the kind's own columns after the harness's (shard, count, seconds, peak RSS).
#[derive(Debug, Clone, Copy)]
pub struct ShardColumns {
    /// The section's heading and paragraph (ends with a blank line).
    pub heading: &'static str,
    /// The header of the partial count's column (`placements`).
    pub count: &'static str,
    /// The kind's columns: header and cell read from the record's [`Figures`].
    pub columns: &'static [ShardColumn],
}

/// A sweep's count split into shards: each size's hardest level as `parts` records
/// (`{group}-{size}-part-k-of-K`) and one record of its other levels, summed by the report.
/// The optional ability of a [`SweptTable`] (hex's three-axis count). Cost: one shard's
/// count, or the first layers of the count for a memory estimate.
pub trait ShardedSweep: Sync {
    /// The `[table]` key of the number of shards per size (`hex_parts`).
    fn parts_key(&self) -> &'static str;
    /// The other `[table]` keys the sharded count reads (`row_order`, `streamed_rows`).
    fn setting_keys(&self) -> &'static [&'static str];
    /// Checks the settings when the experiment is loaded: the message names the key at fault.
    fn check_settings(&self, settings: &Settings) -> Result<(), String>;
    /// Shard `part` (1-based) of `parts` of size `size`: its exact partial count and its own
    /// figures, reusing (and leaving) in `cache` what the next shard of the size can use.
    fn count_part(
        &self,
        size: usize,
        part: usize,
        parts: usize,
        settings: &Settings,
        cache: &mut ShardCache,
    ) -> Result<(BigUint, Figures), TableError>;
    /// Every level of `size` but the sharded one, with what [`ShardedSweep::combine`] needs:
    /// the record's count (the most constrained of them) and the levels.
    fn other_levels(&self, size: usize) -> Result<(BigUint, SpaceLevels), TableError>;
    /// The levels of a sharded size: its other levels as recorded and the sum of its shards;
    /// or why they do not combine.
    fn combine(
        &self,
        size: usize,
        others: &SpaceLevels,
        sum: &BigUint,
    ) -> Result<SpaceLevels, String>;
    /// The estimated peak memory in bytes of one of `parts` shards of `size` (`None`: a size
    /// the kind has no count for), for the memory a cluster task asks for.
    fn peak_bytes(
        &self,
        size: usize,
        parts: usize,
        settings: &Settings,
    ) -> Result<Option<u64>, TableError>;
    /// How the report shows the shards.
    fn columns(&self) -> ShardColumns;
}

/// A byte count in a figure as GiB with two decimals, `—` when it is absent.
pub fn gib_cell(value: Option<&serde_json::Value>) -> String {
    value.and_then(|v| v.as_u64()).map_or("—".into(), |b| {
        format!("{:.2}", b as f64 / (1u64 << 30) as f64)
    })
}
