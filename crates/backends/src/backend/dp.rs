//! Counting by dynamic programming over lines (`--backend dp`): counts, never solves.
//!
//! The coordinate family's lines (hex and Queens: `row`; Sudoku: `cell`) are taken one at a
//! time. A partial placement of the lines passed so far matters to the rest only through which
//! *open* rows it has used: rows with variables both behind and ahead of the frontier. So the
//! partial placements are merged into states keyed by that set (a 64-bit mask) with a count
//! each, and each line turns every state into its successors. A row that closes (its last line
//! is passed) leaves the key, and an "exactly one" row that closes unused kills the state: this
//! is the pruning of states that can no longer finish. For hex boards the key is the set of used
//! second- and third-axis lines; for Queens it is the used columns plus the 2x2 windows touched
//! by the previous row's queen (that is, the previous row's position).
//!
//! When the coordinate lines can be split in two halves that mirror each other (hex boards; any
//! model whose second half is the first half reflected), `count_lines` runs only the first
//! half and joins it with its own mirror image at the middle: meet in the middle.
//!
//! Costs: time is about `states x line length` hash-map updates per line and memory is 16 bytes
//! (plus hash-map overhead, about 2x) per state at the widest frontier. The number of states is
//! exponential in the frontier width; for hex width `n` it peaks in the middle row at some
//! fraction of `C(n, n/2)^2`. Counts are exact: `u64` per state (a state count above 2^64 is an
//! error, never wrapped), `u128` totals; the model must have at most 64 open rows at any
//! frontier.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use rayon::prelude::*;

use crate::backend::memory::{available_memory, gib, parse_size};
use crate::backend::refusal::first_general_row_refused;
use crate::backend::stop;
use crate::backend::{
    Backend, BackendError, BackendOptions, CountEnd, CountReport, Counter, RowLimit, RowRefusal,
    Solver, Stats,
};
use crate::model::{Model, Sense};

const NAME: &str = "dp";
/// States a task walks between two checks of the stop flag.
const STOP_EVERY: usize = 1 << 12;
/// The memory guard looks ahead only once a frontier holds this many states.
const GUARD_FROM_STATES: usize = 1 << 12;
/// Bytes a state costs in a hash-map frontier at worst (16 bytes and a control byte per
/// bucket, buckets at least 7/16 full after a growth).
const MAP_BYTES_PER_STATE: u64 = 40;

/// A fast hasher for 64-bit keys (one multiply and a rotate; keys are already well spread).
#[derive(Debug, Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
}

/// One hash map of states: used open rows (as slot bits) -> number of partial placements.
pub type Map = HashMap<u64, u64, BuildHasherDefault<KeyHasher>>;

fn shard_of(key: u64, shards: usize) -> usize {
    ((key.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 40) as usize) % shards
}

/// The states of one frontier, split into shards by key so that rayon tasks can build them
/// side by side (one shard per thread).
#[derive(Debug, Clone, Default)]
pub struct States {
    /// The shards; a key lives in shard `hash(key) % shards.len()`.
    pub shards: Vec<Map>,
}

impl States {
    /// The single empty placement (key 0, count 1), sharded over rayon's threads.
    pub fn start() -> States {
        let shards = rayon::current_num_threads().max(1);
        let mut states = States {
            shards: vec![Map::default(); shards],
        };
        states.shards[shard_of(0, shards)].insert(0, 1);
        states
    }

    /// Number of states.
    pub fn len(&self) -> usize {
        self.shards.iter().map(|s| s.len()).sum()
    }

    /// Whether there is no state.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The count of `key`, if present.
    pub fn get(&self, key: u64) -> Option<u64> {
        self.shards[shard_of(key, self.shards.len())]
            .get(&key)
            .copied()
    }

    /// The sum of all counts.
    pub fn total(&self) -> u128 {
        self.shards
            .iter()
            .flat_map(|s| s.values())
            .map(|&c| c as u128)
            .sum()
    }
}

/// One coordinate line of a [`LineProblem`]: its choices and whether it may stay empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// For each variable on the line, the slots of the open rows it uses.
    pub choices: Vec<u64>,
    /// Whether the line may hold no piece ("at most one").
    pub may_skip: bool,
    /// Slots whose rows close after this line and must be used by then ("exactly one").
    pub must_close: u64,
    /// Slots whose rows close after this line (freed for reuse).
    pub closing: u64,
}

/// A model cut into coordinate lines with slot masks: what the dynamic programme runs on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineProblem {
    /// The lines, in order.
    pub lines: Vec<Line>,
    /// The largest number of rows open at once (slots used).
    pub slots: usize,
    /// Refuse a step whose states are guessed to need more bytes than this (`None`: the
    /// memory the system has available, [`available_memory`]).
    pub memory_limit: Option<u64>,
}

/// Statistics of one dynamic programme.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DpStats {
    /// States after each line.
    pub states_per_line: Vec<u64>,
    /// The most states held at once.
    pub peak_states: u64,
    /// Whether the mirror join was used.
    pub mirrored: bool,
}

impl LineProblem {
    /// Cuts `model` (givens applied first) along the lines of family `coordinate`, which must
    /// partition the free variables; with `None`, every variable is a line of its own that may
    /// hold a piece or not (any model). Fails when the family does not partition the variables,
    /// or when more than 64 rows are open at one frontier.
    pub fn from_model(
        model: &Model,
        coordinate: Option<&str>,
    ) -> Result<LineProblem, BackendError> {
        general_rows_refused(model).map_err(|reason| BackendError::UnsupportedRows {
            backend: NAME.into(),
            reason: Box::new(reason),
        })?;
        let reduction = model.reduce();
        let m = &reduction.model;
        let fail = |reason: String| BackendError::TooLarge {
            backend: NAME.into(),
            reason,
        };
        if reduction.infeasible {
            return Ok(LineProblem {
                lines: vec![Line {
                    choices: Vec::new(),
                    may_skip: false,
                    must_close: 0,
                    closing: 0,
                }],
                slots: 0,
                memory_limit: None,
            });
        }
        let fam = match coordinate {
            None => None,
            Some(name) => Some(
                m.family_id(name)
                    .ok_or_else(|| fail(format!("no family '{name}' to take lines from")))?,
            ),
        };
        let (line_vars, line_of) = lines_of(m, fam, coordinate.unwrap_or(""))?;
        let (rows, slot_of, slots) = assign_slots(m, fam, &line_of)?;
        let cols = m.columns();
        let mut lines: Vec<Line> = line_vars
            .iter()
            .map(|(vars, may_skip)| Line {
                choices: vars
                    .iter()
                    .map(|&v| {
                        cols[v]
                            .iter()
                            .filter(|&&row| Some(m.constraints()[row].family) != fam)
                            .fold(0u64, |acc, &row| acc | 1 << slot_of[row])
                    })
                    .collect(),
                may_skip: *may_skip,
                must_close: 0,
                closing: 0,
            })
            .collect();
        for &(_, last, r) in &rows {
            let bit = 1u64 << slot_of[r];
            lines[last].closing |= bit;
            if m.constraints()[r].sense == Sense::ExactlyOne {
                lines[last].must_close |= bit;
            }
        }
        Ok(LineProblem {
            lines,
            slots,
            memory_limit: None,
        })
    }

    /// One step: the successors of `states` across `line`. Each output shard is built by one
    /// rayon task, which walks every input state and keeps the successors that hash to it (so
    /// successors are generated once per shard, inserted once). Fails on a count above `u64`.
    pub fn step(states: &States, line: &Line) -> Result<States, BackendError> {
        Self::step_with(states, line, None)
    }

    /// [`LineProblem::step`] on states stored up to a mirror symmetry: with `mirror` (an
    /// involution of keys that maps the line's choices onto themselves and keeps the counts),
    /// only canonical keys (`key <= mirror(key)`) are stored, each with its own count, which
    /// halves states and work. `None`: every key is stored.
    pub fn step_with(
        states: &States,
        line: &Line,
        mirror: Option<&(dyn Fn(u64) -> u64 + Sync)>,
    ) -> Result<States, BackendError> {
        let shards = states.shards.len();
        let reserve = states.len() / shards.max(1);
        // Read here: the rayon tasks below run on threads without this thread's flag.
        let stop = stop::current();
        let parts: Vec<(Map, bool)> = (0..shards)
            .into_par_iter()
            .map(|s| {
                let mut out = Map::default();
                out.reserve(reserve);
                let mut overflow = false;
                let mut walked = 0usize;
                let mut add = |key: u64, count: u64| {
                    if shard_of(key, shards) == s {
                        let e = out.entry(key).or_insert(0);
                        let (v, o) = e.overflowing_add(count);
                        *e = v;
                        overflow |= o;
                    }
                };
                for shard in &states.shards {
                    for (&key, &count) in shard {
                        walked += 1;
                        if walked % STOP_EVERY == 0 && stop::raised(&stop) {
                            return (out, overflow);
                        }
                        let asymmetric = mirror.is_some_and(|m| m(key) != key);
                        let mut each = |next: u64| match mirror {
                            None => add(next, count),
                            Some(mirror) => {
                                // The successor `next` of `key` stands for itself; the same
                                // successor of mirror(key) is mirror(next).
                                let image = mirror(next);
                                if next <= image {
                                    add(next, count);
                                }
                                if asymmetric && image <= next {
                                    add(image, count);
                                }
                            }
                        };
                        if line.may_skip && key & line.must_close == line.must_close {
                            each(key & !line.closing);
                        }
                        for &mask in &line.choices {
                            if key & mask == 0 {
                                let next = key | mask;
                                if next & line.must_close == line.must_close {
                                    each(next & !line.closing);
                                }
                            }
                        }
                    }
                }
                (out, overflow)
            })
            .collect();
        stop::check(&stop, NAME)?;
        if parts.iter().any(|p| p.1) {
            return Err(BackendError::TooLarge {
                backend: NAME.into(),
                reason: "a state count passed 2^64".into(),
            });
        }
        Ok(States {
            shards: parts.into_iter().map(|p| p.0).collect(),
        })
    }

    /// Runs the lines `range` from `start`, recording state counts (see
    /// [`LineProblem::step_with`] for `mirror`).
    pub fn run(
        &self,
        range: std::ops::Range<usize>,
        start: States,
        stats: &mut DpStats,
        mirror: Option<&(dyn Fn(u64) -> u64 + Sync)>,
    ) -> Result<States, BackendError> {
        let mut states = start;
        let limit = self.memory_limit.or_else(available_memory);
        let mut sizes = vec![states.len() as u64];
        for (i, line) in self.lines[range.clone()].iter().enumerate() {
            if let Some(limit) = limit.filter(|_| states.len() >= GUARD_FROM_STATES) {
                let next = extrapolate(&sizes, 1)[0];
                let needed = (states.len() as u64).saturating_add(next) * MAP_BYTES_PER_STATE;
                if needed > limit {
                    return Err(BackendError::TooLarge {
                        backend: NAME.into(),
                        reason: format!(
                            "the states after line {} of {} would need about {} ({} states \
                             now, about {next} next, guessed from their growth), above the \
                             limit of {}; stopped before it (hex boards: `zeroone table hex \
                             --width W --shard k/K` splits the count into shards)",
                            range.start + i + 1,
                            self.lines.len(),
                            gib(needed),
                            states.len(),
                            gib(limit)
                        ),
                    });
                }
            }
            states = Self::step_with(&states, line, mirror)?;
            let len = states.len() as u64;
            sizes.push(len);
            stats.states_per_line.push(len);
            stats.peak_states = stats.peak_states.max(len);
        }
        Ok(states)
    }

    /// The number of placements: every line passed, every "exactly one" row used.
    pub fn count(&self) -> Result<(u128, DpStats), BackendError> {
        let mut stats = DpStats::default();
        let end = self.run(0..self.lines.len(), States::start(), &mut stats, None)?;
        Ok((end.total(), stats))
    }
}

/// A line's variables and whether it may stay empty.
type LineVars = (Vec<usize>, bool);

/// A row's lifetime over the lines: `(first line, last line, row)`.
type RowSpan = (usize, usize, usize);

/// The lines of `m`: per row of family `fam` its variables and whether it may stay empty
/// (`<= 1`), or with no family every variable a line of its own; and each variable's line.
/// Fails when the family does not partition the variables. Linear in the family's nonzeros.
fn lines_of(
    m: &Model,
    fam: Option<usize>,
    name: &str,
) -> Result<(Vec<LineVars>, Vec<usize>), BackendError> {
    let fail = |reason: String| BackendError::TooLarge {
        backend: NAME.into(),
        reason,
    };
    let n = m.num_variables();
    let mut line_of = vec![usize::MAX; n];
    let line_vars: Vec<LineVars> = match fam {
        Some(f) => m.families()[f]
            .rows
            .iter()
            .map(|&r| {
                let c = &m.constraints()[r];
                (c.vars.clone(), c.sense == Sense::AtMostOne)
            })
            .collect(),
        None => (0..n).map(|v| (vec![v], true)).collect(),
    };
    for (i, (vars, _)) in line_vars.iter().enumerate() {
        for &v in vars {
            if line_of[v] != usize::MAX {
                return Err(fail(format!(
                    "family '{name}' does not partition the variables"
                )));
            }
            line_of[v] = i;
        }
    }
    if line_of.contains(&usize::MAX) {
        return Err(fail(format!(
            "family '{name}' does not cover every variable"
        )));
    }
    Ok((line_vars, line_of))
}

/// The rows outside family `fam` with their lifetimes `(first line, last line, row)`, sorted;
/// each row's slot (a bit of the state key) by greedy interval colouring; and the number of
/// slots. Fails above 64 slots. Costs a sort of the rows.
fn assign_slots(
    m: &Model,
    fam: Option<usize>,
    line_of: &[usize],
) -> Result<(Vec<RowSpan>, Vec<usize>, usize), BackendError> {
    let mut rows: Vec<RowSpan> = Vec::new();
    for (r, c) in m.constraints().iter().enumerate() {
        if Some(c.family) == fam {
            continue;
        }
        let first = c.vars.iter().map(|&v| line_of[v]).min().unwrap_or(0);
        let last = c.vars.iter().map(|&v| line_of[v]).max().unwrap_or(0);
        rows.push((first, last, r));
    }
    rows.sort();
    let mut slot_free_after: Vec<usize> = Vec::new(); // per slot: last line of its row
    let mut slot_of = vec![usize::MAX; m.constraints().len()];
    for &(first, last, r) in &rows {
        let slot = match slot_free_after.iter().position(|&l| l < first) {
            Some(s) => s,
            None => {
                slot_free_after.push(0);
                slot_free_after.len() - 1
            }
        };
        slot_free_after[slot] = last;
        slot_of[r] = slot;
    }
    if slot_free_after.len() > 64 {
        return Err(BackendError::TooLarge {
            backend: NAME.into(),
            reason: format!(
                "{} rows open at one frontier; dp takes at most 64",
                slot_free_after.len()
            ),
        });
    }
    Ok((rows, slot_of, slot_free_after.len()))
}

/// The sizes of the next `steps` layers guessed from the growth so far. Towards the middle
/// row the growth ratio `r` falls: `r - 1` shrinks at each step by a factor `q`, and `q`
/// itself falls by a roughly steady amount each step (width 23: `q` = 0.85, 0.79, 0.72,
/// 0.66). `q` is carried on falling by half its last fall (never above 1 nor below 0.6), to
/// lean high: from the first 8 of width 23's 12 layers the top layer comes out 1.7 times too
/// large, from the first 5 of width 17's 9 about 10% too small.
pub fn extrapolate(sizes: &[u64], steps: usize) -> Vec<u64> {
    let n = sizes.len();
    let ratio_at = |i: usize| sizes[i].max(1) as f64 / sizes[i - 1].max(1) as f64;
    let shrink = |a: f64, b: f64| {
        if a > 1.0 {
            ((b - 1.0) / (a - 1.0)).min(1.0)
        } else {
            1.0
        }
    };
    let (mut ratio, mut q, dq) = match n {
        0 | 1 => (32.0, 1.0, 0.0),
        2 => (ratio_at(1), 1.0, 0.0),
        3 => (ratio_at(2), shrink(ratio_at(1), ratio_at(2)), 0.0),
        _ => {
            let (a, b, c) = (ratio_at(n - 3), ratio_at(n - 2), ratio_at(n - 1));
            let (q1, q2) = (shrink(a, b), shrink(b, c));
            (c, q2, ((q2 - q1) / 2.0).min(0.0))
        }
    };
    let mut size = sizes.last().map_or(1.0, |&s| s.max(1) as f64);
    let mut out = Vec::with_capacity(steps);
    for _ in 0..steps {
        q = (q + dq).clamp(0.6, 1.0);
        ratio = 1.0 + (ratio - 1.0).max(0.0) * q;
        size *= ratio;
        out.push(size.min(u64::MAX as f64 / 2.0) as u64);
    }
    out
}

/// `Err(reason)` naming the first general row of `model` (`= k`, `<= k`, `>= k` with `k != 1`
/// or weights): a state key holds one bit per open row (used or not), which a running sum does
/// not fit in. Cost: one scan of the row senses.
pub fn general_rows_refused(model: &Model) -> Result<(), RowRefusal> {
    first_general_row_refused(model, |sense, weighted| RowLimit::NoRunningSum {
        sense,
        weighted,
    })
}

/// The dynamic-programming counting backend (`--backend dp`). Counts only.
#[derive(Debug, Clone, Default)]
pub struct DpBackend {
    coordinate: Option<String>,
    memory_limit: Option<String>,
}

impl DpBackend {
    /// Reads the options `coordinate` (the family giving the lines; default by puzzle kind)
    /// and `memory-limit` (a size like `8G`: refuse a count guessed to need more; default:
    /// the memory available). A `memory-limit` that is not a size is refused here, before any
    /// count.
    pub fn new(options: &BackendOptions) -> Result<Self, BackendError> {
        let memory_limit = options.params.get("memory-limit").cloned();
        if let Some(text) = &memory_limit {
            parse_memory_limit(text)?;
        }
        Ok(DpBackend {
            coordinate: options.params.get("coordinate").cloned(),
            memory_limit,
        })
    }
}

/// The `memory-limit` parameter's value in bytes, or the error naming what it takes.
fn parse_memory_limit(text: &str) -> Result<u64, BackendError> {
    parse_size(text).ok_or_else(|| BackendError::BadOption {
        backend: NAME.into(),
        key: "memory-limit".into(),
        value: text.to_string(),
        expected: "a size like 8G, 512M or 1073741824".into(),
    })
}

impl Counter for DpBackend {
    fn count(&mut self, model: &Model, limit: Option<u64>) -> Result<CountReport, BackendError> {
        let start = Instant::now();
        let problem = match &self.coordinate {
            Some(c) => LineProblem::from_model(model, Some(c))?,
            None => {
                // The model's hinted family, else any family that partitions the variables,
                // else one line per variable.
                let names = model
                    .hints()
                    .coordinate_family
                    .clone()
                    .into_iter()
                    .chain(model.families().iter().map(|f| f.name.clone()));
                let mut found = None;
                for name in names {
                    if let Ok(p) = LineProblem::from_model(model, Some(&name)) {
                        found = Some(p);
                        break;
                    }
                }
                match found {
                    Some(p) => p,
                    None => LineProblem::from_model(model, None)?,
                }
            }
        };
        let mut problem = problem;
        if let Some(text) = &self.memory_limit {
            problem.memory_limit = Some(parse_memory_limit(text)?);
        }
        let (count, dp) = problem.count()?;
        let mut stats = Stats {
            solutions: count.min(u64::MAX as u128) as u64,
            seconds: start.elapsed().as_secs_f64(),
            ..Stats::default()
        };
        stats
            .extra
            .insert("peak_states".into(), dp.peak_states.into());
        stats.extra.insert("slots".into(), problem.slots.into());
        stats
            .extra
            .insert("states_per_line".into(), dp.states_per_line.into());
        // A count cannot stop part way; with a limit, report the limit, not exhaustive.
        let (count, end) = match limit {
            Some(l) if count > l as u128 => (l as u128, CountEnd::AtLimit),
            _ => (count, CountEnd::Complete),
        };
        Ok(CountReport {
            count: count.into(),
            end,
            witnesses: Vec::new(),
            stats,
        })
    }
}

impl Backend for DpBackend {
    fn name(&self) -> &'static str {
        NAME
    }
    fn size_caps(&self) -> &'static str {
        "64 rows open at one frontier; the states of a line within memory"
    }
    /// Exact-cover rows only, with the reason of [`general_rows_refused`].
    fn rows_supported(&self, model: &Model) -> Result<(), RowRefusal> {
        general_rows_refused(model)
    }
    fn solver(&mut self) -> Option<&mut dyn Solver> {
        None
    }
    fn counter(&mut self) -> Option<&mut dyn Counter> {
        Some(self)
    }
    fn no_optimizer_reason(&self) -> String {
        "dynamic programming over lines counts placements per state and keeps no solution or cost per state".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::enumerate::{EnumSettings, Enumerator};
    use crate::model::PuzzleKind;
    use crate::puzzle::{HexBoard, QueensBoard};

    fn enum_count(model: &Model, families: &[&str]) -> u128 {
        let settings = EnumSettings {
            families: Some(families.iter().map(|s| s.to_string()).collect()),
            ..EnumSettings::default()
        };
        Enumerator::new(model, &settings).unwrap().count(None).0
    }

    #[test]
    fn queens_counts_agree_with_the_enumerator_and_a002464() {
        let a002464 = [1u128, 0, 0, 2, 14, 90, 646, 5242, 47622, 479306];
        for n in 1..=10 {
            let m = QueensBoard::bare(n).to_model("q");
            let (count, _) = LineProblem::from_model(&m, Some("row"))
                .unwrap()
                .count()
                .unwrap();
            assert_eq!(count, a002464[n - 1], "n = {n}");
            if n <= 7 {
                assert_eq!(count, enum_count(&m, &["row", "column", "touch"]));
            }
        }
    }

    #[test]
    fn a_count_guessed_to_pass_the_memory_limit_stops_before_the_step() {
        let m = HexBoard::geometry(15).unwrap().to_model("hex");
        let mut problem = LineProblem::from_model(&m, Some("row")).unwrap();
        problem.memory_limit = Some(1 << 20);
        let e = problem.count().unwrap_err().to_string();
        assert!(e.contains("above the limit of 0.00 GiB"), "{e}");
        assert!(e.contains("--shard k/K"), "{e}");
        problem.memory_limit = Some(1 << 40);
        assert_eq!(problem.count().unwrap().0, 659632);
        let options = BackendOptions {
            params: [("memory-limit".to_string(), "lots".to_string())].into(),
            ..BackendOptions::default()
        };
        let e = DpBackend::new(&options).unwrap_err();
        assert!(e.to_string().contains("memory-limit"), "{e}");
        assert_eq!(parse_size("8G"), Some(8 << 30));
        assert_eq!(parse_size("512MiB"), Some(512 << 20));
        assert_eq!(parse_size("1.5K"), Some(1536));
        assert_eq!(parse_size("0"), None);
        assert_eq!(parse_size("8X"), None);
    }

    #[test]
    fn the_backend_counts_but_does_not_solve() {
        let mut b = DpBackend::default();
        assert!(b.solver().is_none());
        let m = QueensBoard::bare(6).to_model("q6");
        let report = b.count(&m, None).unwrap();
        assert_eq!(report.count, 90);
        assert!(report.end.is_complete() && report.witnesses.is_empty());
        let limited = b.count(&m, Some(10)).unwrap();
        assert_eq!(
            (limited.count.to_u128().unwrap(), limited.end),
            (10, CountEnd::AtLimit)
        );
    }

    /// `n` variables, each alone in an "at most one" row: `2^n` solutions, all in one state
    /// (no row stays open), whose count doubles at every line.
    fn doubling(n: usize) -> Model {
        use crate::model::{Coord, ModelBuilder};
        let mut b = ModelBuilder::new("doubling", PuzzleKind::Generic);
        let f = b.family("single");
        for i in 0..n {
            let v = b.variable(format!("x{i}"), Coord::Free);
            b.row(f, vec![v], Sense::AtMostOne);
        }
        b.build().unwrap()
    }

    #[test]
    fn a_state_count_past_2_64_is_refused_by_name_never_wrapped() {
        use crate::backend::{count_verified, Status};
        let mut dp = DpBackend::new(&BackendOptions::default()).unwrap();
        // 2^63 fits a state's u64: counted exactly.
        let out = count_verified(&mut dp, &doubling(63), None).unwrap();
        assert_eq!(out.status, Status::Solved);
        assert_eq!(out.count.to_u128(), Some(1u128 << 63));
        // 2^64 does not: refused, naming the limit (a wrapped count would read 0).
        let out = count_verified(&mut dp, &doubling(64), None).unwrap();
        assert_eq!(out.status, Status::Unsupported, "{:?}", out.reason);
        let reason = out.reason.unwrap_or_default();
        assert!(reason.contains("passed 2^64"), "{reason}");
        // `xcc`'s memo engine counts past it exactly (free-standing rows are its slack).
        let mut memo = crate::backend::make_backend(
            "xcc",
            &BackendOptions {
                params: [("engine".to_string(), "memo".to_string())].into(),
                ..BackendOptions::default()
            },
        )
        .unwrap();
        let out = count_verified(memo.as_mut(), &doubling(70), None).unwrap();
        assert_eq!(out.count.to_u128(), Some(1u128 << 70), "{:?}", out.reason);
    }

    #[test]
    fn general_rows_are_refused_with_the_row_and_the_reason_never_miscounted() {
        use crate::backend::{count_verified, Status};
        use crate::model::{Coord, ModelBuilder};
        let mut b = ModelBuilder::new("two", PuzzleKind::Generic);
        for i in 0..9 {
            b.variable(format!("x{i}"), Coord::Free);
        }
        let (row, column) = (b.family("row"), b.family("column"));
        for i in 0..3 {
            b.row(row, (0..3).map(|j| i * 3 + j).collect(), Sense::Exactly(2));
            b.row(
                column,
                (0..3).map(|j| j * 3 + i).collect(),
                Sense::Exactly(2),
            );
        }
        let m = b.build().unwrap();
        let mut dp = DpBackend::new(&BackendOptions::default()).unwrap();
        let reason = dp.rows_supported(&m).unwrap_err().to_string();
        assert!(reason.contains("row 0 of family 'row' is = 2"), "{reason}");
        let out = count_verified(&mut dp, &m, None).unwrap();
        assert_eq!(out.status, Status::Unsupported);
        // The line problem refuses it too (a library user may call it directly).
        assert!(matches!(
            LineProblem::from_model(&m, None),
            Err(BackendError::UnsupportedRows { .. })
        ));
    }
}
