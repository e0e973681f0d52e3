//! A seeded Sudoku generator, as in the VSA seed's experiment: a random complete grid, then clues
//! removed at random down to a target count. Removal does not try to keep the solution unique;
//! [`unique`] says whether it is (a count stopped at 2 with the exact `bitset` backend, every
//! witness verified).
//!
//! It is not offered to `zeroone generate` (whose boards have exactly one solution); the harness
//! (`generate = "sudoku-random"` sources) and the VSA experiment call it directly.
//!
//! Cost: filling is [`filled_grid::complete_grid`] (about 100 us for 9x9); removal is one
//! shuffle.

use rand::seq::SliceRandom;
use rand::Rng;

use super::Sudoku;
use crate::backend::{count_verified, make_backend, BackendError, BackendOptions, Status};
use crate::model::ModelError;
use crate::puzzle::generate::{board_rng, filled_grid};

/// A generated puzzle with the grid it was cut from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle (the clues kept).
    pub puzzle: Sudoku,
    /// The complete grid the clues come from (a solution of `puzzle`).
    pub grid: Sudoku,
}

/// A complete grid with boxes `box_size x box_size` (2 to 5), drawn by the shared
/// [`filled_grid::complete_grid`] (random and reproducible, not a uniform sampler).
pub fn complete_grid(box_size: usize, rng: &mut impl Rng) -> Sudoku {
    let cells = filled_grid::complete_grid(box_size, rng);
    Sudoku::from_cells(box_size, cells.into_iter().map(Some).collect()).expect("digits below n")
}

/// Keeps `clues` cells of `grid` chosen at random (all of them if `clues >= n^2`).
pub fn remove_clues(grid: &Sudoku, clues: usize, rng: &mut impl Rng) -> Sudoku {
    let mut order: Vec<usize> = (0..grid.cells().len()).collect();
    order.shuffle(rng);
    let mut cells = grid.cells().to_vec();
    for &i in order.iter().skip(clues) {
        cells[i] = None;
    }
    Sudoku::from_cells(grid.box_size(), cells).expect("subset of a valid grid")
}

/// Puzzle number `index` of a seeded series: its own RNG stream from `(seed, index)`, so any
/// puzzle can be regenerated alone.
pub fn generate(box_size: usize, clues: usize, seed: u64, index: u64) -> Generated {
    let mut rng = board_rng(seed, index);
    let grid = complete_grid(box_size, &mut rng);
    let puzzle = remove_clues(&grid, clues, &mut rng);
    Generated { puzzle, grid }
}

/// Why [`unique`] could not say whether a puzzle is unique.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UniqueError {
    /// The puzzle's clues clash, so it has no model to count.
    #[error("the puzzle has no model: {0}")]
    Model(#[from] ModelError),
    /// The `bitset` backend could not be made or run.
    #[error(transparent)]
    Backend(#[from] BackendError),
    /// The count ended without an answer (a status other than `solved` or `limit`).
    #[error("the uniqueness count ended {}: {reason}", status.name())]
    Undecided {
        /// The count's status.
        status: Status,
        /// Why, as the run said.
        reason: String,
    },
}

/// Whether `puzzle` has exactly one solution: counts up to 2 with the `bitset` backend (every
/// witness verified). Cost: one exact search, usually well under a millisecond for 9x9.
pub fn unique(puzzle: &Sudoku) -> Result<bool, UniqueError> {
    let model = puzzle.to_model("generated")?;
    let mut backend = make_backend("bitset", &BackendOptions::default())?;
    let out = count_verified(backend.as_mut(), &model, Some(2))?;
    // Two solutions stop the count at its limit: `limit`, still an answer to "unique?".
    if !matches!(out.status, Status::Solved | Status::Limit) {
        return Err(UniqueError::Undecided {
            status: out.status,
            reason: out.reason.unwrap_or_default(),
        });
    }
    Ok(out.count == 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::verify::Verifier;

    #[test]
    fn grids_are_valid_and_reproducible() {
        for b in [2, 3] {
            let g = generate(b, 30, 11, 4);
            assert_eq!(g, generate(b, 30, 11, 4));
            let model = g.grid.to_model("grid").unwrap();
            // A complete valid grid: its givens form a solution.
            let sol = crate::model::Solution::new(model.givens().to_vec());
            assert!(Verifier::new(&model).accepts(&sol));
            assert_eq!(g.grid.clues(), b.pow(4));
        }
        assert_ne!(generate(3, 30, 11, 4), generate(3, 30, 11, 5));
    }

    #[test]
    fn clues_are_kept_from_the_grid() {
        let g = generate(3, 26, 1, 0);
        assert_eq!(g.puzzle.clues(), 26);
        for (p, s) in g.puzzle.cells().iter().zip(g.grid.cells()) {
            if p.is_some() {
                assert_eq!(p, s);
            }
        }
    }

    #[test]
    fn a_full_grid_is_unique_and_an_empty_one_is_not() {
        let g = generate(2, 16, 3, 0);
        assert!(unique(&g.puzzle).unwrap());
        assert!(!unique(&Sudoku::empty(2)).unwrap());
        // Two 1s in the first row: no model, and the error says so.
        let mut cells = vec![None; 16];
        cells[0] = Some(0);
        cells[1] = Some(0);
        let clash = Sudoku::from_cells(2, cells).unwrap();
        assert!(matches!(unique(&clash), Err(UniqueError::Model(_))));
    }
}
