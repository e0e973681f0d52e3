//! Random Sudoku puzzles with a chosen number of clues: a full grid filled by randomised
//! backtracking, then that many cells kept at random. This is how the VSA seed made its three
//! difficulty levels (45, 33 and 26 clues, 500 puzzles each); as there, a puzzle may have more
//! than one solution (any verified solution counts as solved).
//!
//! Deterministic for a given seed (ChaCha8). Cost: a 9x9 grid takes well under a millisecond;
//! box size 4 (16x16) a few milliseconds.

use rand::seq::SliceRandom;
use rand::Rng;

use crate::puzzle::Sudoku;

/// Fills an empty grid of box size `box_size` at random: cells in row-major order, digits in
/// random order, backtracking on dead ends. Returns the digit of each cell.
pub fn random_grid(box_size: usize, rng: &mut impl Rng) -> Vec<usize> {
    let n = box_size * box_size;
    let mut grid = vec![usize::MAX; n * n];
    let mut rows = vec![0u64; n];
    let mut cols = vec![0u64; n];
    let mut boxes = vec![0u64; n];
    let box_of = |cell: usize| (cell / n / box_size) * box_size + (cell % n) / box_size;
    // Candidate orders per cell, drawn once per visit.
    let mut orders: Vec<Vec<usize>> = vec![Vec::new(); n * n];
    let mut cell = 0usize;
    let mut fresh = true;
    while cell < n * n {
        let (r, c, b) = (cell / n, cell % n, box_of(cell));
        if fresh {
            let mut digits: Vec<usize> = (0..n).collect();
            digits.shuffle(rng);
            orders[cell] = digits;
        } else {
            let d = grid[cell];
            rows[r] &= !(1 << d);
            cols[c] &= !(1 << d);
            boxes[b] &= !(1 << d);
            grid[cell] = usize::MAX;
        }
        let used = rows[r] | cols[c] | boxes[b];
        match orders[cell].iter().position(|&d| used >> d & 1 == 0) {
            Some(i) => {
                let d = orders[cell][i];
                orders[cell].drain(..=i);
                grid[cell] = d;
                rows[r] |= 1 << d;
                cols[c] |= 1 << d;
                boxes[b] |= 1 << d;
                cell += 1;
                fresh = true;
            }
            None => {
                // Dead end: go back one cell and try its next digit.
                cell = cell
                    .checked_sub(1)
                    .expect("an empty Sudoku grid always has a completion");
                fresh = false;
            }
        }
    }
    grid
}

/// A puzzle of box size `box_size` with `clues` cells of a random full grid kept.
pub fn random_puzzle(box_size: usize, clues: usize, rng: &mut impl Rng) -> Sudoku {
    let n = box_size * box_size;
    let grid = random_grid(box_size, rng);
    let mut cells: Vec<usize> = (0..n * n).collect();
    cells.shuffle(rng);
    let mut kept = vec![None; n * n];
    for &i in cells.iter().take(clues.min(n * n)) {
        kept[i] = Some(grid[i]);
    }
    Sudoku::from_cells(box_size, kept).expect("the cells of a full grid make a Sudoku")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Solution;
    use crate::verify::Verifier;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn random_grids_are_valid_solutions_and_depend_on_the_seed() {
        for box_size in [2, 3, 4] {
            let n = box_size * box_size;
            let mut rng = ChaCha8Rng::seed_from_u64(9);
            let grid = random_grid(box_size, &mut rng);
            let model = Sudoku::empty(box_size).to_model("empty").unwrap();
            let ones = grid
                .iter()
                .enumerate()
                .map(|(cell, &d)| cell * n + d)
                .collect();
            assert_eq!(Verifier::new(&model).check(&Solution::new(ones)), Ok(()));
        }
        let a = random_grid(3, &mut ChaCha8Rng::seed_from_u64(1));
        let b = random_grid(3, &mut ChaCha8Rng::seed_from_u64(2));
        assert_ne!(a, b);
    }

    #[test]
    fn a_random_puzzle_keeps_the_clues_asked_for() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let p = random_puzzle(3, 26, &mut rng);
        assert_eq!(p.clues(), 26);
    }
}
