//! VSA and bitset engines on the seed's clue levels, and the bitset engine against the `sudoku`
//! crate (a JCZSolve port; AGPL, a dev-dependency used here only).
//!
//! Part 1 (plain timing, printed first): per-puzzle medians of the `bitset` backend and of the
//! `sudoku` crate on `magictour_top1465.txt` and the first 10,000 of `royle_17clue.txt`, each
//! puzzle timed as the best of 3 runs of each solver, in the same process; ratio of medians.
//! Set `VSA_BENCH_SETS=0` to skip it.
//!
//! Part 2 (criterion): one generated puzzle per level (45, 33, 26 clues; generator seed 1, index
//! 0), solved by `bitset`, `vsa` unitary at the smallest exact D (9), `vsa` gaussian D = 1024,
//! and the `sudoku` crate. Every answer is verified once before timing. The machine is shared
//! (2 cores, other jobs running): absolute times are noisy, ratios less so.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use criterion::Criterion;
use zeroone::backend::{make_backend, solve_verified, Backend, BackendOptions, Status};
use zeroone::model::Model;
use zeroone::puzzle::kinds::sudoku::digit_of;
use zeroone::puzzle::kinds::sudoku::generate;
use zeroone::puzzle::Sudoku;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../data/sudoku")
        .join(name)
}

fn model_of(line: &str, name: &str) -> Model {
    let cells = line.chars().map(|c| digit_of(c, 9)).collect();
    Sudoku::from_cells(3, cells)
        .expect("81 cells")
        .to_model(name)
        .expect("valid clues")
}

fn backend(name: &str, params: &[(&str, &str)]) -> Box<dyn Backend> {
    let mut o = BackendOptions {
        seed: 1,
        ..BackendOptions::default()
    };
    for (k, v) in params {
        o.params.insert(k.to_string(), v.to_string());
    }
    make_backend(name, &o).expect("registered backend")
}

fn best_of_3(mut f: impl FnMut()) -> f64 {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn bitset_against_sudoku_crate(file: &str, limit: usize) {
    let text = std::fs::read_to_string(data(file)).expect("puzzle file");
    let lines: Vec<&str> = text.lines().take(limit).collect();
    let mut ours = backend("bitset", &[]);
    let (mut t_ours, mut t_crate) = (Vec::new(), Vec::new());
    for (i, line) in lines.iter().enumerate() {
        let model = model_of(line, &format!("{file}#{}", i + 1));
        let out = solve_verified(ours.as_mut(), &model).unwrap();
        assert_eq!(out.status, Status::Solved, "{file} #{}", i + 1);
        let theirs = sudoku::Sudoku::from_str_line(line).expect("valid line");
        assert!(theirs.some_solution().is_some());
        let solver = ours.solver().unwrap();
        t_ours.push(best_of_3(|| {
            black_box(solver.solve(black_box(&model)).unwrap());
        }));
        t_crate.push(best_of_3(|| {
            black_box(black_box(theirs).some_solution());
        }));
    }
    let (a, b) = (median(t_ours), median(t_crate));
    println!(
        "{file} (first {}): bitset median {:.1} us, sudoku crate median {:.1} us, ratio {:.1}x",
        lines.len(),
        a * 1e6,
        b * 1e6,
        a / b
    );
}

/// A label, a backend name and its parameters.
type Engine = (
    &'static str,
    &'static str,
    Vec<(&'static str, &'static str)>,
);

fn levels(c: &mut Criterion) {
    for clues in [45usize, 33, 26] {
        let g = generate::generate(3, clues, 1, 0);
        let model = g.puzzle.to_model(format!("gen-{clues}")).unwrap();
        let line = g.puzzle.to_line();
        let mut group = c.benchmark_group(format!("clues-{clues}"));
        let engines: [Engine; 3] = [
            ("bitset", "bitset", vec![]),
            ("vsa-unitary-D9", "vsa", vec![("code", "unitary")]),
            (
                "vsa-gaussian-D1024",
                "vsa",
                vec![("code", "gaussian"), ("dim", "1024")],
            ),
        ];
        for (label, name, params) in engines {
            let mut b = backend(name, &params);
            let out = solve_verified(b.as_mut(), &model).unwrap();
            assert_eq!(out.status, Status::Solved, "{label} on {clues} clues");
            let solver = b.solver().unwrap();
            group.bench_function(label, |bench| {
                bench.iter(|| solver.solve(black_box(&model)).unwrap())
            });
        }
        let theirs = sudoku::Sudoku::from_str_line(&line).unwrap();
        group.bench_function("sudoku-crate", |bench| {
            bench.iter(|| black_box(theirs).some_solution())
        });
        group.finish();
    }
}

fn main() {
    if std::env::var("VSA_BENCH_SETS").as_deref() != Ok("0") {
        bitset_against_sudoku_crate("magictour_top1465.txt", usize::MAX);
        bitset_against_sudoku_crate("royle_17clue.txt", 10_000);
    }
    let mut c = Criterion::default().configure_from_args();
    levels(&mut c);
    c.final_summary();
}
