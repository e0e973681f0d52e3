//! Certified runs (`certify = true`): where each run's proof goes, and what the parent does
//! with it once the worker has answered: check it with `veripb`, compress it when large, and
//! fill the record's `certificate`, `check_seconds` and `proof`.
//!
//! The worker writes `NAME.proofs/STEM.opb` and `STEM.pbp` ([`crate::backend::worker::Job`]'s
//! `proof`) when its backend logs proofs of the model and task; the others run as usual and
//! their records say `certificate: none`, as does a run stopped by its limit (no answer, or a
//! count's partial value: its files are removed, a partial proof certifies no answer, and
//! checking one could take far longer than the run). A proof the checker rejects makes the run
//! an `error` whose reason is the checker's. Files over [`COMPRESS_ABOVE`] bytes are gzipped
//! after the check (`STEM.pbp.gz`; `zeroone check` unpacks them, see [`unpacked`]).

use std::io;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::backend::proof::{find_checker, rejection, Claim, CHECKER_INSTALL};
use crate::backend::worker::RunResult;
use crate::backend::Status;
use crate::harness::experiment::Experiment;
use crate::harness::record::{Certificate, Record};
use crate::harness::HarnessError;

/// Proof files larger than this (1 MB) are kept gzipped.
pub const COMPRESS_ABOVE: u64 = 1 << 20;

/// The folder of an experiment's proofs: `NAME.proofs` in the records' folder (shards and
/// peers share it: the file names differ per run).
pub fn proofs_dir(reports_dir: &Path, experiment: &Experiment) -> PathBuf {
    reports_dir.join(format!("{}.proofs", experiment.name))
}

/// The file stem of a run's proof, safe for any instance id and label and one per run:
/// `INSTANCE--LABEL--rREP-HASH`, the instance cut to 48 and the label to 16 characters with
/// every character but `A-Z a-z 0-9 - _ .` made `_` (no leading dot), and `HASH` 16 hex digits
/// of the exact (instance, label, repetition), so two runs never share a file whatever their
/// names. At most 100 characters, as [`crate::backend::proof::safe_file_name`] keeps.
pub fn proof_stem(instance: &str, label: &str, repetition: u32) -> String {
    let safe = |s: &str, max: usize| -> String {
        let t: String = s
            .chars()
            .take(max)
            .map(|c| match c {
                'a'..='z' | 'A'..='Z' | '0'..='9' | '-' | '_' | '.' => c,
                _ => '_',
            })
            .collect();
        match t.strip_prefix('.') {
            Some(rest) => format!("_{rest}"),
            None => t,
        }
    };
    let hash = fnv1a(&[
        instance.as_bytes(),
        label.as_bytes(),
        &repetition.to_le_bytes(),
    ]);
    format!(
        "{}--{}--r{repetition}-{hash:016x}",
        safe(instance, 48),
        safe(label, 16)
    )
}

/// FNV-1a (64 bits) of the parts, each followed by a 0xff byte (which UTF-8 never holds), so
/// the split between parts counts. Stable across builds and platforms.
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in part.iter().chain(&[0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// Refuses a certified run before anything runs when the checker is missing (bad input,
/// located at `certify`). Cost: a few `stat` calls.
pub fn require_checker(experiment: &Experiment) -> Result<(), HarnessError> {
    if !experiment.certify || find_checker().is_some() {
        return Ok(());
    }
    Err(HarnessError::Experiment {
        file: experiment.path.clone(),
        location: "certify".into(),
        message: format!(
            "the proof checker `veripb` was not found (looked in $ZEROONE_VERIPB, $PATH and \
             ~/.cargo/bin); install it with: {CHECKER_INSTALL}"
        ),
    })
}

/// Fills `record`'s certificate from the worker's `result` of a job that asked for a proof at
/// `dir/stem`: no claim, claim `nothing` or a partial count is `none` (and the files go);
/// otherwise the proof is checked, compressed when large, and a rejection turns the run into
/// an `error`. Cost: the checker's run (often longer than the search) and, for a large proof,
/// one gzip pass. Errors: only failures to compress or remove the files.
pub fn certify_run(
    record: &mut Record,
    result: &RunResult,
    dir: &Path,
    stem: &str,
) -> Result<(), HarnessError> {
    let opb = dir.join(format!("{stem}.opb"));
    let pbp = dir.join(format!("{stem}.pbp"));
    let claim = result.claim.as_deref().and_then(Claim::parse);
    // No claim, or one that settles no answer (a count cut short by the time limit): nothing
    // to certify.
    if !claim.is_some_and(|c| c.settles_an_answer()) {
        for path in [&opb, &pbp] {
            remove_if_present(path)?;
        }
        return remove_partial(dir, stem);
    }
    let start = Instant::now();
    let rejected = rejection(&opb, &pbp);
    record.check_seconds = Some(start.elapsed().as_secs_f64());
    record.certificate = match rejected {
        None => Certificate::Checked,
        Some(reason) => {
            record.status = Status::Error;
            record.reason = Some(format!("certificate rejected: {reason}"));
            Certificate::Rejected
        }
    };
    compress_if_large(&opb)?;
    let kept = compress_if_large(&pbp)?;
    let name = kept.file_name().map(|n| n.to_string_lossy().into_owned());
    let folder = dir.file_name().map(|n| n.to_string_lossy().into_owned());
    record.proof = folder.zip(name).map(|(d, n)| format!("{d}/{n}"));
    Ok(())
}

/// Removes what a worker killed while writing left of `stem`'s files: the temporary files
/// the atomic writer names `.STEM.opb.*.tmp` and `.STEM.pbp.*.tmp`. Cost: one listing of
/// `dir`.
fn remove_partial(dir: &Path, stem: &str) -> Result<(), HarnessError> {
    let entries = std::fs::read_dir(dir).map_err(|e| HarnessError::io(dir, e))?;
    let prefix = format!(".{stem}.");
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(&prefix) && name.ends_with(".tmp") {
            remove_if_present(&entry.path())?;
        }
    }
    Ok(())
}

fn remove_if_present(path: &Path) -> Result<(), HarnessError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(HarnessError::io(path, e)),
        _ => Ok(()),
    }
}

/// `path` gzipped to `path.gz` (then removed) when larger than [`COMPRESS_ABOVE`]; returns
/// the file that remains. The `.gz` is written beside it and renamed into place, so a reader
/// never sees half of it. Cost: one read and one compressed write of the file.
pub fn compress_if_large(path: &Path) -> Result<PathBuf, HarnessError> {
    let size = std::fs::metadata(path)
        .map_err(|e| HarnessError::io(path, e))?
        .len();
    if size <= COMPRESS_ABOVE {
        return Ok(path.to_path_buf());
    }
    let mut gz = path.as_os_str().to_owned();
    gz.push(".gz");
    let gz = PathBuf::from(gz);
    let mut tmp = gz.as_os_str().to_owned();
    tmp.push(".partial");
    let tmp = PathBuf::from(tmp);
    let write = || -> io::Result<()> {
        let mut input = std::fs::File::open(path)?;
        let out = std::fs::File::create(&tmp)?;
        let mut encoder = flate2::write::GzEncoder::new(out, flate2::Compression::default());
        io::copy(&mut input, &mut encoder)?;
        encoder.finish()?.sync_all()?;
        std::fs::rename(&tmp, &gz)
    };
    write().map_err(|e| HarnessError::io(&gz, e))?;
    std::fs::remove_file(path).map_err(|e| HarnessError::io(path, e))?;
    Ok(gz)
}

/// `path` itself, or for a gzipped file (`.gz`, as [`compress_if_large`] leaves a large
/// proof) its content unpacked into `dir` under the name without `.gz`, so the checker (which
/// reads plain files) can take it. Cost: one decompressing copy of a `.gz` file.
pub fn unpacked(path: &Path, dir: &Path) -> Result<PathBuf, HarnessError> {
    let Some(plain) = path
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".gz"))
    else {
        return Ok(path.to_path_buf());
    };
    let target = dir.join(plain);
    let copy = || -> io::Result<()> {
        let input = std::fs::File::open(path)?;
        let mut decoder = flate2::read::MultiGzDecoder::new(io::BufReader::new(input));
        let mut out = io::BufWriter::new(std::fs::File::create(&target)?);
        io::copy(&mut decoder, &mut out)?;
        io::Write::flush(&mut out)
    };
    copy().map_err(|e| HarnessError::io(path, e))?;
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn proof_stems_are_safe_short_and_one_per_run() {
        let names = [
            "royle_17clue#3",
            "a/b/../c",
            ".hidden",
            "x y\tz\n",
            "ünïcödé-名前",
            "a--b",
            "a",
            "",
            &"long".repeat(80),
        ];
        let labels = [
            "bitset",
            "b--c",
            "",
            "label with spaces and / slashes .....",
        ];
        let mut seen = HashSet::new();
        for n in names {
            for l in labels {
                for rep in [0, 1, u32::MAX] {
                    let stem = proof_stem(n, l, rep);
                    assert!(stem.len() <= 100, "{stem}");
                    assert!(!stem.starts_with('.'), "{stem}");
                    assert!(
                        stem.chars()
                            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)),
                        "{stem}"
                    );
                    // The backend writes STEM.opb as safe_file_name leaves it.
                    assert_eq!(crate::backend::proof::safe_file_name(&stem), stem);
                    assert!(seen.insert(stem.clone()), "two runs share {stem}");
                }
            }
        }
        // Names that only differ where the stem makes them alike get different files.
        assert_ne!(proof_stem("a--b", "c", 0), proof_stem("a", "b--c", 0));
        assert_ne!(proof_stem("a#1", "x", 0), proof_stem("a_1", "x", 0));
        assert_eq!(
            proof_stem("queens-bare-8", "bitset", 2),
            proof_stem("queens-bare-8", "bitset", 2)
        );
        assert!(proof_stem("queens-bare-8", "bitset", 2).starts_with("queens-bare-8--bitset--r2-"));
    }

    #[test]
    fn large_files_are_gzipped_and_read_back_the_same() {
        use std::io::Read;
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("s.pbp");
        std::fs::write(&small, "rup >= 1 ;\n").unwrap();
        assert_eq!(compress_if_large(&small).unwrap(), small);
        assert!(small.is_file());
        let big = dir.path().join("b.pbp");
        let text: String = (0..200_000)
            .map(|i| format!("rup 1 ~x{i} >= 1 ;\n"))
            .collect();
        assert!(text.len() as u64 > COMPRESS_ABOVE);
        std::fs::write(&big, &text).unwrap();
        let kept = compress_if_large(&big).unwrap();
        assert_eq!(kept, dir.path().join("b.pbp.gz"));
        assert!(!big.exists());
        let mut back = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(&kept).unwrap())
            .read_to_string(&mut back)
            .unwrap();
        assert_eq!(back, text);
        assert!(std::fs::metadata(&kept).unwrap().len() < COMPRESS_ABOVE);
        // Unpacked for the checker: the same text under the plain name; a plain file as is.
        let out = tempfile::tempdir().unwrap();
        let plain = unpacked(&kept, out.path()).unwrap();
        assert_eq!(plain, out.path().join("b.pbp"));
        assert_eq!(std::fs::read_to_string(&plain).unwrap(), text);
        assert_eq!(unpacked(&small, out.path()).unwrap(), small);
        // A file that is not gzip is a read error naming it, never a panic.
        let fake = dir.path().join("fake.pbp.gz");
        std::fs::write(&fake, "not gzip").unwrap();
        let e = unpacked(&fake, out.path()).unwrap_err().to_string();
        assert!(e.starts_with(&fake.display().to_string()), "{e}");
    }
}
