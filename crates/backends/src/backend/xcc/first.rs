//! The first solutions of a model in one fixed order, for callers that act on which solution
//! comes first: the board generators repair a board by the first solution other than the
//! planted one, so their boards depend on this order, and it must not move when `auto` or the
//! engines' shortcuts are tuned.
//!
//! The order is that of the `counts` engine (see `search`) under its general branching rule,
//! applied to every model (plain exact cover included, where the engine otherwise takes a
//! shortcut): at each node every open item is scanned; an item with fewer live options than
//! it needs ends the node at once (for an "exactly one" row: none left), else the search
//! branches on the item with the fewest branches, ties to the first item, which is the first
//! row in the model's order (slack items come after every row); an item's options are tried in
//! ascending variable order. "At most one" rows are secondary items: they never branch and
//! only take out the options that clash with a chosen one. The givens are chosen at the root,
//! in the model's order. The shortcut of plain problems (branch on the first item with at most
//! one option left, meeting an item with none one level deeper) finds the same solutions in
//! the same order but visits more nodes, and the other engines order items differently
//! (`transposed` by degree, `sweep` by a structural order), so neither is used here.

use std::time::Instant;

use super::free::Completer;
use super::problem::Problem;
use super::search::{frames_fit, Ending, Searcher};
use super::{rows_supported, solution_of};
use crate::backend::memory::usable_memory;
use crate::backend::{BackendError, Stats};
use crate::model::{Model, Solution};

/// What [`first_solutions`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstSolutions {
    /// The solutions found (at most the limit), in search order.
    pub solutions: Vec<Solution>,
    /// Whether the search finished (false: it stopped at the limit).
    pub exhaustive: bool,
    /// Options the search chose below the root (the givens not counted): its nodes, the root
    /// left out.
    pub nodes: u64,
    /// Branches past the first, summed over the nodes: 0 when no node ever offered a second
    /// branch that the search took.
    pub guesses: u64,
}

/// The first `limit` solutions of `model` in the fixed order of the module docs, with the
/// nodes the search took. Reads what `xcc` reads (exact-cover rows and unit-weight cardinality
/// rows; a variable in no binding equation gets a slack item, one no row constrains is
/// completed both ways); weighted rows are refused as [`BackendError::UnsupportedRows`], a
/// model whose search frames would not fit in memory as [`BackendError::TooLarge`]. No time
/// limit; a stop request on the thread ends the listing early (then `exhaustive` is false).
/// Costs: building the problem (linear in the nonzeros), then per node one copy of the state
/// (`options / 64 + 3 * items` words) and one scan of the open items.
pub fn first_solutions(model: &Model, limit: u64) -> Result<FirstSolutions, BackendError> {
    rows_supported(model).map_err(|reason| BackendError::UnsupportedRows {
        backend: "xcc".into(),
        reason: Box::new(reason),
    })?;
    let mut listing = FirstSolutions {
        solutions: Vec::new(),
        exhaustive: false,
        nodes: 0,
        guesses: 0,
    };
    if limit == 0 {
        return Ok(listing);
    }
    let mut problem = Problem::new(model);
    // The general rule on every model: a dead end anywhere ends the node before it branches.
    problem.plain = false;
    frames_fit(&problem, usable_memory).map_err(|why| BackendError::TooLarge {
        backend: "xcc".into(),
        reason: format!("engine 'counts' {why}"),
    })?;
    let (mut completer, givens) =
        Completer::new(&problem.free, model.givens(), Instant::now(), None);
    let n = problem.model_options;
    let solutions = &mut listing.solutions;
    let mut stats = Stats::default();
    let ending = Searcher::default().run(&problem, &givens, None, &mut stats, &mut |chosen| {
        completer.each(chosen, &mut |c| {
            solutions.push(solution_of(c, n));
            (solutions.len() as u64) < limit
        })
    });
    listing.exhaustive = ending == Ending::Exhausted && !completer.timed_out();
    listing.nodes = stats.nodes;
    listing.guesses = stats.guesses;
    Ok(listing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Coord, ModelBuilder, PuzzleKind, Sense};

    /// A model of `n` variables with `rows` (variables, sense), in that order.
    fn model(n: usize, rows: &[(&[usize], Sense)]) -> Model {
        let mut b = ModelBuilder::new("m", PuzzleKind::Generic);
        for i in 0..n {
            b.variable(format!("x{i}"), Coord::Free);
        }
        let f = b.family("r");
        for (vars, sense) in rows {
            b.row(f, vars.to_vec(), *sense);
        }
        b.build().unwrap()
    }

    fn ones(listing: &FirstSolutions) -> Vec<Vec<usize>> {
        listing.solutions.iter().map(|s| s.ones.clone()).collect()
    }

    #[test]
    fn branches_on_the_first_fewest_row_options_ascending() {
        use Sense::ExactlyOne as One;
        // Rows {0,1,2} and {3,4}: the second has fewer options, so it branches first; then
        // the first row's options in ascending order.
        let m = model(5, &[(&[0, 1, 2], One), (&[3, 4], One)]);
        let all = first_solutions(&m, u64::MAX).unwrap();
        let expected = [[3, 0], [3, 1], [3, 2], [4, 0], [4, 1], [4, 2]];
        let expected: Vec<Vec<usize>> = expected
            .iter()
            .map(|s| Solution::new(s.to_vec()).ones)
            .collect();
        assert_eq!(ones(&all), expected);
        assert!(all.exhaustive);
        // Root, 2 choices in row 2, 3 in row 1 under each: 8 nodes below the root.
        assert_eq!((all.nodes, all.guesses), (8, 1 + 2 * 2));
        let two = first_solutions(&m, 2).unwrap();
        assert_eq!(
            (ones(&two), two.exhaustive),
            (expected[..2].to_vec(), false)
        );
        let none = first_solutions(&m, 0).unwrap();
        assert!(none.solutions.is_empty() && !none.exhaustive && none.nodes == 0);
    }

    #[test]
    fn a_dead_row_anywhere_ends_the_node_before_a_forced_choice() {
        use crate::backend::{BackendOptions, Counter};
        use Sense::{AtMostOne as AtMost, ExactlyOne as One};
        // At the root, rows 1 ({3}) and 2 ({4}) have one option each: the search chooses 3,
        // which takes out 1 and 2 (row 0 keeps 0 alone) and 4 (row 2 is left with none).
        let rows: &[(&[usize], Sense)] = &[
            (&[0, 1, 2], One),
            (&[3], One),
            (&[4], One),
            (&[1, 3], AtMost),
            (&[2, 3], AtMost),
            (&[3, 4], AtMost),
        ];
        let m = model(5, rows);
        let all = first_solutions(&m, u64::MAX).unwrap();
        assert!(all.solutions.is_empty() && all.exhaustive);
        // The node below the root sees row 2 empty and ends: one node.
        assert_eq!((all.nodes, all.guesses), (1, 0));
        // The `counts` engine's shortcut branches on row 0's last option first and meets the
        // empty row one level deeper: same (no) solutions, one node more.
        let mut options = BackendOptions::default();
        options.params.insert("engine".into(), "counts".into());
        let report = super::super::Xcc::new(&options)
            .unwrap()
            .count(&m, None)
            .unwrap();
        assert_eq!((report.witnesses.len(), report.stats.nodes), (0, 2));
    }

    #[test]
    fn weighted_rows_are_refused() {
        let mut b = ModelBuilder::new("w", PuzzleKind::Generic);
        for i in 0..2 {
            b.variable(format!("x{i}"), Coord::Free);
        }
        let f = b.family("w");
        b.weighted_row(f, vec![0, 1], vec![1, 2], Sense::AtMost(2));
        let err = first_solutions(&b.build().unwrap(), 2).unwrap_err();
        assert!(matches!(err, BackendError::UnsupportedRows { .. }), "{err}");
    }
}
