//! `zeroone snapshot FILE`: one stable text per file (model shape, Gauss relaxation, every
//! verified solution), to commit and diff in any CI. See `zeroone::testing`.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;
use zeroone::puzzle::parse::Format;
use zeroone::testing::{snapshot, Snapshot, SnapshotOptions};

use super::{input, CliError};

/// Arguments of `zeroone snapshot`.
#[derive(Debug, Args)]
pub struct SnapshotArgs {
    #[arg(help = input::file_help("--format"))]
    pub file: PathBuf,
    /// Only the puzzle with this 0-based index in the file.
    #[arg(long)]
    pub index: Option<usize>,
    /// The file's format, when its name does not say it (or for standard input).
    #[arg(long, value_name = "FORMAT", value_parser = input::parse_format)]
    pub format: Option<Format>,
    /// Backend that enumerates the solutions (exact backends only give a stable text).
    #[arg(long, default_value = "bitset")]
    pub backend: String,
    /// List at most this many solutions per puzzle.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: u64,
    /// Write the text to this file (atomically) instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// One puzzle's snapshot with its index in the file.
#[derive(Serialize)]
struct Indexed {
    index: usize,
    #[serde(flatten)]
    snapshot: Snapshot,
}

/// Prints (or writes) the snapshots of the selected puzzles as one pretty JSON array.
pub fn run(args: SnapshotArgs) -> Result<(), CliError> {
    let options = SnapshotOptions {
        backend: args.backend.clone(),
        limit: Some(args.limit),
    };
    let mut all = Vec::new();
    for item in input::models(&args.file, args.format, args.index)? {
        let (index, model) = item?;
        let snapshot = snapshot(&model, &options).map_err(|e| match e {
            zeroone::testing::TestingError::Failed { .. } => CliError::Failed(e.to_string()),
            _ => CliError::BadInput(e.to_string()),
        })?;
        all.push(Indexed { index, snapshot });
    }
    let mut text = serde_json::to_string_pretty(&all)
        .map_err(|e| CliError::Failed(format!("cannot render the snapshot: {e}")))?;
    text.push('\n');
    super::emit(args.output.as_deref(), &text)
}
