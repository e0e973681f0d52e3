//! Strict options, range-checked numbers and sensible defaults, end to end through the binary:
//! every option a backend does not read, and every number out of range, is exit 2 with a message
//! naming what is accepted; never a panic, an abort or minutes of work.

use std::path::Path;
use std::process::{Command, Output};

fn zeroone_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

fn zeroone(args: &[&str]) -> Output {
    zeroone_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Runs `args`, expects exit status 2 and a message containing every one of `wanted`.
fn refused(args: &[&str], wanted: &[&str]) {
    let o = zeroone(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    for w in wanted {
        assert!(err.contains(w), "{args:?}: expected '{w}' in: {err}");
    }
}

#[test]
fn options_a_backend_does_not_read_are_refused_with_exit_2() {
    let hex = "models/hex-9.hex";
    refused(
        &["solve", hex, "--backend", "milp", "--param", "relaxx=true"],
        &[
            "backend 'milp' does not take option 'relaxx'",
            "it takes: relax, presolve, time_limit",
        ],
    );
    refused(
        &["solve", hex, "--backend", "enum", "--param", "ordr=mrv"],
        &[
            "backend 'enum' does not take option 'ordr'",
            "families, order, coordinate, threads",
        ],
    );
    refused(
        &["solve", hex, "--backend", "sat", "--relax"],
        &["backend 'sat' does not take option 'relax' (it takes: pairwise-up-to, pb-encoding, bound-fixing, time_limit)"],
    );
    refused(
        &["count", hex, "--backend", "enum", "--relax"],
        &["backend 'enum' does not take option 'relax'"],
    );
    refused(
        &[
            "solve",
            "models/sudoku4.txt",
            "--backend",
            "brute",
            "--dim",
            "64",
        ],
        &["backend 'brute' does not take option 'dim' (it takes: none)"],
    );
    refused(
        &["solve", hex, "--backend", "bitset", "--seed", "3"],
        &["backend 'bitset' does not take option 'seed' (it takes: gap, abs-gap, hint, time_limit)"],
    );
}

#[test]
fn options_a_backend_reads_are_still_accepted() {
    for args in [
        vec![
            "solve",
            "models/hex-9.hex",
            "--backend",
            "enum",
            "--order",
            "mrv",
            "--time-limit",
            "60",
        ],
        vec!["solve", "models/hex-9.hex", "--backend", "milp", "--relax"],
        // A backend that cannot stop itself still takes a time limit: it runs in a worker
        // process that is killed at the limit.
        vec![
            "solve",
            "models/hex-9.hex",
            "--backend",
            "gauss",
            "--time-limit",
            "5",
        ],
        vec![
            "solve",
            "models/hex-9.hex",
            "--backend",
            "vsa",
            "--seed",
            "2",
            "--dim",
            "64",
        ],
        vec![
            "count",
            "models/hex-bare.hex",
            "--index",
            "0",
            "--backend",
            "bitset",
            "--families",
            "row",
        ],
    ] {
        let o = zeroone(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn time_limits_out_of_range_are_exit_2_not_a_duration_panic() {
    for bad in ["1e20", "1e300", "NaN", "-1", "inf", "31536001"] {
        let flag = format!("--time-limit={bad}");
        refused(
            &["solve", "models/hex-9.hex", "--backend", "bitset", &flag],
            &[
                "--time-limit",
                "expected a number of seconds above 0 and at most 31536000",
            ],
        );
    }
    let o = zeroone(&["solve", "models/hex-9.hex", "--time-limit", "31536000"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn table_widths_and_sizes_out_of_range_are_exit_2_not_an_allocation_abort() {
    refused(
        &["table", "hex", "--widths", "1-99999999999"],
        &["--widths", "0 to 1000"],
    );
    refused(
        &["table", "queens", "--sizes", "1-99999999999"],
        &["--sizes", "0 to 1000"],
    );
    refused(
        &["table", "queens", "--sizes", "3,99999999999"],
        &["--sizes"],
    );
    refused(
        &["table", "hex", "--width", "99999999999"],
        &["--width", "at most 1000"],
    );
    refused(
        &["table", "queens", "--size", "99999999999"],
        &["--size", "at most 1000"],
    );
}

#[test]
fn a_vsa_dimension_of_0_is_refused_before_anything_runs() {
    refused(
        &[
            "solve",
            "models/sudoku4.txt",
            "--backend",
            "vsa",
            "--dim",
            "0",
        ],
        &["option 'dim' = '0'"],
    );
}

#[test]
fn run_jobs_out_of_range_is_exit_2() {
    for bad in ["100000", "0", "1025"] {
        refused(
            &["run", "experiments/smoke.toml", "--jobs", bad],
            &["--jobs", "1..=1024"],
        );
    }
}

#[test]
fn count_limit_zero_is_exit_2() {
    refused(&["count", "models/hex-9.hex", "--limit", "0"], &["--limit"]);
}

fn experiment(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_string_lossy().into_owned()
}

const SOURCE: &str = "[[instances]]\ngenerate = \"hex\"\nsizes = [1, 3]\n";

#[test]
fn experiment_files_refuse_unknown_params_at_the_key_and_bad_numbers_at_the_value() {
    let dir = tempfile::tempdir().unwrap();
    let reports = dir.path().join("reports");
    let reports = reports.to_str().unwrap();
    let typo = experiment(
        dir.path(),
        "typo.toml",
        format!("{SOURCE}[[backends]]\nname = \"milp\"\nparams = {{ relaxx = true }}\n").as_bytes(),
    );
    refused(
        &["run", &typo, "--reports", reports],
        &["typo.toml:6:12: backends[0].params: backend 'milp' does not take option 'relaxx'"],
    );
    let long = experiment(
        dir.path(),
        "long.toml",
        format!("time_limit = 1e20\n{SOURCE}[[backends]]\nname = \"bitset\"\n").as_bytes(),
    );
    refused(
        &["run", &long, "--reports", reports],
        &["long.toml:1:14: time_limit"],
    );
    assert!(!dir.path().join("reports").exists(), "nothing was written");
}

#[test]
fn an_experiment_file_that_is_not_utf8_is_a_located_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = experiment(dir.path(), "latin1.toml", b"description = \"caf\xe9\"\n");
    refused(
        &["run", &path],
        &["latin1.toml:1:19: not UTF-8 text (byte 0xe9)"],
    );
}

#[test]
fn a_byte_order_mark_at_the_start_of_an_experiment_is_whitespace() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = "\u{feff}description = \"bom\"\n".as_bytes().to_vec();
    bytes.extend_from_slice(format!("{SOURCE}[[backends]]\nname = \"bitset\"\n").as_bytes());
    let path = experiment(dir.path(), "bom.toml", &bytes);
    let reports = dir.path().join("reports");
    let o = zeroone(&[
        "run",
        &path,
        "--reports",
        reports.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(reports.join("bom.jsonl").is_file());
}

#[test]
fn the_default_backend_solves_every_kind_of_model() {
    // auto: xcc for exact cover its transposed engine (at most 512 primary items of at most 64
    // options: Sudoku's 324 items of 9) or sweep takes, bitset otherwise (Star Battle's `= 2`,
    // Killer Sudoku's sums, 16x16 Sudoku's 1,024 items).
    for (file, engine) in [
        ("models/hex-9.hex", "xcc"),
        ("models/queens-capybaradoku.queens", "xcc"),
        ("models/sudoku-9x9.sudoku", "xcc"),
        ("models/star-10x10-2.star", "bitset"),
        ("models/sudoku-16x16.sudoku", "bitset"),
        ("models/killer-9x9.killer", "bitset"),
        ("models/exact-cover.json", "xcc"),
        ("models/latin-3.toml", "xcc"),
    ] {
        let o = zeroone(&["solve", file, "--json"]);
        assert!(o.status.success(), "{file}: {}", stderr(&o));
        for line in stdout(&o).lines() {
            assert!(line.contains("\"status\":\"solved\""), "{file}: {line}");
            let named = format!("\"backend\":\"{engine}\"");
            assert!(line.contains(&named), "{file}: {line}");
        }
    }
}

#[test]
fn generate_writes_every_board_it_found_before_reporting_it_found_no_more() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("hex3.hex");
    let o = zeroone(&[
        "generate",
        "hex",
        "--width",
        "3",
        "--count",
        "100",
        "--output",
        out.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("found 54 of 100 boards"), "{err}");
    let text = std::fs::read_to_string(&out).expect("the boards found were written");
    let check = zeroone(&["count", out.to_str().unwrap(), "--json"]);
    assert!(check.status.success(), "{}", stderr(&check));
    let counts: Vec<String> = stdout(&check).lines().map(String::from).collect();
    assert_eq!(counts.len(), 54, "{text}");
    assert!(
        counts.iter().all(|l| l.contains("\"count\":1,")),
        "{counts:?}"
    );
}

#[cfg(unix)]
#[test]
fn output_files_get_the_umask_mode_and_an_overwritten_file_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let plain = dir.path().join("plain");
    std::fs::File::create(&plain).unwrap();
    let lp = dir.path().join("hex.lp");
    let export = |path: &Path| {
        let o = zeroone(&[
            "export",
            "models/hex-9.hex",
            "--format",
            "lp",
            "--output",
            path.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    };
    export(&lp);
    assert_eq!(
        mode(&lp),
        mode(&plain),
        "a new file: what File::create gives"
    );
    std::fs::set_permissions(&lp, std::fs::Permissions::from_mode(0o644)).unwrap();
    export(&lp);
    assert_eq!(mode(&lp), 0o644, "an overwritten file keeps its mode");
}
