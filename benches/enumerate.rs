//! Benchmarks of the enumerator and the dp counter (release build; the machine is shared, so
//! compare the ratios within one run rather than absolute times).
//!
//! `cargo bench --bench enumerate`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use zeroone::backend::dp::LineProblem;
use zeroone::backend::enumerate::{EnumSettings, Enumerator, Order};
use zeroone::model::Model;
use zeroone::puzzle::kinds::hex::lines::hex_count;
use zeroone::puzzle::{HexBoard, QueensBoard};

fn three_axes(parallel: bool) -> EnumSettings {
    EnumSettings {
        families: Some(vec!["row".into(), "diag".into(), "anti".into()]),
        parallel,
        ..EnumSettings::default()
    }
}

/// A coloured width-9 board: the regions grow from the pieces of the first three-axis
/// placement (each cell joins the region of the nearest piece, ties to the lower row), so the
/// board has at least that solution.
fn coloured_width_nine() -> Model {
    let board = HexBoard::geometry(9).unwrap();
    let m = board.to_model("w9");
    let (first, _) = Enumerator::new(&m, &EnumSettings::default())
        .unwrap()
        .first();
    let cells: Vec<(usize, usize)> = board.cells().collect();
    let cube = |(r, k): (usize, usize)| {
        let (r, p) = (r as i64, board.diag(r, k) as i64);
        (r, p, p - r)
    };
    let pieces: Vec<(i64, i64, i64)> = first
        .unwrap()
        .ones
        .iter()
        .map(|&v| cube(cells[v]))
        .collect();
    let mut regions: Vec<Vec<usize>> = (0..9).map(|r| vec![0; board.row_len(r)]).collect();
    for &(r, k) in &cells {
        let (a, b, c) = cube((r, k));
        let nearest = (0..pieces.len())
            .min_by_key(|&i| {
                let (x, y, z) = pieces[i];
                ((a - x).abs() + (b - y).abs() + (c - z).abs(), i)
            })
            .unwrap();
        regions[r][k] = nearest;
    }
    HexBoard::coloured(regions).unwrap().to_model("w9-coloured")
}

fn enumerator(c: &mut Criterion) {
    let mut group = c.benchmark_group("enum");
    group.sample_size(10);
    for width in [13usize, 15] {
        let m = HexBoard::geometry(width).unwrap().to_model("hex");
        for parallel in [false, true] {
            let e = Enumerator::new(&m, &three_axes(parallel)).unwrap();
            let name = format!(
                "count three axes w{width} {}",
                if parallel { "rayon" } else { "1 thread" }
            );
            group.bench_function(name, |b| b.iter(|| black_box(e.count(None).0)));
        }
    }
    let board = coloured_width_nine();
    for order in [Order::Fixed, Order::Mrv] {
        let settings = EnumSettings {
            order,
            ..EnumSettings::default()
        };
        group.bench_function(format!("solve coloured w9 {order:?}"), |b| {
            b.iter(|| {
                let e = Enumerator::new(&board, &settings).unwrap();
                black_box(e.first().0)
            })
        });
    }
    group.finish();
}

fn dp(c: &mut Criterion) {
    let mut group = c.benchmark_group("dp");
    group.sample_size(10);
    for width in [13usize, 15, 17] {
        group.bench_function(format!("hex three axes w{width}"), |b| {
            b.iter(|| black_box(hex_count(width, (true, true)).unwrap().unwrap().0))
        });
    }
    let q = QueensBoard::bare(12).to_model("q12");
    let problem = LineProblem::from_model(&q, Some("row")).unwrap();
    group.bench_function("queens no touching n12", |b| {
        b.iter(|| black_box(problem.count().unwrap().0))
    });
    group.finish();
}

criterion_group!(benches, enumerator, dp);
criterion_main!(benches);
