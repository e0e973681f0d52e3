//! Models a worker builds itself: a job may name where its model comes from (a [`super::Job`]'s
//! `source`, a description only the worker's builder reads) instead of carrying the model, so a
//! parent that runs models under a memory limit never builds them (issue 35: an 18-byte file
//! declaring 8 M variables cost the parent 1.76 GB). The worker answers with what records take
//! from the model ([`ModelFacts`]) or why it could not build it ([`Unbuilt`]).
//!
//! Costs: [`ModelFacts::of`] is one pass over the rows' variables (that of [`original_size`]).

use serde::{Deserialize, Serialize};

use crate::model::{Model, ObjectiveSense};

/// What a record keeps of the model a run was given: its size, and the sense of its objective.
/// A worker that built the model from a job's source sends it back, so the parent never holds
/// the model. Small: six numbers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelFacts {
    /// Variables of the (normalised) model.
    pub variables: usize,
    /// Its rows.
    pub rows: usize,
    /// Variables as the file or builder wrote them ([`original_size`]).
    pub original_variables: usize,
    /// Rows as the file or builder wrote them ([`original_size`]).
    pub original_rows: usize,
    /// The objective's sense, for a model with one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sense: Option<ObjectiveSense>,
    /// The puzzle's size as source filters see it (a board's size, a generic model's
    /// variables), when the builder knows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<usize>,
}

impl ModelFacts {
    /// The facts of `model`, whose puzzle has `size`. Cost: one pass over the rows' variables.
    pub fn of(model: &Model, size: Option<usize>) -> ModelFacts {
        let (original_variables, original_rows) = original_size(model);
        ModelFacts {
            variables: model.num_variables(),
            rows: model.constraints().len(),
            original_variables,
            original_rows,
            sense: model.objective().map(|o| o.sense()),
            size,
        }
    }
}

/// A model a worker's builder made from a job's source, with its puzzle's size.
#[derive(Debug)]
pub struct BuiltModel {
    /// The model the job's backend runs on.
    pub model: Model,
    /// The puzzle's size ([`ModelFacts::size`]).
    pub size: Option<usize>,
}

/// Why a worker's builder made no model of a job's source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnbuiltKind {
    /// The model would pass the memory limit the source was read under (a header declaring
    /// more than fits): its runs are `memout`, as they would have ended.
    PastMemoryLimit,
    /// The file does not read (a located error).
    Unreadable,
    /// The puzzle read but makes no model (a board its kind cannot model).
    NoModel,
}

/// A source a worker made no model of: why, and the located message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unbuilt {
    /// Which failure.
    pub kind: UnbuiltKind,
    /// The builder's message (`FILE:LINE:COL: expected ..., found ...`).
    pub message: String,
}

/// What a worker builds its models with: the job's `source` in, a model or why not out. The
/// `zeroone` binary's worker takes the harness's (files, folders and generated boards); a
/// worker given none refuses every source.
pub type BuildModel<'a> = dyn FnMut(&serde_json::Value) -> Result<BuiltModel, Unbuilt> + 'a;

/// The size of `model` as its file or builder wrote it, before normalisation: its own
/// variables (the derived ones left out) and its rows less those normalisation added, the
/// ties `x + ~x = 1` of a complement and the rows over the complement of an auxiliary
/// variable (an XCC colour choice's `o + ~y <= 1`, `~y + sum o >= 1`). Cost: one pass over the
/// rows' variables.
pub fn original_size(model: &Model) -> (usize, usize) {
    use crate::model::Derived;
    let own = model.own_variables();
    if own == model.num_variables() {
        return (own, model.constraints().len());
    }
    let added = |c: &crate::model::Constraint| {
        let tie = matches!(
            (c.vars.as_slice(), c.sense),
            ([x, y], crate::model::Sense::ExactlyOne)
                if model.derived(*y) == Some(Derived::Complement(*x))
        );
        tie || c.vars.iter().any(|&v| match model.derived(v) {
            Some(Derived::Complement(x)) => model.derived(x) == Some(Derived::Auxiliary),
            _ => false,
        })
    };
    let rows = model.constraints().iter().filter(|c| !added(c)).count();
    (own, rows)
}
