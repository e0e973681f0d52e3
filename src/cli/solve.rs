//! `zeroone solve FILE`: one verified answer per puzzle, read and solved one puzzle at a time
//! (`--jobs` at once), printed in file order.

use std::path::PathBuf;

use clap::Args;
use zeroone::backend::{
    optimal_solutions_verified, solutions_verified, solutions_within_verified, Backend, CountEnd,
    Outcome, Status, StreamOutcome,
};
use zeroone::model::verify::Verifier;
use zeroone::model::{Model, Solution};
use zeroone::puzzle::parse::Format;
use zeroone::render::{outcome_text, solution_text, stable_outcome_text, SolveRecord};

use super::backend_args::BackendArgs;
use super::input::{self, JobsArg};
use super::parallel::{print_each_puzzle, Printed, PuzzleRun, Tally};
use super::CliError;

/// Arguments of `zeroone solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[arg(help = input::file_help("--format"))]
    pub file: PathBuf,
    /// Only the puzzle with this 0-based index in the file.
    #[arg(long)]
    pub index: Option<usize>,
    /// The file's format, when its name does not say it (or for standard input).
    #[arg(long, value_name = "FORMAT", value_parser = input::parse_format)]
    pub format: Option<Format>,
    /// One JSON object per puzzle per line.
    #[arg(long)]
    pub json: bool,
    /// Deterministic output: no timings or statistics, so it can be committed and diffed.
    #[arg(long)]
    pub stable: bool,
    /// Generic models: print variable ids instead of labels in `ones` (JSON).
    #[arg(long)]
    pub ids: bool,
    /// Print every solution (each verified), one per line, instead of the first. On a model
    /// with an objective: every optimal solution (the optimum is proved first). Each puzzle
    /// ends with a closing line (JSON: its status with "solutions", how many were printed, and
    /// "complete"). Exit status 3 when the time limit (or the backend) stopped it before the
    /// last solution; reaching --limit is status "limit" and exits 0.
    #[arg(long)]
    pub all: bool,
    /// With `--all`: stop after this many solutions per puzzle (at least 1); with `--within`:
    /// the N best solutions, best first.
    #[arg(long, value_name = "N", requires = "all", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// With `--all` on a model with an objective: every solution whose value is within G
    /// (a whole number) of the optimum, instead of the optimal ones only (a pool of good
    /// solutions; the optimum is proved first). Each line's status is `optimal` or
    /// `feasible`, with the optimum as its bound.
    #[arg(long, value_name = "G", requires = "all")]
    pub within: Option<u128>,
    /// While a puzzle is being solved, print "still solving" with the time so far on standard
    /// error every SECS seconds (default: every 10 s when standard error is a terminal), as
    /// `count --progress` does.
    #[arg(long, value_name = "SECS", value_parser = super::heartbeat::progress_interval)]
    pub progress: Option<std::time::Duration>,
    /// Start an optimisation from this solution (a line as `solve` or `solve --json` prints
    /// it) or partial assignment (`LABEL=0`/`LABEL=1` pairs): its values are tried first, and
    /// a complete hint that satisfies every row is the first incumbent (one that breaks a row
    /// is reported and only orders the choices). Backends that cannot use a hint refuse it.
    #[arg(long, value_name = "FILE", conflicts_with = "all")]
    pub hint: Option<PathBuf>,
    #[command(flatten)]
    pub certificate: super::check::ProofArgs,
    #[command(flatten)]
    pub jobs: JobsArg,
    #[command(flatten)]
    pub backend: BackendArgs,
}

/// Solves each selected puzzle and prints the verified outcome in file order. Exits 1 at the
/// end when some puzzle failed: `error` (a backend failure or a rejected answer), `crash` or
/// `unsupported`.
pub fn run(args: SolveArgs) -> Result<(), CliError> {
    if args.all {
        refuse_unenforced_limits(&args.backend)?;
    }
    let run = PuzzleRun {
        file: &args.file,
        format: args.format,
        index: args.index,
        jobs: &args.jobs,
        backend: &args.backend,
        summary: !args.json && !args.stable,
    };
    print_each_puzzle(run, |backend, index, model| {
        solve_one(&args, backend, index, model)
    })
}

/// Restricts, solves, verifies and renders one puzzle (every solution of it with `--all`).
fn solve_one(args: &SolveArgs, backend: &mut dyn Backend, index: usize, model: Model) -> Printed {
    let model = input::restrict(model, args.backend.families.as_deref())?;
    if args.certificate.wanted() {
        if args.all {
            return Err(CliError::BadInput(
                "--proof/--certify prove one answer: drop --all (count --proof certifies every solution)".into(),
            ));
        }
        let task = match model.objective() {
            Some(_) => zeroone::backend::proof::ProofTask::Optimize,
            None => zeroone::backend::proof::ProofTask::Solve,
        };
        return super::check::proved_one(
            &args.certificate,
            backend,
            index,
            &model,
            task,
            args.json,
        );
    }
    if args.all {
        return solve_all(args, backend, index, &model);
    }
    let heartbeat = args.progress.or_else(|| {
        use std::io::IsTerminal;
        std::io::stderr()
            .is_terminal()
            .then_some(std::time::Duration::from_secs(10))
    });
    // An optimiser in this process reports its incumbents and bounds to the heartbeat (a
    // worker process, under --time-limit or --memory-limit, does not).
    let latest: super::heartbeat::Latest = Default::default();
    let heartbeat = heartbeat.map(|every| {
        let watch = model.objective().map(|_| latest.clone());
        super::heartbeat::Heartbeat::start("solving", index, backend.serving(&model), every, watch)
    });
    let sink = {
        let latest = latest.clone();
        std::rc::Rc::new(move |p: &zeroone::backend::incumbent::TracePoint| {
            *latest.lock().unwrap_or_else(|e| e.into_inner()) = Some(*p);
        })
    };
    let cannot = args.json && backend.solver().is_none() && model.objective().is_none();
    let outcome = zeroone::backend::incumbent::with_progress(sink, || match &args.hint {
        None if cannot => Ok(cannot_solve(backend)),
        None => super::isolated::solve(&args.backend, backend, &model),
        Some(path) => solve_hinted(args, path, &model),
    });
    drop(heartbeat);
    let outcome = outcome?;
    let text = outcome_line(args, index, &model, backend.serving(&model), &outcome);
    Ok((text, Tally::of(outcome.status, outcome.stats.seconds)))
}

/// `--json` with a backend that cannot solve (`dp` only counts): a JSON status per puzzle,
/// `unsupported` with the reason, as for a model the backend refuses, so a program reading the
/// lines gets one object per puzzle (the text output stops with an error line, exit 2).
fn cannot_solve(backend: &dyn Backend) -> Outcome {
    let missing = zeroone::backend::BackendError::Unsupported {
        backend: backend.name().into(),
        ability: "solve".into(),
    };
    Outcome {
        status: Status::Unsupported,
        reason: Some(format!(
            "{missing} (it has no solver; `zeroone backends` lists what each backend does)"
        )),
        ..Outcome::empty(zeroone::backend::Stats::default())
    }
}

/// `--hint FILE`: the hint read against `model` becomes the backend's `hint` option, so a
/// backend made for this puzzle (here or in a worker process) starts from it.
fn solve_hinted(
    args: &SolveArgs,
    path: &std::path::Path,
    model: &Model,
) -> Result<Outcome, CliError> {
    let hint = super::hint::read_hint(path, model)?;
    let mut hinted = args.backend.clone();
    hinted.params.push(("hint".into(), hint.to_param()));
    let mut backend = hinted.make()?;
    super::isolated::solve(&hinted, backend.as_mut(), model)
}

/// `--all` streams solutions in this process, so only a backend that stops itself can honour a
/// time limit there, and no memory limit applies: refuse what would not be enforced.
fn refuse_unenforced_limits(backend: &BackendArgs) -> Result<(), CliError> {
    let registry = zeroone::backend::Registry::builtin();
    let stops_itself = registry.stops_itself(&backend.backend);
    if backend.memory_limit.is_some() {
        return Err(CliError::BadInput(
            "--all runs in this process: --memory-limit is not enforced there; drop it".into(),
        ));
    }
    if backend.time_limit.is_some() && !stops_itself {
        return Err(CliError::BadInput(format!(
            "--all runs in this process and backend '{}' cannot stop itself: --time-limit would not be enforced (use one that can: {}; or drop --time-limit)",
            backend.backend,
            registry.stopping_themselves().join(", ")
        )));
    }
    Ok(())
}

/// The printed form of one outcome (JSON line or text), as `--stable` and `--ids` ask.
fn outcome_line(
    args: &SolveArgs,
    index: usize,
    model: &Model,
    backend: &str,
    outcome: &Outcome,
) -> String {
    if args.json {
        let mut record = SolveRecord::new(index, model, backend, outcome);
        if args.ids {
            record = record.with_ids(outcome.solution.as_ref());
        }
        if args.stable {
            record = record.stable();
        }
        format!("{}\n", record.to_json())
    } else if args.stable {
        stable_outcome_text(index, model, backend, outcome)
    } else {
        outcome_text(index, model, backend, outcome)
    }
}

/// `--all`: every verified solution of one puzzle, one line (or drawing) each, in the
/// backend's search order; with no solution, one line says why.
fn solve_all(args: &SolveArgs, backend: &mut dyn Backend, index: usize, model: &Model) -> Printed {
    let name = backend.serving(model);
    let mut text = String::new();
    let mut number = 0u64;
    // A pool's lines (--within) need the optimum, known once the stream is over: its
    // solutions are kept and printed then (the text is held until then anyway).
    let mut pool: Vec<Solution> = Vec::new();
    let mut each = |s: &Solution| match args.within {
        Some(_) => pool.push(s.clone()),
        None => {
            text.push_str(&solution_line(args, index, model, name, number, s, None));
            number += 1;
        }
    };
    if args.within.is_some() && model.objective().is_none() {
        return Err(CliError::BadInput(format!(
            "--within needs a model with an objective; '{}' has none",
            model.name()
        )));
    }
    let stream = if model.objective().is_some() {
        let (best, stream) = match args.within {
            None => optimal_solutions_verified(backend, model, args.limit, &mut each),
            Some(g) => solutions_within_verified(backend, model, g, args.limit, &mut each),
        }
        .map_err(|e| CliError::BadInput(e.to_string()))?;
        for (number, s) in pool.iter().enumerate() {
            text.push_str(&solution_line(
                args,
                index,
                model,
                name,
                number as u64,
                s,
                best.objective,
            ));
        }
        match stream {
            Some(s) => s,
            // No proved optimum: say why, as a plain solve would.
            // No proved optimum: say why, as a plain solve would; in JSON as the closing line
            // (no optimal solution printed; complete only when there is none to print).
            None => {
                let infeasible = best.status == Status::Infeasible;
                let line = match args.json {
                    true => closing_json(args, index, model, name, &best, 0, infeasible),
                    false => outcome_line(args, index, model, name, &best),
                };
                let mut tally = Tally::of(best.status, best.stats.seconds);
                tally.incomplete = !tally.failed && !infeasible;
                return Ok((line, tally));
            }
        }
    } else {
        solutions_verified(backend, model, args.limit, &mut each)
            .map_err(|e| CliError::BadInput(e.to_string()))?
    };
    let end = match args.within {
        // The n best of a pool: the stream ran to its end, the limit cut the list.
        Some(_)
            if stream.exhaustive && args.limit.is_some_and(|n| u128::from(n) == stream.count) =>
        {
            StreamEnd::AtLimit(stream.count as u64)
        }
        _ => StreamEnd::of(&stream, args.limit),
    };
    let closing = match stream.count == 0 || stream.status == Status::Error {
        true => Outcome {
            status: stream.status,
            reason: stream.reason.clone(),
            ..Outcome::empty(stream.stats.clone())
        },
        false => Outcome {
            status: end.status(model),
            reason: end.reason(),
            ..Outcome::empty(stream.stats.clone())
        },
    };
    text.push_str(&closing_line(
        args, index, model, name, &closing, &stream, &end,
    ));
    let mut tally = Tally::of(stream.status, stream.stats.seconds);
    tally.incomplete = end.cut_short() && !tally.failed;
    Ok((text, tally))
}

/// How a `--all` stream ended, as its closing line says it.
enum StreamEnd {
    /// Every solution was printed.
    Complete,
    /// `--limit N` was reached: what the user asked for.
    AtLimit(u64),
    /// The time limit stopped it.
    TimedOut,
    /// The backend stopped (or failed) for a reason of its own.
    Other,
}

impl StreamEnd {
    fn of(stream: &StreamOutcome, limit: Option<u64>) -> StreamEnd {
        match &stream.end {
            _ if stream.exhaustive => StreamEnd::Complete,
            Some(CountEnd::TimedOut) => StreamEnd::TimedOut,
            Some(CountEnd::AtLimit) => match limit {
                Some(n) if u128::from(n) == stream.count => StreamEnd::AtLimit(n),
                _ => StreamEnd::Other,
            },
            _ => StreamEnd::Other,
        }
    }

    /// Whether some solutions may be missing for a reason other than the user's `--limit`
    /// (the command then exits 3).
    fn cut_short(&self) -> bool {
        matches!(self, StreamEnd::TimedOut | StreamEnd::Other)
    }

    /// The status of the closing line of a stream that handed over solutions.
    fn status(&self, model: &Model) -> Status {
        match (self, model.objective()) {
            (StreamEnd::Complete, Some(_)) => Status::Optimal,
            (StreamEnd::Complete, None) => Status::Solved,
            (StreamEnd::AtLimit(_) | StreamEnd::TimedOut, _) => Status::Limit,
            (StreamEnd::Other, _) => Status::Unknown,
        }
    }

    /// Why the stream stopped before the end, as the closing line says it.
    fn reason(&self) -> Option<String> {
        match self {
            StreamEnd::Complete => None,
            StreamEnd::AtLimit(n) => Some(format!("stopped at --limit {n}")),
            StreamEnd::TimedOut => {
                Some("stopped by the time limit: more solutions may exist".into())
            }
            StreamEnd::Other => Some("the backend stopped early: more solutions may exist".into()),
        }
    }
}

/// The last line of a puzzle's `--all` output: in JSON, the status with `"solutions"` (how
/// many were printed) and `"complete"` (whether that is all of them); in text, a sentence
/// saying the same, or the outcome line when there was no solution.
fn closing_line(
    args: &SolveArgs,
    index: usize,
    model: &Model,
    name: &str,
    closing: &Outcome,
    stream: &StreamOutcome,
    end: &StreamEnd,
) -> String {
    let complete = matches!(end, StreamEnd::Complete);
    if args.json {
        return closing_json(args, index, model, name, closing, stream.count, complete);
    }
    if stream.count == 0 || stream.status == Status::Error {
        return outcome_line(args, index, model, name, closing);
    }
    let how = match end.reason() {
        None => "all of them".to_string(),
        Some(why) => why,
    };
    let (optimal, within) = match (model.objective(), args.within) {
        (Some(_), Some(g)) => ("", format!(" within {g} of the optimum")),
        (Some(_), None) => (" optimal", String::new()),
        (None, _) => ("", String::new()),
    };
    format!(
        "puzzle {index} ({}): {}{optimal} solution(s){within} by {name}, each verified ({how})\n",
        model.name(),
        stream.count
    )
}

/// The closing JSON line: the puzzle's record with `"solutions"` and `"complete"`.
fn closing_json(
    args: &SolveArgs,
    index: usize,
    model: &Model,
    name: &str,
    closing: &Outcome,
    solutions: u128,
    complete: bool,
) -> String {
    let mut record = SolveRecord::new(index, model, name, closing);
    if args.stable {
        record = record.stable();
    }
    if args.ids {
        record = record.with_ids(closing.solution.as_ref());
    }
    let line = ClosingRecord {
        record: &record,
        solutions,
        complete,
    };
    format!("{}\n", serde_json::to_string(&line).unwrap_or_default())
}

/// The closing JSON line of `solve --all`: the puzzle's record and how many solutions it got.
#[derive(serde::Serialize)]
struct ClosingRecord<'a> {
    #[serde(flatten)]
    record: &'a SolveRecord,
    /// Solutions printed before this line.
    solutions: u128,
    /// Whether they are all the solutions (of the optimum, with an objective).
    complete: bool,
}

/// One solution of `--all`, already verified, as a JSON line or a drawing.
fn solution_line(
    args: &SolveArgs,
    index: usize,
    model: &Model,
    backend: &str,
    number: u64,
    solution: &Solution,
    optimum: Option<i128>,
) -> String {
    let objective = Verifier::new(model).objective_value(solution);
    // A pool's solution (--within) may be worse than the optimum, the proved bound.
    let bound = match args.within {
        Some(_) => optimum,
        None => objective,
    };
    let outcome = Outcome {
        status: match objective {
            Some(v) if Some(v) == bound => Status::Optimal,
            Some(_) => Status::Feasible,
            None => Status::Solved,
        },
        objective,
        bound,
        ..Outcome::solved(solution.clone(), Default::default())
    };
    if args.json {
        let mut record = SolveRecord::new(index, model, backend, &outcome).stable();
        record.solution = Some(number);
        if args.ids {
            record = record.with_ids(Some(solution));
        }
        format!("{}\n", record.to_json())
    } else {
        format!(
            "puzzle {index} ({}) solution {number}:\n{}",
            model.name(),
            solution_text(model, solution)
        )
    }
}
