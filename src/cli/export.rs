//! `zeroone export FILE [--index I] --format lp|mps|opb|cnf|json|xcc [--output PATH]`: the 0-1
//! model of a puzzle for other solvers. One puzzle goes to standard output or to `PATH`; a file
//! of several puzzles needs `--index`, or `--output DIR` (an existing folder) to get one file
//! per puzzle, `<stem>-<index>.<format>`. Every model is rendered before anything is written,
//! and each file is written through a temporary file and a rename. `--input-format` names the
//! puzzle file's format when its name does not (`-` reads standard input).

use std::path::{Path, PathBuf};

use clap::Args;
use zeroone::export::cnf::{to_dimacs, CnfOptions, PbEncoding};
use zeroone::export::{render, write_file, Format};
use zeroone::puzzle::parse::{stem_of, Format as InputFormat};

use super::{input, CliError};

/// Arguments of `zeroone export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    #[arg(help = input::file_help("--input-format"))]
    pub file: PathBuf,
    /// Only the puzzle with this 0-based index in the file.
    #[arg(long)]
    pub index: Option<usize>,
    /// The puzzle file's format, when its name does not say it (or for standard input).
    #[arg(long, value_name = "FORMAT", value_parser = input::parse_format)]
    pub input_format: Option<InputFormat>,
    /// Output format: lp (CPLEX LP), mps (free MPS), opb (pseudo-Boolean), cnf (DIMACS), json
    /// (the generic model), xcc (exact cover in Knuth's DLX format; unit-weight rows only).
    #[arg(long)]
    pub format: String,
    /// Write here instead of standard output; an existing folder gets one file per puzzle.
    #[arg(long)]
    pub output: Option<PathBuf>,
    /// CNF only: rows of at most this many variables get pairwise at-most-one clauses, longer
    /// rows a sequential counter.
    #[arg(long, default_value_t = CnfOptions::default().pairwise_up_to)]
    pub pairwise_up_to: usize,
    /// CNF only: the encoding of weighted rows (gte, dpw or adder, all from rustsat);
    /// cardinality rows always get the totalizer.
    #[arg(long, default_value_t = PbEncoding::default())]
    pub pb_encoding: PbEncoding,
}

/// Exports the selected puzzles. The file is read one puzzle at a time; for a folder it is
/// read twice (once to render every model, so that a bad puzzle writes nothing, once to
/// write), except standard input, whose texts are kept between the two steps.
pub fn run(args: ExportArgs) -> Result<(), CliError> {
    let format: Format = args
        .format
        .parse()
        .map_err(|e| CliError::BadInput(format!("--format: {e}")))?;
    let folder = args.output.as_deref().filter(|p| p.is_dir());
    let write = |path: &Path, text: &str| {
        write_file(path, text).map_err(|e| CliError::Failed(e.to_string()))
    };
    if let Some(dir) = folder {
        let stem = stem_of(&args.file);
        // Every model is rendered before the first file is written.
        let kept = rendered(&args, format)?.collect::<Result<Vec<_>, _>>()?;
        let texts: Texts = if args.file.as_os_str() == "-" {
            Box::new(kept.into_iter().map(Ok))
        } else {
            drop(kept);
            rendered(&args, format)?
        };
        for text in texts {
            let (index, text) = text?;
            write(&dir.join(format!("{stem}-{index}.{format}")), &text)?;
        }
        return Ok(());
    }
    let mut texts = rendered(&args, format)?;
    let (_, text) = texts.next().unwrap_or_else(|| {
        Err(CliError::BadInput(format!(
            "{}: no puzzle",
            args.file.display()
        )))
    })?;
    if args.index.is_none() {
        if let Some(second) = texts.next() {
            second?;
            let more = 2 + texts.count();
            return Err(CliError::BadInput(format!(
                "{} holds {more} puzzles: pick one with --index, or give --output an existing folder for one file each",
                args.file.display(),
            )));
        }
    }
    match &args.output {
        Some(path) => write(path, &text),
        None => super::print_stdout(&text),
    }
}

/// Rendered models, one at a time, with their indices in the file.
type Texts<'a> = Box<dyn Iterator<Item = Result<(usize, String), CliError>> + 'a>;

/// The selected puzzles' models rendered in `format`, one at a time, with their indices.
fn rendered(args: &ExportArgs, format: Format) -> Result<Texts<'_>, CliError> {
    let models = input::models(&args.file, args.input_format, args.index)?;
    Ok(Box::new(models.map(move |m| {
        let (index, model) = m?;
        let text = match format {
            Format::Cnf => to_dimacs(
                &model,
                &CnfOptions {
                    pairwise_up_to: args.pairwise_up_to,
                    pb: args.pb_encoding,
                },
            )
            .map_err(|e| {
                CliError::BadInput(format!("{} puzzle {index}: {e}", args.file.display()))
            })?,
            _ => render(&model, format).map_err(|e| {
                CliError::BadInput(format!("{} puzzle {index}: {e}", args.file.display()))
            })?,
        };
        Ok((index, text))
    })))
}
