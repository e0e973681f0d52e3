//! `zeroone gauss`: the Gaussian-elimination report of each puzzle (Markdown, or one JSON
//! object per puzzle per line with `--json`).

use std::path::PathBuf;

use clap::Args;

use zeroone::backend::gauss::{analyse, least_norm_grid};
use zeroone::model::Model;
use zeroone::puzzle::HexBoard;

use super::CliError;

/// Options of `zeroone gauss`.
#[derive(Debug, Args)]
pub struct GaussArgs {
    /// Puzzle file (every puzzle in it, or the one chosen with --index).
    #[arg(required_unless_present = "hex_width", conflicts_with = "hex_width")]
    file: Option<PathBuf>,
    /// Only the puzzle at this 0-based position in the file.
    #[arg(long)]
    index: Option<usize>,
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
}

/// Runs `zeroone gauss`.
pub fn run(args: GaussArgs) -> Result<(), CliError> {
    let models = models(&args)?;
    let mut out = String::new();
    for model in &models {
        let report = analyse(model);
        if args.json {
            let cannot = |e: serde_json::Error| CliError::Failed(format!("cannot write JSON: {e}"));
            let line = if args.stable {
                // Keys sorted (a JSON map), the floating-point least-norm solution left out.
                let mut value = serde_json::to_value(&report).map_err(cannot)?;
                if let Some(fields) = value.as_object_mut() {
                    fields.remove("least_norm");
                }
                value.to_string()
            } else {
                serde_json::to_string(&report).map_err(cannot)?
            };
            out.push_str(&line);
            out.push('\n');
        } else if args.stable {
            out.push_str(&report.exact_markdown());
        } else {
            out.push_str(&report.to_markdown());
            if let Some(grid) = least_norm_grid(model, &report) {
                out.push_str("```text\n");
                out.push_str(&grid);
                out.push_str("```\n\n");
            }
        }
    }
    super::print_stdout(&out)
}

fn models(args: &GaussArgs) -> Result<Vec<Model>, CliError> {
    if let Some(width) = args.hex_width {
        let board = HexBoard::geometry(width).ok_or_else(|| {
            CliError::BadInput(format!(
                "--hex-width {width}: expected an odd width of at least 1"
            ))
        })?;
        return Ok(vec![board.to_model(format!("hex-{width}"))]);
    }
    let path = args
        .file
        .as_ref()
        .expect("clap requires FILE or --hex-width");
    Ok(super::input::models(path, args.index)?
        .into_iter()
        .map(|(_, m)| m)
        .collect())
}
