//! [`ModelBuilder`]: how every model is made (variables, families, rows, givens, objective),
//! with the checks a model must pass.

use super::labels::{Labels, RowLabels};
use super::shape::Shape;
use crate::model::{
    coord_label, derived, Constraint, Coord, Derived, Family, FamilyId, Model, ModelError,
    ModelHints, Objective, ObjectiveSense, PuzzleKind, RowId, Sense, VarId, Variable,
    MAX_COEFFICIENT,
};
use std::sync::Arc;

/// Builds a [`Model`] row by row; [`ModelBuilder::build`] checks it. Cost: linear in the
/// number of nonzeros (rows are sorted once when built).
///
/// ```
/// use zeroone::model::{Coord, ModelBuilder, PuzzleKind, Sense};
///
/// // A 2x2 Latin square of 0-1 variables x[r][c] = "cell (r, c) holds symbol 1":
/// // exactly one per row and per column.
/// let mut b = ModelBuilder::new("latin-2", PuzzleKind::Generic);
/// let x: Vec<_> = (0..4)
///     .map(|i| b.variable(format!("r{}c{}", i / 2, i % 2), Coord::Cell { row: i / 2, col: i % 2 }))
///     .collect();
/// let rows = b.family("row");
/// b.row(rows, vec![x[0], x[1]], Sense::ExactlyOne);
/// b.row(rows, vec![x[2], x[3]], Sense::ExactlyOne);
/// let cols = b.family("column");
/// b.row(cols, vec![x[0], x[2]], Sense::ExactlyOne);
/// b.row(cols, vec![x[1], x[3]], Sense::ExactlyOne);
/// b.given(x[0]);
/// let model = b.build().unwrap();
/// assert_eq!((model.num_variables(), model.constraints().len(), model.nonzeros()), (4, 4, 8));
/// ```
#[derive(Debug, Clone)]
pub struct ModelBuilder {
    pub(super) name: String,
    pub(super) kind: PuzzleKind,
    pub(super) hints: ModelHints,
    pub(super) variables: Vec<Variable>,
    /// Stored labels, once some variable was given an explicit one (see [`Labels`]).
    pub(super) labels: Option<Labels>,
    pub(super) families: Vec<Family>,
    pub(super) constraints: Vec<Constraint>,
    /// The names rows were given ([`ModelBuilder::name_row`]); empty for most models.
    pub(super) row_labels: RowLabels,
    pub(super) givens: Vec<VarId>,
    /// The objective's sense and terms, checked in [`ModelBuilder::build`].
    pub(super) objective: Option<(ObjectiveSense, Vec<(VarId, i64)>)>,
    /// Derived variables ([`Derived`]) with their ids; numbered last in [`ModelBuilder::build`].
    pub(super) derived: Vec<(VarId, Derived)>,
    /// The complement made for each variable that has one (`x -> ~x`).
    pub(super) complements: std::collections::HashMap<VarId, VarId>,
    /// The variables a count is projected onto ([`ModelBuilder::project_count`]).
    pub(super) projection: Option<Vec<VarId>>,
}

impl ModelBuilder {
    /// Starts an empty model.
    pub fn new(name: impl Into<String>, kind: PuzzleKind) -> Self {
        ModelBuilder {
            name: name.into(),
            kind,
            hints: ModelHints::default(),
            variables: Vec::new(),
            labels: None,
            families: Vec::new(),
            constraints: Vec::new(),
            row_labels: RowLabels::default(),
            givens: Vec::new(),
            objective: None,
            derived: Vec::new(),
            complements: std::collections::HashMap::new(),
            projection: None,
        }
    }

    /// The complement `~x = 1 - x` of variable `x` (made once, labelled `~` and `x`'s label):
    /// a [`Derived::Complement`] variable tied to `x` by a row `x + ~x = 1` of the family
    /// `complement` (written at [`ModelBuilder::build`]). Use it for a negated literal or a
    /// negative coefficient (`-w x` is `w ~x - w`). Costs one hash look-up.
    pub fn complement(&mut self, x: VarId) -> VarId {
        if let Some(&c) = self.complements.get(&x) {
            return c;
        }
        let label = format!("~{}", self.label(x));
        let c = self.variable(label, Coord::Free);
        self.derived.push((c, Derived::Complement(x)));
        self.complements.insert(x, c);
        c
    }

    /// How many complements [`ModelBuilder::complement`] has made so far. Free.
    pub fn complements(&self) -> usize {
        self.complements.len()
    }

    /// Adds an [`Derived::Auxiliary`] variable labelled `label`: one the caller's rows fix from
    /// the other variables (so it changes no count), left out of every answer.
    pub fn auxiliary(&mut self, label: impl Into<String>) -> VarId {
        let v = self.variable(label, Coord::Free);
        self.derived.push((v, Derived::Auxiliary));
        v
    }

    /// Relabels a complement whose label `~x` another variable also has (an LP or MPS file may
    /// name a variable `~y` and negate `y`): the complement becomes `~x#2` (or the first free
    /// `#k`), so both keep their meaning. Costs one hash per stored label, only when some
    /// complement exists.
    fn unclash_complement_labels(&mut self) {
        let Some(labels) = &mut self.labels else {
            return;
        };
        if self.complements.is_empty() {
            return;
        }
        let mut ids: Vec<VarId> = self.complements.values().copied().collect();
        ids.sort_unstable();
        let complement: std::collections::HashSet<VarId> = ids.iter().copied().collect();
        // A numbered label (`x7`) never starts with `~`, so only stored ones can clash.
        let own: std::collections::HashSet<Box<str>> = (labels.stored_labels())
            .filter(|(v, _)| !complement.contains(v))
            .map(|(_, l)| l.into())
            .collect();
        if ids.iter().all(|&c| !own.contains(&*labels.get(c))) {
            return;
        }
        let mut taken: std::collections::HashSet<Box<str>> =
            labels.stored_labels().map(|(_, l)| l.into()).collect();
        for c in ids {
            let label = labels.get(c).into_owned();
            if !own.contains(label.as_str()) {
                continue;
            }
            let fresh = (2..)
                .map(|k| format!("{label}#{k}").into_boxed_str())
                .find(|l| !taken.contains(l) && !labels.is_numbered(l))
                .expect("some label is free");
            taken.insert(fresh.clone());
            labels.set(c, fresh);
        }
    }

    /// Writes the complement rows and numbers the derived variables after all others, so the
    /// file's own variables keep ids `0..own`. Costs one pass over the nonzeros when a
    /// derived variable sits among the others, nothing otherwise.
    pub(super) fn settle_derived(&mut self) {
        if self.derived.is_empty() {
            return;
        }
        let mut pairs: Vec<(VarId, VarId)> = self.complements.drain().collect();
        pairs.sort_unstable();
        if !pairs.is_empty() {
            let name =
                derived::complement_family_name(|n| self.families.iter().any(|f| f.name == n));
            let family = self.family(name);
            for (x, c) in pairs {
                self.row(family, vec![x, c], Sense::ExactlyOne);
            }
        }
        let n = self.variables.len();
        let mut flag = vec![false; n];
        for &(v, _) in &self.derived {
            if v < n {
                flag[v] = true;
            }
        }
        let Some(new_id) = derived::derived_last(&flag) else {
            self.derived.sort_unstable_by_key(|&(v, _)| v);
            return;
        };
        let map = |v: VarId| new_id.get(v).copied().unwrap_or(v);
        for c in &mut self.constraints {
            let unit = c.weights.is_none();
            let weights = c.weights.take().unwrap_or_else(|| vec![1; c.vars.len()]);
            let mut terms: Vec<(VarId, u64)> =
                c.vars.iter().map(|&v| map(v)).zip(weights).collect();
            terms.sort_unstable();
            let (vars, weights): (Vec<VarId>, Vec<u64>) = terms.into_iter().unzip();
            c.vars = vars;
            c.weights = (!unit).then_some(weights);
        }
        for g in &mut self.givens {
            *g = map(*g);
        }
        for v in self.projection.iter_mut().flatten() {
            *v = map(*v);
        }
        if let Some((_, terms)) = &mut self.objective {
            for (v, _) in terms.iter_mut() {
                *v = map(*v);
            }
        }
        for (v, d) in &mut self.derived {
            *v = map(*v);
            if let Derived::Complement(x) = d {
                *x = map(*x);
            }
        }
        self.derived.sort_unstable_by_key(|&(v, _)| v);
        let mut variables = self.variables.clone();
        for (old, &new) in new_id.iter().enumerate() {
            variables[new] = self.variables[old];
        }
        self.variables = variables;
        self.labels = self.labels.take().map(|labels| labels.moved(&new_id));
    }

    /// Sets the objective: `sense sum c_v x_v` over `terms` (`(variable, cost)`; a variable not
    /// named costs 0). Checked in [`ModelBuilder::build`]: known variables, each at most once,
    /// `|cost| <= 2^53`.
    pub fn objective(&mut self, sense: ObjectiveSense, terms: Vec<(VarId, i64)>) {
        self.objective = Some((sense, terms));
    }

    /// Projects the model's count onto `vars`: two solutions that agree on them are one
    /// (a CNF file's `c p show` lines). zeroone counts over every variable, so the shared
    /// runner refuses to count a model projected onto fewer than all of its own variables (see
    /// [`Model::count_projection`]); solving, and listing solutions (each an assignment of
    /// every variable), are unaffected. Checked in
    /// [`ModelBuilder::build`]: known variables; repeats count once.
    pub fn project_count(&mut self, vars: Vec<VarId>) {
        self.projection = Some(vars);
    }

    /// Sets the hints the model carries for backends (see [`ModelHints`]).
    pub fn hints(&mut self, hints: ModelHints) {
        self.hints = hints;
    }

    /// Adds a variable with an explicit label and returns its id. A label equal to the one
    /// [`coord_label`] makes is not stored.
    pub fn variable(&mut self, label: impl Into<String>, coord: Coord) -> VarId {
        let id = self.variables.len();
        let label: String = label.into();
        if self.labels.is_none() && label == coord_label(id, coord) {
            return self.coord_variable(coord);
        }
        let variables = &self.variables;
        let labels = self.labels.get_or_insert_with(|| {
            Labels::stored(
                (variables.iter().enumerate())
                    .map(|(v, x)| coord_label(v, x.coord).into_boxed_str())
                    .collect(),
            )
        });
        labels.push(label.into_boxed_str());
        self.variables.push(Variable { coord });
        id
    }

    /// Adds `n` variables labelled `x1..x{n}` (no coordinates), as a CNF or OPB header declares
    /// them, and returns the id of the first. Their labels are made from their ids when asked
    /// for, never stored, when they are the builder's first variables; otherwise each is added
    /// by [`ModelBuilder::variable`]. Cost: one [`Variable`] per variable.
    pub fn numbered_variables(&mut self, n: usize) -> VarId {
        let first = self.variables.len();
        if first > 0 {
            for k in 1..=n {
                self.variable(format!("x{k}"), Coord::Free);
            }
            return first;
        }
        self.variables = vec![Variable { coord: Coord::Free }; n];
        if n > 0 {
            self.labels = Some(Labels::numbered(n));
        }
        first
    }

    /// Adds a variable labelled by its coordinates ([`coord_label`], made on demand, never
    /// stored) and returns its id.
    pub fn coord_variable(&mut self, coord: Coord) -> VarId {
        let id = self.variables.len();
        if let Some(labels) = &mut self.labels {
            labels.push(coord_label(id, coord).into_boxed_str());
        }
        self.variables.push(Variable { coord });
        id
    }

    /// Adds a family (initially with no rows) and returns its id.
    pub fn family(&mut self, name: impl Into<String>) -> FamilyId {
        self.families.push(Family {
            name: name.into(),
            rows: Vec::new(),
        });
        self.families.len() - 1
    }

    /// Appends a unit-weight row to `family`. Variables are sorted; `= 1` / `<= 1` become
    /// [`Sense::ExactlyOne`] / [`Sense::AtMostOne`]; checks happen in [`ModelBuilder::build`].
    pub fn row(&mut self, family: FamilyId, vars: Vec<VarId>, sense: Sense) -> RowId {
        self.push_new(family, vars, None, sense)
    }

    /// Appends a weighted row `sum weights[i] * vars[i] (sense)` to `family`. The pairs are
    /// sorted by variable; an all-ones weight list is dropped (the row is then exactly what
    /// [`ModelBuilder::row`] makes). Weights must be positive and `weights.len() == vars.len()`:
    /// both are checked in [`ModelBuilder::build`]. Cost: one sort of the row.
    pub fn weighted_row(
        &mut self,
        family: FamilyId,
        vars: Vec<VarId>,
        weights: Vec<u64>,
        sense: Sense,
    ) -> RowId {
        self.push_new(family, vars, Some(weights), sense)
    }

    /// Appends the row [`Constraint::new`] makes of these terms to `family`.
    fn push_new(
        &mut self,
        family: FamilyId,
        vars: Vec<VarId>,
        weights: Option<Vec<u64>>,
        sense: Sense,
    ) -> RowId {
        let index = self.families[family].rows.len();
        let c = Constraint::new(family, index, vars, weights, sense);
        self.push_row(family, c.vars, c.weights, c.sense)
    }

    /// Appends a row to `family` as given (sorted and normalized already).
    pub(super) fn push_row(
        &mut self,
        family: FamilyId,
        vars: Vec<VarId>,
        weights: Option<Vec<u64>>,
        sense: Sense,
    ) -> RowId {
        let id = self.constraints.len();
        let index = self.families[family].rows.len();
        self.families[family].rows.push(id);
        self.constraints.push(Constraint {
            family,
            index,
            vars,
            weights,
            sense,
        });
        id
    }

    /// Gives row `row` (an id [`ModelBuilder::row`] returned) a name of its own, as an LP or
    /// MPS file names its rows (`cov3`): [`Model::row_label`] returns it, the verifier's
    /// messages and the LP, MPS and OPB exports use it. Checked in [`ModelBuilder::build`]
    /// (a known row, no control characters). The name every export gives an unnamed row
    /// anyway, `{family}_{index}` (`knap_3`, as zeroone's own LP and MPS files name their
    /// rows), is not stored. Costs one stored string per named row; a model whose rows are
    /// not named stores nothing for them.
    pub fn name_row(&mut self, row: RowId, name: impl Into<String>) {
        let name: String = name.into();
        if let Some(c) = self.constraints.get(row) {
            let family = &self.families[c.family].name;
            let plain = |s: &str| {
                s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                    && !s.starts_with(|c: char| c.is_ascii_digit())
            };
            if plain(family) && name == format!("{family}_{}", c.index) {
                return;
            }
        }
        self.row_labels.set(row, name.into_boxed_str());
    }

    /// Fixes `var` to 1.
    pub fn given(&mut self, var: VarId) {
        self.givens.push(var);
    }

    /// The label of variable `v` so far (stored, or made from its coordinates).
    pub fn label(&self, v: VarId) -> String {
        match &self.labels {
            Some(labels) => labels.get(v).into_owned(),
            None => coord_label(v, self.variables[v].coord),
        }
    }

    /// Checks every row and given and returns the model. Costs one pass over the nonzeros
    /// plus one hash per stored label and family name.
    pub fn build(mut self) -> Result<Model, ModelError> {
        self.unclash_complement_labels();
        self.settle_derived();
        let n = self.variables.len();
        if let Some(label) = self.labels.as_ref().and_then(Labels::first_duplicate) {
            return Err(ModelError::DuplicateLabel(label.to_string()));
        }
        let mut names = std::collections::HashSet::new();
        for f in &self.families {
            if !names.insert(f.name.as_str()) {
                return Err(ModelError::DuplicateFamily(f.name.clone()));
            }
        }
        for c in &self.constraints {
            c.check(&self.families[c.family].name, n, &|v| self.label(v))?;
        }
        self.check_row_labels()?;
        let objective = match self.objective {
            Some((sense, terms)) => Some(Arc::new(Objective::new(sense, n, terms)?)),
            None => None,
        };
        let derived = derived_tail(&self.derived, n)?;
        let own = n - derived.len();
        let projection = match self.projection {
            Some(vars) => checked_projection(vars, n, own)?,
            None => None,
        };
        let mut shape = Shape::new(
            self.kind,
            self.hints,
            (self.variables, self.labels, derived),
            (self.families, self.constraints, self.row_labels),
        );
        shape.projection = projection;
        Model {
            name: String::new(),
            shape: Arc::new(shape),
            givens: Vec::new(),
            objective,
        }
        .with_givens(self.name, self.givens)
    }
}

impl ModelBuilder {
    /// Refuses a row name given to a row the builder does not have, or holding a control
    /// character (a name is printed in messages and written in exports, one line each).
    fn check_row_labels(&self) -> Result<(), ModelError> {
        let rows = self.constraints.len();
        for (row, label) in self.row_labels.iter() {
            if row >= rows || label.is_empty() || label.chars().any(char::is_control) {
                return Err(ModelError::RowLabel {
                    row,
                    rows,
                    label: label.escape_debug().to_string(),
                });
            }
        }
        Ok(())
    }
}

/// `vars` ascending without repeats (`None` when they are the `own` variables `0..own`, a
/// count over all), or the first that is not among the `n` variables.
fn checked_projection(
    mut vars: Vec<VarId>,
    n: usize,
    own: usize,
) -> Result<Option<Vec<VarId>>, ModelError> {
    if let Some(&var) = vars.iter().find(|&&v| v >= n) {
        return Err(ModelError::UnknownProjected { var, variables: n });
    }
    vars.sort_unstable();
    vars.dedup();
    let all = vars.len() == own && vars.iter().enumerate().all(|(i, &v)| i == v);
    Ok((!all).then_some(vars))
}

/// The derived variables of a builder as the last `k` variables of a model of `n`: what each
/// is, in id order. Refuses a derived variable that is not among the last ones, or a
/// complement of an unknown variable or of itself (only a model read back from JSON can have
/// them). Costs one pass over the derived variables.
pub(super) fn derived_tail(
    derived: &[(VarId, Derived)],
    n: usize,
) -> Result<Vec<Derived>, ModelError> {
    let own = n.saturating_sub(derived.len());
    let mut tail = Vec::with_capacity(derived.len());
    for (i, &(v, d)) in derived.iter().enumerate() {
        let bad_complement = matches!(d, Derived::Complement(x) if x >= n || x == v);
        if v != own + i || bad_complement {
            return Err(ModelError::Derived {
                var: v,
                variables: n,
            });
        }
        tail.push(d);
    }
    Ok(tail)
}

impl Constraint {
    /// Row `index` of family `family`: `sum weights[i] * vars[i] (sense)` (`weights` `None`:
    /// all 1), as the builder stores it: the pairs sorted by variable, an all-ones weight list
    /// dropped, and `= 1` / `<= 1` on unit weights made [`Sense::ExactlyOne`] /
    /// [`Sense::AtMostOne`]. Weights not one per variable are kept as given. Not checked: see
    /// [`Constraint::check`]. Cost: one sort of the row.
    pub fn new(
        family: FamilyId,
        index: usize,
        mut vars: Vec<VarId>,
        weights: Option<Vec<u64>>,
        sense: Sense,
    ) -> Constraint {
        let (vars, weights, sense) = match weights {
            None => {
                vars.sort_unstable();
                (vars, None, sense.normalized(true))
            }
            // Kept as given; check() reports the mismatch.
            Some(weights) if weights.len() != vars.len() => (vars, Some(weights), sense),
            Some(weights) => {
                let mut pairs: Vec<(VarId, u64)> = vars.into_iter().zip(weights).collect();
                pairs.sort_unstable();
                let unit = pairs.iter().all(|&(_, w)| w == 1);
                let (vars, weights): (Vec<VarId>, Vec<u64>) = pairs.into_iter().unzip();
                (vars, (!unit).then_some(weights), sense.normalized(unit))
            }
        };
        Constraint {
            family,
            index,
            vars,
            weights,
            sense,
        }
    }

    /// What a model requires of a row made by [`Constraint::new`], checked by
    /// [`ModelBuilder::build`] and by anything that takes rows one at a time (the Python
    /// `Model.add_family` refuses a bad family at the call with these errors): at least one
    /// variable, each below `variables` and listed once, weights one per variable, each from 1
    /// to [`MAX_COEFFICIENT`], their total and the right-hand side at most [`MAX_COEFFICIENT`].
    /// `family` is the family's name and `label` names a variable, for the error. Cost: one
    /// pass over the row.
    pub fn check(
        &self,
        family: &str,
        variables: usize,
        label: &dyn Fn(VarId) -> String,
    ) -> Result<(), ModelError> {
        let index = self.index;
        if self.vars.is_empty() {
            let family = family.to_string();
            return Err(ModelError::EmptyRow { family, index });
        }
        if let Some(&var) = self.vars.iter().find(|&&v| v >= variables) {
            return Err(ModelError::UnknownVariable {
                family: family.to_string(),
                index,
                var,
                variables,
            });
        }
        if let Some(w) = self.vars.windows(2).find(|w| w[0] == w[1]) {
            return Err(ModelError::DuplicateInRow {
                family: family.to_string(),
                index,
                label: label(w[0]),
            });
        }
        self.check_coefficients(family, label)
    }

    /// Refuses weights that are zero, too large or not one per variable, and a right-hand side
    /// or total weight above [`MAX_COEFFICIENT`].
    fn check_coefficients(
        &self,
        family: &str,
        label: &dyn Fn(VarId) -> String,
    ) -> Result<(), ModelError> {
        let index = self.index;
        let too_large = |what, value| ModelError::CoefficientTooLarge {
            family: family.to_string(),
            index,
            what,
            value,
        };
        if self.sense.rhs() > MAX_COEFFICIENT {
            return Err(too_large("right-hand side", self.sense.rhs()));
        }
        let Some(weights) = &self.weights else {
            return Ok(());
        };
        if weights.len() != self.vars.len() {
            return Err(ModelError::WeightCount {
                family: family.to_string(),
                index,
                vars: self.vars.len(),
                weights: weights.len(),
            });
        }
        let mut total = 0u64;
        for (&v, &w) in self.vars.iter().zip(weights) {
            if w == 0 {
                return Err(ModelError::ZeroWeight {
                    family: family.to_string(),
                    index,
                    label: label(v),
                });
            }
            if w > MAX_COEFFICIENT {
                return Err(too_large("weight", w));
            }
            total = total.saturating_add(w);
        }
        if total > MAX_COEFFICIENT {
            return Err(too_large("total weight", total));
        }
        Ok(())
    }
}
