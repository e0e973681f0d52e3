//! The `.killer` file format. A puzzle is a block of lines: `n` lines of `n` cage symbols
//! (`A-Z`, `a-z`, `0-9`; whitespace ignored; `n` = 4, 9, 16 or 25), then one line per cage,
//! `SYMBOL SUM`. Puzzles are separated by blank lines; lines starting with `#` are comments.
//!
//! ```text
//! # a 4x4 Killer Sudoku
//! AABB
//! CCDD
//! EEFF
//! GGHH
//! A 3
//! B 7
//! ...
//! ```
//!
//! Checked when read, each a located error (file, puzzle, line, column, what was expected): a
//! character that is no cage symbol, a grid row of the wrong length, a sum line that is not
//! `SYMBOL SUM`, a sum line for a symbol not in the grid or a second one for the same cage, a
//! cage without a sum line, a cage whose cells are not connected side by side (a symbol names
//! one cage), a cage of more than `n` cells, a sum its cells cannot make with distinct digits,
//! and sums that do not total `n * n(n+1)/2` (every row holds each digit once).
//!
//! Cages are numbered in reading order of their first cell; [`write()`] names cage `i` by the
//! `i`-th symbol, so [`read_str`] gives back the same board. Costs: one pass over the text.

use super::{cage_symbol, first_apart, sum_range, KillerBoard, MAX_CAGES};
use crate::puzzle::parse::{blocks, Block, GridLine, Locator, ParseError, ParseErrorKind};

/// Reads every Killer Sudoku of `text`; `file` names it in errors.
pub fn read_str(text: &str, file: &str) -> Result<Vec<KillerBoard>, ParseError> {
    let at = Locator { file };
    let boards = blocks(text)
        .iter()
        .enumerate()
        .map(|(p, b)| read_block(b, p, &at))
        .collect::<Result<Vec<_>, _>>()?;
    if boards.is_empty() {
        return Err(at.error(None, 1, 1, ParseErrorKind::NoPuzzle("Killer Sudoku")));
    }
    Ok(boards)
}

/// A located "expected ..., found ..." error.
fn bad(
    at: &Locator,
    p: usize,
    line: usize,
    column: usize,
    expected: String,
    found: String,
) -> ParseError {
    at.error(
        Some(p),
        line,
        column,
        ParseErrorKind::Invalid { expected, found },
    )
}

/// Reads block `p` as a Killer Sudoku.
pub(crate) fn read_block(block: &Block, p: usize, at: &Locator) -> Result<KillerBoard, ParseError> {
    let rows = &block.rows;
    let n = rows[0].cells.len();
    let Some(box_size) = [4, 9, 16, 25].iter().position(|&s| s == n).map(|i| i + 2) else {
        return Err(bad(
            at,
            p,
            rows[0].line,
            rows[0].cells[0].0,
            "a first grid row of 4, 9, 16 or 25 cage symbols".into(),
            format!("{n} characters"),
        ));
    };
    let grid = read_grid(rows, n, p, at)?;
    let sum_lines = read_sum_lines(&rows[n..], &grid, n, p, at)?;
    // Cage labels: the index of each symbol in SYMBOLS.
    let label = |ch: char| cage_label(ch).unwrap_or(0);
    let mut cells_of: Vec<Vec<usize>> = vec![Vec::new(); MAX_CAGES];
    for (cell, &(_, _, ch)) in grid.iter().enumerate() {
        cells_of[label(ch)].push(cell);
    }
    let mut sums = vec![0u64; MAX_CAGES];
    for (cell, &(line, column, ch)) in grid.iter().enumerate() {
        let cells = &cells_of[label(ch)];
        if cells[0] != cell {
            continue;
        }
        let Some(s) = sum_lines.iter().find(|s| s.symbol == ch) else {
            return Err(bad(
                at,
                p,
                line,
                column,
                format!("a sum line '{ch} SUM' for cage '{ch}'"),
                "none".into(),
            ));
        };
        if let Some(apart) = first_apart(n, cells) {
            let (line, column, _) = grid[apart];
            return Err(bad(
                at,
                p,
                line,
                column,
                format!(
                    "the cells of cage '{ch}' connected side by side (a symbol names one cage)"
                ),
                "a cell apart from the others".into(),
            ));
        }
        let Some((lo, hi)) = sum_range(cells.len(), n) else {
            return Err(bad(
                at,
                p,
                line,
                column,
                format!("a cage of at most {n} cells (its digits differ)"),
                format!("{} cells in cage '{ch}'", cells.len()),
            ));
        };
        if !(lo..=hi).contains(&s.sum) {
            return Err(bad(
                at,
                p,
                s.line,
                s.sum_column,
                format!(
                    "a sum from {lo} to {hi} for cage '{ch}' of {} cells (distinct digits 1-{n})",
                    cells.len()
                ),
                s.sum.to_string(),
            ));
        }
        sums[label(ch)] = s.sum;
    }
    let total: u64 = sum_lines.iter().map(|s| s.sum).sum();
    let want = (n * n * (n + 1) / 2) as u64;
    if total != want {
        let first = &sum_lines[0];
        return Err(bad(
            at,
            p,
            first.line,
            1,
            format!("cage sums totalling {want} (each row holds every digit 1-{n} once)"),
            format!("a total of {total}"),
        ));
    }
    let cage_of: Vec<usize> = grid.iter().map(|&(_, _, ch)| label(ch)).collect();
    KillerBoard::new(box_size, &cage_of, &sums).map_err(|e| {
        bad(
            at,
            p,
            rows[0].line,
            1,
            "a consistent Killer Sudoku".into(),
            e,
        )
    })
}

/// The index of `ch` in the cage symbols.
fn cage_label(ch: char) -> Option<usize> {
    super::SYMBOLS
        .find(ch)
        .filter(|_| ch.is_ascii_alphanumeric())
}

/// The first `n` rows as `(line, column, symbol)` per cell, row-major.
fn read_grid(
    rows: &[GridLine],
    n: usize,
    p: usize,
    at: &Locator,
) -> Result<Vec<(usize, usize, char)>, ParseError> {
    if rows.len() < n {
        let last = &rows[rows.len() - 1];
        return Err(bad(
            at,
            p,
            last.line,
            last.end,
            format!("{n} grid rows of cage symbols, then the sum lines"),
            format!("{} rows", rows.len()),
        ));
    }
    let mut grid = Vec::with_capacity(n * n);
    for (r, row) in rows[..n].iter().enumerate() {
        for &(col, ch) in &row.cells {
            if cage_label(ch).is_none() {
                return Err(at.error(
                    Some(p),
                    row.line,
                    col,
                    ParseErrorKind::UnknownChar {
                        expected: "a cage symbol (A-Z, a-z, 0-9)".into(),
                        found: ch,
                    },
                ));
            }
        }
        let found = row.cells.len();
        if found != n {
            let column = if found > n { row.cells[n].0 } else { row.end };
            return Err(bad(
                at,
                p,
                row.line,
                column,
                format!("{n} cage symbols in row {r} of a {n}x{n} grid"),
                found.to_string(),
            ));
        }
        grid.extend(row.cells.iter().map(|&(col, ch)| (row.line, col, ch)));
    }
    Ok(grid)
}

/// One `SYMBOL SUM` line.
struct SumLine {
    line: usize,
    symbol: char,
    sum: u64,
    sum_column: usize,
}

/// The words of a row: runs of adjacent characters, with the column of each run.
fn words(row: &GridLine) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut last = 0;
    for &(col, ch) in &row.cells {
        match out.last_mut() {
            Some((_, w)) if col == last + 1 => w.push(ch),
            _ => out.push((col, ch.to_string())),
        }
        last = col;
    }
    out
}

/// Reads the sum lines after the grid: one per cage, for symbols of the grid.
fn read_sum_lines(
    rows: &[GridLine],
    grid: &[(usize, usize, char)],
    n: usize,
    p: usize,
    at: &Locator,
) -> Result<Vec<SumLine>, ParseError> {
    if rows.is_empty() {
        let (line, _, _) = grid[grid.len() - 1];
        return Err(bad(
            at,
            p,
            line + 1,
            1,
            "a sum line 'SYMBOL SUM' per cage after the grid".into(),
            "none".into(),
        ));
    }
    let mut out: Vec<SumLine> = Vec::new();
    for row in rows {
        let words = words(row);
        let expected =
            || "a sum line 'SYMBOL SUM' (a cage symbol of the grid and a whole number)".to_string();
        let (sym_col, symbol) = &words[0];
        let mut chars = symbol.chars();
        let ch = chars.next().unwrap_or(' ');
        if chars.next().is_some() || cage_label(ch).is_none() {
            return Err(bad(
                at,
                p,
                row.line,
                *sym_col,
                expected(),
                format!("'{symbol}'"),
            ));
        }
        if !grid.iter().any(|&(_, _, g)| g == ch) {
            return Err(bad(
                at,
                p,
                row.line,
                *sym_col,
                format!("the symbol of a cage of the {n}x{n} grid"),
                format!("'{ch}', which is in no cell"),
            ));
        }
        if let Some(first) = out.iter().find(|s| s.symbol == ch) {
            return Err(bad(
                at,
                p,
                row.line,
                *sym_col,
                format!(
                    "one sum line per cage ('{ch}' has one at line {})",
                    first.line
                ),
                "a second".into(),
            ));
        }
        let Some((sum_col, sum)) = words.get(1) else {
            return Err(bad(at, p, row.line, row.end, expected(), "no sum".into()));
        };
        let Ok(value) = sum.parse::<u64>() else {
            return Err(bad(
                at,
                p,
                row.line,
                *sum_col,
                expected(),
                format!("'{sum}'"),
            ));
        };
        if let Some((col, extra)) = words.get(2) {
            return Err(bad(
                at,
                p,
                row.line,
                *col,
                "nothing after the sum".into(),
                format!("'{extra}'"),
            ));
        }
        out.push(SumLine {
            line: row.line,
            symbol: ch,
            sum: value,
            sum_column: *sum_col,
        });
    }
    Ok(out)
}

/// A Killer Sudoku as its file block: the grid of cage symbols, then `SYMBOL SUM` per cage.
pub fn write(board: &KillerBoard) -> String {
    let n = board.size();
    let mut out = String::new();
    for row in board.cage_of().chunks(n) {
        out.extend(row.iter().map(|&g| cage_symbol(g)));
        out.push('\n');
    }
    for (g, sum) in board.sums().iter().enumerate() {
        out.push_str(&format!("{} {sum}\n", cage_symbol(g)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const FOUR: &str = "\
# a 4x4 Killer Sudoku
AABB
CCDD
EEFF
GGHH
A 3
B 7
C 7
D 3
E 3
F 7
G 7
H 3
";

    fn err(text: &str) -> ParseError {
        read_str(text, "t.killer").unwrap_err()
    }

    #[test]
    fn reads_writes_and_reads_back() {
        let boards = read_str(&format!("{FOUR}\n{FOUR}"), "t.killer").unwrap();
        assert_eq!(boards.len(), 2);
        let b = &boards[0];
        assert_eq!((b.size(), b.sums().len()), (4, 8));
        assert_eq!(b.cages()[1], vec![2, 3]);
        assert_eq!(&read_str(&write(b), "w.killer").unwrap()[0], b);
        // Symbols name cages; other letters and whitespace give the same board.
        let spaced = FOUR.replace("AABB", "x x B B").replace("A 3", "x   3");
        assert_eq!(&read_str(&spaced, "s.killer").unwrap()[0], b);
    }

    #[test]
    fn errors_are_located() {
        let e = err(&FOUR.replace("A 3\n", ""));
        assert_eq!((e.line, e.column), (2, 1), "{e}");
        assert!(e.to_string().contains("a sum line 'A SUM'"), "{e}");
        let e = err(&FOUR.replace("H 3", "H 3\nZ 4"));
        assert_eq!((e.line, e.column), (14, 1), "{e}");
        assert!(e.to_string().contains("in no cell"), "{e}");
        let e = err(&FOUR.replace("H 3", "H 3\nA 4"));
        assert!(e.to_string().contains("line 6"), "{e}");
        let e = err(&FOUR.replace("B 7", "B 8"));
        assert_eq!((e.line, e.column), (7, 3), "{e}");
        assert!(e.to_string().contains("a sum from 3 to 7"), "{e}");
        let e = err(&FOUR.replace("B 7", "B x"));
        assert_eq!((e.line, e.column), (7, 3), "{e}");
        let e = err(&FOUR.replace("B 7", "B 7 9"));
        assert_eq!((e.line, e.column), (7, 5), "{e}");
        let e = err(&FOUR.replace("B 7", "B"));
        assert!(e.to_string().contains("no sum"), "{e}");
        let e = err(&FOUR.replace("CCDD", "CC.D"));
        assert_eq!((e.line, e.column), (3, 3), "{e}");
        let e = err(&FOUR.replace("CCDD", "CCD"));
        assert_eq!((e.line, e.column), (3, 4), "{e}");
        let e = err("AAB\nAAB\nCCB\nA 3\n");
        assert_eq!((e.line, e.column), (1, 1), "{e}");
        // Cage A split in two: cells apart.
        let e = err(&FOUR
            .replace("GGHH", "AGHH")
            .replace("G 7", "G 4")
            .replace("A 3", "A 7"));
        assert_eq!((e.line, e.column), (5, 1), "{e}");
        assert!(e.to_string().contains("connected"), "{e}");
        // In range for each cage, but not totalling 40.
        let e = err(&FOUR.replace("A 3", "A 4"));
        assert!(e.to_string().contains("totalling 40"), "{e}");
        let e = err("# nothing\n");
        assert!(e.to_string().contains("at least one Killer Sudoku"), "{e}");
        let e = err("AABB\nCCDD\n");
        assert_eq!((e.line, e.column), (2, 5), "{e}");
    }
}
