//! The "still counting" / "still solving" lines of `count --progress` and `solve --progress`.

use std::sync::mpsc;
use std::time::{Duration, Instant};

/// `--progress SECS`: a number of seconds from 0.1 to 86400.
pub(super) fn progress_interval(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if (0.1..=86400.0).contains(&s) => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!(
            "expected seconds from 0.1 to 86400, found '{text}'"
        )),
    }
}

/// A "still counting" (or "still solving") line on standard error every `every` while a puzzle
/// is worked on (the backend reports no progress of its own: a MILP count is one solve per
/// solution, and the run is in a worker process). Stops when dropped. Cost: one sleeping
/// thread per puzzle being worked on.
pub(super) struct Heartbeat {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Heartbeat {
    /// Starts the lines "still WHAT puzzle INDEX with BACKEND (S s so far)".
    pub(super) fn start(
        what: &'static str,
        index: usize,
        backend: &str,
        every: Duration,
    ) -> Heartbeat {
        let (stop, stopped) = mpsc::channel::<()>();
        let backend = backend.to_string();
        let start = Instant::now();
        let thread = std::thread::spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                eprintln!(
                    "zeroone: still {what} puzzle {index} with {backend} ({:.1} s so far)",
                    start.elapsed().as_secs_f64()
                );
            }
        });
        Heartbeat {
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for Heartbeat {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
