//! Writes the models of `experiments/counting-portfolio.toml` (the measurement `auto` follows
//! when it counts) as JSON model files, one per instance, into a folder:
//!
//!     cargo run --release --example counting_portfolio_models -- experiments/counting-portfolio
//!
//! Small members of every count family, each counted in seconds by its slowest engine: set
//! partitions of 8 and 10 items, perfect matchings of 10, 12 and 14 points, Latin squares of
//! order 4 and 5, Steiner triple systems of order 7 and 9, n-queens 8, 10, 11 and 12,
//! Langford pairs L(2, 7), L(2, 8), L(2, 11), pentominoes 3x20, 4x15 and 5x12. (Hex boards,
//! Queens boards and Star Battle come from the experiment's other sources.) The generators are
//! `zeroone::puzzle::generate::{counting, exact_cover}`; each file is written through a
//! temporary file and a rename.

use std::path::PathBuf;

use zeroone::export::{json::to_json, write_file};
use zeroone::puzzle::generate::counting::{
    latin_squares, perfect_matchings, set_partitions, steiner_triple_systems,
};
use zeroone::puzzle::generate::exact_cover::{langford, n_queens, pentominoes};

fn main() {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "experiments/counting-portfolio".into()),
    );
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("cannot create {}: {e}", dir.display());
        std::process::exit(2);
    }
    let mut models: Vec<_> = [8, 10].into_iter().filter_map(set_partitions).collect();
    models.extend([5, 6, 7].into_iter().filter_map(perfect_matchings));
    models.extend([4, 5].into_iter().filter_map(latin_squares));
    models.extend([7, 9].into_iter().filter_map(steiner_triple_systems));
    models.extend([8, 10, 11, 12].map(n_queens));
    models.extend([7, 8, 11].map(langford));
    models.extend([(3, 20), (4, 15), (5, 12)].map(|(r, c)| pentominoes(r, c)));
    for m in models {
        let path = dir.join(format!("{}.json", m.name()));
        let written = to_json(&m)
            .map_err(|e| e.to_string())
            .and_then(|text| write_file(&path, &text).map_err(|e| e.to_string()));
        match written {
            Ok(()) => println!("{}", path.display()),
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                std::process::exit(2);
            }
        }
    }
}
