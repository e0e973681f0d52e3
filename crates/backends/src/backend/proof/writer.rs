//! [`VeriPbWriter`]: the search's [`ProofLog`] written as a VeriPB 3.0 proof file, buffered
//! and put in place atomically when finished.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::{Claim, ProofError};
use crate::backend::search::ProofLog;
use crate::model::{Model, Relation};
use zeroone_model::output::AtomicWriter;

/// Writes a VeriPB proof against the model's OPB (as [`crate::export::opb::to_opb`] writes it)
/// while a search runs. Each retracted decision prefix becomes a `rup` step of its negation
/// (one literal per decision), each solution a `solx` (counting) or `soli` (optimising,
/// improving) step over every model variable, the exhausted root `rup >= 1 ;`. Lines go
/// through a buffer to a temporary file beside the target; [`VeriPbWriter::finish`] writes the
/// conclusion and renames it into place, so a run that fails or is killed leaves no partial
/// proof. The first I/O error is kept and returned by `finish` (the hooks cannot fail).
/// Memory: the decision stack and one line; per step, one line of `O(depth)` (a `rup`) or
/// `O(variables)` (a solution).
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
        writeln!(
            out,
            "pseudo-Boolean proof version 3.0\nf {} ;",
            opb_constraint_count(model)
        )
        .map_err(io_err)?;
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
        })
    }

    fn emit(&mut self) {
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(self.line.as_bytes()) {
                self.error = Some(e);
            }
        }
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
        self.emit();
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
        self.emit();
        self.solutions += 1;
    }

    fn exhausted(&mut self) {
        self.line.clear();
        self.line.push_str("rup >= 1 ;\n");
        self.emit();
        self.contradiction = true;
    }
}
