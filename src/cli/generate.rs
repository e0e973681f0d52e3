//! `zeroone generate hex|queens|star|killer --width N --count K --seed S [--output PATH]`:
//! boards with exactly one solution, in the `.hex` / `.queens` / `.star` / `.killer` text
//! formats, each preceded by `#` lines with attempts, repairs, search nodes and the backends
//! that confirmed it. Star Battle takes `--stars K`; Killer Sudoku's width is 4 or 9 and takes
//! `--max-cage`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use zeroone::generate::{self, text, GenerateError, GenerateOptions};
use zeroone::output::AtomicWriter;

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
    /// Star Battle: stars per row, column and region (4k <= width; default 1). Refused for
    /// other kinds.
    #[arg(long)]
    stars: Option<usize>,
    /// Killer Sudoku: the largest cage grown (2 to 9 cells; default 4). Refused for other
    /// kinds.
    #[arg(long)]
    max_cage: Option<usize>,
    /// Write to this file (through a temporary file and a rename) instead of standard output.
    #[arg(long)]
    output: Option<PathBuf>,
}

/// Refuses an option the chosen generator does not read, and `--count 0`.
fn check_options(args: &GenerateArgs) -> Result<(), CliError> {
    if args.count == 0 {
        return Err(CliError::BadInput(
            "--count 0: expected 1 or more boards".into(),
        ));
    }
    let kind = args
        .kind
        .to_possible_value()
        .map(|v| v.get_name().to_string());
    let kind = kind.unwrap_or_default();
    let unread = [
        (
            "--stars",
            args.stars.is_some() && args.kind != GenerateKind::Star,
        ),
        (
            "--max-cage",
            args.max_cage.is_some() && args.kind != GenerateKind::Killer,
        ),
        (
            "--max-repairs",
            args.max_repairs.is_some() && args.kind == GenerateKind::Killer,
        ),
    ];
    match unread.iter().find(|(_, bad)| *bad) {
        Some((option, _)) => Err(CliError::BadInput(format!(
            "generate {kind} does not take {option} (only {})",
            match *option {
                "--stars" => "generate star",
                "--max-cage" => "generate killer",
                _ => "generate hex, queens and star",
            }
        ))),
        None => Ok(()),
    }
}

/// Where the boards go as they are found: standard output (each board printed and flushed at
/// once) or `--output` through an [`AtomicWriter`] (renamed into place at the end: never a
/// partial file).
enum Sink {
    Stdout,
    File(AtomicWriter, PathBuf),
}

impl Sink {
    fn open(output: Option<&PathBuf>) -> Result<Sink, CliError> {
        match output {
            None => Ok(Sink::Stdout),
            Some(path) => AtomicWriter::create(path)
                .map(|w| Sink::File(w, path.clone()))
                .map_err(|e| CliError::Failed(format!("cannot write {}: {e}", path.display()))),
        }
    }

    /// Writes one board's block (a blank line before every board but the first).
    fn write(&mut self, first: bool, block: &str) -> Result<(), String> {
        use std::io::Write;
        let text = if first {
            block.to_string()
        } else {
            format!("\n{block}")
        };
        match self {
            Sink::Stdout => super::print_stdout(&text).map_err(|e| e.to_string()),
            Sink::File(w, _) => w.write_all(text.as_bytes()).map_err(|e| e.to_string()),
        }
    }

    /// Puts the file in place.
    fn finish(self) -> Result<(), CliError> {
        if let Sink::File(w, path) = self {
            w.commit()
                .map_err(|e| CliError::Failed(format!("cannot write {}: {e}", path.display())))?;
        }
        Ok(())
    }
}

/// Runs `zeroone generate`: each board is written as soon as it is found and checked, so
/// memory does not grow with `--count` and an interrupted run keeps the boards printed.
pub fn run(args: GenerateArgs) -> Result<(), CliError> {
    if args.width > 51 || args.width == 0 {
        return Err(CliError::BadInput(format!(
            "--width {}: expected 1 to 51 (one letter per region, A-Z and a-z)",
            args.width
        )));
    }
    check_options(&args)?;
    let mut options = GenerateOptions::new(args.width, args.count, args.seed);
    options.max_attempts = args.max_attempts;
    if let Some(r) = args.max_repairs {
        options.max_repairs = r;
    }
    let map_err = |e: GenerateError| match e {
        GenerateError::BadSize(m) => CliError::BadInput(format!("--width {}: {m}", args.width)),
        GenerateError::BadOption { option, message } => {
            CliError::BadInput(format!("--{option}: {message}"))
        }
        other => CliError::Failed(other.to_string()),
    };
    let (w, seed) = (args.width, args.seed);
    let mut sink = Sink::open(args.output.as_ref())?;
    let mut written = 0usize;
    let mut put = |block: String| {
        let r = sink.write(written == 0, &block);
        written += 1;
        r
    };
    let (kind, (found, stopped)) = match args.kind {
        GenerateKind::Hex => (
            "hex",
            generate::generate_hex_each(&options, &mut |g| put(text::hex_block(w, seed, &g)))
                .map_err(map_err)?,
        ),
        GenerateKind::Queens => (
            "queens",
            generate::generate_queens_each(&options, &mut |g| put(text::queens_block(w, seed, &g)))
                .map_err(map_err)?,
        ),
        GenerateKind::Star => {
            use zeroone::puzzle::kinds::star::generate::{block, generate_each, StarOptions};
            let mut o = StarOptions::new(w, args.stars.unwrap_or(1), args.count, seed);
            o.max_attempts = args.max_attempts;
            if let Some(r) = args.max_repairs {
                o.max_repairs = r;
            }
            let each = generate_each(&o, &mut |g| put(block(&o, &g))).map_err(map_err)?;
            ("star", each)
        }
        GenerateKind::Killer => {
            use zeroone::puzzle::kinds::killer::generate::{block, generate_each, KillerOptions};
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
            o.max_cage = args.max_cage.unwrap_or(4);
            o.max_attempts = args.max_attempts;
            let each = generate_each(&o, &mut |g| put(block(&o, &g))).map_err(map_err)?;
            ("killer", each)
        }
    };
    // Every board found is kept, even when the run stopped short of --count.
    if found > 0 || stopped.is_none() {
        sink.finish()?;
    }
    match stopped {
        None => Ok(()),
        Some(GenerateError::Output { reason, .. })
            if reason == CliError::StdoutClosed.to_string() =>
        {
            Err(CliError::StdoutClosed)
        }
        Some(e) => Err(CliError::Failed(format!(
            "generate {kind}: found {found} of {} boards{}; {}",
            args.count,
            match &args.output {
                Some(path) => format!(" (written to {})", path.display()),
                None => String::new(),
            },
            map_err(e)
        ))),
    }
}
