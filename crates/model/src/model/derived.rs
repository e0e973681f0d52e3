//! Derived variables: variables a reader adds to a model so that every row keeps positive
//! weights, whose values the model's own rows fix from the file's variables.
//!
//! - A **complement** `~x` stands for `1 - x` and is tied to `x` by the row `x + ~x = 1` (the
//!   standard pseudo-Boolean normalisation: a term `-w x` becomes `w ~x` and the right-hand
//!   side rises by `w`). [`crate::model::ModelBuilder::complement`] makes one.
//! - An **auxiliary** variable is any other variable the rows determine (an XCC colour choice:
//!   "item `i` has colour `c`", set exactly when a chosen option gives `i` that colour).
//!
//! Because the rows determine every derived variable, a solution of the file's variables
//! extends to exactly one solution of the model: counts are unchanged, and every backend works
//! on the normalised model as it is. The builder numbers derived variables after all others
//! (ids `Model::own_variables()..`), so output drops them by id
//! ([`crate::model::Model::own_solution`]) and the file's variables keep their ids.
//!
//! Costs: one small enum per derived variable.

use serde::{Deserialize, Serialize};

use crate::model::VarId;

/// What a derived variable is (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Derived {
    /// `1 - x` for the variable `x` given (tied by a row `x + ~x = 1`).
    Complement(VarId),
    /// A variable the rows fix from the file's variables (an XCC colour choice).
    Auxiliary,
}

/// The name of the family holding the rows `x + ~x = 1`: `complement`, or `complement-2`,
/// `complement-3`, ... when the model already has a family of that name.
pub(crate) fn complement_family_name(taken: impl Fn(&str) -> bool) -> String {
    let mut name = "complement".to_string();
    let mut k = 1;
    while taken(&name) {
        k += 1;
        name = format!("complement-{k}");
    }
    name
}

/// The permutation that moves the derived variables (flagged in `derived`) after the others,
/// keeping the order within each group: `new_id[old]`. `None` when they are already last.
pub(crate) fn derived_last(derived: &[bool]) -> Option<Vec<VarId>> {
    let first_derived = derived.iter().position(|&d| d)?;
    if derived[first_derived..].iter().all(|&d| d) {
        return None;
    }
    let own = derived.iter().filter(|&&d| !d).count();
    let (mut next_own, mut next_derived) = (0, own);
    Some(
        derived
            .iter()
            .map(|&d| {
                let slot = if d { &mut next_derived } else { &mut next_own };
                *slot += 1;
                *slot - 1
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_variables_move_last_in_order() {
        assert_eq!(derived_last(&[false, false, true]), None);
        assert_eq!(derived_last(&[false, false]), None);
        assert_eq!(
            derived_last(&[false, true, false, true, false]),
            Some(vec![0, 3, 1, 4, 2])
        );
    }

    #[test]
    fn the_complement_family_avoids_taken_names() {
        assert_eq!(complement_family_name(|_| false), "complement");
        let taken = ["complement", "complement-2"];
        assert_eq!(
            complement_family_name(|n| taken.contains(&n)),
            "complement-3"
        );
    }
}
