//! Queens grids with exactly one solution, reproducible from a seed: the square shape (cells,
//! edge neighbours along which regions grow, a random placement of one queen per row and
//! column with no two touching) for the shared planted-region generator
//! ([`crate::puzzle::generate::regions`]), and the `.queens` blocks the `generate` command
//! prints: `#` lines reporting how each grid was made, then the grid with its
//! `# solution: ...` line (the column of each row's queen, which the Queens reader checks).
//!
//! Costs: per attempt one growth (`O(cells^2)`) and a few counts; see `reports/generate.md`.

use rand_chacha::ChaCha8Rng;

use super::file::write;
use super::{QueensBoard, QueensKind};
use crate::model::Model;
use crate::puzzle::generate::regions::{self, neighbour_lists, report_lines, Shape};
use crate::puzzle::generate::{
    shuffle, GenerateError, GenerateOptions, Generated, Generator, GeneratorOption, OnBoard,
    Request, RunEnd, MAX_ATTEMPTS, MAX_REPAIRS,
};

/// The Queens grid's shape as the planted-region generator needs it.
pub struct QueensShape {
    size: usize,
    cells: Vec<(usize, usize)>,
    neighbours: Vec<Vec<usize>>,
}

impl QueensShape {
    /// The shape of side `size`; an error for sizes 2 and 3 (and 0), which have no placement.
    pub fn new(size: usize) -> Result<QueensShape, GenerateError> {
        if size < 4 && size != 1 {
            return Err(GenerateError::BadSize(format!(
                "queens size {size}: no placement of non-touching queens exists below 4 (except 1)"
            )));
        }
        let cells: Vec<(usize, usize)> = (0..size)
            .flat_map(|r| (0..size).map(move |c| (r, c)))
            .collect();
        // Regions grow along edges (4-neighbours), as in the published levels.
        let neighbours = neighbour_lists(&cells, |a, b| a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1);
        Ok(QueensShape {
            size,
            cells,
            neighbours,
        })
    }
}

/// Randomised depth-first search: the column of each row's queen, none shared, none touching.
fn place(n: usize, cols: &mut Vec<usize>, used: &mut [bool], rng: &mut ChaCha8Rng) -> bool {
    let r = cols.len();
    if r == n {
        return true;
    }
    let mut cs: Vec<usize> = (0..n).collect();
    shuffle(rng, &mut cs);
    for c in cs {
        if used[c] || cols.last().is_some_and(|&p| p.abs_diff(c) <= 1) {
            continue;
        }
        used[c] = true;
        cols.push(c);
        if place(n, cols, used, rng) {
            return true;
        }
        cols.pop();
        used[c] = false;
    }
    false
}

impl Shape for QueensShape {
    type Board = QueensBoard;
    fn cells(&self) -> &[(usize, usize)] {
        &self.cells
    }
    fn neighbours(&self) -> &[Vec<usize>] {
        &self.neighbours
    }
    fn placement(&self, rng: &mut ChaCha8Rng) -> Vec<usize> {
        let n = self.size;
        let mut cols = Vec::new();
        let ok = place(n, &mut cols, &mut vec![false; n], rng);
        debug_assert!(ok, "sizes 1 and >= 4 have a placement");
        cols.iter().enumerate().map(|(r, &c)| r * n + c).collect()
    }
    fn board(&self, region: &[usize]) -> QueensBoard {
        let rows = region.chunks(self.size).map(|r| r.to_vec()).collect();
        QueensBoard::with_regions(rows).expect("square")
    }
    fn model(&self, board: &QueensBoard) -> Model {
        board.to_model("generated")
    }
    fn key(&self, board: &QueensBoard) -> String {
        format!("{:?}", board.regions())
    }
    fn block(&self, seed: u64, g: &Generated<QueensBoard>) -> String {
        let mut out = report_lines("queens", self.size, seed, g).join("\n");
        out.push('\n');
        let mut board = g.board.clone();
        board.known_solution = Some(g.solution.clone());
        out.push_str(&write(&board));
        out
    }
}

/// Generates `options.count` Queens grids of side `options.width`, each with exactly one
/// solution (checked by the generator's counter and confirmed by two backends, all verified).
/// All or nothing: the boards, or the error that stopped the run.
pub fn generate_queens(
    options: &GenerateOptions,
) -> Result<Vec<Generated<QueensBoard>>, GenerateError> {
    regions::generate_with(&QueensShape::new(options.width)?, options)
}

impl Generator for QueensKind {
    fn options(&self) -> &'static [GeneratorOption] {
        &[MAX_ATTEMPTS, MAX_REPAIRS]
    }

    fn widths(&self) -> &'static str {
        "1 or 4 to 51"
    }

    fn generate_each(
        &self,
        request: &Request,
        each: OnBoard<'_, String>,
    ) -> Result<RunEnd, GenerateError> {
        let shape = QueensShape::new(request.width)?;
        Ok(regions::generate_blocks(&shape, request, each))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::generate::counter::count_solutions;
    use crate::puzzle::parse::{parse_str, Format};

    #[test]
    fn queens_grids_are_unique_and_the_solution_does_not_touch() {
        let boards = generate_queens(&GenerateOptions::new(8, 2, 5)).unwrap();
        for g in &boards {
            let cols = &g.solution;
            assert_eq!(cols.len(), 8);
            assert!(cols.windows(2).all(|w| w[0].abs_diff(w[1]) >= 2));
            let model = g.board.to_model("g");
            assert_eq!(count_solutions(&model, u64::MAX).unwrap().count, 1);
        }
        assert!(matches!(
            generate_queens(&GenerateOptions::new(3, 1, 0)),
            Err(GenerateError::BadSize(_))
        ));
    }

    #[test]
    fn generated_blocks_read_back_with_their_solutions() {
        let queens = generate_queens(&GenerateOptions::new(6, 2, 4)).unwrap();
        let shape = QueensShape::new(6).unwrap();
        let blocks: Vec<String> = queens.iter().map(|g| shape.block(4, g)).collect();
        let back = parse_str(&blocks.join("\n"), Format::Queens, "gen.queens").unwrap();
        assert_eq!(back.len(), 2);
        for (g, p) in queens.iter().zip(&back) {
            let Some(q) = p.board_as::<QueensBoard>() else {
                panic!("not queens")
            };
            assert_eq!(q.regions(), g.board.regions());
            assert_eq!(q.known_solution.as_ref(), Some(&g.solution));
        }
    }
}
