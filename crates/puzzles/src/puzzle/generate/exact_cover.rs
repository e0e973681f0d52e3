//! Classic exact-cover benchmarks as zeroone models: pentomino tilings of a rectangle,
//! Langford pairs `L(2, n)` and the n-queens problem, as Knuth states them in TAOCP 7.2.2.1.
//! No symmetry is broken, so the counts are the published ones times the symmetries
//! (pentominoes 6x10: 9,356 = 4 x 2,339; `L(2, 12)`: 216,288 = 2 x 108,144).
//!
//! `examples/exact_cover_models.rs` writes them as JSON model files; `benches/exact_cover.rs`
//! and the conformance tests build them in process. Costs: linear in the options made
//! (pentominoes 6x10: 2,056 options of 6 items).

use crate::model::{Coord, Model, ModelBuilder, PuzzleKind, Sense};

/// The twelve pentominoes by their usual letters, each as its cells (`row`, `col`) in one
/// orientation.
const PENTOMINOES: [(char, [(i32, i32); 5]); 12] = [
    ('F', [(0, 1), (0, 2), (1, 0), (1, 1), (2, 1)]),
    ('I', [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]),
    ('L', [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1)]),
    ('N', [(0, 0), (0, 1), (0, 2), (1, 2), (1, 3)]),
    ('P', [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]),
    ('T', [(0, 0), (0, 1), (0, 2), (1, 1), (2, 1)]),
    ('U', [(0, 0), (0, 2), (1, 0), (1, 1), (1, 2)]),
    ('V', [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]),
    ('W', [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2)]),
    ('X', [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)]),
    ('Y', [(0, 0), (0, 1), (0, 2), (0, 3), (1, 1)]),
    ('Z', [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2)]),
];

/// The distinct orientations (rotations and reflections) of a piece, each shifted to touch
/// row 0 and column 0 and sorted, in a fixed order.
fn orientations(cells: &[(i32, i32)]) -> Vec<Vec<(i32, i32)>> {
    let mut all: Vec<Vec<(i32, i32)>> = Vec::new();
    for t in 0..8 {
        let mut shape: Vec<(i32, i32)> = cells
            .iter()
            .map(|&(r, c)| {
                let (r, c) = if t >= 4 { (r, -c) } else { (r, c) };
                match t % 4 {
                    0 => (r, c),
                    1 => (c, -r),
                    2 => (-r, -c),
                    _ => (-c, r),
                }
            })
            .collect();
        let r0 = shape.iter().map(|p| p.0).min().unwrap_or(0);
        let c0 = shape.iter().map(|p| p.1).min().unwrap_or(0);
        shape.iter_mut().for_each(|p| *p = (p.0 - r0, p.1 - c0));
        shape.sort_unstable();
        if !all.contains(&shape) {
            all.push(shape);
        }
    }
    all
}

/// The twelve pentominoes tiling a `rows x cols` board (60 cells for a solvable board): a
/// family `piece` (each piece once) and a family `cell` (each cell once), both "exactly one";
/// one variable per placement, labelled `<letter><orientation>@r<row>c<col>` (its top-left
/// corner). 6x10 has 9,356 tilings, 5x12 has 4,040, 3x20 has 8.
pub fn pentominoes(rows: usize, cols: usize) -> Model {
    let mut b = ModelBuilder::new(format!("pentominoes-{rows}x{cols}"), PuzzleKind::Generic);
    let mut placements: Vec<(usize, Vec<usize>)> = Vec::new();
    for (p, (letter, cells)) in PENTOMINOES.iter().enumerate() {
        for (o, shape) in orientations(cells).iter().enumerate() {
            let height = shape.iter().map(|c| c.0).max().unwrap_or(0) as usize + 1;
            let width = shape.iter().map(|c| c.1).max().unwrap_or(0) as usize + 1;
            for r in 0..=rows.saturating_sub(height) {
                for c in 0..=cols.saturating_sub(width) {
                    if height > rows || width > cols {
                        continue;
                    }
                    let v = b.variable(format!("{letter}{o}@r{r}c{c}"), Coord::Free);
                    let covered = shape
                        .iter()
                        .map(|&(dr, dc)| (r + dr as usize) * cols + c + dc as usize)
                        .collect();
                    placements.push((p, covered));
                    debug_assert_eq!(v + 1, placements.len());
                }
            }
        }
    }
    let piece = b.family("piece");
    for p in 0..PENTOMINOES.len() {
        let vars = (0..placements.len())
            .filter(|&v| placements[v].0 == p)
            .collect();
        b.row(piece, vars, Sense::ExactlyOne);
    }
    let cell = b.family("cell");
    for x in 0..rows * cols {
        let vars = (0..placements.len())
            .filter(|&v| placements[v].1.contains(&x))
            .collect();
        b.row(cell, vars, Sense::ExactlyOne);
    }
    b.build()
        .expect("every cell of a board of 5 or more cells is coverable")
}

/// Langford pairs `L(2, n)`: place two copies of each of `1..=n` in `2n` positions so that the
/// copies of `i` have `i` positions between them. Families `value` and `position`, "exactly
/// one"; variable `v<i>p<p>` puts the copies of `i` at positions `p` and `p + i + 1` (0-based).
/// Counts (mirror images both counted): `L(2, 7)` 52, `L(2, 11)` 35,584, `L(2, 12)` 216,288,
/// `L(2, 15)` 79,619,280; none when `n mod 4` is 1 or 2.
pub fn langford(n: usize) -> Model {
    let mut b = ModelBuilder::new(format!("langford-{n}"), PuzzleKind::Generic);
    let mut at: Vec<(usize, usize, usize)> = Vec::new();
    for i in 1..=n {
        for p in 0..(2 * n).saturating_sub(i + 1) {
            b.variable(format!("v{i}p{p}"), Coord::Free);
            at.push((i, p, p + i + 1));
        }
    }
    let value = b.family("value");
    for i in 1..=n {
        let vars = (0..at.len()).filter(|&v| at[v].0 == i).collect();
        b.row(value, vars, Sense::ExactlyOne);
    }
    let position = b.family("position");
    for x in 0..2 * n {
        let vars = (0..at.len())
            .filter(|&v| at[v].1 == x || at[v].2 == x)
            .collect();
        b.row(position, vars, Sense::ExactlyOne);
    }
    b.build()
        .expect("every position of L(2, n), n >= 2, has a pair through it")
}

/// The n-queens problem: one queen per row and per column ("exactly one": families `row`,
/// `column`), at most one per diagonal (`diagonal`, `antidiagonal`: secondary items). Variable
/// `r<row>c<col>` at cell (`row`, `col`). 8 has 92 solutions, 12: 14,200, 13: 73,712,
/// 14: 365,596, 15: 2,279,184.
pub fn n_queens(n: usize) -> Model {
    let mut b = ModelBuilder::new(format!("n-queens-{n}"), PuzzleKind::Generic);
    for r in 0..n {
        for c in 0..n {
            b.variable(format!("r{r}c{c}"), Coord::Cell { row: r, col: c });
        }
    }
    let (row, column) = (b.family("row"), b.family("column"));
    for i in 0..n {
        b.row(row, (0..n).map(|c| i * n + c).collect(), Sense::ExactlyOne);
        b.row(
            column,
            (0..n).map(|r| r * n + i).collect(),
            Sense::ExactlyOne,
        );
    }
    let (diagonal, antidiagonal) = (b.family("diagonal"), b.family("antidiagonal"));
    for d in 0..(2 * n).saturating_sub(1) {
        // Cells with r + c = d, and cells with c - r = d - (n - 1).
        let on = |r: usize, c: Option<usize>| c.filter(|&c| c < n).map(|c| r * n + c);
        let sum: Vec<usize> = (0..n).filter_map(|r| on(r, d.checked_sub(r))).collect();
        let diff: Vec<usize> = (0..n)
            .filter_map(|r| on(r, (r + d).checked_sub(n - 1)))
            .collect();
        b.row(diagonal, sum, Sense::AtMostOne);
        b.row(antidiagonal, diff, Sense::AtMostOne);
    }
    b.build().expect("every diagonal of a board holds a cell")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{count_verified, make_backend, BackendOptions};

    #[test]
    fn pentominoes_have_63_orientations_and_the_6x10_board_2056_placements() {
        let total: usize = PENTOMINOES.iter().map(|p| orientations(&p.1).len()).sum();
        assert_eq!(total, 63);
        let m = pentominoes(6, 10);
        assert_eq!((m.num_variables(), m.constraints().len()), (2056, 72));
    }

    #[test]
    fn small_instances_have_their_published_counts() {
        let mut bitset = make_backend("bitset", &BackendOptions::default()).unwrap();
        for (model, count) in [
            (n_queens(6), 4),
            (n_queens(8), 92),
            (langford(3), 2),
            (langford(4), 2),
            (langford(5), 0),
            (langford(7), 52),
            (pentominoes(3, 20), 8),
        ] {
            let out = count_verified(bitset.as_mut(), &model, None).unwrap();
            assert_eq!(
                (out.count.to_u128().unwrap(), out.exhaustive),
                (count, true),
                "{}",
                model.name()
            );
        }
    }
}
