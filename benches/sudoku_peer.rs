//! The `sudoku` crate (a JCZSolve port; AGPL, a dependency of the benchmark crate only, never in the library or the
//! binary) as a whole-process peer for `zeroone solve FILE --backend bitset`: reads a file of
//! Sudoku lines (`.gz` too), solves each, and prints one solution line per puzzle, so the two
//! programs do the same input and output work. Used for `reports/throughput.md`:
//!
//! `cargo build --release -p zeroone-benches --features peer --example sudoku_peer &&
//! target/release/examples/sudoku_peer FILE` (a crate of its own so that `cargo test` never builds it).

use std::io::{BufRead, BufWriter, Write};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: sudoku_peer FILE");
        std::process::exit(2);
    };
    let file = match std::fs::File::open(&path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let reader = std::io::BufReader::new(file);
    let reader = match zeroone::puzzle::parse::gunzip_if_needed(reader) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    let (mut solved, mut unsolved) = (0u64, 0u64);
    for line in reader.lines() {
        let Ok(line) = line else { break };
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let answer = sudoku::Sudoku::from_str_line(line)
            .ok()
            .and_then(|s| s.some_solution());
        match answer {
            Some(s) => {
                solved += 1;
                let _ = writeln!(out, "{}", s.to_str_line());
            }
            None => {
                unsolved += 1;
                let _ = writeln!(out, "no solution");
            }
        }
    }
    let _ = out.flush();
    eprintln!("{solved} solved, {unsolved} without a solution");
}
