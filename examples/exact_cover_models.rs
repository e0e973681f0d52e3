//! Writes the exact-cover benchmark models of `reports/exact-cover.md` as JSON model files
//! (the generic schema every zeroone command reads), one per instance, into a folder:
//!
//!     cargo run --release --example exact_cover_models -- experiments/exact-cover
//!
//! Pentominoes 6x10 and 5x12, Langford pairs L(2, n) for n = 11, 12, 15, n-queens for
//! n = 12..=15 (diagonals as "at most one" rows, i.e. secondary items). The generators are
//! `zeroone::puzzle::generate::exact_cover`; each file is written through a temporary file and a rename.

use std::path::PathBuf;

use zeroone::export::{json::to_json, write_file};
use zeroone::puzzle::generate::exact_cover::{langford, n_queens, pentominoes};

fn main() {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "experiments/exact-cover".into()),
    );
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("cannot create {}: {e}", dir.display());
        std::process::exit(2);
    }
    let mut models = vec![pentominoes(6, 10), pentominoes(5, 12)];
    models.extend([11, 12, 15].map(langford));
    models.extend((12..=15).map(n_queens));
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
