//! A model's rows as LP rows an engine in `f64` can take exactly: every coefficient and
//! right-hand side small, whatever the model's weights (up to 2^53).
//!
//! A row whose weights and right-hand side are all below [`DIGIT_BASE`] (2^16) is kept as it is.
//! A heavier row is first divided by the greatest common divisor of its weights (exact for 0-1
//! points: `= k` needs `g | k`, else the row is infeasible; `<= k` becomes `<= floor(k / g)`,
//! `>= k` becomes `>= ceil(k / g)`). If it is still heavy it is split into base-`B` digit rows
//! (`B` = [`DIGIT_BASE`]) joined by integer carries, the schoolbook addition written out:
//!
//! - `= k`:  `sum_i d_ij x_i + c_{j-1} - B c_j = k_j`;
//! - `<= k`: `sum_i w_i x_i + s = k` with a slack `s >= 0` in digits `s_j` in `[0, B - 1]`:
//!   `sum_i d_ij x_i + s_j + c_{j-1} - B c_j = k_j`;
//! - `>= k`: `sum_i w_i x_i = k + s`: `sum_i d_ij x_i - s_j + c_{j-1} - B c_j = k_j`;
//!
//! where `d_ij`, `k_j` are the `j`-th digits of `w_i` and `k`, `c_{-1} = 0` and the digits run
//! over `j < m` with `B^m` above both the row's total weight and `k`, so the last carry is 0.
//! Multiplying digit row `j` by `B^j` and adding telescopes the carries away: a point meeting
//! the digit rows meets the original row. Conversely, for a 0-1 point meeting the row, `s` is
//! determined (`k - sum`, or `sum - k`, below `B^m`), each carry is the partial sum divided by
//! `B^{j+1}` (an integer, since the rest of the total is a multiple of `B^{j+1}`) and lies
//! within the bounds given here (derived from the digit rows themselves). So the 0-1 points of
//! the model are exactly the projections of the integer points of the split rows, each with one
//! completion: counts stay exact. Carries and slack digits are the only non-binary variables;
//! every coefficient is below `B` in size and every bound is at most the row's length plus one.
//!
//! Cost: linear in the nonzeros; a split row of `n` variables becomes `m <= 4` rows of up to
//! `n + 3` terms with at most `2m` auxiliary variables.

use crate::model::{Model, Relation, Sense};

/// Rows with a weight or right-hand side of at least this (2^16) are split into digits of this
/// base (after division by the weights' common divisor).
pub const DIGIT_BASE: u64 = 1 << 16;

/// A column of the LP: a model variable (binary) or an auxiliary integer variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Column {
    /// Model variable with this id.
    Model(usize),
    /// Auxiliary variable with this index in [`LinearProgram::aux`].
    Aux(usize),
}

/// One LP row, `sum coefficient * column (relation) rhs`, in exact integers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinearRow {
    /// Terms (coefficients may be negative for carries and `>=` slack digits).
    pub terms: Vec<(Column, i64)>,
    /// `=`, `<=` or `>=`.
    pub relation: Relation,
    /// Right-hand side.
    pub rhs: i64,
}

/// The LP rows of a model (see the module docs).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LinearProgram {
    /// Integer bounds `(low, high)` of each auxiliary variable (carries and slack digits).
    pub aux: Vec<(i64, i64)>,
    /// The rows.
    pub rows: Vec<LinearRow>,
    /// A row has no 0-1 point at all (an equation whose right-hand side the weights' common
    /// divisor does not divide, or a `>=` row above its total weight): the model is infeasible.
    pub infeasible: bool,
    /// How many model rows were split into digits.
    pub split_rows: usize,
    /// How many model rows were divided by their weights' common divisor.
    pub divided_rows: usize,
}

/// The LP rows of `model` (its givens are not applied: pass a reduced model). Cost: linear in
/// the nonzeros.
pub fn linear_program(model: &Model) -> LinearProgram {
    let mut lp = LinearProgram::default();
    for c in model.constraints() {
        let terms: Vec<(usize, u64)> = c.terms().collect();
        lp.add_row(terms, c.sense);
    }
    lp
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl LinearProgram {
    /// Adds the model row `sum w x (sense)`, dividing and splitting it when heavy.
    fn add_row(&mut self, mut terms: Vec<(usize, u64)>, sense: Sense) {
        let relation = sense.relation();
        let mut rhs = sense.rhs();
        let heavy = |terms: &[(usize, u64)], rhs: u64| {
            rhs >= DIGIT_BASE || terms.iter().any(|&(_, w)| w >= DIGIT_BASE)
        };
        if heavy(&terms, rhs) {
            let g = terms.iter().fold(0, |g, &(_, w)| gcd(g, w));
            if g > 1 {
                self.divided_rows += 1;
                for t in &mut terms {
                    t.1 /= g;
                }
                rhs = match relation {
                    Relation::Equal if rhs % g != 0 => {
                        self.infeasible = true;
                        return;
                    }
                    Relation::Equal | Relation::AtMost => rhs / g,
                    Relation::AtLeast => rhs.div_ceil(g),
                };
            }
        }
        if !heavy(&terms, rhs) {
            self.rows.push(LinearRow {
                terms: (terms.iter())
                    .map(|&(v, w)| (Column::Model(v), w as i64))
                    .collect(),
                relation,
                rhs: rhs as i64,
            });
            return;
        }
        let total: u64 = terms.iter().map(|&(_, w)| w).sum();
        if relation == Relation::AtLeast && rhs > total {
            self.infeasible = true;
            return;
        }
        self.split_rows += 1;
        self.add_digit_rows(&terms, relation, rhs, total.max(rhs));
    }

    /// Adds a new auxiliary variable with bounds `(low, high)`; returns its column.
    fn aux_var(&mut self, low: i64, high: i64) -> Column {
        self.aux.push((low, high));
        Column::Aux(self.aux.len() - 1)
    }

    /// The digit rows of `sum w x (relation) rhs`, with `B^m > largest` (module docs).
    fn add_digit_rows(
        &mut self,
        terms: &[(usize, u64)],
        relation: Relation,
        rhs: u64,
        largest: u64,
    ) {
        let base = DIGIT_BASE as i64;
        let mut digits = 1u32;
        while DIGIT_BASE.checked_pow(digits).is_some_and(|p| p <= largest) {
            digits += 1;
        }
        // Bounds of the incoming carry c_{j-1}, and its column (none for j = 0).
        let mut carry: Option<(Column, i64, i64)> = None;
        for j in 0..digits {
            let digit = |x: u64| ((x >> (16 * j)) & (DIGIT_BASE - 1)) as i64;
            let mut row: Vec<(Column, i64)> = (terms.iter())
                .map(|&(v, w)| (Column::Model(v), digit(w)))
                .filter(|&(_, d)| d != 0)
                .collect();
            // Range of the row's left side before the outgoing carry, minus its right side.
            let (mut low, mut high) = (
                -digit(rhs),
                row.iter().map(|t| t.1).sum::<i64>() - digit(rhs),
            );
            match relation {
                Relation::Equal => {}
                Relation::AtMost => {
                    row.push((self.aux_var(0, base - 1), 1));
                    high += base - 1;
                }
                Relation::AtLeast => {
                    row.push((self.aux_var(0, base - 1), -1));
                    low -= base - 1;
                }
            }
            if let Some((column, c_low, c_high)) = carry {
                row.push((column, 1));
                low += c_low;
                high += c_high;
            }
            if j + 1 < digits {
                // B c_j = (left side) - k_j, so c_j lies in [ceil(low / B), floor(high / B)].
                let (c_low, c_high) = (
                    low.div_euclid(base) + (low.rem_euclid(base) != 0) as i64,
                    high.div_euclid(base),
                );
                let column = self.aux_var(c_low, c_high);
                row.push((column, -base));
                carry = Some((column, c_low, c_high));
            }
            self.rows.push(LinearRow {
                terms: row,
                relation: Relation::Equal,
                rhs: digit(rhs),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Coord, ModelBuilder, PuzzleKind};

    /// Whether the 0-1 point `x` can be completed to an integer point of `lp`: the carries and
    /// slack digits are tried digit row by digit row (each row has one outgoing carry, fixed
    /// by the others, and one slack digit to try).
    fn completes(lp: &LinearProgram, x: &[bool]) -> bool {
        fn search(lp: &LinearProgram, x: &[bool], aux: &mut Vec<Option<i64>>, r: usize) -> bool {
            let Some(row) = lp.rows.get(r) else {
                return true;
            };
            let open: Vec<usize> = (row.terms.iter())
                .filter_map(|t| match t.0 {
                    Column::Aux(a) if aux[a].is_none() => Some(a),
                    _ => None,
                })
                .collect();
            let value = |aux: &Vec<Option<i64>>| -> i64 {
                (row.terms.iter())
                    .map(|&(c, k)| {
                        k * match c {
                            Column::Model(v) => x[v] as i64,
                            Column::Aux(a) => aux[a].unwrap(),
                        }
                    })
                    .sum()
            };
            // Try every value of the open auxiliaries (at most two: a slack digit and a carry).
            let tried = |aux: &mut Vec<Option<i64>>| -> bool {
                let v = value(aux);
                let ok = match row.relation {
                    Relation::Equal => v == row.rhs,
                    Relation::AtMost => v <= row.rhs,
                    Relation::AtLeast => v >= row.rhs,
                };
                ok && search(lp, x, aux, r + 1)
            };
            match open.as_slice() {
                [] => tried(aux),
                [a] => (lp.aux[*a].0..=lp.aux[*a].1).any(|val| {
                    aux[*a] = Some(val);
                    let ok = tried(aux);
                    aux[*a] = None;
                    ok
                }),
                [a, b] => (lp.aux[*a].0..=lp.aux[*a].1).any(|va| {
                    (lp.aux[*b].0..=lp.aux[*b].1).any(|vb| {
                        aux[*a] = Some(va);
                        aux[*b] = Some(vb);
                        let ok = tried(aux);
                        aux[*a] = None;
                        aux[*b] = None;
                        ok
                    })
                }),
                _ => panic!("a digit row has at most two new auxiliaries"),
            }
        }
        let mut aux = vec![None; lp.aux.len()];
        search(lp, x, &mut aux, 0)
    }

    #[test]
    fn split_rows_have_exactly_the_rows_zero_one_points() {
        // Weights near 2^53 with small differences; every sense; all 2^4 points compared.
        let top = crate::model::MAX_COEFFICIENT / 4;
        let weights = [top - 3, top - 1, 65_537, 3 * 65_536 + 5];
        let sums: Vec<u64> = (0..16u32)
            .map(|m| (0..4).filter(|i| m >> i & 1 == 1).map(|i| weights[i]).sum())
            .collect();
        for &k in &[sums[5], sums[11], sums[5] + 1, sums[15], 65_537, top] {
            for sense in [Sense::Exactly(k), Sense::AtMost(k), Sense::AtLeast(k)] {
                let mut b = ModelBuilder::new("heavy", PuzzleKind::Generic);
                let v: Vec<usize> = (0..4)
                    .map(|i| b.variable(format!("v{i}"), Coord::Free))
                    .collect();
                let f = b.family("w");
                b.weighted_row(f, v, weights.to_vec(), sense);
                let lp = linear_program(&b.build().unwrap());
                assert_eq!(lp.split_rows, 1);
                assert!(lp
                    .rows
                    .iter()
                    .flat_map(|r| &r.terms)
                    .all(|t| t.1.abs() <= 65_536));
                for (m, &sum) in sums.iter().enumerate() {
                    let x: Vec<bool> = (0..4).map(|i| m >> i & 1 == 1).collect();
                    assert_eq!(completes(&lp, &x), sense.holds(sum), "{sense} at {x:?}");
                }
            }
        }
    }

    #[test]
    fn common_divisors_are_divided_out_exactly() {
        let mut b = ModelBuilder::new("g", PuzzleKind::Generic);
        let v: Vec<usize> = (0..3)
            .map(|i| b.variable(format!("v{i}"), Coord::Free))
            .collect();
        let f = b.family("w");
        let g = 1u64 << 40;
        b.weighted_row(
            f,
            v.clone(),
            vec![g, 2 * g, 3 * g],
            Sense::AtLeast(2 * g + 1),
        );
        b.weighted_row(
            f,
            v.clone(),
            vec![g, 2 * g, 3 * g],
            Sense::AtMost(4 * g - 1),
        );
        let lp = linear_program(&b.build().unwrap());
        assert_eq!(
            (lp.divided_rows, lp.split_rows, lp.infeasible),
            (2, 0, false)
        );
        assert_eq!((lp.rows[0].rhs, lp.rows[1].rhs), (3, 3));
        let mut b = ModelBuilder::new("odd", PuzzleKind::Generic);
        let v: Vec<usize> = (0..2)
            .map(|i| b.variable(format!("v{i}"), Coord::Free))
            .collect();
        let f = b.family("w");
        b.weighted_row(f, v, vec![g, g], Sense::Exactly(g + 1));
        assert!(linear_program(&b.build().unwrap()).infeasible);
    }
}
