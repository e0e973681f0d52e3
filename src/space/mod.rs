//! The search space of the puzzle kinds, counted exactly: the search-space reduction table (one
//! count per modelling level and board size) and the board symmetry groups that count orbits.
//! This layer sits above the kinds, whose geometry it counts, and below the harness, which runs
//! its tables as experiments.

pub mod symmetry;
pub mod table;
