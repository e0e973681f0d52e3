//! Times the MILP backends on real puzzle sets: every level of
//! `../shared/data/queens/capybaradoku_levels.txt` (each must be solved, verified, and match the
//! file's own solution) and every puzzle of `../shared/data/sudoku/norvig_top95.txt` (each
//! solved and verified), plus the built-in width-9 hex boards, and counts the bare width-9
//! board's 244 solutions by no-good cuts. Prints, per engine and set, the
//! median, 90th percentile and maximum time per puzzle and how many levels finish under 50 ms.
//!
//! Run in release: `cargo run --release --example milp_levels` (add `--features highs` for the
//! HiGHS engine too). Every solve goes through `solve_verified`: a wrong answer is counted as an
//! error and printed, never as solved.
//!
//! The two data files are read with a few lines of code here (block format of the Queens README,
//! one 81-character line per Sudoku) so that this measurement does not depend on the file
//! parser.

use std::path::PathBuf;
use std::time::Instant;

use zeroone::backend::{make_backend, solve_verified, BackendOptions, Status};
use zeroone::model::Model;
use zeroone::puzzle::{placements, HexBoard, QueensBoard, Sudoku};

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(path)
}

/// `(model, the file's solution as the column per row)` for every Capybaradoku level.
fn queens_levels() -> Vec<(Model, Vec<usize>)> {
    let text = std::fs::read_to_string(data("queens/capybaradoku_levels.txt"))
        .expect("../shared/data/queens/capybaradoku_levels.txt (see the brief)");
    let mut out = Vec::new();
    for block in text.split("\n\n").filter(|b| !b.trim().is_empty()) {
        let lines: Vec<&str> = block.lines().collect();
        let name = lines[0].trim_start_matches("# ").to_string();
        let grid: Vec<Vec<usize>> = lines
            .iter()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.bytes().map(|b| (b - b'A') as usize).collect())
            .collect();
        let solution: Vec<usize> = lines
            .iter()
            .find_map(|l| l.strip_prefix("# solution:"))
            .expect("every level states its solution")
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        let board = QueensBoard::with_regions(grid).expect("square grid");
        out.push((board.to_model(name), solution));
    }
    out
}

fn sudokus(file: &str) -> Vec<Model> {
    let text = std::fs::read_to_string(data(file)).expect("Sudoku data file");
    text.lines()
        .filter(|l| l.len() >= 81)
        .enumerate()
        .map(|(i, l)| {
            let cells = l
                .chars()
                .take(81)
                .map(|c| zeroone::puzzle::sudoku::digit_of(c, 9))
                .collect();
            Sudoku::from_cells(3, cells)
                .expect("81 cells")
                .to_model(format!("{file}#{i}"))
                .expect("clues do not clash")
        })
        .collect()
}

fn hex_boards() -> Vec<Model> {
    let coloured = [
        "DBAAA",
        "DBBAAC",
        "DBBDACC",
        "DDDDAACG",
        "DDEEIFFGG",
        "DDIIIFGG",
        "HDHIGGG",
        "HHHIGG",
        "HHIII",
    ];
    let regions = coloured
        .iter()
        .map(|r| r.bytes().map(|b| (b - b'A') as usize).collect())
        .collect();
    vec![
        HexBoard::geometry(9).unwrap().to_model("hex-9-bare"),
        HexBoard::coloured(regions)
            .unwrap()
            .to_model("hex-9-coloured"),
    ]
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

/// Solves every model, checks the outcome, prints the timing line.
fn measure(engine: &str, set: &str, models: &[Model], expected: Option<&[Vec<usize>]>) {
    let mut backend = make_backend(engine, &BackendOptions::default()).expect("backend");
    let mut ms = Vec::new();
    let mut failures = 0;
    for (i, model) in models.iter().enumerate() {
        let start = Instant::now();
        let out = solve_verified(backend.as_mut(), model).expect("milp can solve");
        ms.push(start.elapsed().as_secs_f64() * 1e3);
        let ok = out.status == Status::Solved
            && expected.is_none_or(|sols| {
                let cols: Vec<usize> = placements(model, out.solution.as_ref().unwrap())
                    .unwrap()
                    .iter()
                    .map(|p| p[1])
                    .collect();
                cols == sols[i]
            });
        if !ok {
            failures += 1;
            eprintln!(
                "{engine}: {} -> {:?} {:?}",
                model.name(),
                out.status,
                out.reason
            );
        }
    }
    let mut sorted = ms.clone();
    sorted.sort_by(f64::total_cmp);
    let under = ms.iter().filter(|&&t| t < 50.0).count();
    println!(
        "| {engine} | {set} | {} | {} | {:.2} | {:.2} | {:.2} | {:.1} | {under}/{} |",
        models.len(),
        models.len() - failures,
        quantile(&sorted, 0.5),
        quantile(&sorted, 0.9),
        sorted.last().copied().unwrap_or(0.0),
        ms.iter().sum::<f64>(),
        models.len(),
    );
}

fn main() {
    let levels = queens_levels();
    let (queens, solutions): (Vec<Model>, Vec<Vec<usize>>) = levels.into_iter().unzip();
    let top95 = sudokus("sudoku/norvig_top95.txt");
    assert_eq!(top95.len(), 95);
    let hex = hex_boards();
    let mut engines = vec!["milp"];
    if zeroone::backend::registry()
        .iter()
        .any(|b| b.name == "highs")
    {
        engines.push("highs");
    }
    println!("| engine | set | puzzles | solved, verified | median ms | p90 ms | max ms | total ms | under 50 ms |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for engine in engines {
        measure(engine, "hex width 9", &hex, None);
        measure(
            engine,
            "capybaradoku levels",
            &queens,
            Some(solutions.as_slice()),
        );
        measure(engine, "norvig top95", &top95, None);
    }
    // Counting by no-good cuts, against the seed's 244 solutions of the bare width-9 board.
    for engine in ["milp", "highs"] {
        let Ok(mut backend) = make_backend(engine, &BackendOptions::default()) else {
            continue;
        };
        let start = Instant::now();
        let c = zeroone::backend::count_verified(backend.as_mut(), &hex[0], None).unwrap();
        println!(
            "\n{engine}: bare width-9 hex: count {} (exhaustive {}, status {:?}) in {:.0} ms",
            c.count,
            c.exhaustive,
            c.status,
            start.elapsed().as_secs_f64() * 1e3
        );
        assert_eq!(c.count, 244);
    }
}
