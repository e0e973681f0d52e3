//! Planted colour regions, for the kinds whose boards are a grid of cells cut into `n` colour
//! regions with one piece per line and per region (hex, Queens): the kind says its cells, their
//! neighbours and how to draw a random valid placement ([`Shape`]); the rest is here.
//!
//! For each board: choose a random valid placement, grow `n` connected colour regions from its
//! pieces (a random unassigned cell next to a region joins a random neighbouring region), then
//! count solutions up to 2 with the generator's counter ([`count_solutions`]: the `xcc` engine
//! in a fixed order). While a second solution exists, **repair**: a piece of the first other
//! solution that is not one of the planted pieces moves to a neighbouring region (one whose
//! removal keeps its old region connected). That region then holds two pieces of the other
//! solution, which kills it, and the planted placement stays valid. After too many repairs the
//! attempt starts over. A board is kept only when the confirming backends agree
//! ([`Confirmer`]); duplicate boards within a run are skipped.
//!
//! Also here, for every kind on a square grid: the grid's edge neighbours
//! ([`square_neighbours`]) and the connectivity test the repairs of hex, Queens and Star
//! Battle share ([`connected_without`]).
//!
//! Costs: per attempt, one growth (`O(cells^2)`) and a few counts; see `reports/generate.md`.

use std::collections::BTreeSet;

use rand_chacha::ChaCha8Rng;

use super::confirm::{Check, Confirmer};
use super::counter::count_solutions;
use super::{below, board_rng, count_each, fingerprint, GenerateError, OnBoard, Request, RunEnd};
use crate::model::{Coord, Model, Solution};

/// What to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenerateOptions {
    /// Board width: hex width (odd) or Queens side.
    pub width: usize,
    /// Number of boards.
    pub count: usize,
    /// Seed; the same seed gives the same boards.
    pub seed: u64,
    /// Fresh placements tried per board before giving up.
    pub max_attempts: usize,
    /// Repairs tried per attempt before starting over.
    pub max_repairs: usize,
}

impl GenerateOptions {
    /// `count` boards of width `width` from `seed`, with the default budgets (1000 attempts of
    /// at most `4 * width` repairs each).
    pub fn new(width: usize, count: usize, seed: u64) -> GenerateOptions {
        GenerateOptions {
            width,
            count,
            seed,
            max_attempts: super::DEFAULT_ATTEMPTS,
            max_repairs: 4 * width,
        }
    }

    /// The options of a `generate` request: width, count and seed, `max-attempts` and
    /// `max-repairs` when given.
    pub fn of_request(request: &Request) -> GenerateOptions {
        let mut options = GenerateOptions::new(request.width, request.count, request.seed);
        options.max_attempts = request.max_attempts();
        if let Some(r) = request.option("max-repairs") {
            options.max_repairs = r;
        }
        options
    }
}

/// One generated board and how it was made.
#[derive(Debug, Clone, PartialEq)]
pub struct Generated<B> {
    /// Position in the run (0-based); also the RNG stream.
    pub index: usize,
    /// The board.
    pub board: B,
    /// Its unique solution: the position in the row of the piece of each row.
    pub solution: Vec<usize>,
    /// Fresh placements tried (1 when the first one worked).
    pub attempts: usize,
    /// Repairs made over all attempts.
    pub repairs: usize,
    /// Search nodes of the final uniqueness count (generator's counter, limit 2).
    pub nodes: u64,
    /// Whether propagation alone solves the board (a difficulty measure: true is easy).
    pub propagation_solves: bool,
    /// The independent confirmations: each backend that counted exactly one solution (limit 2)
    /// and solved to the same one, with its search nodes (SAT calls for `sat`).
    pub checks: Vec<Check>,
}

/// The shape of a puzzle kind as the planted-region generator needs it.
pub trait Shape {
    /// The kind's board.
    type Board;
    /// Cells as `(row, position in row)`, in variable order.
    fn cells(&self) -> &[(usize, usize)];
    /// Cell ids next to each cell (regions grow and stay connected along these).
    fn neighbours(&self) -> &[Vec<usize>];
    /// A random valid placement: one cell id per row, in row order.
    fn placement(&self, rng: &mut ChaCha8Rng) -> Vec<usize>;
    /// The board with `region[cell]` colours.
    fn board(&self, region: &[usize]) -> Self::Board;
    /// Its model.
    fn model(&self, board: &Self::Board) -> Model;
    /// What tells two boards apart (boards with equal keys are repeats).
    fn key(&self, board: &Self::Board) -> String;
    /// The board's block in the kind's file format, as `generate` prints it: the `#` lines of
    /// [`report_lines`], the board, its solution.
    fn block(&self, seed: u64, g: &Generated<Self::Board>) -> String;
}

/// For each of `cells`, the ids of the cells it `touch`es, in id order.
pub fn neighbour_lists(
    cells: &[(usize, usize)],
    touch: impl Fn((usize, usize), (usize, usize)) -> bool,
) -> Vec<Vec<usize>> {
    (0..cells.len())
        .map(|a| {
            (0..cells.len())
                .filter(|&b| a != b && touch(cells[a], cells[b]))
                .collect()
        })
        .collect()
}

/// The edge neighbours of `cell` (row-major) in an `n x n` grid: up, down, left, right.
pub fn square_neighbours(n: usize, cell: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (cell / n, cell % n);
    [
        (r > 0).then(|| cell - n),
        (r + 1 < n).then(|| cell + n),
        (c > 0).then(|| cell - 1),
        (c + 1 < n).then(|| cell + 1),
    ]
    .into_iter()
    .flatten()
}

/// Whether region `r` (the cells `c` with `region[c] == r`) is non-empty and stays connected
/// without cell `gone`, moving along `neighbours`. `O(cells + edges)`.
pub fn connected_without<I: IntoIterator<Item = usize>>(
    region: &[usize],
    r: usize,
    gone: usize,
    neighbours: impl Fn(usize) -> I,
) -> bool {
    let members = (0..region.len())
        .filter(|&c| region[c] == r && c != gone)
        .count();
    let Some(start) = (0..region.len()).find(|&c| region[c] == r && c != gone) else {
        return false;
    };
    let mut seen = vec![false; region.len()];
    seen[start] = true;
    let mut stack = vec![start];
    let mut reached = 1;
    while let Some(c) = stack.pop() {
        for d in neighbours(c) {
            if !seen[d] && d != gone && region[d] == r {
                seen[d] = true;
                reached += 1;
                stack.push(d);
            }
        }
    }
    reached == members
}

/// Grows one region per piece until every cell has one.
fn grow(shape: &impl Shape, pieces: &[usize], rng: &mut ChaCha8Rng) -> Vec<usize> {
    let n = shape.cells().len();
    let mut region = vec![usize::MAX; n];
    for (i, &p) in pieces.iter().enumerate() {
        region[p] = i;
    }
    let mut left = n - pieces.len();
    while left > 0 {
        let frontier: Vec<usize> = (0..n)
            .filter(|&c| {
                region[c] == usize::MAX
                    && shape.neighbours()[c]
                        .iter()
                        .any(|&d| region[d] != usize::MAX)
            })
            .collect();
        let cell = frontier[below(rng, frontier.len())];
        let options: Vec<usize> = shape.neighbours()[cell]
            .iter()
            .copied()
            .filter(|&d| region[d] != usize::MAX)
            .collect();
        region[cell] = region[options[below(rng, options.len())]];
        left -= 1;
    }
    region
}

/// The repairs that kill `other` while keeping `planted`: (cell, new region).
fn repairs(
    shape: &impl Shape,
    region: &[usize],
    planted: &[usize],
    other: &Solution,
) -> Vec<(usize, usize)> {
    let mut moves = Vec::new();
    let next_to = |c: usize| shape.neighbours()[c].iter().copied();
    for &q in &other.ones {
        if planted.contains(&q) || !connected_without(region, region[q], q, next_to) {
            continue;
        }
        let mut targets: Vec<usize> = next_to(q)
            .map(|d| region[d])
            .filter(|&r| r != region[q])
            .collect();
        targets.sort_unstable();
        targets.dedup();
        moves.extend(targets.into_iter().map(|r| (q, r)));
    }
    moves
}

/// The position in its row of each row's piece.
fn positions(model: &Model, solution: &Solution) -> Vec<usize> {
    solution
        .ones
        .iter()
        .filter_map(|&v| match model.variables()[v].coord {
            Coord::Cell { col, .. } => Some(col),
            _ => None,
        })
        .collect()
}

/// The `#` lines reporting how a board was made (`kind` as the `generate` command names it).
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
        super::unique_by_line(g.nodes, &g.checks),
    ]
}

/// Generates `options.count` boards of `shape`, keeping them all: every board, or the error
/// that stopped the run (dropping the boards found before it).
pub fn generate_with<S: Shape>(
    shape: &S,
    options: &GenerateOptions,
) -> Result<Vec<Generated<S::Board>>, GenerateError> {
    let mut boards = Vec::new();
    generate_into(shape, options, &mut |g| {
        boards.push(g);
        Ok(())
    })?;
    Ok(boards)
}

/// The `generate` command's run for `shape`: each board's [`Shape::block`] handed to `each` as
/// soon as it is found and checked, keeping none (memory does not grow with the count).
/// Reads `max-attempts` and `max-repairs`.
pub fn generate_blocks<S: Shape>(
    shape: &S,
    request: &Request,
    each: OnBoard<'_, String>,
) -> RunEnd {
    let options = GenerateOptions::of_request(request);
    count_each(each, |each| {
        generate_into(shape, &options, &mut |g| {
            each(shape.block(request.seed, &g))
        })
    })
}

/// The board found by one attempt's growth and repairs, with what its count found.
struct Found<B> {
    attempts: usize,
    board: B,
    model: Model,
    /// Its one solution.
    solution: Solution,
    nodes: u64,
    propagation_solves: bool,
}

/// Attempts until a unique board not in `seen` is found; `Ok(None)` when the budget ran out.
fn attempts<S: Shape>(
    shape: &S,
    options: &GenerateOptions,
    index: usize,
    seen: &BTreeSet<u128>,
    rng: &mut ChaCha8Rng,
    repairs_made: &mut usize,
) -> Result<Option<Found<S::Board>>, GenerateError> {
    let failed = |reason: String| GenerateError::CheckFailed { index, reason };
    'attempts: for attempt in 1..=options.max_attempts {
        let planted = shape.placement(rng);
        let mut region = grow(shape, &planted, rng);
        for _ in 0..=options.max_repairs {
            let board = shape.board(&region);
            let model = shape.model(&board);
            let result = count_solutions(&model, 2).map_err(|e| failed(e.to_string()))?;
            if result.count == 1 {
                if seen.contains(&fingerprint(&shape.key(&board))) {
                    continue 'attempts;
                }
                return Ok(Some(Found {
                    attempts: attempt,
                    board,
                    model,
                    propagation_solves: result.solved_by_propagation(),
                    nodes: result.nodes,
                    solution: result.solutions.into_iter().next().expect("count 1"),
                }));
            }
            let Some(other) = result.solutions.iter().find(|s| s.ones != planted) else {
                return Err(failed(
                    "the planted placement is not a solution of its own board".into(),
                ));
            };
            let moves = repairs(shape, &region, &planted, other);
            if moves.is_empty() {
                continue 'attempts;
            }
            let (cell, to) = moves[below(rng, moves.len())];
            region[cell] = to;
            *repairs_made += 1;
        }
    }
    Ok(None)
}

/// Hands boards to `each` until `options.count` were found or one cannot be found. Keeps only
/// the fingerprints of the boards found: memory does not grow with their size.
fn generate_into<S: Shape>(
    shape: &S,
    options: &GenerateOptions,
    each: OnBoard<'_, Generated<S::Board>>,
) -> Result<(), GenerateError> {
    let mut confirmer = Confirmer::default();
    let mut seen = BTreeSet::new();
    for index in 0..options.count {
        let mut rng = board_rng(options.seed, index as u64);
        let mut repairs_made = 0;
        let found = attempts(shape, options, index, &seen, &mut rng, &mut repairs_made)?;
        let Some(Found {
            attempts,
            board,
            model,
            solution,
            nodes,
            propagation_solves,
        }) = found
        else {
            return Err(GenerateError::GaveUp {
                index,
                attempts: options.max_attempts,
            });
        };
        let failed = |reason: String| GenerateError::CheckFailed { index, reason };
        crate::model::verify::Verifier::new(&model)
            .check(&solution)
            .map_err(|v| failed(v.to_string()))?;
        let checks = confirmer
            .confirm_unique(&model, &solution)
            .map_err(failed)?;
        seen.insert(fingerprint(&shape.key(&board)));
        let board = Generated {
            index,
            solution: positions(&model, &solution),
            board,
            attempts,
            repairs: repairs_made,
            nodes,
            propagation_solves,
            checks,
        };
        each(board).map_err(|reason| GenerateError::Output { index, reason })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_region_split_by_the_cell_is_not_connected_without_it() {
        // A 3x3 grid, region 0 the middle row: removing its middle cell splits it.
        let region = [1, 1, 1, 0, 0, 0, 2, 2, 2];
        let next = |c| square_neighbours(3, c);
        assert!(connected_without(&region, 0, usize::MAX, next));
        assert!(!connected_without(&region, 0, 4, next));
        assert!(connected_without(&region, 0, 3, next));
        assert!(!connected_without(&region, 5, usize::MAX, next), "empty");
        let mut n: Vec<usize> = square_neighbours(3, 4).collect();
        n.sort_unstable();
        assert_eq!(n, [1, 3, 5, 7]);
        assert_eq!(square_neighbours(3, 0).collect::<Vec<_>>(), [3, 1]);
    }
}
