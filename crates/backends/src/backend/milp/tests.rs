//! Tests of the MILP backend: solves and counts against brute force, presolve, relaxation.

use super::*;
use crate::backend::{count_verified, solve_verified, Status};
use crate::model::{Coord, ModelBuilder, PuzzleKind, Sense};
use crate::puzzle::{HexBoard, QueensBoard, Sudoku};

fn milp(relax: bool) -> Milp {
    let mut o = BackendOptions::default();
    o.params.insert("relax".into(), relax.to_string());
    Milp::new(&o).unwrap()
}

/// The MILP backend with a time limit, made as the registry makes it.
fn limited(t: Duration) -> Milp {
    let o = BackendOptions {
        time_limit: Some(t),
        ..BackendOptions::default()
    };
    Milp::new(&o).unwrap()
}

#[test]
fn counts_bare_hex_and_queens_exactly() {
    // The bare width-5 hex board, against brute force.
    let mut m = milp(false);
    let hex = HexBoard::geometry(5).unwrap().to_model("h5");
    let c = count_verified(&mut m, &hex, None).unwrap();
    assert_eq!(c.status, Status::Solved);
    assert!(c.exhaustive);
    let mut brute = crate::backend::brute::BruteForce;
    let b = count_verified(&mut brute, &hex, None).unwrap();
    assert_eq!(c.count, b.count);
    let two = count_verified(&mut m, &hex, Some(2)).unwrap();
    assert_eq!((two.count.to_u128().unwrap(), two.exhaustive), (2, false));
}

#[test]
fn solves_a_sudoku_and_proves_a_clash_infeasible() {
    let mut m = milp(false);
    let line = "1...........2..3";
    let cells = line
        .chars()
        .map(|c| crate::puzzle::kinds::sudoku::digit_of(c, 4))
        .collect();
    let model = Sudoku::from_cells(2, cells).unwrap().to_model("s").unwrap();
    let out = solve_verified(&mut m, &model).unwrap();
    assert_eq!(out.status, Status::Solved, "{:?}", out.reason);
    // 2x2 Queens has no solution (every pair of cells touches).
    let out = solve_verified(&mut m, &QueensBoard::bare(2).to_model("q2")).unwrap();
    assert_eq!(out.status, Status::Infeasible);
}

#[test]
fn relaxation_reports_integrality() {
    // A fully given Sudoku leaves nothing to relax: integral.
    let cells = "1234341221434321"
        .chars()
        .map(|c| crate::puzzle::kinds::sudoku::digit_of(c, 4))
        .collect();
    let full = Sudoku::from_cells(2, cells).unwrap().to_model("f").unwrap();
    let r = lp_relaxation(&full, Engine::Microlp, None)
        .unwrap()
        .unwrap();
    assert!(r.feasible && r.integral && r.solution.is_some());
    // The odd triangle x0+x1 = x1+x2 = x0+x2 = 1 has only the LP point (1/2, 1/2, 1/2).
    let mut b = crate::model::ModelBuilder::new("tri", crate::model::PuzzleKind::Generic);
    for i in 0..3 {
        b.variable(format!("x{i}"), crate::model::Coord::Free);
    }
    let f = b.family("pair");
    for pair in [[0, 1], [1, 2], [0, 2]] {
        b.row(f, pair.to_vec(), Sense::ExactlyOne);
    }
    let tri = b.build().unwrap();
    let r = lp_relaxation(&tri, Engine::Microlp, None).unwrap().unwrap();
    assert!(r.feasible && !r.integral);
    assert_eq!(r.fractional, 3);
    let out = solve_verified(&mut milp(true), &tri).unwrap();
    assert_eq!(out.status, Status::Unknown);
    let relaxation = out
        .stats
        .relaxation
        .expect("relax=true reports the relaxation");
    assert!(relaxation.feasible && !relaxation.integral);
    assert_eq!(relaxation.fractional, Some(3));
    // Its record form keeps the keys older records have, and reads back the same.
    let json = serde_json::to_value(&out.stats).unwrap();
    assert_eq!(json["extra"]["lp_integral"], false);
    assert_eq!(json["extra"]["lp_fractional"], 3);
    assert_eq!(serde_json::from_value::<Stats>(json).unwrap(), out.stats);
    // The MILP proves the triangle has no 0-1 solution.
    let out = solve_verified(&mut milp(false), &tri).unwrap();
    assert_eq!(out.status, Status::Infeasible);
}

#[test]
fn a_zero_time_limit_gives_timeout_not_an_answer() {
    let mut m = limited(Duration::ZERO);
    let model = Sudoku::empty(3).to_model("s9").unwrap();
    let out = solve_verified(&mut m, &model).unwrap();
    assert_eq!(out.status, Status::Timeout);
    let c = count_verified(&mut m, &model, Some(2)).unwrap();
    assert_eq!(c.status, Status::Limit);
    assert!(!c.exhaustive);
}

#[test]
fn a_count_stops_at_the_time_limit_between_solves() {
    // 9x9 Sudoku grids are far too many to count: the limit must end the count.
    let mut m = limited(Duration::from_millis(300));
    let model = Sudoku::empty(3).to_model("s9").unwrap();
    let start = Instant::now();
    let c = count_verified(&mut m, &model, None).unwrap();
    assert_eq!(c.status, Status::Limit, "{:?}", c.reason);
    assert!(!c.exhaustive);
    assert!(start.elapsed() < Duration::from_secs(20));
}

#[test]
fn bad_options_are_rejected() {
    let mut o = BackendOptions::default();
    o.params.insert("relax".into(), "maybe".into());
    assert!(matches!(
        Milp::new(&o),
        Err(BackendError::BadOption { ref key, .. }) if key == "relax"
    ));
}

#[test]
fn non_binary_values_are_an_error() {
    assert!(to_solution(Engine::Microlp, &[0.0, 1.0, 0.5]).is_err());
    assert!(to_solution(Engine::Microlp, &[0.0, 2.0]).is_err());
    assert_eq!(
        to_solution(Engine::Microlp, &[1e-9, 1.0 - 1e-9])
            .unwrap()
            .ones,
        vec![1]
    );
}

/// OEIS A001499: n x n 0-1 matrices with two ones in every row and column.
fn two_per_line(n: usize) -> Model {
    crate::backend::fixtures::line_sums(n, Sense::Exactly(2), Sense::Exactly(2))
}

#[test]
fn counts_and_solves_two_ones_per_row_and_column() {
    // A001499: 90 for n = 4 (counted with no-good cuts over the equality rows).
    let c = count_verified(&mut milp(false), &two_per_line(4), None).unwrap();
    assert_eq!(
        (c.count.to_u128().unwrap(), c.exhaustive, c.verified),
        (90, true, true)
    );
    let out = solve_verified(&mut milp(false), &two_per_line(5)).unwrap();
    assert_eq!((out.status, out.verified), (Status::Solved, true));
}

#[test]
fn at_least_and_weighted_rows_count_like_brute_force() {
    // ">= 3 of 5" (supersets of a solution are solutions: the cuts need the "- x" terms),
    // "<= 2" and a weighted equation with a given; brute force counts the same models.
    let mut b = ModelBuilder::new("mixed", PuzzleKind::Generic);
    let v: Vec<usize> = (0..7)
        .map(|i| b.variable(format!("v{i}"), Coord::Free))
        .collect();
    let f = b.family("min");
    b.row(f, v[..5].to_vec(), Sense::AtLeast(3));
    let g = b.family("max");
    b.row(g, v[3..].to_vec(), Sense::AtMost(2));
    let h = b.family("sum");
    b.weighted_row(h, v.clone(), vec![1, 2, 3, 4, 5, 6, 7], Sense::Exactly(14));
    b.given(v[1]);
    let m = b.build().unwrap();
    let brute = count_verified(&mut crate::backend::brute::BruteForce, &m, None).unwrap();
    let c = count_verified(&mut milp(false), &m, None).unwrap();
    assert_eq!((&c.count, c.exhaustive), (&brute.count, true));
    assert!(c.count > 1, "{}", c.count);
    // ">= 3 of 5" alone: C(5,3) + C(5,4) + C(5,5) = 16.
    let mut b = ModelBuilder::new("at-least", PuzzleKind::Generic);
    let v: Vec<usize> = (0..5)
        .map(|i| b.variable(format!("v{i}"), Coord::Free))
        .collect();
    let f = b.family("min");
    b.row(f, v, Sense::AtLeast(3));
    let c = count_verified(&mut milp(false), &b.build().unwrap(), None).unwrap();
    assert_eq!((c.count.to_u128().unwrap(), c.exhaustive), (16, true));
}

/// A random model over 4 to 12 variables: a few rows of every kind, costs -9 to 12, either
/// sense (seeded).
fn random_optimisation(rng: &mut rand_chacha::ChaCha8Rng) -> Model {
    use crate::model::ObjectiveSense;
    use rand::Rng;
    let n = rng.gen_range(4..=12);
    let mut b = ModelBuilder::new("random", PuzzleKind::Generic);
    for i in 0..n {
        b.variable(format!("x{i}"), Coord::Free);
    }
    let f = b.family("rows");
    for _ in 0..rng.gen_range(1..=4) {
        let vars: Vec<usize> = (0..n).filter(|_| rng.gen_bool(0.5)).collect();
        if vars.is_empty() {
            continue;
        }
        let weights: Vec<u64> = vars.iter().map(|_| rng.gen_range(1..=6)).collect();
        let total: u64 = weights.iter().sum();
        let sense = match rng.gen_range(0..3) {
            0 => Sense::AtLeast(rng.gen_range(1..=total)),
            1 => Sense::AtMost(rng.gen_range(1..=total)),
            _ => Sense::Exactly(rng.gen_range(1..=total)),
        };
        b.weighted_row(f, vars, weights, sense);
    }
    let sense = match rng.gen_bool(0.5) {
        true => ObjectiveSense::Minimize,
        false => ObjectiveSense::Maximize,
    };
    b.objective(sense, (0..n).map(|v| (v, rng.gen_range(-9..=12))).collect());
    b.build().unwrap()
}

#[test]
fn the_bound_of_a_stopped_optimisation_never_cuts_off_the_optimum() {
    // The bound a stopped run reports (root bound and LP bound rounded to the safe side)
    // against brute force's optimum, on random models of both senses.
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(39);
    let (mut feasible, mut strict) = (0, 0);
    for _ in 0..60 {
        let model = random_optimisation(&mut rng);
        let mut brute = crate::backend::brute::BruteForce;
        let best = solve_verified(&mut brute, &model).unwrap();
        let Some(optimum) = best.objective else {
            continue;
        };
        feasible += 1;
        let objective = model.objective().unwrap();
        let mut stats = Stats::default();
        let bound = limited(Duration::from_secs(10)).stopped_bound(&model, objective, &mut stats);
        assert!(
            !objective.better(optimum, bound),
            "bound {bound}, optimum {optimum}: {model:?}"
        );
        assert_eq!(stats.extra["lp_bound"], true);
        strict += usize::from(bound != optimum);
    }
    // Both the tight and the loose case occur.
    assert!(
        feasible > 25 && strict > 5,
        "{feasible} feasible, {strict} strict"
    );
}
