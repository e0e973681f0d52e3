//! Tests of heavy rows: weights and right-hand sides up to 2^53 split into exact digit rows.

use super::*;
use crate::backend::brute::BruteForce;
use crate::backend::{count_verified, solve_verified, Status};
use crate::model::{Coord, ModelBuilder, PuzzleKind, Sense, MAX_COEFFICIENT};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn milp(presolve: &str) -> Milp {
    let mut o = BackendOptions::default();
    o.params.insert("presolve".into(), presolve.into());
    Milp::new(&o).unwrap()
}

/// A random model of `n` variables whose weighted rows have weights near `2^53 / len`
/// (so a row's total stays within the model's cap of 2^53), now and then mixed with small
/// ones, and right-hand sides at or next to the sum of a random subset of the row.
fn heavy_model(rng: &mut ChaCha8Rng, n: usize) -> Option<Model> {
    let mut b = ModelBuilder::new("heavy", PuzzleKind::Generic);
    let v: Vec<usize> = (0..n)
        .map(|i| b.variable(format!("v{i}"), Coord::Free))
        .collect();
    let f = b.family("heavy");
    for _ in 0..rng.gen_range(1..=3) {
        let mut row: Vec<usize> = v.iter().copied().filter(|_| rng.gen_bool(0.6)).collect();
        while row.len() < 2 {
            let x = v[rng.gen_range(0..n)];
            if !row.contains(&x) {
                row.push(x);
            }
        }
        let top = MAX_COEFFICIENT / row.len() as u64;
        let weights: Vec<u64> = (row.iter())
            .map(|_| {
                if rng.gen_bool(0.2) {
                    rng.gen_range(1..=1000)
                } else {
                    top - rng.gen_range(0..1 << 20)
                }
            })
            .collect();
        let picked: u64 = weights.iter().filter(|_| rng.gen_bool(0.5)).sum();
        let k = match rng.gen_range(0..3) {
            0 => picked.saturating_sub(1),
            1 => picked,
            _ => picked + 1,
        };
        let sense = [Sense::Exactly(k), Sense::AtMost(k), Sense::AtLeast(k)][rng.gen_range(0..3)];
        b.weighted_row(f, row, weights, sense);
    }
    if rng.gen_bool(0.2) {
        let g = v[rng.gen_range(0..n)];
        b.given(g);
    }
    // `None` when the builder refuses the given (it overfills a row).
    b.build().ok()
}

#[test]
fn heavy_rows_count_like_brute_force() {
    // Before the rows were split into digits, microlp failed on many such models
    // ("integral solution failed feasibility validation"). Counted with and without
    // presolve, so the split rows reach the engine.
    let mut rng = ChaCha8Rng::seed_from_u64(53);
    let mut feasible = 0;
    for case in 0..60 {
        let model = loop {
            let n = rng.gen_range(3..=7);
            if let Some(m) = heavy_model(&mut rng, n) {
                break m;
            }
        };
        let truth = count_verified(&mut BruteForce, &model, None).unwrap();
        feasible += (truth.count > 0) as usize;
        for level in ["off", "probe"] {
            let c = count_verified(&mut milp(level), &model, None).unwrap();
            assert_eq!(
                (c.status, c.count.to_u128().unwrap(), c.exhaustive),
                (Status::Solved, truth.count.to_u128().unwrap(), true),
                "case {case}, presolve={level}: {:?} on {model:?}",
                c.reason
            );
        }
    }
    assert!(feasible > 15, "{feasible} of 60 models have solutions");
}

#[test]
fn the_issue_s_heavy_at_least_row_is_solved() {
    // 2^40 a + 1000 b >= 839735460986: a = 1 is needed and enough (two solutions).
    let mut b = ModelBuilder::new("issue-25", PuzzleKind::Generic);
    let a = b.variable("a", Coord::Free);
    let c = b.variable("b", Coord::Free);
    let f = b.family("w");
    b.weighted_row(
        f,
        vec![a, c],
        vec![1 << 40, 1000],
        Sense::AtLeast(839_735_460_986),
    );
    let model = b.build().unwrap();
    for level in ["off", "propagate", "probe"] {
        let out = solve_verified(&mut milp(level), &model).unwrap();
        assert_eq!(out.status, Status::Solved, "{level}: {:?}", out.reason);
        let c = count_verified(&mut milp(level), &model, None).unwrap();
        assert_eq!(
            (c.count.to_u128().unwrap(), c.exhaustive),
            (2, true),
            "{level}"
        );
    }
}
