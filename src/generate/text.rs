//! The generator's output in the `.hex` and `.queens` text formats: one letter per cell (`A-Z`
//! then `a-z`, so at most 52 regions), hex rows indented into a hexagon with the letters
//! spaced (whitespace is ignored by readers), `#` comment lines above each board, and a
//! `# solution: ...` line below it (the 0-based position in its row of each row's piece).
//! Costs one pass over the cells.

use std::fmt::Write;

use crate::puzzle::{HexBoard, QueensBoard};

use super::Generated;

/// The letter of region `r` (`A-Z`, then `a-z`); `?` past 52.
pub fn region_letter(r: usize) -> char {
    match r {
        0..=25 => (b'A' + r as u8) as char,
        26..=51 => (b'a' + (r - 26) as u8) as char,
        _ => '?',
    }
}

/// The rows of a coloured hex board drawn as an indented hexagon (`.` for the bare geometry).
pub fn hex_lines(board: &HexBoard) -> Vec<String> {
    let n = board.width();
    (0..n)
        .map(|r| {
            let indent = n - board.row_len(r);
            let letters: Vec<String> = (0..board.row_len(r))
                .map(|k| {
                    board
                        .regions()
                        .map_or('.', |g| region_letter(g[r][k]))
                        .to_string()
                })
                .collect();
            format!("{}{}", " ".repeat(indent), letters.join(" "))
        })
        .collect()
}

/// The rows of a Queens grid, one letter per cell (`.` without regions).
pub fn queens_lines(board: &QueensBoard) -> Vec<String> {
    let n = board.size();
    (0..n)
        .map(|r| {
            (0..n)
                .map(|c| board.regions().map_or('.', |g| region_letter(g[r][c])))
                .collect()
        })
        .collect()
}

/// The `#` lines reporting how a board was made.
pub fn report_lines<B>(kind: &str, width: usize, seed: u64, g: &Generated<B>) -> Vec<String> {
    vec![
        format!(
            "# generated {kind} width={width} seed={seed} board={}",
            g.index
        ),
        format!(
            "# attempts: {}  repairs: {}  search-nodes: {}  sat-calls: {}  propagation-solves: {}",
            g.attempts,
            g.repairs,
            g.nodes,
            g.sat_calls,
            if g.propagation_solves { "yes" } else { "no" }
        ),
    ]
}

/// One block of output: report lines, board lines, solution line, no trailing blank line.
pub fn block(report: &[String], board: &[String], solution: &[usize]) -> String {
    let mut out = String::new();
    for line in report.iter().chain(board) {
        let _ = writeln!(out, "{line}");
    }
    let cols: Vec<String> = solution.iter().map(|c| c.to_string()).collect();
    let _ = writeln!(out, "# solution: {}", cols.join(" "));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn width_three_hexagon_is_indented() {
        let b = HexBoard::coloured(vec![vec![0, 0], vec![1, 1, 2], vec![2, 2]]).unwrap();
        assert_eq!(hex_lines(&b), vec![" A A", "B B C", " C C"]);
        assert_eq!(region_letter(27), 'b');
    }
}
