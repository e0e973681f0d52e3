//! Encodings of a 0-1 model for solvers of other problems, shared by the exporters and the
//! backends that use them: [`cnf`] (clauses, with rustsat's cardinality and pseudo-Boolean
//! encodings), written by [`crate::export::cnf`] and solved by the `sat` backend.

pub mod cnf;
