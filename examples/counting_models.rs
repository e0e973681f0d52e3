//! Writes the counting-family models of `experiments/counting.toml` as JSON model files (the
//! generic schema every zeroone command reads), one per instance, into a folder:
//!
//!     cargo run --release --example counting_models -- experiments/counting
//!
//! Set partitions of 10, 12 and 15 items (Bell numbers), perfect matchings of 16, 20 and 24
//! points (double factorials), Latin squares of order 4 and 5, Steiner triple systems of order
//! 7 and 9. The generators are `zeroone::puzzle::generate::counting`; each file is written
//! through a temporary file and a rename.

use std::path::PathBuf;

use zeroone::export::{json::to_json, write_file};
use zeroone::puzzle::generate::counting::{
    latin_squares, perfect_matchings, set_partitions, steiner_triple_systems,
};

fn main() {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "experiments/counting".into()),
    );
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("cannot create {}: {e}", dir.display());
        std::process::exit(2);
    }
    let mut models: Vec<_> = [10, 12, 15]
        .into_iter()
        .filter_map(set_partitions)
        .collect();
    models.extend([8, 10, 12].into_iter().filter_map(perfect_matchings));
    models.extend([4, 5].into_iter().filter_map(latin_squares));
    models.extend([7, 9].into_iter().filter_map(steiner_triple_systems));
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
