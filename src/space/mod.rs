//! The search space of the puzzle kinds, counted exactly: the search-space reduction table (one
//! count per modelling level and board size) and the board symmetry groups that count orbits.
//! The tables are the kinds' own (each kind's `table.rs`, reached through the kind registry),
//! built on [`crate::puzzle::table`] and [`crate::puzzle::symmetry`] below the kinds; the
//! facade keeps the public paths `zeroone::space::table` (which the committed table reports
//! name) and `zeroone::space::symmetry` as re-exports; nothing in the layers uses them.

pub use crate::puzzle::symmetry;
pub mod table;
