//! The model as an exact-cover problem with multiplicities: items (the model's rows, each with
//! bounds `lo..=hi` on how many chosen options it holds), options (the model's variables, plus
//! one "leave it out" option per slack item), and the incidence both ways. Built once per model
//! shape (the givens are applied by the search).
//!
//! Cost: linear in the nonzeros, plus each item's options as a bit mask over the option words
//! it spans, kept only when that span is no longer than the item's list (so the masks never
//! take more memory than the nonzeros).

use crate::model::{Model, Sense};

/// An item's option set as bit masks over the words `first_word..first_word + len` of the
/// option space, stored in [`Problem::item_masks`] from `start`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct MaskSpan {
    /// First option word the item's options touch.
    pub first_word: u32,
    /// Where the masks start in [`Problem::item_masks`].
    pub start: u32,
    /// How many words (0: no masks; the item's list is walked instead).
    pub len: u32,
}

/// Items, options and their incidence. Item `i < model rows` is model row `i` (rows that
/// cannot bind, such as `>= 0`, are kept as items with `lo = 0, hi = len`, and never branch);
/// items past them are slack items. Option `o < model variables` is model variable `o`; the
/// options past them are the "leave it out" options of the slack items.
#[derive(Debug, Clone, Default)]
pub(crate) struct Problem {
    /// Number of model variables (options at or past this are synthetic).
    pub model_options: usize,
    /// Number of options, synthetic ones included.
    pub num_options: usize,
    /// Option words (`num_options / 64`, rounded up).
    pub words: usize,
    /// Items of option `o`: `option_items[option_start[o]..option_start[o + 1]]`.
    pub option_start: Vec<u32>,
    /// See `option_start`.
    pub option_items: Vec<u32>,
    /// Options of item `i`, ascending: `item_options[item_start[i]..item_start[i + 1]]`.
    pub item_start: Vec<u32>,
    /// See `item_start`.
    pub item_options: Vec<u32>,
    /// Least number of chosen options item `i` must hold.
    pub lo: Vec<u32>,
    /// Largest number of chosen options item `i` may hold (at most its length).
    pub hi: Vec<u32>,
    /// Per item, where its option masks are (see [`MaskSpan`]).
    pub spans: Vec<MaskSpan>,
    /// The masks of every item with one (see [`MaskSpan`]).
    pub item_masks: Vec<u64>,
    /// An item with `lo` above its length: no solution at all.
    pub impossible: bool,
    /// The model variables no row constrains (each of their rows never binds: `lo = 0` and
    /// `hi` at least its length, or no row at all), ascending. They get no slack item and no
    /// engine chooses them; every solution of the others is completed in each of the
    /// `2^free` ways (see `super::Xcc`), so a model of many unconstrained variables costs no
    /// item, no frame and no depth per variable.
    pub free: Vec<u32>,
    /// Plain exact cover: every item is primary (`1..=1`), secondary (`0..=1`), empty
    /// (`0..=0`) or never binding (`hi` at least its length). MRV is then the fewest live
    /// options, and the search needs no `need` or `room` per item.
    pub plain: bool,
}

impl Problem {
    /// The problem of `model`'s rows (unit weights only: [`super::rows_supported`] checked).
    /// Every variable that sits in no binding equation (`= k` with `k > 0`) gets a slack item
    /// `{v, leave-v-out}` with bounds `1..=1`, so that the search decides it and counts stay
    /// exact: without one, a solution could be completed in more than one way.
    pub fn new(model: &Model) -> Problem {
        let n = model.num_variables();
        let rows = model.constraints();
        let mut lo = Vec::with_capacity(rows.len());
        let mut hi = Vec::with_capacity(rows.len());
        let mut impossible = false;
        let free = free_variables(model);
        let mut decided: Vec<bool> = free.clone();
        for c in rows {
            let len = c.vars.len() as u64;
            let (low, high) = c.sense.bounds();
            let high = high.unwrap_or(len).min(len);
            impossible |= low > len;
            // A binding equation decides each of its variables: once it is full, the rest are out.
            if matches!(c.sense, Sense::ExactlyOne | Sense::Exactly(_)) && high > 0 && low == high {
                for &v in &c.vars {
                    decided[v] = true;
                }
            }
            // An item never holds more than its length, so both fit in u32 for any real model.
            lo.push(low.min(u64::from(u32::MAX)) as u32);
            hi.push(high as u32);
        }
        // Variables in a `<= 0` / `= 0` row are out from the start: they need no slack item.
        for c in rows.iter().filter(|c| c.sense.bounds().1 == Some(0)) {
            for &v in &c.vars {
                decided[v] = true;
            }
        }
        let mut columns: Vec<Vec<u32>> = (0..n)
            .map(|v| model.rows_of(v).iter().map(|&r| r as u32).collect())
            .collect();
        let mut item_lists: Vec<Vec<u32>> = rows
            .iter()
            .map(|c| c.vars.iter().map(|&v| v as u32).collect())
            .collect();
        let mut num_options = n;
        for v in (0..n).filter(|&v| !decided[v]) {
            let item = item_lists.len() as u32;
            let out = num_options as u32;
            num_options += 1;
            columns[v].push(item);
            columns.push(vec![item]);
            item_lists.push(vec![v as u32, out]);
            lo.push(1);
            hi.push(1);
        }
        let (option_start, option_items) = flatten(&columns);
        let (item_start, item_options) = flatten(&item_lists);
        let words = num_options.div_ceil(64);
        let (spans, item_masks) = masks(&item_lists);
        let plain = (0..lo.len()).all(|i| {
            let len = item_lists[i].len() as u32;
            matches!((lo[i], hi[i]), (1, 1) | (0, 0) | (0, 1)) || (lo[i] == 0 && hi[i] >= len)
        });
        Problem {
            model_options: n,
            num_options,
            words,
            option_start,
            option_items,
            item_start,
            item_options,
            lo,
            hi,
            spans,
            item_masks,
            impossible,
            free: (0..n).filter(|&v| free[v]).map(|v| v as u32).collect(),
            plain,
        }
    }

    /// The model literal option `o` stands for in a proof: `(o, true)` for a model variable,
    /// `(v, false)` for the "leave it out" option of variable `v`'s slack item. Constant time.
    pub fn decision_literal(&self, o: usize) -> (usize, bool) {
        if o < self.model_options {
            return (o, true);
        }
        let slack_items = self.num_options - self.model_options;
        let item = self.num_items() - slack_items + (o - self.model_options);
        (self.options_of(item)[0] as usize, false)
    }

    /// Number of items, slack items included.
    pub fn num_items(&self) -> usize {
        self.lo.len()
    }

    /// The items of option `o`.
    #[inline]
    pub fn items_of(&self, o: usize) -> &[u32] {
        &self.option_items[self.option_start[o] as usize..self.option_start[o + 1] as usize]
    }

    /// The options of item `i`, ascending.
    #[inline]
    pub fn options_of(&self, i: usize) -> &[u32] {
        &self.item_options[self.item_start[i] as usize..self.item_start[i + 1] as usize]
    }
}

/// Whether a row of `len` variables with bounds `(low, high)` never binds: every 0-1 setting
/// of its variables keeps it.
pub(crate) fn never_binds((low, high): (u64, Option<u64>), len: usize) -> bool {
    low == 0 && high.is_none_or(|h| h >= len as u64)
}

/// Per variable of `model`: whether no row constrains it (every row holding it never binds).
/// Costs one pass over the rows.
pub(crate) fn free_variables(model: &Model) -> Vec<bool> {
    let mut free = vec![true; model.num_variables()];
    for c in model.constraints() {
        if !never_binds(c.sense.bounds(), c.vars.len()) {
            c.vars.iter().for_each(|&v| free[v] = false);
        }
    }
    free
}

/// Concatenates `lists` into one vector with offsets (`start[i]..start[i + 1]` is list `i`).
fn flatten(lists: &[Vec<u32>]) -> (Vec<u32>, Vec<u32>) {
    let mut start = Vec::with_capacity(lists.len() + 1);
    let mut flat = Vec::with_capacity(lists.iter().map(Vec::len).sum());
    start.push(0);
    for l in lists {
        flat.extend_from_slice(l);
        start.push(flat.len() as u32);
    }
    (start, flat)
}

/// The option masks of each item whose options span no more words than it has options.
fn masks(item_lists: &[Vec<u32>]) -> (Vec<MaskSpan>, Vec<u64>) {
    let mut spans = Vec::with_capacity(item_lists.len());
    let mut all = Vec::new();
    for list in item_lists {
        let (Some(&first), Some(&last)) = (list.iter().min(), list.iter().max()) else {
            spans.push(MaskSpan::default());
            continue;
        };
        let (w0, w1) = (first / 64, last / 64);
        let len = w1 - w0 + 1;
        if len as usize > list.len() {
            spans.push(MaskSpan {
                first_word: w0,
                start: 0,
                len: 0,
            });
            continue;
        }
        let start = all.len();
        all.resize(start + len as usize, 0u64);
        for &o in list {
            all[start + (o / 64 - w0) as usize] |= 1 << (o % 64);
        }
        spans.push(MaskSpan {
            first_word: w0,
            start: start as u32,
            len,
        });
    }
    (spans, all)
}
