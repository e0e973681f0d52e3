//! Hex boards with exactly one solution, reproducible from a seed: the hex shape (cells,
//! touching cells, a random placement of one piece per line of all three axes) for the shared
//! planted-region generator ([`crate::puzzle::generate::regions`]), and the `.hex` blocks the
//! `generate` command prints: `#` lines reporting how each board was made, the board, and a
//! `# solution: ...` line (the 0-based position in its row of each row's piece, which the hex
//! reader skips as a comment).
//!
//! Costs: per attempt one growth (`O(cells^2)`) and a few counts; see `reports/generate.md`.

use rand_chacha::ChaCha8Rng;

use super::file::write;
use super::{HexBoard, HexKind};
use crate::model::Model;
use crate::puzzle::generate::regions::{self, neighbour_lists, report_lines, Shape};
use crate::puzzle::generate::{
    shuffle, GenerateError, GenerateOptions, Generated, Generator, GeneratorOption, OnBoard,
    Request, RunEnd, MAX_ATTEMPTS, MAX_REPAIRS,
};

/// The hex board's shape as the planted-region generator needs it.
pub struct HexShape {
    geometry: HexBoard,
    cells: Vec<(usize, usize)>,
    neighbours: Vec<Vec<usize>>,
    /// Id of the first cell of each row.
    row_start: Vec<usize>,
}

impl HexShape {
    /// The shape of width `width`; an error for an even width.
    pub fn new(width: usize) -> Result<HexShape, GenerateError> {
        let geometry = HexBoard::geometry(width)
            .filter(|_| width >= 1)
            .ok_or_else(|| {
                GenerateError::BadSize(format!("hex width {width}: expected an odd width"))
            })?;
        let cells: Vec<(usize, usize)> = geometry.cells().collect();
        let neighbours = neighbour_lists(&cells, |a, b| geometry.touching(a, b));
        let mut row_start = Vec::new();
        let mut id = 0;
        for r in 0..width {
            row_start.push(id);
            id += geometry.row_len(r);
        }
        Ok(HexShape {
            geometry,
            cells,
            neighbours,
            row_start,
        })
    }

    /// Randomised depth-first search from row `r`: a free diag and anti line per row.
    fn place(
        &self,
        r: usize,
        used: &mut [[bool; 2]],
        pick: &mut Vec<usize>,
        rng: &mut ChaCha8Rng,
    ) -> bool {
        let g = &self.geometry;
        if r == g.width() {
            return true;
        }
        let mut ks: Vec<usize> = (0..g.row_len(r)).collect();
        shuffle(rng, &mut ks);
        for k in ks {
            let (d, a) = (g.diag(r, k), g.anti(r, k));
            if used[d][0] || used[a][1] {
                continue;
            }
            used[d][0] = true;
            used[a][1] = true;
            pick.push(self.row_start[r] + k);
            if self.place(r + 1, used, pick, rng) {
                return true;
            }
            pick.pop();
            used[d][0] = false;
            used[a][1] = false;
        }
        false
    }
}

impl Shape for HexShape {
    type Board = HexBoard;
    fn cells(&self) -> &[(usize, usize)] {
        &self.cells
    }
    fn neighbours(&self) -> &[Vec<usize>] {
        &self.neighbours
    }
    fn placement(&self, rng: &mut ChaCha8Rng) -> Vec<usize> {
        let mut used = vec![[false; 2]; self.geometry.width()];
        let mut pick = Vec::new();
        let ok = self.place(0, &mut used, &mut pick, rng);
        debug_assert!(ok, "every odd width has a three-axis placement");
        pick
    }
    fn board(&self, region: &[usize]) -> HexBoard {
        let g = &self.geometry;
        let rows = (0..g.width())
            .map(|r| region[self.row_start[r]..self.row_start[r] + g.row_len(r)].to_vec())
            .collect();
        HexBoard::coloured(rows).expect("rows have the geometry's lengths")
    }
    fn model(&self, board: &HexBoard) -> Model {
        board.to_model("generated")
    }
    fn key(&self, board: &HexBoard) -> String {
        format!("{:?}", board.regions())
    }
    fn block(&self, seed: u64, g: &Generated<HexBoard>) -> String {
        let width = self.geometry.width();
        let mut out = report_lines("hex", width, seed, g).join("\n");
        out.push('\n');
        out.push_str(&write(&g.board));
        let cols: Vec<String> = g.solution.iter().map(|c| c.to_string()).collect();
        out.push_str(&format!("# solution: {}\n", cols.join(" ")));
        out
    }
}

/// Generates `options.count` hex boards of width `options.width`, each with exactly one
/// solution (checked by the generator's counter and confirmed by two backends, all verified).
/// All or nothing: the boards, or the error that stopped the run.
pub fn generate_hex(options: &GenerateOptions) -> Result<Vec<Generated<HexBoard>>, GenerateError> {
    regions::generate_with(&HexShape::new(options.width)?, options)
}

impl Generator for HexKind {
    fn options(&self) -> &'static [GeneratorOption] {
        &[MAX_ATTEMPTS, MAX_REPAIRS]
    }

    fn widths(&self) -> &'static str {
        "odd, 1 to 51"
    }

    fn generate_each(
        &self,
        request: &Request,
        each: OnBoard<'_, String>,
    ) -> Result<RunEnd, GenerateError> {
        let shape = HexShape::new(request.width)?;
        Ok(regions::generate_blocks(&shape, request, each))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::verify::Verifier;
    use crate::puzzle::generate::counter::count_solutions;
    use crate::puzzle::generate::regions::connected_without;
    use crate::puzzle::parse::{parse_str, Format};
    use crate::puzzle::Puzzle;

    #[test]
    fn hex_boards_are_unique_connected_and_reproducible() {
        let shape = HexShape::new(7).unwrap();
        let boards = generate_hex(&GenerateOptions::new(7, 3, 11)).unwrap();
        assert_eq!(boards.len(), 3);
        for g in &boards {
            let model = g.board.to_model("g");
            let all = count_solutions(&model, u64::MAX).unwrap();
            assert_eq!((all.count, all.exhaustive), (1, true));
            assert!(Verifier::new(&model).accepts(&all.solutions[0]));
            let region: Vec<usize> = g.board.regions().unwrap().concat();
            let next = |c: usize| shape.neighbours[c].iter().copied();
            for r in 0..7 {
                assert!(
                    connected_without(&region, r, usize::MAX, next),
                    "region {r}"
                );
            }
        }
        let again = generate_hex(&GenerateOptions::new(7, 3, 11)).unwrap();
        assert_eq!(boards, again);
        let other = generate_hex(&GenerateOptions::new(7, 3, 12)).unwrap();
        assert_ne!(boards[0].board, other[0].board);
        assert!(matches!(
            generate_hex(&GenerateOptions::new(8, 1, 0)),
            Err(GenerateError::BadSize(_))
        ));
    }

    #[test]
    fn generated_blocks_read_back_to_the_same_boards() {
        let mut text = Vec::new();
        let (found, stopped) = HexKind
            .generate_each(&Request::new(5, 2, 4), &mut |block| {
                text.push(block);
                Ok(())
            })
            .unwrap();
        assert_eq!((found, stopped.is_none()), (2, true));
        let back = parse_str(&text.join("\n"), Format::Hex, "gen.hex").unwrap();
        let hex = generate_hex(&GenerateOptions::new(5, 2, 4)).unwrap();
        assert_eq!(back.len(), 2);
        for (g, p) in hex.iter().zip(&back) {
            assert_eq!(p, &Puzzle::of(g.board.clone()));
        }
    }
}
