//! Square Queens (LinkedIn Queens, Capybaradoku's square mode): an `n x n` grid cut into `n`
//! regions; one queen per row, column and region, and no two queens touching, diagonals
//! included.
//!
//! Families of the model: `row`, `column`, `region` (exactly one each; `region` only when the
//! grid has regions) and `touch`, at most one queen in each of the `(n-1)^2` 2x2 windows. The
//! windows forbid exactly the diagonal contacts that rows and columns leave open.

pub mod file;
pub mod generate;
pub mod kind;
pub mod table;

pub use kind::{QueensKind, QUEENS};

use crate::model::{BoardSymmetry, Coord, Model, ModelBuilder, ModelHints, Sense};
use crate::puzzle::kind::Kind;

/// A Queens grid: size, optional regions, optional known solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueensBoard {
    size: usize,
    /// `regions[r][c]`: region index (below `size`) of each cell; `None` for the bare grid.
    regions: Option<Vec<Vec<usize>>>,
    /// A solution stated by the file (column of the queen in each row), if any.
    pub known_solution: Option<Vec<usize>>,
}

impl QueensBoard {
    /// The bare `size x size` grid (rows, columns, no touching; no regions).
    pub fn bare(size: usize) -> QueensBoard {
        QueensBoard {
            size,
            regions: None,
            known_solution: None,
        }
    }

    /// A grid with regions; `None` unless `regions` is square. Region checks (count, range)
    /// belong to the parser.
    pub fn with_regions(regions: Vec<Vec<usize>>) -> Option<QueensBoard> {
        let size = regions.len();
        if regions.iter().any(|row| row.len() != size) {
            return None;
        }
        Some(QueensBoard {
            size,
            regions: Some(regions),
            known_solution: None,
        })
    }

    /// Side `n`.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The regions, if any.
    pub fn regions(&self) -> Option<&[Vec<usize>]> {
        self.regions.as_deref()
    }

    /// The 0-1 model: variable `r * n + c` per cell; families `row`, `column`, `region` (if
    /// any) exactly one, `touch` at most one per 2x2 window.
    pub fn to_model(&self, name: impl Into<String>) -> Model {
        let n = self.size;
        let mut b = ModelBuilder::new(name, QUEENS.puzzle_kind(&[("size", n)]));
        b.hints(ModelHints {
            coordinate_family: Some("row".into()),
            cell_grid: true,
            symmetry: match self.regions {
                None => BoardSymmetry::Square { size: n },
                Some(_) => BoardSymmetry::None,
            },
        });
        for r in 0..n {
            for c in 0..n {
                b.coord_variable(Coord::Cell { row: r, col: c });
            }
        }
        let f = b.family("row");
        for r in 0..n {
            b.row(f, (0..n).map(|c| r * n + c).collect(), Sense::ExactlyOne);
        }
        let f = b.family("column");
        for c in 0..n {
            b.row(f, (0..n).map(|r| r * n + c).collect(), Sense::ExactlyOne);
        }
        if let Some(regions) = &self.regions {
            let f = b.family("region");
            let mut cells = vec![Vec::new(); n];
            for r in 0..n {
                for c in 0..n {
                    cells[regions[r][c]].push(r * n + c);
                }
            }
            for vars in cells {
                b.row(f, vars, Sense::ExactlyOne);
            }
        }
        let f = b.family("touch");
        for r in 0..n.saturating_sub(1) {
            for c in 0..n - 1 {
                let w = vec![
                    r * n + c,
                    r * n + c + 1,
                    (r + 1) * n + c,
                    (r + 1) * n + c + 1,
                ];
                b.row(f, w, Sense::AtMostOne);
            }
        }
        b.build().expect("queens grid always gives a valid model")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_by_eight_counts() {
        let regions: Vec<Vec<usize>> = (0..8).map(|r| vec![r; 8]).collect();
        let m = QueensBoard::with_regions(regions).unwrap().to_model("q8");
        let s = m.summary();
        assert_eq!(s.variables, 64);
        assert_eq!(
            s.families["row"] + s.families["column"] + s.families["region"],
            24
        );
        assert_eq!(s.families["touch"], 49);
    }
}
