//! Puzzle files read one puzzle at a time: standard input, gzip, `--format`, `--index` that
//! stops reading, `--jobs` with output in file order, and input hygiene (BOM, bad bytes).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn zeroone_with_input(args: &[&str], input: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    if let Some(bytes) = input {
        let mut stdin = child.stdin.take().unwrap();
        // A run that refuses its input (exit 2 before reading) closes the pipe first: the
        // write then fails with a broken pipe, and the exit status says the rest.
        if let Err(e) = stdin.write_all(bytes) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
        }
    }
    child.wait_with_output().expect("the binary finishes")
}

fn zeroone(args: &[&str]) -> Output {
    zeroone_with_input(args, None)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp_file(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn arg(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The shipped 9x9 Sudoku lines (blank and comment lines dropped).
fn sudoku_lines() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("models/sudoku-9x9.sudoku");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

/// JSON lines without the timing field, which differs from run to run.
fn without_seconds(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["stats"].as_object_mut().unwrap().remove("seconds");
            v
        })
        .collect()
}

#[test]
fn standard_input_is_read_with_format() {
    let lines = sudoku_lines();
    let input = format!("{}\n", lines[0]);
    let o = zeroone_with_input(
        &[
            "solve",
            "-",
            "--format",
            "sudoku",
            "--backend",
            "bitset",
            "--json",
        ],
        Some(input.as_bytes()),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let v = without_seconds(&stdout(&o));
    assert_eq!(v.len(), 1);
    assert_eq!(v[0]["status"], "solved");
    assert_eq!(v[0]["verified"], true);
    // Without --format, standard input is refused with exit 2.
    let o = zeroone_with_input(&["show", "-"], Some(input.as_bytes()));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--format"), "{}", stderr(&o));
}

#[test]
fn gzip_and_unknown_extensions_are_read_transparently() {
    let dir = tempfile::tempdir().unwrap();
    let text = sudoku_lines().join("\n") + "\n";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text.as_bytes()).unwrap();
    let gz_path = temp_file(&dir, "set.txt.gz", &gz.finish().unwrap());
    let plain = temp_file(&dir, "set.txt", text.as_bytes());
    let odd = temp_file(&dir, "set.puzzles", text.as_bytes());
    let a = zeroone(&["show", "--json", arg(&plain)]);
    let b = zeroone(&["show", "--json", arg(&gz_path)]);
    assert!(a.status.success() && b.status.success(), "{}", stderr(&b));
    assert_eq!(stdout(&a), stdout(&b));
    let c = zeroone(&["show", "--json", arg(&odd)]);
    assert_eq!(c.status.code(), Some(2));
    let c = zeroone(&["show", "--json", "--format", "sudoku", arg(&odd)]);
    assert_eq!(stdout(&a), stdout(&c));
}

#[test]
fn index_stops_reading_at_the_chosen_puzzle() {
    // Puzzle 2 is malformed: asking for puzzle 1 never reads it (the whole file used to be
    // parsed, and modelled, first).
    let lines = sudoku_lines();
    let dir = tempfile::tempdir().unwrap();
    let text = format!("{}\n{}\nthis is not a sudoku\n", lines[0], lines[1]);
    let p = temp_file(&dir, "x.sudoku", text.as_bytes());
    let o = zeroone(&[
        "solve",
        arg(&p),
        "--index",
        "1",
        "--backend",
        "bitset",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(without_seconds(&stdout(&o))[0]["index"], 1);
    let o = zeroone(&["solve", arg(&p), "--index", "2", "--backend", "bitset"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(":3:"), "{}", stderr(&o));
    let o = zeroone(&["show", "--json", "--index", "5", "models/sudoku-9x9.sudoku"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("expected a puzzle index from 0 to"));
}

#[test]
fn answers_come_before_a_later_bad_puzzle_is_read() {
    // Streaming: the puzzles before a malformed one are solved and printed, then the error
    // (located) ends the run with exit 2. The whole file used to be read first.
    let lines = sudoku_lines();
    let dir = tempfile::tempdir().unwrap();
    let text = format!("{}\n{}\n12\n", lines[0], lines[1]);
    let p = temp_file(&dir, "x.sudoku", text.as_bytes());
    for jobs in ["1", "2"] {
        let o = zeroone(&[
            "solve",
            arg(&p),
            "--backend",
            "bitset",
            "--json",
            "--jobs",
            jobs,
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let v = without_seconds(&stdout(&o));
        assert_eq!(v.len(), 2);
        assert_eq!(
            (v[0]["index"].as_u64(), v[1]["index"].as_u64()),
            (Some(0), Some(1))
        );
        assert!(stderr(&o).contains("x.sudoku:3:"), "{}", stderr(&o));
        assert!(stderr(&o).contains("puzzle 2"), "{}", stderr(&o));
    }
}

#[test]
fn jobs_give_the_same_output_in_file_order() {
    let dir = tempfile::tempdir().unwrap();
    // Enough puzzles for several windows of work at 3 threads.
    let lines = sudoku_lines();
    let many: Vec<&str> = lines.iter().cycle().take(500).map(String::as_str).collect();
    let p = temp_file(&dir, "many.sudoku", (many.join("\n") + "\n").as_bytes());
    let run = |cmd: &str, jobs: &str| {
        let mut args = vec![cmd, arg(&p), "--jobs", jobs, "--json"];
        if cmd != "show" {
            args.extend(["--backend", "bitset"]);
        }
        let o = zeroone(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let one = run("solve", "1");
    assert_eq!(one.lines().count(), 500);
    assert_eq!(without_seconds(&one), without_seconds(&run("solve", "3")));
    let one = run("count", "1");
    assert_eq!(without_seconds(&one), without_seconds(&run("count", "2")));
    assert_eq!(run("show", "1"), run("show", "3"));
    let gauss = |jobs: &str| {
        let o = zeroone(&["gauss", "models/hex-9.hex", "--jobs", jobs]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    assert_eq!(gauss("1"), gauss("2"));
}

#[test]
fn jobs_out_of_range_exit_2_with_the_range() {
    for jobs in ["0", "1025", "100000"] {
        let o = zeroone(&["solve", "models/sudoku-9x9.sudoku", "--jobs", jobs]);
        assert_eq!(o.status.code(), Some(2), "--jobs {jobs}");
        assert!(stderr(&o).contains("1..=1024"), "{}", stderr(&o));
    }
}

#[test]
fn bom_and_bad_bytes_in_puzzle_files() {
    let dir = tempfile::tempdir().unwrap();
    let line = &sudoku_lines()[0];
    let bom = temp_file(&dir, "bom.txt", format!("\u{feff}{line}\n").as_bytes());
    let o = zeroone(&["show", "--json", arg(&bom)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("\"variables\":729"), "{}", stdout(&o));
    let mut bytes = format!("{line}\n").into_bytes();
    bytes.extend_from_slice(b"..\xff\n");
    let bad = temp_file(&dir, "bad.sudoku", &bytes);
    let o = zeroone(&["show", "--json", arg(&bad)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bad.sudoku:2:3: expected UTF-8 text"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn labels_with_newlines_are_refused_before_any_export() {
    let dir = tempfile::tempdir().unwrap();
    let json = "{\"variables\": [\"a\\nMinimize\"], \"families\": [{\"name\": \"f\", \"sense\": \"exactly-one\", \"rows\": [[\"a\\nMinimize\"]]}]}";
    let p = temp_file(&dir, "m.json", json.as_bytes());
    let o = zeroone(&["export", arg(&p), "--format", "lp"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stdout(&o).is_empty());
    assert!(
        stderr(&o).contains(
            "m.json:1:16: puzzle 0: expected a variable label without control characters"
        ),
        "{}",
        stderr(&o)
    );
}
