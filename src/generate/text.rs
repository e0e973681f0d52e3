//! The generator's output in the `.hex` and `.queens` text formats, through the writers of
//! [`crate::puzzle::parse`] (which read back to the same board): `#` lines reporting how each
//! board was made, the board, and a `# solution: ...` line (the 0-based position in its row
//! of each row's piece; the Queens reader checks it, the hex reader skips it as a comment).
//! Boards are separated by blank lines. Costs one pass over the cells.

use crate::puzzle::parse::{write_hex, write_queens};
use crate::puzzle::{HexBoard, QueensBoard};

use super::Generated;

/// The `#` lines reporting how a board was made.
pub fn report_lines<B>(kind: &str, width: usize, seed: u64, g: &Generated<B>) -> Vec<String> {
    vec![
        format!(
            "# generated {kind} width={width} seed={seed} board={}",
            g.index
        ),
        format!(
            "# attempts: {}  repairs: {}  search-nodes: {}  propagation-solves: {}",
            g.attempts,
            g.repairs,
            g.nodes,
            if g.propagation_solves { "yes" } else { "no" }
        ),
        format!(
            "# unique by: generator search ({} nodes), {}",
            g.nodes,
            g.checks
                .iter()
                .map(|c| format!("{} ({} nodes)", c.backend, c.nodes))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ]
}

fn solution_line(solution: &[usize]) -> String {
    let cols: Vec<String> = solution.iter().map(|c| c.to_string()).collect();
    format!("# solution: {}\n", cols.join(" "))
}

/// One hex board block: report lines, the hexagon, the solution line.
pub fn hex_block(width: usize, seed: u64, g: &Generated<HexBoard>) -> String {
    let mut out = report_lines("hex", width, seed, g).join("\n");
    out.push('\n');
    out.push_str(&write_hex(&g.board));
    out.push_str(&solution_line(&g.solution));
    out
}

/// One Queens block: report lines, the grid, the solution line.
pub fn queens_block(width: usize, seed: u64, g: &Generated<QueensBoard>) -> String {
    let mut out = report_lines("queens", width, seed, g).join("\n");
    out.push('\n');
    let mut board = g.board.clone();
    board.known_solution = Some(g.solution.clone());
    out.push_str(&write_queens(&board));
    out
}

/// A whole file: the blocks separated by blank lines.
pub fn file(blocks: &[String]) -> String {
    blocks.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate_hex, generate_queens, GenerateOptions};
    use crate::puzzle::parse::{parse_str, Format};
    use crate::puzzle::Puzzle;

    #[test]
    fn generated_files_read_back_to_the_same_boards() {
        let hex = generate_hex(&GenerateOptions::new(5, 2, 4)).unwrap();
        let text = file(&hex.iter().map(|g| hex_block(5, 4, g)).collect::<Vec<_>>());
        let back = parse_str(&text, Format::Hex, "gen.hex").unwrap();
        assert_eq!(back.len(), 2);
        for (g, p) in hex.iter().zip(&back) {
            assert_eq!(p, &Puzzle::Hex(g.board.clone()));
        }
        let queens = generate_queens(&GenerateOptions::new(6, 2, 4)).unwrap();
        let text = file(
            &queens
                .iter()
                .map(|g| queens_block(6, 4, g))
                .collect::<Vec<_>>(),
        );
        let back = parse_str(&text, Format::Queens, "gen.queens").unwrap();
        for (g, p) in queens.iter().zip(&back) {
            let Puzzle::Queens(q) = p else {
                panic!("not queens")
            };
            assert_eq!(q.regions(), g.board.regions());
            assert_eq!(q.known_solution.as_ref(), Some(&g.solution));
        }
    }
}
