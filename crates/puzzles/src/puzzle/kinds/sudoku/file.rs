//! The Sudoku file format (`.sudoku`, or a `.txt` whose first line looks like one): one puzzle
//! per line, `n*n` cells (`n` = 4, 9, 16, 25): `1`-`9`, then letters `A`.. (either case) for
//! 16x16 and 25x25; `.` or `0` for an empty cell. Blank and `#` lines are skipped. Costs: one
//! pass over the line, with a digit mask per unit for the clash check.

use crate::puzzle::parse::{is_blank, Locator, ParseError, ParseErrorKind};
use crate::puzzle::{Puzzle, Sudoku};

/// The number of cells of the Sudoku lines read: 4x4, 9x9, 16x16, 25x25.
pub(crate) const SUDOKU_SIZES: [usize; 4] = [16, 81, 256, 625];

/// Whether `first` (a trimmed line) looks like a Sudoku line: 16, 81, 256 or 625 characters of
/// digits, letters or `.`, with at least one digit or `.`.
pub(crate) fn looks_like_sudoku(first: &str) -> bool {
    SUDOKU_SIZES.contains(&first.chars().count())
        && first.chars().all(|c| c.is_ascii_alphanumeric() || c == '.')
        && first.chars().any(|c| c.is_ascii_digit() || c == '.')
}

/// Reads line `line` of a Sudoku file as puzzle `p`; `None` for a blank or comment line.
pub(crate) fn read_line(
    raw: &str,
    line: usize,
    p: usize,
    at: &Locator,
) -> Result<Option<Puzzle>, ParseError> {
    let trimmed = raw.trim_matches(is_blank);
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(None);
    }
    let lead = raw.chars().take_while(|&c| is_blank(c)).count();
    let len = trimmed.chars().count();
    let Some(box_size) = SUDOKU_SIZES.iter().position(|&s| s == len).map(|i| i + 2) else {
        let nearest = *SUDOKU_SIZES
            .iter()
            .min_by_key(|&&s| s.abs_diff(len))
            .unwrap_or(&81);
        let column = lead + nearest.min(len) + 1;
        return Err(at.error(Some(p), line, column, ParseErrorKind::SudokuLength(len)));
    };
    let n = box_size * box_size;
    let mut cells = Vec::with_capacity(len);
    for (k, c) in trimmed.chars().enumerate() {
        cells.push(match c {
            '.' | '0' => None,
            _ => match super::digit_of(c, n) {
                Some(d) => Some(d),
                None => {
                    let expected = if n <= 9 {
                        format!("a digit 1-{n}, '.' or '0'")
                    } else {
                        format!(
                            "a digit 1-9, a letter A-{} (either case), '.' or '0'",
                            super::symbol(n - 1)
                        )
                    };
                    return Err(at.error(
                        Some(p),
                        line,
                        lead + k + 1,
                        ParseErrorKind::UnknownChar { expected, found: c },
                    ));
                }
            },
        });
    }
    check_clues(&cells, box_size, trimmed, line, lead, p, at)?;
    let grid = Sudoku::from_cells(box_size, cells).unwrap_or_else(|| Sudoku::empty(box_size));
    Ok(Some(Puzzle::of(grid)))
}

/// Refuses a clue repeating a digit in its row, column or box, pointing at the second clue of
/// the first clashing pair in reading order. Costs one pass with a digit mask per unit (`3 n`
/// words); the first clue of a clash is looked up only when there is one.
fn check_clues(
    cells: &[Option<usize>],
    box_size: usize,
    text: &str,
    line: usize,
    lead: usize,
    p: usize,
    at: &Locator,
) -> Result<(), ParseError> {
    let n = box_size * box_size;
    let unit_of = |k: usize| {
        let (r, c) = (k / n, k % n);
        [r, n + c, 2 * n + (r / box_size) * box_size + c / box_size]
    };
    // Per unit (row, n + column, 2n + box): the digits already given in it.
    let mut seen = vec![0u32; 3 * n];
    for (k, cell) in cells.iter().enumerate() {
        let Some(d) = *cell else { continue };
        let units = unit_of(k);
        for (which, &u) in units.iter().enumerate() {
            if seen[u] & (1 << d) != 0 {
                let prev = (0..k)
                    .find(|&j| cells[j] == Some(d) && unit_of(j)[which] == u)
                    .unwrap_or(k);
                return Err(at.error(
                    Some(p),
                    line,
                    lead + k + 1,
                    ParseErrorKind::ClashingClue {
                        symbol: text.chars().nth(k).unwrap_or('?'),
                        unit: ["row", "column", "box"][which],
                        first_row: prev / n,
                        first_col: prev % n,
                    },
                ));
            }
        }
        for u in units {
            seen[u] |= 1 << d;
        }
    }
    Ok(())
}
