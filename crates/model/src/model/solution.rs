//! [`Solution`]: an assignment as the sorted ids of the variables set to 1.

use crate::model::VarId;
use serde::{Deserialize, Serialize};

/// An assignment, stored as the sorted ids of the variables set to 1.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Solution {
    /// Sorted, duplicate-free ids of the variables equal to 1.
    pub ones: Vec<VarId>,
}

impl Solution {
    /// Builds a solution from any list of ids (sorted and deduplicated here).
    pub fn new(mut ones: Vec<VarId>) -> Self {
        ones.sort_unstable();
        ones.dedup();
        Solution { ones }
    }

    /// Builds a solution from a full 0-1 vector.
    pub fn from_bools(values: &[bool]) -> Self {
        Solution {
            ones: values
                .iter()
                .enumerate()
                .filter_map(|(i, &b)| b.then_some(i))
                .collect(),
        }
    }

    /// The full 0-1 vector of length `n`.
    pub fn to_bools(&self, n: usize) -> Vec<bool> {
        let mut v = vec![false; n];
        for &i in &self.ones {
            if i < n {
                v[i] = true;
            }
        }
        v
    }
}
