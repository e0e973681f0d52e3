//! The CNF encoding of a model (what the DIMACS export writes and the `sat` backend solves).
//! Model variable `i` is CNF variable `i + 1`; auxiliary variables follow.
//!
//! An "exactly one" row becomes one at-least-one clause plus an at-most-one encoding; an "at
//! most one" row only the latter; a given a unit clause. The at-most-one encoding depends on
//! the row length `k`:
//! - **pairwise** (`k <= pairwise_up_to`): `k(k-1)/2` binary clauses `(-a | -b)`, no new
//!   variables;
//! - **sequential counter** (Sinz 2005) for longer rows: `k - 1` auxiliary variables `s_j`
//!   ("one of the first `j` is set") and `3k - 4` clauses: `(-x_1 | s_1)`, and for
//!   `1 < j < k` `(-x_j | s_j)`, `(-s_{j-1} | s_j)`, `(-x_j | -s_{j-1})`, then
//!   `(-x_k | -s_{k-1})`.
//!
//! The default threshold 6 switches where the counter starts to pay (15 pairwise clauses against
//! 14 for `k = 6`, 21 against 17 for `k = 7`).
//!
//! General rows (`sum w_i x_i (=, <=, >=) k` with `k != 1` or weights) are encoded by the
//! `rustsat` crate ([`RUSTSAT_VERSION`]), not by hand:
//! - **cardinality rows** (unit weights, any `k`): the totalizer (Bailleux and Boufkhad 2003),
//!   built for the bound `k` only; an equality is bounded from both sides;
//! - **pseudo-Boolean rows** (weights): the encoding [`PbEncoding`] names, by default the
//!   generalized totalizer (GTE, Joshi, Martins and Manquinho 2015); lower bounds and
//!   equalities go through rustsat's inverted and doubled forms of an upper-bounding encoding
//!   (the binary adder bounds both sides itself).
//!
//! Rows that rustsat recognises as trivial (always true, a clause, a forced assignment) get
//! those clauses directly; a weighted row whose weights all equal `w` is divided by `w` and
//! encoded by the totalizer (an equality whose `k` is not a multiple of `w` becomes the empty
//! clause), but is still counted as a weighted row. The `c` header lines give the encodings, the threshold, the rows and clauses by kind
//! and the table `variable label coordinate`.
//!
//! Auxiliary variables are not determined by the model variables, so a solution count must be
//! taken over the model variables only (the `sat` backend blocks on those). When a formula has
//! auxiliary variables, the `c p show 1 .. n 0` lines of the model-counting competition's
//! format (after the `p cnf` line, [`SHOW_PER_LINE`](crate::export::cnf::SHOW_PER_LINE) variables a line) name the model's
//! variables as the projection set, so projected #SAT counters (Ganak, d4) count the model's
//! solutions; without auxiliaries every variable is shown and no such line is written.
//!
//! Costs: `O(sum over rows of min(k^2, 3k))` clauses for exact-cover rows; a totalizer over
//! `n` variables for bound `k` has `O(n k)` clauses, a GTE `O(n * distinct partial sums)`
//! (exponential in the worst case, small when weights repeat), DPW and the adder
//! `O(n log(max weight))`-ish; all built in memory.

use std::fmt;
use std::str::FromStr;

use rustsat::encodings::{card, pb};
use rustsat::instances::{BasicVarManager, Cnf as RsCnf, ManageVars};
use rustsat::types::constraints::{CardConstraint, PbConstraint};
use rustsat::types::{Lit, Var};

mod bounds;
use crate::model::{Constraint, Model, Relation, Sense};
pub use bounds::{objective_at_most, AssumedBound, BoundClauses, BoundError, ObjectiveBounds};

/// Why a model has no CNF encoding here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// The encoder ran out of memory on a row (a pseudo-Boolean encoding too large for this
    /// machine; another `--pb-encoding` may fit).
    #[error("out of memory while encoding row {row} of family '{family}' in CNF")]
    OutOfMemory {
        /// The row's family.
        family: String,
        /// The row's index in its family.
        row: usize,
    },
    /// A general row whose CNF encoding would be too large to build (estimated before building,
    /// so the process never aborts on an allocation); another `--pb-encoding` may fit.
    #[error("row {row} of family '{family}' is too large for the {encoding} CNF encoding: about {estimate} clauses and table entries, above the cap of {cap} (another --pb-encoding may fit)", cap = MAX_ENCODING_SIZE)]
    EncodingTooLarge {
        /// The row's family.
        family: String,
        /// The row's index in its family.
        row: usize,
        /// The encoding that would be used (`totalizer`, `gte`, `dpw`, `adder`).
        encoding: &'static str,
        /// [`encoding_estimate`] of the row.
        estimate: u128,
    },
}

/// The version of the `rustsat` crate whose encodings the CNF export uses (named in the
/// header so a formula can be traced to the code that made it; a test keeps it equal to the
/// version in `Cargo.lock`).
pub const RUSTSAT_VERSION: &str = "0.7.5";

/// The pseudo-Boolean encoding used for weighted rows (all from `rustsat`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PbEncoding {
    /// Generalized totalizer (GTE): one output per distinct partial sum up to the bound.
    /// rustsat's default; compact when weights repeat, large for many distinct weights.
    #[default]
    Gte,
    /// Dynamic polynomial watchdog (DPW): totalizers over the binary digits of the weights;
    /// grows with the number of bits of the weights rather than with distinct sums.
    Dpw,
    /// Binary adder (Warners 1998; Een and Sorensson 2006): a circuit of full adders,
    /// `O(n log W)` clauses, bounds both sides itself; propagates least well.
    Adder,
}

impl PbEncoding {
    /// Every encoding, in the order `--help` lists them.
    pub const ALL: [PbEncoding; 3] = [PbEncoding::Gte, PbEncoding::Dpw, PbEncoding::Adder];

    /// The name options take (`gte`, `dpw`, `adder`).
    pub fn name(self) -> &'static str {
        match self {
            PbEncoding::Gte => "gte",
            PbEncoding::Dpw => "dpw",
            PbEncoding::Adder => "adder",
        }
    }

    /// The encoding in words, for the DIMACS header.
    pub fn describe(self) -> &'static str {
        match self {
            PbEncoding::Gte => "generalized totalizer (GTE)",
            PbEncoding::Dpw => "dynamic polynomial watchdog (DPW)",
            PbEncoding::Adder => "binary adder",
        }
    }
}

impl fmt::Display for PbEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PbEncoding {
    type Err = String;
    fn from_str(s: &str) -> Result<PbEncoding, String> {
        PbEncoding::ALL
            .into_iter()
            .find(|e| e.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                format!("unknown pseudo-Boolean encoding '{s}' (known: gte, dpw, adder)")
            })
    }
}

/// How rows are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CnfOptions {
    /// Exact-cover rows of at most this many variables use pairwise at-most-one clauses;
    /// longer rows the sequential counter. `usize::MAX`: always pairwise; `0` or `1`: always
    /// the counter (for rows of two or more).
    pub pairwise_up_to: usize,
    /// The encoding of weighted rows (cardinality rows always use the totalizer).
    pub pb: PbEncoding,
}

impl Default for CnfOptions {
    fn default() -> Self {
        CnfOptions {
            pairwise_up_to: 6,
            pb: PbEncoding::default(),
        }
    }
}

/// A CNF formula made from a model, with the bookkeeping the header reports.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Cnf {
    /// Variables of the formula (model variables first, then auxiliary ones).
    pub num_vars: usize,
    /// How many of them are model variables (CNF variables `1..=model_vars`).
    pub model_vars: usize,
    /// The clauses as DIMACS literals (nonzero; negative means negated).
    pub clauses: Vec<Vec<i32>>,
    /// At-least-one clauses (one per "exactly one" row).
    pub at_least_one: usize,
    /// Binary clauses of pairwise at-most-one encodings.
    pub pairwise: usize,
    /// Clauses of sequential-counter encodings.
    pub sequential: usize,
    /// Unit clauses for givens.
    pub givens: usize,
    /// Rows encoded pairwise.
    pub rows_pairwise: usize,
    /// Rows encoded with the sequential counter.
    pub rows_sequential: usize,
    /// Clauses of totalizer encodings of cardinality rows (unit weights, `k != 1`).
    pub cardinality: usize,
    /// Clauses of pseudo-Boolean encodings of weighted rows.
    pub pseudo_boolean: usize,
    /// Cardinality rows (unit weights, `k != 1`), encoded with the totalizer.
    pub rows_cardinality: usize,
    /// Weighted rows, encoded with [`CnfOptions::pb`].
    pub rows_pseudo_boolean: usize,
}

impl Cnf {
    /// The CNF of `model` with the encodings chosen by `options`. Fails only when rustsat
    /// runs out of memory on a general row ([`EncodeError::OutOfMemory`]).
    pub fn encode(model: &Model, options: &CnfOptions) -> Result<Cnf, EncodeError> {
        let n = model.num_variables();
        let mut cnf = Cnf {
            num_vars: n,
            model_vars: n,
            ..Cnf::default()
        };
        let lit = |v: usize| (v + 1) as i32;
        for c in model.constraints() {
            if !c.is_unit() {
                let estimate = encoding_estimate(c, options.pb);
                if estimate > MAX_ENCODING_SIZE {
                    return Err(EncodeError::EncodingTooLarge {
                        family: model.families()[c.family].name.clone(),
                        row: c.index,
                        encoding: encoding_name(c, options.pb),
                        estimate,
                    });
                }
                cnf.push_general_row(c, options.pb)
                    .map_err(|_| EncodeError::OutOfMemory {
                        family: model.families()[c.family].name.clone(),
                        row: c.index,
                    })?;
                continue;
            }
            if c.sense == Sense::ExactlyOne {
                cnf.clauses.push(c.vars.iter().map(|&v| lit(v)).collect());
                cnf.at_least_one += 1;
            }
            let k = c.vars.len();
            if k < 2 {
                continue;
            }
            if k <= options.pairwise_up_to {
                cnf.rows_pairwise += 1;
                for i in 0..k {
                    for j in i + 1..k {
                        cnf.clauses.push(vec![-lit(c.vars[i]), -lit(c.vars[j])]);
                        cnf.pairwise += 1;
                    }
                }
            } else {
                cnf.rows_sequential += 1;
                let before = cnf.clauses.len();
                // s[j] (j = 0..k-1): one of the first j+1 variables is 1.
                let s: Vec<i32> = (0..k - 1).map(|j| (cnf.num_vars + j + 1) as i32).collect();
                cnf.num_vars += k - 1;
                let x: Vec<i32> = c.vars.iter().map(|&v| lit(v)).collect();
                cnf.clauses.push(vec![-x[0], s[0]]);
                for j in 1..k - 1 {
                    cnf.clauses.push(vec![-x[j], s[j]]);
                    cnf.clauses.push(vec![-s[j - 1], s[j]]);
                    cnf.clauses.push(vec![-x[j], -s[j - 1]]);
                }
                cnf.clauses.push(vec![-x[k - 1], -s[k - 2]]);
                cnf.sequential += cnf.clauses.len() - before;
            }
        }
        for &g in model.givens() {
            cnf.clauses.push(vec![lit(g)]);
            cnf.givens += 1;
        }
        Ok(cnf)
    }

    /// Appends the rustsat encoding of the general row `c` (cardinality or weighted), with its
    /// auxiliary variables numbered after the current ones.
    fn push_general_row(
        &mut self,
        c: &Constraint,
        pb_encoding: PbEncoding,
    ) -> Result<(), rustsat::OutOfMemory> {
        let mut vars = BasicVarManager::from_next_free(Var::new(self.num_vars as u32));
        let mut clauses = RsCnf::new();
        let lits = c.vars.iter().map(|&v| Lit::positive(v as u32));
        // Every rhs, weight and row total is at most 2^53 (`MAX_COEFFICIENT`): fits usize
        // and isize on the 64-bit targets zeroone builds for.
        let k = c.sense.rhs() as usize;
        let (low, high) = c.weight_range();
        let weighted = c.weights.is_some();
        if weighted {
            self.rows_pseudo_boolean += 1;
        } else {
            self.rows_cardinality += 1;
        }
        let done = if low == high {
            // Unit weights, or all weights equal to `w`: a cardinality row after dividing by
            // `w`. Done here because rustsat 0.7.5 panics on an equality whose right-hand
            // side `w` does not divide (it converts such rows itself, unguarded).
            let w = low as usize;
            let constraint = match c.sense.relation() {
                Relation::Equal if k % w != 0 => None,
                Relation::Equal => Some(CardConstraint::new_eq(lits, k / w)),
                Relation::AtMost => Some(CardConstraint::new_ub(lits, k / w)),
                Relation::AtLeast => Some(CardConstraint::new_lb(lits, k.div_ceil(w))),
            };
            match constraint {
                // No multiple of `w` equals `k`: the row cannot hold.
                None => {
                    clauses.add_clause(rustsat::types::Clause::new());
                    Ok(())
                }
                Some(constraint) => card::encode_cardinality_constraint::<card::Totalizer, _>(
                    constraint,
                    &mut clauses,
                    &mut vars,
                ),
            }
        } else {
            let terms = lits.zip(c.terms().map(|(_, w)| w as usize));
            let constraint = match c.sense.relation() {
                Relation::Equal => PbConstraint::new_eq_unsigned(terms, k as isize),
                Relation::AtMost => PbConstraint::new_ub_unsigned(terms, k as isize),
                Relation::AtLeast => PbConstraint::new_lb_unsigned(terms, k as isize),
            };
            encode_pb(pb_encoding, constraint, &mut clauses, &mut vars)
        };
        done?;
        let added = clauses.len();
        self.clauses.extend(
            clauses
                .into_iter()
                .map(|cl| cl.into_iter().map(Lit::to_ipasir).collect::<Vec<i32>>()),
        );
        if weighted {
            self.pseudo_boolean += added;
        } else {
            self.cardinality += added;
        }
        self.num_vars = self.num_vars.max(vars.n_used() as usize);
        Ok(())
    }
}

/// The largest encoding of one general row built, in [`encoding_estimate`]'s units (clauses and
/// table entries): 2^24, a few hundred MB. A row past it is refused before rustsat allocates.
pub const MAX_ENCODING_SIZE: u128 = 1 << 24;

/// The encoding a general row gets: the totalizer for rows whose weights are all equal,
/// otherwise `pb`.
fn encoding_name(c: &Constraint, pb: PbEncoding) -> &'static str {
    let (low, high) = c.weight_range();
    if low == high {
        "totalizer"
    } else {
        pb.name()
    }
}

/// An upper estimate of the size of the encoding of the general row `c` (clauses plus the
/// entries of the tables rustsat allocates), computed from the row's length, weights and bound
/// alone, before anything is built. Cost: `O(row length)`.
///
/// - totalizer (equal weights `w`, bound `b = k / w`): a balanced tree whose node over `m`
///   inputs has `min(m, b + 1)` outputs and `out_left * out_right` clauses;
/// - GTE: the same tree with `min(2^m, b + 2)` outputs per node (distinct partial sums up to the
///   bound; `b` is `total - k` for a lower bound, which rustsat inverts);
/// - DPW: totalizers over the `B` bits of the weights, about `n * B^2`;
/// - adder: `n * B` full adders of 14 clauses, plus the comparator table rustsat sizes by the
///   bound, `min(k, total) + 1` entries (the cause of the aborts this check prevents).
///
/// Equalities encode both bounds and count both.
pub fn encoding_estimate(c: &Constraint, pb: PbEncoding) -> u128 {
    let n = c.vars.len() as u128;
    let k = u128::from(c.sense.rhs());
    let total = u128::from(c.total_weight());
    let (low, high) = c.weight_range();
    // The bounds encoded: the upper one (k) and, inverted, the lower one (total - k).
    let bounds: Vec<u128> = match c.sense.relation() {
        Relation::Equal => vec![k, total.saturating_sub(k)],
        Relation::AtMost => vec![k],
        Relation::AtLeast => vec![total.saturating_sub(k)],
    };
    let bits = u128::from(64 - high.max(1).leading_zeros());
    bounds
        .iter()
        .map(|&b| {
            if low == high {
                tree_estimate(c.vars.len(), |m| (m as u128).min(b / u128::from(low) + 1))
            } else {
                match pb {
                    PbEncoding::Gte => tree_estimate(c.vars.len(), |m| {
                        let sums = if m >= 127 { u128::MAX } else { 1u128 << m };
                        sums.min(b + 2)
                    }),
                    PbEncoding::Dpw => n * bits * bits + n,
                    PbEncoding::Adder => 14 * n * bits + k.min(total) + 1,
                }
            }
        })
        .fold(0u128, u128::saturating_add)
}

/// The clauses of a balanced merge tree over `n` leaves whose node over `m` leaves has
/// `outputs(m)` outputs: the sum over inner nodes of `outputs(left) * outputs(right)`.
fn tree_estimate(n: usize, outputs: impl Fn(usize) -> u128 + Copy) -> u128 {
    if n <= 1 {
        return 0;
    }
    let (l, r) = (n / 2, n - n / 2);
    let here = outputs(l).saturating_mul(outputs(r));
    here.saturating_add(tree_estimate(l, outputs))
        .saturating_add(tree_estimate(r, outputs))
}

/// Encodes one pseudo-Boolean constraint with `encoding`, through rustsat's generic encoder
/// (which handles trivial and all-equal-weight rows itself).
fn encode_pb(
    encoding: PbEncoding,
    constraint: PbConstraint,
    clauses: &mut RsCnf,
    vars: &mut BasicVarManager,
) -> Result<(), rustsat::OutOfMemory> {
    type Dpw = pb::simulators::Double<
        pb::DynamicPolyWatchdog,
        pb::simulators::Inverted<pb::DynamicPolyWatchdog>,
    >;
    match encoding {
        PbEncoding::Gte => {
            pb::encode_pb_constraint::<pb::DoubleGeneralizedTotalizer, _>(constraint, clauses, vars)
        }
        PbEncoding::Dpw => pb::encode_pb_constraint::<Dpw, _>(constraint, clauses, vars),
        PbEncoding::Adder => {
            pb::encode_pb_constraint::<pb::BinaryAdder, _>(constraint, clauses, vars)
        }
    }
}
