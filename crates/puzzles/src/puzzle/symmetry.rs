//! Symmetries of boards and orbit counting: how many placements are "different" once rotations
//! and reflections are identified.
//!
//! A placement with one piece per row is a tuple (`tuple[row]` = the piece's column: the
//! position in the row for Queens, the shared second-axis coordinate `p` for hex). A symmetry
//! maps it to another such tuple. [`Orbits`] collects, over a stream of placements, both
//! the number of orbits by canonical forms (a placement is counted when it is the smallest of its
//! images) and the fixed points of every symmetry, so that Burnside's lemma (orbits = mean number
//! of fixed points) can be checked on the same data.
//!
//! Costs: each placement costs `|group| x n` coordinate maps and comparisons; no placement is
//! stored.

use num_bigint::BigUint;

/// A finite group of board symmetries acting on one-per-row tuples.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// Name (`hex`, `square`).
    pub name: &'static str,
    /// Number of rows (tuple length).
    pub size: usize,
    /// For each symmetry, the image `(row, column)` of every `(row, column)`, indexed by
    /// `row * columns + column`; `None` where the cell is not on the board.
    maps: Vec<Vec<Option<(usize, usize)>>>,
    columns: usize,
}

impl Group {
    /// The 12 symmetries of the hex board of odd width `width` (six rotations, six
    /// reflections), acting on tuples of second-axis coordinates `p`. Cube coordinates:
    /// `(x, y, z) = (r - c, c - p, p - r)` with `c = side - 1`; a symmetry permutes them and
    /// maybe negates all three.
    pub fn hex(width: usize) -> Group {
        let c = (width / 2) as i64;
        let perms = [
            [0, 1, 2],
            [1, 2, 0],
            [2, 0, 1],
            [0, 2, 1],
            [2, 1, 0],
            [1, 0, 2],
        ];
        let mut maps = Vec::new();
        for sign in [1i64, -1] {
            for perm in perms {
                let mut map = vec![None; width * width];
                for r in 0..width {
                    for p in 0..width {
                        let (ri, pi) = (r as i64 - c, p as i64 - c);
                        let cube = [ri, -pi, pi - ri];
                        if cube.iter().any(|x| x.abs() > c) {
                            continue;
                        }
                        let img = [
                            sign * cube[perm[0]],
                            sign * cube[perm[1]],
                            sign * cube[perm[2]],
                        ];
                        let (r2, p2) = (img[0] + c, -img[1] + c);
                        map[r * width + p] = Some((r2 as usize, p2 as usize));
                    }
                }
                maps.push(map);
            }
        }
        Group {
            name: "hex",
            size: width,
            maps,
            columns: width,
        }
    }

    /// The 8 symmetries of the `n x n` square (four rotations, four reflections).
    pub fn square(n: usize) -> Group {
        let mut maps = Vec::new();
        let last = n.saturating_sub(1);
        for k in 0..8 {
            let mut map = vec![None; n * n];
            for r in 0..n {
                for c in 0..n {
                    let (mut a, mut b) = (r, c);
                    if k & 4 != 0 {
                        (a, b) = (b, a);
                    }
                    if k & 2 != 0 {
                        a = last - a;
                    }
                    if k & 1 != 0 {
                        b = last - b;
                    }
                    map[r * n + c] = Some((a, b));
                }
            }
            maps.push(map);
        }
        Group {
            name: "square",
            size: n,
            maps,
            columns: n,
        }
    }

    /// Number of symmetries.
    pub fn order(&self) -> usize {
        self.maps.len()
    }

    /// The image of `tuple` under symmetry `g`, written into `out`. Returns false when the image
    /// is not again one piece per row (cannot happen for placements of the full board).
    pub fn apply(&self, g: usize, tuple: &[usize], out: &mut [usize]) -> bool {
        let mut filled = 0;
        for (r, &col) in tuple.iter().enumerate() {
            match self.maps[g][r * self.columns + col] {
                Some((r2, c2)) if r2 < out.len() => {
                    out[r2] = c2;
                    filled += 1;
                }
                _ => return false,
            }
        }
        filled == tuple.len()
    }
}

/// The placements of the bare hex board of width `width` (one piece per line of all three
/// axes) that symmetry `g` of [`Group::hex`] fixes, counted without enumerating the others: a
/// fixed placement is a union of `g`-orbits of cells, so the variables of a small model are the
/// orbits (those with no two cells on one line) and its rows are the `3 * width` lines, each
/// "exactly one". The enumerator counts that model. Costs: for the identity this is the full
/// count; for any other symmetry the model has at most half as many variables and its
/// solutions are about the square root (half-turn, reflections) or less of the full count.
pub fn hex_fixed_points(
    width: usize,
    g: usize,
) -> Result<u128, crate::puzzle::kinds::hex::lines::HexCountError> {
    use crate::backend::enumerate::{EnumSettings, Enumerator, Order};
    use crate::model::{Coord, ModelBuilder, PuzzleKind, Sense};
    let group = Group::hex(width);
    let c = width / 2;
    let cells: Vec<(usize, usize)> = (0..width)
        .flat_map(|r| (0..width).map(move |p| (r, p)))
        .filter(|&(r, p)| group.maps[0][r * width + p].is_some())
        .collect();
    let lines = |(r, p): (usize, usize)| [r, width + p, 2 * width + (p + c - r)];
    let mut seen = vec![false; width * width];
    let mut orbits: Vec<Vec<usize>> = Vec::new(); // each orbit as its line ids
    for &(r, p) in &cells {
        if seen[r * width + p] {
            continue;
        }
        let mut orbit_lines = Vec::new();
        let mut at = (r, p);
        loop {
            seen[at.0 * width + at.1] = true;
            orbit_lines.extend(lines(at));
            at = group.maps[g][at.0 * width + at.1].expect("symmetries keep the board");
            if at == (r, p) {
                break;
            }
        }
        let mut sorted = orbit_lines.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() == orbit_lines.len() {
            orbits.push(sorted);
        }
    }
    let mut b = ModelBuilder::new(format!("hex-{width}-fixed-by-{g}"), PuzzleKind::Generic);
    for i in 0..orbits.len() {
        b.variable(format!("orbit{i}"), Coord::Free);
    }
    let f = b.family("line");
    for line in 0..3 * width {
        let vars: Vec<usize> = (0..orbits.len())
            .filter(|&o| orbits[o].binary_search(&line).is_ok())
            .collect();
        if vars.is_empty() {
            return Ok(0);
        }
        b.row(f, vars, Sense::ExactlyOne);
    }
    let model = b.build().expect("orbit rows are valid");
    let settings = EnumSettings {
        order: Order::Mrv,
        parallel: true,
        ..EnumSettings::default()
    };
    Ok(Enumerator::new(&model, &settings)?.count(None).0)
}

/// Orbit statistics over a stream of placements closed under the group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Orbits {
    /// Placements seen.
    pub placements: u128,
    /// Placements that are the smallest of their images: the number of orbits.
    pub canonical: u128,
    /// For each symmetry, the placements it fixes.
    pub fixed: Vec<u128>,
}

impl Orbits {
    /// Empty statistics for `group`.
    pub fn new(group: &Group) -> Orbits {
        Orbits {
            placements: 0,
            canonical: 0,
            fixed: vec![0; group.order()],
        }
    }

    /// Adds one placement; `scratch` must have the tuple's length.
    pub fn add(&mut self, group: &Group, tuple: &[usize], scratch: &mut [usize]) {
        self.placements += 1;
        let mut smallest = true;
        for g in 0..group.order() {
            if !group.apply(g, tuple, scratch) {
                continue;
            }
            if *scratch == *tuple {
                self.fixed[g] += 1;
            } else if *scratch < *tuple {
                smallest = false;
            }
        }
        self.canonical += smallest as u128;
    }

    /// Merges statistics gathered on another part of the stream.
    pub fn merge(&mut self, other: &Orbits) {
        self.placements += other.placements;
        self.canonical += other.canonical;
        for (a, b) in self.fixed.iter_mut().zip(&other.fixed) {
            *a += b;
        }
    }

    /// Burnside's count: the mean number of fixed points, `None` when it is not a whole number
    /// (the stream was not closed under the group).
    pub fn burnside(&self) -> Option<BigUint> {
        let total: u128 = self.fixed.iter().sum();
        let order = self.fixed.len() as u128;
        (order > 0 && total % order == 0).then(|| BigUint::from(total / order))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_closed_and_faithful() {
        for group in [Group::hex(7), Group::square(5)] {
            // Every map is a bijection of the board and the identity is present.
            let cells: Vec<(usize, usize)> = (0..group.size)
                .flat_map(|r| (0..group.columns).map(move |c| (r, c)))
                .filter(|&(r, c)| group.maps[0][r * group.columns + c].is_some())
                .collect();
            let mut distinct = std::collections::HashSet::new();
            for map in &group.maps {
                let image: Vec<_> = cells
                    .iter()
                    .map(|&(r, c)| map[r * group.columns + c].unwrap())
                    .collect();
                let mut sorted = image.clone();
                sorted.sort();
                let mut all = cells.clone();
                all.sort();
                assert_eq!(sorted, all, "{} map is not a bijection", group.name);
                distinct.insert(image);
            }
            assert_eq!(distinct.len(), group.order());
        }
    }

    #[test]
    fn fixed_points_by_orbit_models_match_the_stream() {
        for width in [3usize, 5, 7, 9, 11] {
            let board = crate::puzzle::HexBoard::geometry(width).unwrap();
            let m = board.to_model("hex");
            let e = crate::backend::enumerate::Enumerator::new(&m, &Default::default()).unwrap();
            let group = Group::hex(width);
            let mut orbits = Orbits::new(&group);
            let cells: Vec<(usize, usize)> =
                board.cells().map(|(r, k)| (r, board.diag(r, k))).collect();
            let (mut tuple, mut scratch) = (vec![0; width], vec![0; width]);
            e.for_each_solution(|s| {
                for &v in &s.ones {
                    tuple[cells[v].0] = cells[v].1;
                }
                orbits.add(&group, &tuple, &mut scratch);
                std::ops::ControlFlow::Continue(())
            });
            for g in 0..group.order() {
                assert_eq!(
                    hex_fixed_points(width, g).unwrap(),
                    orbits.fixed[g],
                    "width {width}, symmetry {g}"
                );
            }
        }
    }

    #[test]
    fn hex_symmetries_keep_lines_as_lines() {
        // Two cells on one row (same r) stay on one line of some axis after any symmetry.
        let w = 9;
        let g = Group::hex(w);
        let board = crate::puzzle::HexBoard::geometry(w).unwrap();
        let same_line = |a: (usize, usize), b: (usize, usize)| {
            let t = |(r, p): (usize, usize)| p as i64 - r as i64;
            a.0 == b.0 || a.1 == b.1 || t(a) == t(b)
        };
        let cells: Vec<(usize, usize)> =
            board.cells().map(|(r, k)| (r, board.diag(r, k))).collect();
        for map in &g.maps {
            for &a in &cells {
                for &b in &cells {
                    let (ia, ib) = (map[a.0 * w + a.1].unwrap(), map[b.0 * w + b.1].unwrap());
                    assert_eq!(same_line(a, b), same_line(ia, ib));
                }
            }
        }
    }
}
