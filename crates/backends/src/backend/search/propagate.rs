//! Propagation to a fixed point: forced variables, demand rows' slack and the clique-cover
//! rule (see the module docs of [`crate::backend::search`]).

use super::engine::LegalityEngine;
use super::layout::Cover;
use super::state::{State, CLOSED};

impl State<'_> {
    /// Places forced variables until none is left. False on a contradiction.
    pub(super) fn propagate(&mut self, engine: &mut dyn LegalityEngine) -> bool {
        loop {
            if !self.propagate_rows(engine) {
                return false;
            }
            let Some(r) = self.cover_queue.pop() else {
                return true;
            };
            self.cover_pending[r as usize] = false;
            if !self.propagate_cover(engine, r as usize) {
                self.clear_queue();
                return false;
            }
        }
    }

    /// The queue of [`State::propagate`] without the clique-cover rule.
    pub(super) fn propagate_rows(&mut self, engine: &mut dyn LegalityEngine) -> bool {
        while let Some(r) = self.queue.pop() {
            let r = r as usize;
            if self.layout.general && self.layout.general_row[r] {
                self.pending[r] = false;
                if !self.propagate_demand(engine, r) {
                    self.clear_queue();
                    return false;
                }
                continue;
            }
            match self.count[r] {
                0 => {
                    self.clear_queue();
                    return false;
                }
                1 => {
                    let layout = self.layout;
                    let v = layout
                        .row(r)
                        .iter()
                        .map(|&v| v as usize)
                        .find(|&v| self.legal.contains(v))
                        .expect("a row with one legal variable holds it");
                    self.stats.steps += 1;
                    self.place(engine, v);
                    self.sync(engine);
                }
                _ => {}
            }
        }
        true
    }

    /// The rule for a general row with lower bound `low` and placed weight `sum < low`: with
    /// `avail` the weight of its legal variables, the row fails when `sum + avail < low`, and
    /// otherwise every legal variable heavier than the slack `sum + avail - low` is forced
    /// (without it the row cannot reach `low`). With unit weights: slack 0 forces every
    /// candidate; for "exactly one" this is the single rule. Forces the heaviest such variable
    /// and requeues the row. False on a contradiction.
    pub(super) fn propagate_demand(&mut self, engine: &mut dyn LegalityEngine, r: usize) -> bool {
        let layout = self.layout;
        let low = layout.lower[r];
        if self.sum[r] >= low {
            return true;
        }
        let reach = self.sum[r] + self.avail[r];
        if reach < low {
            return false;
        }
        let slack = reach - low;
        if slack >= layout.max_weight[r] {
            self.defer_cover(r);
            return true;
        }
        let forced = layout
            .row(r)
            .iter()
            .zip(layout.row_weights(r))
            .take_while(|&(_, &w)| w > slack)
            .map(|(&v, _)| v as usize)
            .find(|&v| self.legal.contains(v));
        if let Some(v) = forced {
            self.stats.steps += 1;
            self.place(engine, v);
            self.sync(engine);
            self.push_demand(r);
            return true;
        }
        self.defer_cover(r);
        true
    }

    /// Queues demand row `r` for [`State::propagate_cover`], which runs once the cheap rules
    /// are at a fixed point (so a row is covered once per round, not once per placement).
    /// Rows the rule cannot conclude on are not queued: those without cliques, and unit-weight
    /// rows with more than `need x clique_width` candidates (every part holds at most
    /// `clique_width` of them, so there are more than `need` parts).
    pub(super) fn defer_cover(&mut self, r: usize) {
        if self.rup_only {
            return;
        }
        let layout = self.layout;
        let need = layout.lower[r] - self.sum[r];
        let candidates = (self.count[r] - CLOSED) as u64;
        let loose = layout.max_weight[r] == 1 && candidates > need * layout.clique_width[r] as u64;
        if layout.has_cliques(r) && !loose && !self.cover_pending[r] {
            self.cover_pending[r] = true;
            self.cover_queue.push(r as u32);
        }
    }

    /// The clique-cover rule for a demand row `r` that still needs weight `need`: cover its
    /// legal variables greedily by parts, each part the still uncovered variables of one
    /// exact-cover row through the heaviest uncovered variable (the row holding most of them,
    /// or that variable alone). A part holds at most one placed variable, so the row can gain
    /// at most the sum of the parts' largest weights, `bound`. `bound < need` fails. `bound == need`
    /// means every part must take one variable of its largest weight: its lighter variables
    /// are excluded, so is every other variable of the exact-cover row it came from (that
    /// row's one variable is in this part), and a part with a single such variable forces
    /// it. On Star Battle this is the 2x2-window argument: a row whose candidates are covered
    /// by exactly as many windows as it needs stars empties those windows' other cells.
    /// Cost: the row's length times the cliques per variable; exclusions are undone with the
    /// branch (they sit on the exclusion trail). False on a contradiction.
    pub(super) fn propagate_cover(&mut self, engine: &mut dyn LegalityEngine, r: usize) -> bool {
        let layout = self.layout;
        let (vars, weights) = (layout.row(r), layout.row_weights(r));
        match self.cover(r) {
            Cover::Loose => return true,
            Cover::Short => return false,
            Cover::Tight => {}
        }
        let mut excluded = false;
        let mut single = None;
        for k in 0..self.parts.len() {
            let (q, part) = self.parts[k];
            let top = weights[part.trailing_zeros() as usize];
            let mut heaviest = part;
            for j in bits(part).filter(|&j| weights[j] < top) {
                heaviest &= !(1 << j);
                excluded |= self.exclude_legal(vars[j] as usize);
            }
            if heaviest & (heaviest - 1) == 0 && single.is_none() {
                single = Some(vars[heaviest.trailing_zeros() as usize] as usize);
            }
            if q != u32::MAX {
                for &u in layout.row(q as usize) {
                    let open =
                        self.legal.contains(u as usize) && !self.excluded.contains(u as usize);
                    if open && !bits(part).any(|j| vars[j] == u) {
                        excluded |= self.exclude_legal(u as usize);
                    }
                }
            }
        }
        if excluded {
            self.sync(engine);
            self.push_demand(r);
        } else if let Some(v) = single {
            self.stats.steps += 1;
            self.place(engine, v);
            self.sync(engine);
            self.push_demand(r);
        }
        true
    }

    /// The greedy clique cover of demand row `r`'s legal variables (see
    /// [`State::propagate_cover`]); when tight, its parts are left in `parts`. Rows reach it
    /// through [`State::defer_cover`], which leaves out those it cannot conclude on.
    pub(super) fn cover(&mut self, r: usize) -> Cover {
        let layout = self.layout;
        // A row queued for the cover may have been filled since (a placement through another
        // row): it needs nothing, so the rule concludes nothing.
        let Some(need) = layout.lower[r].checked_sub(self.sum[r]) else {
            return Cover::Loose;
        };
        let (vars, weights) = (layout.row(r), layout.row_weights(r));
        let mut uncovered = vars
            .iter()
            .enumerate()
            .filter(|&(_, &v)| self.legal.contains(v as usize))
            .fold(0u128, |m, (i, _)| m | 1 << i);
        let mut bound = 0u64;
        self.parts.clear();
        while uncovered != 0 {
            let i = uncovered.trailing_zeros() as usize;
            let (mut by, mut part) = (u32::MAX, 1u128 << i);
            let mut size = 1;
            for c in layout.cliques_at(r, i) {
                if c.width <= size {
                    // Widest first: no clique left can cover more.
                    break;
                }
                let p = c.mask & uncovered;
                let covered = if p == c.mask { c.width } else { p.count_ones() };
                if covered > size {
                    (by, part, size) = (c.row, p, covered);
                }
            }
            uncovered &= !part;
            bound += weights[i];
            if bound > need {
                return Cover::Loose;
            }
            self.parts.push((by, part));
        }
        if bound < need {
            Cover::Short
        } else {
            Cover::Tight
        }
    }

    /// Excludes `v` if it is legal and not yet excluded; whether it did.
    pub(super) fn exclude_legal(&mut self, v: usize) -> bool {
        if !self.legal.contains(v) || self.excluded.contains(v) {
            return false;
        }
        self.exclude(v);
        true
    }
}

/// The positions of the set bits of `mask`, lowest first.
pub(super) fn bits(mask: u128) -> impl Iterator<Item = usize> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            i
        })
    })
}
