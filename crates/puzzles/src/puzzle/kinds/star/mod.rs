//! Star Battle: an `n x n` grid cut into `n` regions; `k` stars in every row, every column and
//! every region, and no two stars touching, diagonals included. With `k = 1` it is Queens: every
//! `.queens` level is a 1-star Star Battle with the same solutions.
//!
//! Families of the model, one 0-1 variable per cell (id `r * n + c`, no auxiliary variables):
//! `row`, `column` and `region` (`Sense::Exactly(k)`; `region` only when the grid has regions),
//! and `touch`, at most one star in each of the `(n-1)^2` 2x2 windows. The windows forbid
//! exactly the 8-neighbourhood contacts: two touching cells always share a 2x2 window, and two
//! cells in one window always touch. For `k = 1` the rows are the exact-cover `ExactlyOne`
//! rows, so the model is the Queens model.
//!
//! Costs: building a model is linear in the cells (`n^2` variables, `3n + (n-1)^2` rows).

pub mod draw;
pub mod file;
pub mod generate;
pub mod kind;
pub mod search;
pub mod table;

pub use kind::{StarKind, STAR};

use crate::model::verify::Verifier;
use crate::model::{
    BoardSymmetry, Coord, Model, ModelBuilder, ModelHints, PuzzleKind, Sense, Solution,
};
use crate::puzzle::kind::Kind;
use crate::puzzle::QueensBoard;

/// A Star Battle grid: side, stars per unit, optional regions, optional known solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StarBoard {
    size: usize,
    stars: usize,
    /// `regions[r][c]`: region index (below `size`) of each cell; `None` for the bare grid.
    regions: Option<Vec<Vec<usize>>>,
    /// A solution stated by the file: the columns of the stars of each row, ascending.
    pub known_solution: Option<Vec<Vec<usize>>>,
}

impl StarBoard {
    /// The bare `size x size` grid with `stars` stars per row and column (no regions).
    pub fn bare(size: usize, stars: usize) -> StarBoard {
        StarBoard {
            size,
            stars,
            regions: None,
            known_solution: None,
        }
    }

    /// A grid with regions; `None` unless `regions` is square with indices below its side.
    /// (That every region is used is the reader's check: a missing region only makes the
    /// board infeasible.)
    pub fn with_regions(regions: Vec<Vec<usize>>, stars: usize) -> Option<StarBoard> {
        let size = regions.len();
        if regions
            .iter()
            .any(|row| row.len() != size || row.iter().any(|&g| g >= size))
        {
            return None;
        }
        Some(StarBoard {
            size,
            stars,
            regions: Some(regions),
            known_solution: None,
        })
    }

    /// The same grid read as a 1-star Star Battle: a Queens board has the same rules.
    pub fn from_queens(board: &QueensBoard) -> StarBoard {
        StarBoard {
            size: board.size(),
            stars: 1,
            regions: board.regions().map(<[Vec<usize>]>::to_vec),
            known_solution: board
                .known_solution
                .as_ref()
                .map(|cols| cols.iter().map(|&c| vec![c]).collect()),
        }
    }

    /// Side `n`.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Stars per row, column and region `k`.
    pub fn stars(&self) -> usize {
        self.stars
    }

    /// The regions, if any.
    pub fn regions(&self) -> Option<&[Vec<usize>]> {
        self.regions.as_deref()
    }

    /// The kind tag of its models: `star` with parameters `size` and `stars`.
    pub fn puzzle_kind(&self) -> PuzzleKind {
        STAR.puzzle_kind(&[("size", self.size), ("stars", self.stars)])
    }

    /// What backends may use: the cells are a board; with one star per row the `row` family
    /// partitions the variables into exactly-one lines; a bare grid has the square's symmetry.
    fn hints(&self) -> ModelHints {
        ModelHints {
            coordinate_family: (self.stars == 1).then(|| "row".into()),
            cell_grid: true,
            symmetry: match self.regions {
                None => BoardSymmetry::Square { size: self.size },
                Some(_) => BoardSymmetry::None,
            },
        }
    }

    /// The 0-1 model: variable `r * n + c` per cell; `row`, `column`, `region` (if any) with
    /// `Sense::Exactly(k)`, `touch` at most one per 2x2 window. Cost: `O(n^2)`.
    pub fn to_model(&self, name: impl Into<String>) -> Model {
        let n = self.size;
        let k = self.stars as u64;
        let mut b = ModelBuilder::new(name, self.puzzle_kind());
        b.hints(self.hints());
        for r in 0..n {
            for c in 0..n {
                b.coord_variable(Coord::Cell { row: r, col: c });
            }
        }
        let f = b.family("row");
        for r in 0..n {
            b.row(f, (0..n).map(|c| r * n + c).collect(), Sense::Exactly(k));
        }
        let f = b.family("column");
        for c in 0..n {
            b.row(f, (0..n).map(|r| r * n + c).collect(), Sense::Exactly(k));
        }
        if let Some(regions) = &self.regions {
            let f = b.family("region");
            let mut cells = vec![Vec::new(); n];
            for (r, row) in regions.iter().enumerate() {
                for (c, &g) in row.iter().enumerate() {
                    cells[g].push(r * n + c);
                }
            }
            for vars in cells.into_iter().filter(|v| !v.is_empty()) {
                b.row(f, vars, Sense::Exactly(k));
            }
        }
        let f = b.family("touch");
        for r in 0..n.saturating_sub(1) {
            for c in 0..n - 1 {
                let window = vec![
                    r * n + c,
                    r * n + c + 1,
                    (r + 1) * n + c,
                    (r + 1) * n + c + 1,
                ];
                b.row(f, window, Sense::AtMostOne);
            }
        }
        // Rows are non-empty, in range and duplicate-free; k is at most n (readers and
        // generators check), far below the coefficient limit.
        b.build()
            .unwrap_or_else(|e| unreachable!("star battle model: {e}"))
    }

    /// The model's solution placing the stars at `columns` (the star columns of each row).
    pub fn solution_of(&self, columns: &[Vec<usize>]) -> Solution {
        let n = self.size;
        Solution::new(
            columns
                .iter()
                .enumerate()
                .flat_map(|(r, cols)| cols.iter().map(move |&c| r * n + c))
                .collect(),
        )
    }

    /// Whether stars at `columns` keep every rule (checked by the shared verifier on the
    /// model); `Err` names the first rule broken.
    pub fn check(&self, columns: &[Vec<usize>]) -> Result<(), String> {
        let n = self.size;
        if columns.len() != n || columns.iter().flatten().any(|&c| c >= n) {
            return Err(format!("expected {n} rows of columns below {n}"));
        }
        let model = self.to_model("check");
        Verifier::new(&model)
            .check(&self.solution_of(columns))
            .map_err(|v| v.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_eight_by_eight_two_stars_has_no_auxiliary_variables() {
        let m = StarBoard::bare(8, 2).to_model("s8");
        let s = m.summary();
        assert_eq!(s.variables, 64);
        assert_eq!(s.families["row"] + s.families["column"], 16);
        assert_eq!(s.families["touch"], 49);
        assert!(!s.families.contains_key("region"));
        let row = m.constraints().iter().find(|c| c.vars.len() == 8).unwrap();
        assert_eq!(row.sense, Sense::Exactly(2));
        assert!(m.constraints().iter().all(|c| c.weights.is_none()));
        // The bare 8x8 grid holds exactly two 2-star placements (no regions to pin one).
        assert_eq!(super::search::count(&StarBoard::bare(8, 2), None).count, 2);
    }

    #[test]
    fn one_star_rows_are_exact_cover_rows() {
        let regions: Vec<Vec<usize>> = (0..5).map(|r| vec![r; 5]).collect();
        let m = StarBoard::with_regions(regions, 1).unwrap().to_model("s");
        assert!(m.is_exact_cover());
        assert_eq!(m.summary().families["region"], 5);
    }

    #[test]
    fn check_finds_touching_stars() {
        let b = StarBoard::bare(4, 1);
        assert!(b.check(&[vec![1], vec![3], vec![0], vec![2]]).is_ok());
        assert!(b.check(&[vec![0], vec![1], vec![3], vec![2]]).is_err());
        assert!(b.check(&[vec![0]]).is_err());
    }
}
