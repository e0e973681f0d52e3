//! The confirmation every generated board passes before it is kept: independent registry
//! backends each count its solutions (limit 2) and find exactly one, exhaustively, then solve it
//! to that same solution, every answer through the shared verifier. One list says which
//! backends confirm, for every kind ([`CONFIRMING_BACKENDS`]); a run takes the first two of it
//! that are registered, accept the board's model and can both count and solve.
//!
//! Costs: two verified counts and two verified solves per kept board; the backends are built
//! once per run and reused.

use crate::backend::{
    count_verified, make_backend, registry, solve_verified, Backend, BackendOptions, Status,
};
use crate::model::{Model, Solution};

/// The backends that may confirm a board, in order of preference; the first two that are
/// registered, accept the model and can count and solve are used (today `bitset` and `sat`
/// for every kind).
///
/// One list for every kind. It was two: hex and Queens asked every registered one of `enum`
/// and `sat`, Star Battle and Killer Sudoku the first two of this list. This one is kept
/// because it asks each backend whether it takes the model (a new kind's rows need not suit a
/// fixed pair) and because it is cheap on every kind: `sat` (clause learning) shares nothing
/// with the generators' own depth-first counters, and `bitset` is fast on weighted rows, where
/// `enum` took 18.2 s against `bitset`'s 0.39 s to count a generated 9x9 Killer Sudoku to 2
/// (`zeroone count --limit 2`, debug build, same board).
pub const CONFIRMING_BACKENDS: [&str; 6] = ["bitset", "sat", "enum", "vsa", "milp", "gauss"];

/// Backends confirming each board.
const CONFIRMATIONS: usize = 2;

/// One backend's confirmation that a board has exactly one solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// Registry name of the backend.
    pub backend: String,
    /// Its search nodes for the count (limit 2).
    pub nodes: u64,
}

/// The confirming backends of one run, each built the first time a board needs it.
pub struct Confirmer {
    names: &'static [&'static str],
    built: Vec<Option<Box<dyn Backend>>>,
}

impl std::fmt::Debug for Confirmer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Confirmer")
            .field("names", &self.names)
            .finish()
    }
}

impl Default for Confirmer {
    fn default() -> Confirmer {
        Confirmer::new(&CONFIRMING_BACKENDS)
    }
}

impl Confirmer {
    /// A confirmer drawing from `names`, in that order of preference.
    pub fn new(names: &'static [&'static str]) -> Confirmer {
        Confirmer {
            names,
            built: names.iter().map(|_| None).collect(),
        }
    }

    /// Checks that `solution` is the only solution of `model` with the first two confirming
    /// backends that take the model; their checks, or what went wrong.
    pub fn confirm_unique(
        &mut self,
        model: &Model,
        solution: &Solution,
    ) -> Result<Vec<Check>, String> {
        let registered: Vec<&str> = registry().iter().map(|b| b.name).collect();
        let mut checks = Vec::with_capacity(CONFIRMATIONS);
        for (i, &name) in self.names.iter().enumerate() {
            if checks.len() == CONFIRMATIONS {
                break;
            }
            if !registered.contains(&name) {
                continue;
            }
            if self.built[i].is_none() {
                let backend =
                    make_backend(name, &BackendOptions::default()).map_err(|e| e.to_string())?;
                self.built[i] = Some(backend);
            }
            let backend = self.built[i].as_mut().expect("built above");
            if backend.rows_supported(model).is_err()
                || backend.counter().is_none()
                || backend.solver().is_none()
            {
                continue;
            }
            let nodes = confirm(backend.as_mut(), model, solution).map_err(|reason| {
                format!("the generator's counter found one solution, but backend '{name}' {reason}")
            })?;
            checks.push(Check {
                backend: name.to_string(),
                nodes,
            });
        }
        if checks.len() < CONFIRMATIONS {
            return Err(format!(
                "expected two backends that accept the model to confirm it, found {} ({})",
                checks.len(),
                checks
                    .iter()
                    .map(|c| c.backend.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        Ok(checks)
    }
}

/// Checks with `backend` that `model` has exactly `solution` as its only solution: a verified
/// count to 2 finds one, exhaustively, and a verified solve returns that one. Returns the
/// count's search nodes, or what went wrong.
pub fn confirm(
    backend: &mut dyn Backend,
    model: &Model,
    solution: &Solution,
) -> Result<u64, String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::generate::counter::count_solutions;
    use crate::puzzle::generate::GenerateOptions;
    use crate::puzzle::kinds::hex::generate::generate_hex;
    use crate::puzzle::HexBoard;

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
        let truth = count_solutions(&model, 2).unwrap().solutions[0].clone();
        assert_eq!(confirm(sat.as_mut(), &model, &truth), Ok(2));
        let wrong = Solution::new(vec![0]);
        assert_eq!(
            confirm(sat.as_mut(), &model, &wrong),
            Err("solved it to a different solution".to_string())
        );
        assert_eq!(g.checks.len(), 2);
        // The confirmer names the backend that refused, and asks for two.
        let mut confirmer = Confirmer::default();
        let err = confirmer.confirm_unique(&model, &wrong).unwrap_err();
        assert!(err.contains("but backend '"), "{err}");
        assert_eq!(confirmer.confirm_unique(&model, &truth).unwrap().len(), 2);
        let mut lonely = Confirmer::new(&["sat", "no-such-backend"]);
        let err = lonely.confirm_unique(&model, &truth).unwrap_err();
        assert!(err.contains("found 1 (sat)"), "{err}");
    }
}
