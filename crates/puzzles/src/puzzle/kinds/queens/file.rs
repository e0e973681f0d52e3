//! The `.queens` file format: `n` lines of `n` region letters, blocks separated by blank lines,
//! `#` comments; a comment `# solution: c0 c1 ...` (or `# solution-computed: ...`) gives the
//! known solution, checked against the rules when read; an all-`.` grid has no regions.
//! Costs: one pass over the block; the solution check builds the board's model once.

use crate::model::verify::Verifier;
use crate::model::Solution;
use crate::puzzle::grid::{region_letter, regions_of};
use crate::puzzle::parse::{is_blank, Block, Locator, ParseError, ParseErrorKind};
use crate::puzzle::{Puzzle, QueensBoard};

/// Reads block `p` of a `.queens` file as a grid, with its `# solution:` comment if any.
pub(crate) fn read_block(block: &Block, p: usize, at: &Locator) -> Result<Puzzle, ParseError> {
    let rows = &block.rows;
    let n = rows.len();
    for (r, row) in rows.iter().enumerate() {
        let found = row.cells.len();
        if found != n {
            let column = if found > n { row.cells[n].0 } else { row.end };
            return Err(at.error(
                Some(p),
                row.line,
                column,
                ParseErrorKind::QueensRowLength {
                    row: r,
                    size: n,
                    found,
                },
            ));
        }
    }
    let mut board = match regions_of(rows, n, p, at)? {
        None => QueensBoard::bare(n),
        Some(regions) => QueensBoard::with_regions(regions).unwrap_or_else(|| QueensBoard::bare(n)),
    };
    for (line, comment) in &block.comments {
        let body = comment.trim_start_matches('#').trim_start_matches(is_blank);
        let rest = body
            .strip_prefix("solution-computed:")
            .or_else(|| body.strip_prefix("solution:"));
        if let Some(rest) = rest {
            // Column of `rest` within the original line, for pointing at tokens.
            let offset = comment.chars().count() - rest.chars().count();
            board.known_solution = Some(parse_solution(&board, rest, *line, offset, p, at)?);
            break;
        }
    }
    Ok(Puzzle::of(board))
}

/// Reads the columns of a `# solution:` line and checks them against the board's rules.
/// `offset` is the number of characters of the (trimmed) comment before `rest`.
fn parse_solution(
    board: &QueensBoard,
    rest: &str,
    line: usize,
    offset: usize,
    p: usize,
    at: &Locator,
) -> Result<Vec<usize>, ParseError> {
    let n = board.size();
    let bad = |column: usize, expected: String, found: String| {
        at.error(
            Some(p),
            line,
            column,
            ParseErrorKind::BadSolution { expected, found },
        )
    };
    let mut cols = Vec::new();
    let mut chars = rest.char_indices().peekable();
    // Split on whitespace, keeping each token's character column.
    let mut tokens: Vec<(usize, String)> = Vec::new();
    while let Some(&(i, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let start_col = offset + rest[..i].chars().count() + 1;
        let mut token = String::new();
        while let Some(&(_, c)) = chars.peek() {
            if c.is_whitespace() {
                break;
            }
            token.push(c);
            chars.next();
        }
        tokens.push((start_col, token));
    }
    let end = offset + rest.chars().count() + 1;
    for (col, token) in &tokens {
        match token.parse::<usize>() {
            Ok(c) if c < n => cols.push(c),
            _ => {
                return Err(bad(
                    *col,
                    format!("a column number from 0 to {}", n.saturating_sub(1)),
                    format!("'{token}'"),
                ))
            }
        }
    }
    if cols.len() != n {
        let column = tokens.get(n).map_or(end, |t| t.0);
        return Err(bad(
            column,
            format!("{n} columns (one per row)"),
            format!("{}", cols.len()),
        ));
    }
    let model = board.to_model("solution check");
    let solution = Solution::new(cols.iter().enumerate().map(|(r, &c)| r * n + c).collect());
    if let Err(v) = Verifier::new(&model).check(&solution) {
        return Err(bad(
            offset + 1,
            "a placement that keeps the rules".into(),
            format!("one that breaks them: {v}"),
        ));
    }
    Ok(cols)
}

/// A Queens grid as `n` lines of region letters (`.` when bare), followed by a
/// `# solution: ...` line when the solution is known; [`parse_str`](crate::puzzle::parse::parse_str) reads it back.
pub fn write(board: &QueensBoard) -> String {
    let n = board.size();
    let mut out = String::new();
    for r in 0..n {
        for c in 0..n {
            out.push(
                board
                    .regions()
                    .map_or('.', |regions| region_letter(regions[r][c])),
            );
        }
        out.push('\n');
    }
    if let Some(sol) = &board.known_solution {
        let cols: Vec<String> = sol.iter().map(|c| c.to_string()).collect();
        out.push_str(&format!("# solution: {}\n", cols.join(" ")));
    }
    out
}
