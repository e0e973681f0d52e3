//! Killer Sudoku boards with exactly one solution, reproducible from a seed.
//!
//! For each board: a random complete Sudoku grid
//! ([`crate::puzzle::generate::filled_grid::complete_grid`]), then cages grown at
//! random (cells in random order each start a cage of a random target size from 2 to
//! `max_cage`, which grows through random free neighbours whose digit it does not hold yet),
//! their sums read off the grid. The generator's counter ([`super::search`]) counts up to 2;
//! while a second solution exists, a cell where it differs from the grid is cut out of its cage
//! (it becomes a one-cell cage, the rest of the cage splits into its connected parts), which
//! removes that solution and keeps the grid a solution. An attempt that would need more than
//! [`super::MAX_CAGES`] cages starts over.
//!
//! A board is kept only when two registry backends that accept its model (weighted rows) each
//! count exactly one verified solution and solve it to the grid
//! ([`crate::puzzle::generate::Confirmer`]). Board `i` of seed `s` uses its own ChaCha8 stream
//! ([`crate::puzzle::generate::board_rng`]).
//!
//! Costs: per attempt one grid fill (about 100 us for 9x9), one growth and a few counts.

use rand_chacha::ChaCha8Rng;

use super::file::write;
use super::search::count;
use super::{first_apart, KillerBoard, KillerKind};
use crate::model::value_symbol as symbol;
use crate::puzzle::generate::filled_grid::complete_grid;
use crate::puzzle::generate::regions::square_neighbours as neighbours;
use crate::puzzle::generate::{
    below, board_rng, collect_boards, each_board, shuffle, unique_by_line, Check, Confirmer,
    GenerateError, Generator, GeneratorOption, OnBoard, Request, RunEnd, MAX_ATTEMPTS,
};

/// What to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KillerOptions {
    /// Box size `b` (2 or 3: 4x4 or 9x9 grids; larger grids need more cages than symbols).
    pub box_size: usize,
    /// Largest cage grown (2 to 9).
    pub max_cage: usize,
    /// Number of boards.
    pub count: usize,
    /// Seed; the same seed gives the same boards.
    pub seed: u64,
    /// Fresh grids tried per board before giving up.
    pub max_attempts: usize,
}

impl KillerOptions {
    /// `count` boards of box size `box_size` from `seed`, cages of up to 4 cells, 100 attempts.
    pub fn new(box_size: usize, count: usize, seed: u64) -> KillerOptions {
        KillerOptions {
            box_size,
            max_cage: 4,
            count,
            seed,
            max_attempts: 100,
        }
    }
}

/// One generated board and how it was made.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratedKiller {
    /// Position in the run; also the RNG stream.
    pub index: usize,
    /// The board.
    pub board: KillerBoard,
    /// Its unique solution, row-major digit indices.
    pub grid: Vec<usize>,
    /// Grids tried.
    pub attempts: usize,
    /// Cage cuts made in the kept attempt.
    pub cuts: usize,
    /// Search nodes of the final uniqueness count (own counter, limit 2).
    pub nodes: u64,
    /// The two backends' confirmations.
    pub checks: Vec<Check>,
}

/// Random cages over `grid` (cage label of each cell, labels `0..cages`).
fn grow_cages(n: usize, grid: &[usize], max_cage: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
    const FREE: usize = usize::MAX;
    let mut cage = vec![FREE; n * n];
    let mut order: Vec<usize> = (0..n * n).collect();
    shuffle(rng, &mut order);
    let mut next = 0;
    for start in order {
        if cage[start] != FREE {
            continue;
        }
        let target = 2 + below(rng, max_cage - 1);
        let mut cells = vec![start];
        cage[start] = next;
        while cells.len() < target {
            let frontier: Vec<usize> = cells
                .iter()
                .flat_map(|&c| neighbours(n, c))
                .filter(|&nb| cage[nb] == FREE && cells.iter().all(|&c| grid[c] != grid[nb]))
                .collect();
            if frontier.is_empty() {
                break;
            }
            let pick = frontier[below(rng, frontier.len())];
            cage[pick] = next;
            cells.push(pick);
        }
        next += 1;
    }
    cage
}

/// Cuts `cell` out of its cage: it becomes a one-cell cage and the rest of the old cage splits
/// into its connected parts. Labels stay `0..cages`.
fn cut(n: usize, cage: &mut [usize], cell: usize) {
    let old = cage[cell];
    let mut next = cage.iter().max().map_or(0, |m| m + 1);
    cage[cell] = next;
    next += 1;
    loop {
        let rest: Vec<usize> = (0..n * n).filter(|&c| cage[c] == old).collect();
        let Some(apart) = first_apart(n, &rest) else {
            return;
        };
        // Move the part holding `apart` to a new label.
        let mut stack = vec![apart];
        cage[apart] = next;
        while let Some(c) = stack.pop() {
            for nb in neighbours(n, c) {
                if cage[nb] == old {
                    cage[nb] = next;
                    stack.push(nb);
                }
            }
        }
        next += 1;
    }
}

fn board_of(b: usize, grid: &[usize], cage: &[usize]) -> Option<KillerBoard> {
    let cages = cage.iter().max().map_or(0, |m| m + 1);
    let mut sums = vec![0u64; cages];
    for (cell, &g) in cage.iter().enumerate() {
        sums[g] += grid[cell] as u64 + 1;
    }
    KillerBoard::new(b, cage, &sums).ok()
}

/// Board `index`: attempts until a grid's cages pin it, confirmed by two backends.
fn one_board(
    o: &KillerOptions,
    index: usize,
    confirmer: &mut Confirmer,
) -> Result<GeneratedKiller, GenerateError> {
    let (b, n) = (o.box_size, o.box_size * o.box_size);
    let mut rng = board_rng(o.seed, index as u64);
    for attempt in 1..=o.max_attempts {
        let grid = complete_grid(b, &mut rng);
        let mut cage = grow_cages(n, &grid, o.max_cage, &mut rng);
        let mut cuts = 0;
        while let Some(board) = board_of(b, &grid, &cage) {
            let counted = count(&board, Some(2));
            if counted.count == 1 {
                let model = board.to_model(format!("killer-{n}#{index}"));
                let checks = confirmer
                    .confirm_unique(&model, &board.solution_of(&grid))
                    .map_err(|reason| GenerateError::CheckFailed { index, reason })?;
                return Ok(GeneratedKiller {
                    index,
                    board,
                    grid,
                    attempts: attempt,
                    cuts,
                    nodes: counted.nodes,
                    checks,
                });
            }
            let Some(other) = counted.solutions.iter().find(|s| **s != grid) else {
                break;
            };
            let differ: Vec<usize> = (0..n * n).filter(|&c| other[c] != grid[c]).collect();
            cut(n, &mut cage, differ[below(&mut rng, differ.len())]);
            cuts += 1;
        }
    }
    Err(GenerateError::GaveUp {
        index,
        attempts: o.max_attempts,
    })
}

/// Generates `o.count` boards, each with exactly one solution, confirmed by two backends.
pub fn generate(o: &KillerOptions) -> Result<Vec<GeneratedKiller>, GenerateError> {
    let (boards, stopped) = generate_partial(o)?;
    stopped.map_or(Ok(boards), Err)
}

/// Like [`generate`], but keeps the boards found before a board fails, with the reason the run
/// stopped (`None`: all were found). Bad options are an error at once.
pub fn generate_partial(
    o: &KillerOptions,
) -> Result<(Vec<GeneratedKiller>, Option<GenerateError>), GenerateError> {
    collect_boards(|each| generate_each(o, each))
}

/// Like [`generate_partial`], but hands each board to `each` as soon as it is confirmed,
/// keeping none: memory does not grow with `o.count`. Returns the number found and why the
/// run stopped short (`None`: all were found).
pub fn generate_each(
    o: &KillerOptions,
    each: OnBoard<'_, GeneratedKiller>,
) -> Result<RunEnd, GenerateError> {
    check_options(o)?;
    let mut confirmer = Confirmer::default();
    Ok(each_board(
        o.count,
        |i| one_board(o, i, &mut confirmer),
        each,
    ))
}

fn check_options(o: &KillerOptions) -> Result<(), GenerateError> {
    if !(2..=3).contains(&o.box_size) {
        return Err(GenerateError::BadSize(format!(
            "killer box size {}: expected 2 or 3 (a 4x4 or 9x9 grid)",
            o.box_size
        )));
    }
    if !(2..=9).contains(&o.max_cage) {
        return Err(GenerateError::BadOption {
            option: "max-cage",
            message: format!("cages of up to {} cells: expected 2 to 9", o.max_cage),
        });
    }
    Ok(())
}

/// One board as a `.killer` block: `#` lines saying how it was made (the grid as a
/// `# solution:` comment, which readers skip), the cage grid and the sum lines.
pub fn block(o: &KillerOptions, g: &GeneratedKiller) -> String {
    let mut out = format!(
        "# generated killer box={} max-cage={} seed={} board={}\n# attempts: {}  cuts: {}  cages: {}\n\
         {}\n# solution: {}\n",
        o.box_size,
        o.max_cage,
        o.seed,
        g.index,
        g.attempts,
        g.cuts,
        g.board.sums().len(),
        unique_by_line(g.nodes, &g.checks),
        g.grid.iter().map(|&d| symbol(d)).collect::<String>()
    );
    out.push_str(&write(&g.board));
    out
}

/// `--max-cage C`: the largest cage grown.
pub const MAX_CAGE: GeneratorOption = GeneratorOption {
    name: "max-cage",
    help: "Killer Sudoku: the largest cage grown (2 to 9 cells; default 4)",
};

impl Generator for KillerKind {
    fn options(&self) -> &'static [GeneratorOption] {
        &[MAX_ATTEMPTS, MAX_CAGE]
    }

    fn widths(&self) -> &'static str {
        "4 or 9"
    }

    /// Width 4 or 9 (box size 2 or 3); reads `max-cage` (default 4) and `max-attempts`.
    fn generate_each(
        &self,
        request: &Request,
        each: OnBoard<'_, String>,
    ) -> Result<RunEnd, GenerateError> {
        let box_size = match request.width {
            4 => 2,
            9 => 3,
            _ => {
                return Err(GenerateError::BadSize(
                    "expected 4 or 9 for a Killer Sudoku".into(),
                ))
            }
        };
        let mut o = KillerOptions::new(box_size, request.count, request.seed);
        o.max_cage = request.option("max-cage").unwrap_or(4);
        o.max_attempts = request.max_attempts();
        generate_each(&o, &mut |g| each(block(&o, &g)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn cutting_keeps_cages_connected_and_the_grid_a_solution() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let grid = complete_grid(3, &mut rng);
        let mut cage = grow_cages(9, &grid, 5, &mut rng);
        let board = board_of(3, &grid, &cage).unwrap();
        board.check(&grid).unwrap();
        let before = board.sums().len();
        let big = (0..81)
            .find(|&c| cage.iter().filter(|&&g| g == cage[c]).count() >= 3)
            .unwrap();
        cut(9, &mut cage, big);
        let after = board_of(3, &grid, &cage).unwrap();
        after.check(&grid).unwrap();
        assert!(after.sums().len() > before);
        assert_eq!(after.cages().iter().filter(|c| c == &&vec![big]).count(), 1);
    }

    #[test]
    fn the_counter_finds_generated_grids() {
        // Without the backend confirmation: the own counter pins a 4x4 board after cuts.
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let grid = complete_grid(2, &mut rng);
        let mut cage = grow_cages(4, &grid, 3, &mut rng);
        for _ in 0..16 {
            let board = board_of(2, &grid, &cage).unwrap();
            let c = count(&board, Some(2));
            if c.count == 1 {
                assert_eq!(c.solutions[0], grid);
                return;
            }
            let other = c.solutions.iter().find(|s| **s != grid).unwrap();
            let cell = (0..16).find(|&i| other[i] != grid[i]).unwrap();
            cut(4, &mut cage, cell);
        }
        panic!("16 cuts did not pin a 4x4 grid");
    }
}
