//! The shared search with both legality engines on 9x9 Sudoku: the engines agree step for step
//! when the VSA code is exact, and a noisy code never gets a wrong grid past the verifier.

use zeroone::backend::{count_verified, make_backend, solve_verified, BackendOptions, Status};
use zeroone::model::Model;
use zeroone::puzzle::kinds::sudoku::digit_of;
use zeroone::puzzle::kinds::sudoku::generate;
use zeroone::puzzle::Sudoku;

fn options(params: &[(&str, &str)], seed: u64) -> BackendOptions {
    let mut o = BackendOptions {
        seed,
        ..BackendOptions::default()
    };
    for (k, v) in params {
        o.params.insert(k.to_string(), v.to_string());
    }
    o
}

fn generated(clues: usize, count: u64) -> Vec<Model> {
    (0..count)
        .map(|i| {
            generate::generate(3, clues, 9, i)
                .puzzle
                .to_model(format!("gen-{clues}-{i}"))
                .unwrap()
        })
        .collect()
}

#[test]
fn exact_vsa_takes_the_same_steps_as_bitset() {
    let mut bitset = make_backend("bitset", &BackendOptions::default()).unwrap();
    for params in [
        vec![("code", "unitary")],
        vec![("code", "unitary"), ("dim", "64"), ("refresh", "all")],
    ] {
        let mut vsa = make_backend("vsa", &options(&params, 3)).unwrap();
        for model in generated(26, 8) {
            let a = solve_verified(bitset.as_mut(), &model).unwrap();
            let b = solve_verified(vsa.as_mut(), &model).unwrap();
            assert_eq!(a.status, Status::Solved);
            assert_eq!(b.status, Status::Solved, "{params:?}");
            assert_eq!(a.solution, b.solution);
            assert_eq!(
                (a.stats.steps, a.stats.guesses, a.stats.backtracks),
                (b.stats.steps, b.stats.guesses, b.stats.backtracks)
            );
            assert!(b.stats.extra["fft_batches"].as_u64().unwrap() > 0);
            assert_eq!(b.stats.extra["misreads"].as_u64(), Some(0));
        }
    }
}

#[test]
fn a_noisy_code_is_caught_never_reported_solved_wrongly_or_infeasible() {
    // Gaussian codes of dimension 16 misread rows often (see reports/vsa-sudoku.md).
    let mut seen_failure = false;
    for seed in 0..4 {
        let mut vsa = make_backend(
            "vsa",
            &options(&[("code", "gaussian"), ("dim", "16")], seed),
        )
        .unwrap();
        for model in generated(33, 5) {
            let out = solve_verified(vsa.as_mut(), &model).unwrap();
            assert_ne!(
                out.status,
                Status::Infeasible,
                "an approximate engine proves nothing"
            );
            if out.status == Status::Solved {
                assert!(out.verified);
            } else {
                seen_failure = true;
                assert!(out.solution.is_none());
            }
        }
    }
    assert!(seen_failure, "D = 16 was expected to misread at least once");
}

#[test]
fn counting_finds_both_solutions_of_a_two_solution_grid() {
    // A solved grid with the four cells of a "deadly rectangle" emptied: two solutions.
    let grid = "123456789456789123789123456214365897365897214897214365531642978642978531978531642";
    let mut cells: Vec<Option<usize>> = grid.chars().map(|c| digit_of(c, 9)).collect();
    // 1 and 2 swap in rows 0 and 3 (columns 0 and 1): r0 = 1 2, r3 = 2 1.
    for i in [0, 1, 27, 28] {
        cells[i] = None;
    }
    let model = Sudoku::from_cells(3, cells)
        .unwrap()
        .to_model("two")
        .unwrap();
    for name in ["bitset", "vsa"] {
        let mut b = make_backend(name, &BackendOptions::default()).unwrap();
        let c = count_verified(b.as_mut(), &model, None).unwrap();
        assert_eq!(
            (c.status, c.count.to_u128().unwrap(), c.exhaustive),
            (Status::Solved, 2, true),
            "{name}"
        );
        let one = count_verified(b.as_mut(), &model, Some(1)).unwrap();
        assert_eq!(
            (one.count.to_u128().unwrap(), one.exhaustive),
            (1, false),
            "{name}"
        );
    }
}

#[test]
fn real_puzzles_from_top95_are_solved_by_unitary_vsa() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/sudoku/norvig_top95.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut vsa = make_backend("vsa", &BackendOptions::default()).unwrap();
    for (i, line) in text.lines().take(5).enumerate() {
        let cells = line.chars().map(|c| digit_of(c, 9)).collect();
        let model = Sudoku::from_cells(3, cells)
            .unwrap()
            .to_model(format!("top95#{i}"))
            .unwrap();
        let out = solve_verified(vsa.as_mut(), &model).unwrap();
        assert_eq!(out.status, Status::Solved, "top95 #{}", i + 1);
    }
}

#[test]
fn every_shipped_board_is_solved_by_vsa_and_bitset() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    let mut solved = 0;
    // The shipped files, including those one folder down (models/generated/).
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            paths.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else {
            paths.push(path);
        }
    }
    paths.sort();
    for path in paths {
        // models/generated/optimisation/ (a folder two down) holds the optimisation experiment's
        // instances: tests/it/optimisation.rs and the experiment cover those.
        if path.extension().is_some_and(|e| e == "md") || path.is_dir() {
            continue;
        }
        let models = zeroone::puzzle::parse::load_models(&path).unwrap();
        if models.iter().any(|m| m.objective().is_some()) {
            // With an objective, both engines must prove the same optimum.
            for m in &models {
                let outs: Vec<_> = ["vsa", "bitset"]
                    .iter()
                    .map(|name| {
                        let mut b = make_backend(name, &BackendOptions::default()).unwrap();
                        solve_verified(b.as_mut(), m).unwrap()
                    })
                    .collect();
                assert_eq!(outs[0].status, Status::Optimal, "vsa on {}", m.name());
                assert_eq!(outs[0].objective, outs[1].objective, "{}", m.name());
            }
            continue;
        }
        // A few shipped puzzles have no solution on purpose (models/sudoku4.txt, lines 1 and 9):
        // the exact enumerator says which, and both engines must agree with it.
        let mut reference = make_backend("enum", &BackendOptions::default()).unwrap();
        for name in ["vsa", "bitset"] {
            let mut b = make_backend(name, &BackendOptions::default()).unwrap();
            for m in &models {
                let expected = solve_verified(reference.as_mut(), m).unwrap().status;
                assert!(matches!(expected, Status::Solved | Status::Infeasible));
                let out = solve_verified(b.as_mut(), m).unwrap();
                assert_eq!(out.status, expected, "{name} on {}", m.name());
                solved += usize::from(out.status == Status::Solved);
            }
        }
    }
    assert!(solved >= 20, "only {solved} shipped boards found");
}
