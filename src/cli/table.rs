//! `zeroone table`: the search-space table (exact counts per modelling level).
//!
//! `zeroone table hex --width 9`, `zeroone table hex --widths 1-19`, `zeroone table queens
//! --size 8`, `zeroone table queens --sizes 1-14`, `zeroone table sudoku FILE` (or `--grid
//! LINE`), `zeroone table FILE` (any board file: its kind's table plus the board's own solution
//! count); `--format md|csv|json`; `--output FILE` writes through a temporary file renamed into
//! place.

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use zeroone::puzzle::table::{
    Format, Method, ShardRequest, SpaceTable, TableError, TableOptions, TableRequest,
};
use zeroone::puzzle::KINDS;
use zeroone::space::table;

/// Arguments of `zeroone table`.
#[derive(Debug, Args)]
pub struct TableArgs {
    /// What to tabulate: `hex`, `queens`, `star` (`--size N --stars K`), `sudoku`, or a board
    /// file (`.hex`, `.queens`, `.sudoku`, `.txt`).
    what: String,
    /// A board file for `hex`, `queens` or `sudoku`: adds the board's own solution count.
    file: Option<PathBuf>,
    /// Only puzzle number INDEX (0-based) of the file.
    #[arg(long)]
    index: Option<usize>,
    /// Hex: one board width (odd).
    #[arg(long, conflicts_with = "widths")]
    width: Option<usize>,
    /// Hex: a range of widths, one row each (`1-19`, or a comma list; even widths are skipped).
    #[arg(long)]
    widths: Option<String>,
    /// Queens: one board size.
    #[arg(long, conflicts_with = "sizes")]
    size: Option<usize>,
    /// Queens: a range of sizes, one row each (`1-14` or a comma list).
    #[arg(long)]
    sizes: Option<String>,
    /// Star Battle: stars per row, column and region.
    #[arg(long, default_value_t = 1)]
    stars: usize,
    /// Sudoku: the grid as one line of n^2 symbols (`.` or `0` for an empty cell).
    #[arg(long)]
    grid: Option<String>,
    /// Output format: `md`, `csv` or `json`.
    #[arg(long, default_value = "md")]
    format: String,
    /// How the constrained levels are counted: `dp` (fast) or `enum` (one placement at a time).
    #[arg(long, default_value = "dp")]
    method: String,
    /// Count orbits by canonical forms only when at most this many placements must be
    /// enumerated; above, hex orbits come from Burnside's lemma (fixed points on orbit models).
    #[arg(long)]
    orbit_limit: Option<u128>,
    /// Leave the "up to symmetry" level empty (saves its time at large sizes).
    #[arg(long)]
    no_orbits: bool,
    /// Sudoku: stop counting solutions at this many.
    #[arg(long, default_value_t = 1_000_000)]
    solution_limit: u64,
    /// Write the table to this file (atomically) instead of standard output.
    #[arg(long)]
    output: Option<PathBuf>,
    /// Hex, one width: count only shard k of K (1-based) of the three-axis placements, those
    /// whose top half falls in class k; the K shards' counts sum to the total.
    #[arg(long, value_name = "k/K", requires = "width")]
    shard: Option<String>,
    /// With `--shard` or `--estimate`: `top-down` (default), `bottom-up` or `middle-first`,
    /// the row order of the top half (they give the same counts through different
    /// intermediate layers).
    #[arg(long)]
    row_order: Option<String>,
    /// With `--shard`: how many top rows are streamed, 2 (default, faster) or 3 (a source
    /// layer 3-4 times smaller: less memory per shard when the shards are many, more time).
    /// With `--estimate`: only this choice (default: both).
    #[arg(long, value_name = "2|3")]
    streamed_rows: Option<usize>,
    /// Hex, one width: print the estimated peak memory of one shard of the three-axis count
    /// for two and three streamed rows and K = 1, 2, 4, ..., 1024 shards (measures the first
    /// layers, seconds), instead of counting.
    #[arg(long, requires = "width", conflicts_with = "shard")]
    estimate: bool,
    /// With `--estimate`: measure the source layers exactly while they hold at most this many
    /// states (about 30 bytes a state of the largest, twice), extrapolate the rest.
    #[arg(long, value_name = "STATES", requires = "estimate", default_value_t = table::GUARD_BUDGET)]
    estimate_states: usize,
    /// Refuse a hex count whose estimated peak memory is above this (`8G`, `512M`, bytes);
    /// default: the memory the system has available.
    #[arg(long, value_name = "SIZE")]
    memory_limit: Option<String>,
}

fn parse_size(text: &str) -> Result<u64, CliError> {
    zeroone::backend::memory::parse_size(text).ok_or_else(|| {
        CliError::BadInput(format!(
            "--memory-limit '{text}': expected a size like 8G, 512M or 1073741824"
        ))
    })
}

/// Parses `k/K` with `1 <= k <= K <= 65536`.
fn parse_shard(text: &str) -> Result<(usize, usize), CliError> {
    let bad = || {
        CliError::BadInput(format!(
            "--shard '{text}': expected k/K with 1 <= k <= K <= 65536 (like 3/16)"
        ))
    };
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let k: usize = k.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || k > n || n > 65536 {
        return Err(bad());
    }
    Ok((k, n))
}

/// The largest width or size the command line takes: a guard against allocating for absurd
/// values (the table itself refuses sizes it cannot count, with its own range).
const MAX_SIZE: usize = 1000;

/// Refuses a `--width` / `--size` above [`MAX_SIZE`].
fn check_size(value: Option<usize>, what: &str) -> Result<(), CliError> {
    match value {
        Some(v) if v > MAX_SIZE => Err(CliError::BadInput(format!(
            "--{what} {v}: expected at most {MAX_SIZE}"
        ))),
        _ => Ok(()),
    }
}

fn parse_range(text: &str, what: &str) -> Result<Vec<usize>, CliError> {
    let bad = || {
        CliError::BadInput(format!(
            "--{what} '{text}': expected a range like 1-19 or a comma list like 5,7,9, values from 0 to {MAX_SIZE}"
        ))
    };
    let mut out = Vec::new();
    for part in text.split(',') {
        let part = part.trim();
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (usize, usize) = (
                    a.trim().parse().map_err(|_| bad())?,
                    b.trim().parse().map_err(|_| bad())?,
                );
                if a > b || b > MAX_SIZE {
                    return Err(bad());
                }
                out.extend(a..=b);
            }
            None => match part.parse() {
                Ok(v) if v <= MAX_SIZE => out.push(v),
                _ => return Err(bad()),
            },
        }
        if out.len() > MAX_SIZE {
            return Err(bad());
        }
    }
    if out.is_empty() {
        return Err(bad());
    }
    Ok(out)
}

/// Runs `zeroone table`.
pub fn run(args: TableArgs) -> Result<(), CliError> {
    let format = format_of(&args)?;
    let options = options_of(&args)?;
    let sharded = args.shard.is_some() || args.estimate;
    if !sharded && (args.row_order.is_some() || args.streamed_rows.is_some()) {
        return Err(CliError::BadInput(
            "--row-order and --streamed-rows: only with `table hex --width N --shard k/K` or \
             `--estimate`"
                .into(),
        ));
    }
    if sharded {
        let text = sharded_table(&args, &options, format)?;
        return emit(&args, &text);
    }
    let file = match (table_of(&args.what), &args.file) {
        (Some(_), file) => file.clone(),
        (None, None) => Some(PathBuf::from(&args.what)),
        (None, Some(_)) => {
            return Err(CliError::BadInput(format!(
                "table '{}': expected {} before a file",
                args.what,
                board_table_kinds()
            )))
        }
    };
    if let Some(path) = &file {
        let text = board_tables(&args, path, &options, format)?;
        return emit(&args, &text);
    }
    let text = family_table(&args, &options, format)?;
    emit(&args, &text)
}

/// `--shard k/K` or `--estimate` (`table hex --width W`): one shard of the kind's split count,
/// or the estimated memory per shard, through the kind's
/// [`ShardedCount`](zeroone::puzzle::table::ShardedCount).
fn sharded_table(
    args: &TableArgs,
    options: &TableOptions,
    format: Format,
) -> Result<String, CliError> {
    let flag = if args.estimate {
        "--estimate"
    } else {
        "--shard"
    };
    let found = table_of(&args.what).and_then(|t| Some((t.sharded()?, t.size_flags().0)));
    let (count, size) = match (found, &args.file) {
        (Some((count, one)), None) => match size_of(args, one) {
            Some(size) => (count, size),
            None => return Err(only_sharded(flag)),
        },
        _ => return Err(only_sharded(flag)),
    };
    let request = ShardRequest {
        size,
        shard: args.shard.as_deref().map(parse_shard).transpose()?,
        row_order: args.row_order.as_deref(),
        streamed_rows: args.streamed_rows,
        estimate_states: args.estimate_states,
        memory_limit: options.memory_limit,
    };
    let refused = |e: TableError| match e {
        TableError::BadSize(s) | TableError::Memory(s) => CliError::BadInput(s),
        other => CliError::Failed(other.to_string()),
    };
    if !args.estimate {
        return Ok(count.shard_table(&request).map_err(refused)?.render(format));
    }
    let tables = count.estimate_tables(&request).map_err(refused)?;
    Ok(match format {
        Format::Markdown => (tables.iter())
            .map(|t| t.render(format))
            .collect::<Vec<_>>()
            .join("\n"),
        // One table a document: the first (the others are in the Markdown form).
        _ => tables.first().map(|t| t.render(format)).unwrap_or_default(),
    })
}

/// The one-size flag `one` (`width`, `size`) as given.
fn size_of(args: &TableArgs, one: &str) -> Option<usize> {
    if one == "width" {
        args.width
    } else {
        args.size
    }
}

/// The refusal of `--shard` or `--estimate` where no kind's count splits: it names the kinds
/// whose counts do, with their size flag (`table hex --width N`).
fn only_sharded(flag: &str) -> CliError {
    let mut kinds: Vec<String> = (zeroone::puzzle::kinds::tables(KINDS).into_iter())
        .filter(|(_, t)| t.sharded().is_some())
        .map(|(name, t)| format!("`table {name} --{} N`", t.size_flags().0))
        .collect();
    kinds.sort_unstable();
    CliError::BadInput(format!(
        "{flag}: only with {} (no board file)",
        kinds.join(" or ")
    ))
}

/// `--format`: md, csv or json.
fn format_of(args: &TableArgs) -> Result<Format, CliError> {
    Ok(match args.format.as_str() {
        "md" | "markdown" => Format::Markdown,
        "csv" => Format::Csv,
        "json" => Format::Json,
        other => {
            return Err(CliError::BadInput(format!(
                "--format '{other}': expected md, csv or json"
            )))
        }
    })
}

/// The counting options the flags give (method, orbits, memory limit), range-checked.
fn options_of(args: &TableArgs) -> Result<TableOptions, CliError> {
    let method = match args.method.as_str() {
        "dp" => Method::Dp,
        "enum" => Method::Enum,
        other => {
            return Err(CliError::BadInput(format!(
                "--method '{other}': expected dp or enum"
            )))
        }
    };
    check_size(args.width, "width")?;
    check_size(args.size, "size")?;
    let mut options = TableOptions {
        method,
        ..TableOptions::default()
    };
    if let Some(l) = args.orbit_limit {
        options.orbit_limit = l;
    }
    if args.no_orbits {
        options.orbit_limit = 0;
        options.burnside = false;
    }
    if let Some(size) = &args.memory_limit {
        options.memory_limit = Some(parse_size(size)?);
    }
    Ok(options)
}

/// The search-space table of the kind called `name`, through the kind registry.
fn table_of(name: &str) -> Option<&'static dyn SpaceTable> {
    zeroone::puzzle::kinds::table_for(KINDS, name)
}

/// The names of the kinds with a table, sorted, in words (`a, b or c`).
fn table_kinds() -> String {
    names_in_words(|_| true)
}

/// The names of the kinds whose table reads board files, in words.
fn board_table_kinds() -> String {
    names_in_words(|t| t.reads_boards())
}

/// The names of the kinds whose table passes `keep`, sorted, in words (`a, b or c`).
fn names_in_words(keep: impl Fn(&dyn SpaceTable) -> bool) -> String {
    let mut names: Vec<&str> = (zeroone::puzzle::kinds::tables(KINDS).into_iter())
        .filter(|(_, t)| keep(*t))
        .map(|(name, _)| name)
        .collect();
    names.sort_unstable();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// What the flags ask of `table`: the size flags it names, and the kind-neutral settings.
fn request_of<'a>(
    args: &'a TableArgs,
    table: &dyn SpaceTable,
    options: &'a TableOptions,
) -> Result<TableRequest<'a>, CliError> {
    let (one, many) = table.size_flags();
    let size = size_of(args, one);
    let sizes = if one == "width" {
        &args.widths
    } else {
        &args.sizes
    };
    Ok(TableRequest {
        size,
        sizes: sizes.as_deref().map(|r| parse_range(r, many)).transpose()?,
        stars: args.stars,
        grid: args.grid.as_deref(),
        solution_limit: args.solution_limit,
        options,
    })
}

/// The table of a whole kind (`table hex --width N`, `--widths A-B`, `queens`, `star`,
/// `sudoku --grid LINE`), found through the kind registry, rendered.
fn family_table(
    args: &TableArgs,
    options: &TableOptions,
    format: Format,
) -> Result<String, CliError> {
    let Some(table) = table_of(&args.what) else {
        return Err(CliError::BadInput(format!(
            "table '{}': expected {}",
            args.what,
            table_kinds()
        )));
    };
    let request = request_of(args, table, options)?;
    let t = table.family_table(&request).map_err(|e| match e {
        TableError::BadSize(s) | TableError::Memory(s) => CliError::BadInput(s),
        other => CliError::Failed(other.to_string()),
    })?;
    Ok(t.render(format))
}

fn emit(args: &TableArgs, text: &str) -> Result<(), CliError> {
    super::emit(args.output.as_deref(), text)
}

/// The tables of every puzzle in `path` (or puzzle `--index`), each with the board's count.
fn board_tables(
    args: &TableArgs,
    path: &std::path::Path,
    options: &TableOptions,
    format: Format,
) -> Result<String, CliError> {
    use zeroone::puzzle::{parse::load, Puzzle};
    let puzzles = load(path).map_err(|e| CliError::BadInput(e.to_string()))?;
    let count = puzzles.len();
    let chosen: Vec<(usize, Puzzle)> = match args.index {
        None => puzzles.into_iter().enumerate().collect(),
        Some(i) if i < count => vec![(
            i,
            puzzles.into_iter().nth(i).unwrap_or_else(|| unreachable!()),
        )],
        Some(i) => {
            return Err(CliError::BadInput(format!(
                "{}: --index {i}: the file holds {count} puzzle(s)",
                path.display()
            )))
        }
    };
    let wanted = table_of(&args.what).map(|_| args.what.as_str());
    let mut tables = Vec::new();
    for (i, puzzle) in chosen {
        let kind = puzzle.board().map(|b| b.kind());
        if let Some(wanted) = wanted.filter(|&w| kind.map(|k| k.name()) != Some(w)) {
            return Err(CliError::BadInput(format!(
                "{}: puzzle {i} is not a {wanted} puzzle",
                path.display()
            )));
        }
        let name = format!("{}#{i}", path.display());
        let model = puzzle
            .to_model(name.clone())
            .map_err(|e| CliError::BadInput(format!("{name}: {e}")))?;
        let Some(kind) = kind else {
            return Err(CliError::BadInput(format!(
                "{name}: a generic model has no search-space table (use {})",
                board_table_kinds()
            )));
        };
        let found = match kind.table().filter(|t| t.reads_boards()) {
            Some(table) => table.board_table(&puzzle, &model, &request_of(args, table, options)?),
            None => None,
        };
        let Some(result) = found else {
            return Err(CliError::BadInput(format!(
                "{name}: {} puzzles have no search-space table yet (use {})",
                kind.name(),
                board_table_kinds()
            )));
        };
        let mut t = result.map_err(|e| CliError::Failed(e.to_string()))?;
        t.title = format!("{} — {name}", t.title);
        tables.push(t.render(format));
    }
    Ok(match format {
        // Several JSON documents become one array.
        Format::Json if tables.len() > 1 => format!("[\n{}]\n", tables.join(",\n")),
        Format::Markdown => tables.join("\n"),
        _ => tables.concat(),
    })
}
