//! The `.hex` file format: `n` lines of region letters (`A-Z`, `a-z`), whitespace ignored so a
//! board may be drawn as an indented hexagon; boards separated by blank lines; `#` comments; a
//! board all in `.` is the bare geometry. Costs: one pass over the block.

use crate::puzzle::grid::{region_letter, regions_of};
use crate::puzzle::parse::{Block, Locator, ParseError, ParseErrorKind};
use crate::puzzle::{HexBoard, Puzzle};

/// Reads block `p` of a `.hex` file as a board (the kind's [`Reader::Blocks`](crate::puzzle::kind::Reader::Blocks)).
pub(crate) fn read_block(block: &Block, p: usize, at: &Locator) -> Result<Puzzle, ParseError> {
    let rows = &block.rows;
    let n = rows.len();
    if n % 2 == 0 {
        let last = &rows[n - 1];
        return Err(at.error(
            Some(p),
            last.line,
            last.cells[0].0,
            ParseErrorKind::EvenWidth(n),
        ));
    }
    let geometry = HexBoard::geometry(n)
        .ok_or_else(|| at.error(Some(p), rows[0].line, 1, ParseErrorKind::EvenWidth(n)))?;
    for (r, row) in rows.iter().enumerate() {
        let expected = geometry.row_len(r);
        let found = row.cells.len();
        if found != expected {
            let column = if found > expected {
                row.cells[expected].0
            } else {
                row.end
            };
            return Err(at.error(
                Some(p),
                row.line,
                column,
                ParseErrorKind::HexRowLength {
                    row: r,
                    width: n,
                    expected,
                    found,
                },
            ));
        }
    }
    Ok(Puzzle::of(match regions_of(rows, n, p, at)? {
        None => geometry,
        Some(regions) => HexBoard::coloured(regions).unwrap_or(geometry),
    }))
}

/// A hex board as an indented hexagon drawing (one cell letter per position, cells separated by
/// a space, rows shifted by half a cell), which [`parse_str`](crate::puzzle::parse::parse_str) reads back to the same board.
/// Bare boards are drawn with `.`. Boards with more than 52 regions cannot be written.
pub fn write(board: &HexBoard) -> String {
    let n = board.width();
    let mut out = String::new();
    for r in 0..n {
        let len = board.row_len(r);
        out.push_str(&" ".repeat(n - len));
        let cells: Vec<String> = (0..len)
            .map(|k| {
                board
                    .regions()
                    .map_or('.', |regions| region_letter(regions[r][k]))
                    .to_string()
            })
            .collect();
        out.push_str(&cells.join(" "));
        out.push('\n');
    }
    out
}
