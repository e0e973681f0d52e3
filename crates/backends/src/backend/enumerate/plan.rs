//! The enumeration plan: the row bitsets of every variable, the coordinate lines in order,
//! and the running sums of general rows ([`Plan`], [`SumPlan`]).

use crate::model::{Model, Sense, VarId};

/// A bitset of `K` words over the rows of a model.
pub(super) type Bits<const K: usize> = [u64; K];

#[inline(always)]
pub(super) fn disjoint<const K: usize>(a: &Bits<K>, b: &Bits<K>) -> bool {
    (0..K).all(|i| a[i] & b[i] == 0)
}

#[inline(always)]
pub(super) fn contains<const K: usize>(big: &Bits<K>, small: &Bits<K>) -> bool {
    (0..K).all(|i| big[i] & small[i] == small[i])
}

#[inline(always)]
pub(super) fn union<const K: usize>(a: &Bits<K>, b: &Bits<K>) -> Bits<K> {
    let mut out = *a;
    for i in 0..K {
        out[i] |= b[i];
    }
    out
}

/// `a` without the bits of `b`.
#[inline(always)]
pub(super) fn without<const K: usize>(a: &Bits<K>, b: &Bits<K>) -> Bits<K> {
    let mut out = *a;
    for i in 0..K {
        out[i] &= !b[i];
    }
    out
}

#[inline(always)]
pub(super) fn has<const K: usize>(a: &Bits<K>, bit: usize) -> bool {
    a[bit / 64] >> (bit % 64) & 1 == 1
}

pub(super) fn set<const K: usize>(a: &mut Bits<K>, bit: usize) {
    a[bit / 64] |= 1 << (bit % 64);
}

/// The search plan of one model with `K`-word row bitsets.
#[derive(Debug, Clone)]
pub(super) struct Plan<const K: usize> {
    /// For each variable (of the reduced model), the rows containing it.
    pub(super) mask: Vec<Bits<K>>,
    /// For each row, its variables.
    pub(super) row_vars: Vec<Vec<VarId>>,
    /// Branching rows in fixed order (all "exactly one" rows).
    pub(super) order: Vec<usize>,
    /// `need[p]`: "exactly one" rows that must be used once `order[..p]` are all used.
    pub(super) need: Vec<Bits<K>>,
    /// Every "exactly one" row.
    pub(super) all_exact: Bits<K>,
    /// Variables in no "exactly one" row, chosen in or out after the branching rows.
    pub(super) free: Vec<VarId>,
    /// Per variable: its index in `free` (`usize::MAX`: not free).
    pub(super) free_at: Vec<usize>,
    /// The branching position after which every variable is blocked (`usize::MAX` when some
    /// variable lies in no branching row).
    pub(super) settled: usize,
    /// The general rows (not `= 1` / `<= 1` on unit weights): running sums, not bits.
    pub(super) sums: SumPlan,
}

/// The general rows of a plan: each keeps a running sum of the weights placed in it, checked
/// against its upper bound as each variable is placed and against its lower bound through an
/// upper bound on what it can still gain (see [`SumPlan::reach`]).
#[derive(Debug, Clone, Default)]
pub(super) struct SumPlan {
    /// Per general row: its lower and upper bound (`u64::MAX`: none).
    pub(super) bounds: Vec<(u64, u64)>,
    /// Per variable: `(general row, weight)` for every general row holding it.
    pub(super) terms: Vec<Vec<(u32, u64)>>,
    /// `reach[g * stride + p]`: the most weight general row `g` can still gain at branching
    /// position `p` (`p <= order.len()`), or at free variable `p - order.len() - 1` of the
    /// free phase: each branching row places at most one variable, those first met at it, so
    /// it adds at most its heaviest such variable of `g`; each free variable adds its weight.
    pub(super) reach: Vec<u64>,
    pub(super) stride: usize,
}

impl SumPlan {
    pub(super) fn is_empty(&self) -> bool {
        self.bounds.is_empty()
    }

    /// Whether every general row can still reach its lower bound from `sums` at point `at`
    /// (see [`SumPlan::reach`]). Cost: one comparison per general row.
    #[inline]
    pub(super) fn reachable(&self, sums: &[u64], at: usize) -> bool {
        self.bounds
            .iter()
            .enumerate()
            .all(|(g, &(low, _))| sums[g] + self.reach[g * self.stride + at] >= low)
    }
}

impl<const K: usize> Plan<K> {
    pub(super) fn empty(&self) -> Bits<K> {
        [0; K]
    }

    pub(super) fn build(model: &Model, order: Vec<usize>) -> Plan<K> {
        Self::build_ordered(model, order, None)
    }

    /// [`Plan::build`] with the free variables sorted by `free_key` (smaller first, ties by
    /// id) instead of by id.
    pub(super) fn build_ordered(
        model: &Model,
        order: Vec<usize>,
        free_key: Option<&[f64]>,
    ) -> Plan<K> {
        let rows = model.constraints();
        let mut mask = vec![[0u64; K]; model.num_variables()];
        for (r, c) in rows.iter().enumerate() {
            if !c.is_unit() {
                continue;
            }
            for &v in &c.vars {
                set(&mut mask[v], r);
            }
        }
        let mut all_exact = [0u64; K];
        let mut in_exact = vec![false; model.num_variables()];
        for (r, c) in rows.iter().enumerate() {
            if c.sense == Sense::ExactlyOne {
                set(&mut all_exact, r);
                for &v in &c.vars {
                    in_exact[v] = true;
                }
            }
        }
        // The first branching position holding each variable.
        let mut first = vec![usize::MAX; model.num_variables()];
        for (p, &r) in order.iter().enumerate() {
            for &v in &rows[r].vars {
                first[v] = first[v].min(p);
            }
        }
        let mut need = vec![[0u64; K]; order.len() + 1];
        for (r, c) in rows.iter().enumerate() {
            if c.sense == Sense::ExactlyOne {
                let closes = c.vars.iter().map(|&v| first[v]).max().unwrap_or(0);
                // All of the row's variables are blocked once order[..=closes] are used.
                for n in need.iter_mut().skip(closes + 1) {
                    set(n, r);
                }
            }
        }
        let settled = first.iter().copied().max().unwrap_or(usize::MAX);
        let mut free: Vec<VarId> = (0..model.num_variables())
            .filter(|&v| !in_exact[v])
            .collect();
        if let Some(key) = free_key {
            free.sort_by(|&a, &b| key[a].total_cmp(&key[b]).then(a.cmp(&b)));
        }
        let sums = SumPlan::build(model, &first, order.len(), &free);
        let mut free_at = vec![usize::MAX; model.num_variables()];
        for (i, &v) in free.iter().enumerate() {
            free_at[v] = i;
        }
        Plan {
            free_at,
            settled,
            mask,
            row_vars: rows.iter().map(|c| c.vars.clone()).collect(),
            order,
            need,
            all_exact,
            free,
            sums,
        }
    }
}

impl SumPlan {
    /// The general rows of `model`, with `first[v]` the first branching position holding `v`
    /// (`usize::MAX`: none), `positions` branching positions and the free variables in order.
    pub(super) fn build(
        model: &Model,
        first: &[usize],
        positions: usize,
        free: &[VarId],
    ) -> SumPlan {
        let general: Vec<&crate::model::Constraint> = model
            .constraints()
            .iter()
            .filter(|c| !c.is_unit())
            .collect();
        if general.is_empty() {
            return SumPlan::default();
        }
        let stride = positions + free.len() + 2;
        let mut terms = vec![Vec::new(); model.num_variables()];
        let mut reach = vec![0u64; general.len() * stride];
        let mut free_at = vec![usize::MAX; model.num_variables()];
        for (i, &v) in free.iter().enumerate() {
            free_at[v] = i;
        }
        for (g, c) in general.iter().enumerate() {
            let row = &mut reach[g * stride..(g + 1) * stride];
            // Per branching position: its heaviest variable of the row; per free variable its
            // weight; then suffix sums.
            for (v, w) in c.terms() {
                terms[v].push((g as u32, w));
                if free_at[v] != usize::MAX {
                    row[positions + 1 + free_at[v]] += w;
                } else if first[v] != usize::MAX {
                    row[first[v]] = row[first[v]].max(w);
                }
            }
            // Position `positions` (all branching rows done) gains what the free phase gains.
            for p in (0..stride - 1).rev() {
                row[p] += row[p + 1];
            }
        }
        SumPlan {
            bounds: general
                .iter()
                .map(|c| {
                    let (low, high) = c.sense.bounds();
                    (low, high.unwrap_or(u64::MAX))
                })
                .collect(),
            terms,
            reach,
            stride,
        }
    }
}
