//! Peers inside `zeroone run`: the solvers an experiment lists under `peers` (CP-SAT, CBC,
//! HiGHS, SCIP, Exact, CaDiCaL, miniexact) run through `experiments/peers/peers.py` on the
//! experiment's own instances, under its time limit and repetitions, and their records join
//! the experiment's record file (the shard's, under `--shard`), so the reports, `--resume`,
//! `zeroone merge` and `zeroone slurm` (each array task runs its shard's peers) treat them as
//! they treat backends.
//!
//! Nothing is installed here: before anything runs, each peer is checked
//! (`peers.py --check`), and a missing Python package is an error naming it and the command
//! that installs the peers' packages. The interpreter is `$ZEROONE_PYTHON` (default
//! `python3`); the script is `$ZEROONE_PEERS_SCRIPT`, else `peers/peers.py` beside the
//! experiment file, else the one of the checkout this binary was built from.
//!
//! Working files go to `NAME.peers/` in the reports folder: the exported models
//! (`models[.shard-k-of-N]/`, written again at each run) and each peer's own record file
//! (`LABEL[.shard-k-of-N].jsonl`, which `peers.py` continues after an interruption). Cost per
//! run: one model export, one Python process per peer, and a pass over the record files.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::harness::experiment::Experiment;
use crate::harness::plan::Shard;
use crate::harness::record::{read_records, Record, RecordFile, RunKey};
use crate::harness::runner::export_models;
use crate::harness::store::records_path;
use crate::harness::HarnessError;

/// The environment variable naming the Python interpreter the peers run under.
pub const PYTHON_VAR: &str = "ZEROONE_PYTHON";
/// The environment variable naming the peers script (default: see the module docs).
pub const SCRIPT_VAR: &str = "ZEROONE_PEERS_SCRIPT";
/// How the command line runs an experiment without its peers.
const SKIP_HINT: &str = "or pass --no-peers to run the backends alone";

/// Where the peers run: the interpreter and the script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeerSetup {
    /// The Python interpreter (`$ZEROONE_PYTHON`, default `python3`).
    pub python: PathBuf,
    /// `peers.py`.
    pub script: PathBuf,
    /// How the messages say to run the backends alone: `or pass --no-peers ...` on the command
    /// line (the default); the Python package names its own argument.
    pub skip_hint: &'static str,
}

impl PeerSetup {
    /// The setup for `experiment` from the environment (see the module docs). Free.
    pub fn of(experiment: &Experiment) -> PeerSetup {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        let python = var(PYTHON_VAR).map_or_else(|| PathBuf::from("python3"), PathBuf::from);
        let script = var(SCRIPT_VAR).map(PathBuf::from).unwrap_or_else(|| {
            let folder = experiment.path.parent().unwrap_or(Path::new("."));
            let beside = folder.join("peers").join("peers.py");
            if beside.is_file() {
                beside
            } else {
                Path::new(env!("CARGO_MANIFEST_DIR")).join("../../experiments/peers/peers.py")
            }
        });
        PeerSetup {
            python,
            script,
            skip_hint: SKIP_HINT,
        }
    }

    fn command(&self) -> Command {
        let mut c = Command::new(&self.python);
        c.arg(&self.script).stdin(Stdio::null());
        c
    }

    /// Checks that every peer of `experiment` can run here, before anything runs: the script
    /// exists, the interpreter starts, and each peer's package imports. Errors are bad input
    /// naming what is missing and how to get it. Cost: one short Python process per peer.
    pub fn check(&self, experiment: &Experiment) -> Result<(), HarnessError> {
        let Some(first) = experiment.peers.first() else {
            return Ok(());
        };
        if !self.script.is_file() {
            return Err(peer_error(
                first,
                format!(
                    "the peers script {} does not exist; set {SCRIPT_VAR} to experiments/peers/peers.py of a zeroone checkout, {}",
                    self.script.display(),
                    self.skip_hint
                ),
                true,
            ));
        }
        for label in &experiment.peers {
            let out = (self.command().args(["--check", "--solver", label]).output())
                .map_err(|e| {
                    peer_error(
                        label,
                        format!(
                            "cannot start the Python interpreter '{}' ({e}); set {PYTHON_VAR} to one with the peers' packages (pip install -r experiments/peers/requirements.txt), {}",
                            self.python.display(),
                            self.skip_hint
                        ),
                        true,
                    )
                })?;
            if !out.status.success() {
                let said = String::from_utf8_lossy(&out.stderr);
                let said = said.trim().trim_start_matches("peers.py: ");
                return Err(peer_error(
                    label,
                    format!("{said}; {}", self.skip_hint),
                    true,
                ));
            }
        }
        Ok(())
    }

    /// Runs every peer of `experiment` on its instances (of `shard`, if given) and appends
    /// their records not yet on record to the run's record file in `dir`; a peer's own record
    /// file is continued when `resume`, started afresh otherwise. `zeroone` is the binary
    /// `peers.py` exports XCC files with (miniexact). Returns the records appended. A peer that
    /// fails stops here with an error (its finished runs stay in its own file).
    pub fn run(
        &self,
        experiment: &Experiment,
        dir: &Path,
        shard: Option<Shard>,
        resume: bool,
        zeroone: &Path,
    ) -> Result<usize, HarnessError> {
        let folder = peers_folder(dir, experiment);
        let suffix = shard.map_or(String::new(), |s| {
            format!(".shard-{}-of-{}", s.index, s.count)
        });
        let models = folder.join(format!("models{suffix}"));
        // The models of this run's instances only (an older export may hold others).
        if models.exists() {
            std::fs::remove_dir_all(&models).map_err(|e| HarnessError::io(&models, e))?;
        }
        std::fs::create_dir_all(&models).map_err(|e| HarnessError::io(&models, e))?;
        export_models(experiment, &models, shard)?;
        let main = records_path(dir, experiment, shard);
        let mut appended = 0;
        for label in &experiment.peers {
            let own = folder.join(format!("{label}{suffix}.jsonl"));
            if !resume && own.exists() {
                std::fs::remove_file(&own).map_err(|e| HarnessError::io(&own, e))?;
            }
            let status = (self.command())
                .args(["--solver", label, "--models"])
                .arg(&models)
                .arg("--out")
                .arg(&own)
                .arg("--zeroone")
                .arg(zeroone)
                .status()
                .map_err(|e| peer_error(label, format!("cannot start: {e}"), false))?;
            if !status.success() {
                return Err(peer_error(
                    label,
                    format!(
                        "peers.py ended with {status}; its finished runs are in {} (run again with --resume to continue)",
                        own.display()
                    ),
                    false,
                ));
            }
            appended += join(&main, &own)?;
        }
        Ok(appended)
    }
}

/// The folder of the peers' working files: `NAME.peers/` in `dir`.
pub fn peers_folder(dir: &Path, experiment: &Experiment) -> PathBuf {
    dir.join(format!("{}.peers", experiment.name))
}

/// Appends the records of `peer_file` whose run is not yet in `main` (holding its lock).
fn join(main: &Path, peer_file: &Path) -> Result<usize, HarnessError> {
    if !peer_file.exists() {
        return Ok(0);
    }
    let (peer, _) = read_records(peer_file, true)?;
    let (mut file, done) = RecordFile::open(main)?;
    let mut have: HashSet<RunKey> = done.iter().map(Record::key).collect();
    let mut appended = 0;
    for r in peer {
        if have.insert(r.key()) {
            file.append(&r)?;
            appended += 1;
        }
    }
    file.sync()?;
    Ok(appended)
}

fn peer_error(label: &str, message: String, bad_input: bool) -> HarnessError {
    HarnessError::Peer {
        label: label.to_string(),
        message,
        bad_input,
    }
}
