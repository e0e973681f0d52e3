//! The search-space table: how many candidate placements each level of modelling leaves, as
//! exact big integers, for hex boards (the seed's table), square Queens and Sudoku.
//!
//! Levels for a hex board of width `n` (`N = 3s(s-1) + 1` cells, `s = (n+1)/2`):
//! every cell 0/1 (`2^N`), exactly `n` cells (`C(N, n)`), one per row (the product of the row
//! lengths), the second axis too, all three axes, all three axes up to the 12 rotations and
//! reflections, and (for a coloured board) the board's own solution count. Queens of size `n`:
//! `2^(n^2)`, `C(n^2, n)`, `n^n`, `n!`, no touching (OEIS A002464), up to the 8 symmetries of the
//! square, and a board's count with its regions. Sudoku: `2^(n^3)`, `C(n^3, n^2)`, `n^(n^2)`, the
//! product of candidate counts after the givens and after naked/hidden singles, and the
//! solution count.
//!
//! Counting methods: the closed forms are computed directly; the constrained levels use the
//! [`dp`](crate::backend::dp) counter (fast at every width) or the
//! [`enumerate`](crate::backend::enumerate) backend ([`Method`]); orbits are counted by
//! canonical forms over the enumerated placements and checked against Burnside's lemma, so they
//! are limited to widths where enumeration is affordable ([`TableOptions::orbit_limit`]).
//!
//! Costs: the closed forms are instant; hex counts by dp take milliseconds up to width 15 and
//! grow about 5-10x per width step beyond (see `reports/search-space-widths.md`).

//!
//! The tables now live with their kinds (`puzzle/kinds/<kind>/table.rs`, reached through the
//! kind registry) on the machinery of [`crate::puzzle::table`]; this module keeps their public
//! paths.

pub use crate::puzzle::kinds::hex::table::{
    hex_fixed_points_by_symmetry, hex_levels, hex_levels_but_three_axes, hex_memory_guard,
    hex_memory_tables, hex_orbits_by_burnside, hex_part_table, hex_table, hex_three_axes_part,
    hex_widths_table, orbits_from_fixed_points, HexLevels, GUARD_BUDGET, HEX_LEVELS,
};
pub use crate::puzzle::kinds::queens::table::{
    queens_levels, queens_sizes_table, queens_table, QueensLevels, QUEENS_LEVELS,
};
pub use crate::puzzle::kinds::sudoku::table::{
    sudoku_candidates, sudoku_levels, sudoku_table, SudokuLevels,
};
pub use crate::puzzle::table::{
    binomial, board_count, factorial, group_digits, level_legend, log10_of, orbit_stats, Cell,
    Format, Method, Table, TableError, TableOptions,
};
