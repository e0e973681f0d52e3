//! `zeroone slurm` end to end: refused options, the scripts, and submission through a stand-in
//! `sbatch` on the PATH that logs its arguments, runs each array task's script at once (with
//! `SLURM_ARRAY_TASK_ID`), honours `afterok` and prints `--parsable` job ids. The real Slurm
//! run is `.ci/slurm`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use zeroone::harness::record::read_records;

/// A stand-in for `sbatch --parsable`: logs its arguments to `$FAKE_SBATCH_LOG`, runs the
/// script (each task of `--array`), records the job's end in `$FAKE_SBATCH_LOG.jobs`, and
/// runs a job with `--dependency=afterok:ID` only when job ID succeeded. `FAKE_SBATCH=garbage`
/// makes it print no job id.
const FAKE_SBATCH: &str = r#"#!/bin/bash
set -u
log="$FAKE_SBATCH_LOG"
echo "$*" >> "$log"
if [ "${FAKE_SBATCH:-}" = garbage ]; then echo "Submitted batch job"; exit 0; fi
array="" dep="" script=""
for a in "$@"; do
  case "$a" in
    --array=*) array="${a#--array=}" ;;
    --dependency=*) dep="${a#--dependency=afterok:}" ;;
    --*) ;;
    *) script="$a" ;;
  esac
done
id=$(( $(wc -l < "$log") + 500 ))
status=ok
if [ -n "$dep" ] && ! grep -qx "ok $dep" "$log.jobs"; then
  status=cancelled
elif [ -n "$array" ]; then
  for part in ${array//,/ }; do
    for ((i = ${part%-*}; i <= ${part#*-}; i++)); do
      SLURM_ARRAY_TASK_ID=$i bash "$script" >> "$log.out" 2>&1 || status=failed
    done
  done
else
  bash "$script" >> "$log.out" 2>&1 || status=failed
fi
echo "$status $id" >> "$log.jobs"
echo "$id;fake"
"#;

/// A stand-in for `squeue`: prints `$FAKE_SQUEUE` (job ids) and logs its arguments.
const FAKE_SQUEUE: &str = r#"#!/bin/bash
echo "$*" >> "$FAKE_SBATCH_LOG.squeue"
printf '%s' "${FAKE_SQUEUE:-}"
"#;

struct Cluster {
    dir: tempfile::TempDir,
}

impl Cluster {
    /// A folder with the fake `sbatch` in `bin/`.
    fn new() -> Cluster {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).unwrap();
        let sbatch = bin.join("sbatch");
        std::fs::write(&sbatch, FAKE_SBATCH).unwrap();
        std::fs::set_permissions(&sbatch, std::fs::Permissions::from_mode(0o755)).unwrap();
        let squeue = bin.join("squeue");
        std::fs::write(&squeue, FAKE_SQUEUE).unwrap();
        std::fs::set_permissions(&squeue, std::fs::Permissions::from_mode(0o755)).unwrap();
        Cluster { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    /// Runs `zeroone ARGS` with the fake `sbatch` first on the PATH.
    fn zeroone(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        let path = format!(
            "{}:{}",
            self.path("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_zeroone"));
        cmd.args(args)
            .env("PATH", path)
            .env("FAKE_SBATCH_LOG", self.path("sbatch.log"));
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    }

    /// The argument lines `sbatch` was called with, in order.
    fn calls(&self) -> Vec<String> {
        std::fs::read_to_string(self.path("sbatch.log"))
            .unwrap_or_default()
            .lines()
            .map(String::from)
            .collect()
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Status and count of each run of a record file, by (instance, backend, repetition).
fn outcomes(path: &Path) -> BTreeMap<(String, String, u32), (String, Option<String>)> {
    let (records, _) = read_records(path, false).unwrap();
    records
        .into_iter()
        .map(|r| (r.key(), (format!("{:?}", r.status), r.count)))
        .collect()
}

const EXPERIMENT: &str = "time_limit = 10\n\
    [[instances]]\ngenerate = \"queens-bare\"\nsizes = [1, 2, 3, 4, 5, 6]\n\
    [[instances]]\ngenerate = \"hex\"\nsizes = [1, 3]\n\
    [[backends]]\nname = \"brute\"\n[[backends]]\nname = \"bitset\"\n";

#[test]
fn bad_options_exit_2_and_write_nothing() {
    let c = Cluster::new();
    let exp = c.write("exp.toml", EXPERIMENT);
    let exp = exp.to_str().unwrap();
    let reports = c.path("reports");
    let r = reports.to_str().unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["--shards", "0"], "--shards"),
        (&["--shards", "9"], "has 8 instances"),
        (&[], "give --shards"),
        (&["--shards", "2", "--time", "1:75:00"], "--time"),
        (&["--shards", "2", "--mem", "4X"], "--mem"),
        (&["--shards", "2", "--partition", "a b"], "--partition"),
        (&["--shards", "2", "--account", "x;y"], "--account"),
        (&["--shards", "2", "--cpus", "0"], "--cpus"),
        (&["--shards", "2"], "memory_limit"),
    ];
    for (extra, expected) in cases {
        let mut args = vec!["slurm", exp, "--reports", r];
        args.extend_from_slice(extra);
        let o = c.zeroone(&args, &[]);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains(expected),
            "{extra:?}: {}",
            text(&o.stderr)
        );
        assert!(!reports.exists(), "{extra:?} wrote something");
    }
    let no_time = c.write("no-time.toml", &EXPERIMENT.replace("time_limit = 10\n", ""));
    let o = c.zeroone(
        &[
            "slurm",
            no_time.to_str().unwrap(),
            "--shards",
            "2",
            "--mem",
            "1G",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("no time_limit"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn without_sbatch_submit_exits_2_once_the_scripts_are_written() {
    let c = Cluster::new();
    let exp = c.write("exp.toml", EXPERIMENT);
    let reports = c.path("reports");
    let args = [
        "slurm",
        exp.to_str().unwrap(),
        "--shards",
        "2",
        "--mem",
        "1G",
        "--reports",
        reports.to_str().unwrap(),
        "--submit",
    ];
    let o = Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .env("PATH", c.path("empty"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("sbatch is not on the PATH"));
    let array = std::fs::read_to_string(reports.join("exp.slurm/array.sbatch")).unwrap();
    assert!(array.contains("#SBATCH --array=1-2\n#"), "{array}");
    assert!(array.contains("#SBATCH --mem=1024M\n"), "{array}");
    assert!(reports.join("exp.slurm/merge.sbatch").is_file());
    assert!(
        text(&o.stdout).contains("array.sbatch"),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn submission_runs_the_array_then_the_merge_and_again_only_incomplete_shards() {
    let c = Cluster::new();
    let exp = c.write("exp.toml", EXPERIMENT);
    let reports = c.path("reports");
    let args = [
        "slurm",
        exp.to_str().unwrap(),
        "--shards",
        "3",
        "--mem",
        "1G",
        "--partition",
        "debug",
        "--reports",
        reports.to_str().unwrap(),
        "--submit",
    ];
    let o = c.zeroone(&args, &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.contains("array job 501: shard(s) 1-3 of 3 (0 complete)"),
        "{out}"
    );
    assert!(
        out.contains("merge job 502 (--dependency=afterok:501)"),
        "{out}"
    );
    let calls = c.calls();
    assert!(calls[0].starts_with("--parsable --array=1-3 "), "{calls:?}");
    assert!(calls[0].ends_with("exp.slurm/array.sbatch"), "{calls:?}");
    assert!(calls[1].starts_with("--parsable --dependency=afterok:501 "));
    assert!(calls[1].ends_with("exp.slurm/merge.sbatch"), "{calls:?}");
    // The merge ran after the three tasks: its records equal an unsharded run's.
    let merged = reports.join("exp.jsonl");
    let sharded = outcomes(&merged);
    assert_eq!(sharded.len(), 16, "8 instances x 2 backends");
    let plain = c.path("plain");
    let run = c.zeroone(
        &[
            "run",
            exp.to_str().unwrap(),
            "--reports",
            plain.to_str().unwrap(),
        ],
        &[],
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert_eq!(sharded, outcomes(&plain.join("exp.jsonl")));
    assert!(reports.join("exp.md").is_file());

    // A lost shard (a failed task) is the only one submitted again.
    std::fs::remove_file(reports.join("exp.shard-2-of-3.jsonl")).unwrap();
    let o = c.zeroone(&args, &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("shard(s) 2 of 3 (2 complete)"), "{out}");
    assert!(
        c.calls()[2].starts_with("--parsable --array=2 "),
        "{:?}",
        c.calls()
    );
    assert_eq!(outcomes(&merged), sharded);

    // Nothing incomplete: only the merge, with no dependency.
    let o = c.zeroone(&args, &[]);
    let out = text(&o.stdout);
    assert!(
        out.contains("all 3 shards are complete: no array job"),
        "{out}"
    );
    assert!(out.contains("merge job 505\n"), "{out}");
    assert_eq!(c.calls().len(), 5);
    assert!(c.calls()[4].starts_with("--parsable /"), "{:?}", c.calls());

    // Jobs of the experiment still queued (squeue lists them by name): nothing is submitted.
    let o = c.zeroone(&args, &[("FAKE_SQUEUE", "506_2\n507\n")]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr)
            .contains("jobs 506_2, 507 of experiment exp (zeroone-exp) are still queued"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(c.calls().len(), 5, "no sbatch call");
    let asked = std::fs::read_to_string(c.path("sbatch.log.squeue")).unwrap();
    assert!(
        asked.contains(
            "--me --states=PD,R,CF,CG,S --format=%i --name=zeroone-exp,zeroone-exp-merge"
        ),
        "{asked}"
    );

    // An sbatch that prints no job id is a failure (1), named.
    let o = c.zeroone(&args, &[("FAKE_SBATCH", "garbage")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("expected a job id"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn a_split_hex_table_runs_one_task_per_part_and_its_merge_writes_the_table() {
    let c = Cluster::new();
    let exp = c.write(
        "split.toml",
        "kind = \"table\"\n[table]\nhex_widths = [11]\nhex_parts = 3\n",
    );
    let reports = c.path("reports");
    let o = c.zeroone(
        &[
            "slurm",
            exp.to_str().unwrap(),
            "--time",
            "00:10:00",
            "--reports",
            reports.to_str().unwrap(),
            "--submit",
        ],
        &[],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("shard(s) 1-3 of 3"),
        "{}",
        text(&o.stdout)
    );
    let whole = c.write(
        "whole.toml",
        "kind = \"table\"\n[table]\nhex_widths = [11]\n",
    );
    let plain = c.path("plain");
    let run = c.zeroone(
        &[
            "run",
            whole.to_str().unwrap(),
            "--reports",
            plain.to_str().unwrap(),
        ],
        &[],
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    let split = std::fs::read_to_string(reports.join("split.hex.csv")).unwrap();
    let unsplit = std::fs::read_to_string(plain.join("whole.hex.csv")).unwrap();
    assert_eq!(split, unsplit);
    // A002047 a(5) = 2544 three-axis placements at width 11.
    assert!(split.contains(",2544,"), "{split}");
}
