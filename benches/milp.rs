//! Criterion benchmark of the MILP backends on one board of each kind: a coloured width-9 hex
//! board, the first Capybaradoku level (7x7 Queens with regions) and the first puzzle of
//! norvig_top95 (9x9 Sudoku). microlp always; HiGHS too when built with `--features highs`.
//! Each iteration is one verified solve (`solve_verified`), the path every command takes.
//!
//! `cargo bench --bench milp` (the machine is shared: read medians and ratios, not single runs).

use criterion::{criterion_group, criterion_main, Criterion};

use zeroone::backend::{make_backend, solve_verified, BackendOptions, Status};
use zeroone::model::Model;
use zeroone::puzzle::{HexBoard, QueensBoard, Sudoku};

fn letters(rows: &[&str]) -> Vec<Vec<usize>> {
    rows.iter()
        .map(|r| r.bytes().map(|b| (b - b'A') as usize).collect())
        .collect()
}

fn boards() -> Vec<Model> {
    let hex = HexBoard::coloured(letters(&[
        "DBAAA",
        "DBBAAC",
        "DBBDACC",
        "DDDDAACG",
        "DDEEIFFGG",
        "DDIIIFGG",
        "HDHIGGG",
        "HHHIGG",
        "HHIII",
    ]))
    .unwrap()
    .to_model("hex-9-coloured");
    // capybaradoku level 1 (data/queens/capybaradoku_levels.txt).
    let queens = QueensBoard::with_regions(letters(&[
        "AAAAAAB", "CAABBBB", "CCCBBBB", "CCBBDBB", "ECCDDBB", "ECFDDBB", "CCFGGGB",
    ]))
    .unwrap()
    .to_model("capybaradoku-1");
    // norvig_top95 puzzle 1 (data/sudoku/norvig_top95.txt).
    let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let cells = line
        .chars()
        .map(|c| zeroone::puzzle::kinds::sudoku::digit_of(c, 9))
        .collect();
    let sudoku = Sudoku::from_cells(3, cells)
        .unwrap()
        .to_model("top95-1")
        .unwrap();
    vec![hex, queens, sudoku]
}

fn bench(c: &mut Criterion) {
    let mut engines = vec!["milp"];
    if zeroone::backend::registry()
        .iter()
        .any(|b| b.name == "highs")
    {
        engines.push("highs");
    }
    let mut group = c.benchmark_group("milp");
    group.sample_size(20);
    for model in boards() {
        for &engine in &engines {
            let mut backend = make_backend(engine, &BackendOptions::default()).unwrap();
            let first = solve_verified(backend.as_mut(), &model).unwrap();
            assert_eq!(first.status, Status::Solved, "{engine} {}", model.name());
            group.bench_function(format!("{engine}/{}", model.name()), |b| {
                b.iter(|| solve_verified(backend.as_mut(), &model).unwrap().status)
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
