//! The dense view of a model's equality rows, for the least-norm solution (nalgebra). It lives
//! with `gauss`, its one user, so that the model crate needs no linear algebra.

use nalgebra::{DMatrix, DVector};

use crate::model::{Constraint, Model};

/// The dense view of a model's equality rows (implemented for [`Model`]; bring the trait into
/// scope to call it as a method).
pub trait DenseEqualities {
    /// The dense view of the equality rows: `A` (one row per equality row, `= k` with its
    /// weights, in row order, then one row `x_g = 1` per given when `with_givens`) and `b` (the
    /// right-hand sides). Exact in `f64`: every coefficient is at most [`MAX_COEFFICIENT`](crate::model::MAX_COEFFICIENT).
    /// Costs `rows x variables` floats, so it is meant for small and medium models (a 9x9
    /// Sudoku is 324 x 729).
    fn dense_equalities(&self, with_givens: bool) -> (DMatrix<f64>, DVector<f64>);
}

impl DenseEqualities for Model {
    fn dense_equalities(&self, with_givens: bool) -> (DMatrix<f64>, DVector<f64>) {
        let eq: Vec<&Constraint> = self
            .constraints()
            .iter()
            .filter(|c| c.sense.is_equality())
            .collect();
        let givens = self.givens();
        let rows = eq.len() + if with_givens { givens.len() } else { 0 };
        let mut a = DMatrix::zeros(rows, self.num_variables());
        let mut b = DVector::from_element(rows, 1.0);
        for (i, c) in eq.iter().enumerate() {
            for (v, w) in c.terms() {
                a[(i, v)] = w as f64;
            }
            b[i] = c.sense.rhs() as f64;
        }
        if with_givens {
            for (j, &g) in givens.iter().enumerate() {
                a[(eq.len() + j, g)] = 1.0;
            }
        }
        (a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Coord, ModelBuilder, PuzzleKind, Sense, VarId};

    /// The model of the model crate's `givens_as_rows_adds_a_family` test (where this check
    /// was before the dense view moved here).
    fn tiny() -> Model {
        let mut b = ModelBuilder::new("tiny", PuzzleKind::Generic);
        let x: Vec<VarId> = (0..4)
            .map(|i| b.variable(format!("x{i}"), Coord::Free))
            .collect();
        let f = b.family("pair");
        b.row(f, vec![x[1], x[0]], Sense::ExactlyOne);
        b.row(f, vec![x[2], x[3]], Sense::ExactlyOne);
        let g = b.family("cross");
        b.row(g, vec![x[0], x[2]], Sense::AtMostOne);
        b.given(x[0]);
        b.build().unwrap()
    }

    #[test]
    fn givens_as_rows_are_dense_equality_rows() {
        let m = tiny().with_givens_as_rows();
        let (a, b) = m.dense_equalities(false);
        assert_eq!(a.nrows(), 3);
        assert_eq!(b.len(), 3);
        // The given x0 = 1 as the last row; the "at most one" row is left out.
        assert_eq!(
            a.row(2).iter().copied().collect::<Vec<_>>(),
            [1.0, 0.0, 0.0, 0.0]
        );
        // Givens as extra rows when asked for, on the model that keeps them as givens.
        let (a, b) = tiny().dense_equalities(true);
        assert_eq!((a.nrows(), b.len()), (3, 3));
    }
}
