//! The user's own model, built in code: one mark in every row and every column of a 4x4 grid,
//! never on one of the four corner cells (a small permutation puzzle with 4 solutions).

use zeroone::model::{Coord, Model, ModelBuilder, PuzzleKind, Sense};

/// One mark per row and per column of a 4x4 grid, none on the four corners.
pub fn corner_free_permutations() -> Model {
    let n = 4;
    let mut b = ModelBuilder::new("corner-free-4", PuzzleKind::Generic);
    let mut var = vec![vec![None; n]; n];
    for (r, row) in var.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            let corner = (r == 0 || r == n - 1) && (c == 0 || c == n - 1);
            if !corner {
                *cell = Some(b.variable(format!("r{r}c{c}"), Coord::Cell { row: r, col: c }));
            }
        }
    }
    let rows = b.family("row");
    for row in &var {
        b.row(
            rows,
            row.iter().flatten().copied().collect(),
            Sense::ExactlyOne,
        );
    }
    let columns = b.family("column");
    for c in 0..n {
        b.row(
            columns,
            var.iter().filter_map(|row| row[c]).collect(),
            Sense::ExactlyOne,
        );
    }
    b.build().expect("a well-formed model")
}
