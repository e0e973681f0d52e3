//! Fuzzing the option parser: random command lines (subcommands, known and unknown flags,
//! plausible and absurd values, random `--param` keys) run through the binary. Whatever comes in,
//! the program ends by itself with status 0 (success), 1 (a run that failed) or 2 (bad input),
//! never by a signal (abort), never with a panic message, and within a time bound.
//!
//! The inputs are the small shipped models, so a valid command line runs in well under a second;
//! the bound catches options that make the program work for minutes (`--jobs 100000`).

#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use proptest::prelude::*;

/// Longest a single command line may take (the slowest valid ones here take about a second in
/// a debug build).
const BOUND: Duration = Duration::from_secs(60);

/// Numbers around every limit, and values that are no number at all.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "5",
    "7",
    "-1",
    "-0",
    "0.5",
    "1e20",
    "1e300",
    "NaN",
    "inf",
    "-inf",
    "",
    "abc",
    "1024",
    "1025",
    "100000",
    "99999999999",
    "18446744073709551616",
    "31536001",
    "٣",
    "1-3",
    "3-1",
    "1-99999999999",
    "1,3,5",
    " 4 ",
];

const FILES: &[&str] = &[
    "models/sudoku4.txt",
    "models/hex-5.hex",
    "models/queens-bare.queens",
    "models/latin-3.toml",
    "models/exact-cover.json",
    "examples/formats/knapsack.opb",
    "examples/formats/cycle4.cnf",
    "examples/formats/pick.lp",
    "examples/formats/pick.mps",
    "examples/formats/colours.xcc",
    "data/cnf/php-4.cnf",
    "no/such/file.hex",
];

const BACKENDS: &[&str] = &[
    "brute", "enum", "dp", "gauss", "milp", "sat", "bitset", "vsa", "nosuch", "",
];

const PARAM_KEYS: &[&str] = &[
    "relax",
    "relaxx",
    "order",
    "ordr",
    "dim",
    "code",
    "slots",
    "refresh",
    "families",
    "threads",
    "coordinate",
    "pairwise-up-to",
    "x",
    "",
    " ",
    "=",
];

const PARAM_VALUES: &[&str] = &[
    "true", "false", "mrv", "fixed", "0", "1", "64", "1e300", "-5", "unitary", "all", "row", "",
];

/// One option and its value(s), as separate arguments.
fn solve_option() -> impl Strategy<Value = Vec<String>> {
    let number = prop::sample::select(NUMBERS);
    prop_oneof![
        prop::sample::select(BACKENDS).prop_map(|b| vec!["--backend".into(), b.into()]),
        number
            .clone()
            .prop_map(|n| vec![format!("--time-limit={n}")]),
        number.clone().prop_map(|n| vec![format!("--seed={n}")]),
        number.clone().prop_map(|n| vec![format!("--dim={n}")]),
        number.clone().prop_map(|n| vec![format!("--index={n}")]),
        number.clone().prop_map(|n| vec![format!("--limit={n}")]),
        prop::sample::select(&["gaussian", "unitary", "binary"][..])
            .prop_map(|c| vec!["--code".into(), c.into()]),
        Just(vec!["--relax".to_string()]),
        Just(vec!["--json".to_string()]),
        prop::sample::select(&["fixed", "mrv", "random"][..])
            .prop_map(|o| vec!["--order".into(), o.into()]),
        prop::sample::select(&["row", "row,diag", "colour", "nosuch", ""][..])
            .prop_map(|f| vec![format!("--families={f}")]),
        (
            prop::sample::select(PARAM_KEYS),
            prop::sample::select(PARAM_VALUES)
        )
            .prop_map(|(k, v)| vec!["--param".into(), format!("{k}={v}")]),
        "[a-z-]{1,12}".prop_map(|f| vec![format!("--{f}")]),
    ]
}

/// A `solve` or `count` command line on a small model.
fn solve_line() -> impl Strategy<Value = Vec<String>> {
    (
        prop::sample::select(&["solve", "count"][..]),
        prop::sample::select(FILES),
        prop::collection::vec(solve_option(), 0..6),
    )
        .prop_map(|(cmd, file, options)| {
            let mut line = vec![cmd.to_string(), file.to_string()];
            line.extend(options.into_iter().flatten());
            line
        })
}

/// A `table` command line: widths and sizes small enough to count fast, or out of range.
fn table_line() -> impl Strategy<Value = Vec<String>> {
    let small = prop::sample::select(
        &[
            "0",
            "1",
            "3",
            "5",
            "1-5",
            "5-1",
            "1,3",
            "",
            "x",
            "1-99999999999",
            "99999999999",
            "-2",
            "1-1001",
            "18446744073709551616",
        ][..],
    );
    (
        prop::sample::select(&["hex", "queens", "sudoku", "models/hex-5.hex", "nosuch"][..]),
        prop::sample::select(&["--width", "--widths", "--size", "--sizes", "--grid"][..]),
        small,
        prop::sample::select(&["md", "csv", "json", "xml"][..]),
    )
        .prop_map(|(what, flag, value, format)| {
            vec![
                "table".into(),
                what.into(),
                format!("{flag}={value}"),
                format!("--format={format}"),
            ]
        })
}

/// A `generate` or `run` command line whose valid forms stay small.
fn other_line() -> impl Strategy<Value = Vec<String>> {
    let number = prop::sample::select(NUMBERS);
    prop_oneof![
        (
            prop::sample::select(&["hex", "queens", "sudoku"][..]),
            prop::sample::select(&["0", "1", "3", "5", "52", "99999999999", "-1"][..]),
            prop::sample::select(&["0", "1", "2"][..]),
            number.clone()
        )
            .prop_map(|(kind, width, count, seed)| vec![
                "generate".into(),
                kind.into(),
                format!("--width={width}"),
                format!("--count={count}"),
                format!("--seed={seed}"),
                "--max-attempts=20".into(),
            ]),
        (
            prop::sample::select(
                &[
                    "experiments/smoke.toml",
                    "experiments/nosuch.toml",
                    "models/sudoku4.txt",
                    "models/latin-3.toml"
                ][..]
            ),
            number
        )
            .prop_map(|(file, jobs)| vec![
                "run".into(),
                file.into(),
                format!("--jobs={jobs}"),
                "--max-runs=2".into(),
                "--reports=out".into(),
                "--quiet".into(),
            ]),
    ]
}

/// Runs `args` in a fresh folder (so nothing lands in the checkout), killing it past `BOUND`.
/// Returns the exit code, or a description of what went wrong.
fn run(args: &[String]) -> Result<i32, String> {
    let dir = tempfile::tempdir().unwrap();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    // No copies: the relative paths resolve through links to the checkout's folders.
    for sub in ["models", "experiments", "data"] {
        std::os::unix::fs::symlink(manifest.join(sub), dir.path().join(sub)).unwrap();
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            use std::io::Read;
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            if err.contains("panicked") {
                return Err(format!("panic: {err}"));
            }
            return status
                .code()
                .ok_or_else(|| format!("killed by a signal: {status:?} {err}"));
        }
        if start.elapsed() > BOUND {
            child.kill().ok();
            child.wait().ok();
            return Err(format!("still running after {BOUND:?}"));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_command_lines_end_with_0_1_or_2_and_never_panic(
        line in prop_oneof![3 => solve_line(), 1 => table_line(), 1 => other_line()]
    ) {
        match run(&line) {
            Ok(code) => prop_assert!([0, 1, 2].contains(&code), "{line:?}: exit {code}"),
            Err(e) => prop_assert!(false, "{line:?}: {e}"),
        }
    }
}
