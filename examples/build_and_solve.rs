//! Build a 0-1 model in code and solve it with two backends; both answers are verified.
//!
//!     cargo run --example build_and_solve
//!
//! The model: place 5 non-attacking rooks on a 5x5 board with one rook per row and per column
//! and no rook on the main diagonal (a derangement of 5 elements: 44 solutions).

use zeroone::backend::{count_verified, make_backend, solve_verified, BackendOptions};
use zeroone::model::{Coord, Model, ModelBuilder, PuzzleKind, Sense};
use zeroone::render::labels_of;

const N: usize = 5;

fn rooks() -> Model {
    let mut b = ModelBuilder::new("derangement-5", PuzzleKind::Generic);
    // One variable per off-diagonal square.
    let mut var = vec![vec![None; N]; N];
    for (r, row) in var.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate().filter(|(c, _)| *c != r) {
            *cell = Some(b.variable(format!("r{r}c{c}"), Coord::Cell { row: r, col: c }));
        }
    }
    let rows = b.family("row");
    for row in &var {
        b.row(
            rows,
            row.iter().flatten().copied().collect(),
            Sense::ExactlyOne,
        );
    }
    let columns = b.family("column");
    for c in 0..N {
        b.row(
            columns,
            var.iter().filter_map(|row| row[c]).collect(),
            Sense::ExactlyOne,
        );
    }
    b.build().expect("a well-formed model")
}

fn main() {
    let model = rooks();
    for name in ["bitset", "sat"] {
        let mut backend = make_backend(name, &BackendOptions::default()).expect("registered");
        let solved = solve_verified(backend.as_mut(), &model).expect("can solve");
        let counted = count_verified(backend.as_mut(), &model, None).expect("can count");
        let answer = solved.solution.map(|s| labels_of(&model, &s).join(" "));
        println!(
            "{name:>6}: {} (verified: {}), {} solutions in all (exhaustive: {})  {}",
            solved.status.name(),
            solved.verified,
            counted.count,
            counted.exhaustive,
            answer.unwrap_or_default()
        );
        assert_eq!(counted.count, 44, "derangements of 5 elements");
    }
}
