//! The "sweep" engine for exact cover with at most [`MAX_ITEMS`] binding items (pentominoes,
//! Langford pairs, n-queens): every option is a 128-bit mask over the items, the state is the
//! mask of covered items, and the search branches on the first uncovered primary item of a
//! fixed order, trying the options whose first item (in that order) it is. This is how bitboard
//! polyomino solvers fill a board cell by cell: more nodes than MRV, but each costs one AND
//! per candidate option (`mask & covered == 0`), with nothing to update or undo.
//!
//! Why the candidates are exactly those options: when item `k` is the first uncovered one, every
//! primary item before it is covered, so an option holding one of them cannot be chosen; every
//! solution holds exactly one option through `k`, and that option's first item is `k`. So every
//! solution is met exactly once and counts are exact.
//!
//! The order is derived from the items and options alone (see [`item_order`]), never from
//! names or families, so every spelling of a model (JSON with families, an `.xcc` file with one
//! list of items) is swept alike. Label classes (sets of items every option holds exactly one
//! of: the pieces, the values of Langford pairs, the rows and columns of n-queens) are found
//! greedily; the other items (the cells of a board, the positions of Langford pairs: "space")
//! come before them, groups with more items per option first, so the sweep fills space and
//! the labels follow. Within a group the items keep the model's order or, when the group is a
//! grid of some width, the transposed order, whichever keeps the options' items closer together
//! (the sum over options of the distance between their first and last item): a 6x10 board is
//! then filled along its short side. Slack items (see `problem`) come last.
//!
//! Costs per node: one scan of the options starting at the branching item (16 bytes each).
//! Memory: 24 bytes per option. Statistics: `extra.tests` counts the mask tests.

use std::time::{Duration, Instant};

use super::problem::Problem;
use super::search::{Ending, Tally};
use crate::backend::stop::Alarm;
use crate::backend::Stats;
use crate::model::Model;

/// The most binding items (primary and secondary) this engine takes: one bit each in a `u128`.
pub(crate) const MAX_ITEMS: usize = 128;

/// How often (in nodes) the clock is read (first at the first node).
const CLOCK_EVERY: u64 = 1 << 12;

/// The widest look-up pattern (see [`SweepProblem`]): 2^8 lists per item.
const MAX_PATTERN_BITS: u32 = 8;

/// The most entries (16-byte masks, 4-byte ids) the pattern tables may take, so that they
/// stay in the core's cache: 2^15 entries, 640 KiB.
const MAX_TABLE_ENTRIES: usize = 1 << 15;

/// A problem in the form the sweep reads.
#[derive(Debug, Clone, Default)]
pub(crate) struct SweepProblem {
    /// How many items after the branching one form the look-up pattern (0 to
    /// [`MAX_PATTERN_BITS`]).
    pattern_bits: u32,
    /// Per primary position `k` in the order and pattern `q` (the coverage of the
    /// `pattern_bits` items after `k`), the options whose first item is `k` and which miss every
    /// covered item of `q` are `masks[start[s]..start[s + 1]]` (and `ids` alike), where
    /// `s = k << pattern_bits | q`; one extra entry at the end.
    start: Vec<u32>,
    /// The options' item masks (primary item at position `k`: bit `k`; secondary items after
    /// the primary ones), grouped by first item and pattern.
    masks: Vec<u128>,
    /// The option id of each entry of `masks`.
    ids: Vec<u32>,
    /// Per option id, its mask (`None`: the option sits in a `<= 0` row and can never be chosen).
    mask_of: Vec<Option<u128>>,
    /// The bits of the primary items.
    primary: u128,
    /// How the order was derived, for the statistics.
    order: String,
    /// Whether the items showed a structure to order by (see [`item_order`]).
    structured: bool,
}

impl SweepProblem {
    /// The sweep form of `p` (built from `model`'s rows), or `None` when some item is not an
    /// exact-cover item ("exactly one" or "at most one"), when more than [`MAX_ITEMS`] items
    /// bind, or when the problem is impossible.
    pub fn of(p: &Problem, model: &Model) -> Option<SweepProblem> {
        let mut primary = Vec::new();
        let mut secondary = Vec::new();
        let mut banned = vec![false; p.num_options];
        for i in 0..p.num_items() {
            match (p.lo[i], p.hi[i]) {
                (_, 0) => p
                    .options_of(i)
                    .iter()
                    .for_each(|&o| banned[o as usize] = true),
                (1, 1) => primary.push(i),
                (0, 1) => secondary.push(i),
                (0, hi) if hi as usize >= p.options_of(i).len() => {}
                _ => return None,
            }
        }
        if primary.len() + secondary.len() > MAX_ITEMS || p.impossible {
            return None;
        }
        let (order, note, structured) = item_order(p, model.constraints().len(), &primary);
        let mut bit = vec![u32::MAX; p.num_items()];
        for (k, &i) in order.iter().chain(&secondary).enumerate() {
            bit[i] = k as u32;
        }
        let mask_of: Vec<Option<u128>> = (0..p.num_options)
            .map(|o| {
                (!banned[o]).then(|| {
                    p.items_of(o)
                        .iter()
                        .filter(|&&i| bit[i as usize] != u32::MAX)
                        .fold(0u128, |m, &i| m | 1 << bit[i as usize])
                })
            })
            .collect();
        let primary_bits = if order.len() == 128 {
            !0
        } else {
            (1u128 << order.len()) - 1
        };
        let mut by_first: Vec<Vec<u32>> = vec![Vec::new(); order.len()];
        for (o, m) in mask_of.iter().enumerate() {
            // An option with no primary item is never chosen (`problem` gives every free
            // variable a primary slack item, so only a banned option has none).
            if let Some(m) = m.filter(|m| m & primary_bits != 0) {
                by_first[(m & primary_bits).trailing_zeros() as usize].push(o as u32);
            }
        }
        // The widest pattern whose tables stay within budget: an option is listed under the
        // patterns that miss its items among the `b` after its first, 2^(b - those items).
        let entries = |b: u32| -> usize {
            let low = (1u128 << b) - 1;
            by_first
                .iter()
                .enumerate()
                .flat_map(|(k, list)| list.iter().map(move |&o| (k, o)))
                .map(|(k, o)| {
                    let m = mask_of[o as usize].unwrap_or(0);
                    let held = (m.checked_shr(k as u32 + 1).unwrap_or(0) & low).count_ones();
                    1usize << (b - held)
                })
                .sum()
        };
        let pattern_bits = (0..=MAX_PATTERN_BITS)
            .rev()
            .find(|&b| entries(b) <= MAX_TABLE_ENTRIES)
            .unwrap_or(0);
        let mut start = Vec::with_capacity((order.len() << pattern_bits) + 1);
        let (mut masks, mut ids) = (Vec::new(), Vec::new());
        let low = (1u128 << pattern_bits) - 1;
        for (k, list) in by_first.iter().enumerate() {
            for q in 0..=low {
                start.push(ids.len() as u32);
                for &o in list {
                    let m = mask_of[o as usize].expect("listed options are not banned");
                    if m.checked_shr(k as u32 + 1).unwrap_or(0) & q == 0 {
                        ids.push(o);
                        masks.push(m);
                    }
                }
            }
        }
        start.push(ids.len() as u32);
        Some(SweepProblem {
            pattern_bits,
            start,
            masks,
            ids,
            mask_of,
            primary: primary_bits,
            order: note,
            structured,
        })
    }

    /// How many items after the branching one its look-up tables key on (`extra.pattern_bits`).
    pub fn pattern_bits(&self) -> u32 {
        self.pattern_bits
    }

    /// Whether the order came from a structure of the items (space and labels, or two label
    /// classes or more); without one it is the model's order, which `auto` does not trust.
    pub fn structured(&self) -> bool {
        self.structured
    }

    /// A short description of the item order (for `extra.order`).
    pub fn order(&self) -> &str {
        &self.order
    }
}

/// The primary items of `p` in the order the sweep branches on, a note saying how it was
/// derived, and whether the items showed a structure (two groups or more; see the module docs).
/// Items `>= model_rows` are slack items and go last. Costs, per group found, a few passes
/// over the nonzeros for each item of one option; then [`family_order`] per group.
pub(crate) fn item_order(
    p: &Problem,
    model_rows: usize,
    primary: &[usize],
) -> (Vec<usize>, String, bool) {
    let (own, slack): (Vec<usize>, Vec<usize>) = primary.iter().partition(|&&i| i < model_rows);
    let (rest, labels) = label_classes(p, &own);
    // Groups and their mean items per option touching them, as (items, options) to stay exact.
    let mut groups: Vec<(Vec<usize>, (u64, u64), &str)> = Vec::new();
    let mut touching = vec![false; p.num_options];
    for (group, what) in std::iter::once((rest, "space"))
        .chain(labels.into_iter().map(|l| (l, "labels")))
        .filter(|(g, _)| !g.is_empty())
    {
        touching.iter_mut().for_each(|t| *t = false);
        let mut held = 0u64;
        for &i in &group {
            held += p.options_of(i).len() as u64;
            p.options_of(i)
                .iter()
                .for_each(|&o| touching[o as usize] = true);
        }
        let options = touching.iter().filter(|&&t| t).count() as u64;
        groups.push((group, (held, options), what));
    }
    // More items per option first: a / b > c / d as a * d > c * b (stable: space first).
    groups.sort_by(|(_, (x, y), _), (_, (u, v), _)| (u * y).cmp(&(x * v)));
    let structured = groups.len() >= 2;
    let mut order = Vec::with_capacity(primary.len());
    let mut notes = Vec::new();
    for (group, _, what) in &groups {
        let (list, width) = family_order(p, group);
        notes.push(match width {
            Some(w) => format!("{what} {} (transposed, width {w})", group.len()),
            None => format!("{what} {}", group.len()),
        });
        order.extend(list);
    }
    if !slack.is_empty() {
        notes.push(format!("slack {}", slack.len()));
    }
    order.extend(slack);
    (order, notes.join(", "), structured)
}

/// Splits `items` (primary items, in the model's order) into the rest and its label classes: a
/// label class is a set of items such that every option holding one of the items still
/// unclassed holds exactly one of the class (the pieces of a polyomino puzzle, the values of
/// Langford pairs, the rows and the columns of n-queens, each of the four item kinds of
/// Sudoku). Found greedily and from the incidence alone, never from names or families, so
/// every spelling of a model (JSON with families, an `.xcc` file with one list of items) gets
/// the same groups. A class must hold one item of every option, so the seeds tried are the
/// items of one shortest option; from a seed, the items that share no option with the class so
/// far join it in the model's order. Costs a few passes over the nonzeros per seed.
fn label_classes(p: &Problem, items: &[usize]) -> (Vec<usize>, Vec<Vec<usize>>) {
    let mut rest = items.to_vec();
    let mut classes = Vec::new();
    let mut member = vec![false; p.num_items()];
    let mut marked = vec![false; p.num_options];
    while rest.len() > 1 {
        rest.iter().for_each(|&i| member[i] = true);
        // Per option, how many unclassed items it holds (0: not considered).
        let mut held = vec![0u32; p.num_options];
        for &i in &rest {
            p.options_of(i).iter().for_each(|&o| held[o as usize] += 1);
        }
        let Some(shortest) = (0..p.num_options)
            .filter(|&o| held[o] > 0)
            .min_by_key(|&o| held[o])
        else {
            break;
        };
        let seeds: Vec<usize> = p
            .items_of(shortest)
            .iter()
            .map(|&i| i as usize)
            .filter(|&i| member[i])
            .collect();
        let considered = held.iter().filter(|&&h| h > 0).count();
        let mut found = None;
        for seed in seeds {
            marked.iter_mut().for_each(|m| *m = false);
            let mut class = Vec::new();
            let mut covered = 0;
            for &i in std::iter::once(&seed).chain(rest.iter().filter(|&&i| i != seed)) {
                let options = p.options_of(i);
                if options.iter().all(|&o| !marked[o as usize]) {
                    options.iter().for_each(|&o| marked[o as usize] = true);
                    covered += options.len();
                    class.push(i);
                }
            }
            if covered == considered {
                found = Some(class);
                break;
            }
        }
        rest.iter().for_each(|&i| member[i] = false);
        let Some(mut class) = found else {
            break;
        };
        class.sort_by_key(|&i| items.iter().position(|&j| j == i));
        rest.retain(|i| !class.contains(i));
        classes.push(class);
    }
    (rest, classes)
}

/// The order of one family's items: the model's, or its transpose as a grid of some width
/// (the width is returned), whichever has the smaller total option span.
fn family_order(p: &Problem, items: &[usize]) -> (Vec<usize>, Option<usize>) {
    let n = items.len();
    let mut best = (span(p, items), items.to_vec(), None);
    for w in (2..n).filter(|w| n % w == 0) {
        let h = n / w;
        let mut transposed = vec![0; n];
        for (j, &i) in items.iter().enumerate() {
            transposed[(j % w) * h + j / w] = i;
        }
        let s = span(p, &transposed);
        if s < best.0 {
            best = (s, transposed, Some(w));
        }
    }
    (best.1, best.2)
}

/// Sum over options of the distance between their first and last item in `order`.
fn span(p: &Problem, order: &[usize]) -> u64 {
    let mut first = vec![u32::MAX; p.num_options];
    let mut last = vec![0u32; p.num_options];
    for (k, &i) in order.iter().enumerate() {
        for &o in p.options_of(i) {
            let o = o as usize;
            first[o] = first[o].min(k as u32);
            last[o] = last[o].max(k as u32);
        }
    }
    first
        .iter()
        .zip(&last)
        .filter(|(f, _)| **f != u32::MAX)
        .map(|(f, l)| u64::from(l - f))
        .sum()
}

/// The search over one [`SweepProblem`] (recursive: its depth is at most the primary items).
struct Sweep<'a> {
    p: &'a SweepProblem,
    /// The chosen options, givens first; `chosen[..len]` is the current path.
    chosen: Vec<u32>,
    tally: Tally,
    tests: u64,
    /// The deadline and the thread's stop flag (Ctrl-C in Python), read every [`CLOCK_EVERY`]
    /// nodes.
    alarm: Alarm,
    ending: Ending,
    found: &'a mut dyn FnMut(&[u32]) -> bool,
}

/// Runs the sweep from `givens`, calling `found` with the chosen options (givens included) of
/// each solution; `found` returns `false` to stop.
pub(crate) fn run(
    p: &SweepProblem,
    givens: &[usize],
    time_limit: Option<Duration>,
    stats: &mut Stats,
    found: &mut dyn FnMut(&[u32]) -> bool,
) -> Ending {
    let start = Instant::now();
    let mut covered = 0u128;
    let mut chosen = Vec::with_capacity(givens.len() + MAX_ITEMS + 1);
    for &g in givens {
        match p.mask_of.get(g).copied().flatten() {
            Some(m) if m & covered == 0 => covered |= m,
            _ => return Ending::Exhausted,
        }
        chosen.push(g as u32);
    }
    let base = chosen.len();
    // Room for one option per primary item: the path never grows past it.
    chosen.resize(base + MAX_ITEMS + 1, 0);
    let mut sweep = Sweep {
        p,
        chosen,
        tally: Tally::new(MAX_ITEMS + 1),
        tests: 0,
        alarm: Alarm::new(start, time_limit, CLOCK_EVERY),
        ending: Ending::Exhausted,
        found,
    };
    sweep.node(covered, base, 0);
    sweep.tally.write(stats, start);
    stats.extra.insert("tests".into(), sweep.tests.into());
    sweep.ending
}

impl Sweep<'_> {
    /// Searches below a node with `covered` items, its path `chosen[..len]`, at `depth` below
    /// the givens; `ending` says whether the search must stop.
    fn node(&mut self, covered: u128, len: usize, depth: usize) {
        let p = self.p;
        let free = !covered & p.primary;
        if free == 0 {
            self.tally.solutions += 1;
            if !(self.found)(&self.chosen[..len]) {
                self.ending = Ending::Stopped;
            }
            return;
        }
        if self.alarm.rings() {
            self.ending = Ending::TimedOut;
            return;
        }
        let k = free.trailing_zeros();
        let pattern = covered.checked_shr(k + 1).unwrap_or(0) as usize;
        let slot = ((k as usize) << p.pattern_bits) | (pattern & ((1 << p.pattern_bits) - 1));
        let (from, to) = (p.start[slot] as usize, p.start[slot + 1] as usize);
        self.tests += (to - from) as u64;
        let mut taken = 0;
        for (&m, &id) in p.masks[from..to].iter().zip(&p.ids[from..to]) {
            if m & covered != 0 {
                continue;
            }
            taken += 1;
            self.chosen[len] = id;
            self.node(covered | m, len + 1, depth + 1);
            if self.ending != Ending::Exhausted {
                break;
            }
        }
        self.tally.node(depth, taken, self.ending);
    }
}
