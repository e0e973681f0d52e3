//! Star Battle drawn from its model alone: the region letters of the `region` rows (`.` for a
//! bare grid), `*` for each star of an answer. Cost: linear in the model.

use crate::model::{Coord, Model, Solution};
use crate::puzzle::grid::region_letter;

/// The grid of `model` (an `n x n` Star Battle or Queens model: variables at `Coord::Cell`)
/// with the stars of `solution`, one text line per row; `None` when the model has no cell
/// variables.
pub fn draw(model: &Model, solution: Option<&Solution>) -> Option<String> {
    let mut region = vec![None; model.num_variables()];
    if let Some(f) = model.family_id("region") {
        for c in model.family_rows(f) {
            for &v in &c.vars {
                region[v] = Some(c.index);
            }
        }
    }
    let on = solution.map(|s| s.to_bools(model.num_variables()));
    let mut rows: Vec<Vec<char>> = Vec::new();
    for (v, var) in model.variables().iter().enumerate() {
        let Coord::Cell { row, col } = var.coord else {
            continue;
        };
        if rows.len() <= row {
            rows.resize(row + 1, Vec::new());
        }
        if rows[row].len() <= col {
            rows[row].resize(col + 1, ' ');
        }
        rows[row][col] = if on.as_ref().is_some_and(|o| o[v]) {
            '*'
        } else {
            region[v].map_or('.', region_letter)
        };
    }
    if rows.is_empty() {
        return None;
    }
    Some(
        rows.iter()
            .map(|r| r.iter().collect::<String>() + "\n")
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::kinds::star::StarBoard;

    #[test]
    fn draws_regions_and_stars() {
        let regions: Vec<Vec<usize>> = (0..4).map(|r| vec![r; 4]).collect();
        let board = StarBoard::with_regions(regions, 1).unwrap();
        let model = board.to_model("d");
        let stars = board.solution_of(&[vec![1], vec![3], vec![0], vec![2]]);
        assert_eq!(
            draw(&model, Some(&stars)).unwrap(),
            "A*AA\nBBB*\n*CCC\nDD*D\n"
        );
        assert_eq!(draw(&model, None).unwrap(), "AAAA\nBBBB\nCCCC\nDDDD\n");
        let bare = StarBoard::bare(2, 1).to_model("b");
        assert_eq!(draw(&bare, None).unwrap(), "..\n..\n");
    }
}
