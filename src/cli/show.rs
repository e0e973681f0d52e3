//! `zeroone show FILE`: the 0-1 model of each puzzle (sizes, families, the matrix when small),
//! read one puzzle at a time (`--jobs` at once), printed in file order.

use std::path::PathBuf;

use clap::Args;
use zeroone::puzzle::parse::Format;
use zeroone::render::{model_text, ShowRecord};

use super::input::{self, JobsArg};
use super::parallel::{ordered, Printer};
use super::CliError;

/// Arguments of `zeroone show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    #[arg(help = input::file_help("--format"))]
    pub file: PathBuf,
    /// Only the puzzle with this 0-based index in the file.
    #[arg(long)]
    pub index: Option<usize>,
    /// The file's format, when its name does not say it (or for standard input).
    #[arg(long, value_name = "FORMAT", value_parser = input::parse_format)]
    pub format: Option<Format>,
    /// One JSON object per puzzle per line: variables, constraints, families, nonzeros.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub jobs: JobsArg,
}

/// Prints the model of each selected puzzle (text models separated by a blank line).
pub fn run(args: ShowArgs) -> Result<(), CliError> {
    let models = input::models(&args.file, args.format, args.index)?;
    let workers = vec![(); args.jobs.threads()];
    let json = args.json;
    let mut printer = Printer::new();
    let mut first = true;
    let result = ordered(
        models,
        workers,
        |(), (index, model)| {
            if json {
                ShowRecord::new(index, &model).to_json() + "\n"
            } else {
                model_text(&model)
            }
        },
        |text: String| {
            if !json && !first {
                printer.print("\n")?;
            }
            first = false;
            printer.print(&text)
        },
    );
    result.and(printer.flush())
}
