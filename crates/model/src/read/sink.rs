//! [`LinearSink`]: builds a model from signed linear rows over literals, the way every reader
//! states its rows, normalising each to positive weights (the pseudo-Boolean normalisation):
//!
//! 1. terms on one variable are merged (`a x + b ~x` is `(a - b) x + b`), zero terms dropped;
//! 2. a row with more negative than positive coefficients is negated (`<=` and `>=` swap), so
//!    `-x1 - x2 >= -1` becomes `x1 + x2 <= 1` and needs no complement;
//! 3. each remaining `-w x` becomes `w ~x` with the right-hand side raised by `w`, through the
//!    model's complement ([`crate::model::ModelBuilder::complement`]);
//! 4. a row that always holds is dropped; one that never holds (an empty clause, `0 >= 1`)
//!    makes the model infeasible through a family `infeasible` (an auxiliary variable `z`
//!    with `z >= 1` and `z <= 0`).
//!
//! The objective keeps its literals as written: a cost on `~x` goes on the complement, so the
//! objective value of an answer is the file's own, constant included.
//!
//! Costs: one sort of each row; one hash look-up per named variable.

use std::collections::HashMap;

use super::{ReadError, MAX_NONZEROS, MAX_VARIABLES};
use crate::model::{
    Coord, FamilyId, Model, ModelBuilder, ObjectiveSense, PuzzleKind, Relation, RowId, Sense,
    VarId, MAX_COEFFICIENT, MAX_COST,
};

/// A literal: a variable, or its negation (`~x`, `-x` in CNF, `1 - x`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit {
    /// The variable.
    pub var: VarId,
    /// Whether the literal is the negation of the variable.
    pub negated: bool,
}

impl Lit {
    /// The variable itself.
    pub fn pos(var: VarId) -> Lit {
        Lit {
            var,
            negated: false,
        }
    }

    /// The negation of the variable.
    pub fn neg(var: VarId) -> Lit {
        Lit { var, negated: true }
    }
}

/// A model under construction from signed rows (see the module docs): variables by name,
/// families by name, the nonzero and variable caps.
pub struct LinearSink {
    builder: ModelBuilder,
    names: HashMap<String, VarId>,
    families: HashMap<String, FamilyId>,
    nonzeros: usize,
    variables: usize,
    /// The auxiliary variable of the `infeasible` family, once a row can never hold.
    infeasible: bool,
    /// `N` of [`LinearSink::declare_numbered`]: `x1..xN` are variables `0..N`, kept out of
    /// `names`.
    numbered: usize,
}

impl LinearSink {
    /// An empty model named `name`.
    pub fn new(name: &str) -> LinearSink {
        LinearSink {
            builder: ModelBuilder::new(name, PuzzleKind::Generic),
            names: HashMap::new(),
            families: HashMap::new(),
            nonzeros: 0,
            variables: 0,
            infeasible: false,
            numbered: 0,
        }
    }

    /// Declares `x1..xN` as variables `0..N` (a CNF or OPB header), with no entry in the name
    /// table: `xK` (written without leading zeros) for `K` in `1..=N` is then found by its
    /// number. Must come before any other variable. Cost per variable: its label and its
    /// place in the model, no hashing. `at` locates the error past [`MAX_VARIABLES`].
    pub fn declare_numbered(&mut self, n: usize, at: (usize, usize)) -> Result<(), ReadError> {
        debug_assert_eq!(self.variables, 0, "numbered variables come first");
        if n > MAX_VARIABLES {
            return Err(ReadError::at(
                at.0,
                at.1,
                format!("at most {MAX_VARIABLES} variables (complements included)"),
                "more",
            ));
        }
        super::budget::check(n, self.nonzeros, at)?;
        self.variables = n;
        self.builder.numbered_variables(n);
        self.numbered = n;
        Ok(())
    }

    /// The variable `name` is among those of [`LinearSink::declare_numbered`], if it is.
    fn numbered(&self, name: &str) -> Option<VarId> {
        let digits = name.strip_prefix('x')?;
        if digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let k: usize = digits.parse().ok()?;
        (1..=self.numbered).contains(&k).then(|| k - 1)
    }

    /// Number of variables so far (complements included).
    pub fn num_variables(&self) -> usize {
        self.variables
    }

    /// The label of variable `v`.
    pub fn label(&self, v: VarId) -> String {
        self.builder.label(v)
    }

    /// The variable called `name`, if declared.
    pub fn lookup(&self, name: &str) -> Option<VarId> {
        self.numbered(name)
            .or_else(|| self.names.get(name).copied())
    }

    /// The variable called `name`, declared now if new; `(line, column)` locate the error when
    /// the model already has [`MAX_VARIABLES`] or the name holds a control character.
    pub fn var(&mut self, name: &str, at: (usize, usize)) -> Result<VarId, ReadError> {
        if let Some(v) = self.lookup(name) {
            return Ok(v);
        }
        if name.chars().any(char::is_control) {
            return Err(ReadError::at(
                at.0,
                at.1,
                "a variable name without control characters",
                format!("{name:?}"),
            ));
        }
        self.count_variable(at)?;
        let v = self.builder.variable(name, Coord::Free);
        self.names.insert(name.to_string(), v);
        Ok(v)
    }

    /// An auxiliary variable (see [`ModelBuilder::auxiliary`]) labelled `label`.
    pub fn auxiliary(&mut self, label: String, at: (usize, usize)) -> Result<VarId, ReadError> {
        self.count_variable(at)?;
        Ok(self.builder.auxiliary(label))
    }

    fn count_variable(&mut self, at: (usize, usize)) -> Result<(), ReadError> {
        self.variables += 1;
        super::budget::check(self.variables, self.nonzeros, at)?;
        if self.variables > MAX_VARIABLES {
            return Err(ReadError::at(
                at.0,
                at.1,
                format!("at most {MAX_VARIABLES} variables (complements included)"),
                "more",
            ));
        }
        Ok(())
    }

    /// The family called `name`, made now if new.
    pub fn family(&mut self, name: &str) -> FamilyId {
        if let Some(&f) = self.families.get(name) {
            return f;
        }
        let f = self.builder.family(name);
        self.families.insert(name.to_string(), f);
        f
    }

    /// The builder's complement of `var`, counted against the caps.
    fn complement(&mut self, var: VarId, at: (usize, usize)) -> Result<VarId, ReadError> {
        let before = self.builder_complements();
        let c = self.builder.complement(var);
        if self.builder_complements() > before {
            self.count_variable(at)?;
            self.count_nonzeros(2, at)?;
        }
        Ok(c)
    }

    fn builder_complements(&self) -> usize {
        self.builder.complements()
    }

    fn count_nonzeros(&mut self, k: usize, at: (usize, usize)) -> Result<(), ReadError> {
        self.nonzeros += k;
        super::budget::check(self.variables, self.nonzeros, at)?;
        if self.nonzeros > MAX_NONZEROS {
            return Err(ReadError::at(
                at.0,
                at.1,
                format!("a model of at most {MAX_NONZEROS} nonzeros (complements' rows included)"),
                "a larger one",
            ));
        }
        Ok(())
    }

    /// Adds the row `sum coef * lit (relation) rhs` to `family`, normalised (module docs), and
    /// returns its id; `None` when it was dropped (it always holds) or made the model
    /// infeasible. `row` names the row in errors (`row 'c3'`, `constraint 4`); `at` is where
    /// it starts.
    pub fn row(
        &mut self,
        family: FamilyId,
        terms: &[(Lit, i128)],
        relation: Relation,
        rhs: i128,
        row: &str,
        at: (usize, usize),
    ) -> Result<Option<RowId>, ReadError> {
        let (mut coefs, constant) = merged(terms);
        let mut rhs = rhs - constant;
        let mut relation = relation;
        let negative = coefs.iter().filter(|&&(_, c)| c < 0).count();
        if 2 * negative > coefs.len() {
            for (_, c) in &mut coefs {
                *c = -*c;
            }
            rhs = -rhs;
            relation = match relation {
                Relation::AtLeast => Relation::AtMost,
                Relation::AtMost => Relation::AtLeast,
                Relation::Equal => Relation::Equal,
            };
        }
        let mut vars = Vec::with_capacity(coefs.len());
        let mut weights = Vec::with_capacity(coefs.len());
        let mut total: i128 = 0;
        for (v, c) in coefs {
            let w = c.abs();
            let var = if c < 0 {
                rhs += w;
                self.complement(v, at)?
            } else {
                v
            };
            total += w;
            if w > i128::from(MAX_COEFFICIENT) || total > i128::from(MAX_COEFFICIENT) {
                return Err(ReadError::at(
                    at.0,
                    at.1,
                    format!("{row} with coefficients summing to at most 2^53 = {MAX_COEFFICIENT} (after merging terms)"),
                    format!("a sum of {total} or more"),
                ));
            }
            vars.push(var);
            weights.push(w as u64);
        }
        let (low, high) = match relation {
            Relation::Equal => (rhs, rhs),
            Relation::AtLeast => (rhs, total),
            Relation::AtMost => (0, rhs),
        };
        if low > high || low > total || high < 0 {
            return self.never_holds(at).map(|()| None);
        }
        if vars.is_empty() || (low <= 0 && high >= total) {
            return Ok(None); // always holds
        }
        let bound = match relation {
            Relation::AtMost => high,
            _ => low.max(0),
        };
        self.count_nonzeros(vars.len(), at)?;
        let sense = Sense::new(relation, bound as u64);
        Ok(Some(
            self.builder.weighted_row(family, vars, weights, sense),
        ))
    }

    /// Gives row `row` (an id [`LinearSink::row`] returned) the name its file gave it (see
    /// [`ModelBuilder::name_row`]). A name holding a control character, which the model
    /// refuses, is left out (a reader whose names can hold one refuses it where it stands).
    pub fn name_row(&mut self, row: RowId, name: &str) {
        if !name.chars().any(char::is_control) {
            self.builder.name_row(row, name);
        }
    }

    /// Makes the model infeasible (a row that can never hold), once.
    fn never_holds(&mut self, at: (usize, usize)) -> Result<(), ReadError> {
        if self.infeasible {
            return Ok(());
        }
        self.infeasible = true;
        let z = self.auxiliary("infeasible".into(), at)?;
        let f = self.family("infeasible");
        self.count_nonzeros(2, at)?;
        self.builder.row(f, vec![z], Sense::AtLeast(1));
        self.builder.row(f, vec![z], Sense::AtMost(0));
        Ok(())
    }

    /// Sets the objective `sense sum cost * lit`: costs on a negated literal go on its
    /// complement; costs of one literal are summed.
    pub fn objective(
        &mut self,
        sense: ObjectiveSense,
        terms: &[(Lit, i128)],
        at: (usize, usize),
    ) -> Result<(), ReadError> {
        let mut costs: HashMap<VarId, i128> = HashMap::new();
        for &(lit, c) in terms {
            let v = if lit.negated {
                self.complement(lit.var, at)?
            } else {
                lit.var
            };
            *costs.entry(v).or_default() += c;
        }
        let mut list: Vec<(VarId, i64)> = Vec::with_capacity(costs.len());
        for (v, c) in costs {
            if c.abs() > i128::from(MAX_COST) {
                return Err(ReadError::at(
                    at.0,
                    at.1,
                    format!("objective costs of at most 2^53 = {MAX_COST} in absolute value (after merging terms)"),
                    format!("{c}"),
                ));
            }
            if c != 0 {
                list.push((v, c as i64));
            }
        }
        list.sort_unstable();
        self.builder.objective(sense, list);
        Ok(())
    }

    /// Projects the model's count onto the file's variables `vars` (see
    /// `ModelBuilder::project_count`; all of them is no projection).
    pub fn project_count(&mut self, vars: Vec<VarId>) {
        self.builder.project_count(vars);
    }

    /// The model. `at` locates an error of the builder's final checks (none is expected: the
    /// rows were checked as they came).
    pub fn finish(self, at: (usize, usize)) -> Result<Model, ReadError> {
        self.builder
            .build()
            .map_err(|e| ReadError::at(at.0, at.1, "a consistent model", e.to_string()))
    }
}

/// The terms of a row merged per variable, zero coefficients dropped, sorted by variable; and
/// the constant that negated literals contribute (`b ~x = b - b x`).
fn merged(terms: &[(Lit, i128)]) -> (Vec<(VarId, i128)>, i128) {
    let mut constant = 0;
    let mut list: Vec<(VarId, i128)> = terms
        .iter()
        .map(|&(lit, c)| {
            if lit.negated {
                constant += c;
                (lit.var, -c)
            } else {
                (lit.var, c)
            }
        })
        .collect();
    list.sort_unstable_by_key(|&(v, _)| v);
    let mut out: Vec<(VarId, i128)> = Vec::with_capacity(list.len());
    for (v, c) in list {
        match out.last_mut() {
            Some((last, sum)) if *last == v => *sum += c,
            _ => out.push((v, c)),
        }
    }
    out.retain(|&(_, c)| c != 0);
    (out, constant)
}
