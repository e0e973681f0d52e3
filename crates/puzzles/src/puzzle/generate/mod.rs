//! The generator machinery every kind's generator shares, below the kinds: the errors, the
//! [`Generator`] ability a kind offers the `generate` command, the seeded draws, the
//! confirmation of each board by independent backends ([`confirm`]), the generator's exact
//! count on the `xcc` engine in a fixed order ([`counter`]), planted colour regions grown and
//! repaired until one solution is left ([`regions`], for hex and Queens), complete Sudoku digit
//! grids ([`filled_grid`], for Sudoku and Killer Sudoku) and the runs that hand boards on as
//! they come. Each kind's generator lives in its own folder (`kinds/<kind>/generate.rs`) and
//! imports only from here.
//!
//! Reproducible: board `i` of seed `s` uses its own ChaCha8 stream ([`board_rng`]), every draw
//! is a `u32` range ([`below`]), and the logic walks vectors only (no hash-map order), so the
//! same seed gives the same boards on any machine.
//!
//! [`exact_cover`] builds Knuth's exact-cover benchmarks (pentominoes, Langford pairs,
//! n-queens) as models; it is a generator of models rather than of boards of a kind.
//!
//! Costs: the helpers here are `O(1)` per draw; a run costs what its kind's attempts cost.

pub mod confirm;
pub mod counter;
pub mod counting;
pub mod exact_cover;
pub mod filled_grid;
pub mod regions;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

pub use confirm::{Check, Confirmer, CONFIRMING_BACKENDS};
pub use regions::{GenerateOptions, Generated};

/// Errors of the generators.
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
    /// An option the kind's generator does not read was given.
    #[error("generate {kind} does not take --{option} (only generate {readers})")]
    UnreadOption {
        /// The kind asked for.
        kind: String,
        /// The option (without `--`).
        option: String,
        /// The kinds whose generators read it, in words (`hex, queens and star`).
        readers: String,
    },
    /// No registered kind of this name has a generator.
    #[error("no generator for kind '{name}': expected one of {known}{hint}")]
    UnknownKind {
        /// The name asked for.
        name: String,
        /// The kinds with a generator, comma-separated.
        known: String,
        /// "; did you mean ..." when a known name is close, else empty.
        hint: String,
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

/// What a streamed run returns: the number of boards handed on and why the run stopped short
/// of the count (`None`: all were found).
pub type RunEnd = (usize, Option<GenerateError>);

/// Fresh placements a generator tries per board before giving up, unless `max-attempts` says
/// otherwise.
pub const DEFAULT_ATTEMPTS: usize = 1000;

/// What `zeroone generate KIND` asks of a kind's generator: width, count and seed, and the
/// further options given (by the name the command line spells without `--`). Only the options
/// given are listed, so a generator can tell "not given" from any value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Board width (hex width, grid side).
    pub width: usize,
    /// Number of boards.
    pub count: usize,
    /// Seed; the same seed gives the same boards.
    pub seed: u64,
    /// The further options given, in the order given: `("max-repairs", 12)`.
    pub options: Vec<(&'static str, usize)>,
}

impl Request {
    /// `count` boards of `width` from `seed`, no further options.
    pub fn new(width: usize, count: usize, seed: u64) -> Request {
        Request {
            width,
            count,
            seed,
            options: Vec::new(),
        }
    }

    /// The request with option `name` set to `value`.
    pub fn with(mut self, name: &'static str, value: usize) -> Request {
        self.options.push((name, value));
        self
    }

    /// The value given for option `name`, if any (the last one when given twice).
    pub fn option(&self, name: &str) -> Option<usize> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|&(_, v)| v)
    }

    /// `max-attempts`, or [`DEFAULT_ATTEMPTS`].
    pub fn max_attempts(&self) -> usize {
        self.option("max-attempts").unwrap_or(DEFAULT_ATTEMPTS)
    }
}

/// A setting a generator reads beyond width, count and seed: a whole number, given on the
/// command line as `--NAME N` (`generate` builds its flags from the registered generators'
/// options, so a kind adds one without touching the command).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GeneratorOption {
    /// The name, as the command line spells it without `--` (`max-cage`).
    pub name: &'static str,
    /// What it sets, for `zeroone generate --help` (one line, no final period).
    pub help: &'static str,
}

/// `--max-attempts`: fresh placements tried per board before giving up ([`DEFAULT_ATTEMPTS`]).
pub const MAX_ATTEMPTS: GeneratorOption = GeneratorOption {
    name: "max-attempts",
    help: "Fresh placements tried per board before giving up (default 1000)",
};

/// `--max-repairs`: region moves tried per placement before starting over (the generators
/// that grow colour regions, [`regions`]).
pub const MAX_REPAIRS: GeneratorOption = GeneratorOption {
    name: "max-repairs",
    help: "Region moves tried per placement before starting over (default: 4 x width; Star \
           Battle 6 x width)",
};

/// A kind's generator as the `generate` command sees it (an optional ability of a kind:
/// `Kind::generator`). It makes boards with exactly one solution, reproducibly from the seed,
/// and hands each on as a block of the kind's file format.
pub trait Generator: Sync {
    /// The options it reads beyond width, count and seed (`[MAX_ATTEMPTS, STARS]`); any other
    /// option given is refused.
    fn options(&self) -> &'static [GeneratorOption];

    /// The widths it accepts, in words, for help texts (`odd, 1 to 51`).
    fn widths(&self) -> &'static str;

    /// Generates `request.count` boards, handing each board's block (`#` lines saying how it
    /// was made and which backends confirmed it, then the board as the kind's file format
    /// writes it) to `each` as soon as it is found and checked; the blocks joined by blank
    /// lines are a file the kind reads back. Returns how many were handed on and why the run
    /// stopped short (`None`: all were found); `Err` before any board for a width or option
    /// that can have no boards. Memory does not grow with the count.
    fn generate_each(
        &self,
        request: &Request,
        each: OnBoard<'_, String>,
    ) -> Result<RunEnd, GenerateError>;
}

/// The random stream of board `index` of a run seeded `seed`: ChaCha8 seeded from `seed`,
/// stream `index`, so any board can be made again alone.
pub fn board_rng(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}

/// A uniform draw below `n` (`0 < n <= u32::MAX`), the same on every platform.
pub fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    rng.gen_range(0..n as u32) as usize
}

/// Shuffles `items` in place (Fisher-Yates from the back, draws by [`below`]).
pub fn shuffle<T>(rng: &mut ChaCha8Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i + 1);
        items.swap(i, j);
    }
}

/// A 128-bit fingerprint of a board's key, which is all a run keeps of the boards it has
/// written (to skip repeats): 16 bytes per board instead of the board. Two SipHash passes
/// with different prefixes; a collision (about 2^-64 for a billion boards) only skips a board.
pub fn fingerprint<K: std::hash::Hash + ?Sized>(key: &K) -> u128 {
    use std::hash::{DefaultHasher, Hasher};
    let half = |salt: u8| {
        let mut h = DefaultHasher::new();
        h.write_u8(salt);
        key.hash(&mut h);
        h.finish()
    };
    (u128::from(half(1)) << 64) | u128::from(half(2))
}

/// The `# unique by:` comment line of a generated board (without its line break): the
/// generator's count and each backend's confirmation, with their search nodes.
pub fn unique_by_line(nodes: u64, checks: &[Check]) -> String {
    format!(
        "# unique by: generator search ({nodes} nodes), {}",
        checks
            .iter()
            .map(|c| format!("{} ({} nodes)", c.backend, c.nodes))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Boards `0..count` made by `one` (each given its index), handed to `each` as they come;
/// the first error stops the run. The loop shared by the generators.
pub fn each_board<B>(
    count: usize,
    mut one: impl FnMut(usize) -> Result<B, GenerateError>,
    each: OnBoard<'_, B>,
) -> RunEnd {
    count_each(each, |each| {
        for index in 0..count {
            let board = one(index)?;
            each(board).map_err(|reason| GenerateError::Output { index, reason })?;
        }
        Ok(())
    })
}

/// Every board `run` hands out, kept (for callers that want them all), and why it stopped.
pub fn collect_boards<B>(
    run: impl FnOnce(OnBoard<'_, B>) -> Result<RunEnd, GenerateError>,
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
pub fn count_each<B>(
    each: OnBoard<'_, B>,
    run: impl FnOnce(OnBoard<'_, B>) -> Result<(), GenerateError>,
) -> RunEnd {
    let mut found = 0;
    let stopped = run(&mut |b| {
        each(b)?;
        found += 1;
        Ok(())
    })
    .err();
    (found, stopped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_keep_the_last_value_and_default_the_attempts() {
        let r = Request::new(7, 2, 1)
            .with("max-repairs", 3)
            .with("max-repairs", 5);
        assert_eq!(r.option("max-repairs"), Some(5));
        assert_eq!(r.option("stars"), None);
        assert_eq!(r.max_attempts(), DEFAULT_ATTEMPTS);
        assert_eq!(r.with("max-attempts", 9).max_attempts(), 9);
    }

    #[test]
    fn shuffles_are_permutations_and_the_same_for_the_same_stream() {
        let mut a: Vec<usize> = (0..20).collect();
        let mut b = a.clone();
        shuffle(&mut board_rng(4, 2), &mut a);
        shuffle(&mut board_rng(4, 2), &mut b);
        assert_eq!(a, b);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..20).collect::<Vec<_>>());
        let mut c: Vec<usize> = (0..20).collect();
        shuffle(&mut board_rng(4, 3), &mut c);
        assert_ne!(a, c);
    }
}
