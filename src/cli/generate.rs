//! `zeroone generate KIND --width N --count K --seed S [--output PATH]`: boards with exactly
//! one solution, of any registered kind that has a generator (`Kind::generator`), in the
//! kind's text format, each preceded by `#` lines with attempts, search nodes and the backends
//! that confirmed it. The kinds, the widths they take, the options they read and the boards
//! all come from the registry: this file names no kind. An option the chosen generator does not
//! read is refused.

use std::path::PathBuf;

use std::sync::OnceLock;

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Arg, ArgMatches, Args, Command};

use zeroone::output::AtomicWriter;
use zeroone::puzzle::generate::{GenerateError, GeneratorOption, Request};
use zeroone::puzzle::kinds::{by_name, generator_for, generator_options, generators, KINDS};
use zeroone::puzzle::parse::{parse_str, Format};

use super::CliError;

/// The kinds `generate` takes (those with a generator), with the widths each accepts.
fn generator_kinds() -> PossibleValuesParser {
    PossibleValuesParser::new(generators(KINDS).into_iter().map(|(name, g)| {
        let noun = by_name(name).map_or(name, |k| k.noun());
        PossibleValue::new(name).help(format!("{noun}s, width {}", g.widths()))
    }))
}

/// Options of `zeroone generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Puzzle kind.
    #[arg(value_parser = generator_kinds())]
    kind: String,
    /// Board width (hex width, grid side); each kind's widths are listed above. At most 51
    /// (one letter per region, A-Z and a-z).
    #[arg(long)]
    width: usize,
    /// Number of boards.
    #[arg(long, default_value_t = 1)]
    count: usize,
    /// Seed: the same seed gives the same boards on any machine.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The generators' own options (`--max-attempts`, `--stars`, ...), from the registry.
    #[command(flatten)]
    options: GeneratorFlags,
    /// Write to this file (through a temporary file and a rename) instead of standard output.
    #[arg(long)]
    output: Option<PathBuf>,
    /// Certify each board unique: `bitset` logs a VeriPB proof of its count 1 and the checker
    /// (`veripb`) checks it; the board gets a line `# certified unique: ...`. A board whose
    /// certificate fails stops the run (exit 1); without the checker, refused (exit 2).
    #[arg(long)]
    certify: bool,
}

impl GenerateArgs {
    /// What the generator is asked: width, count, seed and the further options given.
    fn request(&self) -> Request {
        (self.options.given.iter()).fold(
            Request::new(self.width, self.count, self.seed),
            |request, &(name, value)| request.with(name, value),
        )
    }
}

/// The flags of the options the registered generators read ([`generator_options`]): each
/// `--NAME N`, a whole number, with its generator's help; an option not every generator reads
/// says that the others refuse it. The flags are the registry's, so a kind's generator adds
/// its own without touching this file.
#[derive(Debug, Default)]
struct GeneratorFlags {
    /// The options given, in the registry's order of options.
    given: Vec<(&'static str, usize)>,
}

/// The generators' options with the help line and value name each flag shows, built once.
fn flags() -> &'static [(GeneratorOption, String, &'static str)] {
    static FLAGS: OnceLock<Vec<(GeneratorOption, String, &'static str)>> = OnceLock::new();
    FLAGS.get_or_init(|| {
        let all = generators(KINDS);
        (generator_options(KINDS).into_iter())
            .map(|o| {
                let everyone = (all.iter()).all(|(_, g)| g.options().contains(&o));
                let help = if everyone {
                    o.help.to_string()
                } else {
                    format!(
                        "{}. Refused by kinds whose generator does not read it",
                        o.help
                    )
                };
                // The value name clap's derive would give a field of this name (MAX_CAGE).
                let value: &'static str = o.name.to_uppercase().replace('-', "_").leak();
                (o, help, value)
            })
            .collect()
    })
}

impl clap::FromArgMatches for GeneratorFlags {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let given = (flags().iter())
            .filter_map(|(o, _, _)| matches.get_one::<usize>(o.name).map(|&v| (o.name, v)))
            .collect();
        Ok(GeneratorFlags { given })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for GeneratorFlags {
    fn augment_args(command: Command) -> Command {
        flags().iter().fold(command, |command, (o, help, value)| {
            command.arg(
                Arg::new(o.name)
                    .long(o.name)
                    .value_name(*value)
                    .value_parser(clap::value_parser!(usize))
                    .help(help.as_str()),
            )
        })
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

/// The command-line message for a generator's error: a size or option out of range names
/// the option at fault and is bad input; anything else is a failure.
fn cli_error(width: usize, e: GenerateError) -> CliError {
    match e {
        GenerateError::BadSize(m) => CliError::BadInput(format!("--width {width}: {m}")),
        GenerateError::BadOption { option, message } => {
            CliError::BadInput(format!("--{option}: {message}"))
        }
        e @ (GenerateError::UnreadOption { .. } | GenerateError::UnknownKind { .. }) => {
            CliError::BadInput(e.to_string())
        }
        other => CliError::Failed(other.to_string()),
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

/// `--certify`: the format the boards of `kind` are read back in, once the checker is known
/// to be there (else bad input, before any board is made).
fn certifier(kind: &str) -> Result<Format, CliError> {
    if zeroone::backend::proof::find_checker().is_none() {
        return Err(CliError::BadInput(format!(
            "--certify: the proof checker `veripb` was not found (looked in $ZEROONE_VERIPB, $PATH and ~/.cargo/bin); install it with: {}",
            zeroone::backend::proof::CHECKER_INSTALL
        )));
    }
    let kind = by_name(kind).ok_or_else(|| CliError::BadInput(format!("unknown kind '{kind}'")))?;
    Ok(Format::Puzzle(kind.name()))
}

/// `block` (one board in its kind's format) read back, certified unique
/// ([`super::check::certified_unique`]) and returned with the certificate's line after its
/// `# unique by:` line (first, when it has none); `Err` stops the run with the reason.
fn with_certificate(format: Format, block: String) -> Result<String, String> {
    let puzzles = parse_str(&block, format, "generated").map_err(|e| e.to_string())?;
    let [puzzle] = puzzles.as_slice() else {
        return Err(format!("a generated block holds {} boards", puzzles.len()));
    };
    let model = puzzle
        .to_model("generated")
        .map_err(|e| format!("the generated board makes no model: {e}"))?;
    let line = super::check::certified_unique(&model)?;
    let mut lines: Vec<&str> = block.lines().collect();
    let at = (lines.iter().position(|l| l.starts_with("# unique by:"))).map_or(0, |i| i + 1);
    lines.insert(at, &line);
    let end = if block.ends_with('\n') { "\n" } else { "" };
    Ok(format!("{}{end}", lines.join("\n")))
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
    if args.count == 0 {
        return Err(CliError::BadInput(
            "--count 0: expected 1 or more boards".into(),
        ));
    }
    let request = args.request();
    let generator =
        generator_for(KINDS, &args.kind, &request).map_err(|e| cli_error(args.width, e))?;
    let certify = args.certify.then(|| certifier(&args.kind)).transpose()?;
    let mut sink = Sink::open(args.output.as_ref())?;
    let mut written = 0usize;
    let (found, stopped) = generator
        .generate_each(&request, &mut |block| {
            let block = match certify {
                Some(format) => with_certificate(format, block)?,
                None => block,
            };
            let r = sink.write(written == 0, &block);
            written += 1;
            r
        })
        .map_err(|e| cli_error(args.width, e))?;
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
            "generate {}: found {found} of {} boards{}; {}",
            args.kind,
            args.count,
            match &args.output {
                Some(path) => format!(" (written to {})", path.display()),
                None => String::new(),
            },
            cli_error(args.width, e)
        ))),
    }
}
