//! Models the backends' unit tests share (compiled for tests only).

use crate::model::{Coord, Model, ModelBuilder, PuzzleKind, Sense};

/// The `n x n` grid of 0-1 variables `r{r}c{c}` (row-major), row `i` (family "row") then
/// column `i` (family "column") for each `i`, with sums `rows` and `columns`. Both `= 2`: the
/// matrices of OEIS A001499 (n = 4: 90, n = 5: 2,040).
pub(crate) fn line_sums(n: usize, rows: Sense, columns: Sense) -> Model {
    let mut b = ModelBuilder::new(format!("line-sums-{n}"), PuzzleKind::Generic);
    let x: Vec<Vec<usize>> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| b.variable(format!("r{r}c{c}"), Coord::Free))
                .collect()
        })
        .collect();
    let (row, column) = (b.family("row"), b.family("column"));
    for (i, line) in x.iter().enumerate() {
        b.row(row, line.clone(), rows);
        b.row(column, x.iter().map(|r| r[i]).collect(), columns);
    }
    b.build().expect("a grid of line sums is a valid model")
}
