//! [`HexHalves`]: the board's top half as line problems, the class of a state, and the join of
//! the two halves over the middle row.

use super::failed;
use super::states::{mix, Emitted, Layer, SortedStates, StateTable};
use super::ShardError;
use crate::puzzle::kinds::hex::lines::line_problem;

/// The geometry a shard needs: the rows' cells as line masks and the two key symmetries.
#[derive(Debug, Clone)]
pub struct HexHalves {
    pub(super) width: usize,
    /// For each row, the line mask (diag bit `p`, anti bit `w + t`) of each cell.
    pub(super) rows: Vec<Vec<u64>>,
}

impl HexHalves {
    /// The halves of the board of odd width `width` (1..=31); `None` otherwise.
    pub fn new(width: usize) -> Option<HexHalves> {
        if width > 31 {
            return None;
        }
        let problem = line_problem(width, (true, true))?;
        // Every line crosses the middle row, so no line closes above it: the top rows'
        // states only grow, which is what lets their order change.
        let half = width / 2;
        if problem.lines[..half].iter().any(|l| l.closing != 0) {
            return None;
        }
        Some(HexHalves {
            width,
            rows: problem.lines.into_iter().map(|l| l.choices).collect(),
        })
    }

    /// Rows above the middle row.
    pub fn half(&self) -> usize {
        self.width / 2
    }

    pub(super) fn full(&self) -> u64 {
        (1u64 << self.width) - 1
    }

    pub(super) fn rev(&self, x: u64) -> u64 {
        x.reverse_bits() >> (64 - self.width)
    }

    /// The left-right reflection: a cell on lines `(p, t)` goes to `(w-1-t, w-1-p)`.
    pub fn reflect(&self, key: u64) -> u64 {
        let full = self.full();
        self.rev(key >> self.width & full) | self.rev(key & full) << self.width
    }

    /// The half-turn: a cell on lines `(p, t)` goes to `(w-1-p, w-1-t)`.
    pub fn turn(&self, key: u64) -> u64 {
        let full = self.full();
        self.rev(key & full) | self.rev(key >> self.width & full) << self.width
    }

    /// The invariant of the join: `min(x, reverse(x))` with `x_i = [d_i used] xor [a_i used]`.
    pub fn invariant(&self, key: u64) -> u64 {
        let x = (key ^ key >> self.width) & self.full();
        x.min(self.rev(x))
    }

    /// The class of a top state among `parts`: the same for both halves of a placement and
    /// for a state's mirror image.
    pub fn class(&self, key: u64, parts: usize) -> usize {
        if parts <= 1 {
            0
        } else {
            ((mix(self.invariant(key)) as u128 * parts as u128) >> 64) as usize
        }
    }

    /// One dynamic-programming step over row `row`, states stored up to the reflection (only
    /// keys `key <= reflect(key)`, each with its own count). `expected` sizes the table.
    /// Returns the layer and the bytes its table held.
    pub fn step(
        &self,
        layer: &Layer,
        row: usize,
        expected: usize,
    ) -> Result<(Layer, u64), ShardError> {
        let choices = &self.rows[row];
        let successors = |key: u64, count: u64, out: &mut Emitted| {
            let asymmetric = self.reflect(key) != key;
            for &mask in choices {
                if key & mask == 0 {
                    let next = key | mask;
                    let image = self.reflect(next);
                    // `next` stands for itself; the same successor of reflect(key) is `image`.
                    if next <= image {
                        out.add(next, count);
                    }
                    if asymmetric && image <= next {
                        out.add(image, count);
                    }
                }
            }
        };
        let mut table = StateTable::for_states(expected);
        for chunk in &layer.chunks {
            table = table.fill(chunk.len(), |i, out| {
                successors(chunk[i][0], chunk[i][1], out)
            })?;
        }
        let bytes = table.bytes();
        Ok((table.into_layer(), bytes))
    }

    /// The states of class `part` (of `parts`) after the streamed rows, from the source
    /// layer: every source state extended through `streamed`, up to the reflection.
    pub fn class_table(
        &self,
        source: &Layer,
        streamed: &[usize],
        part: usize,
        parts: usize,
        expected: usize,
    ) -> Result<StateTable, ShardError> {
        let rows: Vec<&[u64]> = streamed.iter().map(|&r| self.rows[r].as_slice()).collect();
        let extensions = |key: u64, count: u64, out: &mut Emitted| {
            let asymmetric = self.reflect(key) != key;
            let mut keep = |top: u64| {
                if self.class(top, parts) == part {
                    let image = self.reflect(top);
                    if top <= image {
                        out.add(top, count);
                    }
                    if asymmetric && image <= top {
                        out.add(image, count);
                    }
                }
            };
            extend(key, &rows, &mut keep);
        };
        let mut table = StateTable::for_states(expected);
        for chunk in &source.chunks {
            table = table.fill(chunk.len(), |i, out| {
                extensions(chunk[i][0], chunk[i][1], out)
            })?;
        }
        Ok(table)
    }

    /// The placements whose top half is in `table` (one class, stored up to the reflection):
    /// for every top state `A` and middle cell `c`, `top(A) * top(turn(rest))`, the rest
    /// being the lines the bottom half must use.
    pub fn join(&self, table: &SortedStates) -> Result<u128, ShardError> {
        let middle = &self.rows[self.half()];
        let active = (1u64 << (2 * self.width)) - 1;
        table
            .sum_par(|key, count| {
                let mut wanted = [0u64; 64];
                let mut found = [0u64; 64];
                let mut n = 0;
                for &mask in middle {
                    if key & mask == 0 {
                        let bottom = self.turn(!(key | mask) & active);
                        wanted[n] = bottom.min(self.reflect(bottom));
                        n += 1;
                    }
                }
                table.get_many(&wanted[..n], &mut found[..n]);
                let completions: u128 = found[..n].iter().map(|&c| c as u128).sum();
                let weight = if self.reflect(key) != key { 2 } else { 1 };
                (count as u128 * weight).checked_mul(completions)
            })
            .ok_or_else(|| failed("the count passed 2^128".into()))
    }
}

/// Calls `f` with `key` extended by one compatible cell of each row of `rows`.
pub(super) fn extend<F: FnMut(u64)>(key: u64, rows: &[&[u64]], f: &mut F) {
    match rows.split_first() {
        None => f(key),
        Some((first, rest)) => {
            for &mask in *first {
                if key & mask == 0 {
                    extend(key | mask, rest, f);
                }
            }
        }
    }
}
