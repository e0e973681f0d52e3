//! Hex boards: the hexagonal variant of Queens (Capybaradoku's hex mode).
//!
//! A board of odd width `n = 2s - 1` (side `s`) has rows `r = 0..n` from the top; row `r` holds
//! `s + r` cells for `r < s` and `s + (n - 1 - r)` after. Cell `k` of row `r` (0-based from the
//! left) lies on second-axis line `p = k` (`r < s`) or `p = k + r - s + 1` (`r >= s`), the
//! seed's shared coordinate, and on third-axis line `t = p - r + s - 1`. Each of the three axes
//! has `n` lines; a solution holds exactly one piece per line of every axis and, when the board
//! is coloured, one per colour region.
//!
//! Families of the model: `row` (first axis), `diag` (second axis, lines of equal `p`), `anti`
//! (third axis, lines of equal `t`) and `colour`. No touching rule is needed: two touching cells
//! always share a line (tested below).

pub mod file;
pub mod generate;
pub mod kind;
pub mod lines;
pub mod shards;
mod sweep;
pub mod table;

pub use kind::{HexKind, HEX};

use crate::puzzle::kind::Kind;

use crate::model::{BoardSymmetry, Coord, Model, ModelBuilder, ModelHints, Sense};

/// A hex board: geometry plus, optionally, a colour region per cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HexBoard {
    side: usize,
    /// `regions[r][k]`: region index of cell `k` of row `r`; `None` for the bare geometry.
    regions: Option<Vec<Vec<usize>>>,
}

impl HexBoard {
    /// The bare geometry of odd width `width` (no colours). Returns `None` for an even or zero
    /// width.
    pub fn geometry(width: usize) -> Option<HexBoard> {
        (width % 2 == 1).then_some(HexBoard {
            side: width.div_ceil(2),
            regions: None,
        })
    }

    /// A coloured board. `regions[r][k]` is the region index (0-based, below `width`) of each
    /// cell. Returns `None` when the width is even or a row has the wrong length; region checks
    /// (count, range) belong to the parser, which can say where.
    pub fn coloured(regions: Vec<Vec<usize>>) -> Option<HexBoard> {
        let mut board = HexBoard::geometry(regions.len())?;
        if (0..board.width()).any(|r| regions[r].len() != board.row_len(r)) {
            return None;
        }
        board.regions = Some(regions);
        Some(board)
    }

    /// Side length `s`.
    pub fn side(&self) -> usize {
        self.side
    }

    /// Width `n = 2s - 1`: rows, lines per axis, pieces in a solution.
    pub fn width(&self) -> usize {
        2 * self.side - 1
    }

    /// Number of cells, `3s(s-1) + 1`.
    pub fn num_cells(&self) -> usize {
        3 * self.side * (self.side - 1) + 1
    }

    /// Cells in row `r`.
    pub fn row_len(&self, r: usize) -> usize {
        let s = self.side;
        if r < s {
            s + r
        } else {
            3 * s - 2 - r
        }
    }

    /// Second-axis line (shared coordinate `p`) of cell `k` in row `r`.
    pub fn diag(&self, r: usize, k: usize) -> usize {
        if r < self.side {
            k
        } else {
            k + r + 1 - self.side
        }
    }

    /// Third-axis line `t = p - r + s - 1` of cell `k` in row `r`.
    pub fn anti(&self, r: usize, k: usize) -> usize {
        self.diag(r, k) + self.side - 1 - r
    }

    /// The cell of row `r` on second-axis line `p`, if that line crosses row `r`.
    pub fn cell_on_diag(&self, r: usize, p: usize) -> Option<usize> {
        let first = if r < self.side { 0 } else { r + 1 - self.side };
        (p >= first && p - first < self.row_len(r)).then(|| p - first)
    }

    /// All cells `(r, k)` in row-major order; the variable id of a cell is its position here.
    pub fn cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.width()).flat_map(move |r| (0..self.row_len(r)).map(move |k| (r, k)))
    }

    /// The colour regions, if any.
    pub fn regions(&self) -> Option<&[Vec<usize>]> {
        self.regions.as_deref()
    }

    /// Whether two cells touch (share an edge of the hexagon).
    pub fn touching(&self, a: (usize, usize), b: (usize, usize)) -> bool {
        let (ra, pa, ta) = (
            a.0 as i64,
            self.diag(a.0, a.1) as i64,
            self.anti(a.0, a.1) as i64,
        );
        let (rb, pb, tb) = (
            b.0 as i64,
            self.diag(b.0, b.1) as i64,
            self.anti(b.0, b.1) as i64,
        );
        // In cube coordinates (r, p, t) with t = p - r + const, neighbours differ by one of the
        // six unit steps; each step keeps exactly one of r, p, t fixed.
        let (dr, dp, dt) = (rb - ra, pb - pa, tb - ta);
        let steps = [
            (0, 1, 1),
            (0, -1, -1),
            (1, 0, -1),
            (-1, 0, 1),
            (1, 1, 0),
            (-1, -1, 0),
        ];
        steps.contains(&(dr, dp, dt))
    }

    /// The 0-1 model: one variable per cell, families `row`, `diag`, `anti` (and `colour` when
    /// coloured), all "exactly one".
    pub fn to_model(&self, name: impl Into<String>) -> Model {
        let n = self.width();
        let mut b = ModelBuilder::new(name, HEX.puzzle_kind(&[("width", n)]));
        b.hints(ModelHints {
            coordinate_family: Some("row".into()),
            cell_grid: true,
            symmetry: match self.regions {
                None => BoardSymmetry::Hexagon { width: n },
                Some(_) => BoardSymmetry::None,
            },
        });
        let mut by_row = vec![Vec::new(); n];
        let mut by_diag = vec![Vec::new(); n];
        let mut by_anti = vec![Vec::new(); n];
        let mut by_region = vec![Vec::new(); n];
        for (r, k) in self.cells() {
            let v = b.coord_variable(Coord::Cell { row: r, col: k });
            by_row[r].push(v);
            by_diag[self.diag(r, k)].push(v);
            by_anti[self.anti(r, k)].push(v);
            if let Some(regions) = &self.regions {
                by_region[regions[r][k]].push(v);
            }
        }
        let mut lines = vec![("row", by_row), ("diag", by_diag), ("anti", by_anti)];
        if self.regions.is_some() {
            lines.push(("colour", by_region));
        }
        for (family, rows) in lines {
            let f = b.family(family);
            for vars in rows {
                b.row(f, vars, Sense::ExactlyOne);
            }
        }
        b.build().expect("hex geometry always gives a valid model")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_nine_has_61_cells_and_27_axis_lines_of_the_right_lengths() {
        let b = HexBoard::geometry(9).unwrap();
        assert_eq!(b.num_cells(), 61);
        assert_eq!(b.cells().count(), 61);
        let lens: Vec<usize> = (0..9).map(|r| b.row_len(r)).collect();
        assert_eq!(lens, vec![5, 6, 7, 8, 9, 8, 7, 6, 5]);
        let m = b.to_model("w9");
        let s = m.summary();
        assert_eq!((s.variables, s.constraints), (61, 27));
        for f in m.families() {
            let mut sizes: Vec<usize> = m
                .family_rows(m.family_id(&f.name).unwrap())
                .map(|c| c.vars.len())
                .collect();
            sizes.sort();
            assert_eq!(sizes, vec![5, 5, 6, 6, 7, 7, 8, 8, 9], "family {}", f.name);
        }
    }

    #[test]
    fn seed_lines_match() {
        // The seed numbers cells 1..61 row by row: c1+c2+c3+c4+c5 = 1 is the top row and
        // c1+c6+c12+c19+c27 = 1 is a line of one of the other axes.
        let b = HexBoard::geometry(9).unwrap();
        let m = b.to_model("w9");
        let line: Vec<usize> = vec![1, 6, 12, 19, 27].into_iter().map(|c| c - 1).collect();
        assert!(m.constraints().iter().any(|c| c.vars == line));
        assert!(m
            .constraints()
            .iter()
            .any(|c| c.vars == vec![0, 1, 2, 3, 4]));
    }

    #[test]
    fn touching_cells_always_share_a_line() {
        for width in [1, 3, 5, 7, 9, 11] {
            let b = HexBoard::geometry(width).unwrap();
            let cells: Vec<_> = b.cells().collect();
            let mut touching_pairs = 0;
            for &a in &cells {
                for &c in &cells {
                    if a != c && b.touching(a, c) {
                        touching_pairs += 1;
                        let share = a.0 == c.0
                            || b.diag(a.0, a.1) == b.diag(c.0, c.1)
                            || b.anti(a.0, a.1) == b.anti(c.0, c.1);
                        assert!(share, "{a:?} and {c:?} touch but share no line");
                    }
                }
            }
            // A hexagon of side s has 3(3s^2 - 5s + 2) = 9s^2 - 15s + 6 edges between cells.
            let s = b.side();
            assert_eq!(
                touching_pairs,
                2 * (9 * s * s + 6 - 15 * s),
                "width {width}"
            );
        }
    }

    #[test]
    fn cell_on_diag_inverts_diag() {
        let b = HexBoard::geometry(7).unwrap();
        for (r, k) in b.cells() {
            assert_eq!(b.cell_on_diag(r, b.diag(r, k)), Some(k));
            assert!(b.anti(r, k) < 7);
        }
    }
}
