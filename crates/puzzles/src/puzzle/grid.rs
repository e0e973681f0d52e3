//! Helpers shared by the kinds drawn as boards of lettered regions (hex, Queens): region
//! letters, reading a block of letters into regions, drawing a board from its model, and the
//! placements of an answer.
//!
//! Costs: linear in the cells.

use crate::model::{Coord, Model, Solution};
use crate::puzzle::parse::{GridLine, Locator, ParseError, ParseErrorKind};

/// The letter of colour region `i` as files write it: `A`-`Z`, then `a`-`z`, then `?`.
pub fn region_letter(i: usize) -> char {
    match i {
        0..=25 => (b'A' + i as u8) as char,
        26..=51 => (b'a' + (i - 26) as u8) as char,
        _ => '?',
    }
}

/// For each variable, the index of the row of family `family` holding it (its region).
fn region_of(model: &Model, family: &str) -> Option<Vec<Option<usize>>> {
    let f = model.family_id(family)?;
    let mut region = vec![None; model.num_variables()];
    for c in model.family_rows(f) {
        for &v in &c.vars {
            region[v] = Some(c.index);
        }
    }
    Some(region)
}

/// Draws a board of cells from its model: region letters of the rows of family
/// `region_family` (`.` without regions), `*` for a piece of `solution`; `n` rows, as an
/// indented hexagon when `hex`, else as a square grid. Cost: linear in the model.
pub fn draw_cells(
    model: &Model,
    solution: Option<&Solution>,
    n: usize,
    region_family: &str,
    hex: bool,
) -> String {
    let region = region_of(model, region_family);
    let on = solution.map(|s| s.to_bools(model.num_variables()));
    let mut rows: Vec<Vec<char>> = vec![Vec::new(); n];
    for (v, var) in model.variables().iter().enumerate() {
        if let Coord::Cell { row, col } = var.coord {
            if row < n {
                if rows[row].len() <= col {
                    rows[row].resize(col + 1, ' ');
                }
                let piece = on.as_ref().is_some_and(|o| o[v]);
                rows[row][col] = if piece {
                    '*'
                } else {
                    region
                        .as_ref()
                        .and_then(|r| r[v])
                        .map_or('.', region_letter)
                };
            }
        }
    }
    let mut out = String::new();
    for row in &rows {
        if hex {
            out.push_str(&" ".repeat(n.saturating_sub(row.len())));
            let cells: Vec<String> = row.iter().map(|c| c.to_string()).collect();
            out.push_str(&cells.join(" "));
        } else {
            out.extend(row.iter());
        }
        out.push('\n');
    }
    out
}

/// The positions of the ones of `solution` as `[row, position-in-row]` pairs (variables at a
/// [`Coord::Cell`]; others are skipped).
pub fn cell_placements(model: &Model, solution: &Solution) -> Vec<[usize; 2]> {
    solution
        .ones
        .iter()
        .filter_map(|&v| match model.variables().get(v)?.coord {
            Coord::Cell { row, col } => Some([row, col]),
            _ => None,
        })
        .collect()
}

/// Cells of a grid block as region indices (`None` for a bare grid), after checking the
/// characters, that `.` and letters are not mixed, and that there are `n` regions.
pub(crate) fn regions_of(
    rows: &[GridLine],
    n: usize,
    puzzle: usize,
    at: &Locator,
) -> Result<Option<Vec<Vec<usize>>>, ParseError> {
    let first = rows[0].cells[0].1;
    for row in rows {
        for &(col, c) in &row.cells {
            if !(c.is_ascii_alphabetic() || c == '.') {
                return Err(at.error(
                    Some(puzzle),
                    row.line,
                    col,
                    ParseErrorKind::UnknownChar {
                        expected: "a region letter (A-Z, a-z) or '.'".into(),
                        found: c,
                    },
                ));
            }
            if (c == '.') != (first == '.') {
                return Err(at.error(
                    Some(puzzle),
                    row.line,
                    col,
                    ParseErrorKind::MixedBlank { first, found: c },
                ));
            }
        }
    }
    if first == '.' {
        return Ok(None);
    }
    // Letters in reading order of first appearance, to point at the first extra one.
    let mut seen: Vec<char> = Vec::new();
    for row in rows {
        for &(col, c) in &row.cells {
            if !seen.contains(&c) {
                seen.push(c);
                if seen.len() > n {
                    let mut letters = seen.clone();
                    letters.sort_unstable();
                    return Err(at.error(
                        Some(puzzle),
                        row.line,
                        col,
                        ParseErrorKind::RegionCount {
                            expected: n,
                            found: count_letters(rows),
                            letters: letters_text(rows),
                        },
                    ));
                }
            }
        }
    }
    if seen.len() < n {
        return Err(at.error(
            Some(puzzle),
            rows[0].line,
            rows[0].cells[0].0,
            ParseErrorKind::RegionCount {
                expected: n,
                found: seen.len(),
                letters: letters_text(rows),
            },
        ));
    }
    seen.sort_unstable();
    Ok(Some(
        rows.iter()
            .map(|row| {
                row.cells
                    .iter()
                    .map(|&(_, c)| seen.binary_search(&c).unwrap_or(0))
                    .collect()
            })
            .collect(),
    ))
}

fn sorted_letters(rows: &[GridLine]) -> Vec<char> {
    let mut letters: Vec<char> = rows
        .iter()
        .flat_map(|r| r.cells.iter().map(|&(_, c)| c))
        .collect();
    letters.sort_unstable();
    letters.dedup();
    letters
}

fn count_letters(rows: &[GridLine]) -> usize {
    sorted_letters(rows).len()
}

fn letters_text(rows: &[GridLine]) -> String {
    sorted_letters(rows).into_iter().collect()
}
