//! `zeroone gauss`: the Gaussian-elimination report of each puzzle (Markdown, or one JSON
//! object per puzzle per line with `--json`).

use std::path::PathBuf;

use clap::Args;

use zeroone::backend::gauss::{analyse, least_norm_grid};
use zeroone::model::Model;
use zeroone::puzzle::HexBoard;

use zeroone::puzzle::parse::Format;

use super::input::{self, JobsArg, Models};
use super::parallel::{ordered, Printer};
use super::CliError;

/// Options of `zeroone gauss`.
#[derive(Debug, Args)]
pub struct GaussArgs {
    /// Puzzle file (every puzzle in it, or the one chosen with --index; optionally .gz), or `-`
    /// for standard input (with --format).
    #[arg(required_unless_present = "hex_width", conflicts_with = "hex_width")]
    file: Option<PathBuf>,
    /// Only the puzzle at this 0-based position in the file.
    #[arg(long)]
    index: Option<usize>,
    /// The file's format, when its name does not say it (or for standard input).
    #[arg(long, value_name = "FORMAT", value_parser = input::parse_format)]
    format: Option<Format>,
    /// The bare hex geometry of this odd width instead of a file (no colours).
    #[arg(long, value_name = "WIDTH")]
    hex_width: Option<usize>,
    /// One JSON object per puzzle, one per line, instead of Markdown.
    #[arg(long)]
    json: bool,
    /// Deterministic output: only the exact figures (the floating-point least-norm solution is
    /// left out), so it can be committed and diffed.
    #[arg(long)]
    stable: bool,
    #[command(flatten)]
    jobs: JobsArg,
}

/// Runs `zeroone gauss`: the report of each puzzle, read one at a time (`--jobs` at once),
/// printed in file order.
pub fn run(args: GaussArgs) -> Result<(), CliError> {
    let models = models(&args)?;
    let workers = vec![(); args.jobs.threads()];
    let (json, stable) = (args.json, args.stable);
    let mut printer = Printer::new();
    let result = ordered(
        models,
        workers,
        |(), (_, model)| report(&model, json, stable),
        |text: Result<String, CliError>| printer.print(&text?),
    );
    result.and(printer.flush())
}

/// The report of one model: a JSON line, or Markdown with the least-norm grid when it has one;
/// with `stable`, only the exact figures.
fn report(model: &Model, json: bool, stable: bool) -> Result<String, CliError> {
    let report = analyse(model);
    let cannot = |e: serde_json::Error| CliError::Failed(format!("cannot write JSON: {e}"));
    let mut out = String::new();
    if json && stable {
        // Keys sorted (a JSON map), the floating-point least-norm solution left out.
        let mut value = serde_json::to_value(&report).map_err(cannot)?;
        if let Some(fields) = value.as_object_mut() {
            fields.remove("least_norm");
        }
        out.push_str(&value.to_string());
        out.push('\n');
    } else if json {
        out.push_str(&serde_json::to_string(&report).map_err(cannot)?);
        out.push('\n');
    } else if stable {
        out.push_str(&report.exact_markdown());
    } else {
        out.push_str(&report.to_markdown());
        if let Some(grid) = least_norm_grid(model, &report) {
            out.push_str("```text\n");
            out.push_str(&grid);
            out.push_str("```\n\n");
        }
    }
    Ok(out)
}

fn models(args: &GaussArgs) -> Result<Models, CliError> {
    if let Some(width) = args.hex_width {
        let board = HexBoard::geometry(width).ok_or_else(|| {
            CliError::BadInput(format!(
                "--hex-width {width}: expected an odd width of at least 1"
            ))
        })?;
        return Ok(Box::new(std::iter::once(Ok((
            0,
            board.to_model(format!("hex-{width}")),
        )))));
    }
    let path = args
        .file
        .as_ref()
        .expect("clap requires FILE or --hex-width");
    input::models(path, args.format, args.index)
}
