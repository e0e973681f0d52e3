//! Objective bounds in CNF for the `sat` backend's solution-improving search: the clauses
//! saying `sum c_v x_v <= bound` ([`objective_at_most`]), and [`ObjectiveBounds`], which keeps
//! one incremental encoding and tightens it bound by bound under assumptions. Costs: one
//! encoding of the objective, of a size depending on the [`PbEncoding`] and the costs.

use rustsat::encodings::pb;
use rustsat::instances::{BasicVarManager, Cnf as RsCnf, ManageVars};
use rustsat::types::constraints::PbConstraint;
use rustsat::types::{Lit, Var};

use super::{encode_pb, PbEncoding};

/// Clauses (DIMACS literals) and the number of variables they use.
pub type BoundClauses = (Vec<Vec<i32>>, usize);

/// An objective bound to assume ([`ObjectiveBounds::at_most_assumed`]): the encoding's new
/// clauses, the literals to assume, and the number of variables used so far.
pub type AssumedBound = (Vec<Vec<i32>>, Vec<i32>, usize);

/// The clauses saying `sum_v c_v x_v <= bound` for signed integer costs over model variables
/// (`(variable id, cost)`, DIMACS variable `id + 1`), through the same rustsat encodings as the
/// weighted rows, their auxiliary variables numbered from `first_free + 1`. A negative cost is
/// written on the negated literal: `c x = |c| (1 - x) - |c|`. Returns `None` when no assignment
/// can meet the bound, else the clauses (none when every assignment meets it) and the number of
/// variables used. Used by the `sat` backend's solution-improving search. Cost: one encoding,
/// of a size depending on `encoding` and the costs (the adder stays `O(n log sum)`).
pub fn objective_at_most(
    costs: &[(usize, i64)],
    bound: i128,
    first_free: usize,
    encoding: PbEncoding,
) -> Result<Option<BoundClauses>, rustsat::OutOfMemory> {
    let negative: i128 = costs.iter().map(|&(_, c)| i128::from(c.min(0))).sum();
    let positive: i128 = costs.iter().map(|&(_, c)| i128::from(c.max(0))).sum();
    // Over the literals with weight |c|: sum <= bound - negative.
    let k = bound - negative;
    if k < 0 {
        return Ok(None);
    }
    if k >= positive - negative {
        return Ok(Some((Vec::new(), first_free)));
    }
    let terms = costs.iter().filter(|&&(_, c)| c != 0).map(|&(v, c)| {
        let lit = Lit::positive(v as u32);
        (if c < 0 { !lit } else { lit }, c.unsigned_abs() as usize)
    });
    // k < the total weight, which fits isize: every cost is at most 2^53 and the caller bounds
    // the number of terms.
    let constraint = PbConstraint::new_ub_unsigned(terms, k as isize);
    let mut vars = BasicVarManager::from_next_free(Var::new(first_free as u32));
    let mut clauses = RsCnf::new();
    encode_pb(encoding, constraint, &mut clauses, &mut vars)?;
    let out = clauses
        .into_iter()
        .map(|cl| cl.into_iter().map(Lit::to_ipasir).collect())
        .collect();
    Ok(Some((out, first_free.max(vars.n_used() as usize))))
}

/// The objective `sum_v c_v x_v` as one incremental upper-bound encoding (rustsat's
/// [`pb::BoundUpperIncremental`]): built once, extended lazily as the bound tightens, each
/// bound enforced by unit clauses on its output literals. The solution-improving search adds
/// one such bound per better solution; unlike a fresh [`objective_at_most`] per bound, the
/// clauses of earlier bounds are reused, not repeated. Negative costs go on negated literals,
/// as in [`objective_at_most`]. Cost: the encoding grows with the distinct bounds asked for
/// (GTE: one output per distinct partial sum up to the bound; DPW and the adder stay smaller).
pub struct ObjectiveBounds {
    encoding: IncrementalPb,
    vars: BasicVarManager,
    /// The sum of the negative costs (the smallest value) and of the positive ones.
    negative: i128,
    positive: i128,
}

/// Why [`ObjectiveBounds::at_most`] could not give a bound's clauses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoundError {
    /// The encoding ran out of memory.
    #[error("out of memory encoding the objective bound")]
    OutOfMemory,
    /// The encoding did not cover the bound it was just asked to encode (a rustsat fault).
    #[error("the objective encoding does not cover the bound {0}")]
    NotEncoded(usize),
}

/// The incremental encodings behind [`ObjectiveBounds`], one per [`PbEncoding`].
enum IncrementalPb {
    Gte(pb::GeneralizedTotalizer),
    Dpw(pb::DynamicPolyWatchdog),
    Adder(pb::BinaryAdder),
}

impl ObjectiveBounds {
    /// The encoding of `costs` (model variable id, cost) with `encoding`, its auxiliary
    /// variables numbered from `first_free + 1`. Nothing is encoded until a bound is asked for.
    pub fn new(costs: &[(usize, i64)], first_free: usize, encoding: PbEncoding) -> Self {
        let terms = costs.iter().filter(|&&(_, c)| c != 0).map(|&(v, c)| {
            let lit = Lit::positive(v as u32);
            (if c < 0 { !lit } else { lit }, c.unsigned_abs() as usize)
        });
        let encoding = match encoding {
            PbEncoding::Gte => IncrementalPb::Gte(terms.collect()),
            PbEncoding::Dpw => IncrementalPb::Dpw(terms.collect()),
            PbEncoding::Adder => IncrementalPb::Adder(terms.collect()),
        };
        ObjectiveBounds {
            encoding,
            vars: BasicVarManager::from_next_free(Var::new(first_free as u32)),
            negative: costs.iter().map(|&(_, c)| i128::from(c.min(0))).sum(),
            positive: costs.iter().map(|&(_, c)| i128::from(c.max(0))).sum(),
        }
    }

    /// The clauses to add so that `sum c x <= bound` (the encoding's new clauses, then the
    /// unit clauses enforcing the bound), as DIMACS literals, and the number of variables used
    /// so far. `None` when no assignment can meet the bound. Bounds must not grow from one
    /// call to the next (the unit clauses stay).
    pub fn at_most(&mut self, bound: i128) -> Result<Option<BoundClauses>, BoundError> {
        Ok(self
            .at_most_assumed(bound)?
            .map(|(mut clauses, units, used)| {
                clauses.extend(units.into_iter().map(|l| vec![l]));
                (clauses, used)
            }))
    }

    /// Like [`ObjectiveBounds::at_most`], but the literals enforcing the bound come apart
    /// from the encoding's clauses: add the clauses, and assume the literals (DIMACS) for one
    /// solve only. Bounds may then come in any order. Returns the clauses, the literals and
    /// the number of variables used so far; `None` when no assignment can meet the bound.
    pub fn at_most_assumed(&mut self, bound: i128) -> Result<Option<AssumedBound>, BoundError> {
        use pb::{BoundUpper, BoundUpperIncremental};
        let k = bound - self.negative;
        if k < 0 {
            return Ok(None);
        }
        let used = |vars: &BasicVarManager| vars.n_used() as usize;
        if k >= self.positive - self.negative {
            return Ok(Some((Vec::new(), Vec::new(), used(&self.vars))));
        }
        // k < the total weight, which fits usize (the caller bounds the number of terms).
        let k = k as usize;
        let mut clauses = RsCnf::new();
        let vars = &mut self.vars;
        let enforced = match &mut self.encoding {
            IncrementalPb::Gte(e) => {
                e.encode_ub_change(k..=k, &mut clauses, vars)
                    .map_err(|_| BoundError::OutOfMemory)?;
                e.enforce_ub(k)
            }
            IncrementalPb::Dpw(e) => {
                e.encode_ub_change(k..=k, &mut clauses, vars)
                    .map_err(|_| BoundError::OutOfMemory)?;
                e.enforce_ub(k)
            }
            IncrementalPb::Adder(e) => {
                e.encode_ub_change(k..=k, &mut clauses, vars)
                    .map_err(|_| BoundError::OutOfMemory)?;
                e.enforce_ub(k)
            }
        };
        let units = match enforced {
            Ok(units) => units,
            Err(rustsat::encodings::EnforceError::Unsat) => return Ok(None),
            Err(rustsat::encodings::EnforceError::NotEncoded) => {
                return Err(BoundError::NotEncoded(k))
            }
        };
        let out: Vec<Vec<i32>> = clauses
            .into_iter()
            .map(|cl| cl.into_iter().map(Lit::to_ipasir).collect())
            .collect();
        let units = units.into_iter().map(Lit::to_ipasir).collect();
        Ok(Some((out, units, used(&self.vars))))
    }
}
