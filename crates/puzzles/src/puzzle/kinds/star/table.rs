//! The Star Battle search-space table, in the spirit of the Queens table: how many candidate
//! placements each level of modelling leaves on an `n x n` grid with `k` stars, as exact big
//! integers.
//!
//! Levels: every cell 0/1 (`2^(n^2)`); exactly `kn` stars (`C(n^2, kn)`); `k` per row
//! (`C(n,k)^n`); `k` per row, apart within the row (`C(n-k+1,k)^n`); `k` per row and column (for
//! `k = 2` OEIS A001499; a dynamic programme over the multiset of column counts); no two
//! touching as well, the bare Star Battle (a dynamic programme over column counts and the row
//! above); that last level up to the 8 symmetries of the square (canonical forms over every
//! placement, checked against Burnside's lemma; only up to `orbit_limit` placements); and a
//! board's own count with its regions.
//!
//! Costs: the closed forms are instant; the column-count programmes hold at most `(k+1)^n`
//! states per row, so sizes are capped at 14.

use std::collections::{BTreeSet, HashMap};

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::search::{all, row_masks};
use super::StarBoard;
use crate::puzzle::table::{binomial, Cell, SpaceTable, Table, TableError, TableRequest};

/// The Star Battle kind's [`SpaceTable`]: `--size N` with `--stars K` (no board tables yet).
pub struct StarTable;

impl SpaceTable for StarTable {
    fn family_table(&self, request: &TableRequest) -> Result<Table, TableError> {
        let n = request.size.ok_or_else(|| {
            TableError::BadSize("table star: give --size N (and --stars K)".into())
        })?;
        let levels = star_levels(n, request.stars, request.options.orbit_limit)?;
        Ok(star_table(&levels))
    }
}

/// The levels of one size and star count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StarLevels {
    /// Side `n`.
    pub size: usize,
    /// Stars per unit `k`.
    pub stars: usize,
    /// `2^(n^2)`.
    pub every_cell: BigUint,
    /// `C(n^2, kn)`.
    pub choose_kn: BigUint,
    /// `C(n,k)^n`: `k` per row.
    pub per_row: BigUint,
    /// `C(n-k+1,k)^n`: `k` per row, none adjacent within a row.
    pub per_row_apart: BigUint,
    /// `k` per row and per column.
    pub per_row_and_column: BigUint,
    /// No two touching as well: the bare Star Battle's solutions.
    pub no_touching: BigUint,
    /// Those up to rotation and reflection (`None`: more than the orbit limit).
    pub orbits: Option<BigUint>,
    /// A board's own count with its regions, when a board was given.
    pub board: Option<BigUint>,
}

/// The largest side the table takes.
pub const MAX_SIZE: usize = 14;

/// Computes the levels of side `size` with `stars` stars; orbits only when there are at most
/// `orbit_limit` bare placements.
pub fn star_levels(size: usize, stars: usize, orbit_limit: u128) -> Result<StarLevels, TableError> {
    if !(1..=MAX_SIZE).contains(&size) || stars == 0 || stars > size {
        return Err(TableError::BadSize(format!(
            "star table size {size} with {stars} stars: expected a size from 1 to {MAX_SIZE} and 1 to size stars"
        )));
    }
    let (n, k) = (size as u64, stars as u64);
    let no_touching = no_touching_count(size, stars);
    let orbits = if no_touching <= BigUint::from(orbit_limit) {
        Some(orbit_count(size, stars, &no_touching)?)
    } else {
        None
    };
    Ok(StarLevels {
        size,
        stars,
        every_cell: BigUint::one() << (n * n),
        choose_kn: binomial(n * n, k * n),
        per_row: binomial(n, k).pow(size as u32),
        per_row_apart: binomial((n + 1).saturating_sub(k), k).pow(size as u32),
        per_row_and_column: per_row_and_column(size, stars),
        no_touching,
        orbits,
        board: None,
    })
}

/// The `n x n` 0-1 matrices with `k` ones in every row and column: rows one at a time, the state
/// being how many columns hold `0..=k` ones so far. Cost: the states are the multisets of `n`
/// column counts, at most `C(n+k, k)`.
pub fn per_row_and_column(n: usize, k: usize) -> BigUint {
    let mut states: HashMap<Vec<usize>, BigUint> = HashMap::new();
    let mut start = vec![0; k + 1];
    start[0] = n;
    states.insert(start, BigUint::one());
    for _ in 0..n {
        let mut next: HashMap<Vec<usize>, BigUint> = HashMap::new();
        for (state, ways) in &states {
            // Choose how many of the row's k ones go to columns holding j ones, j < k.
            let mut take = vec![0usize; k];
            spread(state, k, 0, k, &mut take, &mut |take, mult| {
                let mut s = state.clone();
                for (j, &t) in take.iter().enumerate() {
                    s[j] -= t;
                    s[j + 1] += t;
                }
                *next.entry(s).or_insert_with(BigUint::zero) += ways * mult;
            });
        }
        states = next;
    }
    let mut done = vec![0; k + 1];
    done[k] = n;
    states.remove(&done).unwrap_or_default()
}

/// Every way of putting `left` ones into the count classes `j..k` (at most `state[j]` in class
/// `j`), with the number of column choices it stands for.
fn spread(
    state: &[usize],
    k: usize,
    j: usize,
    left: usize,
    take: &mut Vec<usize>,
    out: &mut dyn FnMut(&[usize], BigUint),
) {
    if j == k {
        if left == 0 {
            let mult = take
                .iter()
                .enumerate()
                .map(|(j, &t)| binomial(state[j] as u64, t as u64))
                .fold(BigUint::one(), |a, b| a * b);
            out(take, mult);
        }
        return;
    }
    for t in 0..=left.min(state[j]) {
        take[j] = t;
        spread(state, k, j + 1, left - t, take, out);
    }
    take[j] = 0;
}

/// The bare Star Battle's solutions: rows one at a time, the state being each column's count
/// (base `k + 1` digits) and the row above's mask. Cost: at most `(k+1)^n` states times the row
/// masks per row.
pub fn no_touching_count(n: usize, k: usize) -> BigUint {
    let masks = row_masks(n, k);
    let base = (k + 1) as u64;
    let mut states: HashMap<(u64, u64), BigUint> = HashMap::new();
    states.insert((0, 0), BigUint::one());
    for r in 0..n {
        let left = (n - r - 1) as u64;
        let mut next: HashMap<(u64, u64), BigUint> = HashMap::new();
        for (&(code, prev), ways) in &states {
            let above = prev | prev << 1 | prev >> 1;
            'mask: for &m in masks.iter().filter(|&&m| m & above == 0) {
                let (mut new, mut digits, mut place) = (0u64, code, 1u64);
                for c in 0..n {
                    let star = m >> c & 1;
                    let have = digits % base + star;
                    digits /= base;
                    // Enough rows after this one (not the next, when this row has a star).
                    let free = left.saturating_sub(star);
                    if have > k as u64 || k as u64 - have > free.div_ceil(2) {
                        continue 'mask;
                    }
                    new += have * place;
                    place *= base;
                }
                *next.entry((new, m)).or_insert_with(BigUint::zero) += ways;
            }
        }
        states = next;
    }
    states.into_values().fold(BigUint::zero(), |a, b| a + b)
}

/// The 8 symmetries of the `n x n` square acting on a cell.
fn transform(g: usize, n: usize, (r, c): (usize, usize)) -> (usize, usize) {
    let (r, c) = if g & 4 != 0 { (c, r) } else { (r, c) };
    let r = if g & 1 != 0 { n - 1 - r } else { r };
    let c = if g & 2 != 0 { n - 1 - c } else { c };
    (r, c)
}

/// Orbits of the bare placements under the square's symmetries: canonical forms over every
/// placement (enumerated by the generator's counter), checked against Burnside's lemma and the
/// count from the dynamic programme.
fn orbit_count(n: usize, k: usize, total: &BigUint) -> Result<BigUint, TableError> {
    let found = all(&StarBoard::bare(n, k));
    if BigUint::from(found.count) != *total {
        return Err(TableError::Count(format!(
            "enumerated {} placements, the dynamic programme counted {total}",
            found.count
        )));
    }
    let sets: Vec<Vec<(usize, usize)>> = found
        .solutions
        .iter()
        .map(|rows| {
            rows.iter()
                .enumerate()
                .flat_map(|(r, cols)| cols.iter().map(move |&c| (r, c)))
                .collect()
        })
        .collect();
    let image = |g: usize, s: &[(usize, usize)]| {
        let mut t: Vec<(usize, usize)> = s.iter().map(|&cell| transform(g, n, cell)).collect();
        t.sort_unstable();
        t
    };
    let canonical: BTreeSet<Vec<(usize, usize)>> = sets
        .iter()
        .map(|s| (0..8).map(|g| image(g, s)).min().unwrap_or_default())
        .collect();
    let fixed: usize = (0..8)
        .map(|g| sets.iter().filter(|s| image(g, s) == **s).count())
        .sum();
    let orbits = BigUint::from(canonical.len());
    if fixed % 8 != 0 || BigUint::from(fixed / 8) != orbits {
        return Err(TableError::Burnside {
            canonical: orbits.to_string(),
            burnside: format!("{fixed}/8"),
        });
    }
    Ok(orbits)
}

fn count_cell(value: BigUint, formula: Option<String>) -> Cell {
    Cell::Count { value, formula }
}

/// The table of one size: one row per level.
pub fn star_table(l: &StarLevels) -> Table {
    let (n, k) = (l.size, l.stars);
    let text = |s: &str| Cell::Text(s.into());
    let mut rows = vec![
        vec![
            text("every cell 0/1"),
            count_cell(l.every_cell.clone(), Some(format!("2^{}", n * n))),
        ],
        vec![
            text("choose exactly kn cells"),
            count_cell(l.choose_kn.clone(), Some(format!("C({},{})", n * n, k * n))),
        ],
        vec![
            text("k per row"),
            count_cell(l.per_row.clone(), Some(format!("C({n},{k})^{n}"))),
        ],
        vec![
            text("k per row, none adjacent in the row"),
            count_cell(
                l.per_row_apart.clone(),
                Some(format!("C({},{k})^{n}", (n + 1).saturating_sub(k))),
            ),
        ],
        vec![
            text(if k == 2 {
                "k per row and column (A001499)"
            } else {
                "k per row and column"
            }),
            count_cell(l.per_row_and_column.clone(), None),
        ],
        vec![
            text("no two touching (bare Star Battle)"),
            count_cell(l.no_touching.clone(), None),
        ],
        vec![
            text("no two touching, up to rotation and reflection"),
            l.orbits.clone().map_or_else(
                || Cell::Missing("more placements than the orbit limit".into()),
                |v| count_cell(v, None),
            ),
        ],
    ];
    if let Some(b) = &l.board {
        rows.push(vec![
            text("with the board's regions"),
            count_cell(b.clone(), None),
        ]);
    }
    Table {
        title: format!("Star Battle, {n}x{n}, {k} stars"),
        header: vec!["level".into(), format!("size {n}, {k} stars")],
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_counts() {
        // A001499: 0-1 matrices with two ones per row and column.
        let a001499: Vec<u64> = (1..=7)
            .map(|n| per_row_and_column(n, 2).try_into().unwrap())
            .collect();
        assert_eq!(a001499, vec![0, 1, 6, 90, 2040, 67950, 3110940]);
        // k = 1: permutations, and A002464 with no touching.
        assert_eq!(per_row_and_column(6, 1), BigUint::from(720u32));
        let a002464: Vec<u64> = (1..=8)
            .map(|n| no_touching_count(n, 1).try_into().unwrap())
            .collect();
        assert_eq!(a002464, vec![1, 0, 0, 2, 14, 90, 646, 5242]);
    }

    #[test]
    fn the_dynamic_programme_agrees_with_the_counter() {
        for (n, k) in [(6, 2), (7, 2), (8, 2)] {
            let dp = no_touching_count(n, k);
            let counted = all(&StarBoard::bare(n, k));
            assert_eq!(dp, BigUint::from(counted.count), "{n}x{n}, {k} stars");
        }
    }

    #[test]
    fn levels_and_orbits() {
        let l = star_levels(8, 2, 1_000_000).unwrap();
        assert_eq!(l.per_row, binomial(8, 2).pow(8));
        assert_eq!(l.per_row_apart, BigUint::from(21u32).pow(8));
        let orbits = l.orbits.clone().unwrap();
        // Each orbit has at most 8 members.
        assert!(orbits.clone() * 8u32 >= l.no_touching && orbits <= l.no_touching);
        let md = star_table(&l).render(crate::puzzle::table::Format::Markdown);
        assert!(md.contains("C(8,2)^8"), "{md}");
        assert!(star_levels(15, 2, 0).is_err() && star_levels(5, 0, 0).is_err());
    }
}
