//! The choice point: which row to branch on (MRV) and in which order its candidates are tried
//! (LCV, or cheapest first when optimising), and the solution read off the placements.

use super::state::{State, CLOSED};
use crate::model::Solution;

impl State<'_> {
    /// MRV: the open row with the fewest branches. An open "exactly one" row branches once
    /// per legal variable; an open general row with `c` legal variables that needs at least
    /// `need` more of them (its missing weight over its largest weight, rounded up) counts as
    /// `c - need + 1` branches, its slack in variables plus one: the same measure, since an
    /// "exactly one" row needs one. Ties go to "exactly one" rows, then the lowest row id.
    /// Returns the row and whether it is general.
    pub(super) fn choose_row(&self) -> (usize, bool) {
        if let Some(slack) = &self.slack_order {
            return self.choose_row_optimizing(slack);
        }
        self.choose_row_among(self.layout.num_rows)
    }

    /// [`State::choose_row`] over the rows below `rows` and the demand rows (a closed row when
    /// none of them is open).
    pub(super) fn choose_row_among(&self, rows: usize) -> (usize, bool) {
        let layout = self.layout;
        let mut best = usize::MAX;
        let mut best_count = u32::MAX;
        // Rows below `scan_from` are closed; so are those the scan passes before the first
        // open one, which moves the start on.
        let mut first_open = true;
        for r in self.scan_from.get().min(rows)..rows {
            if first_open && self.count[r] >= CLOSED {
                self.scan_from.set(r + 1);
                continue;
            }
            first_open = false;
            // Closed rows carry CLOSED, so they never win.
            if self.count[r] < best_count {
                best = r;
                best_count = self.count[r];
                if best_count <= 2 {
                    return (best, false);
                }
            }
        }
        let mut general = false;
        for &r in &layout.demand_rows {
            let r = r as usize;
            let low = layout.lower[r];
            if self.sum[r] >= low {
                continue;
            }
            let need = (low - self.sum[r]).div_ceil(layout.max_weight[r]);
            let candidates = (self.count[r] - CLOSED) as u64;
            let branches = (candidates + 1).saturating_sub(need).min(u32::MAX as u64) as u32;
            if branches < best_count {
                best = r;
                best_count = branches;
                general = true;
            }
        }
        (best, general)
    }

    /// The choice of an optimising search: MRV over the model's rows (so a weighted set cover
    /// branches on its element with the fewest sets, cheapest first), and only when every
    /// model row is settled the variables in no equation, through their slack rows in `slack`
    /// order (best value per weight first: a knapsack follows its fractional bound). Cost: as
    /// [`State::choose_row`].
    pub(super) fn choose_row_optimizing(&self, slack: &[u32]) -> (usize, bool) {
        let first_slack = self.layout.num_rows - slack.len();
        let (r, general) = self.choose_row_among(first_slack);
        if general || (r < first_slack && self.count[r] < CLOSED) {
            return (r, general);
        }
        let open = slack.iter().find(|&&r| self.count[r as usize] < CLOSED);
        (open.map_or(first_slack, |&r| r as usize), false)
    }

    /// LCV: the legal variables of row `r`, those leaving the most peers legal first.
    ///
    /// For a general row (branched on exclusively) only the candidates worth a branch are
    /// listed: alternative `i` leaves the row candidates `i..`, so it is dead when their
    /// weight falls short of the row's missing weight (with unit weights: `c - need + 1` of
    /// `c` candidates).
    pub(super) fn candidates(&mut self, r: usize, out: &mut Vec<u32>, exclusive: bool) {
        let layout = self.layout;
        let start = out.len();
        let scored = &mut self.scored;
        scored.clear();
        for (&v, &weight) in layout.row(r).iter().zip(layout.row_weights(r)) {
            if !self.legal.contains(v as usize) {
                continue;
            }
            let legal = &self.legal;
            let count = &self.count;
            let peers: u32 = layout
                .rows_of(v as usize)
                .iter()
                .filter(|&&q| q as usize != r)
                .map(|&q| {
                    let q = q as usize;
                    let legal_in_q = if layout.general && !layout.tracked(q) {
                        layout
                            .row_words(q)
                            .iter()
                            .map(|&(w, mask)| (legal.words[w as usize] & mask).count_ones())
                            .sum()
                    } else {
                        count[q] & (CLOSED - 1)
                    };
                    legal_in_q.saturating_sub(1)
                })
                .sum();
            scored.push((peers, v, weight));
        }
        match &self.costs {
            None => scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1))),
            Some(c) => {
                let rank = |v: u32| self.prefer.as_ref().map_or(1, |p| p[v as usize]);
                scored.sort_by(|a, b| {
                    (rank(a.1).cmp(&rank(b.1)))
                        .then(c[a.1 as usize].cmp(&c[b.1 as usize]))
                        .then(b.0.cmp(&a.0))
                        .then(a.1.cmp(&b.1))
                })
            }
        }
        let mut worth = scored.len();
        if exclusive {
            let missing = layout.lower[r] - self.sum[r];
            let mut left = 0u64;
            worth = scored
                .iter()
                .rposition(|&(_, _, w)| {
                    left += w;
                    left >= missing
                })
                .map_or(0, |i| i + 1);
        }
        out.extend(scored[..worth].iter().map(|&(_, v, _)| v));
        debug_assert!(out.len() > start);
    }

    pub(super) fn solution(&self) -> Solution {
        Solution::new(
            self.placed
                .iter()
                .map(|&v| v as usize)
                .filter(|&v| v < self.layout.model_vars)
                .collect(),
        )
    }
}
