//! The least-norm real solution of the equations (Gram matrix and Cholesky when the rows are
//! independent, nalgebra's SVD otherwise), the numbers that show why linear algebra alone does
//! not solve a puzzle. Costs `O(rank^3)` (Gram) or `O(m n min(m, n))` (SVD) floating-point
//! operations.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::dense::DenseEqualities;
use super::exact::Equation;
use super::{GaussReport, LeastNorm};
use crate::model::{Coord, Model};

pub(super) fn round_to(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    let r = (x * scale).round() / scale;
    if r == 0.0 {
        0.0 // no "-0"
    } else {
        r
    }
}

/// The least-norm solution of consistent equations from their independent rows `R x = b` (full
/// row rank): `x = R^T (R R^T)^-1 b`, with the Gram matrix built from the sparse weighted rows
/// and solved by nalgebra's Cholesky. Costs `O(rank^3)` instead of the SVD's `O(rank^2 n)` (a
/// 16x16 Sudoku: well under a second instead of a minute). `None` if Cholesky fails.
pub(super) fn gram_least_norm(rows: &[&Equation], n: usize) -> Option<nalgebra::DVector<f64>> {
    let r = rows.len();
    let mut by_var: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    for (i, row) in rows.iter().enumerate() {
        for &(v, w) in &row.terms {
            by_var[v].push((i, w as f64));
        }
    }
    let mut gram = nalgebra::DMatrix::<f64>::zeros(r, r);
    for list in &by_var {
        for &(i, wi) in list {
            for &(j, wj) in list {
                gram[(i, j)] += wi * wj;
            }
        }
    }
    let b = nalgebra::DVector::from_iterator(r, rows.iter().map(|row| row.rhs as f64));
    let y = gram.cholesky()?.solve(&b);
    let mut x = nalgebra::DVector::zeros(n);
    for (i, row) in rows.iter().enumerate() {
        for &(v, w) in &row.terms {
            x[v] += y[i] * w as f64;
        }
    }
    Some(x)
}

/// The least-norm least-squares solution `A^+ b` from nalgebra's SVD, keeping the `rank`
/// largest singular values. Costs `O(m n min(m, n))`.
pub(super) fn svd_least_norm(
    a: &nalgebra::DMatrix<f64>,
    b: &nalgebra::DVector<f64>,
    rank: usize,
) -> nalgebra::DVector<f64> {
    let mut x = nalgebra::DVector::zeros(a.ncols());
    if a.nrows() > 0 && a.ncols() > 0 && rank > 0 {
        // x = V_r S_r^-1 U_r^T b over the `rank` largest singular values: the exact rank decides
        // which singular values are zero, so no tolerance can keep a spurious tiny one. The SVD
        // is taken of A^T (tall): nalgebra's SVD of the wide A converges to a visibly wrong
        // singular value on the width-5 hex board (residual 2e-5), that of A^T does not.
        let svd = a.transpose().svd(true, true);
        // A^T = U S V^T, so A = V S U^T: A's left vectors are the columns of V, its right
        // vectors the columns of U.
        if let (Some(right), Some(left_t)) = (svd.u.as_ref(), svd.v_t.as_ref()) {
            let mut order: Vec<usize> = (0..svd.singular_values.len()).collect();
            order.sort_by(|&i, &j| svd.singular_values[j].total_cmp(&svd.singular_values[i]));
            for &k in order.iter().take(rank) {
                let coef = left_t.row(k).transpose().dot(b) / svd.singular_values[k];
                x += right.column(k) * coef;
            }
        }
    }
    x
}

/// The least-norm real solution (least squares when inconsistent): from the independent rows
/// by Cholesky when the equations are consistent, else from nalgebra's SVD.
pub(super) fn least_norm_solution(
    full: &Model,
    rank: usize,
    independent: Option<&[&Equation]>,
) -> LeastNorm {
    let (a, b) = full.dense_equalities(false);
    let n = full.num_variables();
    let x = match independent {
        Some(rows) if n > 0 && rank > 0 => {
            gram_least_norm(rows, n).unwrap_or_else(|| svd_least_norm(&a, &b, rank))
        }
        _ => svd_least_norm(&a, &b, rank),
    };
    let residual = if a.nrows() == 0 {
        0.0
    } else {
        (&a * &x - &b).norm()
    };
    let values: Vec<f64> = x.iter().map(|&v| round_to(v, 4)).collect();
    let tol = 1e-9;
    let (min, max) = if values.is_empty() {
        (0.0, 0.0)
    } else {
        (
            values.iter().copied().fold(f64::INFINITY, f64::min),
            values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    };
    LeastNorm {
        min,
        max,
        negative: x.iter().filter(|&&v| v < -tol).count(),
        fractional: x
            .iter()
            .filter(|&&v| v.abs() > tol && (v - 1.0).abs() > tol)
            .count(),
        residual: round_to(residual, 6),
        values,
    }
}

/// The least-norm values laid out like the puzzle (one line per grid row) for models whose
/// variables are board cells ([`crate::model::ModelHints::cell_grid`]: hex, Queens); `None` for
/// the others.
pub fn least_norm_grid(model: &Model, report: &GaussReport) -> Option<String> {
    if !model.hints().cell_grid {
        return None;
    }
    let mut rows: BTreeMap<usize, Vec<(usize, f64)>> = BTreeMap::new();
    for (v, var) in model.variables().iter().enumerate() {
        if let Coord::Cell { row, col } = var.coord {
            rows.entry(row)
                .or_default()
                .push((col, report.least_norm.values[v]));
        }
    }
    let widest = rows.values().map(Vec::len).max().unwrap_or(0);
    let mut s = String::new();
    for cells in rows.values_mut() {
        cells.sort_by_key(|c| c.0);
        // Hex rows are shorter at the top and bottom: indent by half a cell per missing cell.
        let _ = write!(s, "{}", " ".repeat(4 * (widest - cells.len())));
        let line: Vec<String> = cells
            .iter()
            .map(|c| format!("{:>7.3}", round_to(c.1, 3)))
            .collect();
        let _ = writeln!(s, "{}", line.join(" "));
    }
    Some(s)
}
