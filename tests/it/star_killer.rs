//! Star Battle and Killer Sudoku end to end: the shipped examples are solved and counted by
//! every backend that claims their models (rows_supported Ok), each answer verified; a Queens
//! level read as a 1-star Star Battle has the same model and the same solution; the counts of
//! the generators' own counters and of the table's dynamic programme agree with the backends.

use std::path::Path;

use zeroone::backend::{
    count_verified, make_backend, registry, solve_verified, Backend, BackendOptions, Status,
};
use zeroone::model::{Model, Solution};
use zeroone::puzzle::kinds::killer::{self, KillerBoard};
use zeroone::puzzle::kinds::star::{self, search, StarBoard};
use zeroone::puzzle::parse::{parse_str, Format};
use zeroone::puzzle::QueensBoard;

fn text(path: &str) -> String {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// Backends too slow to count these models in a debug build, or incomplete by design: they
/// still solve them when they claim them (`gauss` is incomplete and only reports).
const NO_COUNT: [&str; 2] = ["gauss", "brute"];

/// Every registered backend that claims `model`; each must count `expected` solutions (stopped
/// at `limit`) and solve it verified to `unique` when given. Returns who claimed it.
fn every_claiming_backend(model: &Model, expected: u128, unique: Option<&Solution>) -> Vec<String> {
    every_claiming_backend_but(model, expected, unique, &[])
}

/// [`every_claiming_backend`] without the backends in `skip`.
fn every_claiming_backend_but(
    model: &Model,
    expected: u128,
    unique: Option<&Solution>,
    skip: &[&str],
) -> Vec<String> {
    let mut claimed = Vec::new();
    for info in registry().into_iter().filter(|i| !skip.contains(&i.name)) {
        let Ok(mut backend) = make_backend(info.name, &BackendOptions::default()) else {
            continue;
        };
        if backend.rows_supported(model).is_err() {
            continue;
        }
        let name = info.name;
        let mut took = false;
        if backend.solver().is_some() && name != "gauss" {
            let solved = solve_verified(backend.as_mut(), model).unwrap();
            if !(solved.status == Status::Unsupported && name == "brute") {
                assert_eq!(solved.status, Status::Solved, "{name}: {:?}", solved.reason);
                assert!(solved.verified, "{name}");
                if let Some(u) = unique {
                    assert_eq!(solved.solution.as_ref(), Some(u), "{name}");
                }
                took = true;
            }
        }
        if backend.counter().is_some() && !NO_COUNT.contains(&name) {
            let counted = count_verified(backend.as_mut(), model, None).unwrap();
            assert_eq!(
                counted.status,
                Status::Solved,
                "{name}: {:?}",
                counted.reason
            );
            assert_eq!(counted.count, expected, "{name} on {}", model.name());
            took = true;
        }
        if took {
            claimed.push(name.to_string());
        }
    }
    claimed
}

fn count_with(name: &str, model: &Model) -> Option<u128> {
    let mut backend: Box<dyn Backend> = make_backend(name, &BackendOptions::default()).ok()?;
    backend.rows_supported(model).ok()?;
    let counted = count_verified(backend.as_mut(), model, None).unwrap();
    assert_eq!(
        counted.status,
        Status::Solved,
        "{name}: {:?}",
        counted.reason
    );
    Some(counted.count.to_u128().unwrap())
}

#[test]
fn queens_levels_read_as_one_star_battles_keep_their_solutions() {
    let raw = text("data/queens/capybaradoku_levels.txt");
    let stars = star::file::read_str(&raw, "capybaradoku.star").unwrap();
    let queens = parse_str(&raw, Format::Queens, "capybaradoku.queens").unwrap();
    assert_eq!(stars.len(), queens.len());
    for (s, q) in stars.iter().zip(&queens).take(20) {
        let Some(q) = q.board_as::<QueensBoard>() else {
            panic!("not a Queens grid")
        };
        assert_eq!(s, &StarBoard::from_queens(q));
        let (sm, qm) = (s.to_model("star"), q.to_model("queens"));
        // The same rows, in the same families: the same solutions, whatever the backend.
        assert_eq!(sm.constraints(), qm.constraints());
        assert!(sm.is_exact_cover());
        let own = search::count(s, None);
        assert_eq!((own.count, own.exhaustive), (1, true));
        let mut bitset = make_backend("bitset", &BackendOptions::default()).unwrap();
        let solved = solve_verified(bitset.as_mut(), &qm).unwrap();
        assert_eq!(solved.solution, Some(s.solution_of(&own.solutions[0])));
    }
}

#[test]
fn the_generated_two_star_battles_have_one_solution_for_every_backend() {
    let boards = star::file::read_str(&text("models/star-10x10-2.star"), "star.star").unwrap();
    assert!(!boards.is_empty());
    for (i, board) in boards.iter().enumerate() {
        assert_eq!((board.size(), board.stars()), (10, 2));
        let known = board
            .known_solution
            .clone()
            .expect("generated with its solution");
        let own = search::count(board, None);
        assert_eq!((own.count, own.exhaustive), (1, true));
        assert_eq!(own.solutions[0], known);
        let model = board.to_model(format!("star#{i}"));
        assert_eq!(model.num_variables(), 100);
        let claimed = every_claiming_backend(&model, 1, Some(&board.solution_of(&known)));
        assert!(claimed.len() >= 2, "claimed only by {claimed:?}");
    }
}

#[test]
fn bare_two_star_counts_agree_with_the_dynamic_programme() {
    for n in [8, 9] {
        let board = StarBoard::bare(n, 2);
        let model = board.to_model(format!("bare-{n}"));
        let own = search::count(&board, None).count as u128;
        let dp: u128 = star::table::no_touching_count(n, 2).try_into().unwrap();
        assert_eq!(own, dp);
        assert_eq!(own, if n == 8 { 2 } else { 664 });
        for name in ["bitset", "sat", "enum", "milp"] {
            if n == 9 && name == "milp" {
                continue; // counts by one cut per solution: 664 solves
            }
            if let Some(c) = count_with(name, &model) {
                assert_eq!(c, own, "{name} on {n}x{n}");
            }
        }
    }
}

#[test]
fn the_killer_examples_are_solved_and_counted_by_every_backend_that_claims_them() {
    let boards = killer::file::read_str(&text("models/killer-9x9.killer"), "k.killer").unwrap();
    assert!(!boards.is_empty());
    for (i, board) in boards.iter().enumerate() {
        let own = killer::search::count(board, None);
        assert_eq!((own.count, own.exhaustive), (1, true));
        board.check(&own.solutions[0]).unwrap();
        let model = board.to_model(format!("killer#{i}"));
        assert_eq!(model.num_variables(), 729);
        // milp included: its presolve (the search's propagation with probing) fixes every
        // variable of these Killers, so it solves and counts them without an engine call.
        let unique = board.solution_of(&own.solutions[0]);
        let claimed = every_claiming_backend_but(&model, 1, Some(&unique), &[]);
        assert!(claimed.contains(&"milp".to_string()), "{claimed:?}");
    }
}

#[test]
fn a_killer_with_several_solutions_is_counted_alike() {
    // 4x4, cages of two cells side by side with sums 3 and 7: every cage may hold its two
    // digits either way round, so there are several grids. Counted, not assumed: the own
    // counter's count is the reference, and every claiming backend must agree.
    let pairs: Vec<usize> = (0..16).map(|i| (i / 4) * 2 + (i % 4) / 2).collect();
    let board = KillerBoard::new(2, &pairs, &[3, 7, 7, 3, 3, 7, 7, 3]).unwrap();
    let own = killer::search::count(&board, None);
    assert!(own.exhaustive && own.count > 1, "{}", own.count);
    let model = board.to_model("pairs");
    every_claiming_backend_but(&model, own.count as u128, None, &["milp"]);
    // milp counts by one cut per solution: here it solves, verified.
    let mut milp = make_backend("milp", &BackendOptions::default()).unwrap();
    let solved = solve_verified(milp.as_mut(), &model).unwrap();
    assert_eq!(
        (solved.status, solved.verified),
        (Status::Solved, true),
        "{:?}",
        solved.reason
    );
}

fn zeroone(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The first all-digit field of the CSV table row whose level starts with `level`.
fn csv_value(table: &str, level: &str) -> String {
    let line = table
        .lines()
        .find(|l| l.trim_start_matches('"').starts_with(level))
        .unwrap_or_else(|| panic!("no '{level}' in {table}"));
    line.split(',')
        .find(|f| !f.is_empty() && f.chars().all(|c| c.is_ascii_digit()))
        .unwrap_or_else(|| panic!("no count in '{line}'"))
        .to_string()
}

#[test]
fn the_star_table_matches_queens_for_one_star_and_a001499_for_two() {
    let (code, star, err) = zeroone(&["table", "star", "--size", "8", "--format", "csv"]);
    assert_eq!(code, 0, "{err}");
    let (code, queens, err) = zeroone(&["table", "queens", "--size", "8", "--format", "csv"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(csv_value(&star, "no two touching ("), "5242");
    assert_eq!(
        csv_value(&star, "no two touching, up"),
        csv_value(&queens, "no two touching up")
    );
    let (code, two, err) = zeroone(&[
        "table", "star", "--size", "10", "--stars", "2", "--format", "csv",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(csv_value(&two, "k per row and column"), "1371785398200");
    assert_eq!(csv_value(&two, "no two touching ("), "146510");
    let (code, _, err) = zeroone(&["table", "star", "--stars", "2"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn generated_files_read_back_with_one_solution_each() {
    let (code, out, err) = zeroone(&[
        "generate", "star", "--width", "6", "--count", "2", "--seed", "3",
    ]);
    assert_eq!(code, 0, "{err}");
    let boards = star::file::read_str(&out, "gen.star").unwrap();
    assert_eq!(boards.len(), 2);
    for b in &boards {
        let own = search::count(b, None);
        assert_eq!(Some(&own.solutions[0]), b.known_solution.as_ref());
        assert_eq!(own.count, 1);
    }
    let (code, out, err) = zeroone(&["generate", "killer", "--width", "4", "--seed", "2"]);
    assert_eq!(code, 0, "{err}");
    let boards = killer::file::read_str(&out, "gen.killer").unwrap();
    assert_eq!(killer::search::count(&boards[0], None).count, 1);
    for bad in [
        &["generate", "star", "--width", "8", "--stars", "3"][..],
        &["generate", "killer", "--width", "5"][..],
    ] {
        let (code, _, err) = zeroone(bad);
        assert_eq!(code, 2, "{bad:?}: {err}");
    }
}

#[test]
fn a_bad_killer_file_is_a_located_error_with_exit_code_two() {
    let dir = std::env::temp_dir().join(format!("zeroone-killer-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.killer");
    std::fs::write(
        &file,
        "AABB\nCCDD\nEEFF\nGGHH\nA 3\nB 7\nC 7\nD 3\nE 3\nF 7\nG 7\n",
    )
    .unwrap();
    let (code, out, err) = zeroone(&["solve", file.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert!(err.contains("bad.killer:4:3"), "{err}");
    assert!(err.contains("a sum line 'H SUM'"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
