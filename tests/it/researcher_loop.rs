//! The researcher's loop end to end (issue 36, items 3, 4, 9): an experiment's peers run by
//! `zeroone run` into the same records (with a fake peer script; the real `peers.py` only for
//! its missing-package message, which needs no solver package), every value a paper tabulates
//! in the CSV, and the help and JSON of `solve`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use zeroone::harness::record::read_records;

fn zeroone(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_zeroone"));
    c.args(args).current_dir(dir);
    c.env_remove("ZEROONE_PYTHON")
        .env_remove("ZEROONE_PEERS_SCRIPT");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("the binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn write_executable(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// `python3` on the PATH, or `None` (the peer tests then say they were skipped).
fn python3() -> Option<PathBuf> {
    let ok = Command::new("python3")
        .arg("-c")
        .arg("pass")
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then(|| PathBuf::from("python3"))
}

/// A small OPB model with an objective and a negated literal (one complement).
const MODEL: &str = "min: +2 x1 +1 x2 +3 x3 ;\n+1 x1 +1 x2 >= 1 ;\n+1 ~x2 +1 x3 >= 1 ;\n";

fn experiment(dir: &Path, peers: &str) -> PathBuf {
    std::fs::write(dir.join("m.opb"), MODEL).unwrap();
    let path = dir.join("e.toml");
    let text = format!(
        "title = \"t\"\ndescription = \"d\"\nkind = \"solve\"\nrepetitions = 2\ntime_limit = 5\n\
         reports_dir = \"out\"\n{peers}\n[[instances]]\nfile = \"m.opb\"\n[[backends]]\nname = \"bitset\"\n"
    );
    std::fs::write(&path, text).unwrap();
    path
}

/// A stand-in for peers.py: `--check` passes; a run writes one `optimal` record per exported
/// model and repetition not yet in its file (as peers.py resumes) and logs each call.
const FAKE_PEER: &str = r#"import json, os, sys
args = sys.argv[1:]
solver = args[args.index("--solver") + 1]
if "--check" in args:
    sys.exit(0)
models, out = args[args.index("--models") + 1], args[args.index("--out") + 1]
with open(os.path.join(os.path.dirname(out), "calls.log"), "a") as log:
    log.write(solver + "\n")
done = set()
if os.path.exists(out):
    for line in open(out):
        r = json.loads(line)
        done.add((r["instance"], r["repetition"]))
with open(out, "a") as f:
    for name in sorted(os.listdir(models)):
        doc = json.load(open(os.path.join(models, name)))
        for rep in range(doc["repetitions"]):
            if (doc["instance"], rep) in done:
                continue
            r = {"instance": doc["instance"], "backend": solver, "repetition": rep, "name": "peer",
                 "task": "solve", "options": {"seed": 0, "params": {"solver": solver}},
                 "status": "optimal", "verified": True, "seconds": 0.001, "objective": 1,
                 "bound": 1, "sense": "minimize", "stats": {"seconds": 0.001, "extra": {}},
                 "group": doc["group"], "file": doc["file"], "position": doc["position"]}
            f.write(json.dumps(r) + "\n")
"#;

#[test]
fn peers_listed_in_the_experiment_run_inside_zeroone_run_into_the_same_records() {
    let Some(python) = python3() else {
        eprintln!("skipped: no python3 on the PATH to run the fake peer script");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let exp = experiment(dir.path(), "peers = [\"fake\"]");
    let script = dir.path().join("fake_peers.py");
    std::fs::write(&script, FAKE_PEER).unwrap();
    let env = [
        ("ZEROONE_PYTHON", python.to_str().unwrap()),
        ("ZEROONE_PEERS_SCRIPT", script.to_str().unwrap()),
    ];
    let exp_arg = exp.to_str().unwrap();
    let o = zeroone(dir.path(), &["run", exp_arg, "-q", "--jobs", "1"], &env);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let records_file = dir.path().join("out/e.jsonl");
    let (records, _) = read_records(&records_file, false).unwrap();
    let by = |b: &str| records.iter().filter(|r| r.backend == b).count();
    // Same instances and repetitions for the backend and the peer, in one record file.
    assert_eq!((by("bitset"), by("fake")), (2, 2), "{records:?}");
    // The models the peer read carry the file's size beside the normalised model.
    let exported = std::fs::read_to_string(dir.path().join("out/e.peers/models/m#0.json")).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&exported).unwrap();
    assert_eq!(
        (
            doc["original_variables"].as_u64(),
            doc["original_rows"].as_u64()
        ),
        (Some(3), Some(2))
    );
    let report = std::fs::read_to_string(dir.path().join("out/e.md")).unwrap();
    assert!(
        report.contains("`fake`"),
        "the report shows the peer:\n{report}"
    );
    // --resume: nothing runs again and nothing is joined twice.
    let o = zeroone(
        dir.path(),
        &["run", exp_arg, "-q", "--jobs", "1", "--resume"],
        &env,
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let (again, _) = read_records(&records_file, false).unwrap();
    assert_eq!(again.len(), 4, "{again:?}");
    // --no-peers runs the backends alone: the script is not called.
    let log = dir.path().join("out/e.peers/calls.log");
    let calls = std::fs::read_to_string(&log).unwrap().lines().count();
    let o = zeroone(
        dir.path(),
        &["run", exp_arg, "-q", "--fresh", "--no-peers"],
        &env,
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(&log).unwrap().lines().count(),
        calls
    );
    let (alone, _) = read_records(&records_file, false).unwrap();
    assert!(alone.iter().all(|r| r.backend == "bitset"), "{alone:?}");
}

#[test]
fn a_missing_peer_package_is_named_with_its_install_command_before_anything_runs() {
    let Some(_) = python3() else {
        eprintln!("skipped: no python3 on the PATH to run experiments/peers/peers.py");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let exp = experiment(dir.path(), "peers = [\"cp-sat\"]");
    // An interpreter without site-packages: OR-Tools cannot be imported, installed or not.
    let bare = dir.path().join("bare-python");
    write_executable(&bare, "#!/bin/sh\nexec python3 -I -S \"$@\"\n");
    let o = zeroone(
        dir.path(),
        &["run", exp.to_str().unwrap(), "-q"],
        &[("ZEROONE_PYTHON", bare.to_str().unwrap())],
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for part in [
        "peer 'cp-sat'",
        "'ortools'",
        "pip install -r",
        "experiments/peers/requirements.txt",
        "--no-peers",
    ] {
        assert!(err.contains(part), "{part} in {err}");
    }
    assert!(!dir.path().join("out/e.jsonl").exists(), "nothing ran");
    // An interpreter that does not start is named too.
    let o = zeroone(
        dir.path(),
        &["run", exp.to_str().unwrap(), "-q"],
        &[("ZEROONE_PYTHON", "/no/such/python")],
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("/no/such/python") && err.contains("ZEROONE_PYTHON"),
        "{err}"
    );
}

#[test]
fn the_csv_holds_objective_bound_sense_file_and_both_model_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let exp = experiment(dir.path(), "");
    let o = zeroone(dir.path(), &["run", exp.to_str().unwrap(), "-q"], &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let csv = std::fs::read_to_string(dir.path().join("out/e.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let cell = |c: &str| row[header.iter().position(|h| *h == c).unwrap()];
    assert_eq!(cell("status"), "optimal");
    // x1 + x2 >= 1 and ~x2 + x3 >= 1 (x2 needs x3): x1 alone costs 2, x2 and x3 cost 4.
    assert_eq!(cell("objective"), "2");
    assert_eq!(cell("bound"), "2");
    assert_eq!(cell("gap"), "0", "proved optimal: no gap");
    assert_eq!(cell("sense"), "minimize");
    assert_eq!(cell("file"), "m.opb");
    // The file's 3 variables and 2 rows; normalised: the complement ~x2 and its row.
    assert_eq!(
        (cell("original_variables"), cell("original_rows")),
        ("3", "2")
    );
    assert_eq!((cell("variables"), cell("rows")), ("4", "3"));
}

/// The CSV's `gap` cell of one record with `objective` and `bound` (either may be absent).
fn gap_cell(objective: Option<i128>, bound: Option<i128>) -> String {
    use zeroone::harness::experiment::Task;
    use zeroone::harness::record::Record;
    // A peer's record as peers.py writes it: objective and bound, no gap of its own.
    let mut r = Record::new("m#0", "fake", "peer", Task::Solve, 0);
    (r.objective, r.bound) = (objective, bound);
    let csv = zeroone::harness::report::render_csv(&[r]);
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header.len(), row.len(), "{csv}");
    row[header.iter().position(|h| *h == "gap").unwrap()].to_string()
}

#[test]
fn the_csv_gap_is_the_relative_gap_of_objective_and_bound_and_empty_without_both() {
    // (objective, bound, |objective - bound|, max(1, |objective|)), the fractions by hand.
    let cases: [(i128, i128, u64, u64); 6] = [
        (7, 5, 2, 7),
        (5, 7, 2, 5),
        (-4, -6, 2, 4),
        (0, -3, 3, 1),
        (12, 12, 0, 12),
        (-(1 << 60), 0, 1, 1),
    ];
    for (objective, bound, num, den) in cases {
        let cell = gap_cell(Some(objective), Some(bound));
        let gap: f64 = cell.parse().unwrap_or_else(|e| panic!("{cell:?}: {e}"));
        assert_eq!(gap, num as f64 / den as f64, "{objective} against {bound}");
    }
    assert_eq!(gap_cell(Some(3), None), "", "no bound, no gap");
    assert_eq!(gap_cell(None, Some(3)), "", "no objective, no gap");
    assert_eq!(gap_cell(None, None), "");
}

#[test]
fn solve_help_names_every_format_zeroone_reads() {
    let dir = tempfile::tempdir().unwrap();
    let o = zeroone(dir.path(), &["solve", "--help"], &[]);
    let help = text(&o.stdout);
    for format in zeroone::read::FORMATS {
        for e in format.extensions() {
            assert!(help.contains(&format!(".{e}")), ".{e} in\n{help}");
        }
        assert!(help.contains(&format.name().to_uppercase()), "{help}");
    }
    for kind in zeroone::puzzle::kinds::KINDS {
        for e in kind.extensions() {
            assert!(help.contains(&format!(".{e}")), ".{e} in\n{help}");
        }
    }
}

#[test]
fn solve_json_with_a_backend_that_cannot_solve_prints_a_json_status_per_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("m.opb"), "+1 x1 +1 x2 >= 1 ;\n").unwrap();
    let o = zeroone(
        dir.path(),
        &["solve", "m.opb", "--backend", "dp", "--json"],
        &[],
    );
    let out = text(&o.stdout);
    let line: serde_json::Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| {
        panic!("{e}: stdout {out:?}, stderr {}", text(&o.stderr));
    });
    assert_eq!(line["status"], "unsupported");
    assert_eq!(line["backend"], "dp");
    assert!(
        line["reason"].as_str().unwrap().contains("cannot solve"),
        "{line}"
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "an unsupported puzzle fails, as xcc's do"
    );
}

#[test]
fn the_peers_virtual_environment_is_ignored_by_git() {
    let ignore =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".gitignore")).unwrap();
    assert!(
        ignore.lines().any(|l| l.trim() == ".venv-peers/"),
        "{ignore}"
    );
}

#[test]
fn slurm_checks_the_peers_before_writing_its_scripts_and_passes_no_peers_on() {
    let Some(_) = python3() else {
        eprintln!("skipped: no python3 on the PATH to run experiments/peers/peers.py");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let exp = experiment(dir.path(), "peers = [\"cp-sat\"]");
    let bare = dir.path().join("bare-python");
    write_executable(&bare, "#!/bin/sh\nexec python3 -I -S \"$@\"\n");
    let env = [("ZEROONE_PYTHON", bare.to_str().unwrap())];
    let exp_arg = exp.to_str().unwrap();
    // Each task would stop at the missing package: refused before any script is written.
    let o = zeroone(
        dir.path(),
        &["slurm", exp_arg, "--shards", "1", "--mem", "1G"],
        &env,
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("'ortools'") && err.contains("--no-peers"),
        "{err}"
    );
    assert!(!dir.path().join("out/e.slurm").exists());
    // --no-peers: the tasks run the backends alone.
    let o = zeroone(
        dir.path(),
        &[
            "slurm",
            exp_arg,
            "--shards",
            "1",
            "--mem",
            "1G",
            "--no-peers",
        ],
        &env,
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let array = std::fs::read_to_string(dir.path().join("out/e.slurm/array.sbatch")).unwrap();
    assert!(array.contains(" --no-peers\n"), "{array}");
}
