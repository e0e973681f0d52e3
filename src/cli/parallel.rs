//! Working on the puzzles of a file with several threads while keeping the output in file
//! order, and printing that output in large writes.
//!
//! Items are taken from the input in windows of `64 x jobs`; the threads share a window (each
//! takes the next unstarted item), then the results are handed on in input order and the next
//! window is read. So at most one window of puzzles and results is in memory, whatever the
//! length of the file, and the output does not depend on the number of threads.

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::CliError;

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

/// Standard output in large writes: text is gathered and written when 64 KiB have piled up
/// or a tenth of a second has passed since the last write, and by [`Printer::flush`]. A closed
/// pipe is [`CliError::StdoutClosed`], as for [`super::print_stdout`].
pub struct Printer {
    buffer: String,
    last: Instant,
}

impl Printer {
    /// An empty printer.
    pub fn new() -> Printer {
        Printer {
            buffer: String::new(),
            last: Instant::now(),
        }
    }

    /// Adds `text`; writes the pile when it is large or old.
    pub fn print(&mut self, text: &str) -> Result<(), CliError> {
        self.buffer.push_str(text);
        if self.buffer.len() >= 1 << 16 || self.last.elapsed() >= Duration::from_millis(100) {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes everything gathered so far.
    pub fn flush(&mut self) -> Result<(), CliError> {
        self.last = Instant::now();
        if self.buffer.is_empty() {
            return Ok(());
        }
        let mut out = std::io::stdout().lock();
        let written = out
            .write_all(self.buffer.as_bytes())
            .and_then(|()| out.flush());
        self.buffer.clear();
        match written {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(CliError::StdoutClosed),
            Err(e) => Err(CliError::Failed(format!(
                "cannot write to standard output: {e}"
            ))),
        }
    }
}
