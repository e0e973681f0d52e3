//! Killer Sudoku drawn from its model alone: per grid row, the cage symbols (cages are the rows
//! of the `cage-sum` family, in order), then the digits of an answer (`.` without one); then one
//! line of `SYMBOL=SUM` per cage. Cost: linear in the model.

use super::cage_symbol;
use crate::model::value_symbol as symbol;
use crate::model::{Coord, Model, Solution};

/// The drawing; `None` when the model has no `cage-sum` family or no cell-and-digit variables.
pub fn draw(model: &Model, solution: Option<&Solution>) -> Option<String> {
    let f = model.family_id("cage-sum")?;
    let n = model
        .variables()
        .iter()
        .filter_map(|v| match v.coord {
            Coord::CellValue { row, .. } => Some(row + 1),
            _ => None,
        })
        .max()?;
    let mut cages = vec!['?'; n * n];
    let mut sums = Vec::new();
    for c in model.family_rows(f) {
        for &v in &c.vars {
            if let Coord::CellValue { row, col, .. } = model.variables()[v].coord {
                cages[row * n + col] = cage_symbol(c.index);
            }
        }
        sums.push(format!("{}={}", cage_symbol(c.index), c.sense.rhs()));
    }
    let mut digits = vec!['.'; n * n];
    for &v in solution.map_or(&[][..], |s| &s.ones[..]) {
        if let Some(Coord::CellValue { row, col, value }) =
            model.variables().get(v).map(|x| x.coord)
        {
            digits[row * n + col] = symbol(value);
        }
    }
    let mut out = String::new();
    for r in 0..n {
        out.extend(&cages[r * n..(r + 1) * n]);
        out.push_str("  ");
        out.extend(&digits[r * n..(r + 1) * n]);
        out.push('\n');
    }
    out.push_str(&sums.join(" "));
    out.push('\n');
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::kinds::killer::file::read_str;

    #[test]
    fn draws_cages_digits_and_sums() {
        let text = "AABB\nCCDD\nEEFF\nGGHH\nA 3\nB 7\nC 7\nD 3\nE 3\nF 7\nG 7\nH 3\n";
        let board = &read_str(text, "d.killer").unwrap()[0];
        let model = board.to_model("d");
        let grid = [0, 1, 2, 3, 2, 3, 0, 1, 1, 0, 3, 2, 3, 2, 1, 0];
        let drawn = draw(&model, Some(&board.solution_of(&grid))).unwrap();
        assert_eq!(
            drawn,
            "AABB  1234\nCCDD  3412\nEEFF  2143\nGGHH  4321\nA=3 B=7 C=7 D=3 E=3 F=7 G=7 H=3\n"
        );
        assert!(draw(&model, None).unwrap().starts_with("AABB  ....\n"));
    }
}
