//! General rows against auxiliary variables: counting the bare 8x8 2-star Star Battle (two
//! stars in every row and column, no two touching) with `bitset`, as three models of the same
//! placements:
//! - `direct`: 64 cell variables, `exactly 2` rows, at-most-one on every 2x2 window;
//! - `first-second-empty`: the auxiliary-variable model of issue 13 (384 variables, 882 rows:
//!   each cell is its row's first star, second star or empty, and likewise for its column);
//! - `auxiliary`: a leaner exact-cover encoding (256 variables, one per cell and (row slot,
//!   column slot)), the hardest baseline we found.
//!
//! Every model is counted once before timing and must give the same count. Compare ratios
//! within one run; the machine is shared.
//!
//! `cargo bench --bench star_battle`

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use zeroone::backend::{count_verified, make_backend, BackendOptions, Status};
use zeroone::model::{Coord, Model, ModelBuilder, PuzzleKind, Sense, VarId};

const N: usize = 8;

/// 64 cells; `exactly 2` per row and column; at most one star in every 2x2 window.
fn direct() -> Model {
    let mut b = ModelBuilder::new("star-8-2-direct", PuzzleKind::Generic);
    let x: Vec<VarId> = (0..N * N)
        .map(|i| {
            b.coord_variable(Coord::Cell {
                row: i / N,
                col: i % N,
            })
        })
        .collect();
    let rows = b.family("row");
    for r in 0..N {
        b.row(
            rows,
            (0..N).map(|c| x[r * N + c]).collect(),
            Sense::Exactly(2),
        );
    }
    let cols = b.family("column");
    for c in 0..N {
        b.row(
            cols,
            (0..N).map(|r| x[r * N + c]).collect(),
            Sense::Exactly(2),
        );
    }
    let apart = b.family("apart");
    for r in 0..N - 1 {
        for c in 0..N - 1 {
            let w = vec![
                x[r * N + c],
                x[r * N + c + 1],
                x[(r + 1) * N + c],
                x[(r + 1) * N + c + 1],
            ];
            b.row(apart, w, Sense::AtMostOne);
        }
    }
    b.build().unwrap()
}

/// The exact-cover encoding: `y[r][c][a][b]` = "the star of row slot `a` and column slot `b`
/// is at (r, c)". Each (row, slot) and (column, slot) is covered exactly once; a cell holds at
/// most one star; slot 1 lies left of (above) slot 2, so every placement is counted once; no
/// two stars touch.
fn auxiliary() -> Model {
    let mut b = ModelBuilder::new("star-8-2-auxiliary", PuzzleKind::Generic);
    let mut y = vec![[[0usize; 2]; 2]; N * N];
    for (cell, slots) in y.iter_mut().enumerate() {
        for (a, by_col) in slots.iter_mut().enumerate() {
            for (bb, id) in by_col.iter_mut().enumerate() {
                *id = b.variable(format!("r{}c{}s{a}{bb}", cell / N, cell % N), Coord::Free);
            }
        }
    }
    let at = |r: usize, c: usize| &y[r * N + c];
    let all = |r: usize, c: usize| at(r, c).iter().flatten().copied().collect::<Vec<_>>();
    let slot_rows = b.family("row-slot");
    for r in 0..N {
        for a in 0..2 {
            let vars = (0..N).flat_map(|c| at(r, c)[a].to_vec()).collect();
            b.row(slot_rows, vars, Sense::ExactlyOne);
        }
    }
    let slot_cols = b.family("column-slot");
    for c in 0..N {
        for bb in 0..2 {
            let vars = (0..N)
                .flat_map(|r| [at(r, c)[0][bb], at(r, c)[1][bb]])
                .collect();
            b.row(slot_cols, vars, Sense::ExactlyOne);
        }
    }
    let cell = b.family("cell");
    for r in 0..N {
        for c in 0..N {
            b.row(cell, all(r, c), Sense::AtMostOne);
        }
    }
    let order = b.family("order");
    for line in 0..N {
        for first in 0..N {
            for second in 0..=first {
                // Row `line`: slot 2 at column `second` <= slot 1's column `first` is out.
                let mut v = at(line, first)[0].to_vec();
                v.extend(at(line, second)[1]);
                b.row(order, v, Sense::AtMostOne);
                // Column `line`: the same for rows.
                let mut v = vec![at(first, line)[0][0], at(first, line)[1][0]];
                v.extend([at(second, line)[0][1], at(second, line)[1][1]]);
                b.row(order, v, Sense::AtMostOne);
            }
        }
    }
    let apart = b.family("apart");
    for r in 0..N - 1 {
        for c in 0..N - 1 {
            let mut w = all(r, c);
            w.extend(all(r, c + 1));
            w.extend(all(r + 1, c));
            w.extend(all(r + 1, c + 1));
            b.row(apart, w, Sense::AtMostOne);
        }
    }
    b.build().unwrap()
}

/// The auxiliary-variable model as the issue describes it (384 variables, 882 rows): each cell
/// is, seen from its row, its row's first star, second star or empty (exactly one), and
/// likewise seen from its column; every row and column has exactly one first and one second
/// star; a cell empty in its row view is empty in its column view (`empty + column first +
/// column second = 1`); a second star never lies left of (above) the first; no two touching
/// cells both hold a star.
fn first_second_empty() -> Model {
    let mut b = ModelBuilder::new("star-8-2-first-second-empty", PuzzleKind::Generic);
    // [row first, row second, row empty, column first, column second, column empty] per cell.
    let names = ["rf", "rs", "re", "cf", "cs", "ce"];
    let v: Vec<[VarId; 6]> = (0..N * N)
        .map(|i| names.map(|k| b.variable(format!("{k}{}_{}", i / N, i % N), Coord::Free)))
        .collect();
    let at = |r: usize, c: usize, k: usize| v[r * N + c][k];
    let views = b.family("cell-view");
    for cell in &v {
        b.row(views, cell[..3].to_vec(), Sense::ExactlyOne);
        b.row(views, cell[3..].to_vec(), Sense::ExactlyOne);
    }
    let slots = b.family("slot");
    for line in 0..N {
        for k in 0..2 {
            b.row(
                slots,
                (0..N).map(|c| at(line, c, k)).collect(),
                Sense::ExactlyOne,
            );
            b.row(
                slots,
                (0..N).map(|r| at(r, line, 3 + k)).collect(),
                Sense::ExactlyOne,
            );
        }
    }
    let link = b.family("link");
    for cell in &v {
        b.row(link, vec![cell[2], cell[3], cell[4]], Sense::ExactlyOne);
    }
    let order = b.family("order");
    for line in 0..N {
        for first in 0..N {
            for second in 0..first {
                b.row(
                    order,
                    vec![at(line, first, 0), at(line, second, 1)],
                    Sense::AtMostOne,
                );
                b.row(
                    order,
                    vec![at(first, line, 3), at(second, line, 4)],
                    Sense::AtMostOne,
                );
            }
        }
    }
    let touch = b.family("touch");
    for r in 0..N {
        for c in 0..N {
            for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                let (r2, c2) = (r + dr, c as isize + dc);
                if r2 < N && (0..N as isize).contains(&c2) {
                    let c2 = c2 as usize;
                    let vars = vec![at(r, c, 0), at(r, c, 1), at(r2, c2, 0), at(r2, c2, 1)];
                    b.row(touch, vars, Sense::AtMostOne);
                }
            }
        }
    }
    b.build().unwrap()
}

fn count(model: &Model) -> u128 {
    count_and_nodes(model).0
}

/// The verified count and the search nodes it took.
fn count_and_nodes(model: &Model) -> (u128, u64) {
    let mut backend = make_backend("bitset", &BackendOptions::default()).unwrap();
    let counted = count_verified(backend.as_mut(), model, None).unwrap();
    assert_eq!(
        counted.status,
        Status::Solved,
        "{}: {:?}",
        model.name(),
        counted.reason
    );
    (
        counted.count.to_u128().expect("a count below 2^128"),
        counted.stats.nodes,
    )
}

fn star_battle(c: &mut Criterion) {
    let (direct, auxiliary, issue) = (direct(), auxiliary(), first_second_empty());
    let d = count(&direct);
    for m in [&direct, &auxiliary, &issue] {
        let (c, nodes) = count_and_nodes(m);
        assert_eq!(c, d, "{}: every model counts the same placements", m.name());
        eprintln!(
            "{}: {d} placements, {} variables, {} rows, {nodes} search nodes",
            m.name(),
            m.num_variables(),
            m.constraints().len()
        );
    }
    let mut group = c.benchmark_group("star-8-2-count");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("bitset-direct", |b| b.iter(|| black_box(count(&direct))));
    group.bench_function("bitset-auxiliary", |b| {
        b.iter(|| black_box(count(&auxiliary)))
    });
    group.bench_function("bitset-first-second-empty", |b| {
        b.iter(|| black_box(count(&issue)))
    });
    group.finish();
}

criterion_group!(benches, star_battle);
criterion_main!(benches);
