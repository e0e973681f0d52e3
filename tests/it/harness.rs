//! The experiment harness end to end: interrupted and resumed runs, shards and merge, malformed
//! experiment files, and the deterministic part of a report (snapshot, timings redacted).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use zeroone::harness::record::{read_records, Record, RunKey};
use zeroone::harness::report::{in_job_order, render_markdown, Provenance};
use zeroone::harness::runner::{job_keys, merge_records};
use zeroone::harness::source::load_instances;
use zeroone::harness::{run_experiment, Experiment, RunOptions, Shard};

fn manifest() -> &'static str {
    env!("CARGO_MANIFEST_DIR")
}

/// A small experiment on the shipped 4x4 Sudoku file and bare boards, two brute configurations,
/// two repetitions: 17 instances x 2 x 2 = 68 runs.
fn solve_experiment(dir: &Path) -> PathBuf {
    let text = format!(
        r#"description = "harness test"
repetitions = 2
time_limit = 5
baseline = "brute"

[[instances]]
file = "{}/models/sudoku4.txt"

[[instances]]
generate = "queens-bare"
sizes = [1, 2, 3, 4, 5]

[[instances]]
generate = "hex"
sizes = [1, 3, 5]

[[backends]]
name = "brute"

[[backends]]
name = "brute"
label = "brute-b"
seed = 7
"#,
        manifest()
    );
    let path = dir.join("exp.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn options(dir: &Path) -> RunOptions {
    let mut o = RunOptions::new(dir.join("reports"));
    o.jobs = Some(2);
    // The workers are the zeroone binary, not this test binary.
    o.worker_exe = Some(PathBuf::from(env!("CARGO_BIN_EXE_zeroone")));
    o
}

/// The deterministic content of a record file: (instance, backend, repetition) -> (status,
/// verified, count), failing on duplicate keys.
/// (status, verified, count) of one run.
type Answer = (String, bool, Option<String>);

fn rows(path: &Path) -> BTreeMap<RunKey, Answer> {
    let (records, _) = read_records(path, false).unwrap();
    let mut out = BTreeMap::new();
    for r in records {
        let value = (r.status.name().to_string(), r.verified, r.count.clone());
        assert!(
            out.insert(r.key(), value).is_none(),
            "duplicate record {:?}",
            r.key()
        );
    }
    out
}

#[test]
fn a_run_cut_short_and_resumed_has_the_same_rows_as_an_uninterrupted_one() {
    let whole_dir = tempfile::tempdir().unwrap();
    let exp = Experiment::load(&solve_experiment(whole_dir.path())).unwrap();
    let whole = run_experiment(&exp, &options(whole_dir.path())).unwrap();
    assert_eq!(whole.jobs, 68);
    assert_eq!(whole.ran, 68);
    assert!(!whole.stopped);
    let expected = rows(&whole.records);
    assert_eq!(expected.len(), 68);
    // The reference rows are real answers: solved, infeasible, no errors.
    let statuses: BTreeSet<&str> = expected.values().map(|v| v.0.as_str()).collect();
    assert_eq!(statuses, BTreeSet::from(["infeasible", "solved"]));

    let cut_dir = tempfile::tempdir().unwrap();
    let exp = Experiment::load(&solve_experiment(cut_dir.path())).unwrap();
    let mut cut = options(cut_dir.path());
    cut.stop_after = Some(25);
    let first = run_experiment(&exp, &cut).unwrap();
    assert!(first.stopped);
    assert_eq!(first.ran, 25);
    // A cut run reports what is on record, marked incomplete.
    let md = std::fs::read_to_string(cut_dir.path().join("reports/exp.md")).unwrap();
    assert!(md.contains("runs on record: 25 of 68"), "{md}");
    assert!(md.contains("**Incomplete:** 43 runs are missing"), "{md}");
    // Simulate a kill in the middle of writing a line: tear the last record in half.
    let text = std::fs::read_to_string(&first.records).unwrap();
    let keep = text.len() - text.lines().last().unwrap().len() / 2 - 1;
    std::fs::write(&first.records, &text[..keep]).unwrap();
    assert_eq!(rows_tolerant(&first.records), 24);

    // Without --resume the existing file is refused, untouched.
    let refused = run_experiment(&exp, &options(cut_dir.path())).unwrap_err();
    assert!(refused.to_string().contains("--resume"), "{refused}");
    assert_eq!(
        std::fs::read_to_string(&first.records).unwrap(),
        text[..keep]
    );

    let mut resume = options(cut_dir.path());
    resume.resume = true;
    let second = run_experiment(&exp, &resume).unwrap();
    assert_eq!(second.already_done, 24);
    assert_eq!(second.ran, 68 - 24);
    assert_eq!(rows(&second.records), expected);
    // Markdown, CSV, a cactus plot per source, the scatter against the baseline and the
    // time against size (sizes vary).
    let names: Vec<String> = second
        .reports
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    for f in ["exp.md", "exp.csv", "exp.scatter.svg", "exp.size-time.svg"] {
        assert!(names.contains(&f.to_string()), "{f} not in {names:?}");
    }
    assert!(
        names.iter().any(|n| n.starts_with("exp.cactus-")),
        "{names:?}"
    );

    // Resuming a complete run runs nothing and changes no row.
    let third = run_experiment(&exp, &resume).unwrap();
    assert_eq!((third.already_done, third.ran), (68, 0));
    assert_eq!(rows(&third.records), expected);
}

fn rows_tolerant(path: &Path) -> usize {
    read_records(path, true).unwrap().0.len()
}

#[test]
fn shards_merged_give_the_rows_of_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let exp = Experiment::load(&solve_experiment(dir.path())).unwrap();
    let whole = run_experiment(&exp, &options(dir.path())).unwrap();
    let expected = rows(&whole.records);

    let shard_dir = tempfile::tempdir().unwrap();
    let exp = Experiment::load(&solve_experiment(shard_dir.path())).unwrap();
    let mut seen = 0;
    for k in 1..=3 {
        let mut o = options(shard_dir.path());
        o.shard = Some(Shard { index: k, count: 3 });
        let s = run_experiment(&exp, &o).unwrap();
        assert!(s.records.ends_with(format!("exp.shard-{k}-of-3.jsonl")));
        assert!(s.reports.is_empty());
        seen += s.ran;
    }
    assert_eq!(seen, 68, "the shards cover every job exactly once");
    let reports = shard_dir.path().join("reports");
    let merged = merge_records(&exp, &reports, &[], "test").unwrap();
    assert_eq!((merged.records, merged.jobs), (68, 68));
    assert_eq!(rows(&merged.merged), expected);
    // The merged file is in job order, the same order whatever the shards' timing.
    let (records, _) = read_records(&merged.merged, false).unwrap();
    let ids: Vec<String> = load_instances(&exp.sources)
        .unwrap()
        .into_iter()
        .map(|i| i.id)
        .collect();
    let keys: Vec<_> = records.iter().map(Record::key).collect();
    assert_eq!(keys, job_keys(&exp, &ids));
    // Merging again (the merged file plus the shards again) changes nothing.
    let again = merge_records(&exp, &reports, &[], "test").unwrap();
    assert_eq!(rows(&again.merged), expected);

    // A shard that contradicts another is refused, and the merged file is left as it was.
    let shard1 = reports.join("exp.shard-1-of-3.jsonl");
    let before = std::fs::read_to_string(&merged.merged).unwrap();
    let text = std::fs::read_to_string(&shard1).unwrap();
    let flipped = text.replacen("\"status\":\"solved\"", "\"status\":\"unknown\"", 1);
    assert_ne!(flipped, text);
    std::fs::write(&shard1, flipped).unwrap();
    let e = merge_records(&exp, &reports, &[], "test").unwrap_err();
    assert!(e.to_string().contains("here but"), "{e}");
    assert_eq!(std::fs::read_to_string(&merged.merged).unwrap(), before);
}

fn zeroone(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn malformed_experiment_files_give_located_errors_and_write_nothing() {
    let models = format!("{}/models/sudoku4.txt", manifest());
    let ok_source = format!("[[instances]]\nfile = \"{models}\"\n");
    let cases: Vec<(String, &str)> = vec![
        (
            format!(
                "repetitions = 1\nrepititions = 2\n{ok_source}[[backends]]\nname = \"brute\"\n"
            ),
            "bad.toml:2:1: unknown field `repititions`",
        ),
        (
            format!("repetitions = \"two\"\n{ok_source}[[backends]]\nname = \"brute\"\n"),
            "bad.toml:1:15: invalid type: string \"two\"",
        ),
        (
            format!("{ok_source}[[backends]]\nname = \"brute\"\n[[backends]]\nname = \"nosuch\"\n"),
            "bad.toml:6:8: backends[1].name: unknown backend 'nosuch'",
        ),
        (
            "[[instances]]\ndata = \"sudoku/no_such_set.txt\"\n[[backends]]\nname = \"brute\"\n"
                .to_string(),
            "bad.toml:2:8: instances[0].data: no such file sudoku/no_such_set.txt",
        ),
        (
            format!("baseline = \"milp\"\n{ok_source}[[backends]]\nname = \"brute\"\n"),
            "bad.toml:1:12: baseline 'milp' is not the label of any backend",
        ),
        (
            format!("{ok_source}[[backends]]\nname = \"brute\"\nparams = {{ x = [1] }}\n"),
            "bad.toml:5:16: backends[0].params.x: expected a string, number or boolean",
        ),
        (
            "[[instances]]\ngenerate = \"hex\"\nsizes = [4]\n[[backends]]\nname = \"brute\"\n"
                .to_string(),
            "bad.toml:2:12: instances[0].sizes: 4 is not a valid size for 'hex'",
        ),
        (
            format!("time_limit = -1\n{ok_source}[[backends]]\nname = \"brute\"\n"),
            "bad.toml:1:14: time_limit: expected a positive number of seconds",
        ),
        (
            format!("{ok_source}[[backends]\nname = \"brute\"\n"),
            "bad.toml:3:",
        ),
        (
            ok_source.clone(),
            "bad.toml:backends: expected at least one [[backends]] entry",
        ),
    ];
    for (text, expected) in cases {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bad.toml"), &text).unwrap();
        let (code, stderr) = zeroone(dir.path(), &["run", "bad.toml", "-q"]);
        assert_eq!(code, 2, "exit status for:\n{text}\nstderr: {stderr}");
        assert!(
            stderr.contains(expected),
            "expected '{expected}' in:\n{stderr}\nfor:\n{text}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(
            left,
            vec![std::ffi::OsString::from("bad.toml")],
            "nothing written"
        );
    }
}

#[test]
fn a_puzzle_file_with_a_bad_line_stops_the_run_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.txt"), "1234341221434321\n1234\n").unwrap();
    std::fs::write(
        dir.path().join("e.toml"),
        "[[instances]]\nfile = \"p.txt\"\n[[backends]]\nname = \"brute\"\n",
    )
    .unwrap();
    let (code, stderr) = zeroone(dir.path(), &["run", "e.toml", "-q"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("zeroone: p.txt:2:5: puzzle 1: expected a Sudoku line"),
        "{stderr}"
    );
    assert!(!dir.path().join("reports").exists());
}

#[test]
fn the_report_counts_and_statuses_are_stable() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("count.toml");
    std::fs::write(
        &path,
        format!(
            r#"description = "Counting with the brute-force reference, cut at 3 solutions."
kind = "count"
count_limit = 3
baseline = "brute"

[[instances]]
file = "{}/models/sudoku4.txt"
first = 4

[[instances]]
generate = "queens-bare"
sizes = [3, 4, 5]

[[backends]]
name = "brute"
"#,
            manifest()
        ),
    )
    .unwrap();
    let exp = Experiment::load(&path).unwrap();
    let summary = run_experiment(&exp, &options(dir.path())).unwrap();
    let (records, _) = read_records(&summary.records, false).unwrap();
    let instances = load_instances(&exp.sources).unwrap();
    let ids: Vec<String> = instances.into_iter().map(|i| i.id).collect();
    let records = in_job_order(&exp, records, &ids);
    let provenance = Provenance {
        machine: "m".into(),
        commit: "c".into(),
        command: "x".into(),
    };
    let md = render_markdown(&exp, &records, ids.len(), &provenance, true);
    insta::assert_snapshot!("count_report", md);
    // The written report has real timings and the provenance header.
    let written = std::fs::read_to_string(dir.path().join("reports/count.md")).unwrap();
    assert!(written.contains("logical cores"), "{written}");
    let csv = std::fs::read_to_string(dir.path().join("reports/count.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 7);
    // Every source has fewer than 5 instances: one cactus plot for all of them.
    let svg = std::fs::read_to_string(dir.path().join("reports/count.cactus.svg")).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
}

/// Every committed experiment file either loads, or fails only because a backend it names has
/// not landed yet: never a schema error.
#[test]
fn the_committed_experiments_load_or_wait_only_for_missing_backends() {
    let dir = Path::new(manifest()).join("experiments");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        seen += 1;
        if let Err(e) = Experiment::load(&path) {
            let text = e.to_string();
            assert!(
                text.contains("unknown backend"),
                "{}: {text}",
                path.display()
            );
        }
    }
    assert!(seen >= 2);
}

#[test]
fn resuming_with_changed_backend_settings_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = solve_experiment(dir.path());
    let exp = Experiment::load(&path).unwrap();
    let mut o = options(dir.path());
    o.stop_after = Some(30);
    run_experiment(&exp, &o).unwrap();
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("seed = 7", "seed = 8");
    std::fs::write(&path, text).unwrap();
    let changed = Experiment::load(&path).unwrap();
    let mut resume = options(dir.path());
    resume.resume = true;
    let e = run_experiment(&changed, &resume).unwrap_err().to_string();
    assert!(
        e.contains("backend 'brute-b' was run with other settings"),
        "{e}"
    );
}

#[test]
fn a_table_experiment_resumes_and_reports_exact_counts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("space.toml");
    std::fs::write(
        &path,
        "kind = \"table\"\n[table]\nhex_widths = [1, 3, 5, 7]\nqueens_sizes = [4, 5, 6]\nmark_hex_widths = [5]\n",
    )
    .unwrap();
    let exp = Experiment::load(&path).unwrap();
    let mut cut = options(dir.path());
    cut.stop_after = Some(3);
    let first = run_experiment(&exp, &cut).unwrap();
    assert_eq!((first.ran, first.stopped), (3, true));
    let mut resume = options(dir.path());
    resume.resume = true;
    let second = run_experiment(&exp, &resume).unwrap();
    assert_eq!((second.already_done, second.ran), (3, 4));
    let (records, _) = read_records(&second.records, false).unwrap();
    assert_eq!(records.len(), 7);
    let provenance = Provenance {
        machine: "m".into(),
        commit: "c".into(),
        command: "x".into(),
    };
    let md = zeroone::harness::table_run::render_table_markdown(&exp, &records, &provenance, true);
    insta::assert_snapshot!("table_report", md);
    for file in [
        "space.md",
        "space.hex.csv",
        "space.queens.csv",
        "space.size.svg",
    ] {
        assert!(dir.path().join("reports").join(file).is_file(), "{file}");
    }
}

/// The report's lines without the command line (which names the command that wrote it).
fn without_command(md: &str) -> String {
    md.lines()
        .filter(|l| !l.starts_with("- command:") && !l.starts_with("- machine:"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn zeroone_report_rewrites_the_reports_from_the_records_alone() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("p.txt"),
        "1234341221434321\n1...........4321\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("e.toml"),
        "time_limit = 5\n[[instances]]\nfile = \"p.txt\"\n[[instances]]\ngenerate = \"hex\"\nsizes = [3, 5]\n[[backends]]\nname = \"brute\"\n[[backends]]\nname = \"gauss\"\n",
    )
    .unwrap();
    let (code, stderr) = zeroone(dir.path(), &["run", "e.toml", "-q", "--jobs", "2"]);
    assert_eq!(code, 0, "{stderr}");
    let md = std::fs::read_to_string(dir.path().join("reports/e.md")).unwrap();
    let csv = std::fs::read_to_string(dir.path().join("reports/e.csv")).unwrap();
    assert!(
        md.contains("- runs on record: 8 of 8 (4 instances)"),
        "{md}"
    );
    assert!(
        md.contains("### p (2 instances)"),
        "the source group is on record: {md}"
    );
    // The puzzles are no longer readable: the report must not need them.
    std::fs::write(dir.path().join("p.txt"), "not a puzzle\n").unwrap();
    std::fs::remove_file(dir.path().join("reports/e.md")).unwrap();
    let (code, stderr) = zeroone(dir.path(), &["report", "e.toml"]);
    assert_eq!(code, 0, "{stderr}");
    let again = std::fs::read_to_string(dir.path().join("reports/e.md")).unwrap();
    assert_eq!(without_command(&again), without_command(&md));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("reports/e.csv")).unwrap(),
        csv
    );
    assert!(again.contains(&format!("zeroone {}", env!("CARGO_PKG_VERSION"))));
    // The limits and repetitions come from the records: a time limit, memory limit and
    // repetitions edited into the file after the run change no byte of any report (PAR-2,
    // the header, the dashed limit line of the plots).
    let written = |dir: &Path| -> BTreeMap<String, Vec<u8>> {
        std::fs::read_dir(dir.join("reports"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| !p.to_string_lossy().contains(".jsonl"))
            .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
            .collect()
    };
    let before = written(dir.path());
    assert!(
        before.keys().any(|k| k.ends_with(".svg")),
        "{:?}",
        before.keys()
    );
    std::fs::write(
        dir.path().join("e.toml"),
        "time_limit = 7\nmemory_limit = 4000\n[[instances]]\nfile = \"p.txt\"\n[[instances]]\ngenerate = \"hex\"\nsizes = [3, 5]\n[[backends]]\nname = \"brute\"\n[[backends]]\nname = \"gauss\"\n",
    )
    .unwrap();
    let (code, stderr) = zeroone(dir.path(), &["report", "e.toml"]);
    assert_eq!(code, 0, "{stderr}");
    let after = written(dir.path());
    assert_eq!(
        before.keys().collect::<Vec<_>>(),
        after.keys().collect::<Vec<_>>()
    );
    for (path, bytes) in &before {
        assert!(
            after[path] == *bytes,
            "{path} changed with the experiment file's limits"
        );
    }
    assert!(again.contains("- time limit: 5 s per run"), "{again}");
    assert!(again.contains("- memory limit: none"), "{again}");
    // Without records there is nothing to report: bad input, nothing written.
    let (code, stderr) = zeroone(dir.path(), &["report", "e.toml", "--reports", "none"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(!dir.path().join("none").exists());
}

/// The three-axis counts of the widths 1-21 (OEIS A002047), to compare with.
const A002047: [u128; 11] = [
    1,
    2,
    6,
    28,
    244,
    2544,
    35600,
    659632,
    15106128,
    425802176,
    14409526080,
];

#[test]
fn a_sharded_table_run_in_two_slices_merges_into_the_oeis_counts_and_orbits() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("split.toml");
    std::fs::write(
        &path,
        "kind = \"table\"\n[table]\nhex_widths = [9, 11, 13]\nhex_parts = 3\n",
    )
    .unwrap();
    let exp = Experiment::load(&path).unwrap();
    let rows = zeroone::harness::table_run::table_rows(&exp);
    assert_eq!(rows.len(), 12, "3 shards and the other levels, per width");
    for k in 1..=2 {
        let mut o = options(dir.path());
        o.shard = Some(Shard { index: k, count: 2 });
        run_experiment(&exp, &o).unwrap();
    }
    let reports = dir.path().join("reports");
    // One slice alone leaves shards missing, and the report says so.
    let (half, _) = read_records(&reports.join("split.shard-1-of-2.jsonl"), false).unwrap();
    let provenance = Provenance {
        machine: "m".into(),
        commit: "c".into(),
        command: "x".into(),
    };
    let md = zeroone::harness::table_run::render_table_markdown(&exp, &half, &provenance, true);
    assert!(md.contains("hex-9: "), "{md}");
    assert!(md.contains("not on record"), "{md}");
    let merged = merge_records(&exp, &reports, &[], "merge").unwrap();
    assert_eq!(merged.records, 12);
    let csv = std::fs::read_to_string(reports.join("split.hex.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().skip(1).collect();
    // width, cells, then each level and its log10: 2^N, C(N,n), one per row, two axes,
    // three axes, orbits (A309260).
    let want = [
        (9, A002047[4], 29u128),
        (11, A002047[5], 224),
        (13, A002047[6], 3012),
    ];
    for (line, (width, three, orbits)) in lines.iter().zip(want) {
        let cols: Vec<&str> = line.split(',').collect();
        assert_eq!(cols[0], width.to_string());
        assert_eq!(cols[10], three.to_string(), "{line}");
        assert_eq!(cols[12], orbits.to_string(), "{line}");
    }
    let (records, _) = read_records(&merged.merged, false).unwrap();
    let md = zeroone::harness::table_run::render_table_markdown(&exp, &records, &provenance, true);
    assert!(md.contains("9 of 9 shards on record"), "{md}");
    assert!(!md.contains("not on record"), "{md}");
}

#[test]
fn a_table_experiment_with_three_streamed_rows_records_the_two_row_shard_counts() {
    let dir = tempfile::tempdir().unwrap();
    let mut shards = Vec::new();
    for (name, extra) in [("two", ""), ("three", "streamed_rows = 3\n")] {
        let path = dir.path().join(format!("{name}.toml"));
        let table = format!("kind = \"table\"\n[table]\nhex_widths = [13]\nhex_parts = 3\n{extra}");
        std::fs::write(&path, table).unwrap();
        let exp = Experiment::load(&path).unwrap();
        run_experiment(&exp, &options(dir.path())).unwrap();
        let records = dir.path().join(format!("reports/{name}.jsonl"));
        let (records, _) = read_records(&records, false).unwrap();
        let parts: Vec<(String, Option<String>, serde_json::Value)> = records
            .iter()
            .filter(|r| r.instance.contains("-part-"))
            .map(|r| {
                let streamed = r.stats.extra["streamed_rows"].clone();
                (r.instance.clone(), r.count.clone(), streamed)
            })
            .collect();
        assert_eq!(parts.len(), 3, "{records:?}");
        shards.push(parts);
    }
    for (two, three) in shards[0].iter().zip(&shards[1]) {
        assert_eq!((&two.0, &two.1), (&three.0, &three.1));
        assert_eq!((two.2.as_u64(), three.2.as_u64()), (Some(2), Some(3)));
    }
    let sum: u128 = shards[1]
        .iter()
        .map(|p| p.1.as_deref().unwrap().parse::<u128>().unwrap())
        .sum();
    assert_eq!(sum, A002047[6]);
}

#[test]
fn a_sharded_table_experiment_with_a_bad_shard_count_or_row_order_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (table, expected) in [
        ("hex_parts = 0", "hex_parts"),
        ("hex_parts = 3\nrow_order = \"sideways\"", "row_order"),
        ("hex_parts = 3\nstreamed_rows = 4", "streamed_rows"),
    ] {
        let path = dir.path().join("bad.toml");
        std::fs::write(
            &path,
            format!("kind = \"table\"\n[table]\nhex_widths = [9]\n{table}\n"),
        )
        .unwrap();
        let e = Experiment::load(&path).unwrap_err().to_string();
        assert!(e.contains(expected), "{e}");
    }
}

/// A folder source: the files matching the glob run in name order under their file names, every
/// record names its file, and the malformed file is that instance's `error` rows with the
/// located message while the others are solved.
#[test]
fn a_folder_source_runs_every_file_and_a_malformed_one_is_its_own_error_rows() {
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    std::fs::create_dir(&models).unwrap();
    let write = |name: &str, text: &str| std::fs::write(models.join(name), text).unwrap();
    write("a-sat.cnf", "p cnf 2 2\n1 2 0\n-1 -2 0\n");
    write("b-bad.cnf", "p cnf 2 1\n1 3 0\n");
    write("c-unsat.cnf", "p cnf 1 2\n1 0\n-1 0\n");
    write("d.opb", "min: +1 x1 +2 x2 ;\n+1 x1 +1 x2 >= 1 ;\n");
    write("notes.md", "not matched by the glob\n");
    let path = dir.path().join("exp.toml");
    let text = "time_limit = 5\n[[instances]]\ndir = \"models\"\nglob = \"*.cnf\"\n\
        [[instances]]\ndir = \"models\"\nglob = \"*.opb\"\n\
        [[backends]]\nname = \"brute\"\n[[backends]]\nname = \"bitset\"\n";
    std::fs::write(&path, text).unwrap();
    let exp = Experiment::load(&path).unwrap();
    let summary = run_experiment(&exp, &options(dir.path())).unwrap();
    let (records, _) = read_records(&summary.records, false).unwrap();
    assert_eq!(records.len(), 8, "4 files x 2 backends");
    for r in &records {
        assert_eq!(r.file.as_deref(), Some(r.instance.as_str()), "{r:?}");
        assert!(r.group_name().starts_with("models/*."), "{r:?}");
        let expected = match r.instance.as_str() {
            "a-sat.cnf" => "solved",
            "b-bad.cnf" => "error",
            "c-unsat.cnf" => "infeasible",
            "d.opb" => "optimal",
            other => panic!("unexpected instance {other}"),
        };
        assert_eq!(r.status.name(), expected, "{r:?}");
    }
    let bad = records.iter().find(|r| r.instance == "b-bad.cnf").unwrap();
    let reason = bad.reason.as_deref().unwrap();
    assert!(
        reason.starts_with("the file does not read: ")
            && reason.contains("b-bad.cnf:2:3: expected a literal between -2 and 2"),
        "{reason}"
    );
    let opt = records.iter().find(|r| r.instance == "d.opb").unwrap();
    assert_eq!(opt.objective, Some(1));
    // The peers' export: one model per readable file, with its group and file name.
    let out = dir.path().join("exported");
    std::fs::create_dir(&out).unwrap();
    let written = zeroone::harness::runner::export_models(&exp, &out, None).unwrap();
    assert_eq!(written, 3, "the malformed file has nothing to export");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("d.opb.json")).unwrap()).unwrap();
    assert_eq!(doc["file"], "d.opb");
    assert_eq!(doc["group"], "models/*.opb");
    assert_eq!(doc["time_limit"], 5.0);
}
