//! Generation and uniqueness checks: `cargo bench --bench generate`.
//!
//! - `generate/hex-9` and `generate/queens-9`: 10 boards of width 9 (seed 1) per iteration, so
//!   the figure times 10 is the cost of the 100-board runs in `reports/generate.md`.
//! - `unique/...`: one uniqueness check (count up to 2) of the same generated width-9 board by
//!   the generator's exact counter (`count_solutions`: the `xcc` engine in the generators' fixed
//!   order; the id `exact-counter` is kept from the counter it replaced) and by the `sat` backend
//!   (verified), in the same process, so their ratio is meaningful even on a loaded machine.

use criterion::{criterion_group, criterion_main, Criterion};
use zeroone::backend::{count_verified, make_backend, BackendOptions};
use zeroone::puzzle::generate::counter::count_solutions;
use zeroone::puzzle::generate::GenerateOptions;
use zeroone::puzzle::kinds::hex::generate::generate_hex;
use zeroone::puzzle::kinds::queens::generate::generate_queens;

fn generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate");
    group.sample_size(10);
    group.bench_function("hex-9", |b| {
        b.iter(|| generate_hex(&GenerateOptions::new(9, 10, 1)).unwrap())
    });
    group.bench_function("queens-9", |b| {
        b.iter(|| generate_queens(&GenerateOptions::new(9, 10, 1)).unwrap())
    });
    group.finish();
}

fn uniqueness(c: &mut Criterion) {
    let board = generate_hex(&GenerateOptions::new(9, 1, 1)).unwrap();
    let model = board[0].board.to_model("hex-9");
    let mut group = c.benchmark_group("unique");
    group.bench_function("exact-counter/hex-9", |b| {
        b.iter(|| assert_eq!(count_solutions(&model, 2).unwrap().count, 1))
    });
    let mut sat = make_backend("sat", &BackendOptions::default()).unwrap();
    group.bench_function("sat/hex-9", |b| {
        b.iter(|| {
            assert_eq!(
                count_verified(sat.as_mut(), &model, Some(2)).unwrap().count,
                1
            )
        })
    });
    group.finish();
}

criterion_group!(benches, generation, uniqueness);
criterion_main!(benches);
