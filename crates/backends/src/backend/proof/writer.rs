//! [`VeriPbWriter`]: the search's [`ProofLog`] written as a VeriPB 3.0 proof file, buffered
//! and put in place atomically when finished.

use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::log::ProofLog;
use super::{Claim, ProofError};
use crate::backend::branch_bound::PolOp;
use crate::model::{Model, Relation};
use zeroone_model::output::AtomicWriter;

/// Writes a VeriPB proof against the model's OPB (as [`crate::export::opb::to_opb`] writes it)
/// while a search runs. Each retracted decision prefix becomes a `rup` step of its negation
/// (one literal per decision), each solution a `solx` (counting) or `soli` (optimising,
/// improving) step over every model variable, the exhausted root `rup >= 1 ;`, each
/// branch-and-bound prune a `pol` step (the bound's derivation, deleted again once the
/// retraction it justifies is written); a retraction deletes the deeper retractions it
/// subsumes, so the checker's database stays small. Constraint ids are counted as the checker
/// counts them: the OPB's constraints first (an equality is its `>=` then its `<=` side), then
/// one per step. Lines go through a buffer to a temporary file beside the target; [`VeriPbWriter::finish`] writes the
/// conclusion and renames it into place, so a run that fails or is killed leaves no partial
/// proof. The first I/O error is kept and returned by `finish` (the hooks cannot fail).
/// Memory: the decision stack, the open retractions (at most the siblings along one path) and
/// one line; per step, one line of `O(depth)` (a `rup`) or `O(variables)` (a solution).
pub struct VeriPbWriter {
    out: BufWriter<AtomicWriter>,
    path: PathBuf,
    num_vars: usize,
    /// Per variable `v`: its literal text, `" x{v+1}"` at `2v` and `" ~x{v+1}"` at `2v + 1`,
    /// formatted once (formatting each literal on every step cost more than the search).
    literals: Vec<Box<str>>,
    decisions: Vec<(usize, bool)>,
    line: String,
    values: Vec<bool>,
    solutions: u128,
    contradiction: bool,
    has_objective: bool,
    error: Option<io::Error>,
    /// Per model row: the constraint id of its `>=` side and of its `<=` side (0: none).
    row_ids: Vec<(u64, u64)>,
    /// The id the next derived constraint gets.
    next_id: u64,
    /// The id of the latest `soli` step's objective-improving constraint.
    improving_id: u64,
    /// A `pol` step's id, deleted after the next retraction.
    pending_delete: Option<u64>,
    /// The retractions not yet subsumed: each one's decision depth and constraint id. A
    /// retraction at depth `d` subsumes every one deeper than `d` (its subtree's), which are
    /// then deleted: the checker's database stays about `depth x branching` clauses instead of
    /// one per search node (without it, 13-queens checked 3.6x slower at 12 queens and worse
    /// as proofs grow, each unit propagation walking the watches of every dead clause).
    open_retractions: Vec<(usize, u64)>,
    /// The ids to delete after the step being written (reused buffer).
    dead: Vec<u64>,
}

/// What a finished proof holds, as the writer counted it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenProof {
    /// The proof file.
    pub path: PathBuf,
    /// The `solx`/`soli` steps written.
    pub solutions: u128,
    /// Whether the contradiction `rup >= 1 ;` was written (the search was exhausted).
    pub contradiction: bool,
}

/// The number of constraints VeriPB reads from the OPB of `model` (givens as rows; an
/// equality is two constraints). Cost: one pass over the rows.
pub fn opb_constraint_count(model: &Model) -> usize {
    model
        .with_givens_as_rows()
        .constraints()
        .iter()
        .map(|c| match c.sense.relation() {
            Relation::Equal => 2,
            _ => 1,
        })
        .sum()
}

/// Per row of `model` (givens, appended as rows after them, excluded): the ids VeriPB gives
/// its `>=` and `<=` sides, 0 for a side it does not have.
fn row_ids(model: &Model) -> Vec<(u64, u64)> {
    let mut next = 1u64;
    (model.constraints().iter())
        .map(|c| {
            let id = next;
            let (sides, step) = match c.sense.relation() {
                Relation::Equal => ((id, id + 1), 2),
                Relation::AtLeast => ((id, 0), 1),
                Relation::AtMost => ((0, id), 1),
            };
            next += step;
            sides
        })
        .collect()
}

impl VeriPbWriter {
    /// Starts the proof of `model` at `path` (its folder must exist): the header and the
    /// `f` step loading the formula.
    pub fn create(path: &Path, model: &Model) -> Result<VeriPbWriter, ProofError> {
        let io_err = |source| ProofError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = AtomicWriter::create(path).map_err(io_err)?;
        let mut out = BufWriter::with_capacity(1 << 16, file);
        let loaded = opb_constraint_count(model);
        writeln!(out, "pseudo-Boolean proof version 3.0\nf {loaded} ;").map_err(io_err)?;
        let row_ids = row_ids(model);
        Ok(VeriPbWriter {
            out,
            path: path.to_path_buf(),
            num_vars: model.num_variables(),
            literals: (0..model.num_variables())
                .flat_map(|v| [format!(" x{}", v + 1), format!(" ~x{}", v + 1)])
                .map(String::into_boxed_str)
                .collect(),
            decisions: Vec::new(),
            line: String::new(),
            values: vec![false; model.num_variables()],
            solutions: 0,
            contradiction: false,
            has_objective: model.objective().is_some(),
            error: None,
            row_ids,
            next_id: loaded as u64 + 1,
            improving_id: 0,
            pending_delete: None,
            open_retractions: Vec::new(),
            dead: Vec::new(),
        })
    }

    fn emit(&mut self) {
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(self.line.as_bytes()) {
                self.error = Some(e);
            }
        }
    }

    /// Emits the line as a step that derives a constraint; its id.
    fn emit_derived(&mut self) -> u64 {
        self.emit();
        self.next_id += 1;
        self.next_id - 1
    }

    /// After the retraction at decision depth `depth` (constraint `id`): deletes what it
    /// subsumes or was for, in one `del id` step: the pending `pol` derivation and the
    /// retractions deeper than `depth` (each implied by the clause just derived, so deleting
    /// them loses nothing and spares the checker their watches).
    fn delete_subsumed(&mut self, depth: usize, id: u64) {
        self.dead.clear();
        self.dead.extend(self.pending_delete.take());
        while let Some(&(d, dead)) = self.open_retractions.last() {
            if d <= depth {
                break;
            }
            self.dead.push(dead);
            self.open_retractions.pop();
        }
        self.open_retractions.push((depth, id));
        if self.dead.is_empty() {
            return;
        }
        self.line.clear();
        self.line.push_str("del id");
        for dead in &self.dead {
            let _ = write!(self.line, " {dead}");
        }
        self.line.push_str(" ;\n");
        self.emit();
    }

    /// Appends `op` to the line (see [`PolOp`]).
    fn push_op(&mut self, op: PolOp) {
        let line = &mut self.line;
        let _ = match op {
            PolOp::Improving => write!(line, " {}", self.improving_id),
            PolOp::Row { row, upper } => {
                let (ge, le) = self.row_ids.get(row as usize).copied().unwrap_or((0, 0));
                write!(line, " {}", if upper { le } else { ge })
            }
            PolOp::Literal { var, negated } => {
                line.push_str(&self.literals[2 * var as usize + usize::from(negated)]);
                Ok(())
            }
            PolOp::Multiply(k) => write!(line, " {k} *"),
            PolOp::Divide(k) => write!(line, " {k} d"),
            PolOp::Weaken(var) => {
                line.push_str(&self.literals[2 * var as usize]);
                line.push_str(" w");
                Ok(())
            }
            PolOp::Add => {
                line.push_str(" +");
                Ok(())
            }
        };
    }

    /// Writes the claim (a `%` comment zeroone's checker reads), the output and the
    /// conclusion VeriPB verifies, and puts the file in place.
    pub fn finish(mut self, claim: &Claim) -> Result<WrittenProof, ProofError> {
        let conclusion = match claim {
            // VeriPB takes SAT only without an objective; with one, a count's steps are all
            // checked and zeroone confirms the contradiction and the solution steps.
            Claim::Count { .. } if self.has_objective => "NONE".to_string(),
            Claim::Count { .. } | Claim::Solution if self.solutions > 0 => "SAT".to_string(),
            Claim::Optimum { value } => format!("BOUNDS {value} {value}"),
            // VeriPB takes UNSAT only without an objective.
            Claim::Infeasible if self.has_objective => "BOUNDS INF INF".to_string(),
            Claim::Infeasible => "UNSAT : -1".to_string(),
            _ => "NONE".to_string(),
        };
        self.line = format!(
            "% zeroone claim: {}\noutput NONE ;\nconclusion {conclusion} ;\nend pseudo-Boolean proof ;\n",
            claim.text()
        );
        self.emit();
        let path = self.path.clone();
        let io_err = |source| ProofError::Io {
            path: path.clone(),
            source,
        };
        if let Some(e) = self.error.take() {
            return Err(io_err(e));
        }
        let file = self.out.into_inner().map_err(|e| io_err(e.into_error()))?;
        file.commit().map_err(io_err)?;
        Ok(WrittenProof {
            path,
            solutions: self.solutions,
            contradiction: self.contradiction,
        })
    }
}

impl ProofLog for VeriPbWriter {
    fn enabled(&self) -> bool {
        true
    }

    fn decide(&mut self, var: usize, value: bool) {
        self.decisions.push((var, value));
    }

    fn retract(&mut self) {
        self.line.clear();
        self.line.push_str("rup");
        for &(var, value) in &self.decisions {
            // The negation of the decision `x = value`.
            self.line.push_str(" 1");
            self.line
                .push_str(&self.literals[2 * var + usize::from(value)]);
        }
        self.line.push_str(" >= 1 ;\n");
        let id = self.emit_derived();
        self.delete_subsumed(self.decisions.len(), id);
        self.decisions.pop();
    }

    fn solution(&mut self, ones: &[u32], improving: Option<bool>, _value: i128) {
        let rule = match improving {
            None => "solx",
            Some(true) => "soli",
            // Not better than the incumbent: the improvement constraint already excludes it.
            Some(false) => return,
        };
        self.values.iter_mut().for_each(|v| *v = false);
        for &v in ones {
            self.values[v as usize] = true;
        }
        self.line.clear();
        self.line.push_str(rule);
        for v in 0..self.num_vars {
            let negated = usize::from(!self.values[v]);
            self.line.push_str(&self.literals[2 * v + negated]);
        }
        self.line.push_str(" ;\n");
        let id = self.emit_derived();
        if improving == Some(true) {
            self.improving_id = id;
        }
        self.solutions += 1;
    }

    fn bound_prune(&mut self, derivation: &[PolOp]) {
        if derivation == [PolOp::Improving] {
            return; // the improving constraint alone: unit propagation uses it as it is
        }
        self.line.clear();
        self.line.push_str("pol");
        for &op in derivation {
            self.push_op(op);
        }
        self.line.push_str(" ;\n");
        self.pending_delete = Some(self.emit_derived());
    }

    fn exhausted(&mut self) {
        self.line.clear();
        self.line.push_str("rup >= 1 ;\n");
        self.emit_derived();
        self.contradiction = true;
    }
}
