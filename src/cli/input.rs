//! Reading the puzzle file a command works on, one puzzle at a time, and picking puzzles with
//! `--index` (reading stops at the chosen puzzle). Standard input is `-`, with `--format`.

use std::path::Path;

use clap::Args;
use zeroone::model::Model;
use zeroone::puzzle::parse::{self, Format, InputReader, ParseError, PuzzleStream};

use super::CliError;

/// The largest `--jobs`: more threads than this only cost memory.
pub const MAX_JOBS: u16 = 1024;

/// How many puzzles to work on at once (`--jobs`), for the commands that go over a file.
#[derive(Debug, Clone, Copy, Args)]
pub struct JobsArg {
    /// Puzzles worked on at once, one thread each (1 to 1024; default: one per core). The
    /// output is in file order and the same for any value.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=MAX_JOBS as i64))]
    pub jobs: Option<u16>,
}

impl JobsArg {
    /// The number of threads: the option, or the number of cores.
    pub fn threads(&self) -> usize {
        match self.jobs {
            Some(n) => usize::from(n),
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// The help line of a command's FILE argument: every extension zeroone reads, the puzzle
/// kinds' (from the registry), the generic models' and the 0-1 program formats' (OPB, CNF, LP,
/// MPS, XCC), so a format added to either list shows up here; `format_flag` is the option
/// that names the format of standard input. Built once per `--help`.
pub fn file_help(format_flag: &str) -> String {
    let dotted = |e: &str| format!(".{e}");
    let puzzles: Vec<String> = zeroone::puzzle::kinds::KINDS
        .iter()
        .flat_map(|k| k.extensions().iter().map(|e| dotted(e)))
        .chain([dotted("txt")])
        .collect();
    let programs: Vec<String> = zeroone::read::FORMATS
        .iter()
        .map(|f| {
            let extensions: Vec<String> = f.extensions().iter().map(|e| dotted(e)).collect();
            format!("{} {}", f.name().to_uppercase(), extensions.join("/"))
        })
        .collect();
    format!(
        "Puzzle file ({}), generic model (.json, .toml) or 0-1 program ({}), optionally .gz; \
         or `-` for standard input (with {format_flag})",
        puzzles.join(", "),
        programs.join(", ")
    )
}

/// Reads a `--format` value.
pub fn parse_format(name: &str) -> Result<Format, String> {
    name.parse()
}

fn bad(e: ParseError) -> CliError {
    CliError::BadInput(e.to_string())
}

/// Models read one at a time, each with its index in the file; an error ends them.
pub type Models = Box<dyn Iterator<Item = Result<(usize, Model), CliError>> + Send>;

/// The models of `file` (all of them, or only puzzle `index`), each with its index in the
/// file, read one at a time. With `index`, the puzzles before it are parsed (and checked) but
/// not modelled, and reading stops at it. An error ends the iteration.
pub fn models(
    file: &Path,
    format: Option<Format>,
    index: Option<usize>,
) -> Result<Models, CliError> {
    let stream = parse::open(file, format).map_err(bad)?;
    Ok(match index {
        None => Box::new(stream.models().map(|m| m.map_err(bad))),
        Some(index) => Box::new(std::iter::once(one_model(stream, index))),
    })
}

/// Puzzle `index` of `stream` as a model; an error when the stream holds fewer puzzles.
fn one_model(stream: PuzzleStream<InputReader>, index: usize) -> Result<(usize, Model), CliError> {
    let file = stream.file().to_string();
    let stem = stream.stem().to_string();
    let mut seen = 0;
    for puzzle in stream {
        let puzzle = puzzle.map_err(bad)?;
        if seen == index {
            let model = puzzle.to_model(format!("{stem}#{index}")).map_err(|e| {
                bad(ParseError {
                    file: file.clone(),
                    puzzle: Some(index),
                    line: 0,
                    column: 0,
                    kind: parse::ParseErrorKind::Model(Box::new(e)),
                })
            })?;
            return Ok((index, model));
        }
        seen += 1;
    }
    Err(CliError::BadInput(format!(
        "{file}: --index {index}: expected a puzzle index from 0 to {}, the file holds {seen} puzzle(s)",
        seen.saturating_sub(1),
    )))
}

/// Keeps only the families named by `--families` (when given), so that the backend and the
/// verifier see the same restricted model: counting "rows only" or "rows + diag" then checks
/// every witness against exactly those rules. An unknown family name is bad input.
pub fn restrict(model: Model, families: Option<&[String]>) -> Result<Model, CliError> {
    let Some(keep) = families else {
        return Ok(model);
    };
    let keep: Vec<&str> = keep.iter().map(String::as_str).collect();
    if let Some(bad) = keep.iter().find(|f| model.family_id(f).is_none()) {
        let known: Vec<&str> = model.families().iter().map(|f| f.name.as_str()).collect();
        return Err(CliError::BadInput(format!(
            "{}: --families: no family '{bad}' (this model has: {})",
            model.name(),
            known.join(", ")
        )));
    }
    Ok(model.restricted_to(&keep))
}
