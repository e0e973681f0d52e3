//! Where records live and who may write them: the record file of an experiment or of one
//! shard, the shard files to merge, and opening the records for a run (resume, fresh, the
//! one-writer lock of [`crate::harness::record::RecordLock`]).

use std::path::{Path, PathBuf};

use crate::harness::experiment::Experiment;
use crate::harness::plan::{RunOptions, Shard};
use crate::harness::record::{Record, RecordFile};
use crate::harness::HarnessError;

/// The file name an instance's exported model gets: its id with every character outside
/// `A-Z a-z 0-9 . _ - #` replaced by `_`, then `.json`.
pub fn model_file_name(id: &str) -> String {
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || ".-_#".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}.json")
}

/// The record file of `experiment` (or of one shard) in `dir`.
pub fn records_path(dir: &Path, experiment: &Experiment, shard: Option<Shard>) -> PathBuf {
    match shard {
        None => dir.join(format!("{}.jsonl", experiment.name)),
        Some(s) => dir.join(format!(
            "{}.shard-{}-of-{}.jsonl",
            experiment.name, s.index, s.count
        )),
    }
}

/// The shard record files of `experiment` in `dir` (`NAME.shard-k-of-N.jsonl`), sorted.
pub fn shard_files(dir: &Path, experiment: &Experiment) -> Result<Vec<PathBuf>, HarnessError> {
    let prefix = format!("{}.shard-", experiment.name);
    let mut out = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| HarnessError::io(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| HarnessError::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(&prefix) && name.ends_with(".jsonl") {
            out.push(entry.path());
        }
    }
    out.sort();
    Ok(out)
}

/// Opens the record file of `experiment` for this run, holding its lock: continued with
/// `resume` (returning the records already on it), replaced with `fresh`, created when
/// missing; an existing file without either flag is an error, and a file another run holds is
/// refused ([`HarnessError::Busy`]), before anything is run or written.
pub fn open_records(
    experiment: &Experiment,
    options: &RunOptions,
) -> Result<(PathBuf, RecordFile, Vec<Record>), HarnessError> {
    let path = records_path(&options.reports_dir, experiment, options.shard);
    if path.exists() && !options.resume && !options.fresh {
        return Err(HarnessError::RecordsExist { path });
    }
    let (file, done) = if options.resume {
        RecordFile::open(&path)?
    } else {
        (RecordFile::create(&path)?, Vec::new())
    };
    Ok((path, file, done))
}
