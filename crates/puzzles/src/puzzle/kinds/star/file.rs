//! The `.star` file format: the `.queens` layout (`n` lines of `n` region letters `A-Z`,
//! `a-z`, whitespace ignored; an all-`.` grid has no regions; puzzles separated by blank lines;
//! lines starting with `#` are comments) plus, inside a block, two comment settings:
//!
//! - `# stars: k`: stars per row, column and region (default 1, so every Queens level reads as
//!   a 1-star Star Battle); `1 <= k` and `2k - 1 <= n` (a row must hold `k` stars apart).
//! - `# solution: c,c c,c ...` (or `# solution-computed: ...`): the `k` columns (0-based) of the
//!   stars of each row, one comma-separated group per row. Checked against the rules when read.
//!
//! ```text
//! # stars: 2
//! AABBB
//! ...
//! # solution: 1,3 5,8 ...
//! ```
//!
//! Region letters become region indices in letter order (`A` < `Z` < `a` < `z`), so [`write()`]
//! followed by [`read_str`] gives the same board. Errors name the file, the puzzle, the line
//! and the column, and say what was expected. Costs: one pass over the text; a solution line is
//! checked on the board's model once.

use super::StarBoard;
use crate::puzzle::grid::{region_letter, regions_of};
use crate::puzzle::parse::{blocks, is_blank, Block, Locator, ParseError, ParseErrorKind};

/// The value of comment setting `key` (`stars`, `solution`) of a trimmed comment, with the
/// column (1-based, within the trimmed comment) where the value starts.
pub(crate) fn setting<'a>(comment: &'a str, key: &str) -> Option<(&'a str, usize)> {
    let body = comment.trim_start_matches('#').trim_start_matches(is_blank);
    let rest = body.strip_prefix(key)?.strip_prefix(':')?;
    Some((rest, comment.chars().count() - rest.chars().count() + 1))
}

/// The whitespace-separated tokens of `text` with their columns, `first` being the column of
/// `text`'s first character.
pub(crate) fn tokens(text: &str, first: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte, column)
    for (k, (i, c)) in text.char_indices().enumerate() {
        match (is_blank(c), start) {
            (true, Some((b, col))) => {
                out.push((col, &text[b..i]));
                start = None;
            }
            (false, None) => start = Some((i, first + k)),
            _ => {}
        }
    }
    if let Some((b, col)) = start {
        out.push((col, &text[b..]));
    }
    out
}

/// Reads every Star Battle grid of `text`; `file` names it in errors.
pub fn read_str(text: &str, file: &str) -> Result<Vec<StarBoard>, ParseError> {
    let at = Locator { file };
    let boards = blocks(text)
        .iter()
        .enumerate()
        .map(|(p, b)| read_block(b, p, &at))
        .collect::<Result<Vec<_>, _>>()?;
    if boards.is_empty() {
        return Err(at.error(None, 1, 1, ParseErrorKind::NoPuzzle("Star Battle grid")));
    }
    Ok(boards)
}

/// Reads block `p` as a Star Battle grid with its `# stars:` and `# solution:` settings.
pub(crate) fn read_block(block: &Block, p: usize, at: &Locator) -> Result<StarBoard, ParseError> {
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
                ParseErrorKind::Invalid {
                    expected: format!("{n} cells in row {r} of a {n}x{n} Star Battle grid"),
                    found: found.to_string(),
                },
            ));
        }
    }
    let stars = read_stars(block, n, p, at)?;
    let mut board = match regions_of(rows, n, p, at)? {
        None => StarBoard::bare(n, stars),
        Some(regions) => {
            StarBoard::with_regions(regions, stars).unwrap_or_else(|| StarBoard::bare(n, stars))
        }
    };
    for (line, comment) in &block.comments {
        let found = setting(comment, "solution-computed").or_else(|| setting(comment, "solution"));
        if let Some((rest, column)) = found {
            board.known_solution = Some(read_solution(&board, rest, *line, column, p, at)?);
            break;
        }
    }
    Ok(board)
}

/// The block's `# stars: k` (1 without one); a second `# stars:` line is refused.
fn read_stars(block: &Block, n: usize, p: usize, at: &Locator) -> Result<usize, ParseError> {
    let mut settings = block
        .comments
        .iter()
        .filter_map(|(line, c)| setting(c, "stars").map(|(rest, col)| (*line, rest, col)));
    let Some((line, rest, column)) = settings.next() else {
        return Ok(1);
    };
    if let Some((second, _, col)) = settings.next() {
        return Err(at.error(
            Some(p),
            second,
            col,
            ParseErrorKind::Invalid {
                expected: "one '# stars:' line per grid".into(),
                found: format!("a second one (the first is on line {line})"),
            },
        ));
    }
    let toks = tokens(rest, column);
    let bad = |column: usize, found: String| {
        at.error(
            Some(p),
            line,
            column,
            ParseErrorKind::Invalid {
                expected: format!(
                    "one number of stars per row from 1 to {} (k stars of a row of {n} cells \
                     cannot touch, so 2k - 1 <= {n})",
                    n.div_ceil(2)
                ),
                found,
            },
        )
    };
    match toks.as_slice() {
        [(col, tok)] => match tok.parse::<usize>() {
            Ok(k) if k >= 1 && 2 * k <= n + 1 => Ok(k),
            _ => Err(bad(*col, format!("'{tok}'"))),
        },
        [] => Err(bad(column + rest.chars().count(), "nothing".into())),
        [_, (col, tok), ..] => Err(bad(*col, format!("a second value '{tok}'"))),
    }
}

/// Reads the star columns of a `# solution:` value and checks them against the rules.
fn read_solution(
    board: &StarBoard,
    rest: &str,
    line: usize,
    column: usize,
    p: usize,
    at: &Locator,
) -> Result<Vec<Vec<usize>>, ParseError> {
    let (n, k) = (board.size(), board.stars());
    let bad = |column: usize, expected: String, found: String| {
        at.error(
            Some(p),
            line,
            column,
            ParseErrorKind::BadSolution { expected, found },
        )
    };
    let toks = tokens(rest, column);
    let mut rows = Vec::with_capacity(n);
    for &(col, tok) in &toks {
        let cols: Option<Vec<usize>> = tok
            .split(',')
            .map(|c| c.parse::<usize>().ok().filter(|&c| c < n))
            .collect();
        match cols {
            Some(mut cols) if cols.len() == k => {
                cols.sort_unstable();
                rows.push(cols);
            }
            _ => {
                return Err(bad(
                    col,
                    format!(
                        "{k} comma-separated column numbers from 0 to {} for one row",
                        n.saturating_sub(1)
                    ),
                    format!("'{tok}'"),
                ))
            }
        }
    }
    if rows.len() != n {
        let col = toks.get(n).map_or(column + rest.chars().count(), |t| t.0);
        return Err(bad(
            col,
            format!("{n} groups of star columns (one per row)"),
            rows.len().to_string(),
        ));
    }
    board.check(&rows).map_err(|v| {
        bad(
            toks.first().map_or(column, |t| t.0),
            "a placement that keeps the rules".into(),
            format!("one that breaks them: {v}"),
        )
    })?;
    Ok(rows)
}

/// A Star Battle grid as `n` lines of region letters (`.` when bare), preceded by
/// `# stars: k` when `k > 1` and followed by `# solution: ...` when the solution is known;
/// [`read_str`] reads it back to the same board. Boards of more than 52 regions cannot be
/// written.
pub fn write(board: &StarBoard) -> String {
    let n = board.size();
    let mut out = String::new();
    if board.stars() != 1 {
        out.push_str(&format!("# stars: {}\n", board.stars()));
    }
    for r in 0..n {
        for c in 0..n {
            out.push(board.regions().map_or('.', |g| region_letter(g[r][c])));
        }
        out.push('\n');
    }
    if let Some(sol) = &board.known_solution {
        out.push_str(&solution_line(sol));
    }
    out
}

/// `# solution: c,c c,c ...` for the star columns of each row.
pub fn solution_line(columns: &[Vec<usize>]) -> String {
    let groups: Vec<String> = columns
        .iter()
        .map(|cols| {
            cols.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    format!("# solution: {}\n", groups.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIX: &str = "\
# stars: 1
AABBCC
AABBCC
DDEEFF
DDEEFF
DDEEFF
DDEEFF
";

    fn err(text: &str) -> ParseError {
        read_str(text, "t.star").unwrap_err()
    }

    #[test]
    fn reads_settings_and_round_trips() {
        let text = "# a comment\n# stars: 2\n.....\n.....\n.....\n.....\n.....\n\nAB\nBA\n";
        let boards = read_str(text, "t.star").unwrap();
        assert_eq!(boards.len(), 2);
        assert_eq!((boards[0].size(), boards[0].stars()), (5, 2));
        assert!(boards[0].regions().is_none());
        assert_eq!(boards[1].stars(), 1);
        assert_eq!(boards[1].regions().unwrap(), &[vec![0, 1], vec![1, 0]]);
        for b in &boards {
            assert_eq!(&read_str(&write(b), "w.star").unwrap()[0], b);
        }
        let six = &read_str(SIX, "t.star").unwrap()[0];
        assert_eq!(six.regions().unwrap()[5], vec![3, 3, 4, 4, 5, 5]);
    }

    #[test]
    fn solution_line_is_read_and_written() {
        // A valid 1-star 4x4 placement; regions = rows.
        let text = "AAAA\nBBBB\nCCCC\nDDDD\n# solution: 1 3 0 2\n";
        let b = &read_str(text, "t.star").unwrap()[0];
        assert_eq!(
            b.known_solution.as_deref(),
            Some(&[vec![1], vec![3], vec![0], vec![2]][..])
        );
        assert_eq!(&read_str(&write(b), "w.star").unwrap()[0], b);
        let bad = err("AAAA\nBBBB\nCCCC\nDDDD\n# solution: 0 1 3 2\n");
        assert_eq!((bad.line, bad.column), (5, 13), "{bad}");
        assert!(bad.to_string().contains("breaks them"), "{bad}");
        let bad = err("AAAA\nBBBB\nCCCC\nDDDD\n# solution: 1 3 0,1 2\n");
        assert_eq!((bad.line, bad.column), (5, 17), "{bad}");
        let bad = err("AAAA\nBBBB\nCCCC\nDDDD\n# solution: 1 3 0\n");
        assert!(bad.to_string().contains("4 groups"), "{bad}");
    }

    #[test]
    fn errors_are_located() {
        let e = err("\n\nAAB\nAB\nBBC\n");
        assert_eq!((e.file.as_str(), e.line, e.column), ("t.star", 4, 3), "{e}");
        assert!(e.to_string().contains("3 cells in row 1"), "{e}");
        let e = err("AB1\nABC\nCCC\n");
        assert_eq!((e.line, e.column), (1, 3), "{e}");
        let e = err("ABC\nABD\nCCC\n");
        assert_eq!((e.line, e.column), (2, 3), "{e}");
        assert!(e.to_string().contains("expected 3 colour regions"), "{e}");
        let e = err("# stars: 3\nABC\nABC\nABC\n");
        assert_eq!((e.line, e.column), (1, 10), "{e}");
        let e = err("# stars: x\nAB\nBA\n");
        assert!(e.to_string().contains("found 'x'"), "{e}");
        let e = err("# stars: 1 2\nAB\nBA\n");
        assert_eq!(e.column, 12, "{e}");
        let e = err("# only comments\n");
        assert!(
            e.to_string()
                .contains("expected at least one Star Battle grid"),
            "{e}"
        );
        let e = err("AB\n.A\n");
        assert_eq!((e.line, e.column), (2, 1), "{e}");
    }

    #[test]
    fn tokens_keep_their_columns() {
        assert_eq!(tokens(" a bb  c", 5), vec![(6, "a"), (8, "bb"), (12, "c")]);
        assert_eq!(setting("# stars: 2", "stars"), Some((" 2", 9)));
        assert_eq!(setting("#stars 2", "stars"), None);
    }
}
