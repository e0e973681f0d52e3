//! The `export` and `generate` commands end to end: generated boards are read back by the
//! puzzle reader and checked by four independent searches (the `sat`, `enum` and `milp`
//! backends and the generator's counter, all verified) against the printed solution;
//! exports of the shipped models land whole in files; bad input exits 2 and writes nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use zeroone::backend::{count_verified, make_backend, BackendOptions, Status};
use zeroone::model::verify::Verifier;
use zeroone::model::Solution;
use zeroone::puzzle::generate::counter::count_solutions;
use zeroone::puzzle::parse::{parse_str, Format};
use zeroone::puzzle::HexBoard;

fn zeroone(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .output()
        .expect("run zeroone")
}

fn model_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("models")
        .join(name)
}

/// Runs `zeroone generate`, reads the boards back and checks each has exactly one solution,
/// the one on its `# solution:` line, by both counters. Returns the output text.
fn generate_and_check(kind: &str, width: usize, count: usize, seed: u64) -> String {
    let out = zeroone(&[
        "generate",
        kind,
        "--width",
        &width.to_string(),
        "--count",
        &count.to_string(),
        "--seed",
        &seed.to_string(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let format = if kind == "hex" {
        Format::Hex
    } else {
        Format::Queens
    };
    let puzzles = parse_str(&text, format, "generated").unwrap();
    assert_eq!(puzzles.len(), count, "{kind} {width}");
    let printed: Vec<Vec<usize>> = text
        .lines()
        .filter_map(|l| l.strip_prefix("# solution: "))
        .map(|l| l.split(' ').map(|c| c.parse().unwrap()).collect())
        .collect();
    assert_eq!(printed.len(), count);
    assert_eq!(text.matches("# attempts: ").count(), count);
    let mut backends: Vec<_> = ["sat", "enum", "milp", "vsa"]
        .iter()
        .map(|name| make_backend(name, &BackendOptions::default()).unwrap())
        .collect();
    for (i, (puzzle, cols)) in puzzles.iter().zip(&printed).enumerate() {
        let model = puzzle.to_model(format!("{kind}-{width}-{i}")).unwrap();
        if let Some(b) = puzzle.board_as::<HexBoard>() {
            assert_eq!(b.regions().map(|r| r.len()), Some(width));
        }
        // The printed solution, as variable ids (row-major cells, position within the row).
        let mut start = 0;
        let mut ones = Vec::new();
        for (row, &col) in cols.iter().enumerate() {
            ones.push(start + col);
            start += model
                .variables()
                .iter()
                .filter(
                    |v| matches!(v.coord, zeroone::model::Coord::Cell { row: r, .. } if r == row),
                )
                .count();
        }
        let printed_solution = Solution::new(ones);
        Verifier::new(&model).check(&printed_solution).unwrap();
        for backend in backends.iter_mut() {
            let what = format!("{} on board {i}", backend.name());
            let counted = count_verified(backend.as_mut(), &model, Some(2)).unwrap();
            assert_eq!(counted.status, Status::Solved, "{what}");
            assert_eq!(
                (counted.count.to_u128().unwrap(), counted.exhaustive),
                (1, true),
                "{what}"
            );
            let solved = zeroone::backend::solve_verified(backend.as_mut(), &model).unwrap();
            assert_eq!(solved.solution.as_ref(), Some(&printed_solution), "{what}");
        }
        let own = count_solutions(&model, u64::MAX).unwrap();
        assert_eq!((own.count, own.exhaustive), (1, true), "board {i}");
        assert_eq!(own.solutions[0], printed_solution, "board {i}");
    }
    text
}

#[test]
fn generate_hex_width_9_prints_20_unique_boards() {
    let text = generate_and_check("hex", 9, 20, 1);
    assert_eq!(
        text,
        generate_and_check("hex", 9, 20, 1),
        "same seed, same boards"
    );
    let boards: std::collections::BTreeSet<&str> = text.split("\n\n").collect();
    assert_eq!(boards.len(), 20);
}

#[test]
fn generate_hex_widths_7_and_11() {
    generate_and_check("hex", 7, 20, 1);
    generate_and_check("hex", 11, 20, 1);
}

#[test]
fn generate_queens_8_to_10() {
    let count = 20;
    for width in [8, 9, 10] {
        generate_and_check("queens", width, count, 1);
    }
}

#[test]
fn generate_refuses_bad_widths_with_exit_2() {
    for args in [
        ["generate", "hex", "--width", "8"],
        ["generate", "queens", "--width", "3"],
        ["generate", "hex", "--width", "0"],
    ] {
        let out = zeroone(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        assert!(String::from_utf8_lossy(&out.stderr).contains("--width"));
    }
}

#[test]
fn every_format_of_every_shipped_kind_is_written_whole() {
    let dir = tempfile::tempdir().unwrap();
    for (file, index) in [
        ("hex-9.hex", "0"),
        ("queens-capybaradoku.queens", "0"),
        ("sudoku-9x9.sudoku", "0"),
    ] {
        for format in ["lp", "mps", "opb", "cnf", "json"] {
            let path = dir.path().join(format!("{file}.{format}"));
            let out = zeroone(&[
                "export",
                model_file(file).to_str().unwrap(),
                "--index",
                index,
                "--format",
                format,
                "--output",
                path.to_str().unwrap(),
            ]);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let text = std::fs::read_to_string(&path).unwrap();
            let last = text.lines().last().unwrap();
            let ends_right = match format {
                "lp" => last == "End",
                "mps" => last == "ENDATA",
                "opb" | "cnf" => last.ends_with(';') || last.ends_with(" 0"),
                _ => last == "}",
            };
            assert!(ends_right, "{file} {format}: ends with {last:?}");
            // The same text on standard output.
            let out = zeroone(&[
                "export",
                model_file(file).to_str().unwrap(),
                "--index",
                index,
                "--format",
                format,
            ]);
            assert_eq!(String::from_utf8(out.stdout).unwrap(), text);
        }
    }
    // Only the files asked for, no temporary files left.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 15);
}

#[test]
fn a_folder_gets_one_file_per_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let out = zeroone(&[
        "export",
        model_file("sudoku-4x4.sudoku").to_str().unwrap(),
        "--format",
        "cnf",
        "--output",
        dir.path().to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let puzzles = parse_str(
        &std::fs::read_to_string(model_file("sudoku-4x4.sudoku")).unwrap(),
        Format::Sudoku,
        "s",
    )
    .unwrap()
    .len();
    let expected: Vec<String> = (0..puzzles)
        .map(|i| format!("sudoku-4x4-{i}.cnf"))
        .collect();
    assert_eq!(names, expected);
}

#[test]
fn bad_export_requests_exit_2_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("out.lp");
    let t = target.to_str().unwrap();
    let bad_file = dir.path().join("bad.hex");
    std::fs::write(&bad_file, "A A\nA A A\n").unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec![
            "export",
            bad_file.to_str().unwrap(),
            "--format",
            "lp",
            "--output",
            t,
        ],
        vec![
            "export",
            "models/hex-9.hex",
            "--format",
            "xlsx",
            "--output",
            t,
        ],
        vec![
            "export",
            "models/sudoku-4x4.sudoku",
            "--format",
            "lp",
            "--output",
            t,
        ],
        vec![
            "export",
            "models/hex-9.hex",
            "--index",
            "7",
            "--format",
            "lp",
            "--output",
            t,
        ],
    ];
    for args in cases {
        let args: Vec<String> = args
            .iter()
            .map(|a| match a.strip_prefix("models/") {
                Some(name) => model_file(name).to_string_lossy().into_owned(),
                None => a.to_string(),
            })
            .collect();
        let args: Vec<&str> = args.iter().map(|s| s.as_str()).collect();
        let out = zeroone(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!String::from_utf8_lossy(&out.stderr).is_empty());
        assert!(!target.exists(), "{args:?} wrote a file");
    }
    // A folder that does not exist: the write fails (exit 1) and leaves nothing behind.
    let missing = dir.path().join("nowhere").join("out.lp");
    let out = zeroone(&[
        "export",
        model_file("hex-9.hex").to_str().unwrap(),
        "--format",
        "lp",
        "--output",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!missing.exists());
}

/// Solutions of DIMACS `text` over its first `n` variables, by varisat with blocking clauses.
fn count_dimacs(text: &str, n: usize) -> usize {
    use varisat::{ExtendFormula, Lit};
    let mut solver = varisat::Solver::new();
    solver.add_dimacs_cnf(text.as_bytes()).unwrap();
    let mut count = 0;
    while solver.solve().unwrap() {
        let model = solver.model().unwrap();
        let block: Vec<Lit> = model
            .iter()
            .filter(|l| l.index() < n)
            .map(|&l| !l)
            .collect();
        solver.add_clause(&block);
        count += 1;
    }
    count
}

#[test]
fn general_rows_export_to_cnf_with_each_pb_encoding() {
    // models/subset-sum.toml: 43 subsets of {1..12} summing to 20 with at least 3 elements.
    let file = model_file("subset-sum.toml");
    let file = file.to_str().unwrap();
    for pb in ["gte", "dpw", "adder"] {
        let out = zeroone(&["export", file, "--format", "cnf", "--pb-encoding", pb]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(&format!(
            "c general rows: 1 cardinality (totalizer), 1 weighted ({pb})\n"
        )));
        assert_eq!(count_dimacs(&text, 12), 43, "{pb}");
    }
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("out.cnf");
    let out = zeroone(&[
        "export",
        file,
        "--format",
        "cnf",
        "--pb-encoding",
        "bdd",
        "--output",
        target.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("gte, dpw, adder"));
    assert!(!target.exists());
}

/// Every registered backend (other than brute force, which is too small for width 9) either
/// solves each generated width-9 board with the printed solution or says it cannot (unknown,
/// or no solve ability); counters find exactly one. Backends that land later are covered as
/// they join the registry.
#[test]
fn every_registered_backend_agrees_on_generated_width_9_boards() {
    let out = zeroone(&[
        "generate", "hex", "--width", "9", "--count", "5", "--seed", "1",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    let puzzles = parse_str(&text, Format::Hex, "generated").unwrap();
    let models: Vec<_> = puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| p.to_model(format!("hex-9-{i}")).unwrap())
        .collect();
    let reference: Vec<Solution> = models
        .iter()
        .map(|m| {
            let r = count_solutions(m, 2).unwrap();
            assert_eq!(r.count, 1);
            r.solutions[0].clone()
        })
        .collect();
    let mut checked = Vec::new();
    for info in zeroone::backend::registry() {
        if info.name == "brute" {
            continue;
        }
        let mut backend = (info.make)(&BackendOptions::default()).unwrap();
        for (m, expected) in models.iter().zip(&reference) {
            let what = format!("{} on {}", info.name, m.name());
            if backend.solver().is_some() {
                let o = zeroone::backend::solve_verified(backend.as_mut(), m).unwrap();
                match o.status {
                    Status::Solved => assert_eq!(o.solution.as_ref(), Some(expected), "{what}"),
                    Status::Unknown => {}
                    s => panic!("{what}: {s:?} {:?}", o.reason),
                }
            }
            if backend.counter().is_some() {
                let c = count_verified(backend.as_mut(), m, Some(2)).unwrap();
                // A count cut short (at the limit or a time limit) is `limit`.
                let status = if c.exhaustive {
                    Status::Solved
                } else {
                    Status::Limit
                };
                assert_eq!(c.status, status, "{what}: {:?}", c.reason);
                if c.exhaustive {
                    assert_eq!(c.count, 1, "{what}");
                }
            }
        }
        checked.push(info.name);
    }
    assert!(checked.contains(&"sat"));
}
