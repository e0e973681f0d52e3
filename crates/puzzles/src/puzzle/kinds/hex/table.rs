//! The hex board's table: its levels ([`HexLevels`]), orbits by Burnside's lemma, the memory
//! guard and sharded three-axis counts, and its tables.

use crate::backend::memory;
use crate::model::Model;
use crate::puzzle::kinds::hex::lines::hex_count;
use crate::puzzle::kinds::hex::shards;
use crate::puzzle::kinds::hex::shards::{
    HexHalves, MemoryEstimate, PartCount, RowOrder, RowPlan, StreamedRows,
};
use crate::puzzle::symmetry::Group;
use crate::puzzle::table::{
    binomial, checked_orbits, enum_count, one_or_many, orbit_stats, pow2, with_board_count, Cell,
    Method, ShardRequest, ShardedCount, SpaceLevels, SpaceTable, SweptTable, Table, TableError,
    TableOptions, TableRequest,
};
use crate::puzzle::HexBoard;
use crate::puzzle::Puzzle;
use num_bigint::BigUint;
use num_traits::{One, Zero};

/// The hex kind's [`SpaceTable`]: `--width N` or `--widths A-B` (odd widths), and a board's
/// own count when it has colours.
pub struct HexTable;

impl SpaceTable for HexTable {
    fn size_flags(&self) -> (&'static str, &'static str) {
        ("width", "widths")
    }

    fn family_table(&self, request: &TableRequest) -> Result<Table, TableError> {
        // Even widths have no hex board: a range keeps the odd ones.
        let odd: Option<Vec<usize>> =
            (request.sizes.as_ref()).map(|ws| ws.iter().copied().filter(|w| w % 2 == 1).collect());
        one_or_many(
            request.size,
            odd.as_deref(),
            "table hex: give --width N or --widths A-B",
            |w| hex_levels(w, request.options),
            hex_table,
            hex_widths_table,
        )
    }

    fn reads_boards(&self) -> bool {
        true
    }

    fn sharded(&self) -> Option<&dyn ShardedCount> {
        Some(self)
    }

    fn swept(&self) -> Option<&dyn SweptTable> {
        Some(self)
    }

    fn board_table(
        &self,
        puzzle: &Puzzle,
        model: &Model,
        request: &TableRequest,
    ) -> Option<Result<Table, TableError>> {
        let board = puzzle.board_as::<HexBoard>()?;
        let levels = with_board_count(
            hex_levels(board.width(), request.options),
            board.regions().is_some(),
            model,
            |l, count| l.board = Some(count),
        );
        Some(levels.map(|l| hex_table(&l)))
    }
}

/// The shard counts `--estimate` tabulates.
const ESTIMATED_PARTS: [usize; 11] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

/// `--row-order`: top-down when absent.
fn row_order(request: &ShardRequest) -> Result<RowOrder, TableError> {
    match request.row_order {
        None => Ok(RowOrder::default()),
        Some(name) => RowOrder::from_name(name).ok_or_else(|| {
            TableError::BadSize(format!(
                "--row-order '{name}': expected top-down, bottom-up or middle-first"
            ))
        }),
    }
}

/// `--streamed-rows`: two when absent.
fn streamed_rows(request: &ShardRequest) -> Result<StreamedRows, TableError> {
    match request.streamed_rows {
        None => Ok(StreamedRows::default()),
        Some(n) => StreamedRows::from_count(n)
            .ok_or_else(|| TableError::BadSize(format!("--streamed-rows {n}: expected 2 or 3"))),
    }
}

/// The three-axis count in shards: `--shard k/K` counts the placements whose top half falls
/// in class k, with the top half's `--row-order` and `--streamed-rows`; `--estimate` the
/// peak memory per shard for K = 1, 2, 4, ..., 1024 and each streamed-rows choice.
impl ShardedCount for HexTable {
    fn shard_table(&self, request: &ShardRequest) -> Result<Table, TableError> {
        let (part, parts) = request.shard.unwrap_or((1, 1));
        let plan = RowPlan::new(row_order(request)?, streamed_rows(request)?);
        let p = hex_three_axes_part(request.size, part, parts, plan, request.memory_limit)?;
        Ok(hex_part_table(&p))
    }

    fn estimate_tables(&self, request: &ShardRequest) -> Result<Vec<Table>, TableError> {
        let streamed = match request.streamed_rows {
            None => StreamedRows::ALL.to_vec(),
            Some(_) => vec![streamed_rows(request)?],
        };
        let tables = hex_memory_tables(
            request.size,
            row_order(request)?,
            &streamed,
            &ESTIMATED_PARTS,
            request.estimate_states,
        )?;
        Ok(tables.into())
    }
}

/// The levels of one hex width, each an exact count (orbits: `None` when not computed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HexLevels {
    /// Board width `n`.
    pub width: usize,
    /// Cells `N`.
    pub cells: u64,
    /// `2^N`.
    pub every_cell: BigUint,
    /// `C(N, n)`.
    pub choose_n: BigUint,
    /// Product of the row lengths.
    pub one_axis: BigUint,
    /// One per row and per second-axis line.
    pub two_axes: BigUint,
    /// One per line of all three axes.
    pub three_axes: BigUint,
    /// Three-axis placements up to the 12 symmetries.
    pub orbits: Option<BigUint>,
    /// A coloured board's solution count, when a board was given.
    pub board: Option<BigUint>,
}

impl HexLevels {
    /// The levels as a table experiment records them, by key: `cells`, `every_cell`,
    /// `choose_n`, `one_axis`, `two_axes`, `three_axes`, and `orbits` when counted (the
    /// board's own count is not a table experiment's).
    pub fn to_space_levels(&self) -> SpaceLevels {
        let mut l = SpaceLevels::default();
        l.set("cells", self.cells);
        l.set("every_cell", self.every_cell.clone());
        l.set("choose_n", self.choose_n.clone());
        l.set("one_axis", self.one_axis.clone());
        l.set("two_axes", self.two_axes.clone());
        l.set("three_axes", self.three_axes.clone());
        if let Some(o) = &self.orbits {
            l.set("orbits", o.clone());
        }
        l
    }

    /// The levels of width `width` read back from [`HexLevels::to_space_levels`]'s keys;
    /// `None` when one is missing (`three_axes` may be, with `without_three_axes`: it is 0
    /// then, for the caller to fill in).
    pub fn from_space_levels(
        width: usize,
        l: &SpaceLevels,
        without_three_axes: bool,
    ) -> Option<HexLevels> {
        let three_axes = match l.get("three_axes") {
            Some(c) => c.clone(),
            None if without_three_axes => BigUint::zero(),
            None => return None,
        };
        Some(HexLevels {
            width,
            cells: u64::try_from(l.get("cells")?).ok()?,
            every_cell: l.get("every_cell")?.clone(),
            choose_n: l.get("choose_n")?.clone(),
            one_axis: l.get("one_axis")?.clone(),
            two_axes: l.get("two_axes")?.clone(),
            three_axes,
            orbits: l.get("orbits").cloned(),
            board: None,
        })
    }
}

/// Three-axis placements of width `width` up to the 12 symmetries by Burnside's lemma: the
/// identity fixes all `total` placements, every other symmetry's fixed placements are counted
/// by [`hex_fixed_points`](crate::puzzle::symmetry::hex_fixed_points) (a small model over orbits of
/// cells), and the mean is taken; it must be a whole number.
pub fn hex_orbits_by_burnside(width: usize, total: u128) -> Result<BigUint, TableError> {
    let fixed = hex_fixed_points_by_symmetry(width)?;
    orbits_from_fixed_points(total, &fixed)
}

/// The placements fixed by each of the 11 symmetries other than the identity (rotations by
/// 60-300 degrees, then the six reflections), each counted by the enumerator on its orbit
/// model ([`hex_fixed_points`](crate::puzzle::symmetry::hex_fixed_points)): independent of the dp.
pub fn hex_fixed_points_by_symmetry(width: usize) -> Result<Vec<u128>, TableError> {
    (1..12)
        .map(|g| {
            crate::puzzle::symmetry::hex_fixed_points(width, g)
                .map_err(|e| TableError::Count(e.to_string()))
        })
        .collect()
}

/// Burnside's lemma: the identity fixes all `total` placements, `fixed` are the other 11
/// symmetries' fixed placements; the orbits are the mean, which must be a whole number.
pub fn orbits_from_fixed_points(total: u128, fixed: &[u128]) -> Result<BigUint, TableError> {
    let sum = fixed
        .iter()
        .try_fold(total, |acc, &f| acc.checked_add(f))
        .ok_or_else(|| TableError::Count("the Burnside sum passed 2^128".into()))?;
    if sum % 12 != 0 {
        return Err(TableError::Burnside {
            canonical: "not computed".into(),
            burnside: format!("{sum}/12, not a whole number"),
        });
    }
    Ok(BigUint::from(sum / 12))
}

/// The memory guard runs the first dynamic-programming layers while they hold at most this
/// many states and extrapolates the rest: at width 25 the first 8 of 12 top rows (3 s of CPU,
/// 0.6 GB), at width 27 the first 8 of 13 (6 s, 1.3 GB). Fewer measured rows lean far higher
/// (width 27, three streamed rows, 32 shards: 52 GiB from 7 rows against 28 GiB from 8).
pub const GUARD_BUDGET: usize = 1 << 24;

/// Refuses (before anything is counted) a three-axis count of width `width` in `parts` shards
/// computed by `plan` whose estimated peak memory per shard is above `limit` (`None`:
/// `MemAvailable`). The estimate measures the first dynamic-programming layers and
/// extrapolates their growth; a refusal says how many shards each number of streamed rows
/// needs to fit.
pub fn hex_memory_guard(
    width: usize,
    parts: usize,
    plan: RowPlan,
    limit: Option<u64>,
) -> Result<(), TableError> {
    let Some(halves) = HexHalves::new(width) else {
        return Ok(());
    };
    let Some(limit) = limit.or_else(memory::available_memory) else {
        return Ok(());
    };
    let measure = |plan| {
        MemoryEstimate::measure(&halves, plan, GUARD_BUDGET)
            .map_err(|e| TableError::Count(e.to_string()))
    };
    let estimate = measure(plan)?;
    let needed = estimate.peak_bytes(parts);
    if needed <= limit {
        return Ok(());
    }
    let mut advice = Vec::new();
    for streamed in StreamedRows::ALL {
        let other = RowPlan::new(plan.order, streamed);
        let e = if other == plan {
            estimate.clone()
        } else {
            measure(other)?
        };
        advice.push(match e.parts_within(limit) {
            Some(k) => format!(
                "with {} streamed rows, `--shard k/K` with K >= {k}: about {} each",
                streamed.count(),
                memory::gib(e.peak_bytes(k))
            ),
            None => format!(
                "with {} streamed rows no number of shards brings it within the limit (4096 \
                 shards need about {} each)",
                streamed.count(),
                memory::gib(e.peak_bytes(4096))
            ),
        });
    }
    let shards = if parts > 1 {
        format!(" per shard of {parts}")
    } else {
        String::new()
    };
    Err(TableError::Memory(format!(
        "hex width {width}: the three-axis count ({}) needs about {}{shards} (estimated from the \
         states of the first {} rows: {} top states up to reflection), above the limit of {}; {}",
        plan.name(),
        memory::gib(needed),
        estimate.measured_layers - 1,
        estimate.top_states,
        memory::gib(limit),
        advice.join("; "),
    )))
}

/// The estimated peak memory of one shard of the three-axis count of width `width` for each
/// number of streamed rows of `streamed` (row order `order`) and each shard count of `parts`
/// (`zeroone table hex --width W --estimate`): what to ask a cluster for before counting.
/// Two tables: the peaks, and the source layers' states (measured while a layer holds at most
/// `budget` states, then extrapolated) with the seconds the measuring took. Costs those
/// layers' dynamic programme (seconds with [`GUARD_BUDGET`]; 30 bytes a state of the
/// largest measured layer, twice).
pub fn hex_memory_tables(
    width: usize,
    order: RowOrder,
    streamed: &[StreamedRows],
    parts: &[usize],
    budget: usize,
) -> Result<[Table; 2], TableError> {
    let halves = HexHalves::new(width).ok_or_else(|| {
        TableError::BadSize(format!(
            "hex width {width}: expected an odd width from 1 to 31"
        ))
    })?;
    let number = |x: u64| Cell::count(BigUint::from(x));
    let (mut peaks, mut layers) = (Vec::new(), Vec::new());
    for &streamed in streamed {
        let plan = RowPlan::new(order, streamed);
        let start = std::time::Instant::now();
        let e = MemoryEstimate::measure(&halves, plan, budget)
            .map_err(|e| TableError::Count(e.to_string()))?;
        let seconds = start.elapsed().as_secs_f64();
        let source = e.source_states.last().copied().unwrap_or(1);
        for &k in parts {
            peaks.push(vec![
                Cell::text(streamed.count().to_string()),
                Cell::text(k.to_string()),
                Cell::text(memory::gib(e.peak_bytes(k))),
                number(source),
                number(e.top_states.div_ceil(k.max(1) as u64)),
            ]);
        }
        let (measured, guessed) = e.source_states.split_at(e.measured_layers);
        let list = |states: &[u64]| states.iter().map(u64::to_string).collect::<Vec<_>>();
        layers.push(vec![
            Cell::text(streamed.count().to_string()),
            Cell::text(list(measured).join(" ")),
            Cell::text(list(guessed).join(" ")),
            number(e.top_states),
            Cell::text(format!("{seconds:.1}")),
        ]);
    }
    let title = |what: &str| format!("Hex board, width {width}: {what} ({})", order.name());
    Ok([
        Table {
            title: title("estimated peak memory of one shard of the three-axis count"),
            header: vec![
                "streamed rows".into(),
                "shards K".into(),
                "peak per shard".into(),
                "source states".into(),
                "class states (mean)".into(),
            ],
            rows: peaks,
        },
        Table {
            title: title(
                "states of the source layers (up to reflection), measured then extrapolated",
            ),
            header: vec![
                "streamed rows".into(),
                "measured layers".into(),
                "extrapolated layers".into(),
                "top states (extrapolated)".into(),
                "seconds measuring".into(),
            ],
            rows: layers,
        },
    ])
}

/// Shard `part` (1-based) of `parts` of the three-axis count of width `width` (see
/// [`shards`]) computed by `plan`: the exact number of placements whose top half lies in
/// the shard's class. Refused first when its estimated memory is above `limit`
/// ([`hex_memory_guard`]).
pub fn hex_three_axes_part(
    width: usize,
    part: usize,
    parts: usize,
    plan: RowPlan,
    limit: Option<u64>,
) -> Result<PartCount, TableError> {
    let halves = HexHalves::new(width).ok_or_else(|| {
        TableError::BadSize(format!(
            "hex width {width}: expected an odd width from 1 to 31"
        ))
    })?;
    if part == 0 || part > parts {
        return Err(TableError::BadSize(format!(
            "shard {part}/{parts}: expected k/K with 1 <= k <= K"
        )));
    }
    hex_memory_guard(width, parts, plan, limit)?;
    shards::count_part(&halves, part, parts, plan, None)
        .map_err(|e| TableError::Count(e.to_string()))
}

pub(super) fn hex_board(width: usize) -> Result<HexBoard, TableError> {
    HexBoard::geometry(width)
        .filter(|_| width <= 31)
        .ok_or_else(|| {
            TableError::BadSize(format!(
                "hex width {width}: expected an odd width from 1 to 31"
            ))
        })
}

/// The hex levels of width `width` (odd, 1..=31) that do not need the three-axis count: the
/// closed forms and the two-axis count; `three_axes` is 0 and `orbits` empty, for the caller
/// to fill in (a sharded count sums its shards first).
pub fn hex_levels_but_three_axes(
    width: usize,
    options: &TableOptions,
) -> Result<HexLevels, TableError> {
    let board = hex_board(width)?;
    let cells = board.num_cells() as u64;
    let one_axis = (0..width).fold(BigUint::one(), |acc, r| {
        acc * BigUint::from(board.row_len(r))
    });
    let two_axes = match options.method {
        Method::Dp => match hex_count(width, (true, false)) {
            Some(Ok((c, _))) => c,
            Some(Err(e)) => return Err(TableError::Count(e.to_string())),
            None => return Err(TableError::BadSize(format!("hex width {width}"))),
        },
        Method::Enum => {
            let m = board.to_model(format!("hex-{width}"));
            enum_count(&m, &["row", "diag"])?
        }
    };
    Ok(HexLevels {
        width,
        cells,
        every_cell: pow2(cells),
        choose_n: binomial(cells, width as u64),
        one_axis,
        two_axes: BigUint::from(two_axes),
        three_axes: BigUint::zero(),
        orbits: None,
        board: None,
    })
}

/// Computes the hex levels of width `width` (odd, 1..=31). With [`Method::Dp`], refuses
/// first (before counting anything) when the estimated memory is above the limit.
pub fn hex_levels(width: usize, options: &TableOptions) -> Result<HexLevels, TableError> {
    let board = hex_board(width)?;
    if options.method == Method::Dp {
        hex_memory_guard(width, 1, RowPlan::default(), options.memory_limit)?;
    }
    let mut levels = hex_levels_but_three_axes(width, options)?;
    let three_axes = match options.method {
        Method::Dp => {
            let halves = HexHalves::new(width)
                .ok_or_else(|| TableError::BadSize(format!("hex width {width}")))?;
            shards::count_part(&halves, 1, 1, RowPlan::default(), None)
                .map_err(|e| TableError::Count(e.to_string()))?
                .count
        }
        Method::Enum => {
            let m = board.to_model(format!("hex-{width}"));
            enum_count(&m, &["row", "diag", "anti"])?
        }
    };
    levels.orbits = if three_axes <= options.orbit_limit {
        let m = board.to_model(format!("hex-{width}"));
        let stats = orbit_stats(&m, &["row", "diag", "anti"], &Group::hex(width), |r, k| {
            board.diag(r, k)
        })?;
        if stats.placements != three_axes {
            return Err(TableError::Count(format!(
                "enumerated {} three-axis placements, counted {three_axes}",
                stats.placements
            )));
        }
        Some(checked_orbits(&stats)?)
    } else if options.burnside {
        Some(hex_orbits_by_burnside(width, three_axes)?)
    } else {
        None
    };
    levels.three_axes = BigUint::from(three_axes);
    Ok(levels)
}

/// The levels of a hex board of width `n` (`N` cells), as every table, CSV and plot names
/// them, each with the sentence that defines it.
pub const HEX_LEVELS: [(&str, &str); 6] = [
    ("every cell 0/1", "each of the N cells is 0 or 1, with no rule: 2^N."),
    ("n cells", "exactly n of the N cells are 1: C(N, n)."),
    (
        "one per row",
        "exactly one 1 in each of the n rows (one axis): the product of the row lengths.",
    ),
    (
        "one per line on two axes",
        "one per row and one per line of a second axis.",
    ),
    (
        "one per line on three axes",
        "one per line of all three axes: the placements a board without colours allows.",
    ),
    (
        "three axes up to symmetry",
        "the three-axis placements counted once per orbit of the 12 rotations and reflections of the hexagon.",
    ),
];

/// Why a hex width's orbits are empty (only when Burnside's lemma is turned off).
pub(super) const HEX_NO_ORBITS: &str = "not computed: above the orbit limit with Burnside's lemma turned off (--no-burnside), or a record made before orbits were computed at this width";
/// The seed's scaling column, one entry per level.
pub(super) const HEX_SCALING: [&str; 7] = [
    "2^Θ(n²)",
    "C(Θ(n²), n)",
    "roughly n! 2^n / √n",
    "at most O(n!) candidates",
    "bounded above by O(n!)",
    "about 1/12 of the line above",
    "1 for a proper puzzle",
];

/// The table of one hex width: one row per level, with the seed's scaling column.
pub fn hex_table(levels: &HexLevels) -> Table {
    let n = levels.width;
    let big_n = levels.cells;
    let mut rows = vec![
        vec![
            Cell::text(HEX_LEVELS[0].0),
            Cell::formula(levels.every_cell.clone(), format!("2^{big_n}")),
        ],
        vec![
            Cell::text(HEX_LEVELS[1].0),
            Cell::formula(levels.choose_n.clone(), format!("C({big_n},{n})")),
        ],
        vec![
            Cell::text(HEX_LEVELS[2].0),
            Cell::count(levels.one_axis.clone()),
        ],
        vec![
            Cell::text(HEX_LEVELS[3].0),
            Cell::count(levels.two_axes.clone()),
        ],
        vec![
            Cell::text(HEX_LEVELS[4].0),
            Cell::count(levels.three_axes.clone()),
        ],
        vec![
            Cell::text(HEX_LEVELS[5].0),
            levels
                .orbits
                .clone()
                .map_or(Cell::Missing(HEX_NO_ORBITS.into()), Cell::count),
        ],
    ];
    if let Some(b) = &levels.board {
        rows.push(vec![
            Cell::text("with the board's colours"),
            Cell::count(b.clone()),
        ]);
    }
    for (row, scaling) in rows.iter_mut().zip(HEX_SCALING) {
        row.push(Cell::text(scaling));
    }
    Table {
        title: format!("Hex board, width {n} ({big_n} cells)"),
        header: vec!["level".into(), "count".into(), "scaling in n".into()],
        rows,
    }
}

/// The table of one shard of a three-axis hex count: its partial count and what it held.
pub fn hex_part_table(p: &PartCount) -> Table {
    let number = |x: u64| Cell::count(BigUint::from(x));
    let source = p.source_states.last().copied().unwrap_or(0);
    Table {
        title: format!(
            "Hex board, width {}: three-axis placements, shard {} of {} ({})",
            p.width,
            p.part,
            p.parts,
            p.plan.name()
        ),
        header: vec!["quantity".into(), "value".into()],
        rows: vec![
            vec![
                Cell::text("placements whose top half is in this shard's class"),
                Cell::count(BigUint::from(p.count)),
            ],
            vec![
                Cell::text("top-half states of the class (up to reflection)"),
                number(p.class_states),
            ],
            vec![
                Cell::text("source-layer states (up to reflection)"),
                number(source),
            ],
            vec![
                Cell::text("peak bytes of state arrays and tables"),
                number(p.peak_state_bytes),
            ],
            vec![
                Cell::text("seconds: source layer, class table, join"),
                Cell::text(format!(
                    "{:.1}, {:.1}, {:.1}",
                    p.source_seconds, p.class_seconds, p.join_seconds
                )),
            ],
        ],
    }
}

/// One row per width, one column per level.
pub fn hex_widths_table(all: &[HexLevels]) -> Table {
    let rows = all
        .iter()
        .map(|l| {
            vec![
                Cell::Int(l.width as u64),
                Cell::Int(l.cells),
                Cell::formula(l.every_cell.clone(), format!("2^{}", l.cells)),
                Cell::formula(l.choose_n.clone(), format!("C({},{})", l.cells, l.width)),
                Cell::count(l.one_axis.clone()),
                Cell::count(l.two_axes.clone()),
                Cell::count(l.three_axes.clone()),
                l.orbits
                    .clone()
                    .map_or(Cell::Missing(HEX_NO_ORBITS.into()), Cell::count),
            ]
        })
        .collect();
    Table {
        title: "Hex boards by width".into(),
        header: ["width", "cells"]
            .into_iter()
            .chain(HEX_LEVELS.iter().map(|l| l.0))
            .map(String::from)
            .collect(),
        rows,
    }
}
