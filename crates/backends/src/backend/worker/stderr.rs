//! A worker's standard error as its parent keeps it: the lines that tell how a job failed and
//! the last few kilobytes.

use std::io::{BufRead, BufReader, Read};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How much of a worker's standard error a failed run keeps ([`super::RunResult::stderr`]): its last
/// 4 KB (4,096 bytes, cut at a character boundary), so a record stays small whatever the
/// worker printed (a backtrace runs to kilobytes).
pub const STDERR_TAIL_BYTES: usize = 4096;

/// The line a worker writes on standard error after a job that ended in `error`, before its
/// result: once the parent's reader has seen it, the log holds all the job said. Never kept.
pub(super) const JOB_END: &str = "\u{1}zeroone worker: job ended";

/// How long the parent waits for [`JOB_END`] after an `error` result before taking the tail
/// as it is (the reader thread is normally microseconds behind).
pub(super) const JOB_END_WAIT: Duration = Duration::from_secs(1);

/// What a worker said on standard error during its current job: the lines that tell how it
/// died (a failed allocation, a panic, a fatal runtime error), the last line that is not
/// part of a backtrace, and the last [`STDERR_TAIL_BYTES`] bytes of it all.
#[derive(Debug, Default)]
pub(super) struct StderrLog {
    notable: Vec<String>,
    pub(super) last: String,
    pub(super) tail: String,
    /// Whether the worker's [`JOB_END`] line was read.
    pub(super) ended: bool,
}

impl StderrLog {
    pub(super) fn add(&mut self, line: &str) {
        if line == JOB_END {
            self.ended = true;
            return;
        }
        self.keep_tail(line);
        let line: String = line.trim_end().chars().take(300).collect();
        let telling = ["memory allocation of", "panicked at", "fatal runtime error"];
        if telling.iter().any(|t| line.contains(t)) && self.notable.len() < 4 {
            self.notable.push(line.clone());
        }
        let backtrace = line.starts_with(char::is_whitespace)
            || line.starts_with("stack backtrace")
            || line.starts_with("note:");
        if !line.is_empty() && !backtrace {
            self.last = line;
        }
    }

    /// Appends `line` to the tail and drops what falls outside its last
    /// [`STDERR_TAIL_BYTES`] bytes. Cost: a copy of the tail when it overflows.
    fn keep_tail(&mut self, line: &str) {
        let line = match line.len().checked_sub(STDERR_TAIL_BYTES) {
            Some(cut) => &line[ceil_char_boundary(line, cut)..],
            None => line,
        };
        self.tail.push_str(line);
        self.tail.push('\n');
        if let Some(cut) = self.tail.len().checked_sub(STDERR_TAIL_BYTES) {
            let cut = ceil_char_boundary(&self.tail, cut);
            self.tail.drain(..cut);
        }
    }

    pub(super) fn out_of_memory(&self) -> Option<&str> {
        self.notable
            .iter()
            .find(|l| l.contains("memory allocation of"))
            .map(String::as_str)
    }

    pub(super) fn summary(&self) -> String {
        if self.notable.is_empty() {
            self.last.clone()
        } else {
            self.notable.join(" / ")
        }
    }
}

/// The first character boundary of `s` at or after byte `i`.
fn ceil_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// Reads a worker's standard error line by line into `log`, until it ends.
pub(super) fn keep_log(from: impl Read, log: Arc<Mutex<StderrLog>>) {
    for line in BufReader::new(from).split(b'\n') {
        let Ok(bytes) = line else { break };
        if let Ok(mut l) = log.lock() {
            l.add(&String::from_utf8_lossy(&bytes));
        }
    }
}
