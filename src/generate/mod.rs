//! Board generation: hex boards and Queens grids with exactly one solution.
//!
//! For each board: choose a random valid placement (one piece per line of all three hex axes;
//! or one queen per row and column, no two touching), grow `n` connected colour regions from its
//! pieces (a random unassigned cell next to a region joins a random neighbouring region), then
//! count solutions with the generator's [`search::ExactCounter`] up to 2. While a second
//! solution exists, **repair**: a piece of the other solution that is not one of the planted
//! pieces moves to a neighbouring region (one whose removal keeps its old region connected).
//! That region then holds two pieces of the other solution, which kills it, and the planted
//! placement stays valid. After too many repairs the attempt starts over.
//!
//! A board is kept only when independent backends agree: each of [`CONFIRMING_BACKENDS`] that
//! is registered (`sat` always; `enum` once it is in the registry) counts (limit 2) exactly one
//! verified solution and solves the board to the same one. Duplicate boards within a run are
//! skipped.
//!
//! Reproducible: board `i` of seed `s` uses its own ChaCha8 stream (`seed_from_u64(s)`, stream
//! `i`), all random draws are `u32` ranges, and the logic walks vectors only (no hash-map
//! order), so the same seed gives the same boards on any machine.
//!
//! Costs: per attempt, one growth (`O(cells^2)`) and a few counts; see `reports/generate.md`.

pub mod exact_cover;
pub mod search;
pub mod text;

use std::collections::BTreeSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use crate::backend::{
    count_verified, make_backend, solve_verified, Backend, BackendOptions, Status,
};
use crate::model::{Coord, Model, Solution};
use crate::puzzle::{HexBoard, QueensBoard};
use search::ExactCounter;

/// Errors of the generator.
#[derive(Debug, Error)]
pub enum GenerateError {
    /// The size cannot host a puzzle of this kind.
    #[error("{0}")]
    BadSize(String),
    /// An option other than the size is out of its range (`stars`, `max-cage`).
    #[error("{message}")]
    BadOption {
        /// The option's name as the command line spells it (without `--`).
        option: &'static str,
        /// What was expected and found.
        message: String,
    },
    /// No unique board was found within the attempt budget.
    #[error("board {index}: no new board with a unique solution after {attempts} attempts (boards equal to earlier ones are skipped; small sizes have few boards)")]
    GaveUp {
        /// Board index.
        index: usize,
        /// Attempts made.
        attempts: usize,
    },
    /// The two uniqueness checks disagreed, or a backend failed: a bug somewhere.
    #[error("board {index}: {reason}")]
    CheckFailed {
        /// Board index.
        index: usize,
        /// What went wrong.
        reason: String,
    },
    /// The caller could not take a board (writing it failed).
    #[error("board {index}: cannot write it: {reason}")]
    Output {
        /// Board index.
        index: usize,
        /// Why.
        reason: String,
    },
}

/// What a generator hands each board to as soon as it is found and checked: `Err` (a write
/// failed) stops the run.
pub type OnBoard<'a, B> = &'a mut dyn FnMut(B) -> Result<(), String>;

/// A 128-bit fingerprint of a board's key, which is all a run keeps of the boards it has
/// written (to skip repeats): 16 bytes per board instead of the board. Two SipHash passes
/// with different prefixes; a collision (about 2^-64 for a billion boards) only skips a board.
pub(crate) fn fingerprint<K: std::hash::Hash + ?Sized>(key: &K) -> u128 {
    use std::hash::{DefaultHasher, Hasher};
    let half = |salt: u8| {
        let mut h = DefaultHasher::new();
        h.write_u8(salt);
        key.hash(&mut h);
        h.finish()
    };
    (u128::from(half(1)) << 64) | u128::from(half(2))
}

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
            max_attempts: 1000,
            max_repairs: 4 * width,
        }
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

/// The shape of a puzzle kind as the generator needs it.
trait Shape {
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
}

/// A uniform draw below `n` (`n <= u32::MAX`), the same on every platform.
fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    rng.gen_range(0..n as u32) as usize
}

fn shuffle<T>(rng: &mut ChaCha8Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i + 1);
        items.swap(i, j);
    }
}

fn neighbour_lists(
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

struct HexShape {
    geometry: HexBoard,
    cells: Vec<(usize, usize)>,
    neighbours: Vec<Vec<usize>>,
    /// Id of the first cell of each row.
    row_start: Vec<usize>,
}

impl HexShape {
    fn new(width: usize) -> Result<HexShape, GenerateError> {
        let geometry = HexBoard::geometry(width)
            .filter(|_| width >= 1)
            .ok_or_else(|| {
                GenerateError::BadSize(format!("hex width {width}: expected an odd width"))
            })?;
        let cells: Vec<(usize, usize)> = geometry.cells().collect();
        let neighbours = neighbour_lists(&cells, |a, b| geometry.touching(a, b));
        let mut row_start = Vec::new();
        let mut id = 0;
        for r in 0..width {
            row_start.push(id);
            id += geometry.row_len(r);
        }
        Ok(HexShape {
            geometry,
            cells,
            neighbours,
            row_start,
        })
    }
}

impl Shape for HexShape {
    type Board = HexBoard;
    fn cells(&self) -> &[(usize, usize)] {
        &self.cells
    }
    fn neighbours(&self) -> &[Vec<usize>] {
        &self.neighbours
    }
    fn placement(&self, rng: &mut ChaCha8Rng) -> Vec<usize> {
        let g = &self.geometry;
        let n = g.width();
        // Randomised depth-first search: a free diag and anti line per row.
        fn go(
            shape: &HexShape,
            r: usize,
            used: &mut [[bool; 2]],
            pick: &mut Vec<usize>,
            rng: &mut ChaCha8Rng,
        ) -> bool {
            let g = &shape.geometry;
            if r == g.width() {
                return true;
            }
            let mut ks: Vec<usize> = (0..g.row_len(r)).collect();
            shuffle(rng, &mut ks);
            for k in ks {
                let (d, a) = (g.diag(r, k), g.anti(r, k));
                if used[d][0] || used[a][1] {
                    continue;
                }
                used[d][0] = true;
                used[a][1] = true;
                pick.push(shape.row_start[r] + k);
                if go(shape, r + 1, used, pick, rng) {
                    return true;
                }
                pick.pop();
                used[d][0] = false;
                used[a][1] = false;
            }
            false
        }
        let mut used = vec![[false; 2]; n];
        let mut pick = Vec::new();
        let ok = go(self, 0, &mut used, &mut pick, rng);
        debug_assert!(ok, "every odd width has a three-axis placement");
        pick
    }
    fn board(&self, region: &[usize]) -> HexBoard {
        let g = &self.geometry;
        let rows = (0..g.width())
            .map(|r| region[self.row_start[r]..self.row_start[r] + g.row_len(r)].to_vec())
            .collect();
        HexBoard::coloured(rows).expect("rows have the geometry's lengths")
    }
    fn model(&self, board: &HexBoard) -> Model {
        board.to_model("generated")
    }
}

struct QueensShape {
    size: usize,
    cells: Vec<(usize, usize)>,
    neighbours: Vec<Vec<usize>>,
}

impl QueensShape {
    fn new(size: usize) -> Result<QueensShape, GenerateError> {
        if size < 4 && size != 1 {
            return Err(GenerateError::BadSize(format!(
                "queens size {size}: no placement of non-touching queens exists below 4 (except 1)"
            )));
        }
        let cells: Vec<(usize, usize)> = (0..size)
            .flat_map(|r| (0..size).map(move |c| (r, c)))
            .collect();
        // Regions grow along edges (4-neighbours), as in the published levels.
        let neighbours = neighbour_lists(&cells, |a, b| a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1);
        Ok(QueensShape {
            size,
            cells,
            neighbours,
        })
    }
}

impl Shape for QueensShape {
    type Board = QueensBoard;
    fn cells(&self) -> &[(usize, usize)] {
        &self.cells
    }
    fn neighbours(&self) -> &[Vec<usize>] {
        &self.neighbours
    }
    fn placement(&self, rng: &mut ChaCha8Rng) -> Vec<usize> {
        fn go(n: usize, cols: &mut Vec<usize>, used: &mut [bool], rng: &mut ChaCha8Rng) -> bool {
            let r = cols.len();
            if r == n {
                return true;
            }
            let mut cs: Vec<usize> = (0..n).collect();
            shuffle(rng, &mut cs);
            for c in cs {
                if used[c] || cols.last().is_some_and(|&p| p.abs_diff(c) <= 1) {
                    continue;
                }
                used[c] = true;
                cols.push(c);
                if go(n, cols, used, rng) {
                    return true;
                }
                cols.pop();
                used[c] = false;
            }
            false
        }
        let n = self.size;
        let mut cols = Vec::new();
        let ok = go(n, &mut cols, &mut vec![false; n], rng);
        debug_assert!(ok, "sizes 1 and >= 4 have a placement");
        cols.iter().enumerate().map(|(r, &c)| r * n + c).collect()
    }
    fn board(&self, region: &[usize]) -> QueensBoard {
        let rows = region.chunks(self.size).map(|r| r.to_vec()).collect();
        QueensBoard::with_regions(rows).expect("square")
    }
    fn model(&self, board: &QueensBoard) -> Model {
        board.to_model("generated")
    }
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

/// Whether region `r` stays connected without cell `gone`.
fn connected_without(shape: &impl Shape, region: &[usize], r: usize, gone: usize) -> bool {
    let members: Vec<usize> = (0..region.len())
        .filter(|&c| region[c] == r && c != gone)
        .collect();
    let Some(&start) = members.first() else {
        return false;
    };
    let mut seen = vec![false; region.len()];
    seen[start] = true;
    let mut stack = vec![start];
    let mut reached = 1;
    while let Some(c) = stack.pop() {
        for &d in &shape.neighbours()[c] {
            if !seen[d] && d != gone && region[d] == r {
                seen[d] = true;
                reached += 1;
                stack.push(d);
            }
        }
    }
    reached == members.len()
}

/// The repairs that kill `other` while keeping `planted`: (cell, new region).
fn repairs(
    shape: &impl Shape,
    region: &[usize],
    planted: &[usize],
    other: &Solution,
) -> Vec<(usize, usize)> {
    let mut moves = Vec::new();
    for &q in &other.ones {
        if planted.contains(&q) || !connected_without(shape, region, region[q], q) {
            continue;
        }
        let mut targets: Vec<usize> = shape.neighbours()[q]
            .iter()
            .map(|&d| region[d])
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

/// One backend's confirmation that a board has exactly one solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// Registry name of the backend.
    pub backend: String,
    /// Its search nodes for the count (limit 2).
    pub nodes: u64,
}

/// The backends that confirm every kept board, in this order when registered: `enum` (the
/// coordinate-tuple enumerator) and `sat`. At least `sat` is always there.
pub const CONFIRMING_BACKENDS: [&str; 2] = ["enum", "sat"];

/// Backends by registry name.
type NamedBackends = Vec<(&'static str, Box<dyn Backend>)>;

fn confirming_backends() -> Result<NamedBackends, GenerateError> {
    let registered: Vec<&str> = crate::backend::registry().iter().map(|b| b.name).collect();
    CONFIRMING_BACKENDS
        .iter()
        .filter(|name| registered.contains(name))
        .map(|&name| {
            make_backend(name, &BackendOptions::default())
                .map(|b| (name, b))
                .map_err(|e| GenerateError::CheckFailed {
                    index: 0,
                    reason: e.to_string(),
                })
        })
        .collect()
}

/// Checks with `backend` that `model` has exactly `solution` as its only solution: a verified
/// count to 2 finds one, exhaustively, and a verified solve returns that one. Returns the
/// count's search nodes, or what went wrong.
fn confirm(backend: &mut dyn Backend, model: &Model, solution: &Solution) -> Result<u64, String> {
    let count = count_verified(backend, model, Some(2)).map_err(|e| e.to_string())?;
    if count.status != Status::Solved || count.count != 1 || !count.exhaustive {
        return Err(format!(
            "counted {} (status {}, exhaustive {}, {:?})",
            count.count,
            count.status.name(),
            count.exhaustive,
            count.reason
        ));
    }
    let solved = solve_verified(backend, model).map_err(|e| e.to_string())?;
    match solved.solution {
        Some(s) if s == *solution => Ok(count.stats.nodes),
        Some(_) => Err("solved it to a different solution".into()),
        None => Err(format!(
            "did not solve it (status {}, {:?})",
            solved.status.name(),
            solved.reason
        )),
    }
}

/// What a generation run produced: every board found, and why it stopped short of the count
/// (`None`: all were found).
#[derive(Debug)]
pub struct Partial<B> {
    /// The boards found, in order, each unique and checked.
    pub boards: Vec<Generated<B>>,
    /// Why no further board came (the budget ran out, or a check failed); `None` when every
    /// board asked for was found.
    pub stopped: Option<GenerateError>,
}

impl<B> Partial<B> {
    /// All the boards, or the error that stopped the run (dropping the boards found before it).
    pub fn into_result(self) -> Result<Vec<Generated<B>>, GenerateError> {
        match self.stopped {
            None => Ok(self.boards),
            Some(e) => Err(e),
        }
    }
}

fn generate_with<S: Shape>(
    shape: &S,
    options: &GenerateOptions,
    key: impl Fn(&S::Board) -> String,
) -> Partial<S::Board> {
    let mut boards = Vec::new();
    let stopped = generate_into(shape, options, key, &mut |g| {
        boards.push(g);
        Ok(())
    })
    .err();
    Partial { boards, stopped }
}

/// Hands boards to `each` until `options.count` were found or one cannot be found. Keeps only
/// the fingerprints of the boards found: memory does not grow with their size.
fn generate_into<S: Shape>(
    shape: &S,
    options: &GenerateOptions,
    key: impl Fn(&S::Board) -> String,
    each: OnBoard<'_, Generated<S::Board>>,
) -> Result<(), GenerateError> {
    let mut checkers = confirming_backends()?;
    let mut seen = BTreeSet::new();
    for index in 0..options.count {
        let mut rng = ChaCha8Rng::seed_from_u64(options.seed);
        rng.set_stream(index as u64);
        let mut repairs_made = 0;
        let mut done = None;
        'attempts: for attempt in 1..=options.max_attempts {
            let planted = shape.placement(&mut rng);
            let mut region = grow(shape, &planted, &mut rng);
            for _ in 0..=options.max_repairs {
                let board = shape.board(&region);
                let model = shape.model(&board);
                let counter =
                    ExactCounter::new(&model).map_err(|e| GenerateError::CheckFailed {
                        index,
                        reason: e.to_string(),
                    })?;
                let result = counter.count(2);
                if result.count == 1 {
                    if seen.contains(&fingerprint(&key(&board))) {
                        continue 'attempts;
                    }
                    done = Some((attempt, board, model, result.nodes, counter));
                    break 'attempts;
                }
                let Some(other) = result.solutions.iter().find(|s| s.ones != planted) else {
                    return Err(GenerateError::CheckFailed {
                        index,
                        reason: "the planted placement is not a solution of its own board".into(),
                    });
                };
                let moves = repairs(shape, &region, &planted, other);
                if moves.is_empty() {
                    continue 'attempts;
                }
                let (cell, to) = moves[below(&mut rng, moves.len())];
                region[cell] = to;
                repairs_made += 1;
            }
        }
        let Some((attempts, board, model, nodes, counter)) = done else {
            return Err(GenerateError::GaveUp {
                index,
                attempts: options.max_attempts,
            });
        };
        let own = counter.count(2);
        let solution = own.solutions[0].clone();
        crate::model::verify::Verifier::new(&model)
            .check(&solution)
            .map_err(|v| GenerateError::CheckFailed {
                index,
                reason: v.to_string(),
            })?;
        let mut checks = Vec::with_capacity(checkers.len());
        for (name, backend) in checkers.iter_mut() {
            let nodes = confirm(backend.as_mut(), &model, &solution).map_err(|reason| {
                GenerateError::CheckFailed {
                    index,
                    reason: format!(
                        "the generator's counter found one solution, but backend '{name}' {reason}"
                    ),
                }
            })?;
            checks.push(Check {
                backend: name.to_string(),
                nodes,
            });
        }
        seen.insert(fingerprint(&key(&board)));
        let board = Generated {
            index,
            solution: positions(&model, &solution),
            board,
            attempts,
            repairs: repairs_made,
            nodes,
            propagation_solves: counter.solved_by_propagation(),
            checks,
        };
        each(board).map_err(|reason| GenerateError::Output { index, reason })?;
    }
    Ok(())
}

/// Like [`generate_hex_partial`], but hands each board to `each` as soon as it is found and
/// checked, keeping none: memory does not grow with `options.count`. Returns the number of
/// boards found and why the run stopped short (`None`: all were found); `Err` only for a width
/// with no boards at all.
pub fn generate_hex_each(
    options: &GenerateOptions,
    each: OnBoard<'_, Generated<HexBoard>>,
) -> Result<(usize, Option<GenerateError>), GenerateError> {
    let shape = HexShape::new(options.width)?;
    Ok(count_each(each, |each| {
        generate_into(&shape, options, |b| format!("{:?}", b.regions()), each)
    }))
}

/// Like [`generate_hex_each`], for Queens grids.
pub fn generate_queens_each(
    options: &GenerateOptions,
    each: OnBoard<'_, Generated<QueensBoard>>,
) -> Result<(usize, Option<GenerateError>), GenerateError> {
    let shape = QueensShape::new(options.width)?;
    Ok(count_each(each, |each| {
        generate_into(&shape, options, |b| format!("{:?}", b.regions()), each)
    }))
}

/// Boards `0..count` made by `one` (each given its index), handed to `each` as they come;
/// the first error stops the run. The loop shared by the generators.
pub(crate) fn each_board<B>(
    count: usize,
    mut one: impl FnMut(usize) -> Result<B, GenerateError>,
    each: OnBoard<'_, B>,
) -> (usize, Option<GenerateError>) {
    count_each(each, |each| {
        for index in 0..count {
            let board = one(index)?;
            each(board).map_err(|reason| GenerateError::Output { index, reason })?;
        }
        Ok(())
    })
}

/// Every board `run` hands out, kept (for callers that want them all), and why it stopped.
pub(crate) fn collect_boards<B>(
    run: impl FnOnce(OnBoard<'_, B>) -> Result<(usize, Option<GenerateError>), GenerateError>,
) -> Result<(Vec<B>, Option<GenerateError>), GenerateError> {
    let mut boards = Vec::new();
    let (_, stopped) = run(&mut |g| {
        boards.push(g);
        Ok(())
    })?;
    Ok((boards, stopped))
}

/// Runs `run` with `each` wrapped to count the boards it takes; the count and the error that
/// stopped the run.
pub(crate) fn count_each<B>(
    each: OnBoard<'_, B>,
    run: impl FnOnce(OnBoard<'_, B>) -> Result<(), GenerateError>,
) -> (usize, Option<GenerateError>) {
    let mut found = 0;
    let stopped = run(&mut |b| {
        each(b)?;
        found += 1;
        Ok(())
    })
    .err();
    (found, stopped)
}

/// Generates `options.count` hex boards of width `options.width`, each with exactly one
/// solution (checked by the generator's counter and by the `sat` backend, both verified).
/// All or nothing: see [`generate_hex_partial`] to keep the boards found before a failure.
pub fn generate_hex(options: &GenerateOptions) -> Result<Vec<Generated<HexBoard>>, GenerateError> {
    generate_hex_partial(options)?.into_result()
}

/// Like [`generate_hex`], but keeps the boards found when the run stops short of the count
/// (small widths have few distinct boards). `Err` only for a width with no boards at all.
pub fn generate_hex_partial(options: &GenerateOptions) -> Result<Partial<HexBoard>, GenerateError> {
    let shape = HexShape::new(options.width)?;
    Ok(generate_with(&shape, options, |b| {
        format!("{:?}", b.regions())
    }))
}

/// Generates `options.count` Queens grids of side `options.width`, each with exactly one
/// solution (checked as for [`generate_hex`]). All or nothing, like [`generate_hex`].
pub fn generate_queens(
    options: &GenerateOptions,
) -> Result<Vec<Generated<QueensBoard>>, GenerateError> {
    generate_queens_partial(options)?.into_result()
}

/// Like [`generate_queens`], but keeps the boards found when the run stops short of the count.
pub fn generate_queens_partial(
    options: &GenerateOptions,
) -> Result<Partial<QueensBoard>, GenerateError> {
    let shape = QueensShape::new(options.width)?;
    Ok(generate_with(&shape, options, |b| {
        format!("{:?}", b.regions())
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::verify::Verifier;

    fn region_connected(neighbours: &[Vec<usize>], region: &[usize], r: usize) -> bool {
        let members: Vec<usize> = (0..region.len()).filter(|&c| region[c] == r).collect();
        let mut seen = vec![false; region.len()];
        let mut stack = vec![members[0]];
        seen[members[0]] = true;
        let mut reached = 1;
        while let Some(c) = stack.pop() {
            for &d in &neighbours[c] {
                if !seen[d] && region[d] == r {
                    seen[d] = true;
                    reached += 1;
                    stack.push(d);
                }
            }
        }
        reached == members.len()
    }

    #[test]
    fn hex_boards_are_unique_connected_and_reproducible() {
        let shape = HexShape::new(7).unwrap();
        let boards = generate_hex(&GenerateOptions::new(7, 3, 11)).unwrap();
        assert_eq!(boards.len(), 3);
        for g in &boards {
            let model = g.board.to_model("g");
            let all = ExactCounter::new(&model).unwrap().count(u64::MAX);
            assert_eq!((all.count, all.exhaustive), (1, true));
            assert!(Verifier::new(&model).accepts(&all.solutions[0]));
            let region: Vec<usize> = g.board.regions().unwrap().concat();
            for r in 0..7 {
                assert!(
                    region_connected(&shape.neighbours, &region, r),
                    "region {r}"
                );
            }
        }
        let again = generate_hex(&GenerateOptions::new(7, 3, 11)).unwrap();
        assert_eq!(boards, again);
        let other = generate_hex(&GenerateOptions::new(7, 3, 12)).unwrap();
        assert_ne!(boards[0].board, other[0].board);
    }

    #[test]
    fn confirm_rejects_a_second_solution_and_a_different_answer() {
        let mut sat = make_backend("sat", &BackendOptions::default()).unwrap();
        // The bare width-5 board has many placements: the count to 2 must say so.
        let bare = HexBoard::geometry(5).unwrap().to_model("bare");
        let some = Solution::new(vec![]);
        let err = confirm(sat.as_mut(), &bare, &some).unwrap_err();
        assert!(err.starts_with("counted 2"), "{err}");
        // A unique board, but the claimed solution is not its solution.
        let g = &generate_hex(&GenerateOptions::new(5, 1, 2)).unwrap()[0];
        let model = g.board.to_model("g");
        let truth = ExactCounter::new(&model).unwrap().count(2).solutions[0].clone();
        assert_eq!(confirm(sat.as_mut(), &model, &truth), Ok(2));
        let wrong = Solution::new(vec![0]);
        assert_eq!(
            confirm(sat.as_mut(), &model, &wrong),
            Err("solved it to a different solution".to_string())
        );
        assert!(g.checks.iter().any(|c| c.backend == "sat"));
    }

    #[test]
    fn queens_grids_are_unique_and_the_solution_does_not_touch() {
        let boards = generate_queens(&GenerateOptions::new(8, 2, 5)).unwrap();
        for g in &boards {
            let cols = &g.solution;
            assert_eq!(cols.len(), 8);
            assert!(cols.windows(2).all(|w| w[0].abs_diff(w[1]) >= 2));
            let model = g.board.to_model("g");
            assert_eq!(ExactCounter::new(&model).unwrap().count(u64::MAX).count, 1);
        }
        assert!(matches!(
            generate_queens(&GenerateOptions::new(3, 1, 0)),
            Err(GenerateError::BadSize(_))
        ));
        assert!(matches!(
            generate_hex(&GenerateOptions::new(8, 1, 0)),
            Err(GenerateError::BadSize(_))
        ));
    }
}
