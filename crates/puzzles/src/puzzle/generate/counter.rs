//! The generator's uniqueness count: the first solutions of a board's model, in the fixed
//! order of the project's exact-cover engine ([`crate::backend::xcc::first_solutions`]: the
//! `counts` engine's general rule, branching on the first open "exactly one" row, in row order,
//! with the fewest candidates left, candidates in ascending variable order, a row with none
//! ending the node; "at most one" rows only take out the candidates that clash with a piece).
//! The repairs take the first solution other than the planted one, so the boards depend on
//! this order; it is the order of the counter the generators had of their own before, which
//! this replaces (cross-checked on every board the hex and Queens generators examined, on
//! Sudoku puzzles with givens and on full listings of bare boards: same solutions in the same
//! order, same nodes).
//!
//! It also answers the difficulty question the generator reports: does propagation alone (an
//! open "exactly one" row with a single candidate left forces it) solve the model? The answer
//! is read off the same count ([`Counted::solved_by_propagation`]).
//!
//! Takes models in which every variable lies in at least one "exactly one" row and every row
//! is "exactly one" or "at most one" (hex boards and Queens grids always are); others are
//! refused ([`CounterRefusal`]). Costs: see [`count_solutions`].

use crate::model::{Model, Sense, Solution};

/// Why a model cannot go through the generator's counter. The engine under it reads more
/// (cardinality rows, variables in no "exactly one" row through slack items), but the order
/// and the propagation answer the generators rely on are those of exact cover: a model outside
/// it is refused rather than counted in an order no generator was checked against.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CounterRefusal {
    /// A variable in no "exactly one" row (no row would ever force it, and the engine would
    /// decide it through a slack item the old counter never had).
    #[error("variable '{label}' lies in no \"exactly one\" row; the generator's counter needs every variable in one")]
    UncoveredVariable {
        /// The variable's label.
        label: String,
    },
    /// A general row (`= k`, `<= k`, `>= k` with `k != 1` or weights): the counter's
    /// propagation answer reads every row as "exactly one" or "at most one", which would
    /// misjudge it.
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
    /// A stop request on the thread (see `crate::backend::stop`) ended the count before its
    /// limit: fewer solutions than the limit would not mean there are no more.
    #[error("the generator's counter was stopped before it finished")]
    Stopped,
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
/// variable in no "exactly one" row (the generators' boards have neither); a count ended by a
/// stop request is an error too, never a short count. Costs: building the engine's problem
/// (linear in the nonzeros), then per node one copy of the search state and one scan of the
/// open rows.
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
    if !found.exhaustive && (found.solutions.len() as u64) < limit {
        return Err(CounterRefusal::Stopped);
    }
    Ok(Counted {
        count: found.solutions.len() as u64,
        exhaustive: found.exhaustive,
        solutions: found.solutions,
        // The engine counts the options it chose; the root is a node too.
        nodes: found.nodes + u64::from(limit > 0),
        guesses: found.guesses,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::verify::Verifier;
    use crate::puzzle::{HexBoard, QueensBoard, Sudoku};

    #[test]
    fn counts_the_seed_and_queens_figures() {
        let m = HexBoard::geometry(9).unwrap().to_model("w9");
        let r = count_solutions(&m, u64::MAX).unwrap();
        assert_eq!((r.count, r.exhaustive), (244, true));
        let v = Verifier::new(&m);
        assert!(r.solutions.iter().all(|s| v.accepts(s)));
        let q = QueensBoard::bare(6).to_model("q6");
        assert_eq!(count_solutions(&q, u64::MAX).unwrap().count, 90);
        let limited = count_solutions(&m, 2).unwrap();
        assert_eq!((limited.count, limited.exhaustive), (2, false));
        assert_eq!(limited.solutions[..], r.solutions[..2]);
        let none = count_solutions(&m, 0).unwrap();
        assert_eq!((none.count, none.exhaustive, none.nodes), (0, false, 0));
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
        let counted = count_solutions(&m, 2).unwrap();
        assert!(counted.solved_by_propagation());
        assert_eq!(counted.count, 1);
        let empty = Sudoku::empty(2).to_model("empty").unwrap();
        assert!(!count_solutions(&empty, 2).unwrap().solved_by_propagation());
    }

    #[test]
    fn a_stopped_count_is_an_error_not_a_short_count() {
        use crate::backend::stop::{with_stop_flag, StopFlag};
        let m = HexBoard::geometry(9).unwrap().to_model("w9");
        let flag = StopFlag::new();
        flag.raise();
        let err = with_stop_flag(&flag, || count_solutions(&m, 2)).unwrap_err();
        assert_eq!(err, CounterRefusal::Stopped);
    }

    #[test]
    fn general_rows_and_uncovered_variables_are_refused_not_miscounted() {
        use crate::model::{Coord, ModelBuilder, PuzzleKind};
        // x0 + x1 + x2 = 2 has 3 solutions; read as "at most one" it would have none.
        let mut b = ModelBuilder::new("two", PuzzleKind::Generic);
        for i in 0..3 {
            b.variable(format!("x{i}"), Coord::Free);
        }
        let f = b.family("two");
        b.row(f, vec![0, 1, 2], Sense::Exactly(2));
        let m = b.build().unwrap();
        let err = count_solutions(&m, 2).unwrap_err();
        assert!(matches!(err, CounterRefusal::GeneralRow { index: 0, .. }));
        assert!(err.to_string().contains("family 'two' is = 2"), "{err}");
        // x2 sits in an "at most one" row only.
        let mut b = ModelBuilder::new("loose", PuzzleKind::Generic);
        for i in 0..3 {
            b.variable(format!("x{i}"), Coord::Free);
        }
        let f = b.family("r");
        b.row(f, vec![0, 1], Sense::ExactlyOne);
        b.row(f, vec![1, 2], Sense::AtMostOne);
        let err = count_solutions(&b.build().unwrap(), 2).unwrap_err();
        assert_eq!(
            err,
            CounterRefusal::UncoveredVariable { label: "x2".into() }
        );
        assert!(err.to_string().contains("'x2' lies in no"), "{err}");
    }
}
