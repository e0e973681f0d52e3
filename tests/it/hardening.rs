//! Hardening (issue 25), end to end: bounded memory on any input, no aborts from encodings,
//! honest statuses and limits, output files that names cannot break, and the errors a new
//! user meets. Each test is an adversarial case that failed before the fix.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use zeroone::backend::worker::{Job, JobTask, LimitBy, Limits, Worker};
use zeroone::backend::{BackendOptions, Status};
use zeroone::export::cnf::{Cnf, CnfOptions, PbEncoding};
use zeroone::model::{Coord, ModelBuilder, PuzzleKind, Sense};

fn exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_zeroone"))
}

fn manifest() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// What a finished run of the binary gave: exit code, standard output and error, and its wall
/// time.
pub(crate) struct Ran {
    pub(crate) code: Option<i32>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    took: Duration,
}

/// The address-space limit under which the adversarial inputs must be refused: a reader that
/// held a 256 MB line or document could not (its allocation fails: an abort, or an "out of
/// memory" error instead of the cap's message). Peak RSS is below it; measured with
/// `/usr/bin/time -f %M` the refusals peak at 12 to 45 MB. (The test cannot read the child's
/// peak RSS from `wait4`: the child inherits the high-water mark of this large test process
/// through fork.)
const CAP_MB: u64 = 128;

/// Runs the binary with `args` in `dir`, standard input from `stdin` (or nothing).
fn measured(dir: &Path, args: &[&str], stdin: Option<std::fs::File>) -> Ran {
    run_binary(dir, args, stdin, None)
}

/// [`measured`] under an address-space limit of [`CAP_MB`].
fn capped(dir: &Path, args: &[&str], stdin: Option<std::fs::File>) -> Ran {
    run_binary(dir, args, stdin, Some(CAP_MB))
}

/// Runs the binary with `args` in `dir`, standard input from `stdin` (or nothing), under an
/// address-space limit of `cap_mb` when given (inherited by the workers it starts).
pub(crate) fn run_binary(
    dir: &Path,
    args: &[&str],
    stdin: Option<std::fs::File>,
    cap_mb: Option<u64>,
) -> Ran {
    let start = Instant::now();
    let mut command = Command::new(exe());
    command
        .args(args)
        .current_dir(dir)
        .stdin(stdin.map_or_else(Stdio::null, Stdio::from))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(mb) = cap_mb {
        use std::os::unix::process::CommandExt;
        let bytes = (mb << 20) as libc::rlim_t;
        // SAFETY: setrlimit is async-signal-safe and the closure allocates nothing.
        unsafe {
            command.pre_exec(move || {
                let limit = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: bytes,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let out = command.output().unwrap();
    Ran {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        took: start.elapsed(),
    }
}

/// Expects a located refusal: exit 2, no panic, every one of `wanted` in the message, nothing
/// on standard output, within 10 s.
fn refused_bounded(ran: &Ran, what: &str, wanted: &[&str]) {
    assert_eq!(ran.code, Some(2), "{what}: {}", ran.stderr);
    assert!(!ran.stderr.contains("panicked"), "{what}: {}", ran.stderr);
    for w in wanted {
        assert!(
            ran.stderr.contains(w),
            "{what}: expected '{w}' in {}",
            ran.stderr
        );
    }
    assert!(
        ran.took < Duration::from_secs(10),
        "{what}: took {:?}",
        ran.took
    );
    assert!(ran.stdout.is_empty(), "{what}: printed {}", ran.stdout);
}

#[test]
fn dev_zero_under_any_puzzle_name_is_refused_at_its_first_line_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["sudoku", "queens", "hex", "star", "killer", "txt"] {
        let name = format!("x.{ext}");
        std::os::unix::fs::symlink("/dev/zero", dir.path().join(&name)).unwrap();
        let ran = capped(dir.path(), &["count", &name], None);
        refused_bounded(
            &ran,
            &name,
            &[&format!("{name}:1:1: "), "expected a line of at most"],
        );
    }
    for ext in ["json", "toml"] {
        let name = format!("x.{ext}");
        std::os::unix::fs::symlink("/dev/zero", dir.path().join(&name)).unwrap();
        let ran = capped(dir.path(), &["show", &name], None);
        refused_bounded(&ran, &name, &["expected a model of at most 32 MiB"]);
    }
}

#[test]
fn endless_standard_input_is_refused_in_bounded_memory() {
    let zero = std::fs::File::open("/dev/zero").unwrap();
    let ran = capped(
        manifest(),
        &["count", "-", "--format", "sudoku"],
        Some(zero),
    );
    refused_bounded(
        &ran,
        "stdin",
        &["<stdin>:1:1: ", "expected a line of at most 4096 bytes"],
    );
}

#[test]
fn one_huge_line_plain_or_gzipped_is_refused_without_holding_it() {
    let dir = tempfile::tempdir().unwrap();
    let line = vec![b'A'; 32 << 20];
    std::fs::write(dir.path().join("long.queens"), &line).unwrap();
    let ran = capped(dir.path(), &["count", "long.queens"], None);
    refused_bounded(&ran, "long.queens", &["long.queens:1:1: ", "16384 bytes"]);
    // A gzip bomb: a small file that unpacks to one 256 MB line.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    for _ in 0..8 {
        gz.write_all(&line).unwrap();
    }
    std::fs::write(dir.path().join("bomb.queens.gz"), gz.finish().unwrap()).unwrap();
    let ran = capped(dir.path(), &["count", "bomb.queens.gz"], None);
    refused_bounded(&ran, "bomb", &["bomb.queens.gz:1:1: ", "16384 bytes"]);
}

#[test]
fn a_block_of_endless_short_lines_is_refused_at_the_block_cap() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tall.queens"), "A\n".repeat(5000)).unwrap();
    std::fs::write(dir.path().join("notes.hex"), "# note\n".repeat(5000)).unwrap();
    let ran = capped(dir.path(), &["count", "tall.queens"], None);
    refused_bounded(&ran, "tall", &["tall.queens:2049:1: ", "2048 lines"]);
    let ran = capped(dir.path(), &["count", "notes.hex"], None);
    refused_bounded(&ran, "notes", &["notes.hex:2049:1: ", "2048 lines"]);
}

#[test]
fn a_gz_name_on_bytes_that_are_not_gzip_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        manifest().join("models/sudoku-4x4.sudoku"),
        dir.path().join("plain.sudoku.gz"),
    )
    .unwrap();
    let ran = measured(dir.path(), &["count", "plain.sudoku.gz"], None);
    refused_bounded(
        &ran,
        "plain.gz",
        &["expected gzip data in a file named .gz"],
    );
}

#[test]
fn two_stars_lines_in_one_star_block_are_refused_at_the_second() {
    let dir = tempfile::tempdir().unwrap();
    let text = "# stars: 1\n# stars: 2\nAABB\nAABB\nCCDD\nCCDD\n";
    std::fs::write(dir.path().join("two.star"), text).unwrap();
    let ran = measured(dir.path(), &["show", "two.star"], None);
    refused_bounded(
        &ran,
        "two.star",
        &[
            "two.star:2:",
            "one '# stars:' line per grid",
            "first is on line 1",
        ],
    );
}

const LARGE_WEIGHTS: &str = r#"{"variables":["a","b"],"families":[{"name":"w","sense":"at-least","rhs":839735460986,"rows":[["a","b"]],"weights":[[1099511627776,1000]]}]}"#;

#[test]
fn a_large_weighted_row_is_refused_by_the_adder_not_an_abort() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("w.json"), LARGE_WEIGHTS).unwrap();
    let ran = measured(
        dir.path(),
        &[
            "export",
            "w.json",
            "--format",
            "cnf",
            "--pb-encoding",
            "adder",
        ],
        None,
    );
    refused_bounded(
        &ran,
        "export",
        &["row 0 of family 'w' is too large for the adder CNF encoding"],
    );
    let ran = measured(
        dir.path(),
        &[
            "count",
            "w.json",
            "--backend",
            "sat",
            "--param",
            "pb-encoding=adder",
            "--json",
        ],
        None,
    );
    assert_eq!(ran.code, Some(1), "{}", ran.stderr);
    assert!(
        ran.stdout.contains("\"status\":\"unsupported\""),
        "{}",
        ran.stdout
    );
    assert!(
        ran.stdout.contains("too large for the adder"),
        "{}",
        ran.stdout
    );
    // The other encodings build it, and the sat backend counts it (b alone is far too light:
    // a, and a with b, make the bound).
    let ran = measured(
        dir.path(),
        &["count", "w.json", "--backend", "sat", "--json"],
        None,
    );
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert!(
        ran.stdout.contains("\"count\":\"2\"") || ran.stdout.contains("\"count\":2"),
        "{}",
        ran.stdout
    );
}

/// A small deterministic generator (no dependency on the `rand` streams for this).
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn every_encoding_of_random_large_weight_rows_is_built_or_refused_never_aborted() {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let (mut built, mut refused) = (0, 0);
    for case in 0..60 {
        let n = 2 + (next(&mut state) % 12) as usize;
        let cap = (1u64 << 53) / n as u64;
        let weights: Vec<u64> = (0..n).map(|_| 1 + next(&mut state) % cap).collect();
        let total: u64 = weights.iter().sum();
        let k = next(&mut state) % (total + 1);
        let sense = match case % 3 {
            0 => Sense::AtLeast(k),
            1 => Sense::AtMost(k),
            _ => Sense::Exactly(k),
        };
        let mut b = ModelBuilder::new("w", PuzzleKind::Generic);
        let vars: Vec<usize> = (0..n)
            .map(|i| b.variable(format!("v{i}"), Coord::Free))
            .collect();
        let f = b.family("w");
        b.weighted_row(f, vars, weights, sense);
        let Ok(model) = b.build() else { continue };
        for pb in PbEncoding::ALL {
            match Cnf::encode(
                &model,
                &CnfOptions {
                    pb,
                    ..CnfOptions::default()
                },
            ) {
                Ok(_) => built += 1,
                Err(zeroone::encode::cnf::EncodeError::EncodingTooLarge { estimate, .. }) => {
                    assert!(estimate > zeroone::export::cnf::MAX_ENCODING_SIZE);
                    refused += 1;
                }
                Err(e) => panic!("case {case} {pb}: {e}"),
            }
        }
    }
    // Both outcomes occur: the check is neither always on nor always off.
    assert!(built > 0 && refused > 0, "built {built}, refused {refused}");
}

#[test]
fn generate_refuses_count_zero_and_options_its_kind_does_not_read() {
    let dir = manifest();
    for (args, wanted) in [
        (
            &["generate", "queens", "--width", "6", "--count", "0"][..],
            "--count 0",
        ),
        (
            &["generate", "queens", "--width", "6", "--stars", "2"][..],
            "does not take --stars",
        ),
        (
            &["generate", "hex", "--width", "5", "--max-cage", "3"][..],
            "does not take --max-cage",
        ),
        (
            &["generate", "killer", "--width", "4", "--max-repairs", "3"][..],
            "does not take --max-repairs",
        ),
        // The error names the option at fault, not --width.
        (
            &["generate", "star", "--width", "8", "--stars", "3"][..],
            "--stars: ",
        ),
        (
            &["generate", "killer", "--width", "4", "--max-cage", "12"][..],
            "--max-cage: ",
        ),
    ] {
        let ran = measured(dir, args, None);
        refused_bounded(&ran, &format!("{args:?}"), &[wanted]);
    }
}

#[test]
fn generate_writes_each_board_as_it_is_found() {
    // A count that would take hours: the first boards must arrive at once, and a kill keeps
    // them.
    let mut child = Command::new(exe())
        .args([
            "generate", "hex", "--width", "7", "--count", "1000000", "--seed", "3",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut text = String::new();
    let mut buf = [0u8; 4096];
    let start = Instant::now();
    // Each board ends with its `# solution:` line; wait for two whole boards.
    let whole = |t: &str| {
        t.lines().filter(|l| l.starts_with("# solution:")).count()
            - usize::from(
                !t.ends_with('\n')
                    && t.lines()
                        .last()
                        .is_some_and(|l| l.starts_with("# solution:")),
            )
    };
    while whole(&text) < 2 && start.elapsed() < Duration::from_secs(20) {
        let n = out.read(&mut buf).unwrap();
        assert!(n > 0, "generate ended early: {text}");
        text.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let boards = whole(&text);
    assert!(boards >= 2, "{text}");
    // What arrived reads back as boards: everything up to the last whole board.
    let mut end = 0;
    let mut seen = 0;
    for line in text.split_inclusive('\n') {
        if !line.ends_with('\n') {
            break;
        }
        end += line.len();
        if line.starts_with("# solution:") {
            seen += 1;
            if seen == boards {
                break;
            }
        }
    }
    let parsed = zeroone::puzzle::parse::parse_str(
        &text[..end],
        zeroone::puzzle::parse::Format::Hex,
        "streamed.hex",
    )
    .unwrap();
    assert_eq!(parsed.len(), boards);
}

#[test]
fn limits_of_zero_mean_the_same_on_the_command_line_and_in_experiments() {
    let dir = tempfile::tempdir().unwrap();
    let ran = measured(
        manifest(),
        &["count", "models/hex-9.hex", "--time-limit", "0"],
        None,
    );
    refused_bounded(&ran, "--time-limit 0", &["above 0"]);
    let source = "[[instances]]\ngenerate = \"hex\"\nsizes = [3]\n[[backends]]\nname = \"brute\"\n";
    for (key, wanted) in [
        (
            "count_limit = 0\nkind = \"count\"\n",
            "count_limit: expected at least 1",
        ),
        ("time_limit = 0\n", "time_limit: expected a positive number"),
    ] {
        let path = dir.path().join("zero.toml");
        std::fs::write(&path, format!("{key}{source}")).unwrap();
        let ran = measured(dir.path(), &["run", "zero.toml", "-q"], None);
        refused_bounded(&ran, key, &["zero.toml:1:", wanted]);
        assert!(!dir.path().join("reports").exists());
    }
}

#[test]
fn an_approximate_count_that_ends_by_itself_is_unknown_not_limit() {
    let ran = measured(
        manifest(),
        &[
            "count",
            "models/hex-9.hex",
            "--backend",
            "vsa",
            "--code",
            "gaussian",
            "--dim",
            "2",
            "--json",
        ],
        None,
    );
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert!(
        ran.stdout.contains("\"status\":\"unknown\""),
        "{}",
        ran.stdout
    );
    assert!(!ran.stdout.contains("time limit"), "{}", ran.stdout);
    assert!(ran.stdout.contains("approximate"), "{}", ran.stdout);
}

#[test]
fn a_memory_limit_too_small_to_start_a_worker_is_refused_with_the_minimum() {
    let ran = measured(
        manifest(),
        &["count", "models/hex-9.hex", "--memory-limit", "2"],
        None,
    );
    refused_bounded(
        &ran,
        "--memory-limit 2",
        &["needs at least", "MB of address space"],
    );
    // The minimum it names works.
    let min: u64 = ran
        .stderr
        .split("needs at least ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|t| t.parse().ok())
        .unwrap();
    let ok = measured(
        manifest(),
        &[
            "count",
            "models/hex-9.hex",
            "--memory-limit",
            &(min + 8).to_string(),
        ],
        None,
    );
    assert_eq!(ok.code, Some(0), "{}", ok.stderr);
    assert!(ok.stdout.contains("1 solution"), "{}", ok.stdout);
    // The same in an experiment file: refused before anything runs.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("small.toml"),
        "memory_limit = 2\n[[instances]]\ngenerate = \"hex\"\nsizes = [3]\n[[backends]]\nname = \"brute\"\n",
    )
    .unwrap();
    let ran = measured(dir.path(), &["run", "small.toml", "-q"], None);
    refused_bounded(&ran, "memory_limit = 2", &["needs at least"]);
}

#[test]
fn a_stopped_worker_killed_by_the_parent_is_limited_by_the_parent() {
    let model = zeroone::puzzle::QueensBoard::bare(13).to_model("queens-bare-13");
    let mut worker = Worker::spawn(&exe(), Limits { memory_mb: None }).unwrap();
    let pid = worker.pid() as libc::pid_t;
    let limit = Duration::from_millis(500);
    let job = Job {
        backend: "bitset".into(),
        options: BackendOptions {
            time_limit: Some(limit),
            ..BackendOptions::default()
        },
        task: JobTask::Count { limit: None },
        model_key: "q13".into(),
        model: None,
        source: None,
        proof: None,
    };
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        // SAFETY: signalling the worker this test started (still running: its run is long).
        unsafe { libc::kill(pid, libc::SIGSTOP) };
    });
    let (result, alive) = worker.run(&job, &model, Some(limit));
    stopper.join().unwrap();
    assert!(!alive);
    assert_eq!(result.status, Status::Timeout, "{result:?}");
    assert_eq!(result.limit_by, Some(LimitBy::Parent), "{result:?}");
    assert!(
        result
            .reason
            .as_deref()
            .unwrap_or("")
            .contains("did not stop"),
        "{result:?}"
    );
}

#[test]
fn names_with_newlines_and_pipes_stay_inside_their_line_in_every_export() {
    let dir = tempfile::tempdir().unwrap();
    let name = "a,b\"c|d\ne<x>&y\n## injected.json";
    std::fs::copy(
        manifest().join("models/exact-cover.json"),
        dir.path().join(name),
    )
    .unwrap();
    for format in ["lp", "mps", "opb", "cnf"] {
        let ran = measured(dir.path(), &["export", name, "--format", format], None);
        assert_eq!(ran.code, Some(0), "{format}: {}", ran.stderr);
        let comment = match format {
            "lp" => "\\",
            "cnf" => "c",
            _ => "*",
        };
        let line = ran
            .stdout
            .lines()
            .find(|l| l.contains("zeroone model"))
            .unwrap_or_else(|| panic!("{format}: {}", ran.stdout));
        assert!(line.starts_with(comment), "{format}: {line}");
        assert!(
            line.contains("a,b\"c|d\\ne<x>&y\\n## injected"),
            "{format}: {line}"
        );
        assert!(
            !ran.stdout
                .lines()
                .any(|l| l.starts_with("e<x>") || l.starts_with("## ")),
            "{format}"
        );
    }
    // A file name in a Markdown table heading (`zeroone table FILE`).
    let hex = "h|x\n## injected.hex";
    std::fs::copy(manifest().join("models/hex-5.hex"), dir.path().join(hex)).unwrap();
    let ran = measured(dir.path(), &["table", hex], None);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert!(
        !ran.stdout.lines().any(|l| l.starts_with("## injected")),
        "{}",
        ran.stdout
    );
    assert!(ran.stdout.contains("h\\|x\\n## injected"), "{}", ran.stdout);
}

#[test]
fn labels_with_pipes_and_markup_stay_inside_their_report_cells() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("e.toml"),
        "[[instances]]\ngenerate = \"hex\"\nsizes = [3]\n[[backends]]\nname = \"brute\"\nlabel = \"s|a,t\\\"x <x>&y\\n## injected\"\n",
    )
    .unwrap();
    let ran = measured(dir.path(), &["run", "e.toml", "-q"], None);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let md = std::fs::read_to_string(dir.path().join("reports/e.md")).unwrap();
    assert!(!md.lines().any(|l| l.starts_with("## injected")), "{md}");
    let row = md
        .lines()
        .find(|l| l.starts_with("| `s\\|a,t\"x"))
        .unwrap_or_else(|| panic!("{md}"));
    // The status table has 12 columns: 13 unescaped pipes.
    let cells = row.replace("\\|", "").matches('|').count();
    assert_eq!(cells, 13, "{row}");
}

#[test]
fn report_is_refused_while_a_run_holds_the_records() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("e.toml"),
        "[[instances]]\ngenerate = \"hex\"\nsizes = [3]\n[[backends]]\nname = \"brute\"\n",
    )
    .unwrap();
    let ran = measured(dir.path(), &["run", "e.toml", "-q"], None);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    let records = dir.path().join("reports/e.jsonl");
    let md = dir.path().join("reports/e.md");
    std::fs::remove_file(&md).unwrap();
    let held = zeroone::harness::record::RecordLock::acquire(&records).unwrap();
    let ran = measured(dir.path(), &["report", "e.toml"], None);
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(ran.stderr.contains("pid"), "{}", ran.stderr);
    assert!(!md.exists(), "no report is written while the lock is held");
    drop(held);
    let ran = measured(dir.path(), &["report", "e.toml"], None);
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert!(md.exists());
}

#[test]
fn records_are_found_beside_the_experiment_wherever_the_command_runs() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("study");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(
        sub.join("e.toml"),
        "[[instances]]\ngenerate = \"hex\"\nsizes = [3, 5]\n[[backends]]\nname = \"brute\"\n",
    )
    .unwrap();
    let first = measured(
        dir.path(),
        &["run", "study/e.toml", "-q", "--max-runs", "1"],
        None,
    );
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    assert!(sub.join("reports/e.jsonl").is_file());
    // From another folder: the same records, one already on record.
    let other = dir.path().join("elsewhere");
    std::fs::create_dir(&other).unwrap();
    let again = measured(&other, &["run", "../study/e.toml", "-q", "--resume"], None);
    assert_eq!(again.code, Some(0), "{}", again.stderr);
    assert!(
        again.stderr.contains("1 already on record, 1 run now"),
        "{}",
        again.stderr
    );
    assert!(!other.join("reports").exists());
    // The shipped experiments keep the top-level reports/.
    let quick =
        zeroone::harness::Experiment::load(&manifest().join("experiments/quick.toml")).unwrap();
    assert_eq!(quick.reports_dir, manifest().join("reports"));
}

#[test]
fn newcomer_errors_suggest_the_name_meant_and_missing_files_are_exit_2() {
    let m = manifest();
    for (args, wanted) in [
        (
            &["count", "models/hex-9.hex", "--backend", "bitst"][..],
            "did you mean 'bitset'?",
        ),
        (
            &[
                "count",
                "models/hex-9.hex",
                "--backend",
                "enum",
                "--param",
                "ordr=mrv",
            ][..],
            "did you mean 'order'?",
        ),
        (&["run", "nosuch.toml"][..], "nosuch.toml"),
        (
            &["solv", "models/hex-9.hex"][..],
            "a similar subcommand exists: 'solve'",
        ),
        (
            &["count", "models/hex-9.hex", "--order", "mrv"][..],
            "does not take option 'order'",
        ),
    ] {
        let ran = measured(m, args, None);
        refused_bounded(&ran, &format!("{args:?}"), &[wanted]);
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("ge.json"),
        r#"{"variables":["a","b"],"families":[{"name":"x","sense":">=","rhs":1,"rows":[["a","b"]]}]}"#,
    )
    .unwrap();
    let ran = measured(dir.path(), &["show", "ge.json"], None);
    refused_bounded(
        &ran,
        "sense >=",
        &["expected a sense", "write \"at-least\"", "found '>='"],
    );
    assert!(!ran.stderr.contains("expected unknown"), "{}", ran.stderr);
    std::fs::write(
        dir.path().join("typo.toml"),
        "repetition = 2\n[[instances]]\ngenerate = \"hex\"\nsizes = [3]\n[[backends]]\nname = \"brute\"\n",
    )
    .unwrap();
    let ran = measured(dir.path(), &["run", "typo.toml"], None);
    refused_bounded(&ran, "typo key", &["did you mean 'repetitions'?"]);
}

#[test]
fn version_names_the_commit_and_completions_are_printed_for_each_shell() {
    let ran = measured(manifest(), &["--version"], None);
    assert_eq!(ran.code, Some(0));
    assert!(
        ran.stdout.contains(zeroone::build_info::COMMIT),
        "{}",
        ran.stdout
    );
    // Never a stale commit: the binary names the checkout's HEAD (when built in one).
    if let Ok(out) = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(manifest())
        .output()
    {
        let head = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if out.status.success() && zeroone::build_info::COMMIT != "unknown" {
            assert!(
                ran.stdout.contains(&head),
                "{} is not HEAD {head}",
                ran.stdout
            );
        }
    }
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef zeroone"),
        ("fish", "complete -c zeroone"),
    ] {
        let ran = measured(manifest(), &["completions", shell], None);
        assert_eq!(ran.code, Some(0), "{shell}: {}", ran.stderr);
        assert!(ran.stdout.contains(marker), "{shell}");
        assert!(ran.stdout.contains("generate"), "{shell}");
    }
}

#[test]
fn a_long_count_says_it_is_still_counting() {
    // A MILP count of many solutions: one solve per solution, seconds in all.
    let ran = measured(
        manifest(),
        &[
            "count",
            "models/hex-bare.hex",
            "--index",
            "4",
            "--backend",
            "milp",
            "--limit",
            "100",
            "--progress",
            "0.1",
        ],
        None,
    );
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert!(
        ran.stderr.contains("still counting puzzle 4 with milp"),
        "took {:?}: {}",
        ran.took,
        ran.stderr
    );
}

#[test]
fn dp_takes_its_documented_memory_limit_parameter() {
    let ran = measured(
        manifest(),
        &[
            "count",
            "models/hex-9.hex",
            "--backend",
            "dp",
            "--param",
            "memory-limit=1G",
            "--json",
        ],
        None,
    );
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert!(
        ran.stdout.contains("\"count\":\"1\"") || ran.stdout.contains("\"count\":1"),
        "{}",
        ran.stdout
    );
    let ran = measured(
        manifest(),
        &[
            "count",
            "models/hex-9.hex",
            "--backend",
            "dp",
            "--param",
            "memory-limit=lots",
        ],
        None,
    );
    assert_eq!(ran.code, Some(2), "{}", ran.stderr);
    assert!(ran.stderr.contains("memory-limit"), "{}", ran.stderr);
}

#[test]
fn the_main_job_writes_only_files_git_ignores() {
    // `cargo run --release -- run experiments/quick.toml --fresh` must leave `git status`
    // clean: its outputs are neither tracked nor reported as untracked. Outside a git checkout
    // (the standalone-copy CI run) there is nothing to check.
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .current_dir(manifest())
            .output()
            .ok()
            .filter(|o| o.status.success())
    };
    let Some(tracked) = git(&["ls-files", "reports/quick.*"]) else {
        return;
    };
    assert!(
        tracked.stdout.is_empty(),
        "tracked: {}",
        String::from_utf8_lossy(&tracked.stdout)
    );
    let quick =
        zeroone::harness::Experiment::load(&manifest().join("experiments/quick.toml")).unwrap();
    for file in [
        "md",
        "csv",
        "jsonl",
        "jsonl.lock",
        "cactus-gen-hex-9.svg",
        "scatter.svg",
    ] {
        let path = quick.reports_dir.join(format!("quick.{file}"));
        let path = path
            .strip_prefix(manifest())
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        assert!(
            git(&["check-ignore", "-q", "--no-index", &path]).is_some(),
            "{path} is not ignored"
        );
    }
}

#[test]
fn dev_zero_as_a_record_file_or_an_experiment_is_refused_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("e.toml"),
        "[[instances]]\ngenerate = \"hex\"\nsizes = [3]\n[[backends]]\nname = \"brute\"\n",
    )
    .unwrap();
    let ran = capped(dir.path(), &["merge", "e.toml", "/dev/zero"], None);
    refused_bounded(&ran, "merge /dev/zero", &["/dev/zero:1: ", "longer than"]);
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.toml")).unwrap();
    let ran = capped(dir.path(), &["run", "zero.toml"], None);
    refused_bounded(&ran, "run zero.toml", &["at most 1 MiB"]);
}

#[test]
fn a_hundred_thousand_unconstrained_variables_abort_no_backend() {
    // Issue 35, item 2: 19 bytes declaring 100,000 variables, one of them in a clause. enum
    // overflowed its stack (exit 134) from 20,000, bitset held variables^2 bits (2.5 GB here),
    // xcc gave every variable a slack item (1.2 GB at 10,000). Every backend, in-process,
    // under a 2 GB address space: an answer, or a clean refusal; never an abort or a panic.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("free.cnf"), "p cnf 100000 1\n1 0\n").unwrap();
    for info in zeroone::backend::registry() {
        let args = ["solve", "free.cnf", "--backend", info.name, "--json"];
        let ran = run_binary(dir.path(), &args, None, Some(2048));
        let what = format!("{}: {}", info.name, ran.stderr);
        assert!(!ran.stderr.contains("panicked"), "{what}");
        assert!(!ran.stderr.contains("memory allocation"), "{what}");
        match ran.code {
            // Answered (solved, or gauss's honest unknown), or a puzzle failed (unsupported).
            Some(0 | 1) => {
                let line = ran.stdout.lines().last().unwrap_or_default();
                let record: serde_json::Value = serde_json::from_str(line).expect(&what);
                let status = record["status"].as_str().unwrap_or_default();
                assert!(
                    ["solved", "unknown", "unsupported"].contains(&status),
                    "{}: status {status}",
                    info.name
                );
                if status == "solved" {
                    assert_eq!(record["verified"], true, "{what}");
                    let ones = record["ones"].as_array().expect(&what);
                    assert!(ones.iter().any(|o| o == "x1"), "{}: x1 unset", info.name);
                }
            }
            // Refused as a whole (dp counts only).
            Some(2) => assert!(ran.stderr.contains("cannot solve"), "{what}"),
            code => panic!("{}: exit {code:?}; {}", info.name, ran.stderr),
        }
    }
}
