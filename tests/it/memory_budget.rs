//! Memory that follows the data present (issue 35, items 2 and 3, what remained): an
//! experiment's parent never builds a model its workers would run out of memory on, and a
//! backend's guard respects the process's own address-space limit. Each test failed before its
//! fix.

use std::path::Path;

use zeroone::backend::Status;
use zeroone::harness::record::read_records;

/// Exit code, standard output and standard error of the binary run with `args` in `dir` under an address-space
/// limit of `cap_mb` (inherited by the workers it starts, which lower it to their own limit).
fn run_capped(dir: &Path, args: &[&str], cap_mb: u64) -> (Option<i32>, String, String) {
    let ran = crate::hardening::run_binary(dir, args, None, Some(cap_mb));
    (ran.code, ran.stdout, ran.stderr)
}

#[test]
fn a_file_past_an_experiments_memory_limit_is_a_memout_per_backend_and_the_rest_runs() {
    // 18 bytes declaring 8,388,608 variables: the parent built the model at 1.76 GB, then
    // (within the limit as a budget) stopped the whole experiment with exit 2 (issue 35,
    // item 3). Now its runs are `memout` like any run past the limit, and the small file
    // beside it is solved. The parent runs capped at 1 GB of address space, which the model
    // would pass.
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    std::fs::create_dir(&models).unwrap();
    std::fs::write(models.join("big.cnf"), "p cnf 8388608 1\n1 0\n").unwrap();
    std::fs::write(models.join("small.cnf"), "p cnf 2 1\n1 -2 0\n").unwrap();
    std::fs::write(
        dir.path().join("e.toml"),
        "memory_limit = 300\n\
         [[instances]]\nfile = \"models/big.cnf\"\n\
         [[instances]]\ndir = \"models\"\nglob = \"small*\"\n\
         [[backends]]\nname = \"sat\"\n[[backends]]\nname = \"bitset\"\n",
    )
    .unwrap();
    let (code, _, stderr) = run_capped(dir.path(), &["run", "e.toml", "-q"], 1000);
    assert_eq!(code, Some(0), "{stderr}");
    let (records, _) = read_records(&dir.path().join("reports/e.jsonl"), false).unwrap();
    // In the order the runs ended: the two instances run side by side, and a worker now finds
    // the big file past the limit, so either may end first.
    let mut statuses: Vec<(&str, &str, Status)> = records
        .iter()
        .map(|r| (r.instance.as_str(), r.backend.as_str(), r.status))
        .collect();
    statuses.sort_by_key(|&(instance, backend, _)| (instance, backend));
    assert_eq!(
        statuses,
        [
            ("big#0", "bitset", Status::Memout),
            ("big#0", "sat", Status::Memout),
            ("small.cnf", "bitset", Status::Solved),
            ("small.cnf", "sat", Status::Solved),
        ]
    );
    let big = records.iter().find(|r| r.instance == "big#0").unwrap();
    let reason = big.reason.as_deref().unwrap_or_default();
    for wanted in ["limit 300 MB", "big.cnf:1:1: ", "8388608 variables"] {
        assert!(reason.contains(wanted), "expected '{wanted}' in {reason}");
    }
    // A resumed run finds everything on record, and the report counts the two memouts.
    let (code, _, stderr) = run_capped(dir.path(), &["run", "e.toml", "--resume"], 1000);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("4 already on record, 0 run now"),
        "{stderr}"
    );
    let md = std::fs::read_to_string(dir.path().join("reports/e.md")).unwrap();
    assert!(md.contains("memout"), "{md}");
}

#[test]
fn declared_variables_no_row_uses_cost_about_forty_bytes_each() {
    // `p cnf N 1` declares N variables x1..xN: each held a stored label string (`x123`) and a
    // second column-start slot while the model was built, about 110 bytes, so 4,194,304 of
    // them took some 460 MB and aborted under a 400 MB address space (issue 35, item 2). Now
    // the labels are made from the numbers when asked for: 40 bytes each (the variable's
    // coordinates and its column start), some 170 MB here. The labels print as before. (No
    // negated literal: its complement, pushed past the exactly sized list of variables,
    // doubles that list's address space, though not its resident pages.)
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("wide.cnf"), "p cnf 4194304 1\n1 2 0\n").unwrap();
    let (code, _, stderr) = run_capped(dir.path(), &["show", "wide.cnf"], 400);
    assert_eq!(code, Some(0), "{stderr}");
    std::fs::write(
        dir.path().join("wide.opb"),
        "* #variable= 4194304 #constraint= 1\n+1 x1 +1 x4194304 >= 1 ;\n",
    )
    .unwrap();
    let (code, _, stderr) = run_capped(dir.path(), &["show", "wide.opb"], 400);
    assert_eq!(code, Some(0), "{stderr}");
}

#[test]
fn numbered_variables_keep_their_labels_through_complements_and_exports() {
    // The labels made from numbers are the ones stored before: x1..xN, complements ~xK,
    // auxiliary z, and a name of the file's own after them; JSON export and read back keep
    // every one (cross-checked against the labels of the same model built name by name).
    use zeroone::model::{Coord, ModelBuilder, PuzzleKind};
    use zeroone::read::{opb, read_str};
    let model = read_str(
        opb::FORMAT,
        "* #variable= 4 #constraint= 2\n+1 x1 -1 x3 >= 0 ;\n+2 x2 +1 y >= 1 ;\n",
        "t",
    )
    .unwrap();
    let labels: Vec<String> = (0..model.num_variables())
        .map(|v| model.label(v).into_owned())
        .collect();
    assert_eq!(labels, ["x1", "x2", "x3", "x4", "y", "~x3"]);
    let json = serde_json::to_string(&model).unwrap();
    let back: zeroone::model::Model = serde_json::from_str(&json).unwrap();
    assert_eq!(back, model);
    let mut named = ModelBuilder::new("t", PuzzleKind::Generic);
    for k in 1..=4 {
        named.variable(format!("x{k}"), Coord::Free);
    }
    let mut numbered = ModelBuilder::new("t", PuzzleKind::Generic);
    assert_eq!(numbered.numbered_variables(4), 0);
    for b in [&mut named, &mut numbered] {
        b.variable("y", Coord::Free);
        let c = b.complement(2);
        assert_eq!(c, 5);
    }
    let (named, numbered) = (named.build().unwrap(), numbered.build().unwrap());
    assert_eq!(named, numbered);
    assert_eq!(
        serde_json::to_string(&named).unwrap(),
        serde_json::to_string(&numbered).unwrap()
    );
    // A stored label equal to a numbered one is a duplicate, as it was.
    let mut clash = ModelBuilder::new("t", PuzzleKind::Generic);
    clash.numbered_variables(3);
    clash.variable("x2", Coord::Free);
    assert!(clash.build().unwrap_err().to_string().contains("x2"));
}

#[test]
fn xcc_refuses_frames_past_its_own_address_space_limit() {
    // One clause over 10,000 variables: xcc's counts engine keeps one frame of every item per
    // level, 10,002 levels of 124 KB (1.24 GB). Its guard read only MemAvailable (22 GB on the
    // machine that found it), so under a 600 MB address space it allocated until it aborted
    // (exit 134, issue 35, item 2). Now the guard takes the process's own limit too: a clean
    // `unsupported` naming the frames; bitset still solves the same file there.
    let dir = tempfile::tempdir().unwrap();
    let clause: Vec<String> = (1..=10_000).map(|k| k.to_string()).collect();
    let text = format!("p cnf 10000 1\n{} 0\n", clause.join(" "));
    std::fs::write(dir.path().join("wide.cnf"), text).unwrap();
    let args = ["solve", "wide.cnf", "--backend", "xcc", "--json"];
    let (code, stdout, stderr) = run_capped(dir.path(), &args, 600);
    assert_eq!(code, Some(1), "{stderr}");
    let record: serde_json::Value = serde_json::from_str(stdout.trim()).expect(&stdout);
    assert_eq!(record["status"], "unsupported", "{stdout}");
    let reason = record["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("search frames"), "{reason}");
    assert!(reason.contains("this process can take"), "{reason}");
    let args = ["solve", "wide.cnf", "--backend", "bitset", "--json"];
    let (code, _, stderr) = run_capped(dir.path(), &args, 600);
    assert_eq!(code, Some(0), "{stderr}");
}

/// The parent's own peak resident set (`VmHWM`, kB) while `zeroone ARGS` runs in `dir`, read
/// from `/proc` every 10 ms until it exits (the peak only grows, so the last reading is it, up
/// to the last 10 ms); with the exit code and standard error.
fn parent_peak_kb(dir: &Path, args: &[&str]) -> (u64, Option<i32>, String) {
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    let status = loop {
        if let Some(kb) = std::fs::read_to_string(&status_file).ok().and_then(|t| {
            let line = t.lines().find(|l| l.starts_with("VmHWM:"))?.to_string();
            line[6..]
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        }) {
            peak = peak.max(kb);
        }
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (peak, status.code(), stderr)
}

/// What a record says of its instance's model and answer (measurements and options left out).
fn model_and_answer(r: &zeroone::harness::Record) -> String {
    format!(
        "{} {} {:?} vars {} rows {} own {:?}/{:?} size {:?} sense {:?} count {:?} obj {:?} group {:?} file {:?} at {:?} reason {:?}",
        r.instance, r.backend, r.status, r.variables, r.rows, r.original_variables,
        r.original_rows, r.size, r.sense, r.count, r.objective, r.group, r.file, r.position,
        r.reason
    )
}

#[test]
fn the_parent_of_a_run_under_a_memory_limit_builds_no_model_and_records_the_same() {
    // A 33-byte CNF declaring 4,000,000 variables builds to at least 150 MB (40 bytes a
    // variable); the parent built it (and its JSON for the worker) at a peak of 665 MB before
    // sending it, though the run's memory limit is about its workers (issue 35, item 3). Now
    // the parent lists instances and each worker builds its own model: the parent stays far
    // below the model, and the records say what a run without a limit (parent-built models)
    // says of every model and answer, boards and generated boards included.
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    std::fs::create_dir(&models).unwrap();
    std::fs::write(dir.path().join("big.cnf"), "p cnf 4000000 2\n1 -2 0\n3 0\n").unwrap();
    std::fs::write(
        models.join("small.opb"),
        "min: +2 x1 +1 x2 ;\n+1 x1 +1 x2 >= 1 ;\n",
    )
    .unwrap();
    std::fs::write(models.join("bad.lp"), "Minimize\n obj: x +\n").unwrap();
    std::fs::write(
        models.join("two.sudoku"),
        "1234341221434321\n12..34..21..43..\n",
    )
    .unwrap();
    let experiment = |limit: &str| {
        format!(
            "{limit}\n[[instances]]\nfile = \"big.cnf\"\n\
             [[instances]]\ndir = \"models\"\nglob = \"*.*\"\n\
             [[instances]]\ngenerate = \"queens-bare\"\nsizes = [4, 5]\n\
             [[backends]]\nname = \"sat\"\n"
        )
    };
    std::fs::write(
        dir.path().join("limited.toml"),
        experiment("memory_limit = 600"),
    )
    .unwrap();
    std::fs::write(dir.path().join("free.toml"), experiment("")).unwrap();
    let (peak_kb, code, stderr) =
        parent_peak_kb(dir.path(), &["run", "limited.toml", "-q", "--jobs", "1"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(peak_kb < 100 << 10, "the parent peaked at {peak_kb} kB");
    let (code, _, stderr) =
        run_capped(dir.path(), &["run", "free.toml", "-q", "--jobs", "1"], 4000);
    assert_eq!(code, Some(0), "{stderr}");
    let read = |name: &str| {
        let (records, _) = read_records(&dir.path().join("reports").join(name), false).unwrap();
        records.iter().map(model_and_answer).collect::<Vec<_>>()
    };
    let limited = read("limited.jsonl");
    assert_eq!(limited, read("free.jsonl"));
    let lines = limited.join("\n");
    for wanted in [
        "big#0 sat Solved vars 4000001 rows 3 own Some(4000000)/Some(2) size Some(4000001)",
        "small.opb sat Optimal",
        "bad.lp sat Error vars 0",
        "the file does not read: ",
        "two.sudoku#1 sat Solved",
        "queens-bare-4 sat Solved",
        "queens-bare-5 sat Solved",
    ] {
        assert!(lines.contains(wanted), "expected '{wanted}' in\n{lines}");
    }
    assert_eq!(limited.len(), 7, "{lines}");
}

#[test]
fn a_malformed_file_given_alone_under_a_memory_limit_is_refused_before_anything_runs() {
    // The parent no longer reads the file: a worker builds it first, and a malformed one is
    // the same located error, exit 2, no record written, as when the parent read it.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.cnf"), "p cnf 2 1\n1 3 0\n").unwrap();
    for limit in ["memory_limit = 300\n", ""] {
        std::fs::write(
            dir.path().join("e.toml"),
            format!("{limit}[[instances]]\nfile = \"bad.cnf\"\n[[backends]]\nname = \"sat\"\n"),
        )
        .unwrap();
        let (code, _, stderr) = run_capped(dir.path(), &["run", "e.toml", "-q"], 4000);
        assert_eq!(code, Some(2), "{limit}: {stderr}");
        assert!(
            stderr.contains("bad.cnf:2:3: expected"),
            "{limit}: {stderr}"
        );
        assert!(!dir.path().join("reports/e.jsonl").exists(), "{limit}");
    }
}

#[test]
fn models_exported_under_a_memory_limit_are_built_one_at_a_time_within_it() {
    // `--export-models` builds the models it writes: under the experiment's limit each is read
    // within it (the 21-byte file declaring 8 M variables is not built, so not exported), one
    // at a time, and the others are written exactly as without the limit (and without the big
    // file, which would cost this test 1 GB).
    use zeroone::harness::runner::export_models;
    use zeroone::harness::Experiment;
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    std::fs::create_dir(&models).unwrap();
    std::fs::write(models.join("big.cnf"), "p cnf 8388608 1\n1 0\n").unwrap();
    std::fs::write(
        models.join("small.opb"),
        "min: +2 x1 +1 x2 ;\n+1 x1 +1 x2 >= 1 ;\n",
    )
    .unwrap();
    std::fs::write(
        models.join("two.sudoku"),
        "1234341221434321\n12..34..21..43..\n",
    )
    .unwrap();
    let mut exported = Vec::new();
    for limit in ["memory_limit = 300\n", ""] {
        if limit.is_empty() {
            std::fs::remove_file(models.join("big.cnf")).unwrap();
        }
        let file = dir.path().join("e.toml");
        let text = format!(
            "{limit}[[instances]]\ndir = \"models\"\nglob = \"*\"\n[[backends]]\nname = \"sat\"\n"
        );
        std::fs::write(&file, text).unwrap();
        let experiment = Experiment::load(&file).unwrap();
        let out = tempfile::tempdir().unwrap();
        let written = export_models(&experiment, out.path(), None).unwrap();
        let mut names: Vec<String> = std::fs::read_dir(out.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        // Without the big file the others sit one place earlier among one instance fewer.
        let texts: Vec<serde_json::Value> = (names.iter())
            .map(|n| {
                let text = std::fs::read_to_string(out.path().join(n)).unwrap();
                let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
                let doc_map = doc.as_object_mut().unwrap();
                doc_map.remove("position");
                doc_map.remove("instances");
                doc
            })
            .collect();
        exported.push((written, names, texts));
    }
    let (limited, free) = (&exported[0], &exported[1]);
    assert_eq!(limited.0, 3, "{:?}", limited.1);
    assert_eq!(
        limited.1,
        ["small.opb.json", "two.sudoku#0.json", "two.sudoku#1.json"]
    );
    assert_eq!(limited.1, free.1);
    assert!(limited.2 == free.2, "the exported models differ");
}
