//! A library user who reads an OPB file and counts it with `xcc` builds only the two lowest
//! layers with the heavy engines off (`examples/count-opb`, issue 37): none of the CLI's,
//! the harness's or the heavy backends' dependencies.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// What must stay out of a minimal library use.
const HEAVY: &[&str] = &[
    "clap",
    "plotters",
    "resvg",
    "indicatif",
    "varisat",
    "microlp",
    "nalgebra",
];

/// The names of the packages `package` builds with (normal dependencies, this checkout's lock
/// file, no network).
fn normal_dependencies(package: &str) -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "-p", package, "-e", "normal", "--prefix", "none"])
        .args(["--offline", "--locked", "--format", "{p}"])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[test]
fn reading_an_opb_file_and_counting_with_xcc_pulls_no_heavy_dependency() {
    let minimal = normal_dependencies("zeroone-example-count-opb");
    assert!(minimal.contains("zeroone-model"), "{minimal:?}");
    assert!(minimal.contains("zeroone-backends"), "{minimal:?}");
    let heavy: Vec<_> = HEAVY.iter().filter(|h| minimal.contains(**h)).collect();
    assert!(heavy.is_empty(), "a minimal library use builds {heavy:?}");
    // The check sees them where they are: the whole program builds every one.
    let whole = normal_dependencies("zeroone");
    for h in HEAVY {
        assert!(
            whole.contains(*h),
            "{h} not in the facade's tree: {whole:?}"
        );
    }
}
