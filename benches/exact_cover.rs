//! Exact cover, `xcc` against `bitset` on the same models in one process: counting every
//! solution of pentominoes 5x12 and 6x10, Langford pairs L(2, 11) and L(2, 12), and n-queens
//! 10 to 13 (diagonals as secondary items); and solving the first 200 puzzles of
//! `data/sudoku/royle_17clue.txt`, one backend for the batch (as `zeroone solve FILE` does).
//!
//! Every model is counted by both backends once before timing, and the counts must agree;
//! every Sudoku solution is verified.
//! Compare the two backends' medians within one run; the machine is shared.
//!
//! `cargo bench --bench exact_cover` (`-- pentominoes` for one group)

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use zeroone::backend::{count_verified, make_backend, solve_verified, BackendOptions, Status};
use zeroone::model::Model;
use zeroone::puzzle::generate::exact_cover::{langford, n_queens, pentominoes};
use zeroone::puzzle::kinds::sudoku::digit_of;
use zeroone::puzzle::Sudoku;

const BACKENDS: [&str; 2] = ["xcc", "bitset"];

fn count(backend: &str, model: &Model) -> u128 {
    let mut b = make_backend(backend, &BackendOptions::default()).unwrap();
    let out = count_verified(b.as_mut(), model, None).unwrap();
    assert_eq!(out.status, Status::Solved, "{backend}: {:?}", out.reason);
    out.count.to_u128().expect("a count below 2^128")
}

fn group(c: &mut Criterion, name: &str, models: Vec<Model>, samples: usize) {
    let mut g = c.benchmark_group(name);
    g.sample_size(samples)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    for m in &models {
        let counts: Vec<u128> = BACKENDS.iter().map(|b| count(b, m)).collect();
        assert!(
            counts.windows(2).all(|w| w[0] == w[1]),
            "{}: {counts:?}",
            m.name()
        );
        for backend in BACKENDS {
            g.bench_function(format!("{}/{backend}", m.name()), |b| {
                b.iter(|| black_box(count(backend, m)))
            });
        }
    }
    g.finish();
}

fn pentomino_boards(c: &mut Criterion) {
    group(
        c,
        "pentominoes",
        vec![pentominoes(5, 12), pentominoes(6, 10)],
        10,
    );
}

fn langford_pairs(c: &mut Criterion) {
    group(c, "langford", vec![langford(11), langford(12)], 10);
}

fn queens(c: &mut Criterion) {
    group(c, "n-queens", (10..=13).map(n_queens).collect(), 10);
}

/// The first `n` puzzles of royle_17clue as models.
fn royle(n: usize) -> Vec<Model> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/sudoku/royle_17clue.txt"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let lines = text
        .lines()
        .filter(|l| l.len() >= 81 && !l.starts_with('#'));
    lines
        .take(n)
        .enumerate()
        .map(|(i, line)| {
            let cells = line.chars().take(81).map(|c| digit_of(c, 9)).collect();
            let grid = Sudoku::from_cells(3, cells).unwrap();
            grid.to_model(format!("royle-{i}")).unwrap()
        })
        .collect()
}

/// Solves every puzzle of `models` with one `backend`, each solution verified.
fn solve_all(backend: &str, models: &[Model]) -> usize {
    let mut b = make_backend(backend, &BackendOptions::default()).unwrap();
    let solved = models
        .iter()
        .map(|m| solve_verified(b.as_mut(), m).unwrap());
    solved.filter(|o| o.status == Status::Solved).count()
}

fn sudoku(c: &mut Criterion) {
    let models = royle(200);
    let mut g = c.benchmark_group("sudoku");
    g.sample_size(20).measurement_time(Duration::from_secs(5));
    for backend in BACKENDS {
        assert_eq!(solve_all(backend, &models), models.len(), "{backend}");
        g.bench_function(format!("royle-200/{backend}"), |b| {
            b.iter(|| black_box(solve_all(backend, &models)))
        });
    }
    g.finish();
}

criterion_group!(benches, pentomino_boards, langford_pairs, queens, sudoku);
criterion_main!(benches);
