//! Star Battle boards with exactly one solution, reproducible from a seed.
//!
//! For each board: a random valid placement ([`planted`]: `k` stars per row and column, none
//! touching; rows drawn at random among their `k`-subsets with backtracking), then `n` regions
//! grown from `n` of its stars (a random unassigned cell next to a region joins it; a region
//! already holding `k` stars takes no further star cell), so every region holds exactly `k`
//! planted stars. The generator's counter ([`super::search`]) counts up to 2; while a second
//! solution exists, **repair**: a star of the other solution that is not planted moves to a
//! neighbouring region (keeping its old region connected). The planted placement stays valid and
//! the other one breaks (its old region loses a star). After too many repairs the attempt starts
//! over.
//!
//! A board is kept only when two registry backends that accept its model each count exactly
//! one verified solution (limit 2) and solve it to the planted one
//! ([`crate::puzzle::generate::Confirmer`]). Boards equal to earlier ones in the run are
//! skipped. Board `i` of seed `s` uses its own ChaCha8 stream
//! ([`crate::puzzle::generate::board_rng`]); all draws are `u32` ranges over vectors, so the
//! boards are the same on any machine.
//!
//! Costs: per attempt one growth (`O(n^4)` at most) and a few counts by the own counter; the two
//! confirmations dominate (see the generator's timings in the commit that added it).

use std::collections::BTreeSet;

use rand_chacha::ChaCha8Rng;

use super::file::{solution_line, write};
use super::search::{count_within, row_masks};
use super::{StarBoard, StarKind};
use crate::puzzle::generate::regions::{connected_without, square_neighbours as neighbours};
use crate::puzzle::generate::{
    below, board_rng, collect_boards, each_board, fingerprint, shuffle, unique_by_line, Check,
    Confirmer, GenerateError, Generator, GeneratorOption, OnBoard, Request, RunEnd, MAX_ATTEMPTS,
    MAX_REPAIRS,
};

/// What to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StarOptions {
    /// Grid side `n` (4 to 16).
    pub width: usize,
    /// Stars per row, column and region `k` (`1 <= k`, `4k <= n`).
    pub stars: usize,
    /// Number of boards.
    pub count: usize,
    /// Seed; the same seed gives the same boards.
    pub seed: u64,
    /// Fresh placements tried per board before giving up.
    pub max_attempts: usize,
    /// Repairs tried per attempt before starting over.
    pub max_repairs: usize,
}

impl StarOptions {
    /// `count` boards of side `width` with `stars` stars from `seed`, with the default budgets
    /// (2000 attempts of at most `6 * width` repairs each).
    pub fn new(width: usize, stars: usize, count: usize, seed: u64) -> StarOptions {
        StarOptions {
            width,
            stars,
            count,
            seed,
            max_attempts: 2000,
            max_repairs: 6 * width,
        }
    }
}

/// One generated board and how it was made.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratedStar {
    /// Position in the run (0-based); also the RNG stream.
    pub index: usize,
    /// The board, with its unique solution as `known_solution`.
    pub board: StarBoard,
    /// Fresh placements tried.
    pub attempts: usize,
    /// Repairs made over all attempts.
    pub repairs: usize,
    /// Search nodes of the final uniqueness count (own counter, limit 2).
    pub nodes: u64,
    /// The two backends' confirmations.
    pub checks: Vec<Check>,
}

/// Search nodes one uniqueness count of the own counter may take before the attempt is
/// dropped (a few tenths of a second).
const COUNT_NODES: u64 = 200_000;

/// A random placement of `k` stars per row and column of an `n x n` grid, none touching (the
/// star columns of each row), or `None` when there is none.
pub fn planted(n: usize, k: usize, rng: &mut ChaCha8Rng) -> Option<Vec<Vec<usize>>> {
    let masks = row_masks(n, k);
    if masks.is_empty() {
        return None;
    }
    let mut rows: Vec<u64> = Vec::with_capacity(n);
    let mut columns = vec![0usize; n];
    let mut budget = 200_000u32;
    if !place(n, k, &masks, &mut rows, &mut columns, rng, &mut budget) {
        return None;
    }
    Some(
        rows.iter()
            .map(|&m| (0..n).filter(|&c| m >> c & 1 == 1).collect())
            .collect(),
    )
}

fn place(
    n: usize,
    k: usize,
    masks: &[u64],
    rows: &mut Vec<u64>,
    columns: &mut [usize],
    rng: &mut ChaCha8Rng,
    budget: &mut u32,
) -> bool {
    let r = rows.len();
    if r == n {
        return true;
    }
    let above = rows.last().map_or(0, |&m| m | m << 1 | m >> 1);
    let mut order: Vec<usize> = (0..masks.len()).collect();
    shuffle(rng, &mut order);
    for i in order {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let m = masks[i];
        let left = n - r - 1;
        let fits = m & above == 0
            && (0..n).all(|c| {
                let star = (m >> c & 1) as usize;
                let have = columns[c] + star;
                have <= k && k - have <= left.saturating_sub(star).div_ceil(2)
            });
        if !fits {
            continue;
        }
        for c in (0..n).filter(|&c| m >> c & 1 == 1) {
            columns[c] += 1;
        }
        rows.push(m);
        if place(n, k, masks, rows, columns, rng, budget) {
            return true;
        }
        rows.pop();
        for c in (0..n).filter(|&c| m >> c & 1 == 1) {
            columns[c] -= 1;
        }
    }
    false
}

/// Grows `n` regions from `n` of the planted stars so that each holds exactly `k` of them:
/// first each region short of stars, in random order, claims a shortest path of free cells to
/// its nearest free star (ties drawn at random); then the free cells left (none a star) join a
/// random neighbouring region one at a time. `None` when a region finds no free star.
fn grow(n: usize, k: usize, stars: &[Vec<usize>], rng: &mut ChaCha8Rng) -> Option<Vec<usize>> {
    let mut is_star = vec![false; n * n];
    let mut star_cells = Vec::new();
    for (r, cols) in stars.iter().enumerate() {
        for &c in cols {
            is_star[r * n + c] = true;
            star_cells.push(r * n + c);
        }
    }
    shuffle(rng, &mut star_cells);
    let mut region = vec![FREE; n * n];
    for (g, &cell) in star_cells.iter().take(n).enumerate() {
        region[cell] = g;
    }
    for _ in 1..k {
        let mut order: Vec<usize> = (0..n).collect();
        shuffle(rng, &mut order);
        for g in order {
            let path = path_to_star(n, &region, &is_star, g, rng)?;
            for cell in path {
                region[cell] = g;
            }
        }
    }
    let mut left = region.iter().filter(|&&g| g == FREE).count();
    while left > 0 {
        let moves: Vec<(usize, usize)> = (0..n * n)
            .filter(|&cell| region[cell] == FREE)
            .flat_map(|cell| {
                neighbours(n, cell)
                    .map(|nb| region[nb])
                    .filter(|&g| g != FREE)
                    .map(move |g| (cell, g))
                    .collect::<Vec<_>>()
            })
            .collect();
        let &(cell, g) = moves.get(below(rng, moves.len().max(1)))?;
        region[cell] = g;
        left -= 1;
    }
    Some(region)
}

/// A cell no region holds yet.
const FREE: usize = usize::MAX;

/// A shortest path from region `g` through free cells without stars to a free star (the star
/// included, the region's own cells not), the star drawn at random among the nearest ones.
fn path_to_star(
    n: usize,
    region: &[usize],
    is_star: &[bool],
    g: usize,
    rng: &mut ChaCha8Rng,
) -> Option<Vec<usize>> {
    let mut from = vec![usize::MAX; n * n];
    let mut frontier: Vec<usize> = (0..n * n).filter(|&c| region[c] == g).collect();
    for &c in &frontier {
        from[c] = c;
    }
    while !frontier.is_empty() {
        let mut next = Vec::new();
        let mut reached = Vec::new();
        for &c in &frontier {
            for nb in neighbours(n, c) {
                if region[nb] != FREE || from[nb] != usize::MAX {
                    continue;
                }
                from[nb] = c;
                if is_star[nb] {
                    reached.push(nb);
                } else {
                    next.push(nb);
                }
            }
        }
        if !reached.is_empty() {
            let mut cell = reached[below(rng, reached.len())];
            let mut path = vec![cell];
            while region[from[cell]] != g {
                cell = from[cell];
                path.push(cell);
            }
            return Some(path);
        }
        frontier = next;
    }
    None
}

/// One repair against `other` (a second solution): a star of `other` on a cell without a
/// planted star moves to a neighbouring region. False when no such move exists.
fn repair(
    n: usize,
    region: &mut [usize],
    planted: &[Vec<usize>],
    other: &[Vec<usize>],
    rng: &mut ChaCha8Rng,
) -> bool {
    let mut cells: Vec<usize> = other
        .iter()
        .enumerate()
        .flat_map(|(r, cols)| cols.iter().map(move |&c| (r, c)))
        .filter(|&(r, c)| !planted[r].contains(&c))
        .map(|(r, c)| r * n + c)
        .collect();
    shuffle(rng, &mut cells);
    for cell in cells {
        let old = region[cell];
        let targets: Vec<usize> = neighbours(n, cell)
            .map(|nb| region[nb])
            .filter(|&g| g != old)
            .collect();
        if targets.is_empty() || !connected_without(region, old, cell, |c| neighbours(n, c)) {
            continue;
        }
        region[cell] = targets[below(rng, targets.len())];
        return true;
    }
    false
}

fn board_of(n: usize, k: usize, region: &[usize]) -> StarBoard {
    let rows = region.chunks(n).map(<[usize]>::to_vec).collect();
    StarBoard::with_regions(rows, k).unwrap_or_else(|| StarBoard::bare(n, k))
}

fn check_options(o: &StarOptions) -> Result<(), GenerateError> {
    if !(4..=16).contains(&o.width) {
        return Err(GenerateError::BadSize(format!(
            "star width {}: expected 4 to 16",
            o.width
        )));
    }
    if o.stars == 0 || 4 * o.stars > o.width {
        return Err(GenerateError::BadOption {
            option: "stars",
            message: format!(
                "star battle with {} stars on a {w}x{w} grid: expected 1 to {} stars (4k <= n)",
                o.stars,
                o.width / 4,
                w = o.width
            ),
        });
    }
    Ok(())
}

/// Board `index` of a run: attempts until a unique board not in `seen` is found and confirmed.
fn one_board(
    o: &StarOptions,
    index: usize,
    seen: &mut BTreeSet<u128>,
    confirmer: &mut Confirmer,
) -> Result<GeneratedStar, GenerateError> {
    let (n, k) = (o.width, o.stars);
    let mut rng = board_rng(o.seed, index as u64);
    let mut repairs = 0;
    for attempt in 1..=o.max_attempts {
        let Some(stars) = planted(n, k, &mut rng) else {
            continue;
        };
        let Some(mut region) = grow(n, k, &stars, &mut rng) else {
            continue;
        };
        for _ in 0..=o.max_repairs {
            let counted = count_within(&board_of(n, k, &region), Some(2), COUNT_NODES);
            if !counted.exhaustive && counted.count < 2 {
                break; // too hard for the own counter: a fresh attempt
            }
            if counted.count == 1 {
                if !seen.insert(fingerprint(&region)) {
                    break;
                }
                let mut board = board_of(n, k, &region);
                let model = board.to_model(format!("star-{n}-{k}#{index}"));
                let checks = confirmer
                    .confirm_unique(&model, &board.solution_of(&stars))
                    .map_err(|reason| GenerateError::CheckFailed { index, reason })?;
                board.known_solution = Some(stars);
                return Ok(GeneratedStar {
                    index,
                    board,
                    attempts: attempt,
                    repairs,
                    nodes: counted.nodes,
                    checks,
                });
            }
            let Some(other) = counted.solutions.iter().find(|s| **s != stars) else {
                break;
            };
            if !repair(n, &mut region, &stars, other, &mut rng) {
                break;
            }
            repairs += 1;
        }
    }
    Err(GenerateError::GaveUp {
        index,
        attempts: o.max_attempts,
    })
}

/// Generates `o.count` boards; each has exactly one solution, confirmed by two backends.
pub fn generate(o: &StarOptions) -> Result<Vec<GeneratedStar>, GenerateError> {
    let (boards, stopped) = generate_partial(o)?;
    stopped.map_or(Ok(boards), Err)
}

/// Like [`generate`], but keeps the boards found before a board fails, with the reason the run
/// stopped (`None`: all were found). Bad options are an error at once.
pub fn generate_partial(
    o: &StarOptions,
) -> Result<(Vec<GeneratedStar>, Option<GenerateError>), GenerateError> {
    collect_boards(|each| generate_each(o, each))
}

/// Like [`generate_partial`], but hands each board to `each` as soon as it is confirmed,
/// keeping only fingerprints of the boards found: memory does not grow with `o.count`.
/// Returns the number found and why the run stopped short (`None`: all were found).
pub fn generate_each(
    o: &StarOptions,
    each: OnBoard<'_, GeneratedStar>,
) -> Result<RunEnd, GenerateError> {
    check_options(o)?;
    let mut seen = BTreeSet::new();
    let mut confirmer = Confirmer::default();
    Ok(each_board(
        o.count,
        |i| one_board(o, i, &mut seen, &mut confirmer),
        each,
    ))
}

/// One board as a `.star` block: `#` lines saying how it was made, the grid (with its
/// `# stars:` line) and its `# solution:` line.
pub fn block(o: &StarOptions, g: &GeneratedStar) -> String {
    let mut out = format!(
        "# generated star width={} stars={} seed={} board={}\n# attempts: {}  repairs: {}\n{}\n",
        o.width,
        o.stars,
        o.seed,
        g.index,
        g.attempts,
        g.repairs,
        unique_by_line(g.nodes, &g.checks),
    );
    let mut bare = g.board.clone();
    bare.known_solution = None;
    out.push_str(&write(&bare));
    if let Some(sol) = &g.board.known_solution {
        out.push_str(&solution_line(sol));
    }
    out
}

/// `--stars K`: stars per row, column and region.
pub const STARS: GeneratorOption = GeneratorOption {
    name: "stars",
    help: "Star Battle: stars per row, column and region (4k <= width; default 1)",
};

impl Generator for StarKind {
    fn options(&self) -> &'static [GeneratorOption] {
        &[MAX_ATTEMPTS, MAX_REPAIRS, STARS]
    }

    fn widths(&self) -> &'static str {
        "4 to 16"
    }

    /// Reads `stars` (default 1), `max-attempts` and `max-repairs` (default `6 x width`).
    fn generate_each(
        &self,
        request: &Request,
        each: OnBoard<'_, String>,
    ) -> Result<RunEnd, GenerateError> {
        let stars = request.option("stars").unwrap_or(1);
        let mut o = StarOptions::new(request.width, stars, request.count, request.seed);
        o.max_attempts = request.max_attempts();
        if let Some(r) = request.option("max-repairs") {
            o.max_repairs = r;
        }
        generate_each(&o, &mut |g| each(block(&o, &g)))
    }
}

#[cfg(test)]
mod tests {
    use super::super::file::read_str;
    use super::super::search::count;
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn one_star_boards_are_unique_reproducible_and_read_back() {
        let o = StarOptions::new(6, 1, 2, 7);
        let boards = generate(&o).unwrap();
        assert_eq!(boards, generate(&o).unwrap());
        assert_ne!(boards[0].board, boards[1].board);
        for g in &boards {
            let c = count(&g.board, None);
            assert_eq!((c.count, c.exhaustive), (1, true));
            assert_eq!(Some(&c.solutions[0]), g.board.known_solution.as_ref());
            assert_eq!(g.checks.len(), 2);
            let back = read_str(&block(&o, g), "gen.star").unwrap();
            assert_eq!(back[0], g.board);
        }
    }

    #[test]
    fn planted_placements_keep_the_rules_and_regions_hold_k_stars() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for (n, k) in [(9, 2), (10, 2), (7, 1)] {
            let stars = planted(n, k, &mut rng).unwrap();
            StarBoard::bare(n, k).check(&stars).unwrap();
            if let Some(region) = (0..50).find_map(|_| grow(n, k, &stars, &mut rng)) {
                board_of(n, k, &region).check(&stars).unwrap();
                for g in 0..n {
                    let next = |c| neighbours(n, c);
                    assert!(connected_without(&region, g, usize::MAX, next));
                }
            }
        }
    }

    #[test]
    fn bad_sizes_are_refused() {
        assert!(generate(&StarOptions::new(3, 1, 1, 0)).is_err());
        assert!(generate(&StarOptions::new(8, 3, 1, 0)).is_err());
        assert!(generate(&StarOptions::new(8, 0, 1, 0)).is_err());
    }
}
