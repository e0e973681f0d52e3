//! Working on the puzzles of a file with several threads while keeping the output in file
//! order, and printing that output in large writes.
//!
//! Items are taken from the input in windows of `64 x jobs`; the threads share a window (each
//! takes the next unstarted item), then the results are handed on in input order and the next
//! window is read. So at most one window of puzzles and results is in memory, whatever the
//! length of the file, and the output does not depend on the number of threads.

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use std::path::Path;

use zeroone::backend::Backend;
use zeroone::model::Model;
use zeroone::puzzle::parse::Format;

use super::backend_args::BackendArgs;
use super::input::{self, JobsArg};
use super::CliError;

/// One puzzle's printed result, and what it adds to the summary line.
pub type Printed = Result<(String, Tally), CliError>;

/// What one puzzle's run adds to the summary line printed after a file of several puzzles.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tally {
    /// It failed (`error`, `crash`, `unsupported`).
    pub failed: bool,
    /// It was answered (`solved` or `infeasible`; a complete count).
    pub answered: bool,
    /// The backend's time for it, seconds.
    pub seconds: f64,
    /// `solve --all` stopped before every solution was printed, for a reason other than the
    /// user's `--limit` (the time limit, the backend giving up): the command exits 3.
    pub incomplete: bool,
}

impl Tally {
    /// The tally of a run with this status and time.
    pub fn of(status: zeroone::backend::Status, seconds: f64) -> Tally {
        Tally {
            failed: status.is_failure(),
            answered: status.is_answer(),
            seconds,
            incomplete: false,
        }
    }
}

/// The summary line after a file of several puzzles: answered of total, failures, the total
/// backend time, its median per puzzle with the spread (10th to 90th percentile, nearest
/// rank, as the reports' quantiles), and the wall-clock time of the whole command so far.
fn summary_line(tallies: &[Tally], started: std::time::Instant) -> String {
    use zeroone::harness::record::{median, quantile};
    let times: Vec<f64> = tallies.iter().map(|t| t.seconds).collect();
    let answered = tallies.iter().filter(|t| t.answered).count();
    let failed = tallies.iter().filter(|t| t.failed).count();
    let d = zeroone::render::duration_text;
    let q = |p| d(quantile(&times, p).unwrap_or(0.0));
    format!(
        "{} puzzles: {answered} answered, {failed} failed; backend time {} in all, median {} per puzzle (p10-p90: {} to {}); {} wall-clock",
        tallies.len(),
        d(times.iter().sum()),
        d(median(&times).unwrap_or(0.0)),
        q(0.1),
        q(0.9),
        d(started.elapsed().as_secs_f64()),
    )
}

/// The puzzles of a file, where to read them and how many at once: what `solve` and `count`
/// share.
pub struct PuzzleRun<'a> {
    /// The puzzle file (or `-`).
    pub file: &'a Path,
    /// Its format, when the name does not say it.
    pub format: Option<Format>,
    /// Only this puzzle.
    pub index: Option<usize>,
    /// Threads (`--jobs`).
    pub jobs: &'a JobsArg,
    /// The backend every thread makes its own copy of.
    pub backend: &'a BackendArgs,
    /// Print a summary line on standard error after a file of several puzzles.
    pub summary: bool,
}

/// Runs `work` on every selected puzzle with one backend per thread, prints each result in
/// file order, and fails (exit 1) at the end when some puzzle failed. Memory stays bounded by
/// one window of puzzles (see [`ordered`]).
pub fn print_each_puzzle(
    run: PuzzleRun<'_>,
    work: impl Fn(&mut dyn Backend, usize, Model) -> Printed + Sync,
) -> Result<(), CliError> {
    let threads = if run.index.is_some() {
        1
    } else {
        run.jobs.threads()
    };
    let backends = (0..threads)
        .map(|_| run.backend.make())
        .collect::<Result<Vec<Box<dyn Backend>>, CliError>>()?;
    let started = std::time::Instant::now();
    let models = input::models(run.file, run.format, run.index)?;
    let mut tallies: Vec<Tally> = Vec::new();
    let mut printer = Printer::new();
    let result = ordered(
        models,
        backends,
        |backend, (index, model)| work(backend.as_mut(), index, model),
        |printed: Printed| {
            let (text, tally) = printed?;
            tallies.push(tally);
            printer.print(&text)
        },
    );
    result.and(printer.flush())?;
    if run.summary && tallies.len() > 1 {
        eprintln!("{}", summary_line(&tallies, started));
    }
    let (total, failures) = (tallies.len(), tallies.iter().filter(|t| t.failed).count());
    if failures > 0 {
        return Err(CliError::Failed(format!(
            "{failures} of {total} puzzle(s) failed (error, crash or unsupported)"
        )));
    }
    let cut = tallies.iter().filter(|t| t.incomplete).count();
    if cut > 0 {
        return Err(CliError::Incomplete(format!(
            "{cut} of {total} puzzle(s) stopped before every solution was printed (see the closing line of each)"
        )));
    }
    Ok(())
}

/// Items per thread in one window.
const WINDOW_PER_JOB: usize = 64;

/// Runs `work` on every item of `items`, one thread per element of `workers` (each thread owns
/// its worker: a backend, or `()`), and passes the results to `emit` in input order. Stops at
/// the first error of `items` or of `emit`, after emitting every result before it.
pub fn ordered<T, R, W>(
    items: impl Iterator<Item = Result<T, CliError>>,
    mut workers: Vec<W>,
    work: impl Fn(&mut W, T) -> R + Sync,
    mut emit: impl FnMut(R) -> Result<(), CliError>,
) -> Result<(), CliError>
where
    T: Send,
    R: Send,
    W: Send,
{
    let mut items = items;
    if workers.len() <= 1 {
        let Some(worker) = workers.first_mut() else {
            return Ok(());
        };
        for item in items {
            emit(work(worker, item?))?;
        }
        return Ok(());
    }
    let window = WINDOW_PER_JOB * workers.len();
    loop {
        let mut chunk = Vec::with_capacity(window);
        let mut failed = None;
        for item in items.by_ref() {
            match item {
                Ok(t) => chunk.push(t),
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
            if chunk.len() == window {
                break;
            }
        }
        let last = chunk.len() < window;
        for r in run_window(chunk, &mut workers, &work) {
            emit(r)?;
        }
        if let Some(e) = failed {
            return Err(e);
        }
        if last {
            return Ok(());
        }
    }
}

/// Works on one window with one thread per worker; the results in input order.
fn run_window<T: Send, R: Send, W: Send>(
    chunk: Vec<T>,
    workers: &mut [W],
    work: &(impl Fn(&mut W, T) -> R + Sync),
) -> Vec<R> {
    let len = chunk.len();
    let slots: Vec<Mutex<Option<T>>> = chunk.into_iter().map(|t| Mutex::new(Some(t))).collect();
    let next = AtomicUsize::new(0);
    let mut done: Vec<Vec<(usize, R)>> = Vec::with_capacity(workers.len());
    std::thread::scope(|scope| {
        let handles: Vec<_> = workers
            .iter_mut()
            .map(|worker| {
                let (slots, next) = (&slots, &next);
                scope.spawn(move || {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(slot) = slots.get(i) else { break };
                        let item = slot.lock().ok().and_then(|mut s| s.take());
                        if let Some(item) = item {
                            out.push((i, work(worker, item)));
                        }
                    }
                    out
                })
            })
            .collect();
        for h in handles {
            match h.join() {
                Ok(out) => done.push(out),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    let mut results: Vec<Option<R>> = (0..len).map(|_| None).collect();
    for (i, r) in done.into_iter().flatten() {
        results[i] = Some(r);
    }
    results.into_iter().flatten().collect()
}

/// Standard output in large writes: text is gathered and written when 64 KiB have piled up,
/// by a background thread every 50 ms (so an answer is never held back while a slow puzzle is
/// being solved), and by [`Printer::flush`]. A closed pipe is [`CliError::StdoutClosed`], as
/// for [`super::print_stdout`]; an error met in the background is returned by the next call.
pub struct Printer {
    shared: Arc<(Mutex<Pending>, Condvar)>,
    flusher: Option<std::thread::JoinHandle<()>>,
}

/// What the printer and its background thread share.
#[derive(Default)]
struct Pending {
    text: String,
    error: Option<CliError>,
    stop: bool,
}

impl Pending {
    /// Writes the gathered text; keeps the first error.
    fn write(&mut self) {
        if self.text.is_empty() || self.error.is_some() {
            self.text.clear();
            return;
        }
        let mut out = std::io::stdout().lock();
        let written = out
            .write_all(self.text.as_bytes())
            .and_then(|()| out.flush());
        self.text.clear();
        self.error = match written {
            Ok(()) => None,
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Some(CliError::StdoutClosed),
            Err(e) => Some(CliError::Failed(format!(
                "cannot write to standard output: {e}"
            ))),
        };
    }
}

impl Printer {
    /// An empty printer and its background writer.
    pub fn new() -> Printer {
        let shared = Arc::new((Mutex::new(Pending::default()), Condvar::new()));
        let background = Arc::clone(&shared);
        let flusher = std::thread::spawn(move || {
            let (lock, wake) = &*background;
            let mut pending = lock.lock().unwrap_or_else(|p| p.into_inner());
            while !pending.stop {
                pending = wake
                    .wait_timeout(pending, Duration::from_millis(50))
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
                pending.write();
            }
        });
        Printer {
            shared,
            flusher: Some(flusher),
        }
    }

    fn pending(&self) -> std::sync::MutexGuard<'_, Pending> {
        self.shared.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Adds `text`; writes the pile when it is large.
    pub fn print(&mut self, text: &str) -> Result<(), CliError> {
        let mut pending = self.pending();
        if let Some(e) = pending.error.take() {
            return Err(e);
        }
        pending.text.push_str(text);
        if pending.text.len() >= 1 << 16 {
            pending.write();
        }
        Ok(())
    }

    /// Writes everything gathered so far and stops the background writer.
    pub fn flush(&mut self) -> Result<(), CliError> {
        self.pending().stop = true;
        self.shared.1.notify_all();
        if let Some(flusher) = self.flusher.take() {
            let _ = flusher.join();
        }
        let mut pending = self.pending();
        pending.write();
        pending.error.take().map_or(Ok(()), Err)
    }
}

impl Drop for Printer {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}
