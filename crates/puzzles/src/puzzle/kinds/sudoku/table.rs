//! The Sudoku table: candidate counts after the givens and after singles
//! ([`SudokuLevels`]), and its table.

use crate::backend::enumerate::{EnumSettings, Enumerator, Order};
use crate::model::Model;
use crate::puzzle::table::{binomial, pow2, TableError};
use crate::puzzle::table::{group_digits, Cell, SpaceTable, Table, TableRequest};
use crate::puzzle::Puzzle;
use crate::puzzle::Sudoku;
use num_bigint::BigUint;
use num_traits::{One, Zero};

/// The Sudoku kind's [`SpaceTable`]: a grid given as one line (`--grid`), or a board file.
pub struct SudokuTable;

impl SpaceTable for SudokuTable {
    fn family_table(&self, request: &TableRequest) -> Result<Table, TableError> {
        let line = request.grid.ok_or_else(|| {
            TableError::BadSize("table sudoku: give a FILE or the grid with --grid LINE".into())
        })?;
        let grid = sudoku_from_line(line)?;
        Ok(sudoku_table(&sudoku_levels(&grid, request.solution_limit)?))
    }

    fn reads_boards(&self) -> bool {
        true
    }

    fn board_table(
        &self,
        puzzle: &Puzzle,
        _model: &Model,
        request: &TableRequest,
    ) -> Option<Result<Table, TableError>> {
        let grid = puzzle.board_as::<Sudoku>()?;
        Some(sudoku_levels(grid, request.solution_limit).map(|l| sudoku_table(&l)))
    }
}

/// The Sudoku of a grid given as one line of `n^2` symbols (`.` or `0` for an empty cell):
/// [`TableError::BadSize`] saying what is wrong otherwise.
pub fn sudoku_from_line(line: &str) -> Result<Sudoku, TableError> {
    let symbols: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
    let cells = symbols.len();
    let size = (1..=6)
        .map(|b: usize| b * b)
        .find(|&n| n * n == cells)
        .ok_or_else(|| {
            TableError::BadSize(format!(
                "--grid: {cells} symbols; expected n^2 for n = 4, 9, 16, 25 or 36"
            ))
        })?;
    let box_size = (1..=6).find(|b| b * b == size).unwrap_or(1);
    let mut grid = Vec::with_capacity(cells);
    for (i, &ch) in symbols.iter().enumerate() {
        grid.push(match ch {
            '.' | '0' => None,
            _ => Some(super::digit_of(ch, size).ok_or_else(|| {
                TableError::BadSize(format!(
                    "--grid: column {}: '{ch}' is not a digit of a {size}x{size} Sudoku",
                    i + 1
                ))
            })?),
        });
    }
    let sudoku = Sudoku::from_cells(box_size, grid)
        .ok_or_else(|| TableError::BadSize("--grid: not a square grid".into()))?;
    sudoku
        .to_model("grid")
        .map_err(|e| TableError::BadSize(format!("--grid: {e}")))?;
    Ok(sudoku)
}

/// Candidate digit sets (bit `d` = digit `d` possible) of every cell: the givens alone
/// (`propagate = false`), or after naked and hidden singles to a fixpoint. `None` when a cell
/// or a unit runs out of candidates.
pub fn sudoku_candidates(grid: &Sudoku, propagate: bool) -> Option<Vec<u64>> {
    let n = grid.size();
    let b = grid.box_size();
    let all: u64 = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut cand: Vec<u64> = grid
        .cells()
        .iter()
        .map(|c| c.map_or(all, |d| 1 << d))
        .collect();
    let units: Vec<Vec<usize>> = (0..n)
        .map(|r| (0..n).map(|c| r * n + c).collect())
        .chain((0..n).map(|c| (0..n).map(|r| r * n + c).collect()))
        .chain((0..n).map(|bx| {
            let (r0, c0) = ((bx / b) * b, (bx % b) * b);
            (0..n).map(|i| (r0 + i / b) * n + c0 + i % b).collect()
        }))
        .collect();
    let mut peers: Vec<Vec<usize>> = vec![Vec::new(); n * n];
    for u in &units {
        for &a in u {
            peers[a].extend(u.iter().copied().filter(|&x| x != a));
        }
    }
    // Givens eliminate from their peers; with propagation, every decided cell does, repeatedly.
    let mut done = vec![false; n * n];
    loop {
        let mut changed = false;
        for cell in 0..n * n {
            let decided = if propagate {
                cand[cell].count_ones() == 1
            } else {
                grid.cells()[cell].is_some()
            };
            if decided && !done[cell] {
                done[cell] = true;
                for &p in &peers[cell] {
                    if cand[p] & cand[cell] != 0 {
                        cand[p] &= !cand[cell];
                        changed = true;
                        if cand[p] == 0 {
                            return None;
                        }
                    }
                }
            }
        }
        if propagate {
            // Hidden singles: a digit with one place left in a unit goes there.
            for u in &units {
                for d in 0..n {
                    let bit = 1u64 << d;
                    let mut places = u.iter().filter(|&&c| cand[c] & bit != 0);
                    match (places.next(), places.next()) {
                        (None, _) => return None,
                        (Some(&c), None) if cand[c] != bit => {
                            cand[c] = bit;
                            changed = true;
                        }
                        _ => {}
                    }
                }
            }
        }
        if !propagate || !changed {
            break;
        }
    }
    Some(cand)
}

/// The Sudoku levels of one grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SudokuLevels {
    /// Digits `n` (9 for the classic grid).
    pub size: usize,
    /// `2^(n^3)`.
    pub every_variable: BigUint,
    /// `C(n^3, n^2)`.
    pub choose_cells: BigUint,
    /// `n^(n^2)`: one digit per cell.
    pub one_digit_per_cell: BigUint,
    /// Product of candidate counts after the givens.
    pub after_givens: BigUint,
    /// Product of candidate counts after naked and hidden singles.
    pub after_propagation: BigUint,
    /// Solutions.
    pub solutions: BigUint,
    /// Whether the solution count finished (false: it stopped at `solution_limit`).
    pub solutions_exact: bool,
}

/// Computes the Sudoku levels of `grid`; the solution count stops at `solution_limit`.
pub fn sudoku_levels(grid: &Sudoku, solution_limit: u64) -> Result<SudokuLevels, TableError> {
    let n = grid.size() as u64;
    let product = |c: Option<Vec<u64>>| {
        c.map_or(BigUint::zero(), |c| {
            c.iter().fold(BigUint::one(), |acc, &x| {
                acc * BigUint::from(x.count_ones())
            })
        })
    };
    let model = grid
        .to_model("sudoku")
        .map_err(|e| TableError::Count(e.to_string()))?;
    let settings = EnumSettings {
        order: Order::Mrv,
        parallel: false,
        ..EnumSettings::default()
    };
    let e = Enumerator::new(&model, &settings).map_err(|e| TableError::Count(e.to_string()))?;
    let (solutions, witnesses, summary) = e.count(Some(solution_limit));
    let verifier = crate::model::verify::Verifier::new(&model);
    if let Some(bad) = witnesses.iter().find(|w| !verifier.accepts(w)) {
        return Err(TableError::Count(format!(
            "the enumerator returned a non-solution: {bad:?}"
        )));
    }
    Ok(SudokuLevels {
        size: grid.size(),
        every_variable: pow2(n * n * n),
        choose_cells: binomial(n * n * n, n * n),
        one_digit_per_cell: BigUint::from(n).pow((n * n) as u32),
        after_givens: product(sudoku_candidates(grid, false)),
        after_propagation: product(sudoku_candidates(grid, true)),
        solutions: BigUint::from(solutions),
        solutions_exact: summary.finished,
    })
}

/// The table of one Sudoku grid.
pub fn sudoku_table(l: &SudokuLevels) -> Table {
    let n = l.size;
    let solutions = if l.solutions_exact {
        Cell::count(l.solutions.clone())
    } else {
        Cell::text(format!("at least {}", group_digits(&l.solutions)))
    };
    Table {
        title: format!("Sudoku {n}x{n}"),
        header: vec!["level".into(), "count".into()],
        rows: vec![
            vec![
                Cell::text("every (cell, digit) 0/1"),
                Cell::formula(l.every_variable.clone(), format!("2^{}", n * n * n)),
            ],
            vec![
                Cell::text("choose exactly n² ones"),
                Cell::formula(
                    l.choose_cells.clone(),
                    format!("C({},{})", n * n * n, n * n),
                ),
            ],
            vec![
                Cell::text("one digit per cell"),
                Cell::formula(l.one_digit_per_cell.clone(), format!("{n}^{}", n * n)),
            ],
            vec![
                Cell::text("candidates after the givens"),
                Cell::count(l.after_givens.clone()),
            ],
            vec![
                Cell::text("candidates after naked and hidden singles"),
                Cell::count(l.after_propagation.clone()),
            ],
            vec![Cell::text("solutions"), solutions],
        ],
    }
}
