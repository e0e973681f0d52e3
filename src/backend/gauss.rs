//! Gaussian elimination over the rationals: the linear relaxation of a 0-1 model.
//!
//! The equality rows `A x = b` (every "exactly one" row, `= 1`, and every general `= k` row
//! with its weights and right-hand side), with every given written as `x_i = 1`, are
//! eliminated exactly (row-reduced echelon form over the rationals: `i128` fractions with overflow checks,
//! redone with arbitrary-precision fractions when a check trips). The result is a
//! [`GaussReport`]: equations, unknowns, rank, nullity, consistency, which rows are redundant
//! (and the exact combination of earlier rows each one repeats), pivot and free variables, the
//! variables the linear algebra alone fixes, and the least-norm real solution (from `nalgebra`'s
//! SVD), whose fractional and negative entries show why linear algebra alone does not solve the
//! puzzle.
//!
//! Inequality rows ("at most one", `<= k`, `>= k`) are not equations: the relaxation ignores
//! them (the report counts them per family and says so). They are only consulted when
//! elimination fixes every variable: the unique real solution is then the only candidate, and
//! it is checked against them.
//!
//! As a backend (`--backend gauss`) it is a sound but incomplete solver: `solved` only when
//! elimination fixes every variable to 0 or 1, `infeasible` when the equations are inconsistent
//! or fix a variable to a value other than 0 or 1 (or the unique candidate breaks an
//! inequality row), `unknown` otherwise, with the reason. It accepts every row kind.
//!
//! Costs: elimination is sparse; each new row is reduced against the basis (one pass over the
//! basis rows it meets) and then cleared from the basis, so the worst case is
//! `O(equations * rank * unknowns)` fraction operations, far less on puzzle matrices. The
//! least-norm solution is a dense SVD of the `equations x unknowns` matrix, `O(m n min(m, n))`
//! floating-point operations (a 9x9 Sudoku: a few hundred milliseconds in a debug build).

use std::collections::BTreeMap;
use std::fmt::{self, Display, Write as _};
use std::time::Instant;

use num_rational::{BigRational, Ratio};
use num_traits::{CheckedAdd, CheckedDiv, CheckedMul, CheckedSub, One, Zero};
use serde::Serialize;

use crate::backend::{
    Backend, BackendError, BackendOptions, Found, SolveReport, Solver, Stats, Undecided,
};
use crate::model::{Coord, Model, Solution, VarId};

/// Fractions the elimination can run on: exact, with checked arithmetic (`None` on overflow).
trait Exact:
    Clone
    + Zero
    + One
    + PartialEq
    + Display
    + CheckedAdd
    + CheckedSub
    + CheckedMul
    + CheckedDiv
    + std::ops::Neg<Output = Self>
{
    /// The integer `v` (a weight or right-hand side, at most 2^53) as a fraction.
    fn integer(v: u64) -> Self;
}
impl Exact for Ratio<i128> {
    fn integer(v: u64) -> Self {
        Ratio::from_integer(i128::from(v))
    }
}
impl Exact for BigRational {
    fn integer(v: u64) -> Self {
        BigRational::from_integer(v.into())
    }
}

/// One equation `sum w x = rhs` of the relaxation: `(variable, weight)` terms sorted by
/// variable, and the right-hand side.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Equation {
    terms: Vec<(VarId, u64)>,
    rhs: u64,
}

/// A sparse vector: `(position, nonzero value)` sorted by position.
type Sparse<T> = Vec<(usize, T)>;

/// `a - c * b`, dropping zeros; `None` on overflow.
fn sub_scaled<T: Exact>(a: &[(usize, T)], c: &T, b: &[(usize, T)]) -> Option<Sparse<T>> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let take_a = j == b.len() || (i < a.len() && a[i].0 < b[j].0);
        let take_b = i == a.len() || (j < b.len() && b[j].0 < a[i].0);
        if take_a {
            out.push(a[i].clone());
            i += 1;
        } else if take_b {
            let v = c.checked_mul(&b[j].1)?;
            out.push((b[j].0, -v));
            j += 1;
        } else {
            let v = a[i].1.checked_sub(&c.checked_mul(&b[j].1)?)?;
            if !v.is_zero() {
                out.push((a[i].0, v));
            }
            i += 1;
            j += 1;
        }
    }
    Some(out)
}

fn lookup<T>(v: &[(usize, T)], at: usize) -> Option<&T> {
    v.binary_search_by_key(&at, |e| e.0).ok().map(|k| &v[k].1)
}

/// One row of the reduced echelon basis: `x_pivot + sum(coeffs) = rhs`, and which original
/// equations it is made of.
struct BasisRow<T> {
    pivot: VarId,
    coeffs: Sparse<T>,
    rhs: T,
    combo: Sparse<T>,
}

/// An exact value written out (`1`, `0`, `-1/2`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct ExactValue {
    text: String,
    zero: bool,
    one: bool,
}

impl ExactValue {
    fn of<T: Exact>(v: &T) -> Self {
        ExactValue {
            text: v.to_string(),
            zero: v.is_zero(),
            one: v.is_one(),
        }
    }
}

/// A redundant equation: its index, the combination of earlier equations it equals, and
/// whether the right-hand sides conflict.
type Dependency = (usize, Vec<(usize, ExactValue)>, bool);

/// What elimination found, independent of the number type it ran on.
struct Eliminated {
    pivots: Vec<VarId>,
    /// `(equation, combination of earlier equations it equals, conflicting)`.
    redundant: Vec<Dependency>,
    /// `(variable, value)` for every variable fixed by the equations.
    fixed: Vec<(VarId, ExactValue)>,
    /// Whether arbitrary-precision fractions were needed.
    big: bool,
}

/// Row-reduces `equations` over `T`; `None` on overflow.
fn eliminate<T: Exact>(equations: &[Equation]) -> Option<Eliminated> {
    let mut basis: Vec<BasisRow<T>> = Vec::new();
    let mut redundant = Vec::new();
    for (e, eq) in equations.iter().enumerate() {
        let mut coeffs: Sparse<T> = eq.terms.iter().map(|&(v, w)| (v, T::integer(w))).collect();
        let mut rhs = T::integer(eq.rhs);
        let mut combo: Sparse<T> = vec![(e, T::one())];
        for b in &basis {
            if let Some(c) = lookup(&coeffs, b.pivot).cloned() {
                coeffs = sub_scaled(&coeffs, &c, &b.coeffs)?;
                rhs = rhs.checked_sub(&c.checked_mul(&b.rhs)?)?;
                combo = sub_scaled(&combo, &c, &b.combo)?;
            }
        }
        if coeffs.is_empty() {
            // combo . A = 0 with combo[e] = 1: equation e is minus the rest of the combination.
            let terms = combo
                .iter()
                .filter(|(j, _)| *j != e)
                .map(|(j, c)| (*j, ExactValue::of(&-c.clone())))
                .collect();
            redundant.push((e, terms, !rhs.is_zero()));
            continue;
        }
        let (pivot, lead) = coeffs[0].clone();
        if !lead.is_one() {
            for entry in coeffs.iter_mut().chain(combo.iter_mut()) {
                entry.1 = entry.1.checked_div(&lead)?;
            }
            rhs = rhs.checked_div(&lead)?;
        }
        let new = BasisRow {
            pivot,
            coeffs,
            rhs,
            combo,
        };
        for b in basis.iter_mut() {
            if let Some(c) = lookup(&b.coeffs, pivot).cloned() {
                b.coeffs = sub_scaled(&b.coeffs, &c, &new.coeffs)?;
                b.rhs = b.rhs.checked_sub(&c.checked_mul(&new.rhs)?)?;
                b.combo = sub_scaled(&b.combo, &c, &new.combo)?;
            }
        }
        basis.push(new);
    }
    let mut pivots: Vec<VarId> = basis.iter().map(|b| b.pivot).collect();
    pivots.sort_unstable();
    let mut fixed: Vec<(VarId, ExactValue)> = basis
        .iter()
        .filter(|b| b.coeffs.len() == 1)
        .map(|b| (b.pivot, ExactValue::of(&b.rhs)))
        .collect();
    fixed.sort_by_key(|f| f.0);
    Some(Eliminated {
        pivots,
        redundant,
        fixed,
        big: false,
    })
}

/// Eliminates with `i128` fractions, falling back to arbitrary precision on overflow.
fn eliminate_exactly(equations: &[Equation]) -> Eliminated {
    if let Some(e) = eliminate::<Ratio<i128>>(equations) {
        return e;
    }
    let mut e =
        eliminate::<BigRational>(equations).expect("arbitrary-precision fractions never overflow");
    e.big = true;
    e
}

/// Rows of one family in the relaxation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FamilyRank {
    /// Family name (`given` for the givens).
    pub family: String,
    /// Its equality rows (`= 1` and `= k`, weighted or not): the equations.
    pub equations: usize,
    /// Its equations independent of all rows before them (in model order).
    pub independent: usize,
    /// Its equations that repeat a combination of earlier rows.
    pub redundant: usize,
    /// Its inequality rows (`<= 1`, `<= k`, `>= k`), which the relaxation ignores.
    pub ignored_inequalities: usize,
}

/// A row named by family and position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RowTerm {
    /// Family name.
    pub family: String,
    /// Row index within the family.
    pub index: usize,
    /// Exact rational coefficient (`1`, `-1`, `1/2`, ...).
    pub coefficient: String,
}

/// A redundant equation: it equals a combination of the equations before it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RedundantRow {
    /// Row index within its family.
    pub index: usize,
    /// The earlier rows and coefficients whose sum is this row (left-hand sides).
    pub combination: Vec<RowTerm>,
    /// True when the right-hand sides disagree: `0 = c` with `c != 0`, so no real solution.
    pub conflicting: bool,
}

/// A variable whose value the equations alone determine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FixedVariable {
    /// Variable label.
    pub label: String,
    /// Variable id.
    pub var: VarId,
    /// Exact value (`0`, `1`, or a fraction when no 0-1 solution can exist).
    pub value: String,
}

/// The least-norm real solution of the equations (least squares when they are inconsistent).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LeastNorm {
    /// One value per variable, rounded to 4 decimals.
    pub values: Vec<f64>,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Values below `-1e-9`.
    pub negative: usize,
    /// Values more than `1e-9` away from both 0 and 1.
    pub fractional: usize,
    /// Euclidean norm of `A x - b`, rounded to 6 decimals (0 when consistent).
    pub residual: f64,
}

/// What the relaxation concludes about 0-1 solutions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "status", content = "reason")]
pub enum Verdict {
    /// Every variable is fixed to 0 or 1 and the inequality rows hold: the unique solution.
    Solved,
    /// No 0-1 solution exists; why.
    Infeasible(String),
    /// The equations leave freedom; how much.
    Unknown(Undecided),
}

/// The full report of the Gaussian-elimination relaxation of one model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GaussReport {
    /// Model name.
    pub name: String,
    /// Puzzle kind (`hex`, `queens`, `sudoku`, `model`).
    pub kind: String,
    /// Equations: the equality rows plus one `x = 1` per given.
    pub equations: usize,
    /// Unknowns: the model's variables.
    pub unknowns: usize,
    /// Givens among the equations (family `given`).
    pub givens: usize,
    /// Inequality rows (`<= 1`, `<= k`, `>= k`), ignored by the relaxation (not equations).
    pub ignored_inequalities: usize,
    /// Exact rank of the equation matrix.
    pub rank: usize,
    /// `unknowns - rank`: dimension of the real solution set (when consistent).
    pub nullity: usize,
    /// Whether some real `x` satisfies every equation.
    pub consistent: bool,
    /// Whether 128-bit fractions overflowed and arbitrary precision was used.
    pub big_fractions: bool,
    /// Per family: equations, independent and redundant rows, ignored rows.
    pub families: Vec<FamilyRank>,
    /// Redundant rows per family name (every family with equations has an entry).
    pub redundant: BTreeMap<String, Vec<RedundantRow>>,
    /// Labels of the pivot variables (one per independent equation).
    pub pivots: Vec<String>,
    /// Labels of the free variables.
    pub free: Vec<String>,
    /// Variables fixed by elimination alone, with their exact values.
    pub fixed: Vec<FixedVariable>,
    /// The least-norm real solution.
    pub least_norm: LeastNorm,
    /// What this means for 0-1 solutions.
    pub verdict: Verdict,
    /// The unique solution, when the verdict is [`Verdict::Solved`] (to be verified).
    #[serde(skip)]
    pub solution: Option<Solution>,
}

/// Runs the relaxation on `model` and builds its report. Costs one exact elimination and one
/// dense SVD (see the module docs).
pub fn analyse(model: &Model) -> GaussReport {
    let full = model.with_givens_as_rows();
    let constraints = full.constraints();
    // The same rows, in the same order, as `Model::dense_equalities` (used for the SVD).
    let eq_rows: Vec<usize> = (0..constraints.len())
        .filter(|&r| constraints[r].sense.is_equality())
        .collect();
    let equations: Vec<Equation> = eq_rows
        .iter()
        .map(|&r| Equation {
            terms: constraints[r].terms().collect(),
            rhs: constraints[r].sense.rhs(),
        })
        .collect();
    let n = full.num_variables();
    let elim = eliminate_exactly(&equations);
    let rank = elim.pivots.len();
    let consistent = elim.redundant.iter().all(|r| !r.2);
    let (families, redundant) = family_ranks(&full, &eq_rows, &elim);
    let label = |v: VarId| full.label(v).into_owned();
    let mut is_pivot = vec![false; n];
    for &v in &elim.pivots {
        is_pivot[v] = true;
    }
    let fixed: Vec<FixedVariable> = elim
        .fixed
        .iter()
        .map(|(v, val)| FixedVariable {
            label: label(*v),
            var: *v,
            value: val.text.clone(),
        })
        .collect();
    let independent = independent_equations(&equations, &elim);
    let least_norm = least_norm_solution(&full, rank, consistent.then_some(independent.as_slice()));
    let ignored: usize = families.iter().map(|f| f.ignored_inequalities).sum();
    let (verdict, solution) = verdict_of(&full, &eq_rows, &elim, consistent);
    GaussReport {
        name: model.name().to_string(),
        kind: model.kind().name().to_string(),
        equations: equations.len(),
        unknowns: n,
        givens: model.givens().len(),
        ignored_inequalities: ignored,
        rank,
        nullity: n - rank,
        consistent,
        big_fractions: elim.big,
        families,
        redundant,
        pivots: elim.pivots.iter().map(|&v| label(v)).collect(),
        free: (0..n).filter(|&v| !is_pivot[v]).map(label).collect(),
        fixed,
        least_norm,
        verdict,
        solution,
    }
}

/// The name of the family of row `row` of `model`.
fn family_name(model: &Model, row: usize) -> String {
    model.families()[model.constraints()[row].family]
        .name
        .clone()
}

/// Per family: its equations, how many are independent and redundant, the inequalities the
/// relaxation ignores; and per family the redundant rows, each as a combination of the rows
/// before it. `eq_rows[e]` is the model row of equation `e`. Linear in the rows and the
/// combinations' terms.
fn family_ranks(
    full: &Model,
    eq_rows: &[usize],
    elim: &Eliminated,
) -> (Vec<FamilyRank>, BTreeMap<String, Vec<RedundantRow>>) {
    let constraints = full.constraints();
    let mut families: Vec<FamilyRank> = full
        .families()
        .iter()
        .map(|f| FamilyRank {
            family: f.name.clone(),
            equations: 0,
            independent: 0,
            redundant: 0,
            ignored_inequalities: 0,
        })
        .collect();
    for c in constraints {
        if c.sense.is_equality() {
            families[c.family].equations += 1;
        } else {
            families[c.family].ignored_inequalities += 1;
        }
    }
    let mut redundant: BTreeMap<String, Vec<RedundantRow>> = families
        .iter()
        .filter(|f| f.equations > 0)
        .map(|f| (f.family.clone(), Vec::new()))
        .collect();
    for (e, terms, conflicting) in &elim.redundant {
        let row = eq_rows[*e];
        families[constraints[row].family].redundant += 1;
        let combination = terms
            .iter()
            .map(|(j, c)| RowTerm {
                family: family_name(full, eq_rows[*j]),
                index: constraints[eq_rows[*j]].index,
                coefficient: c.text.clone(),
            })
            .collect();
        redundant
            .entry(family_name(full, row))
            .or_default()
            .push(RedundantRow {
                index: constraints[row].index,
                combination,
                conflicting: *conflicting,
            });
    }
    for f in &mut families {
        f.independent = f.equations - f.redundant;
    }
    (families, redundant)
}

/// The equations elimination kept (not a combination of the ones before them).
fn independent_equations<'a>(equations: &'a [Equation], elim: &Eliminated) -> Vec<&'a Equation> {
    let mut dependent = vec![false; equations.len()];
    for (e, _, _) in &elim.redundant {
        dependent[*e] = true;
    }
    (0..equations.len())
        .filter(|&e| !dependent[e])
        .map(|e| &equations[e])
        .collect()
}

/// What the elimination says about 0-1 solutions: inconsistent equations or a variable fixed
/// outside {0, 1} (infeasible), every variable fixed (the one candidate, checked against the
/// inequalities the relaxation ignored), or free variables left (undecided). Linear in the
/// model.
fn verdict_of(
    full: &Model,
    eq_rows: &[usize],
    elim: &Eliminated,
    consistent: bool,
) -> (Verdict, Option<Solution>) {
    let constraints = full.constraints();
    let n = full.num_variables();
    if !consistent {
        let (e, _, _) = elim.redundant.iter().find(|r| r.2).expect("a conflict");
        let row = &constraints[eq_rows[*e]];
        let why = format!(
            "the equations are inconsistent: row {} of family '{}' contradicts the rows before it",
            row.index,
            family_name(full, eq_rows[*e])
        );
        return (Verdict::Infeasible(why), None);
    }
    if let Some((v, val)) = elim.fixed.iter().find(|(_, x)| !x.zero && !x.one) {
        let why = format!(
            "elimination fixes '{}' to {}, which is neither 0 nor 1",
            full.label(*v),
            val.text
        );
        return (Verdict::Infeasible(why), None);
    }
    if elim.fixed.len() < n {
        let rank = elim.pivots.len();
        let undecided = Undecided::FreeVariables {
            free: n - rank,
            rank,
            unknowns: n,
            fixed: elim.fixed.len(),
        };
        return (Verdict::Unknown(undecided), None);
    }
    let ones: Vec<VarId> = elim
        .fixed
        .iter()
        .filter(|(_, x)| x.one)
        .map(|(v, _)| *v)
        .collect();
    let solution = Solution::new(ones);
    let value = solution.to_bools(n);
    let broken = constraints.iter().find(|c| {
        let sum: u64 = c.terms().filter(|&(v, _)| value[v]).map(|(_, w)| w).sum();
        !c.sense.is_equality() && !c.sense.holds(sum)
    });
    match broken {
        Some(c) => (
            Verdict::Infeasible(format!(
                "the equations have one solution, and it breaks row {} of family '{}' ({})",
                c.index,
                full.families()[c.family].name,
                c.sense
            )),
            None,
        ),
        None => (Verdict::Solved, Some(solution)),
    }
}

fn round_to(x: f64, decimals: i32) -> f64 {
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
fn gram_least_norm(rows: &[&Equation], n: usize) -> Option<nalgebra::DVector<f64>> {
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
fn svd_least_norm(
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
fn least_norm_solution(full: &Model, rank: usize, independent: Option<&[&Equation]>) -> LeastNorm {
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

impl GaussReport {
    /// The report as Markdown, for people and for the harness's reports: [`Self::exact_markdown`]
    /// followed by the least-norm real solution.
    pub fn to_markdown(&self) -> String {
        let mut s = self.exact_markdown();
        let ln = &self.least_norm;
        let _ = writeln!(s, "### Least-norm real solution\n");
        let _ = writeln!(
            s,
            "min {}, max {}, {} negative and {} fractional values of {}, residual {}.\n",
            ln.min,
            ln.max,
            ln.negative,
            ln.fractional,
            ln.values.len(),
            ln.residual
        );
        s
    }

    /// The exact part of the report as Markdown (sizes, ranks, redundant rows, fixed and free
    /// variables, verdict): no floating-point figures, so it is the same on every machine.
    pub fn exact_markdown(&self) -> String {
        let mut s = String::new();
        let yes = |b: bool| if b { "yes" } else { "no" };
        let _ = writeln!(s, "## Gaussian elimination: {}\n", self.name);
        let _ = writeln!(s, "| quantity | value |\n|---|---|");
        let _ = writeln!(
            s,
            "| equations | {} ({} given) |",
            self.equations, self.givens
        );
        let _ = writeln!(s, "| unknowns | {} |", self.unknowns);
        let _ = writeln!(s, "| rank | {} |", self.rank);
        let _ = writeln!(
            s,
            "| nullity (dimension of the real solutions) | {} |",
            self.nullity
        );
        let _ = writeln!(s, "| consistent | {} |", yes(self.consistent));
        let redundant: usize = self.families.iter().map(|f| f.redundant).sum();
        let _ = writeln!(s, "| redundant equations | {redundant} |");
        let _ = writeln!(s, "| fixed by elimination | {} |", self.fixed.len());
        let _ = writeln!(
            s,
            "| inequality rows (ignored: not equations) | {} |",
            self.ignored_inequalities
        );
        let verdict = match &self.verdict {
            Verdict::Solved => "solved: every variable fixed to 0 or 1".to_string(),
            Verdict::Infeasible(r) => format!("infeasible: {r}"),
            Verdict::Unknown(r) => format!("unknown: {r}"),
        };
        let _ = writeln!(s, "| verdict | {verdict} |\n");

        let _ = writeln!(s, "### Families (in elimination order)\n");
        let _ = writeln!(
            s,
            "| family | equations | independent | redundant | inequalities (ignored) |\n|---|---|---|---|---|"
        );
        for f in &self.families {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} |",
                f.family, f.equations, f.independent, f.redundant, f.ignored_inequalities
            );
        }
        s.push('\n');

        let _ = writeln!(s, "### Redundant rows\n");
        if redundant == 0 {
            let _ = writeln!(s, "None: the equations are independent.\n");
        } else {
            for family in self.families.iter().map(|f| &f.family) {
                let Some(rows) = self.redundant.get(family) else {
                    continue;
                };
                for r in rows {
                    let _ = writeln!(
                        s,
                        "- {family} {} = {}{}",
                        r.index,
                        combination_text(&r.combination, 12),
                        if r.conflicting {
                            " (right-hand sides disagree: inconsistent)"
                        } else {
                            ""
                        }
                    );
                }
            }
            s.push('\n');
        }

        let _ = writeln!(s, "### Fixed by elimination\n");
        if self.fixed.is_empty() {
            let _ = writeln!(s, "None.\n");
        } else {
            let list: Vec<String> = self
                .fixed
                .iter()
                .map(|f| format!("{} = {}", f.label, f.value))
                .collect();
            let _ = writeln!(s, "{}\n", list_text(&list, 40));
        }

        let _ = writeln!(s, "### Pivot and free variables\n");
        let _ = writeln!(
            s,
            "- pivots ({}): {}",
            self.pivots.len(),
            list_text(&self.pivots, 40)
        );
        let _ = writeln!(
            s,
            "- free ({}): {}\n",
            self.free.len(),
            list_text(&self.free, 40)
        );
        s
    }
}

/// Writes `terms` as `row 0 + row 1 - diag 3 + 1/2 anti 2`, at most `max` terms.
fn combination_text(terms: &[RowTerm], max: usize) -> String {
    if terms.is_empty() {
        return "0".into();
    }
    let mut s = String::new();
    for (i, t) in terms.iter().take(max).enumerate() {
        let (neg, mag) = match t.coefficient.strip_prefix('-') {
            Some(m) => (true, m),
            None => (false, t.coefficient.as_str()),
        };
        let sign = match (i, neg) {
            (0, false) => "",
            (0, true) => "-",
            (_, false) => " + ",
            (_, true) => " - ",
        };
        let coef = if mag == "1" {
            String::new()
        } else {
            format!("{mag} ")
        };
        let _ = write!(s, "{sign}{coef}{} {}", t.family, t.index);
    }
    if terms.len() > max {
        let _ = write!(s, " ... ({} more terms)", terms.len() - max);
    }
    s
}

fn list_text(items: &[String], max: usize) -> String {
    if items.is_empty() {
        return "none".into();
    }
    let mut s = items
        .iter()
        .take(max)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > max {
        let _ = write!(s, ", ... ({} more)", items.len() - max);
    }
    s
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

/// The Gaussian-elimination backend (`--backend gauss`): sound, incomplete; see the module docs.
#[derive(Debug, Clone, Default)]
pub struct Gauss;

impl Gauss {
    /// A Gauss backend; it reads no options.
    pub fn new(_options: &BackendOptions) -> Self {
        Gauss
    }
}

impl Solver for Gauss {
    fn solve(&mut self, model: &Model) -> Result<SolveReport, BackendError> {
        let start = Instant::now();
        let report = analyse(model);
        let mut stats = Stats::default();
        for (key, value) in [
            ("equations", report.equations),
            ("unknowns", report.unknowns),
            ("rank", report.rank),
            ("nullity", report.nullity),
            ("fixed", report.fixed.len()),
            (
                "redundant",
                report.families.iter().map(|f| f.redundant).sum(),
            ),
        ] {
            stats.extra.insert(key.into(), value.into());
        }
        stats
            .extra
            .insert("consistent".into(), report.consistent.into());
        stats.seconds = start.elapsed().as_secs_f64();
        let found = match report.verdict {
            Verdict::Solved => Found::Solution(report.solution.expect("solved has a solution")),
            Verdict::Infeasible(_) => Found::Infeasible,
            Verdict::Unknown(reason) => Found::Undecided(reason),
        };
        Ok(SolveReport { found, stats })
    }
}

/// Exact only in the case it solves at all: when the equations fix every variable, the
/// solution is the model's only one, hence optimal. Otherwise `unknown`, as for a solve.
impl crate::backend::Optimizer for Gauss {
    fn optimize(&mut self, model: &Model) -> Result<crate::backend::OptimizeReport, BackendError> {
        use crate::backend::OptimizeReport;
        let report = self.solve(model)?;
        Ok(match (report.found, model.objective()) {
            (Found::Solution(s), Some(o)) => {
                let value = o.value(&s.ones);
                OptimizeReport::optimal(s, value, report.stats)
            }
            (found, _) => OptimizeReport::without_solution(found, report.stats),
        })
    }
}

impl Backend for Gauss {
    fn name(&self) -> &'static str {
        "gauss"
    }
    fn solver(&mut self) -> Option<&mut dyn Solver> {
        Some(self)
    }
    fn optimizer(&mut self) -> Option<&mut dyn crate::backend::Optimizer> {
        Some(self)
    }
    /// Every row kind: equality rows (weighted or not) are eliminated with their right-hand
    /// sides, inequality rows are ignored by the relaxation and checked on the unique
    /// candidate (see the module docs).
    fn rows_supported(&self, _model: &Model) -> Result<(), String> {
        Ok(())
    }
}

impl fmt::Display for GaussReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_markdown())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ModelBuilder, PuzzleKind, Sense};
    use crate::puzzle::{HexBoard, QueensBoard, Sudoku};

    fn svd_rank(model: &Model) -> usize {
        let (a, _) = model.with_givens_as_rows().dense_equalities(false);
        if a.nrows() == 0 {
            return 0;
        }
        a.svd(false, false).rank(1e-9)
    }

    #[test]
    fn bare_width_nine_hex_has_rank_24_and_three_dependent_rows() {
        let m = HexBoard::geometry(9).unwrap().to_model("hex-9");
        let r = analyse(&m);
        assert_eq!(
            (r.equations, r.unknowns, r.rank, r.nullity),
            (27, 61, 24, 37)
        );
        assert!(r.consistent);
        let dependent: usize = r.families.iter().map(|f| f.redundant).sum();
        assert_eq!(dependent, 3);
        assert_eq!(svd_rank(&m), 24);
        assert!(matches!(r.verdict, Verdict::Unknown(_)));
        // The least-norm solution satisfies the equations and is not a 0-1 vector.
        assert!(r.least_norm.residual < 1e-6);
        assert!(r.least_norm.fractional > 0);
    }

    #[test]
    fn exact_rank_matches_the_svd_rank_on_every_kind() {
        let mut models = vec![];
        for w in [1, 3, 5, 7, 9, 11] {
            models.push(HexBoard::geometry(w).unwrap().to_model(format!("hex-{w}")));
        }
        for n in [3, 4, 6] {
            models.push(QueensBoard::bare(n).to_model(format!("queens-{n}")));
        }
        models.push(Sudoku::empty(2).to_model("s4").unwrap());
        models.push(Sudoku::empty(3).to_model("s9").unwrap());
        let clues: Vec<Option<usize>> = "12.43.........21"
            .chars()
            .map(|c| crate::puzzle::kinds::sudoku::digit_of(c, 4))
            .collect();
        models.push(
            Sudoku::from_cells(2, clues)
                .unwrap()
                .to_model("s4c")
                .unwrap(),
        );
        for m in &models {
            let r = analyse(m);
            assert_eq!(r.rank, svd_rank(m), "{}", m.name());
            assert_eq!(r.rank + r.nullity, r.unknowns);
            assert_eq!(r.pivots.len() + r.free.len(), r.unknowns);
            let redundant: usize = r.families.iter().map(|f| f.redundant).sum();
            assert_eq!(r.rank + redundant, r.equations, "{}", m.name());
            // Every model here is consistent, so the least-norm solution solves A x = 1.
            assert!(r.least_norm.residual < 1e-6, "{}: residual", m.name());
            // The report's Cholesky route agrees with the SVD pseudo-inverse.
            let (a, b) = m.with_givens_as_rows().dense_equalities(false);
            let by_svd = svd_least_norm(&a, &b, r.rank);
            for (v, x) in by_svd.iter().enumerate() {
                assert!(
                    (x - r.least_norm.values[v]).abs() < 1e-3,
                    "{} var {v}",
                    m.name()
                );
            }
        }
    }

    #[test]
    fn every_redundant_row_is_exactly_its_combination() {
        let m = Sudoku::empty(2).to_model("s4").unwrap();
        let r = analyse(&m);
        let row_of = |family: &str, index: usize| {
            m.family_rows(m.family_id(family).unwrap())
                .nth(index)
                .unwrap()
                .vars
                .clone()
        };
        let mut checked = 0;
        for (family, rows) in &r.redundant {
            for red in rows {
                let mut sum = vec![BigRational::zero(); m.num_variables()];
                for t in &red.combination {
                    let c: BigRational = t.coefficient.parse().unwrap();
                    for v in row_of(&t.family, t.index) {
                        sum[v] += c.clone();
                    }
                }
                let mut target = vec![BigRational::zero(); m.num_variables()];
                for v in row_of(family, red.index) {
                    target[v] = BigRational::one();
                }
                assert_eq!(sum, target, "{family} {}", red.index);
                checked += 1;
            }
        }
        assert!(checked > 0);
    }

    #[test]
    fn a_full_sudoku_grid_is_not_fixed_without_signs() {
        // Every cell given: the givens are fixed, but "the other three digits of a cell sum to
        // 0" does not fix them over the reals (they could be 1, -1, 0).
        let grid = "1234341221434321";
        let cells = grid
            .chars()
            .map(|c| crate::puzzle::kinds::sudoku::digit_of(c, 4))
            .collect();
        let m = Sudoku::from_cells(2, cells)
            .unwrap()
            .to_model("full")
            .unwrap();
        let r = analyse(&m);
        assert!(r.consistent);
        assert_eq!(r.fixed.len(), 16);
        assert!(r.fixed.iter().all(|f| f.value == "1"));
        assert!(matches!(r.verdict, Verdict::Unknown(_)));
    }

    #[test]
    fn fully_fixed_models_are_solved() {
        // a + b = 1, b + c = 1, b = 1 (given): a = c = 0, b = 1.
        let mut b = ModelBuilder::new("fixed", PuzzleKind::Generic);
        for l in ["a", "b", "c"] {
            b.variable(l, Coord::Free);
        }
        let f = b.family("pair");
        b.row(f, vec![0, 1], Sense::ExactlyOne);
        b.row(f, vec![1, 2], Sense::ExactlyOne);
        b.given(1);
        let m = b.build().unwrap();
        let r = analyse(&m);
        assert_eq!(r.verdict, Verdict::Solved);
        let values: Vec<&str> = r.fixed.iter().map(|f| f.value.as_str()).collect();
        assert_eq!(values, vec!["0", "1", "0"]);
        let s = r.solution.unwrap();
        assert_eq!(s.ones, vec![1]);
        assert!(crate::model::verify::Verifier::new(&m).accepts(&s));
        // The same equations with an at-most-one row that the unique candidate breaks.
        let mut b = ModelBuilder::new("broken", PuzzleKind::Generic);
        for l in ["a", "b"] {
            b.variable(l, Coord::Free);
        }
        let f = b.family("one");
        b.row(f, vec![0], Sense::ExactlyOne);
        b.row(f, vec![1], Sense::ExactlyOne);
        let g = b.family("apart");
        b.row(g, vec![0, 1], Sense::AtMostOne);
        let r = analyse(&b.build().unwrap());
        assert!(matches!(r.verdict, Verdict::Infeasible(ref why) if why.contains("apart")));
    }

    #[test]
    fn contradictions_and_fractions_are_infeasible() {
        // x0 + x1 = 1, x0 = 1 (given), x1 + x2 = 1, x2 = 1 (given) is inconsistent only
        // through the givens; the builder rejects direct clashes, so use three rows instead.
        let mut b = ModelBuilder::new("odd", PuzzleKind::Generic);
        for i in 0..3 {
            b.variable(format!("x{i}"), Coord::Free);
        }
        let f = b.family("pair");
        b.row(f, vec![0, 1], Sense::ExactlyOne);
        b.row(f, vec![1, 2], Sense::ExactlyOne);
        b.row(f, vec![0, 2], Sense::ExactlyOne);
        let m = b.build().unwrap();
        let r = analyse(&m);
        // The triangle fixes every variable to 1/2.
        assert_eq!(r.fixed.len(), 3);
        assert!(r.fixed.iter().all(|f| f.value == "1/2"));
        assert!(matches!(r.verdict, Verdict::Infeasible(_)));

        let mut b = ModelBuilder::new("clash", PuzzleKind::Generic);
        for i in 0..3 {
            b.variable(format!("x{i}"), Coord::Free);
        }
        let f = b.family("f");
        b.row(f, vec![0, 1], Sense::ExactlyOne);
        b.row(f, vec![2], Sense::ExactlyOne);
        b.row(f, vec![0, 1, 2], Sense::ExactlyOne);
        let m = b.build().unwrap();
        let r = analyse(&m);
        assert!(!r.consistent);
        assert!(r.redundant["f"][0].conflicting);
        assert!(matches!(r.verdict, Verdict::Infeasible(_)));
    }

    #[test]
    fn at_most_one_rows_are_counted_but_ignored() {
        let m = QueensBoard::bare(4).to_model("q4");
        let r = analyse(&m);
        assert_eq!(r.ignored_inequalities, 9);
        assert_eq!(r.equations, 8);
        assert_eq!(r.rank, 7);
        assert!(r.to_markdown().contains("ignored"));
    }

    #[test]
    fn overflowing_fractions_fall_back_to_big_ones() {
        // A chain whose elimination needs no big numbers stays on i128.
        let m = HexBoard::geometry(5).unwrap().to_model("h5");
        assert!(!analyse(&m).big_fractions);
        // sub_scaled reports overflow instead of wrapping.
        let big = Ratio::new(i128::MAX, 1);
        assert!(sub_scaled(
            &[(0, big)],
            &Ratio::new(2, 1),
            &[(0, Ratio::new(-i128::MAX, 1))]
        )
        .is_none());
    }

    fn variables(b: &mut ModelBuilder, labels: &[&str]) -> Vec<VarId> {
        labels.iter().map(|l| b.variable(*l, Coord::Free)).collect()
    }

    #[test]
    fn weighted_equalities_are_eliminated_with_their_right_hand_sides() {
        // a + 2b + 3c = 3, b + c + d = 2, 2a + 4b + 6c = 6 (twice the first), a + d >= 1.
        // By hand: the first two rows are independent (pivots a and b), the third is 2 x the
        // first, so rank 2 and nullity 4 - 2 = 2; the >= row is ignored.
        let mut b = ModelBuilder::new("weighted", PuzzleKind::Generic);
        let x = variables(&mut b, &["a", "b", "c", "d"]);
        let f = b.family("eq");
        b.weighted_row(f, vec![x[0], x[1], x[2]], vec![1, 2, 3], Sense::Exactly(3));
        b.row(f, vec![x[1], x[2], x[3]], Sense::Exactly(2));
        b.weighted_row(f, vec![x[0], x[1], x[2]], vec![2, 4, 6], Sense::Exactly(6));
        let g = b.family("cover");
        b.row(g, vec![x[0], x[3]], Sense::AtLeast(1));
        let m = b.build().unwrap();
        let r = analyse(&m);
        assert_eq!(
            (
                r.equations,
                r.unknowns,
                r.rank,
                r.nullity,
                r.ignored_inequalities
            ),
            (3, 4, 2, 2, 1)
        );
        assert!(r.consistent);
        let red = &r.redundant["eq"];
        assert_eq!(red.len(), 1);
        assert_eq!((red[0].index, red[0].conflicting), (2, false));
        let combo: Vec<(usize, &str)> = red[0]
            .combination
            .iter()
            .map(|t| (t.index, t.coefficient.as_str()))
            .collect();
        assert_eq!(combo, vec![(0, "2")]);
        assert_eq!(r.families[1].ignored_inequalities, 1);
        assert_eq!(r.rank, svd_rank(&m));
        // The least-norm solution solves the weighted equations (residual against A x = b).
        assert!(r.least_norm.residual < 1e-6, "{}", r.least_norm.residual);
        let (a, rhs) = m.dense_equalities(false);
        let by_svd = svd_least_norm(&a, &rhs, r.rank);
        for (v, x) in by_svd.iter().enumerate() {
            assert!((x - r.least_norm.values[v]).abs() < 1e-3, "var {v}");
        }
        assert!(r
            .exact_markdown()
            .contains("| inequality rows (ignored: not equations) | 1 |"));

        // The same rows with 2a + 4b + 6c = 5: the right-hand sides disagree (5 != 2 x 3).
        let mut b = ModelBuilder::new("clash", PuzzleKind::Generic);
        let x = variables(&mut b, &["a", "b", "c"]);
        let f = b.family("eq");
        b.weighted_row(f, x.clone(), vec![1, 2, 3], Sense::Exactly(3));
        b.weighted_row(f, x.clone(), vec![2, 4, 6], Sense::Exactly(5));
        let r = analyse(&b.build().unwrap());
        assert!(!r.consistent);
        assert!(r.redundant["eq"][0].conflicting);
        assert!(matches!(r.verdict, Verdict::Infeasible(_)));
    }

    #[test]
    fn weighted_rows_can_fix_every_variable() {
        // 2a + b = 2, a + b = 1, b + c = 1: a = 1, b = 0, c = 1 by hand.
        let build = |extra: Option<Sense>| {
            let mut b = ModelBuilder::new("fix", PuzzleKind::Generic);
            let x = variables(&mut b, &["a", "b", "c"]);
            let f = b.family("eq");
            b.weighted_row(f, vec![x[0], x[1]], vec![2, 1], Sense::Exactly(2));
            b.row(f, vec![x[0], x[1]], Sense::ExactlyOne);
            b.row(f, vec![x[1], x[2]], Sense::ExactlyOne);
            if let Some(sense) = extra {
                let g = b.family("extra");
                b.row(g, vec![x[0], x[2]], sense);
            }
            b.build().unwrap()
        };
        let m = build(Some(Sense::AtLeast(2)));
        let mut gauss = Gauss;
        let out = crate::backend::solve_verified(&mut gauss, &m).unwrap();
        assert_eq!(out.status, crate::backend::Status::Solved);
        assert!(out.verified);
        let r = analyse(&m);
        let values: Vec<&str> = r.fixed.iter().map(|f| f.value.as_str()).collect();
        assert_eq!(values, vec!["1", "0", "1"]);
        // The unique candidate has a + c = 2, which breaks "a + c <= 1".
        let r = analyse(&build(Some(Sense::AtMostOne)));
        assert!(
            matches!(r.verdict, Verdict::Infeasible(ref why) if why.contains("extra") && why.contains("<= 1"))
        );
        // 2a = 1 fixes a to 1/2.
        let mut b = ModelBuilder::new("half", PuzzleKind::Generic);
        let x = variables(&mut b, &["a"]);
        let f = b.family("eq");
        b.weighted_row(f, x, vec![2], Sense::Exactly(1));
        let r = analyse(&b.build().unwrap());
        assert_eq!(r.fixed[0].value, "1/2");
        assert!(matches!(r.verdict, Verdict::Infeasible(_)));
    }

    #[test]
    fn two_per_line_matrices_have_rank_2n_minus_1() {
        // Rows and columns "= 2" on an n x n grid: the row sums and the column sums both total
        // every cell, so one equation repeats the others (rank 2n - 1), consistently (2n = 2n).
        // With columns "= 1" instead the totals differ (2n != n): inconsistent.
        for (col_rhs, consistent) in [(2, true), (1, false)] {
            let n = 4;
            let mut b = ModelBuilder::new("two", PuzzleKind::Generic);
            let x: Vec<Vec<VarId>> = (0..n)
                .map(|r| {
                    (0..n)
                        .map(|c| b.variable(format!("r{r}c{c}"), Coord::Free))
                        .collect()
                })
                .collect();
            let rows = b.family("row");
            let cols = b.family("col");
            for (i, line) in x.iter().enumerate() {
                b.row(rows, line.clone(), Sense::Exactly(2));
                b.row(
                    cols,
                    x.iter().map(|r| r[i]).collect(),
                    Sense::Exactly(col_rhs),
                );
            }
            let m = b.build().unwrap();
            let r = analyse(&m);
            assert_eq!(
                (r.equations, r.rank, r.nullity),
                (2 * n, 2 * n - 1, n * n - 2 * n + 1)
            );
            assert_eq!(r.consistent, consistent);
            assert_eq!(r.rank, svd_rank(&m));
        }
    }
}
