//! `zeroone generate hex|queens|star|killer --width N --count K --seed S [--output PATH]`:
//! boards with exactly one solution, in the `.hex` / `.queens` / `.star` / `.killer` text
//! formats, each preceded by `#` lines with attempts, repairs, search nodes and the backends
//! that confirmed it. Star Battle takes `--stars K`; Killer Sudoku's width is 4 or 9 and takes
//! `--max-cage`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use zeroone::generate::{self, text, GenerateError, GenerateOptions};

use super::CliError;

/// Which puzzle kind to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GenerateKind {
    /// Hex boards (odd width).
    Hex,
    /// Square Queens grids.
    Queens,
    /// Star Battle grids (`--stars K` per row, column and region).
    Star,
    /// Killer Sudoku (width 4 or 9).
    Killer,
}

/// Options of `zeroone generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Puzzle kind.
    #[arg(value_enum)]
    kind: GenerateKind,
    /// Hex width (odd, up to 51), Queens side (4 to 52), Star Battle side (4 to 16) or Killer
    /// Sudoku side (4 or 9).
    #[arg(long)]
    width: usize,
    /// Number of boards.
    #[arg(long, default_value_t = 1)]
    count: usize,
    /// Seed: the same seed gives the same boards on any machine.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Fresh placements tried per board before giving up.
    #[arg(long, default_value_t = 1000)]
    max_attempts: usize,
    /// Region moves tried per placement before starting over (default: 4 x width).
    #[arg(long)]
    max_repairs: Option<usize>,
    /// Star Battle: stars per row, column and region (4k <= width).
    #[arg(long, default_value_t = 1)]
    stars: usize,
    /// Killer Sudoku: the largest cage grown (2 to 9 cells).
    #[arg(long, default_value_t = 4)]
    max_cage: usize,
    /// Write to this file (through a temporary file and a rename) instead of standard output.
    #[arg(long)]
    output: Option<PathBuf>,
}

/// Runs `zeroone generate`.
pub fn run(args: GenerateArgs) -> Result<(), CliError> {
    if args.width > 51 || args.width == 0 {
        return Err(CliError::BadInput(format!(
            "--width {}: expected 1 to 51 (one letter per region, A-Z and a-z)",
            args.width
        )));
    }
    let mut options = GenerateOptions::new(args.width, args.count, args.seed);
    options.max_attempts = args.max_attempts;
    if let Some(r) = args.max_repairs {
        options.max_repairs = r;
    }
    let map_err = |e: GenerateError| match e {
        GenerateError::BadSize(m) => CliError::BadInput(format!("--width: {m}")),
        other => CliError::Failed(other.to_string()),
    };
    let (w, seed) = (args.width, args.seed);
    let (kind, blocks, stopped): (&str, Vec<String>, Option<GenerateError>) = match args.kind {
        GenerateKind::Hex => {
            let found = generate::generate_hex_partial(&options).map_err(map_err)?;
            let blocks = found
                .boards
                .iter()
                .map(|g| text::hex_block(w, seed, g))
                .collect();
            ("hex", blocks, found.stopped)
        }
        GenerateKind::Queens => {
            let found = generate::generate_queens_partial(&options).map_err(map_err)?;
            let blocks = found
                .boards
                .iter()
                .map(|g| text::queens_block(w, seed, g))
                .collect();
            ("queens", blocks, found.stopped)
        }
        GenerateKind::Star => {
            use zeroone::puzzle::star::generate::{block, generate_partial, StarOptions};
            let mut o = StarOptions::new(w, args.stars, args.count, seed);
            o.max_attempts = args.max_attempts;
            if let Some(r) = args.max_repairs {
                o.max_repairs = r;
            }
            let (boards, stopped) = generate_partial(&o).map_err(map_err)?;
            let blocks = boards.iter().map(|g| block(&o, g)).collect();
            ("star", blocks, stopped)
        }
        GenerateKind::Killer => {
            use zeroone::puzzle::killer::generate::{block, generate_partial, KillerOptions};
            let box_size = match w {
                4 => 2,
                9 => 3,
                _ => {
                    return Err(CliError::BadInput(format!(
                        "--width {w}: expected 4 or 9 for a Killer Sudoku"
                    )))
                }
            };
            let mut o = KillerOptions::new(box_size, args.count, seed);
            o.max_cage = args.max_cage;
            o.max_attempts = args.max_attempts;
            let (boards, stopped) = generate_partial(&o).map_err(map_err)?;
            let blocks = boards.iter().map(|g| block(&o, g)).collect();
            ("killer", blocks, stopped)
        }
    };
    // Every board found is written, even when the run stopped short of --count.
    if !blocks.is_empty() || stopped.is_none() {
        let out = text::file(&blocks);
        match &args.output {
            Some(path) => zeroone::export::write_file(path, &out)
                .map_err(|e| CliError::Failed(format!("generate {kind}: {e}")))?,
            None => super::print_stdout(&out)?,
        }
    }
    match stopped {
        None => Ok(()),
        Some(e) => Err(CliError::Failed(format!(
            "generate {kind}: found {} of {} boards{}; {}",
            blocks.len(),
            args.count,
            match &args.output {
                Some(path) => format!(" (written to {})", path.display()),
                None => String::new(),
            },
            map_err(e)
        ))),
    }
}
