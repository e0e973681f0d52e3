//! The generator's own exact counter: depth-first search over the "exactly one" rows with
//! bitsets, always branching on the open row with the fewest candidates left. Placing a
//! variable removes every variable that shares a row with it, so "at most one" rows hold by
//! construction.
//!
//! It also answers the difficulty question the generator reports: does propagation alone (an
//! open "exactly one" row with a single candidate left forces it) solve the model?
//!
//! Takes models in which every variable lies in at least one "exactly one" row (hex boards and
//! Queens grids always do). Costs per node: one pass over the open rows, `O(rows x words)`.

use crate::model::{Model, Sense, Solution};

/// A bitset over the model's variables.
type Bits = Vec<u64>;

fn has(bits: &[u64], v: usize) -> bool {
    bits[v / 64] >> (v % 64) & 1 == 1
}

fn set(bits: &mut [u64], v: usize) {
    bits[v / 64] |= 1 << (v % 64);
}

fn common(a: &[u64], b: &[u64]) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x & y).count_ones()).sum()
}

fn ones(bits: &[u64]) -> impl Iterator<Item = usize> + '_ {
    bits.iter().enumerate().flat_map(|(w, &word)| {
        let mut word = word;
        std::iter::from_fn(move || {
            (word != 0).then(|| {
                let b = word.trailing_zeros() as usize;
                word &= word - 1;
                w * 64 + b
            })
        })
    })
}

/// What a count found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// Solutions found (at most the limit).
    pub count: u64,
    /// Whether the search finished (false: it stopped at the limit).
    pub exhaustive: bool,
    /// The solutions found, in search order.
    pub solutions: Vec<Solution>,
    /// Search nodes visited (partial placements, the root included).
    pub nodes: u64,
}

/// Why a model cannot go through the generator's counter.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CounterRefusal {
    /// A variable in no "exactly one" row.
    #[error("variable '{label}' lies in no \"exactly one\" row; the generator's counter needs every variable in one")]
    UncoveredVariable {
        /// The variable's label.
        label: String,
    },
    /// A general row (`= k`, `<= k`, `>= k` with `k != 1` or weights): the counter treats
    /// every row as "at most one", which would miscount it.
    #[error("row {index} of family '{family}' is {sense}; the generator's counter reads exact-cover rows only")]
    GeneralRow {
        /// The row's family.
        family: String,
        /// The row's index in its family.
        index: usize,
        /// The row's sense, as text (`= 2`).
        sense: String,
    },
    /// The exact-cover engine could not take the model (its search frames would not fit in
    /// memory).
    #[error("the generator's counter (xcc) cannot take the model: {reason}")]
    Engine {
        /// The engine's error, as text.
        reason: String,
    },
}

/// What [`count_solutions`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counted {
    /// Solutions found (at most the limit).
    pub count: u64,
    /// Whether the search finished (false: it stopped at the limit).
    pub exhaustive: bool,
    /// The solutions found, in search order.
    pub solutions: Vec<Solution>,
    /// Search nodes visited (partial placements, the root included).
    pub nodes: u64,
    /// Branches past the first, summed over the nodes (0: no choice was ever made).
    pub guesses: u64,
}

impl Counted {
    /// Whether propagation alone solves the model: starting from the givens, repeatedly placing
    /// the single candidate of an open "exactly one" row finishes it with no choice made. Read
    /// off the count (made with a limit of at least 2): exactly one solution, the search
    /// exhaustive, and no node that took a second branch. The search branches on a row with one
    /// candidate whenever there is one, so a search that never guessed placed forced pieces
    /// only, and such placements reach the same end in any order. Costs nothing.
    pub fn solved_by_propagation(&self) -> bool {
        self.count == 1 && self.exhaustive && self.guesses == 0
    }
}

/// The first `limit` solutions of `model` and the search nodes it took, by the project's
/// exact-cover engine in its fixed order ([`crate::backend::xcc::first_solutions`]: branch
/// on the first open "exactly one" row, in row order, with the fewest candidates; candidates
/// in ascending variable order; a row with none ends the node), the order the generators'
/// repairs depend on. Refuses, naming the row or variable, a model with a general row or a
/// variable in no "exactly one" row (the generators' boards have neither). Costs: building the
/// engine's problem (linear in the nonzeros), then per node one copy of the search state and
/// one scan of the open rows.
pub fn count_solutions(model: &Model, limit: u64) -> Result<Counted, CounterRefusal> {
    if let Some(c) = model.first_general_row() {
        return Err(CounterRefusal::GeneralRow {
            family: model.families()[c.family].name.clone(),
            index: c.index,
            sense: c.sense.to_string(),
        });
    }
    let mut covered = vec![false; model.num_variables()];
    for c in model.constraints() {
        if c.sense == Sense::ExactlyOne {
            c.vars.iter().for_each(|&v| covered[v] = true);
        }
    }
    if let Some(v) = covered.iter().position(|&c| !c) {
        return Err(CounterRefusal::UncoveredVariable {
            label: model.label(v).into_owned(),
        });
    }
    let found =
        crate::backend::xcc::first_solutions(model, limit).map_err(|e| CounterRefusal::Engine {
            reason: e.to_string(),
        })?;
    Ok(Counted {
        count: found.solutions.len() as u64,
        exhaustive: found.exhaustive,
        solutions: found.solutions,
        // The engine counts the options it chose; the root is a node too.
        nodes: found.nodes + u64::from(limit > 0),
        guesses: found.guesses,
    })
}

/// The counter, prepared for one model.
#[derive(Debug, Clone)]
pub struct ExactCounter {
    words: usize,
    /// The "exactly one" rows as bitsets.
    rows: Vec<Bits>,
    /// For each variable: itself and every variable sharing a row with it.
    conflicts: Vec<Bits>,
    givens: Vec<usize>,
}

struct Run<'a> {
    counter: &'a ExactCounter,
    limit: u64,
    nodes: u64,
    found: Vec<Solution>,
}

impl ExactCounter {
    /// Prepares the bitsets of `model`: `O(nonzeros x longest row)`.
    pub fn new(model: &Model) -> Result<ExactCounter, CounterRefusal> {
        if let Some(c) = model.first_general_row() {
            return Err(CounterRefusal::GeneralRow {
                family: model.families()[c.family].name.clone(),
                index: c.index,
                sense: c.sense.to_string(),
            });
        }
        let n = model.num_variables();
        let words = n.div_ceil(64).max(1);
        let mut rows = Vec::new();
        let mut conflicts = vec![vec![0u64; words]; n];
        let mut covered = vec![0u64; words];
        for c in model.constraints() {
            let mut bits = vec![0u64; words];
            for &v in &c.vars {
                set(&mut bits, v);
            }
            for &v in &c.vars {
                for (a, b) in conflicts[v].iter_mut().zip(&bits) {
                    *a |= b;
                }
            }
            if c.sense == Sense::ExactlyOne {
                for (a, b) in covered.iter_mut().zip(&bits) {
                    *a |= b;
                }
                rows.push(bits);
            }
        }
        for (v, conflict) in conflicts.iter_mut().enumerate() {
            set(conflict, v);
            if !has(&covered, v) {
                return Err(CounterRefusal::UncoveredVariable {
                    label: model.label(v).into_owned(),
                });
            }
        }
        Ok(ExactCounter {
            words,
            rows,
            conflicts,
            givens: model.givens().to_vec(),
        })
    }

    /// The start of every search: all variables possible, then the givens placed. `None` when
    /// two givens clash.
    fn root(&self) -> Option<(Bits, Bits)> {
        let n = self.conflicts.len();
        let mut cand = vec![0u64; self.words];
        for v in 0..n {
            set(&mut cand, v);
        }
        let mut chosen = vec![0u64; self.words];
        for &g in &self.givens {
            if !has(&cand, g) {
                return None;
            }
            set(&mut chosen, g);
            for (a, b) in cand.iter_mut().zip(&self.conflicts[g]) {
                *a &= !b;
            }
        }
        Some((cand, chosen))
    }

    /// Counts solutions, stopping after `limit`.
    pub fn count(&self, limit: u64) -> SearchResult {
        let mut run = Run {
            counter: self,
            limit,
            nodes: 0,
            found: Vec::new(),
        };
        let finished = match self.root() {
            Some((cand, chosen)) if limit > 0 => run.search(&cand, &chosen),
            Some(_) => false,
            None => true,
        };
        SearchResult {
            count: run.found.len() as u64,
            exhaustive: finished,
            solutions: run.found,
            nodes: run.nodes,
        }
    }

    /// Whether propagation alone solves the model: starting from the givens, repeatedly place
    /// the single candidate of any open "exactly one" row that has one left; true when every
    /// row ends up satisfied with no choice made.
    pub fn solved_by_propagation(&self) -> bool {
        let Some((mut cand, mut chosen)) = self.root() else {
            return false;
        };
        loop {
            let mut progress = false;
            let mut open = false;
            for row in &self.rows {
                if common(row, &chosen) > 0 {
                    continue;
                }
                open = true;
                match common(row, &cand) {
                    0 => return false,
                    1 => {
                        let v = ones(row).find(|&v| has(&cand, v)).expect("one candidate");
                        set(&mut chosen, v);
                        for (a, b) in cand.iter_mut().zip(&self.conflicts[v]) {
                            *a &= !b;
                        }
                        progress = true;
                    }
                    _ => {}
                }
            }
            if !open {
                return true;
            }
            if !progress {
                return false;
            }
        }
    }
}

impl Run<'_> {
    /// Returns false when the limit stopped the search.
    fn search(&mut self, cand: &[u64], chosen: &[u64]) -> bool {
        self.nodes += 1;
        let mut best: Option<(u32, usize)> = None;
        for (i, row) in self.counter.rows.iter().enumerate() {
            if common(row, chosen) > 0 {
                continue;
            }
            let c = common(row, cand);
            if c == 0 {
                return true;
            }
            if best.is_none_or(|(b, _)| c < b) {
                best = Some((c, i));
            }
        }
        let Some((_, row)) = best else {
            self.found.push(Solution::new(ones(chosen).collect()));
            return (self.found.len() as u64) < self.limit;
        };
        let row_bits = &self.counter.rows[row];
        let choices: Vec<usize> = ones(row_bits).filter(|&v| has(cand, v)).collect();
        for v in choices {
            let mut next_cand = cand.to_vec();
            for (a, b) in next_cand.iter_mut().zip(&self.counter.conflicts[v]) {
                *a &= !b;
            }
            let mut next_chosen = chosen.to_vec();
            set(&mut next_chosen, v);
            if !self.search(&next_cand, &next_chosen) {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::verify::Verifier;
    use crate::puzzle::{HexBoard, QueensBoard, Sudoku};

    #[test]
    fn counts_the_seed_and_queens_figures() {
        let m = HexBoard::geometry(9).unwrap().to_model("w9");
        let r = ExactCounter::new(&m).unwrap().count(u64::MAX);
        assert_eq!((r.count, r.exhaustive), (244, true));
        let v = Verifier::new(&m);
        assert!(r.solutions.iter().all(|s| v.accepts(s)));
        let q = QueensBoard::bare(6).to_model("q6");
        assert_eq!(ExactCounter::new(&q).unwrap().count(u64::MAX).count, 90);
        let limited = ExactCounter::new(&m).unwrap().count(2);
        assert_eq!((limited.count, limited.exhaustive), (2, false));
    }

    #[test]
    fn propagation_solves_an_easy_sudoku_but_not_an_empty_one() {
        let easy =
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
        let cells = easy
            .chars()
            .map(|c| crate::puzzle::kinds::sudoku::digit_of(c, 9))
            .collect();
        let m = Sudoku::from_cells(3, cells).unwrap().to_model("e").unwrap();
        let counter = ExactCounter::new(&m).unwrap();
        assert!(counter.solved_by_propagation());
        assert_eq!(counter.count(2).count, 1);
        let empty = Sudoku::empty(2).to_model("empty").unwrap();
        assert!(!ExactCounter::new(&empty).unwrap().solved_by_propagation());
    }

    /// Throwaway: the old counter against `count_solutions` on Sudoku puzzles (givens, and
    /// fewer givens for many solutions) and on bare boards, full listings included.
    /// `cargo test -p zeroone-puzzles --lib counter::tests::cross_check -- --ignored --nocapture`
    #[test]
    #[ignore = "throwaway cross-check"]
    fn cross_check_on_givens_and_full_listings() {
        let same = |m: &crate::model::Model, limit: u64| {
            let old = ExactCounter::new(m).unwrap();
            let (o, n) = (old.count(limit), count_solutions(m, limit).unwrap());
            (o.count, o.exhaustive, &o.solutions, o.nodes)
                == (n.count, n.exhaustive, &n.solutions, n.nodes)
                && (limit < 2 || old.solved_by_propagation() == n.solved_by_propagation())
        };
        let (mut models, mut differing, mut propagation) = (0, 0, 0);
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/sudoku/");
        for (file, take) in [
            ("norvig_easy50.txt", 50),
            ("norvig_top95.txt", 95),
            ("norvig_hardest.txt", 20),
            ("magictour_top1465.txt", 300),
        ] {
            let text = std::fs::read_to_string(format!("{root}{file}")).unwrap();
            for line in text.lines().filter(|l| l.len() == 81).take(take) {
                let cells: Vec<Option<usize>> = line
                    .chars()
                    .map(|c| crate::puzzle::kinds::sudoku::digit_of(c, 9))
                    .collect();
                let m = Sudoku::from_cells(3, cells.clone())
                    .unwrap()
                    .to_model("s")
                    .unwrap();
                propagation += u64::from(ExactCounter::new(&m).unwrap().solved_by_propagation());
                differing += u64::from(!same(&m, 2));
                // Without its last 6 givens: many solutions; the first 64 in order.
                let mut fewer = cells;
                let given: Vec<usize> = (0..81).filter(|&i| fewer[i].is_some()).collect();
                given.iter().rev().take(6).for_each(|&i| fewer[i] = None);
                let m = Sudoku::from_cells(3, fewer).unwrap().to_model("f").unwrap();
                differing += u64::from(!same(&m, 64));
                models += 2;
            }
        }
        for w in [3, 5, 7, 9, 11] {
            let m = HexBoard::geometry(w).unwrap().to_model("bare");
            differing += u64::from(!same(&m, u64::MAX));
            models += 1;
        }
        for n in 4..=8 {
            let m = QueensBoard::bare(n).to_model("bare");
            differing += u64::from(!same(&m, u64::MAX));
            models += 1;
        }
        let empty = Sudoku::empty(2).to_model("empty").unwrap();
        differing += u64::from(!same(&empty, u64::MAX));
        models += 1;
        println!(
            "cross-check (givens, full listings): {models} models, {propagation} solved by \
             propagation, {differing} differing"
        );
        assert_eq!(differing, 0);
    }

    #[test]
    fn general_rows_are_refused_not_miscounted() {
        use crate::model::{Coord, ModelBuilder, PuzzleKind};
        // x0 + x1 + x2 = 2 has 3 solutions; read as "at most one" it would have none.
        let mut b = ModelBuilder::new("two", PuzzleKind::Generic);
        for i in 0..3 {
            b.variable(format!("x{i}"), Coord::Free);
        }
        let f = b.family("two");
        b.row(f, vec![0, 1, 2], Sense::Exactly(2));
        let m = b.build().unwrap();
        let err = ExactCounter::new(&m).unwrap_err();
        assert!(matches!(err, CounterRefusal::GeneralRow { index: 0, .. }));
        assert!(err.to_string().contains("family 'two' is = 2"), "{err}");
    }
}
