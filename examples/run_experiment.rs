//! Run an experiment from code and read its records: two backends on the shipped width-5 hex
//! board and 4x4 Sudoku, each run in a worker process, every answer verified.
//!
//!     cargo build && cargo run --example run_experiment
//!
//! The workers are the `zeroone` binary (`zeroone worker`), so a program of your own that runs
//! experiments names it in `RunOptions::worker_exe`: here the one `cargo build` put beside this
//! example's folder, or `ZEROONE_BIN`. Records and reports go to a temporary folder.

use std::path::PathBuf;

use zeroone::harness::record::read_records;
use zeroone::harness::{run_experiment, Experiment, RunOptions};

fn zeroone_binary() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("ZEROONE_BIN") {
        return Ok(path.into());
    }
    // target/<profile>/examples/run_experiment -> target/<profile>/zeroone
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let beside = exe
        .parent()
        .and_then(|examples| examples.parent())
        .map(|profile| profile.join("zeroone"))
        .filter(|p| p.is_file());
    beside.ok_or_else(|| {
        "no zeroone binary beside this example: run `cargo build` first, or set ZEROONE_BIN".into()
    })
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let folder = tempfile::tempdir()?;
    let models = concat!(env!("CARGO_MANIFEST_DIR"), "/models");
    let file = folder.path().join("two-backends.toml");
    std::fs::write(
        &file,
        format!(
            r#"
description = "bitset and sat on two small shipped puzzles"
kind = "solve"
time_limit = 10
[[instances]]
file = "{models}/hex-5.hex"
[[instances]]
file = "{models}/sudoku-4x4.sudoku"
[[backends]]
name = "bitset"
[[backends]]
name = "sat"
"#
        ),
    )?;
    let experiment = Experiment::load(&file)?;
    let mut options = RunOptions::new(folder.path().join("reports"));
    options.worker_exe = Some(zeroone_binary()?);
    options.jobs = Some(1);
    let summary = run_experiment(&experiment, &options)?;
    println!("{summary:?}");
    let records = folder.path().join("reports/two-backends.jsonl");
    let (records, _) = read_records(&records, false)?;
    for r in &records {
        println!(
            "{:<24} {:<7} {:<10} verified {:<5} {:.6} s",
            r.instance,
            r.backend,
            r.status.name(),
            r.verified,
            r.seconds
        );
    }
    Ok(())
}
