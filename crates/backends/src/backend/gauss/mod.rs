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

pub mod dense;
mod exact;
mod least_norm;
mod text;

use std::collections::BTreeMap;
use std::time::Instant;

use serde::Serialize;

pub use dense::DenseEqualities;
use exact::{eliminate_exactly, Eliminated, Equation};
pub use least_norm::least_norm_grid;
use least_norm::least_norm_solution;

use crate::backend::stop::{self, StopFlag};
use crate::backend::{
    Backend, BackendError, BackendOptions, Found, SolveReport, Solver, Stats, Undecided,
};
use crate::model::{Model, Solution, VarId};

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
    analyse_until(model, &None).expect("a run without a stop flag is never stopped")
}

/// [`analyse`], ended early with [`BackendError::Stopped`] once `stop` is raised (checked
/// once per equation of the elimination and before the SVD).
pub fn analyse_until(model: &Model, stop: &Option<StopFlag>) -> Result<GaussReport, BackendError> {
    let full = model.with_givens_as_rows();
    let constraints = full.constraints();
    // The same rows, in the same order, as `DenseEqualities::dense_equalities` (used for the SVD).
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
    let elim = eliminate_exactly(&equations, stop)?;
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
    stop::check(stop, "gauss")?;
    let least_norm = least_norm_solution(&full, rank, consistent.then_some(independent.as_slice()));
    let ignored: usize = families.iter().map(|f| f.ignored_inequalities).sum();
    let (verdict, solution) = verdict_of(&full, &eq_rows, &elim, consistent);
    Ok(GaussReport {
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
    })
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
        let report = analyse_until(model, &stop::current())?;
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
    fn rows_supported(&self, _model: &Model) -> Result<(), crate::backend::RowRefusal> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Coord, ModelBuilder, PuzzleKind, Sense};
    use crate::puzzle::{HexBoard, QueensBoard, Sudoku};
    use exact::sub_scaled;
    use least_norm::svd_least_norm;
    use num_rational::{BigRational, Ratio};
    use num_traits::{One, Zero};

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
            let m =
                crate::backend::fixtures::line_sums(n, Sense::Exactly(2), Sense::Exactly(col_rhs));
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
