//! One finished run as one JSON line, and the files that hold them.
//!
//! A record file (`reports/NAME.jsonl`) is appended to one line at a time and flushed after
//! each line, so a killed run loses at most the run in flight; its last line may be torn, and
//! [`RecordFile::open`] drops a torn last line before appending again. Any other bad line is
//! an error naming its line number: it is never skipped silently.
//!
//! Records are keyed by (instance, backend label, repetition); [`merge`] joins shard files,
//! dropping exact repeats and refusing two records of the same key that disagree.
//!
//! One writer: a [`RecordFile`] holds an exclusive lock ([`RecordLock`], on `NAME.jsonl.lock`
//! beside the records) for as long as it is open. A second run on the same records is refused
//! with a message naming the holder (pid, host, start time); the first run's records are
//! untouched. Shards have their own files and locks, so they run at once.
//!
//! A record holds everything the reports need (source group, puzzle size, position of its
//! instance, measurements, limits, provenance), so reports are computed from records alone.
//! Fields added after the first record format are optional: old record files still load.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::backend::worker::LimitBy;
use crate::backend::{SearchCounter, Status};
use crate::harness::experiment::Task;
pub use crate::harness::record_stats::RecordStats;
use crate::harness::HarnessError;

/// The options a run was made with, as recorded.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RecordOptions {
    /// The seed handed to the backend.
    pub seed: u64,
    /// Backend parameters.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, String>,
    /// The per-run time limit in seconds, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit: Option<f64>,
    /// The per-run memory limit (worker address space) in MB, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_limit: Option<u64>,
    /// The count limit of a counting run, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count_limit: Option<u64>,
    /// Whether the run logged a proof when its backend can (`certify = true`): a run with
    /// proof logging is a different configuration (it may search differently and costs more),
    /// so resuming with the other setting is refused.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub certify: bool,
}

/// What became of a run's proof (`certify = true`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Certificate {
    /// The checker verified the proof and its claim agrees with the answer on record.
    Checked,
    /// The checker (or zeroone's reading of the claim) rejected the proof: the run is an
    /// `error`, with the checker's reason.
    Rejected,
    /// No proof: the backend logs none (of this model, or with a count limit), the run
    /// stopped without a claim, or the experiment did not ask (records made before the field).
    #[default]
    None,
}

impl Certificate {
    /// The name in records, the CSV and the reports.
    pub fn name(self) -> &'static str {
        match self {
            Certificate::Checked => "checked",
            Certificate::Rejected => "rejected",
            Certificate::None => "none",
        }
    }

    fn is_none(&self) -> bool {
        *self == Certificate::None
    }
}

/// One finished run: a JSON line in `reports/NAME.jsonl`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Instance id (`{file stem}#{index}` or `{generator}-{size}`).
    pub instance: String,
    /// Backend label (the configuration's name in the experiment).
    pub backend: String,
    /// Repetition number, from 0.
    pub repetition: u32,
    /// Registry name of the backend (or `table` for table rows).
    pub name: String,
    /// Solve or count.
    pub task: Task,
    /// The options used.
    pub options: RecordOptions,
    /// Verified status.
    pub status: Status,
    /// Whether the verifier accepted the answer (a solution, or every count witness).
    pub verified: bool,
    /// Whether a checked proof stands behind the answer (`certify = true`); `none` when the
    /// field is absent (records made before it, or without `certify`).
    #[serde(default, skip_serializing_if = "Certificate::is_none")]
    pub certificate: Certificate,
    /// Seconds the checker took on the run's proof (not part of `seconds`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check_seconds: Option<f64>,
    /// The run's proof, relative to the records' folder (`NAME.proofs/STEM.pbp`, `.gz` when
    /// compressed; the model is `STEM.opb` beside it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof: Option<String>,
    /// Seconds inside the backend (its engine's run; for a peer, its solver's solve call as
    /// `experiments/peers/peers.py` times it): what the reports' times and PAR-2 use.
    pub seconds: f64,
    /// Solutions counted (decimal, exact), for counting runs and table rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<String>,
    /// Whether the count is complete (not cut by the limit or the time limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exhaustive: Option<bool>,
    /// Why the status is `unknown` or `error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A model with an objective: the verified value of the run's solution (exact).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<i128>,
    /// A model with an objective: the bound on the optimum the backend proved, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<i128>,
    /// A model with an objective: the relative gap `|objective - bound| / max(1,
    /// |objective|)` (see [`crate::backend::incumbent`]) when both are known; a float for
    /// tables, the exact fraction follows from `objective` and `bound`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap: Option<f64>,
    /// A model with an objective: its sense (which way a value is better), so the reports can
    /// tell a verified value that beats a proved optimum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sense: Option<crate::model::ObjectiveSense>,
    /// Variables and rows of the model the backend was given.
    #[serde(default)]
    pub variables: usize,
    /// Rows (constraints) of the model.
    #[serde(default)]
    pub rows: usize,
    /// Variables of the model as its file or builder wrote it: `variables` less the derived
    /// ones normalisation added (complements `~x`, XCC colour choices). `None` on records made
    /// before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_variables: Option<usize>,
    /// Rows of the model as its file or builder wrote it: `rows` less the rows normalisation
    /// added (`x + ~x = 1`, XCC colour rows). `None` on records made before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original_rows: Option<usize>,
    /// The backend's statistics (nodes, steps, guesses, backtracks, extra figures), and a
    /// table row's levels.
    pub stats: RecordStats,
    /// The counters of `stats` the backend fills, named as its registry entry names them
    /// ([`crate::backend::BackendInfo::counters`]); records made before they were recorded
    /// take the names of this binary's registry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counters: Option<Vec<(SearchCounter, String)>>,
    /// The instance's source group (file stem, generator), for the per-source table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// The name of the file the instance was read from (without its folder), when it came
    /// from a file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The puzzle's size (hex width, Queens n, Sudoku n).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<usize>,
    /// 0-based position of the instance in the experiment (job order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<usize>,
    /// Instances in the whole experiment (all shards), for "runs on record: k of n".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instances: Option<usize>,
    /// Repetitions the experiment asked of each (instance, backend) pair when this run was
    /// made; records made before it was recorded fall back to the repetitions on record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repetitions: Option<u32>,
    /// Wall-clock seconds of the whole run: a backend's as the parent saw it (worker transport
    /// included); a peer's from before peers.py built its model to after the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wall_seconds: Option<f64>,
    /// CPU seconds (user + system) of the worker during the run (a peer: of peers.py's Python
    /// process and its finished solver children over the same span as `wall_seconds`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_seconds: Option<f64>,
    /// Peak resident set of the worker during the run, MB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_rss_mb: Option<f64>,
    /// Who enforced the time limit: the backend itself or the parent (killing the worker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_by: Option<LimitBy>,
    /// The last 4 KB of the worker's standard error
    /// ([`crate::backend::worker::STDERR_TAIL_BYTES`]) when the run ended in `crash`,
    /// `memout`, `error` or a `timeout` by kill; empty otherwise and on records made before it
    /// was kept.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stderr: String,
    /// zeroone's version that made the record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The commit that binary was built from (`-dirty`: with uncommitted changes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// The run's `--jobs` (worker processes at once).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jobs: Option<usize>,
    /// The machine that made the record (logical cores, CPU model, OS, architecture).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<String>,
}

/// The key that identifies a run: (instance, backend label, repetition).
pub type RunKey = (String, String, u32);

impl Record {
    /// A record of `instance` under `backend` (label, registry name), repetition `repetition`,
    /// with everything else empty: status `error` until filled in. Stamped with this binary's
    /// version and commit.
    pub fn new(instance: &str, backend: &str, name: &str, task: Task, repetition: u32) -> Record {
        Record {
            instance: instance.into(),
            backend: backend.into(),
            repetition,
            name: name.into(),
            task,
            options: RecordOptions::default(),
            status: Status::Error,
            verified: false,
            certificate: Certificate::None,
            check_seconds: None,
            proof: None,
            seconds: 0.0,
            count: None,
            exhaustive: None,
            reason: None,
            objective: None,
            bound: None,
            gap: None,
            sense: None,
            variables: 0,
            rows: 0,
            original_variables: None,
            original_rows: None,
            stats: RecordStats::default(),
            counters: None,
            group: None,
            file: None,
            size: None,
            position: None,
            instances: None,
            repetitions: None,
            wall_seconds: None,
            cpu_seconds: None,
            peak_rss_mb: None,
            limit_by: None,
            stderr: String::new(),
            version: Some(crate::build_info::VERSION.into()),
            commit: Some(crate::build_info::COMMIT.into()),
            jobs: None,
            machine: None,
        }
    }

    /// The source group: the recorded one, or (records made before it was recorded) the
    /// instance id up to `#` (`{file stem}#{index}`), or the id itself (`{generator}-{size}`).
    pub fn group_name(&self) -> &str {
        match &self.group {
            Some(g) => g,
            None => self.instance.split('#').next().unwrap_or(&self.instance),
        }
    }

    /// A record of the first format (no recorded build) read with today's statuses: a count
    /// that stopped before it was complete is `limit` (it was written `solved`), and a backend
    /// refusing a model as too large is `unsupported` (it was written `error`). Records with a
    /// recorded build are returned as they are.
    ///
    /// Whatever its format, a peer's run ([`Record::is_peer_limit_stop`]) that its time limit
    /// stopped without an answer but that was written `unknown` (peers.py before it wrote
    /// `timeout`) is read as `timeout`, as a backend's run is, so PAR-2 charges it.
    pub fn migrated(mut self) -> Record {
        if self.is_peer_limit_stop() {
            self.status = Status::Timeout;
        }
        if self.version.is_some() {
            return self;
        }
        if self.status == Status::Solved && self.exhaustive == Some(false) {
            self.status = Status::Limit;
        }
        let too_large = self
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("cannot take this model"));
        if self.status == Status::Error && too_large {
            self.status = Status::Unsupported;
        }
        self
    }

    /// Whether this is a peer's run (registry name `peer`) recorded `unknown` that its time
    /// limit stopped: the peer's solver said so ("time limit" in the reason), or the run's
    /// seconds or wall seconds reached the limit. A backend's run stopped there is `timeout`;
    /// a peer's must be too, or PAR-2 (which leaves `unknown` out) would favour the peer.
    pub fn is_peer_limit_stop(&self) -> bool {
        if self.name != "peer" || self.status != Status::Unknown {
            return false;
        }
        let said = self
            .reason
            .as_deref()
            .is_some_and(|r| r.to_ascii_lowercase().contains("time limit"));
        let reached = self
            .options
            .time_limit
            .is_some_and(|limit| self.seconds.max(self.wall_seconds.unwrap_or(0.0)) >= limit);
        said || reached
    }

    /// This record's key.
    pub fn key(&self) -> RunKey {
        (self.instance.clone(), self.backend.clone(), self.repetition)
    }

    /// The first field in which `self` ("here") and `other` ("there") give different answers,
    /// as `FIELD X here but Y`; `None` when they agree.
    pub fn disagreement(&self, other: &Record) -> Option<String> {
        let text = |x: &dyn std::fmt::Debug| format!("{x:?}");
        let fields: [(&str, String, String); 5] = [
            (
                "status",
                self.status.name().into(),
                other.status.name().into(),
            ),
            ("verified", text(&self.verified), text(&other.verified)),
            (
                "count",
                self.count.clone().unwrap_or_else(|| "none".into()),
                other.count.clone().unwrap_or_else(|| "none".into()),
            ),
            (
                "exhaustive",
                text(&self.exhaustive),
                text(&other.exhaustive),
            ),
            (
                "certificate",
                self.certificate.name().into(),
                other.certificate.name().into(),
            ),
        ];
        fields
            .into_iter()
            .find(|(_, here, there)| here != there)
            .map(|(field, here, there)| format!("{field} {here} here but {there}"))
    }

    /// The record as one JSON line, without the newline.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a record always serialises")
    }
}

/// The longest record line read (16 MiB; a record is a few KB): a longer line, as in a file
/// that is not a record file (`/dev/zero`), is refused before it fills memory.
pub const MAX_RECORD_LINE: usize = 16 << 20;

/// Reads every record of `path`, one line at a time. A last line without its newline that does
/// not parse is torn (the run was killed while writing it): it is dropped when `tolerate_torn`
/// and the returned length stops before it; otherwise, and for any other bad line (or one
/// longer than [`MAX_RECORD_LINE`]), the error names the line. Returns the records and the
/// byte length of the good prefix.
pub fn read_records(path: &Path, tolerate_torn: bool) -> Result<(Vec<Record>, u64), HarnessError> {
    use std::io::{BufRead, BufReader, Read};
    let file = File::open(path).map_err(|e| HarnessError::io(path, e))?;
    let mut reader = BufReader::new(file);
    let mut records = Vec::new();
    let mut offset = 0u64;
    let mut line_no = 0usize;
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = (&mut reader)
            .take(MAX_RECORD_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| HarnessError::io(path, e))?;
        if read == 0 {
            break;
        }
        line_no += 1;
        let complete = line.last() == Some(&b'\n');
        if !complete && line.len() > MAX_RECORD_LINE {
            return Err(HarnessError::Records {
                file: path.to_path_buf(),
                line: line_no,
                message: format!("not a run record: a line longer than {MAX_RECORD_LINE} bytes"),
            });
        }
        let body = if complete {
            &line[..line.len() - 1]
        } else {
            &line[..]
        };
        if !body.iter().all(u8::is_ascii_whitespace) {
            match serde_json::from_slice::<Record>(body) {
                Ok(r) => records.push(r.migrated()),
                Err(_) if !complete && tolerate_torn => return Ok((records, offset)),
                Err(e) => {
                    return Err(HarnessError::Records {
                        file: path.to_path_buf(),
                        line: line_no,
                        message: format!("not a run record: {e}"),
                    })
                }
            }
        }
        offset += read as u64;
    }
    Ok((records, offset))
}

/// The exclusive right to write one record file: a lock on `FILE.lock` (an exclusive `flock`,
/// released when this is dropped, also when the process dies), whose text names the holder.
#[derive(Debug)]
pub struct RecordLock {
    _file: File,
}

impl RecordLock {
    /// The lock file of the record file `records`.
    pub fn path_of(records: &Path) -> PathBuf {
        let mut name = records.as_os_str().to_os_string();
        name.push(".lock");
        PathBuf::from(name)
    }

    /// Takes the lock of `records` (creating its folder and lock file), or fails with
    /// [`HarnessError::Busy`] naming the holder: at once when another process holds it, after
    /// up to a second when this process does. Cost: one small file, one `flock`.
    pub fn acquire(records: &Path) -> Result<RecordLock, HarnessError> {
        if let Some(dir) = records.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| HarnessError::io(dir, e))?;
        }
        let path = RecordLock::path_of(records);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| HarnessError::io(&path, e))?;
        let own = format!("pid {} ", std::process::id());
        let mut attempts = 0;
        while let Err(e) = try_lock(&file) {
            if e.kind() != std::io::ErrorKind::WouldBlock {
                return Err(HarnessError::io(&path, e));
            }
            let holder = std::fs::read_to_string(&path).unwrap_or_default();
            let holder = holder.trim();
            // A lock this process let go of can stay held for a moment by a child forked (to
            // start a worker) from another thread, until its exec closes the descriptor: wait
            // out that moment, up to a second. Another process's lock is refused at once.
            if holder.starts_with(&own) && attempts < 50 {
                attempts += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
                continue;
            }
            return Err(HarnessError::Busy {
                file: records.to_path_buf(),
                holder: if holder.is_empty() {
                    "another process".into()
                } else {
                    holder.to_string()
                },
            });
        }
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .map(|h| h.trim().to_string())
            .unwrap_or_else(|_| "this host".into());
        let since = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let text = format!(
            "pid {} on {host}, since {since} (seconds since 1970)\n",
            std::process::id()
        );
        file.set_len(0)
            .and_then(|()| file.write_all(text.as_bytes()))
            .and_then(|()| file.flush())
            .map_err(|e| HarnessError::io(&path, e))?;
        Ok(RecordLock { _file: file })
    }
}

/// An exclusive, non-blocking `flock` on `file` (what `File::try_lock` does; that needs Rust
/// 1.89 and the crate supports 1.85). Held until the file is closed, also if the process dies.
fn try_lock(file: &File) -> std::io::Result<()> {
    use std::os::unix::io::AsRawFd;
    // SAFETY: flock on a descriptor we own, open for the duration of the call.
    let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// An open record file, appended to one flushed line per record; it holds the file's
/// [`RecordLock`] while open.
#[derive(Debug)]
pub struct RecordFile {
    path: PathBuf,
    file: File,
    /// Records appended since the last `fsync`, and when that was.
    unsynced: usize,
    synced_at: std::time::Instant,
    _lock: RecordLock,
}

/// A record file is `fsync`ed after this many records, after [`SYNC_SECONDS`], and when it is
/// closed (the end of a run or shard, also on an error): a power cut loses at most that much.
pub const SYNC_RECORDS: usize = 64;
/// See [`SYNC_RECORDS`].
pub const SYNC_SECONDS: u64 = 10;

impl RecordFile {
    /// Takes the lock of `path`, then creates it empty (replacing any old file). A file locked
    /// by another run is left untouched and the error names the holder.
    pub fn create(path: &Path) -> Result<RecordFile, HarnessError> {
        let lock = RecordLock::acquire(path)?;
        let file = File::create(path).map_err(|e| HarnessError::io(path, e))?;
        Ok(RecordFile::with(path, file, lock))
    }

    /// Takes the lock of `path`, then opens it to continue it: reads its records, drops a torn
    /// last line, and returns them with the file positioned for appending. A missing file is
    /// created empty.
    pub fn open(path: &Path) -> Result<(RecordFile, Vec<Record>), HarnessError> {
        let lock = RecordLock::acquire(path)?;
        if !path.exists() {
            let file = File::create(path).map_err(|e| HarnessError::io(path, e))?;
            return Ok((RecordFile::with(path, file, lock), Vec::new()));
        }
        let (records, good) = read_records(path, true)?;
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| HarnessError::io(path, e))?;
        file.set_len(good).map_err(|e| HarnessError::io(path, e))?;
        let mut rf = RecordFile::with(path, file, lock);
        // Re-open in append mode so every write lands at the end.
        rf.file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| HarnessError::io(path, e))?;
        // A good last line written without its newline (a kill between the two writes of an
        // older format) gets one, so the next record starts on its own line.
        if good > 0 {
            use std::io::{Read, Seek, SeekFrom};
            let mut last = [0u8; 1];
            let mut file = File::open(path).map_err(|e| HarnessError::io(path, e))?;
            file.seek(SeekFrom::Start(good - 1))
                .and_then(|_| file.read_exact(&mut last))
                .map_err(|e| HarnessError::io(path, e))?;
            if last[0] != b'\n' {
                rf.file
                    .write_all(b"\n")
                    .map_err(|e| HarnessError::io(path, e))?;
            }
        }
        Ok((rf, records))
    }

    fn with(path: &Path, file: File, lock: RecordLock) -> RecordFile {
        RecordFile {
            path: path.to_path_buf(),
            file,
            unsynced: 0,
            synced_at: std::time::Instant::now(),
            _lock: lock,
        }
    }

    /// Appends `record` as one line and flushes it; `fsync`s every [`SYNC_RECORDS`] records
    /// or [`SYNC_SECONDS`].
    pub fn append(&mut self, record: &Record) -> Result<(), HarnessError> {
        let mut line = record.to_line();
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| HarnessError::io(&self.path, e))?;
        self.unsynced += 1;
        if self.unsynced >= SYNC_RECORDS || self.synced_at.elapsed().as_secs() >= SYNC_SECONDS {
            self.sync()?;
        }
        Ok(())
    }

    /// Makes every record appended so far durable (`fdatasync`).
    pub fn sync(&mut self) -> Result<(), HarnessError> {
        self.file
            .sync_data()
            .map_err(|e| HarnessError::io(&self.path, e))?;
        self.unsynced = 0;
        self.synced_at = std::time::Instant::now();
        Ok(())
    }

    /// Records appended since the last `fsync`.
    pub fn unsynced(&self) -> usize {
        self.unsynced
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for RecordFile {
    /// Closing the file (end of a run or shard, or an error) makes its records durable.
    fn drop(&mut self) {
        if self.unsynced > 0 {
            let _ = self.file.sync_data();
        }
    }
}

/// This machine as records and reports name it: logical cores, CPU model (from
/// `/proc/cpuinfo`), OS and architecture. Cost: reading one small file.
pub fn machine() -> String {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    format!(
        "{cores} logical cores, {cpu}, {} {}",
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

/// The time limits of `records`, in seconds, each once, ascending. Every record format carries
/// its run's limit in `options.time_limit` (absent: the run had none), so the limit a report
/// states is the one the runs were made under, whatever the experiment file says today.
pub fn time_limits_on_record(records: &[Record]) -> Vec<f64> {
    let mut limits: Vec<f64> = records
        .iter()
        .filter_map(|r| r.options.time_limit)
        .collect();
    limits.sort_by(f64::total_cmp);
    limits.dedup();
    limits
}

/// The time limit reports charge PAR-2 against and draw in plots: the largest on record (the
/// only one, unless records made under different limits were merged); `None` when no run had
/// one.
pub fn time_limit_on_record(records: &[Record]) -> Option<f64> {
    time_limits_on_record(records).last().copied()
}

/// The memory limits of `records` in MB, each once, ascending. Records made before memory
/// limits existed (the first format, without a recorded build) ran without one, so a record
/// without a limit means none was set.
pub fn memory_limits_on_record(records: &[Record]) -> Vec<u64> {
    let limits: BTreeSet<u64> = records
        .iter()
        .filter_map(|r| r.options.memory_limit)
        .collect();
    limits.into_iter().collect()
}

/// The repetitions the runs of `records` were asked for: the recorded ones (largest), else,
/// for records made before they were recorded, the highest repetition on record plus one.
pub fn repetitions_on_record(records: &[Record]) -> u32 {
    records
        .iter()
        .filter_map(|r| r.repetitions)
        .max()
        .unwrap_or_else(|| {
            records
                .iter()
                .filter(|r| r.name != "peer")
                .map(|r| r.repetition + 1)
                .max()
                .unwrap_or(0)
        })
}

/// The median of `xs` (mean of the two middle values for an even count); `None` when empty.
pub fn median(xs: &[f64]) -> Option<f64> {
    let mut v: Vec<f64> = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

/// The nearest-rank `q` quantile (`0 < q <= 1`) of `xs`; `None` when empty.
pub fn quantile(xs: &[f64], q: f64) -> Option<f64> {
    let mut v: Vec<f64> = xs.to_vec();
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return None;
    }
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    Some(v[rank - 1])
}

/// Joins record files: exact repeats of a key (same answer) are kept once, the first one; two
/// records of one key with different answers are an error naming both places.
pub fn merge(files: &[PathBuf]) -> Result<Vec<Record>, HarnessError> {
    let mut by_key: BTreeMap<RunKey, (Record, PathBuf)> = BTreeMap::new();
    let mut order = Vec::new();
    for path in files {
        let (records, _) = read_records(path, false)?;
        for (i, r) in records.into_iter().enumerate() {
            let key = r.key();
            match by_key.get(&key) {
                Some((first, where_first)) => {
                    if let Some(differs) = r.disagreement(first) {
                        return Err(HarnessError::Records {
                            file: path.clone(),
                            line: i + 1,
                            message: format!(
                                "instance '{}', backend '{}', repetition {}: {differs} in {}",
                                key.0,
                                key.1,
                                key.2,
                                where_first.display()
                            ),
                        });
                    }
                }
                None => {
                    order.push(key.clone());
                    by_key.insert(key, (r, path.clone()));
                }
            }
        }
    }
    Ok(order
        .into_iter()
        .filter_map(|k| by_key.remove(&k).map(|(r, _)| r))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(instance: &str, status: Status) -> Record {
        Record {
            status,
            verified: status == Status::Solved,
            seconds: 0.5,
            count: Some("340282366920938463463374607431768211455".into()),
            variables: 4,
            rows: 3,
            ..Record::new(instance, "brute", "brute", Task::Solve, 0)
        }
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_the_file_continues() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.jsonl");
        let a = record("a", Status::Solved);
        let b = record("b", Status::Infeasible);
        let whole = format!("{}\n", a.to_line());
        std::fs::write(&p, format!("{whole}{}", &b.to_line()[..20])).unwrap();
        assert!(read_records(&p, false).is_err());
        let (mut file, done) = RecordFile::open(&p).unwrap();
        assert_eq!(done, vec![a.clone()]);
        file.append(&b).unwrap();
        let (all, _) = read_records(&p, false).unwrap();
        assert_eq!(all, vec![a, b]);
    }

    #[test]
    fn a_second_writer_is_refused_with_the_holder_named_until_the_first_is_closed() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.jsonl");
        let a = record("a", Status::Solved);
        let mut first = RecordFile::create(&p).unwrap();
        first.append(&a).unwrap();
        for second in [
            RecordFile::create(&p).map(|_| ()),
            RecordFile::open(&p).map(|_| ()),
        ] {
            let e = second.unwrap_err();
            assert!(matches!(e, HarnessError::Busy { .. }), "{e}");
            let text = e.to_string();
            assert!(
                text.contains(&format!("pid {}", std::process::id())),
                "{text}"
            );
        }
        // The refused `create` did not truncate the first run's records.
        assert_eq!(read_records(&p, false).unwrap().0, vec![a.clone()]);
        drop(first);
        let (_again, done) = RecordFile::open(&p).unwrap();
        assert_eq!(done, vec![a]);
    }

    #[test]
    fn a_record_of_the_first_format_still_loads() {
        let line = r#"{"instance":"hex-5#0","backend":"enum","repetition":0,"name":"enum","task":"solve","options":{"seed":0,"time_limit":30.0},"status":"solved","verified":true,"seconds":7.458e-6,"variables":19,"rows":20,"stats":{"nodes":5,"seconds":7.458e-6}}"#;
        let r: Record = serde_json::from_str(line).unwrap();
        assert_eq!(r.status, Status::Solved);
        assert_eq!(
            (r.wall_seconds, r.commit.as_deref(), r.group.as_deref()),
            (None, None, None)
        );
        assert_eq!(r.group_name(), "hex-5");
        // The first format wrote a count cut short as `solved` and "too large" as `error`.
        let cut = r#"{"instance":"q#0","backend":"enum","repetition":0,"name":"enum","task":"count","options":{"seed":0},"status":"solved","verified":true,"seconds":1.0,"count":"0","exhaustive":false,"stats":{}}"#;
        let big = r#"{"instance":"q#1","backend":"dp","repetition":0,"name":"dp","task":"count","options":{"seed":0},"status":"error","verified":false,"seconds":1.0,"reason":"backend 'dp' cannot take this model: 40 open rows","stats":{}}"#;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("old.jsonl");
        std::fs::write(&p, format!("{cut}\n{big}\n{line}\n")).unwrap();
        let statuses: Vec<Status> = read_records(&p, false)
            .unwrap()
            .0
            .iter()
            .map(|r| r.status)
            .collect();
        assert_eq!(
            statuses,
            vec![Status::Limit, Status::Unsupported, Status::Solved]
        );
    }

    #[test]
    fn a_bad_line_in_the_middle_is_an_error_with_its_number() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.jsonl");
        let a = record("a", Status::Solved);
        std::fs::write(&p, format!("{}\nnot json\n{}\n", a.to_line(), a.to_line())).unwrap();
        let e = RecordFile::open(&p).unwrap_err().to_string();
        assert!(e.contains("r.jsonl:2: not a run record"), "{e}");
    }

    #[test]
    fn appended_records_are_synced_every_so_many_and_on_sync() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.jsonl");
        let mut file = RecordFile::create(&p).unwrap();
        let r = record("a", Status::Solved);
        for i in 1..SYNC_RECORDS {
            file.append(&r).unwrap();
            assert_eq!(file.unsynced(), i);
        }
        file.append(&r).unwrap();
        assert_eq!(file.unsynced(), 0, "synced at the {SYNC_RECORDS}th record");
        file.append(&r).unwrap();
        assert_eq!(file.unsynced(), 1);
        file.sync().unwrap();
        assert_eq!(file.unsynced(), 0);
        drop(file);
        let (records, _) = read_records(&p, false).unwrap();
        assert_eq!(records.len(), SYNC_RECORDS + 1);
    }

    #[test]
    fn merge_drops_repeats_and_refuses_conflicts() {
        let dir = tempfile::tempdir().unwrap();
        let p1 = dir.path().join("1.jsonl");
        let p2 = dir.path().join("2.jsonl");
        let a = record("a", Status::Solved);
        let b = record("b", Status::Solved);
        std::fs::write(&p1, format!("{}\n{}\n", a.to_line(), b.to_line())).unwrap();
        let mut a_slower = a.clone();
        a_slower.seconds = 9.0;
        std::fs::write(&p2, format!("{}\n", a_slower.to_line())).unwrap();
        assert_eq!(
            merge(&[p1.clone(), p2.clone()]).unwrap(),
            vec![a.clone(), b]
        );
        let a_wrong = record("a", Status::Error);
        std::fs::write(&p2, format!("{}\n", a_wrong.to_line())).unwrap();
        let e = merge(&[p1.clone(), p2.clone()]).unwrap_err().to_string();
        assert!(e.contains("2.jsonl:1: instance 'a', backend 'brute', repetition 0: status error here but solved"), "{e}");
        // Two shards differing only in their count name the count, not the (equal) status.
        let mut counted = record("a", Status::Solved);
        counted.count = Some("7".into());
        let mut other = counted.clone();
        other.count = Some("8".into());
        std::fs::write(&p1, format!("{}\n", counted.to_line())).unwrap();
        std::fs::write(&p2, format!("{}\n", other.to_line())).unwrap();
        let e = merge(&[p1, p2]).unwrap_err().to_string();
        assert!(e.contains("repetition 0: count 8 here but 7 in"), "{e}");
    }
}
