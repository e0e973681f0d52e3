//! [`check`]: runs the installed `veripb` binary on an OPB model and a proof, and confirms the
//! proof's claim (see the module docs of [`super`]).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Command;

use super::{Claim, ProofError};

/// How to install the checker, for error messages and the README.
pub const CHECKER_INSTALL: &str = "cargo install veripb --version '^3' --locked";

/// The verdict on a proof.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checked {
    /// `veripb` verified every step and the claim agrees with what it verified.
    Certified {
        /// The proof's claim (`None` for a proof zeroone did not write).
        claim: Option<Claim>,
        /// `veripb`'s verdict line (`s VERIFIED ...`), with zeroone's confirmation.
        detail: String,
    },
    /// `veripb` rejected a step, or the claim disagrees with the proof.
    Rejected {
        /// The checker's reason (file and line of the failing step) or zeroone's.
        reason: String,
    },
}

/// The `veripb` binary: `$ZEROONE_VERIPB`, else `veripb` on `$PATH`, else
/// `~/.cargo/bin/veripb`; `None` when none exists. Cost: a few `stat` calls.
pub fn find_checker() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("ZEROONE_VERIPB") {
        return Some(PathBuf::from(p)).filter(|p| p.is_file());
    }
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("veripb"))
            .find(|p| p.is_file())
    });
    on_path.or_else(|| {
        let home = std::env::var_os("HOME")?;
        Some(Path::new(&home).join(".cargo/bin/veripb")).filter(|p| p.is_file())
    })
}

/// What zeroone reads from a proof itself: its claim, its solution steps, and whether it
/// derives the contradiction.
#[derive(Debug, Default)]
struct ProofScan {
    claim: Option<Claim>,
    solutions: u128,
    contradiction: bool,
}

/// Reads `pbp` line by line (memory: one line).
fn scan(pbp: &Path) -> Result<ProofScan, ProofError> {
    let io_err = |source| ProofError::Io {
        path: pbp.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(pbp).map_err(io_err)?;
    let mut found = ProofScan::default();
    for line in BufReader::new(file).lines() {
        let line = line.map_err(io_err)?;
        let line = line.trim();
        if line.starts_with("solx ") || line.starts_with("soli ") {
            found.solutions += 1;
        } else if line == "rup >= 1 ;" {
            found.contradiction = true;
        } else if let Some(text) = line.strip_prefix("% zeroone claim:") {
            found.claim = Claim::parse(text);
        }
    }
    Ok(found)
}

/// Checks `pbp` against `opb` with `veripb`, then the claim against the proof: a count must
/// equal the number of `solx` steps and be followed by the contradiction; infeasible and
/// optimum must be `veripb`'s own verdicts. Errors: a missing or unreadable file (with its
/// path), a missing checker, or input the checker cannot parse (its located message). Cost:
/// one read of the proof plus the checker's run (often slower than the search).
pub fn check(opb: &Path, pbp: &Path) -> Result<Checked, ProofError> {
    for path in [opb, pbp] {
        std::fs::File::open(path).map_err(|source| ProofError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    }
    let found = scan(pbp)?;
    let checker = find_checker().ok_or(ProofError::CheckerMissing)?;
    let out = Command::new(&checker)
        .arg("--hide-warnings")
        .arg(opb)
        .arg(pbp)
        .env("RUST_BACKTRACE", "0")
        .env("RUST_LIB_BACKTRACE", "0")
        .output()
        .map_err(|source| ProofError::Io {
            path: checker.clone(),
            source,
        })?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        let reason = checker_reason(&stderr);
        let unreadable = [
            "Syntax error",
            "Failed to open",
            "formula contains",
            "parsing",
            "Unexpected token",
        ];
        if unreadable.iter().any(|u| stderr.contains(u)) {
            let named = [opb, pbp]
                .iter()
                .any(|p| reason.contains(&*p.to_string_lossy()));
            return Err(ProofError::Unreadable(if named {
                reason
            } else {
                format!("{}: {reason}", pbp.display())
            }));
        }
        return Ok(Checked::Rejected { reason });
    }
    let verdict = stdout
        .lines()
        .find(|l| l.starts_with("s VERIFIED"))
        .unwrap_or("")
        .to_string();
    Ok(confirm(&found, verdict))
}

/// Why the proof pair is not accepted: `None` when [`check`] certifies it, the checker's
/// reason when it rejects it, and the error when it cannot be checked at all (a missing file
/// or checker, an unreadable proof), for callers that count each of those as a rejected
/// certificate (experiments, Python). Cost: that of [`check`].
pub fn rejection(opb: &Path, pbp: &Path) -> Option<String> {
    match check(opb, pbp) {
        Ok(Checked::Certified { .. }) => None,
        Ok(Checked::Rejected { reason }) => Some(reason),
        Err(e) => Some(format!("the proof could not be checked: {e}")),
    }
}

/// The claim of `found` confronted with `veripb`'s verdict line.
fn confirm(found: &ProofScan, verdict: String) -> Checked {
    let reject = |reason: String| Checked::Rejected { reason };
    let Some(claim) = found.claim.clone() else {
        return Checked::Certified {
            claim: None,
            detail: verdict,
        };
    };
    let ok = match &claim {
        Claim::Count { count, exhaustive } => {
            if *count != found.solutions {
                return reject(format!(
                    "the proof claims {} solutions but excludes {}",
                    count, found.solutions
                ));
            }
            if *exhaustive && !found.contradiction {
                return reject("the proof claims an exact count but never derives the contradiction (rup >= 1 ;) after its solutions".into());
            }
            verdict.contains("SATISFIABLE") || verdict.contains("NO CONCLUSION")
        }
        Claim::Solution => verdict == "s VERIFIED SATISFIABLE",
        Claim::Infeasible => {
            verdict == "s VERIFIED UNSATISFIABLE"
                || verdict == "s VERIFIED BOUNDS INF <= obj <= INF"
        }
        Claim::Optimum { value } => {
            verdict == format!("s VERIFIED BOUNDS {value} <= obj <= {value}")
        }
        Claim::Nothing => {
            return reject("the proof claims nothing (the run stopped before an answer)".into())
        }
    };
    if ok {
        Checked::Certified {
            claim: Some(claim),
            detail: verdict,
        }
    } else {
        reject(format!(
            "the proof claims '{}' but the checker concluded '{}'",
            claim.text(),
            verdict
        ))
    }
}

/// The checker's error message on one line: `Error: ...` and its causes.
fn checker_reason(stderr: &str) -> String {
    let text: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .skip_while(|l| !l.starts_with("Error"))
        .take_while(|l| !l.starts_with("Stack backtrace"))
        .filter(|l| !l.is_empty() && *l != "Caused by:" && !l.starts_with('^'))
        .collect();
    if text.is_empty() {
        format!("veripb failed: {}", stderr.trim())
    } else {
        text.join(" ").trim_start_matches("Error: ").replace(
            " Rerun with the option '--trace-failed' to see the propagations.",
            "",
        )
    }
}
