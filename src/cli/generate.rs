//! `zeroone generate hex|queens --width N --count K --seed S [--output PATH]`: boards with
//! exactly one solution, in the `.hex` / `.queens` text formats, each preceded by `#` lines
//! with attempts, repairs, search nodes and whether propagation alone solves it.

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
}

/// Options of `zeroone generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Puzzle kind.
    #[arg(value_enum)]
    kind: GenerateKind,
    /// Hex width (odd, up to 51) or Queens side (4 to 52).
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
