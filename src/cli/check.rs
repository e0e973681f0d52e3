//! Certified answers on the command line: `--proof DIR` / `--certify` of `solve` and `count`
//! (one `NAME.opb` + `NAME.pbp` per puzzle, checked with `veripb` under `--certify`), and
//! `zeroone check MODEL.opb PROOF.pbp`.

use std::path::{Path, PathBuf};

use clap::Args;
use zeroone::backend::proof::{check, prove_to_dir, Checked, Claim, ProofError, ProofTask};
use zeroone::backend::Backend;
use zeroone::model::verify::Verifier;
use zeroone::model::Model;

use super::parallel::{Printed, Tally};
use super::CliError;

/// The proof options shared by `solve` and `count`.
#[derive(Debug, Args, Clone, Default)]
pub struct ProofArgs {
    /// Write a VeriPB proof of each answer: DIR/NAME.opb (the model) and DIR/NAME.pbp (the
    /// proof), NAME the puzzle's name made safe as a file name. Only backends that log
    /// proofs take it (bitset, xcc, vsa with an exact code); the others are refused (exit 2),
    /// never run uncertified.
    #[arg(long, value_name = "DIR")]
    pub proof: Option<PathBuf>,
    /// Also run the checker (`veripb`) on each proof and print `certified` or `certificate
    /// rejected: REASON` (JSON: "certificate": "checked" | "rejected"). Without --proof the
    /// files go to a temporary folder.
    #[arg(long)]
    pub certify: bool,
}

impl ProofArgs {
    /// Whether a proof is asked for.
    pub fn wanted(&self) -> bool {
        self.proof.is_some() || self.certify
    }
}

/// Runs `task` on `model` with a proof, checks it under `--certify`, verifies the witness with
/// the shared verifier, and renders one line (text or JSON). A backend without the ability
/// is refused (exit 2); a rejected certificate or witness fails the puzzle (exit 1).
pub fn proved_one(
    args: &ProofArgs,
    backend: &mut dyn Backend,
    index: usize,
    model: &Model,
    task: ProofTask,
    json: bool,
) -> Printed {
    let name = backend.name();
    let reason = backend.no_prover_reason();
    let Some(prover) = backend.prover() else {
        return Err(CliError::BadInput(format!(
            "--proof/--certify: backend '{name}' cannot log proofs: {reason}"
        )));
    };
    let temp;
    let dir: &Path = match &args.proof {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| {
                CliError::BadInput(format!("--proof {}: cannot create: {e}", dir.display()))
            })?;
            dir
        }
        None => {
            temp = temp_dir()?;
            temp.path()
        }
    };
    let stem = format!("{}-{index}", model.name());
    let files = prove_to_dir(prover, model, task, dir, &stem).map_err(|e| match e {
        ProofError::Io { .. } => CliError::Failed(e.to_string()),
        other => CliError::Failed(format!("{name}: {other}")),
    })?;
    if let Some(w) = &files.run.witness {
        Verifier::new(model)
            .check(w)
            .map_err(|v| CliError::Failed(format!("{name} answered a wrong solution: {v}")))?;
    }
    // A run stopped early proves nothing: no certificate to check ("none"), not a rejection.
    let certificate = if args.certify && files.claim != Claim::Nothing {
        Some(check(&files.opb, &files.pbp).map_err(|e| match e {
            ProofError::CheckerMissing => CliError::BadInput(e.to_string()),
            other => CliError::Failed(format!("checking {}: {other}", files.pbp.display())),
        })?)
    } else {
        None
    };
    let rejected = matches!(certificate, Some(Checked::Rejected { .. }));
    let answer = answer_text(model, &files.claim);
    let seconds = files.run.stats.seconds;
    let shown_proof = args.proof.as_ref().map(|_| files.pbp.display().to_string());
    let text = if json {
        let mut record = serde_json::json!({
            "index": index,
            "name": model.name(),
            "backend": name,
            "claim": files.claim.text(),
            "answer": answer,
            "certificate": match &certificate {
                Some(Checked::Certified { .. }) => "checked",
                Some(Checked::Rejected { .. }) => "rejected",
                None => "none",
            },
            "seconds": seconds,
        });
        if let Some(Checked::Rejected { reason }) = &certificate {
            record["reason"] = reason.clone().into();
        }
        if let Some(p) = &shown_proof {
            record["proof"] = p.clone().into();
        }
        format!("{record}\n")
    } else {
        let cert = match &certificate {
            Some(Checked::Certified { .. }) => "; certified".to_string(),
            Some(Checked::Rejected { reason }) => format!("; certificate rejected: {reason}"),
            None => String::new(),
        };
        let at = shown_proof
            .map(|p| format!(" (proof {p})"))
            .unwrap_or_default();
        format!("{index} {}: {answer} [{name}]{cert}{at}\n", model.name())
    };
    let tally = Tally {
        failed: rejected,
        answered: files.run.exhausted || files.run.count > 0,
        seconds,
        incomplete: false,
    };
    Ok((text, tally))
}

/// The answer as the claim states it, in the model's terms (a maximised objective's value is
/// the OPB minimum negated).
fn answer_text(model: &Model, claim: &Claim) -> String {
    match claim {
        Claim::Count { count, exhaustive } => {
            let s = if *count == 1 { "" } else { "s" };
            let exact = if *exhaustive { "" } else { "at least " };
            format!("{exact}{count} solution{s}")
        }
        Claim::Solution => "solved".into(),
        Claim::Infeasible => "infeasible".into(),
        Claim::Optimum { value } => {
            let maximize = model.objective().is_some_and(|o| o.is_maximize());
            let v = if maximize { -value } else { *value };
            format!("optimal {v}")
        }
        Claim::Nothing => "no answer (stopped early)".into(),
    }
}

/// `generate --certify`: proves with `bitset` that `model` has exactly one solution and checks
/// the proof with `veripb`; `Ok` is the line the board gets (`# certified unique: ...`),
/// `Err` why it is not certified (another count, a rejected proof, a failed check). The
/// proof lives in a temporary folder. Cost: one exhaustive count with proof logging and one
/// run of the checker.
pub fn certified_unique(model: &Model) -> Result<String, String> {
    let options = zeroone::backend::BackendOptions::default();
    let mut bitset =
        zeroone::backend::make_backend("bitset", &options).map_err(|e| e.to_string())?;
    let prover = bitset.prover().ok_or("bitset logs no proofs")?;
    let dir = temp_dir().map_err(|e| e.to_string())?;
    let files = prove_to_dir(prover, model, ProofTask::Count, dir.path(), model.name())
        .map_err(|e| format!("bitset: {e}"))?;
    let unique = Claim::Count {
        count: 1,
        exhaustive: true,
    };
    if files.claim != unique {
        return Err(format!(
            "board '{}' is not certified unique: bitset's proof claims {}",
            model.name(),
            files.claim.text()
        ));
    }
    match check(&files.opb, &files.pbp).map_err(|e| e.to_string())? {
        Checked::Certified { claim, .. } if claim.as_ref() == Some(&unique) => {
            Ok("# certified unique: bitset's VeriPB proof of the count 1 checked by veripb".into())
        }
        Checked::Certified { claim, .. } => Err(format!(
            "board '{}': the checker confirmed {claim:?}, not a unique solution",
            model.name()
        )),
        Checked::Rejected { reason } => Err(format!(
            "board '{}': uniqueness certificate rejected: {reason}",
            model.name()
        )),
    }
}

/// Arguments of `zeroone check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The model as OPB (as `zeroone export --to opb` or `--proof` writes it).
    pub model: PathBuf,
    /// The VeriPB proof. Either file may be gzipped (`.gz`, as an experiment keeps a proof
    /// over 1 MB): it is unpacked into a temporary folder first.
    pub proof: PathBuf,
}

/// Checks a model/proof pair with `veripb`: prints `certified: ...` (exit 0) or `certificate
/// rejected: REASON` (exit 1); a missing or unreadable file, a proof the checker cannot parse
/// or one for another model, or no checker installed: exit 2.
pub fn run(args: CheckArgs) -> Result<(), CliError> {
    let gz = |p: &Path| p.extension().is_some_and(|e| e == "gz");
    let temp = match gz(&args.model) || gz(&args.proof) {
        true => Some(temp_dir()?),
        false => None,
    };
    let unpack = |p: &Path| match &temp {
        Some(dir) => zeroone::harness::certify::unpacked(p, dir.path())
            .map_err(|e| CliError::BadInput(e.to_string())),
        None => Ok(p.to_path_buf()),
    };
    let (model, proof) = (unpack(&args.model)?, unpack(&args.proof)?);
    let checked = check(&model, &proof).map_err(|e| CliError::BadInput(e.to_string()))?;
    match checked {
        Checked::Certified { claim, detail } => {
            let what = claim.map_or_else(|| detail.clone(), |c| c.text());
            super::print_stdout(&format!("certified: {what} ({detail})\n"))
        }
        Checked::Rejected { reason } => {
            Err(CliError::Failed(format!("certificate rejected: {reason}")))
        }
    }
}

/// A private temporary folder (for `--certify` without `--proof`, and for unpacking gzipped
/// files), removed when dropped.
fn temp_dir() -> Result<tempfile::TempDir, CliError> {
    tempfile::Builder::new()
        .prefix("zeroone-proof-")
        .tempdir()
        .map_err(|e| CliError::Failed(format!("a temporary folder: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use zeroone::model::{Coord, ModelBuilder, PuzzleKind, Sense};

    #[test]
    fn a_board_with_two_solutions_is_not_certified_unique() {
        if zeroone::backend::proof::find_checker().is_none() {
            eprintln!("skipped: veripb is not installed");
            return;
        }
        // A 2x2 Latin square of one symbol: two solutions.
        let mut b = ModelBuilder::new("two", PuzzleKind::Generic);
        for i in 0..4 {
            b.variable(format!("x{i}"), Coord::Free);
        }
        let lines = b.family("line");
        for row in [[0, 1], [2, 3], [0, 2], [1, 3]] {
            b.row(lines, row.to_vec(), Sense::ExactlyOne);
        }
        let e = certified_unique(&b.build().unwrap()).unwrap_err();
        assert!(
            e.contains("is not certified unique") && e.contains("count 2"),
            "{e}"
        );
    }
}
