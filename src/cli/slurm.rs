//! `zeroone slurm experiments/NAME.toml --shards N [--submit]`: writes a Slurm job array (task
//! k runs shard k of N, resumable) and a merge job into `NAME.slurm/` beside the records, and
//! with `--submit` hands them to `sbatch`, the merge after the array succeeds. Submitting again
//! reruns only the shards whose records are incomplete.

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Args;

use zeroone::harness::peers::PeerSetup;
use zeroone::harness::slurm::{self, SlurmPlan, SlurmRequest};
use zeroone::harness::Experiment;

use super::run::cli_error;
use super::CliError;

/// Options of `zeroone slurm`.
#[derive(Debug, Args)]
pub struct SlurmArgs {
    /// The experiment file (TOML).
    pub experiment: PathBuf,
    /// Tasks in the job array, each one shard (`run --shard k/N`); default for a table
    /// experiment with `hex_parts = K`: K.
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub shards: Option<usize>,
    /// Slurm partition of both jobs.
    #[arg(long)]
    pub partition: Option<String>,
    /// Wall-clock time per task, HH:MM:SS or D-HH:MM:SS (default: from the experiment's time
    /// limit, times the runs of the largest shard, with a margin).
    #[arg(long, value_name = "HH:MM:SS")]
    pub time: Option<String>,
    /// Memory per task (`4G`, `512M`, MB when bare; default: the experiment's memory limit
    /// times the CPUs plus 1 GB, or a table's estimated peak).
    #[arg(long, value_name = "SIZE")]
    pub mem: Option<String>,
    /// CPUs per task: each task runs this many worker processes at once.
    #[arg(long, default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1024))]
    pub cpus: usize,
    /// Slurm account charged for both jobs.
    #[arg(long)]
    pub account: Option<String>,
    /// Folder for records and reports (default: the experiment's `reports_dir`); the scripts go
    /// to `NAME.slurm/` in it.
    #[arg(long)]
    pub reports: Option<PathBuf>,
    /// Tasks run the backends alone (`run --no-peers`); otherwise each task also runs its
    /// shard's peers, which are checked here first (their Python packages, under
    /// $ZEROONE_PYTHON) before any script is written.
    #[arg(long)]
    pub no_peers: bool,
    /// Submit with `sbatch`: the shards not yet complete as an array, then the merge with
    /// `--dependency=afterok:<array job>`; prints the job ids.
    #[arg(long)]
    pub submit: bool,
}

/// An absolute form of `path` (which exists), for scripts that run in another folder.
fn absolute(path: &Path) -> Result<PathBuf, CliError> {
    std::fs::canonicalize(path).map_err(|e| CliError::BadInput(format!("{}: {e}", path.display())))
}

/// The request from the command line; malformed values are bad input.
fn request(args: &SlurmArgs, experiment: &Experiment) -> Result<SlurmRequest, CliError> {
    let bad = |what: &str, e: String| CliError::BadInput(format!("--{what} {e}"));
    for (what, value) in [("partition", &args.partition), ("account", &args.account)] {
        if let Some(v) = value {
            slurm::check_name(what, v).map_err(CliError::BadInput)?;
        }
    }
    let shards = match (args.shards, slurm::default_shards(experiment)) {
        (Some(n), _) | (None, Some(n)) => n,
        (None, None) => {
            return Err(CliError::BadInput(format!(
                "{}: give --shards N (tasks in the array); only a table experiment with \
                 hex_parts = K has a default (K)",
                experiment.path.display()
            )))
        }
    };
    Ok(SlurmRequest {
        shards,
        partition: args.partition.clone(),
        account: args.account.clone(),
        time: args
            .time
            .as_deref()
            .map(slurm::parse_time)
            .transpose()
            .map_err(|e| bad("time", e))?,
        memory_mb: args
            .mem
            .as_deref()
            .map(slurm::parse_memory)
            .transpose()
            .map_err(|e| bad("mem", e))?,
        cpus: args.cpus,
        no_peers: args.no_peers,
    })
}

/// The executable `name` on the PATH, if any.
fn find_program(name: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

/// Runs `sbatch --parsable ARGS SCRIPT` and returns the job id it prints.
fn sbatch(program: &Path, args: &[String], script: &Path) -> Result<u64, CliError> {
    let out = Command::new(program)
        .arg("--parsable")
        .args(args)
        .arg(script)
        .output()
        .map_err(|e| CliError::Failed(format!("cannot run {}: {e}", program.display())))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(CliError::Failed(format!(
            "sbatch {} {} failed ({}): {}",
            args.join(" "),
            script.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    slurm::parse_job_id(&stdout).ok_or_else(|| {
        CliError::Failed(format!(
            "sbatch {}: expected a job id from --parsable, found '{}'",
            script.display(),
            stdout.trim()
        ))
    })
}

/// Refuses to submit while jobs of this experiment (its array or merge, by job name) are
/// still queued or running, as `squeue --me` lists them: they would run the same shards twice.
/// Without `squeue` on the PATH nothing is checked.
fn refuse_queued_jobs(plan: &SlurmPlan) -> Result<(), CliError> {
    let Some(squeue) = find_program("squeue") else {
        return Ok(());
    };
    let name = slurm::job_name(&plan.name);
    let out = Command::new(&squeue)
        .args(["--noheader", "--me", "--states=PD,R,CF,CG,S", "--format=%i"])
        .arg(format!("--name={name},{name}-merge"))
        .output()
        .map_err(|e| CliError::Failed(format!("cannot run {}: {e}", squeue.display())))?;
    if !out.status.success() {
        return Err(CliError::Failed(format!(
            "squeue failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    let ids: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(String::from)
        .collect();
    if ids.is_empty() {
        return Ok(());
    }
    Err(CliError::BadInput(format!(
        "jobs {} of experiment {} ({name}) are still queued or running: wait for them, or \
         cancel them with `scancel`, then submit again",
        ids.join(", "),
        plan.name
    )))
}

/// Submits the incomplete shards and the merge after them; returns what to print.
fn submit(plan: &SlurmPlan, program: &Path) -> Result<String, CliError> {
    refuse_queued_jobs(plan)?;
    let todo = slurm::incomplete_shards(plan).map_err(cli_error)?;
    let n = plan.shards;
    let mut text = String::new();
    let mut merge_args = Vec::new();
    if todo.is_empty() {
        text += &format!("all {n} shards are complete: no array job\n");
    } else {
        let list = slurm::array_list(&todo);
        let id = sbatch(program, &[format!("--array={list}")], &plan.array_path())?;
        text += &format!(
            "array job {id}: shard(s) {list} of {n} ({} complete)\n",
            n - todo.len()
        );
        merge_args.push(format!("--dependency=afterok:{id}"));
    }
    match sbatch(program, &merge_args, &plan.merge_path()) {
        Ok(id) => {
            let after = merge_args
                .first()
                .map_or(String::new(), |d| format!(" ({d})"));
            text += &format!("merge job {id}{after}\n");
            Ok(text)
        }
        Err(e) => {
            // The array is queued: say so, with how to queue the merge by hand.
            super::print_progress(&text)?;
            Err(CliError::Failed(format!(
                "{e}\nsubmit the merge by hand: sbatch {} {}",
                merge_args.join(" "),
                plan.merge_path().display()
            )))
        }
    }
}

/// Runs `zeroone slurm`.
pub fn run(args: SlurmArgs) -> Result<(), CliError> {
    let mut experiment = Experiment::load(&args.experiment).map_err(cli_error)?;
    experiment.path = absolute(&args.experiment)?;
    let request = request(&args, &experiment)?;
    let reports = args
        .reports
        .clone()
        .unwrap_or_else(|| experiment.reports_dir.clone());
    // Not created yet: the scripts' folder is made only once everything is checked.
    let reports = std::path::absolute(&reports)
        .map_err(|e| CliError::BadInput(format!("{}: {e}", reports.display())))?;
    let zeroone = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(|e| CliError::Failed(format!("cannot find the zeroone binary: {e}")))?;
    let plan = slurm::plan(&experiment, &reports, &zeroone, request).map_err(cli_error)?;
    if !args.no_peers {
        // A task that would stop at a missing peer package is refused here, not in its log.
        PeerSetup::of(&experiment)
            .check(&experiment)
            .map_err(cli_error)?;
    }
    let written = slurm::write_scripts(&plan).map_err(cli_error)?;
    eprintln!(
        "{}: {} tasks of at most {} run(s); per task {} and {} MB ({}; {})",
        experiment.name,
        plan.shards,
        plan.runs_per_shard(),
        slurm::format_time(plan.time),
        plan.memory_mb,
        plan.time_note,
        plan.memory_note
    );
    super::print_paths(&written)?;
    if !args.submit {
        return Ok(());
    }
    let Some(program) = find_program("sbatch") else {
        return Err(CliError::BadInput(format!(
            "--submit: sbatch is not on the PATH (is this a Slurm login node?); the scripts are \
             written: submit them where Slurm runs with `sbatch --parsable {}`, then `sbatch \
             --dependency=afterok:ID {}`",
            plan.array_path().display(),
            plan.merge_path().display()
        )));
    };
    super::print_stdout(&submit(&plan, &program)?)
}
