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
use zeroone::puzzle::Sudoku;
use zeroone::space::table::{self, Format, Method, TableOptions};

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
    /// With `--shard`: `top-down` (default), `bottom-up` or `middle-first`, the row order of
    /// the top half (they give the same counts through different intermediate layers).
    #[arg(long, default_value = "top-down", requires = "shard")]
    row_order: String,
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

/// `zeroone table hex --width W --shard k/K`: one shard of the three-axis count, as a table.
fn hex_shard_table(
    args: &TableArgs,
    width: usize,
    shard: &str,
    memory_limit: Option<u64>,
) -> Result<table::Table, CliError> {
    use zeroone::puzzle::kinds::hex::shards::RowOrder;
    let (part, parts) = parse_shard(shard)?;
    let order = match args.row_order.as_str() {
        "top-down" => RowOrder::TopDown,
        "bottom-up" => RowOrder::BottomUp,
        "middle-first" => RowOrder::MiddleFirst,
        other => {
            return Err(CliError::BadInput(format!(
                "--row-order '{other}': expected top-down, bottom-up or middle-first"
            )))
        }
    };
    let p = table::hex_three_axes_part(width, part, parts, order, memory_limit).map_err(
        |e| match e {
            table::TableError::BadSize(s) | table::TableError::Memory(s) => CliError::BadInput(s),
            other => CliError::Failed(other.to_string()),
        },
    )?;
    Ok(table::hex_part_table(&p))
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

fn sudoku_from_line(line: &str) -> Result<Sudoku, CliError> {
    let symbols: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
    let cells = symbols.len();
    let size = (1..=6)
        .map(|b: usize| b * b)
        .find(|&n| n * n == cells)
        .ok_or_else(|| {
            CliError::BadInput(format!(
                "--grid: {cells} symbols; expected n^2 for n = 4, 9, 16, 25 or 36"
            ))
        })?;
    let box_size = (1..=6).find(|b| b * b == size).unwrap_or(1);
    let mut grid = Vec::with_capacity(cells);
    for (i, &ch) in symbols.iter().enumerate() {
        grid.push(match ch {
            '.' | '0' => None,
            _ => Some(
                zeroone::puzzle::kinds::sudoku::digit_of(ch, size).ok_or_else(|| {
                    CliError::BadInput(format!(
                        "--grid: column {}: '{ch}' is not a digit of a {size}x{size} Sudoku",
                        i + 1
                    ))
                })?,
            ),
        });
    }
    let sudoku = Sudoku::from_cells(box_size, grid)
        .ok_or_else(|| CliError::BadInput("--grid: not a square grid".into()))?;
    sudoku
        .to_model("grid")
        .map_err(|e| CliError::BadInput(format!("--grid: {e}")))?;
    Ok(sudoku)
}

/// Runs `zeroone table`.
pub fn run(args: TableArgs) -> Result<(), CliError> {
    let format = format_of(&args)?;
    let options = options_of(&args)?;
    if let Some(shard) = &args.shard {
        let width = match (args.what.as_str(), args.width, &args.file) {
            ("hex", Some(w), None) => w,
            _ => {
                return Err(CliError::BadInput(
                    "--shard: only with `table hex --width N` (no board file)".into(),
                ))
            }
        };
        let t = hex_shard_table(&args, width, shard, options.memory_limit)?;
        return emit(&args, &t.render(format));
    }
    let file = match (args.what.as_str(), &args.file) {
        ("hex" | "queens" | "sudoku" | "star", file) => file.clone(),
        (path, None) => Some(PathBuf::from(path)),
        (_, Some(_)) => {
            return Err(CliError::BadInput(format!(
                "table '{}': expected hex, queens or sudoku before a file",
                args.what
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

/// The table of a whole family (`table hex --width N`, `--widths A-B`, `queens`, `star`,
/// `sudoku --grid LINE`), rendered.
fn family_table(
    args: &TableArgs,
    options: &TableOptions,
    format: Format,
) -> Result<String, CliError> {
    let failed = |e: table::TableError| match e {
        table::TableError::BadSize(s) | table::TableError::Memory(s) => CliError::BadInput(s),
        other => CliError::Failed(other.to_string()),
    };
    let text = match args.what.as_str() {
        "hex" => match (args.width, &args.widths) {
            (Some(w), None) => {
                table::hex_table(&table::hex_levels(w, options).map_err(failed)?).render(format)
            }
            (None, Some(range)) => {
                let widths: Vec<usize> = parse_range(range, "widths")?
                    .into_iter()
                    .filter(|w| w % 2 == 1)
                    .collect();
                let mut all = Vec::new();
                for w in widths {
                    all.push(table::hex_levels(w, options).map_err(failed)?);
                }
                table::hex_widths_table(&all).render(format)
            }
            _ => {
                return Err(CliError::BadInput(
                    "table hex: give --width N or --widths A-B".into(),
                ))
            }
        },
        "queens" => match (args.size, &args.sizes) {
            (Some(n), None) => {
                table::queens_table(&table::queens_levels(n, options).map_err(failed)?)
                    .render(format)
            }
            (None, Some(range)) => {
                let mut all = Vec::new();
                for n in parse_range(range, "sizes")? {
                    all.push(table::queens_levels(n, options).map_err(failed)?);
                }
                table::queens_sizes_table(&all).render(format)
            }
            _ => {
                return Err(CliError::BadInput(
                    "table queens: give --size N or --sizes A-B".into(),
                ))
            }
        },
        "star" => {
            let n = args.size.ok_or_else(|| {
                CliError::BadInput("table star: give --size N (and --stars K)".into())
            })?;
            let levels = zeroone::puzzle::kinds::star::table::star_levels(
                n,
                args.stars,
                options.orbit_limit,
            )
            .map_err(failed)?;
            zeroone::puzzle::kinds::star::table::star_table(&levels).render(format)
        }
        "sudoku" => {
            let line = args.grid.as_deref().ok_or_else(|| {
                CliError::BadInput("table sudoku: give a FILE or the grid with --grid LINE".into())
            })?;
            let grid = sudoku_from_line(line)?;
            table::sudoku_table(&table::sudoku_levels(&grid, args.solution_limit).map_err(failed)?)
                .render(format)
        }
        other => {
            return Err(CliError::BadInput(format!(
                "table '{other}': expected hex, queens, star or sudoku"
            )))
        }
    };
    Ok(text)
}

fn emit(args: &TableArgs, text: &str) -> Result<(), CliError> {
    match &args.output {
        None => super::print_stdout(text),
        Some(path) => write_atomically(path, text),
    }
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
    let failed = |e: table::TableError| CliError::Failed(e.to_string());
    let kind_matches = |p: &Puzzle| match (args.what.as_str(), p) {
        ("hex", Puzzle::Hex(_)) | ("queens", Puzzle::Queens(_)) | ("sudoku", Puzzle::Sudoku(_)) => {
            true
        }
        ("hex" | "queens" | "sudoku", _) => false,
        _ => true,
    };
    let mut tables = Vec::new();
    for (i, puzzle) in chosen {
        if !kind_matches(&puzzle) {
            return Err(CliError::BadInput(format!(
                "{}: puzzle {i} is not a {} puzzle",
                path.display(),
                args.what
            )));
        }
        let name = format!("{}#{i}", path.display());
        let model = puzzle
            .to_model(name.clone())
            .map_err(|e| CliError::BadInput(format!("{name}: {e}")))?;
        let mut t = match &puzzle {
            Puzzle::Hex(board) => {
                let mut levels = table::hex_levels(board.width(), options).map_err(failed)?;
                if board.regions().is_some() {
                    levels.board = Some(table::board_count(&model).map_err(failed)?);
                }
                table::hex_table(&levels)
            }
            Puzzle::Queens(board) => {
                let mut levels = table::queens_levels(board.size(), options).map_err(failed)?;
                if board.regions().is_some() {
                    levels.board = Some(table::board_count(&model).map_err(failed)?);
                }
                table::queens_table(&levels)
            }
            Puzzle::Sudoku(grid) => table::sudoku_table(
                &table::sudoku_levels(grid, args.solution_limit).map_err(failed)?,
            ),
            Puzzle::Model(_) => {
                return Err(CliError::BadInput(format!(
                    "{name}: a generic model has no search-space table (use hex, Queens or Sudoku)"
                )))
            }
            Puzzle::Board(board) => {
                return Err(CliError::BadInput(format!(
                    "{name}: {} puzzles have no search-space table yet (use hex, Queens or Sudoku)",
                    board.kind().name()
                )))
            }
        };
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

fn write_atomically(path: &std::path::Path, text: &str) -> Result<(), CliError> {
    zeroone::output::write_atomically(path, text.as_bytes())
        .map_err(|e| CliError::Failed(format!("{}: {e}", path.display())))
}
