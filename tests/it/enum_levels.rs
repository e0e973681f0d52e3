//! The enumerator on real puzzles: every Capybaradoku Queens level (shared data) is solved with
//! a verified answer equal to the level's stated solution, and counted as unique.
//!
//! The levels are read by a small reader local to this test (the project's parser lives in
//! `puzzle::parse`, written separately); it only understands this one file's format.

use std::path::PathBuf;

use zeroone::backend::{count_verified, make_backend, solve_verified, BackendOptions, Status};
use zeroone::puzzle::{placements, QueensBoard};

struct Level {
    name: String,
    regions: Vec<Vec<usize>>,
    solution: Vec<usize>,
}

fn levels() -> Vec<Level> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/queens/capybaradoku_levels.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    for block in text.split("\n\n").filter(|b| !b.trim().is_empty()) {
        let mut lines = block.lines();
        let name = lines.next().unwrap().trim_start_matches("# ").to_string();
        let mut regions = Vec::new();
        let mut solution = Vec::new();
        for line in lines {
            if let Some(rest) = line.strip_prefix("# solution:") {
                solution = rest
                    .split_whitespace()
                    .map(|x| x.parse().unwrap())
                    .collect();
            } else {
                regions.push(line.bytes().map(|b| (b - b'A') as usize).collect());
            }
        }
        out.push(Level {
            name,
            regions,
            solution,
        });
    }
    out
}

#[test]
fn every_capybaradoku_level_is_solved_and_unique() {
    let levels = levels();
    assert_eq!(levels.len(), 121);
    for order in ["fixed", "mrv"] {
        let mut options = BackendOptions::default();
        options.params.insert("order".into(), order.into());
        options.params.insert("threads".into(), "1".into());
        let mut backend = make_backend("enum", &options).unwrap();
        for level in &levels {
            let model = QueensBoard::with_regions(level.regions.clone())
                .unwrap()
                .to_model(level.name.clone());
            let out = solve_verified(backend.as_mut(), &model).unwrap();
            assert_eq!(out.status, Status::Solved, "{}", level.name);
            let cells = placements(&model, out.solution.as_ref().unwrap()).unwrap();
            let columns: Vec<usize> = cells.iter().map(|&[_, c]| c).collect();
            assert_eq!(columns, level.solution, "{} ({order})", level.name);
            let count = count_verified(backend.as_mut(), &model, None).unwrap();
            assert_eq!(
                (count.status, count.count.to_u128().unwrap()),
                (Status::Solved, 1),
                "{}",
                level.name
            );
            assert!(count.exhaustive && count.verified);
        }
    }
}
