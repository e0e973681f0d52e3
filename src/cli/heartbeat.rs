//! The "still counting" / "still solving" lines of `count --progress` and `solve --progress`.

use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use zeroone::backend::incumbent::TracePoint;

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

/// The optimiser's latest incumbent and bound, shared between the search (which writes it
/// through [`zeroone::backend::incumbent::with_progress`]) and the heartbeat (which prints it).
pub(super) type Latest = Arc<Mutex<Option<TracePoint>>>;

impl Heartbeat {
    /// Starts the lines "still WHAT puzzle INDEX with BACKEND (S s so far)", each followed,
    /// when `latest` holds an optimiser's progress, by ": incumbent V, bound B, gap G% (at
    /// T s)".
    pub(super) fn start(
        what: &'static str,
        index: usize,
        backend: &str,
        every: Duration,
        latest: Option<Latest>,
    ) -> Heartbeat {
        let (stop, stopped) = mpsc::channel::<()>();
        let backend = backend.to_string();
        let start = Instant::now();
        let thread = std::thread::spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = stopped.recv_timeout(every) {
                let point = latest
                    .as_ref()
                    .and_then(|l| *l.lock().unwrap_or_else(|e| e.into_inner()));
                eprintln!(
                    "zeroone: still {what} puzzle {index} with {backend} ({:.1} s so far){}",
                    start.elapsed().as_secs_f64(),
                    point.map_or(String::new(), |p| progress_text(&p))
                );
            }
        });
        Heartbeat {
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

/// `: incumbent 831, bound 847, gap 1.93% (at 0.4 s)` (the parts known).
pub(super) fn progress_text(p: &TracePoint) -> String {
    let mut parts = Vec::new();
    match p.value {
        Some(v) => parts.push(format!("incumbent {v}")),
        None => parts.push("no solution yet".to_string()),
    }
    if let Some(b) = p.bound {
        parts.push(format!("bound {b}"));
    }
    if let (Some(v), Some(b)) = (p.value, p.bound) {
        let gap = zeroone::model::objective::Objective::gap(v, b);
        parts.push(format!("gap {:.2}%", gap * 100.0));
    }
    format!(": {} (at {:.1} s)", parts.join(", "), p.seconds)
}

impl Drop for Heartbeat {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
