//! The hex table as a table experiment sweeps it (`[table] hex_widths = [...]`): every level
//! of each width, the seed's width marked (`mark_hex_widths`), and the three-axis count in
//! shards (`hex_parts`, with `row_order` and `streamed_rows`), each shard one record, summed
//! by the report with the orbits by Burnside's lemma from the recorded fixed points.

use num_bigint::BigUint;

use crate::puzzle::kinds::hex::shards::{
    self, HexHalves, Layer, MemoryEstimate, RowOrder, RowPlan, ShardError, StreamedRows,
};
use crate::puzzle::kinds::hex::table::{
    hex_fixed_points_by_symmetry, hex_levels, hex_levels_but_three_axes, hex_memory_guard,
    hex_widths_table, orbits_from_fixed_points, HexLevels, HexTable, GUARD_BUDGET, HEX_LEVELS,
};
use crate::puzzle::table::{
    gib_cell, Figures, Setting, Settings, ShardCache, ShardColumns, ShardedSweep, SpaceLevels,
    SweepMarks, SweptTable, Table, TableError, TableOptions,
};

impl SweptTable for HexTable {
    fn group(&self) -> &'static str {
        "hex"
    }

    fn sizes_key(&self) -> &'static str {
        "hex_widths"
    }

    fn marks(&self) -> Option<SweepMarks> {
        Some(SweepMarks {
            key: "mark_hex_widths",
            note: "\nRows in bold are the widths the experiment file marks (`mark_hex_widths`; \
                   `search-space.toml` marks width 9, the row the seed write-up tabulates, to compare number for number).\n",
            level: 4,
            label: |w| format!("width {w} (the seed's row)"),
        })
    }

    fn levels(&self) -> &'static [(&'static str, &'static str)] {
        &HEX_LEVELS
    }

    fn legend_heading(&self) -> &'static str {
        "Levels (each column, left to right, adds a rule to the one before it):\n\n"
    }

    fn size_levels(&self, size: usize) -> Result<(BigUint, SpaceLevels), TableError> {
        let l = hex_levels(size, &TableOptions::default())?;
        Ok((l.three_axes.clone(), l.to_space_levels()))
    }

    fn level_counts(&self, size: usize, recorded: &SpaceLevels) -> Option<Vec<Option<BigUint>>> {
        let l = HexLevels::from_space_levels(size, recorded, false)?;
        Some(vec![
            Some(l.every_cell),
            Some(l.choose_n),
            Some(l.one_axis),
            Some(l.two_axes),
            Some(l.three_axes),
            l.orbits,
        ])
    }

    fn sizes_table(&self, recorded: &[(usize, SpaceLevels)]) -> Table {
        let all: Vec<HexLevels> = (recorded.iter())
            .filter_map(|(w, l)| HexLevels::from_space_levels(*w, l, false))
            .collect();
        hex_widths_table(&all)
    }

    fn sharded(&self) -> Option<&dyn ShardedSweep> {
        Some(self)
    }
}

/// The source layer of the last shard counted, with the width and rows it was made for.
type SourceCache = (usize, RowPlan, (Layer, Vec<u64>, u64));

/// The row order and streamed rows of `settings` (checked when the experiment was loaded;
/// absent: top-down, two).
fn row_plan(settings: &Settings) -> RowPlan {
    let order = match settings.get("row_order") {
        Some(Setting::Text(name)) => RowOrder::from_name(name).unwrap_or_default(),
        _ => RowOrder::default(),
    };
    let streamed = match settings.get("streamed_rows") {
        Some(&Setting::Number(n)) => usize::try_from(n)
            .ok()
            .and_then(StreamedRows::from_count)
            .unwrap_or_default(),
        _ => StreamedRows::default(),
    };
    RowPlan::new(order, streamed)
}

/// The shard columns of the report: memory of the state arrays, states of the class, and
/// whether the source layer came from the shard before.
const SHARD_COLUMNS: ShardColumns = ShardColumns {
    heading: "### Shards of the three-axis counts\n\nEach shard counts the placements whose top half \
              lies in its class (see `src/puzzle/kinds/hex/shards/`); a width's count is their sum.\n\n",
    count: "placements",
    columns: &[
        ("peak state arrays (GiB)", |f| gib_cell(f.get("peak_state_bytes"))),
        ("class states", |f| {
            f.get("class_states").map_or("—".into(), |v| v.to_string())
        }),
        ("source shared", |f| {
            f.get("source_shared").map_or("—".into(), |v| v.to_string())
        }),
    ],
};

impl ShardedSweep for HexTable {
    fn parts_key(&self) -> &'static str {
        "hex_parts"
    }

    fn setting_keys(&self) -> &'static [&'static str] {
        &["row_order", "streamed_rows"]
    }

    fn check_settings(&self, settings: &Settings) -> Result<(), String> {
        if let Some(s) = settings.get("streamed_rows") {
            let ok = matches!(s, &Setting::Number(n)
                if usize::try_from(n).ok().and_then(StreamedRows::from_count).is_some());
            if !ok {
                return Err("`streamed_rows`: expected 2 or 3".into());
            }
        }
        if let Some(order) = settings.get("row_order") {
            if !matches!(order, Setting::Text(name) if RowOrder::from_name(name).is_some()) {
                return Err(format!(
                    "`row_order` '{order}': expected top-down, bottom-up or middle-first"
                ));
            }
        }
        Ok(())
    }

    fn count_part(
        &self,
        width: usize,
        part: usize,
        parts: usize,
        settings: &Settings,
        cache: &mut ShardCache,
    ) -> Result<(BigUint, Figures), TableError> {
        let plan = row_plan(settings);
        let halves = HexHalves::new(width)
            .ok_or_else(|| TableError::BadSize(format!("hex width {width}")))?;
        let count_error = |e: ShardError| TableError::Count(e.to_string());
        let kept = cache.as_ref().and_then(|c| c.downcast_ref::<SourceCache>());
        let shared = matches!(kept, Some((w, p, _)) if *w == width && *p == plan);
        if !shared {
            // A shard after the first reuses the source layer: it fitted, so no new guess.
            hex_memory_guard(width, parts, plan, None)?;
            *cache = None;
            let source = shards::source_layer(&halves, plan).map_err(count_error)?;
            *cache = Some(Box::new((width, plan, source) as SourceCache));
        }
        let source = (cache.as_ref())
            .and_then(|c| c.downcast_ref::<SourceCache>())
            .map(|c| &c.2);
        let p = shards::count_part(&halves, part, parts, plan, source).map_err(count_error)?;
        let mut figures = Figures::new();
        figures.insert("source_shared".into(), shared.into());
        figures.insert("width".into(), p.width.into());
        figures.insert("part".into(), p.part.into());
        figures.insert("parts".into(), p.parts.into());
        figures.insert("row_order".into(), p.plan.order.name().into());
        figures.insert("streamed_rows".into(), p.plan.streamed.count().into());
        figures.insert("source_seconds".into(), p.source_seconds.into());
        figures.insert("source_states".into(), p.source_states.clone().into());
        figures.insert("class_states".into(), p.class_states.into());
        figures.insert("class_slots".into(), p.class_slots.into());
        figures.insert("peak_state_bytes".into(), p.peak_state_bytes.into());
        figures.insert("class_seconds".into(), p.class_seconds.into());
        figures.insert("join_seconds".into(), p.join_seconds.into());
        Ok((BigUint::from(p.count), figures))
    }

    fn other_levels(&self, width: usize) -> Result<(BigUint, SpaceLevels), TableError> {
        let l = hex_levels_but_three_axes(width, &TableOptions::default())?;
        let fixed = hex_fixed_points_by_symmetry(width)?;
        let mut recorded = l.to_space_levels();
        recorded.counts.remove("three_axes");
        recorded.fixed_points = fixed.into_iter().map(BigUint::from).collect();
        Ok((l.two_axes, recorded))
    }

    fn combine(
        &self,
        width: usize,
        others: &SpaceLevels,
        sum: &BigUint,
    ) -> Result<SpaceLevels, String> {
        let three_axes = u128::try_from(sum).map_err(|_| "the shards' sum passed 2^128")?;
        let fixed: Vec<u128> = (others.fixed_points.iter())
            .filter_map(|f| u128::try_from(f).ok())
            .collect();
        if fixed.len() != 11 {
            return Err("the record lacks the 11 fixed-point counts".into());
        }
        let orbits = orbits_from_fixed_points(three_axes, &fixed).map_err(|e| e.to_string())?;
        let mut levels =
            HexLevels::from_space_levels(width, others, true).ok_or("the record lacks a level")?;
        levels.three_axes = sum.clone();
        levels.orbits = Some(orbits);
        Ok(levels.to_space_levels())
    }

    fn peak_bytes(
        &self,
        width: usize,
        parts: usize,
        settings: &Settings,
    ) -> Result<Option<u64>, TableError> {
        let Some(halves) = HexHalves::new(width) else {
            return Ok(None);
        };
        let estimate = MemoryEstimate::measure(&halves, row_plan(settings), GUARD_BUDGET)
            .map_err(|e| TableError::Count(format!("hex width {width}: {e}")))?;
        Ok(Some(estimate.peak_bytes(parts)))
    }

    fn columns(&self) -> ShardColumns {
        SHARD_COLUMNS
    }
}
