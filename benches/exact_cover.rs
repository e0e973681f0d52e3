//! Exact cover, `xcc` against `bitset` on the same models in one process: counting every
//! solution of pentominoes 5x12 and 6x10, Langford pairs L(2, 11) and L(2, 12), and n-queens
//! 10 to 13 (diagonals as secondary items).
//!
//! Every model is counted by both backends once before timing, and the counts must agree.
//! Compare the two backends' medians within one run; the machine is shared.
//!
//! `cargo bench --bench exact_cover` (`-- pentominoes` for one group)

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use zeroone::backend::{count_verified, make_backend, BackendOptions, Status};
use zeroone::model::Model;
use zeroone::puzzle::generate::exact_cover::{langford, n_queens, pentominoes};

const BACKENDS: [&str; 2] = ["xcc", "bitset"];

fn count(backend: &str, model: &Model) -> u128 {
    let mut b = make_backend(backend, &BackendOptions::default()).unwrap();
    let out = count_verified(b.as_mut(), model, None).unwrap();
    assert_eq!(out.status, Status::Solved, "{backend}: {:?}", out.reason);
    out.count
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

criterion_group!(benches, pentomino_boards, langford_pairs, queens);
criterion_main!(benches);
