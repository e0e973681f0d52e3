//! The MILP backend on real data: every Capybaradoku level solved (verified, and equal to the
//! level's own stated solution) and proved unique with `count --limit 2`; a board with several
//! solutions counts 2.

use std::path::PathBuf;

use zeroone::backend::{count_verified, make_backend, solve_verified, BackendOptions, Status};
use zeroone::puzzle::parse::load;
use zeroone::puzzle::{placements, QueensBoard};

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(path)
}

#[test]
fn every_capybaradoku_level_is_solved_as_stated_and_unique() {
    let puzzles = load(&data("queens/capybaradoku_levels.txt")).expect("the shared data");
    assert_eq!(puzzles.len(), 121);
    let mut milp = make_backend("milp", &BackendOptions::default()).unwrap();
    for (i, puzzle) in puzzles.iter().enumerate() {
        let Some(board) = puzzle.board_as::<QueensBoard>() else {
            panic!("level {i} is not a Queens board");
        };
        let model = board.to_model(format!("level-{i}"));
        let out = solve_verified(milp.as_mut(), &model).unwrap();
        assert_eq!(out.status, Status::Solved, "level {i}: {:?}", out.reason);
        let columns: Vec<usize> = placements(&model, out.solution.as_ref().unwrap())
            .unwrap()
            .iter()
            .map(|p| p[1])
            .collect();
        assert_eq!(Some(&columns), board.known_solution.as_ref(), "level {i}");
        let count = count_verified(milp.as_mut(), &model, Some(2)).unwrap();
        assert_eq!(
            (count.status, count.count.to_u128().unwrap()),
            (Status::Solved, 1),
            "level {i}"
        );
        assert!(count.exhaustive);
    }
}

#[test]
fn a_board_with_several_solutions_counts_two_under_limit_two() {
    // The bare width-9 geometry has 244 solutions (the seed's figure).
    let board = zeroone::puzzle::HexBoard::geometry(9).unwrap();
    let model = board.to_model("hex-9-bare");
    let mut milp = make_backend("milp", &BackendOptions::default()).unwrap();
    let count = count_verified(milp.as_mut(), &model, Some(2)).unwrap();
    // Cut at the limit: `limit`, with the partial count kept.
    assert_eq!(
        (count.status, count.count.to_u128().unwrap()),
        (Status::Limit, 2)
    );
    assert!(!count.exhaustive);
}
