//! Read a puzzle file and print the stable snapshot of each puzzle: its model, what Gaussian
//! elimination fixes, and every verified solution. The same values are what a user's insta test
//! asserts (see `examples/snapshot-crate/` and the README section "Snapshot-testing your models").
//!
//!     cargo run --example snapshot_model -- models/hex-bare.hex
//!
//! With no argument it reads `models/hex-5.hex`.

use zeroone::testing::{load, snapshot, SnapshotOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/models/hex-5.hex").into());
    for model in load(&path)? {
        let snap = snapshot(&model, &SnapshotOptions::default())?;
        print!("{}", snap.to_text());
    }
    Ok(())
}
