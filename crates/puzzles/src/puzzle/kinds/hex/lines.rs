//! The hex board as a line problem for the `dp` counter: each row a line of choices, the
//! second and third axes as slots. The search-space table and the sharded count
//! ([`super::shards`]) count hex placements from this, without building a model.
//!
//! Costs: building the problem is `O(width^2)`; [`hex_count`] holds the top half's states, the
//! largest layer of the meet in the middle (see [`crate::backend::dp`] for the memory guard).

use rayon::prelude::*;

use super::HexBoard;
use crate::backend::dp::{DpStats, Line, LineProblem, States};
use crate::backend::BackendError;

/// Why counting hex placements failed: [`hex_count`] (the `dp` counter's line problem) or
/// [`hex_fixed_points`](crate::puzzle::symmetry::hex_fixed_points) (the enumerator on an
/// orbit model). The message is the counter's own, so a failed table row reads as it always
/// did.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HexCountError {
    /// The counter refused the problem (too large for its memory guard, a count past its
    /// integer bounds) or failed while counting.
    #[error(transparent)]
    Counter(#[from] BackendError),
}

/// The hex geometry of width `width` with the second and third axes as slots (`diag` line
/// `p` is slot `p`, `anti` line `t` is slot `width + t`), without building a model.
/// `axes` picks which of the two are rules (`(true, true)`: all three axes).
pub fn line_problem(width: usize, axes: (bool, bool)) -> Option<LineProblem> {
    let board = HexBoard::geometry(width)?;
    if 2 * width > 64 {
        return None;
    }
    let mut lines = Vec::new();
    for r in 0..width {
        let mut line = Line {
            choices: Vec::new(),
            may_skip: false,
            must_close: 0,
            closing: 0,
        };
        for k in 0..board.row_len(r) {
            let mut mask = 0u64;
            if axes.0 {
                mask |= 1 << board.diag(r, k);
            }
            if axes.1 {
                mask |= 1 << (width + board.anti(r, k));
            }
            line.choices.push(mask);
        }
        // A diag or anti line closes at the last row that has a cell on it.
        for p in 0..width {
            let last_row = (0..width)
                .rev()
                .find(|&rr| board.cell_on_diag(rr, p).is_some());
            if axes.0 && last_row == Some(r) {
                line.must_close |= 1 << p;
            }
        }
        for t in 0..width {
            let last_row = (0..width)
                .rev()
                .find(|&rr| (0..board.row_len(rr)).any(|kk| board.anti(rr, kk) == t));
            if axes.1 && last_row == Some(r) {
                line.must_close |= 1 << (width + t);
            }
        }
        line.closing = line.must_close;
        lines.push(line);
    }
    Some(LineProblem {
        lines,
        slots: 2 * width,
        memory_limit: None,
    })
}

/// Counts the three-axis (or, with `axes`, two-axis) placements of the hex board of odd width
/// `width` by meet in the middle: the rows above the middle row run forward, and the bottom
/// half is the top half turned by half a turn (row `r` to `width-1-r`, each axis reversed), so
/// the total is the sum over top states and middle cells of `top(key) * top(turn(rest))`,
/// `rest` being the lines the bottom half must use. `None` for an even width or above 31.
pub fn hex_count(
    width: usize,
    axes: (bool, bool),
) -> Option<Result<(u128, DpStats), HexCountError>> {
    let problem = line_problem(width, axes)?;
    if width < 3 {
        return Some(problem.count().map_err(HexCountError::from));
    }
    Some(hex_join(&problem, width, axes))
}

fn hex_join(
    problem: &LineProblem,
    width: usize,
    axes: (bool, bool),
) -> Result<(u128, DpStats), HexCountError> {
    let mut stats = DpStats {
        mirrored: true,
        ..DpStats::default()
    };
    let full = (1u64 << width) - 1;
    let rev = |x: u64| x.reverse_bits() >> (64 - width);
    // The left-right reflection keeps every row and maps a cell on lines (p, t) to one on
    // (w-1-t, w-1-p): a symmetry of the three-axis problem only (it swaps the axes).
    let reflect = |key: u64| -> u64 { rev(key >> width & full) | rev(key & full) << width };
    let both = axes == (true, true);
    let mirror: Option<&(dyn Fn(u64) -> u64 + Sync)> = if both { Some(&reflect) } else { None };
    let half = width / 2; // rows 0..half lie above the middle row
    let top = problem.run(0..half, States::start(), &mut stats, mirror)?;
    // The half-turn maps row r to w-1-r and a cell on lines (p, t) to one on (w-1-p, w-1-t),
    // so it keeps each axis (the two-axis count too).
    let turn = |key: u64| -> u64 { rev(key & full) | rev(key >> width & full) << width };
    let mut active = 0u64;
    if axes.0 {
        active |= full;
    }
    if axes.1 {
        active |= full << width;
    }
    let lookup = |key: u64| -> Option<u64> {
        if both {
            top.get(key.min(reflect(key)))
        } else {
            top.get(key)
        }
    };
    let middle = &problem.lines[half];
    let total: u128 = top
        .shards
        .par_iter()
        .map(|shard| {
            let mut sum = 0u128;
            for (&key, &count) in shard {
                let mut completions = 0u128;
                for &mask in &middle.choices {
                    if key & mask == 0 {
                        if let Some(c) = lookup(turn(!(key | mask) & active)) {
                            completions += c as u128;
                        }
                    }
                }
                // A stored key stands for its reflection too, which has as many completions.
                let weight = if both && reflect(key) != key { 2 } else { 1 };
                sum += weight * count as u128 * completions;
            }
            sum
        })
        .sum();
    Ok((total, stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::enumerate::{EnumSettings, Enumerator};
    use crate::model::Model;

    fn enum_count(model: &Model, families: &[&str]) -> u128 {
        let settings = EnumSettings {
            families: Some(families.iter().map(|s| s.to_string()).collect()),
            ..EnumSettings::default()
        };
        Enumerator::new(model, &settings).unwrap().count(None).0
    }

    #[test]
    fn hex_counts_agree_with_the_enumerator() {
        for width in [1usize, 3, 5, 7, 9, 11] {
            let m = HexBoard::geometry(width).unwrap().to_model("hex");
            let three = enum_count(&m, &["row", "diag", "anti"]);
            let two = enum_count(&m, &["row", "diag"]);
            assert_eq!(
                hex_count(width, (true, true)).unwrap().unwrap().0,
                three,
                "{width}"
            );
            assert_eq!(
                hex_count(width, (true, false)).unwrap().unwrap().0,
                two,
                "{width}"
            );
            let plain = line_problem(width, (true, true))
                .unwrap()
                .count()
                .unwrap()
                .0;
            assert_eq!(plain, three, "{width}");
            let generic = LineProblem::from_model(&m, Some("row"))
                .unwrap()
                .count()
                .unwrap()
                .0;
            assert_eq!(generic, three, "{width}");
        }
        assert_eq!(hex_count(9, (true, true)).unwrap().unwrap().0, 244);
    }
}
