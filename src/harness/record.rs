//! One finished run as one JSON line, and the files that hold them.
//!
//! A record file (`reports/NAME.jsonl`) is appended to one line at a time and flushed after
//! each line, so a killed run loses at most the run in flight; its last line may be torn, and
//! [`RecordFile::open`] drops a torn last line before appending again. Any other bad line is
//! an error naming its line number: it is never skipped silently.
//!
//! Records are keyed by (instance, backend label, repetition); [`merge`] joins shard files,
//! dropping exact repeats and refusing two records of the same key that disagree.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::backend::{Stats, Status};
use crate::harness::experiment::Task;
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
    /// Seconds inside the backend.
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
    /// Variables and rows of the model the backend was given.
    #[serde(default)]
    pub variables: usize,
    /// Rows (constraints) of the model.
    #[serde(default)]
    pub rows: usize,
    /// The backend's statistics (nodes, steps, guesses, backtracks, extra figures).
    pub stats: Stats,
}

/// The key that identifies a run: (instance, backend label, repetition).
pub type RunKey = (String, String, u32);

impl Record {
    /// This record's key.
    pub fn key(&self) -> RunKey {
        (self.instance.clone(), self.backend.clone(), self.repetition)
    }

    /// Whether two records of the same key say the same thing (status, verification, count):
    /// timings may differ between repeats of a run, answers may not.
    pub fn agrees_with(&self, other: &Record) -> bool {
        self.status == other.status
            && self.verified == other.verified
            && self.count == other.count
            && self.exhaustive == other.exhaustive
    }

    /// The record as one JSON line, without the newline.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a record always serialises")
    }
}

/// Reads every record of `path`. A last line without its newline that does not parse is torn
/// (the run was killed while writing it): it is dropped when `tolerate_torn` and the returned
/// length stops before it; otherwise, and for any other bad line, the error names the line.
/// Returns the records and the byte length of the good prefix.
pub fn read_records(path: &Path, tolerate_torn: bool) -> Result<(Vec<Record>, u64), HarnessError> {
    let text = std::fs::read(path).map_err(|e| HarnessError::io(path, e))?;
    let mut records = Vec::new();
    let mut offset = 0usize;
    let mut line_no = 0usize;
    while offset < text.len() {
        line_no += 1;
        let end = text[offset..].iter().position(|&b| b == b'\n');
        let (line, next, complete) = match end {
            Some(e) => (&text[offset..offset + e], offset + e + 1, true),
            None => (&text[offset..], text.len(), false),
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            offset = next;
            continue;
        }
        match serde_json::from_slice::<Record>(line) {
            Ok(r) => records.push(r),
            Err(e) => {
                if !complete && tolerate_torn {
                    return Ok((records, offset as u64));
                }
                return Err(HarnessError::Records {
                    file: path.to_path_buf(),
                    line: line_no,
                    message: format!("not a run record: {e}"),
                });
            }
        }
        offset = next;
    }
    Ok((records, text.len() as u64))
}

/// An open record file, appended to one flushed line per record.
#[derive(Debug)]
pub struct RecordFile {
    path: PathBuf,
    file: File,
}

impl RecordFile {
    /// Creates `path` empty (replacing any old file).
    pub fn create(path: &Path) -> Result<RecordFile, HarnessError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| HarnessError::io(dir, e))?;
        }
        let file = File::create(path).map_err(|e| HarnessError::io(path, e))?;
        Ok(RecordFile {
            path: path.to_path_buf(),
            file,
        })
    }

    /// Opens `path` to continue it: reads its records, drops a torn last line, and returns
    /// them with the file positioned for appending. A missing file is created empty.
    pub fn open(path: &Path) -> Result<(RecordFile, Vec<Record>), HarnessError> {
        if !path.exists() {
            return Ok((RecordFile::create(path)?, Vec::new()));
        }
        let (records, good) = read_records(path, true)?;
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| HarnessError::io(path, e))?;
        file.set_len(good).map_err(|e| HarnessError::io(path, e))?;
        let mut rf = RecordFile {
            path: path.to_path_buf(),
            file,
        };
        // Re-open in append mode so every write lands at the end.
        rf.file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| HarnessError::io(path, e))?;
        // A good last line written without its newline (a kill between the two writes of an
        // older format) gets one, so the next record starts on its own line.
        if good > 0 {
            let text = std::fs::read(path).map_err(|e| HarnessError::io(path, e))?;
            if text.last() != Some(&b'\n') {
                rf.file
                    .write_all(b"\n")
                    .map_err(|e| HarnessError::io(path, e))?;
            }
        }
        Ok((rf, records))
    }

    /// Appends `record` as one line and flushes it.
    pub fn append(&mut self, record: &Record) -> Result<(), HarnessError> {
        let mut line = record.to_line();
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| HarnessError::io(&self.path, e))
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
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
                    if !first.agrees_with(&r) {
                        return Err(HarnessError::Records {
                            file: path.clone(),
                            line: i + 1,
                            message: format!(
                                "instance '{}', backend '{}', repetition {}: status {} here but {} in {}",
                                key.0,
                                key.1,
                                key.2,
                                r.status.name(),
                                first.status.name(),
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
            instance: instance.into(),
            backend: "brute".into(),
            repetition: 0,
            name: "brute".into(),
            task: Task::Solve,
            options: RecordOptions::default(),
            status,
            verified: status == Status::Solved,
            seconds: 0.5,
            count: Some("340282366920938463463374607431768211455".into()),
            exhaustive: None,
            reason: None,
            variables: 4,
            rows: 3,
            stats: Stats::default(),
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
    fn a_bad_line_in_the_middle_is_an_error_with_its_number() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.jsonl");
        let a = record("a", Status::Solved);
        std::fs::write(&p, format!("{}\nnot json\n{}\n", a.to_line(), a.to_line())).unwrap();
        let e = RecordFile::open(&p).unwrap_err().to_string();
        assert!(e.contains("r.jsonl:2: not a run record"), "{e}");
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
        let e = merge(&[p1, p2]).unwrap_err().to_string();
        assert!(e.contains("2.jsonl:1: instance 'a', backend 'brute', repetition 0: status error here but solved"), "{e}");
    }
}
