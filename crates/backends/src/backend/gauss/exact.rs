//! Exact elimination over the rationals: `i128` fractions with overflow checks, redone with
//! arbitrary-precision fractions when a check trips. Costs `O(equations * rank * unknowns)`
//! fraction operations in the worst case, far less on puzzle matrices (see the parent module).

use std::fmt::Display;

use num_rational::{BigRational, Ratio};
use num_traits::{CheckedAdd, CheckedDiv, CheckedMul, CheckedSub, One, Zero};

use crate::backend::stop::{self, StopFlag};
use crate::backend::BackendError;
use crate::model::VarId;

/// Fractions the elimination can run on: exact, with checked arithmetic (`None` on overflow).
pub(super) trait Exact:
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
pub(super) struct Equation {
    pub(super) terms: Vec<(VarId, u64)>,
    pub(super) rhs: u64,
}

/// A sparse vector: `(position, nonzero value)` sorted by position.
pub(super) type Sparse<T> = Vec<(usize, T)>;

/// `a - c * b`, dropping zeros; `None` on overflow.
pub(super) fn sub_scaled<T: Exact>(a: &[(usize, T)], c: &T, b: &[(usize, T)]) -> Option<Sparse<T>> {
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

pub(super) fn lookup<T>(v: &[(usize, T)], at: usize) -> Option<&T> {
    v.binary_search_by_key(&at, |e| e.0).ok().map(|k| &v[k].1)
}

/// One row of the reduced echelon basis: `x_pivot + sum(coeffs) = rhs`, and which original
/// equations it is made of.
pub(super) struct BasisRow<T> {
    pub(super) pivot: VarId,
    pub(super) coeffs: Sparse<T>,
    pub(super) rhs: T,
    pub(super) combo: Sparse<T>,
}

/// An exact value written out (`1`, `0`, `-1/2`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ExactValue {
    pub(super) text: String,
    pub(super) zero: bool,
    pub(super) one: bool,
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
pub(super) type Dependency = (usize, Vec<(usize, ExactValue)>, bool);

/// What elimination found, independent of the number type it ran on.
pub(super) struct Eliminated {
    pub(super) pivots: Vec<VarId>,
    /// `(equation, combination of earlier equations it equals, conflicting)`.
    pub(super) redundant: Vec<Dependency>,
    /// `(variable, value)` for every variable fixed by the equations.
    pub(super) fixed: Vec<(VarId, ExactValue)>,
    /// Whether arbitrary-precision fractions were needed.
    pub(super) big: bool,
}

/// Row-reduces `equations` over `T`; `None` on overflow, or when `stop` is raised (checked
/// once per equation).
pub(super) fn eliminate<T: Exact>(
    equations: &[Equation],
    stop: &Option<StopFlag>,
) -> Option<Eliminated> {
    let mut basis: Vec<BasisRow<T>> = Vec::new();
    let mut redundant = Vec::new();
    for (e, eq) in equations.iter().enumerate() {
        if stop::raised(stop) {
            return None;
        }
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

/// Eliminates with `i128` fractions, falling back to arbitrary precision on overflow;
/// [`BackendError::Stopped`] when `stop` is raised first.
pub(super) fn eliminate_exactly(
    equations: &[Equation],
    stop: &Option<StopFlag>,
) -> Result<Eliminated, BackendError> {
    if let Some(e) = eliminate::<Ratio<i128>>(equations, stop) {
        return Ok(e);
    }
    stop::check(stop, "gauss")?;
    let big = eliminate::<BigRational>(equations, stop);
    stop::check(stop, "gauss")?;
    let mut e = big.expect("arbitrary-precision fractions never overflow");
    e.big = true;
    Ok(e)
}
