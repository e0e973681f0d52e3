//! Killer Sudoku: a Sudoku grid (box size `b`, `n = b^2` digits) cut into cages, each with a
//! sum; the digits of a cage differ and add up to its sum. No clues: the cages alone pin the
//! grid.
//!
//! Model: the Sudoku model (one variable per cell and digit, id `(r * n + c) * n + d`; families
//! `cell`, `row-digit`, `column-digit`, `box-digit`, all exactly one) plus, per cage, the family
//! `cage-digit` (one at-most-one row per digit over the cage's cells, for cages of two or more
//! cells: a one-cell cage holds one digit anyway) and the family `cage-sum` (one weighted row
//! `sum (d + 1) x[cell][d] = sum` over its cells and digits; the row of cage `i` is row `i` of
//! the family, which is how drawings find the cages again).
//!
//! Costs: building a model is linear in its `n^3` variables and `4 n^2 + cages * (n + 1)` rows.

pub mod draw;
pub mod file;
pub mod generate;
pub mod kind;
pub mod search;

pub use kind::{KillerKind, KILLER};

use crate::model::verify::Verifier;
use crate::model::{Coord, Model, ModelBuilder, ModelHints, PuzzleKind, Sense, Solution};
use crate::puzzle::kind::Kind;

/// The cage symbols files use, in the order cages are numbered: `A-Z`, `a-z`, `0-9`.
pub const SYMBOLS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/// The most cages a board may have: one per symbol.
pub const MAX_CAGES: usize = 62;

/// The symbol of cage `i` (`?` past [`MAX_CAGES`]).
pub fn cage_symbol(i: usize) -> char {
    SYMBOLS.as_bytes().get(i).map_or('?', |&b| b as char)
}

/// The smallest and largest sum of `cells` distinct digits from `1..=n` (`None` when
/// `cells > n`). Every sum in between is reachable.
pub fn sum_range(cells: usize, n: usize) -> Option<(u64, u64)> {
    let (s, n) = (cells as u64, n as u64);
    (s <= n).then(|| (s * (s + 1) / 2, s * (2 * n - s + 1) / 2))
}

/// A Killer Sudoku: box size, the cage of each cell and the sum of each cage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KillerBoard {
    box_size: usize,
    /// Row-major: the cage index of each cell; cages are numbered in reading order of their
    /// first cell.
    cage_of: Vec<usize>,
    sums: Vec<u64>,
}

impl KillerBoard {
    /// A board from the cage of each cell (any labels below `n^2`, renumbered in reading order
    /// of first appearance) and the sum of each label. `Err` says what is wrong: a box size out
    /// of 2..=5, not `n^2` cells, more than [`MAX_CAGES`] cages, a label without a sum, a cage
    /// of more than `n` cells or not connected, or a sum its cells cannot make. Cost: linear in
    /// the cells.
    pub fn new(box_size: usize, cage_of: &[usize], sums: &[u64]) -> Result<KillerBoard, String> {
        if !(2..=5).contains(&box_size) {
            return Err(format!("box size {box_size}: expected 2 to 5"));
        }
        let n = box_size * box_size;
        if cage_of.len() != n * n {
            return Err(format!("expected {} cells, found {}", n * n, cage_of.len()));
        }
        let mut renumber: Vec<Option<usize>> = vec![None; sums.len()];
        let mut order = Vec::new();
        let mut cages = Vec::with_capacity(cage_of.len());
        for &label in cage_of {
            let slot = renumber
                .get_mut(label)
                .ok_or_else(|| format!("cage label {label} has no sum"))?;
            let id = *slot.get_or_insert_with(|| {
                order.push(label);
                order.len() - 1
            });
            cages.push(id);
        }
        if order.len() > MAX_CAGES {
            return Err(format!(
                "expected at most {MAX_CAGES} cages, found {}",
                order.len()
            ));
        }
        let board = KillerBoard {
            box_size,
            cage_of: cages,
            sums: order.iter().map(|&l| sums[l]).collect(),
        };
        for (i, cells) in board.cages().iter().enumerate() {
            let symbol = cage_symbol(i);
            let Some((lo, hi)) = sum_range(cells.len(), n) else {
                return Err(format!(
                    "cage {symbol} has {} cells, more than {n} distinct digits",
                    cells.len()
                ));
            };
            if !(lo..=hi).contains(&board.sums[i]) {
                return Err(format!(
                    "cage {symbol} of {} cells sums to {}, outside {lo}..={hi}",
                    cells.len(),
                    board.sums[i]
                ));
            }
            if let Some(apart) = first_apart(n, cells) {
                return Err(format!(
                    "cage {symbol} is not connected: cell ({}, {}) is apart",
                    apart / n,
                    apart % n
                ));
            }
        }
        Ok(board)
    }

    /// Box side `b`.
    pub fn box_size(&self) -> usize {
        self.box_size
    }

    /// Digits, rows and columns `n = b^2`.
    pub fn size(&self) -> usize {
        self.box_size * self.box_size
    }

    /// The cage index of each cell, row-major.
    pub fn cage_of(&self) -> &[usize] {
        &self.cage_of
    }

    /// The sum of each cage.
    pub fn sums(&self) -> &[u64] {
        &self.sums
    }

    /// The cells (row-major indices, ascending) of each cage.
    pub fn cages(&self) -> Vec<Vec<usize>> {
        let mut cages = vec![Vec::new(); self.sums.len()];
        for (cell, &g) in self.cage_of.iter().enumerate() {
            cages[g].push(cell);
        }
        cages
    }

    /// The kind tag of its models: `killer` with parameter `box_size`.
    pub fn puzzle_kind(&self) -> PuzzleKind {
        KILLER.puzzle_kind(&[("box_size", self.box_size)])
    }

    /// The 0-1 model (see the module documentation). Cost: `O(n^3)`.
    pub fn to_model(&self, name: impl Into<String>) -> Model {
        let (b, n) = (self.box_size, self.size());
        let id = |cell: usize, d: usize| cell * n + d;
        let mut m = ModelBuilder::new(name, self.puzzle_kind());
        // The `cell` rows partition the variables: the line-by-line backends' coordinates.
        m.hints(ModelHints {
            coordinate_family: Some("cell".into()),
            ..ModelHints::default()
        });
        for r in 0..n {
            for c in 0..n {
                for d in 0..n {
                    m.coord_variable(Coord::CellValue {
                        row: r,
                        col: c,
                        value: d,
                    });
                }
            }
        }
        // Per unit kind: its family and the cell of member `i` of unit `u`.
        type CellOf<'a> = &'a dyn Fn(usize, usize) -> usize;
        let unit_rows: [(&str, CellOf); 3] = [
            ("row-digit", &|u, i| u * n + i),
            ("column-digit", &|u, i| i * n + u),
            ("box-digit", &|u, i| {
                ((u / b) * b + i / b) * n + (u % b) * b + i % b
            }),
        ];
        let f = m.family("cell");
        for cell in 0..n * n {
            m.row(f, (0..n).map(|d| id(cell, d)).collect(), Sense::ExactlyOne);
        }
        for (family, cell_of) in unit_rows {
            let f = m.family(family);
            for u in 0..n {
                for d in 0..n {
                    let vars = (0..n).map(|i| id(cell_of(u, i), d)).collect();
                    m.row(f, vars, Sense::ExactlyOne);
                }
            }
        }
        let cages = self.cages();
        let f = m.family("cage-digit");
        for cells in cages.iter().filter(|c| c.len() > 1) {
            for d in 0..n {
                m.row(
                    f,
                    cells.iter().map(|&c| id(c, d)).collect(),
                    Sense::AtMostOne,
                );
            }
        }
        let f = m.family("cage-sum");
        for (cells, &sum) in cages.iter().zip(&self.sums) {
            let (vars, weights) = cells
                .iter()
                .flat_map(|&c| (0..n).map(move |d| (id(c, d), d as u64 + 1)))
                .unzip();
            m.weighted_row(f, vars, weights, Sense::Exactly(sum));
        }
        // Rows are non-empty and in range; weights are at most 25 and sums at most 325.
        m.build()
            .unwrap_or_else(|e| unreachable!("killer sudoku model: {e}"))
    }

    /// The model's solution for a filled grid (row-major digit indices `0..n`).
    pub fn solution_of(&self, grid: &[usize]) -> Solution {
        let n = self.size();
        Solution::new(grid.iter().enumerate().map(|(i, &d)| i * n + d).collect())
    }

    /// Whether a filled grid keeps every rule (checked by the shared verifier on the model).
    pub fn check(&self, grid: &[usize]) -> Result<(), String> {
        let n = self.size();
        if grid.len() != n * n || grid.iter().any(|&d| d >= n) {
            return Err(format!("expected {} digits below {n}", n * n));
        }
        let model = self.to_model("check");
        Verifier::new(&model)
            .check(&self.solution_of(grid))
            .map_err(|v| v.to_string())
    }
}

/// The filled grid (row-major digit indices) of a solution of an `n x n` Killer model.
pub fn grid_of(n: usize, solution: &Solution) -> Vec<usize> {
    let mut grid = vec![0; n * n];
    for &v in &solution.ones {
        if v < n * n * n {
            grid[v / n] = v % n;
        }
    }
    grid
}

/// The first cell of `cells` (ascending) not connected side by side to the first one.
pub(crate) fn first_apart(n: usize, cells: &[usize]) -> Option<usize> {
    let &start = cells.first()?;
    let mut seen = vec![start];
    let mut stack = vec![start];
    while let Some(c) = stack.pop() {
        let (r, col) = (c / n, c % n);
        let near = [
            (r > 0).then(|| c - n),
            (r + 1 < n).then(|| c + n),
            (col > 0).then(|| c - 1),
            (col + 1 < n).then(|| c + 1),
        ];
        for nb in near.into_iter().flatten() {
            if cells.binary_search(&nb).is_ok() && !seen.contains(&nb) {
                seen.push(nb);
                stack.push(nb);
            }
        }
    }
    cells.iter().copied().find(|c| !seen.contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4x4 Killer: cages of two cells side by side in each row.
    pub(crate) fn four() -> KillerBoard {
        // Grid 1 2 3 4 / 3 4 1 2 / 2 1 4 3 / 4 3 2 1; cages = pairs (row, cols 0-1 and 2-3).
        let cage_of: Vec<usize> = (0..16).map(|i| (i / 4) * 2 + (i % 4) / 2).collect();
        KillerBoard::new(2, &cage_of, &[3, 7, 7, 3, 3, 7, 7, 3]).unwrap()
    }

    #[test]
    fn nine_by_nine_has_729_variables() {
        let cage_of: Vec<usize> = (0..81).map(|i| (i / 9) * 3 + (i % 9) / 3).collect();
        let board = KillerBoard::new(3, &cage_of, &[15; 27]).unwrap_or_else(|e| panic!("{e}"));
        let m = board.to_model("k9");
        let s = m.summary();
        assert_eq!(s.variables, 729);
        assert_eq!(s.families["cell"] * 4, 324);
        assert_eq!(s.families["cage-digit"], 27 * 9);
        assert_eq!(s.families["cage-sum"], 27);
        let sum_row = m
            .constraints()
            .iter()
            .find(|c| c.weights.is_some())
            .unwrap();
        assert_eq!(sum_row.sense, Sense::Exactly(15));
        assert_eq!(sum_row.vars.len(), 27);
        assert_eq!(sum_row.weight_range(), (1, 9));
    }

    #[test]
    fn the_model_accepts_exactly_the_valid_grids() {
        let board = four();
        let good = [0, 1, 2, 3, 2, 3, 0, 1, 1, 0, 3, 2, 3, 2, 1, 0];
        board.check(&good).unwrap();
        // Swapping two digits of a cage keeps its sum but breaks the columns.
        let mut bad = good;
        bad.swap(0, 1);
        assert!(board.check(&bad).is_err());
    }

    #[test]
    fn inconsistent_boards_are_refused() {
        let pairs: Vec<usize> = (0..16).map(|i| (i / 4) * 2 + (i % 4) / 2).collect();
        assert!(KillerBoard::new(2, &pairs, &[3, 7, 7, 3, 3, 7, 7, 8]).is_err());
        assert!(KillerBoard::new(2, &pairs, &[3, 7, 7]).is_err());
        // Cells 0 and 2 in one cage, 1 between them in another: not connected.
        let mut apart = pairs.clone();
        apart.swap(1, 2);
        let e = KillerBoard::new(2, &apart, &[4, 6, 7, 3, 3, 7, 7, 3]).unwrap_err();
        assert!(e.contains("not connected"), "{e}");
        assert_eq!(sum_range(3, 9), Some((6, 24)));
        assert_eq!(sum_range(10, 9), None);
    }
}
