//! The Star Battle generator's own exact counter: row by row, each row takes one of the
//! `k`-subsets of its columns with no two neighbours (precomputed as bitmasks), pruned by the
//! column counts, the region counts, the no-touching rule with the row above, and what the
//! remaining rows can still give each column and region. It stops at a limit.
//!
//! Boards up to 64 columns (one `u64` mask per row). Cost per node: one pass over the row
//! masks; for generated boards (10x10, 2 stars) a count to 2 takes well under a millisecond to a
//! few milliseconds.

use super::StarBoard;

/// What a count found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StarCount {
    /// Solutions found (at most the limit).
    pub count: u64,
    /// Whether the search finished (false: it stopped at the limit).
    pub exhaustive: bool,
    /// The solutions found, as the star columns of each row.
    pub solutions: Vec<Vec<Vec<usize>>>,
    /// Search nodes (rows placed, the root included).
    pub nodes: u64,
}

/// The `k`-subsets of `0..n` with no two adjacent members, as bitmasks, in increasing order.
pub fn row_masks(n: usize, k: usize) -> Vec<u64> {
    fn go(n: usize, k: usize, from: usize, mask: u64, out: &mut Vec<u64>) {
        if k == 0 {
            out.push(mask);
            return;
        }
        for c in from..n {
            go(n, k - 1, c + 2, mask | 1 << c, out);
        }
    }
    let mut out = Vec::new();
    if n <= 64 {
        go(n, k, 0, 0, &mut out);
    }
    out
}

struct Run<'a> {
    n: usize,
    k: u8,
    masks: Vec<u64>,
    /// Region of each cell (`r * n + c`); all 0 with one "region" holding no rule when bare.
    region: &'a [usize],
    has_regions: bool,
    /// `capacity[g][r]`: stars region `g` can still take in rows `r..n`.
    capacity: Vec<Vec<u32>>,
    columns: Vec<u8>,
    regions: Vec<u8>,
    placed: Vec<u64>,
    limit: u64,
    found: Vec<Vec<Vec<usize>>>,
    /// Solutions kept in `found` at most.
    keep: usize,
    /// Nodes after which the search stops.
    max_nodes: u64,
    count: u64,
    nodes: u64,
}

/// Counts the solutions of `board` up to `limit` (`None`: all), keeping the first 16. Boards
/// wider than 64 columns count 0.
pub fn count(board: &StarBoard, limit: Option<u64>) -> StarCount {
    count_keeping(board, limit, 16, u64::MAX)
}

/// Like [`count`], but stops (not exhaustive) after `max_nodes` search nodes.
pub fn count_within(board: &StarBoard, limit: Option<u64>, max_nodes: u64) -> StarCount {
    count_keeping(board, limit, 16, max_nodes)
}

/// Every solution of `board` (memory grows with the count: for small boards only).
pub fn all(board: &StarBoard) -> StarCount {
    count_keeping(board, None, usize::MAX, u64::MAX)
}

fn count_keeping(board: &StarBoard, limit: Option<u64>, keep: usize, max_nodes: u64) -> StarCount {
    let (n, k) = (board.size(), board.stars());
    let region: Vec<usize> = match board.regions() {
        Some(g) => g.iter().flatten().copied().collect(),
        None => vec![0; n * n],
    };
    let mut capacity = vec![vec![0u32; n + 1]; n.max(1)];
    for (g, cap) in capacity.iter_mut().enumerate() {
        for r in (0..n).rev() {
            // The most cells of the region this row can hold apart (greedy from the left).
            let mut apart = 0;
            let mut next_free = 0;
            for c in (0..n).filter(|&c| region[r * n + c] == g) {
                if c >= next_free {
                    apart += 1;
                    next_free = c + 2;
                }
            }
            cap[r] = cap[r + 1] + apart.min(k) as u32;
        }
    }
    let mut run = Run {
        n,
        k: k.min(255) as u8,
        masks: row_masks(n, k),
        region: &region,
        has_regions: board.regions().is_some(),
        capacity,
        columns: vec![0; n],
        regions: vec![0; n.max(1)],
        placed: Vec::with_capacity(n),
        limit: limit.unwrap_or(u64::MAX),
        found: Vec::new(),
        keep,
        max_nodes,
        count: 0,
        nodes: 0,
    };
    let exhaustive = n == 0 || n > 64 || k > n || run.go(0);
    StarCount {
        count: run.count,
        exhaustive,
        solutions: run.found,
        nodes: run.nodes,
    }
}

impl Run<'_> {
    /// Places rows `r..n`; false when the limit was reached.
    fn go(&mut self, r: usize) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return false;
        }
        let n = self.n;
        if r == n {
            self.count += 1;
            if self.found.len() < self.keep {
                let sol = self
                    .placed
                    .iter()
                    .map(|&m| (0..n).filter(|&c| m >> c & 1 == 1).collect())
                    .collect();
                self.found.push(sol);
            }
            return self.count < self.limit;
        }
        let above = self.placed.last().map_or(0, |&m| m | m << 1 | m >> 1);
        let rows_left = (n - r) as u8;
        for i in 0..self.masks.len() {
            let m = self.masks[i];
            if m & above != 0 || !self.fits(r, m, rows_left) {
                continue;
            }
            self.apply(r, m, true);
            let ok = self.feasible(r + 1) && {
                self.placed.push(m);
                let more = self.go(r + 1);
                self.placed.pop();
                !more
            };
            self.apply(r, m, false);
            if ok {
                return false;
            }
        }
        true
    }

    /// Whether row `r` may take mask `m`: no column or region over `k`, and every column not
    /// in `m` can still reach `k` in the rows after this one.
    fn fits(&self, r: usize, m: u64, rows_left: u8) -> bool {
        let n = self.n;
        for c in 0..n {
            let star = (m >> c & 1) as u8;
            let count = self.columns[c] + star;
            // The rows after this one, no two consecutive in one column (they would touch),
            // and not the next one when this row has a star there.
            let free_rows = (rows_left - 1).saturating_sub(star);
            if count > self.k || self.k - count > free_rows.div_ceil(2) {
                return false;
            }
        }
        if self.has_regions {
            let mut seen = [0u8; 64];
            for c in (0..n).filter(|&c| m >> c & 1 == 1) {
                let g = self.region[r * n + c];
                seen[c] = 1;
                let same = (0..c)
                    .filter(|&d| seen[d] == 1 && self.region[r * n + d] == g)
                    .count() as u8;
                if self.regions[g] + same + 1 > self.k {
                    return false;
                }
            }
        }
        true
    }

    fn apply(&mut self, r: usize, m: u64, on: bool) {
        for c in (0..self.n).filter(|&c| m >> c & 1 == 1) {
            let g = self.region[r * self.n + c];
            if on {
                self.columns[c] += 1;
                self.regions[g] += 1;
            } else {
                self.columns[c] -= 1;
                self.regions[g] -= 1;
            }
        }
    }

    /// Whether every region can still reach `k` from row `r` on.
    fn feasible(&self, r: usize) -> bool {
        !self.has_regions
            || (0..self.n).all(|g| u32::from(self.k - self.regions[g]) <= self.capacity[g][r])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_counts_match_known_values() {
        // Kings-placements with one per row and column: OEIS A002464 (1, 0, 0, 2, 14, 90, 646).
        for (n, want) in [(4, 2), (5, 14), (6, 90), (7, 646)] {
            let c = count(&StarBoard::bare(n, 1), None);
            assert_eq!((c.count, c.exhaustive), (want, true), "n = {n}");
        }
        assert_eq!(row_masks(5, 2).len(), 6);
        assert_eq!(row_masks(3, 2), vec![0b101]);
    }

    #[test]
    fn stops_at_the_limit_and_keeps_valid_solutions() {
        let board = StarBoard::bare(10, 2);
        let c = count(&board, Some(3));
        assert_eq!((c.count, c.exhaustive), (3, false));
        let cut = count_within(&board, None, 10);
        assert!(!cut.exhaustive && cut.nodes <= 11);
        for s in &c.solutions {
            board.check(s).unwrap();
        }
    }
}
