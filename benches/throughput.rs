//! Per-puzzle cost of everything but the search, for 9x9 Sudoku: reading a line, building the
//! model (the shared shape plus the givens), verifying an answer and printing its JSON record,
//! each step alone and all together; and loading a generic model with one long row.
//!
//! Puzzles: the first 2,000 of `data/sudoku/royle_17clue.txt` (or `.txt.gz`) when the data is
//! there, otherwise 2,000 generated ones (25 clues, seed 7). Each is solved once by `bitset`
//! before timing, so the verify and print steps have a real answer. Times are per batch of
//! 2,000 puzzles: divide by 2,000 for the per-puzzle figure (`reports/throughput.md`).

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{BatchSize, Criterion};
use zeroone::backend::{make_backend, solve_verified, BackendOptions, Outcome};
use zeroone::model::verify::Verifier;
use zeroone::model::Model;
use zeroone::puzzle::kinds::sudoku::generate;
use zeroone::puzzle::parse::{open, Format, PuzzleStream};
use zeroone::puzzle::Sudoku;
use zeroone::read::generic;
use zeroone::render::SolveRecord;

const PUZZLES: usize = 2000;

/// The benchmark's puzzle lines, as one text.
fn puzzle_text() -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/sudoku");
    for name in ["royle_17clue.txt", "royle_17clue.txt.gz"] {
        let Ok(stream) = open(&dir.join(name), Some(Format::Sudoku)) else {
            continue;
        };
        let lines: Vec<String> = stream
            .take(PUZZLES)
            .filter_map(Result::ok)
            .filter_map(|p| p.board_as::<Sudoku>().map(|s| s.to_line()))
            .collect();
        if lines.len() == PUZZLES {
            return lines.join("\n") + "\n";
        }
    }
    (0..PUZZLES as u64)
        .map(|i| generate::generate(3, 25, 7, i).puzzle.to_line() + "\n")
        .collect()
}

fn models(text: &str) -> Vec<Model> {
    PuzzleStream::new(text.as_bytes(), Some(Format::Sudoku), "bench")
        .models()
        .map(|m| m.expect("valid puzzle").1)
        .collect()
}

fn main() {
    let text = puzzle_text();
    let models = models(&text);
    let mut bitset = make_backend("bitset", &BackendOptions::default()).expect("bitset");
    let outcomes: Vec<Outcome> = models
        .iter()
        .map(|m| solve_verified(bitset.as_mut(), m).expect("bitset solves"))
        .collect();
    assert!(outcomes.iter().all(|o| o.verified));
    let mut c = Criterion::default().configure_from_args().sample_size(20);
    let mut g = c.benchmark_group("sudoku9_overhead_per_2000");
    g.bench_function("read", |b| {
        b.iter(|| {
            PuzzleStream::new(text.as_bytes(), Some(Format::Sudoku), "bench")
                .filter(|p| black_box(p.is_ok()))
                .count()
        })
    });
    g.bench_function("read_and_model", |b| {
        b.iter(|| {
            PuzzleStream::new(text.as_bytes(), Some(Format::Sudoku), "bench")
                .models()
                .filter(|m| black_box(m.is_ok()))
                .count()
        })
    });
    g.bench_function("verify", |b| {
        b.iter(|| {
            models
                .iter()
                .zip(&outcomes)
                .filter(|(m, o)| Verifier::new(m).accepts(o.solution.as_ref().expect("solved")))
                .count()
        })
    });
    g.bench_function("print_json", |b| {
        b.iter(|| {
            let mut out = String::new();
            for (i, (m, o)) in models.iter().zip(&outcomes).enumerate() {
                out.push_str(&SolveRecord::new(i, m, "bitset", o).to_json());
                out.push('\n');
            }
            black_box(out.len())
        })
    });
    g.bench_function("read_model_verify_print", |b| {
        b.iter(|| {
            let mut out = String::new();
            let stream = PuzzleStream::new(text.as_bytes(), Some(Format::Sudoku), "bench");
            for (m, o) in stream.models().zip(&outcomes) {
                let (i, m) = m.expect("valid");
                let ok = Verifier::new(&m).accepts(o.solution.as_ref().expect("solved"));
                assert!(ok);
                out.push_str(&SolveRecord::new(i, &m, "bitset", o).to_json());
                out.push('\n');
            }
            black_box(out.len())
        })
    });
    g.finish();
    let mut g = c.benchmark_group("generic_load");
    g.sample_size(10);
    for n in [100_000usize, 400_000] {
        let json = one_row_model(n);
        g.bench_function(format!("one_row_{n}_variables"), |b| {
            b.iter_batched(
                || (),
                |()| generic::parse_json(&json).expect("valid model"),
                BatchSize::PerIteration,
            )
        });
    }
    g.finish();
    c.final_summary();
}

/// A generic model of `n` variables in one exactly-one row, as JSON.
fn one_row_model(n: usize) -> String {
    let labels: Vec<String> = (0..n).map(|i| format!("\"v{i}\"")).collect();
    let list = labels.join(",");
    format!(
        "{{\"variables\": [{list}], \"families\": [{{\"name\": \"row\", \"sense\": \"exactly-one\", \"rows\": [[{list}]]}}]}}"
    )
}
