//! The layer order, kept twice.
//!
//! 1. By the compiler: each layer is a crate, and a crate can only use the crates it depends
//!    on. `the_crates_depend_only_on_the_layers_below` reads the workspace's dependency graph
//!    (`cargo metadata`) and fails on an internal dependency that runs up or sideways.
//!    Dev-dependencies are not read: unit tests of a lower crate may build their models with a
//!    higher one, and doc tests are written through the facade (cycles cargo allows; what they
//!    build never reaches a user).
//! 2. By reading the code, inside each crate: every `crate::` path in a file of a layer's crate
//!    names a module of its own layer or of a layer below (within zeroone-model: `output` and
//!    `suggest` below `model` below `encode` below `export` and `read`). Each crate re-exports
//!    the lower crates' modules at its root, so the same
//!    `crate::model` paths resolve everywhere, and this reader sees every layer's files alike.
//!
//! Test modules (`#[cfg(test)] mod tests` at a file's end) may build models from any layer and
//! are not read; doc comments are not read either. `KNOWN_UPWARD` lists the imports that still
//! run up the layers, each with where it should go: the list may only shrink, and an entry that
//! no longer occurs fails the test so that it is removed.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The workspace's crates, lowest layer first: a crate's internal (non-dev) dependencies must
/// all sit in earlier entries. The facade and the binary (`zeroone`) sit on every layer; the
/// benchmarks, the Python bindings and the minimal library example on top.
const CRATES: &[&[&str]] = &[
    &["zeroone-fft"],
    &["zeroone-model"],
    &["zeroone-backends"],
    &["zeroone-puzzles"],
    &["zeroone-harness"],
    &["zeroone"],
    &[
        "zeroone-benches",
        "zeroone-python",
        "zeroone-example-count-opb",
    ],
];

/// The folders under `crates/` holding the layers' sources (each `crates/NAME/src`).
const LAYER_CRATES: &[&str] = &["model", "backends", "puzzles", "harness"];

/// The library's top-level modules, lowest layer first.
const LAYERS: &[&[&str]] = &[
    &["build_info", "output", "suggest"],
    &["model"],
    &["encode"],
    &["export", "read"],
    &["backend"],
    &["puzzle", "render", "testing"],
    &["harness"],
];

/// Imports that still run up the layers: (file under `crates/NAME/src/`, module it names).
const KNOWN_UPWARD: &[(&str, &str)] = &[];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// Every `.rs` file below `dir`, into `out` (also read by `structure.rs`).
pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of `text` without its trailing test module and without comments.
fn code_of(text: &str) -> String {
    let body = match text.find("#[cfg(test)]\nmod tests {") {
        Some(i) => &text[..i],
        None => text,
    };
    body.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The files that hold only tests: those a `#[cfg(test)]` line declares as a module of their
/// own (`mod tests;` in a folder split into files), as `NAME.rs` or `NAME/mod.rs`.
fn test_files(files: &[PathBuf]) -> BTreeSet<PathBuf> {
    const DECLARED: &str = "#[cfg(test)]\nmod ";
    let mut out = BTreeSet::new();
    for file in files {
        let text = fs::read_to_string(file).unwrap();
        let own_folder = ["mod.rs", "lib.rs", "main.rs"]
            .iter()
            .any(|n| file.file_name() == Some(n.as_ref()));
        let dir = if own_folder {
            file.parent().unwrap().to_path_buf()
        } else {
            file.with_extension("")
        };
        for (i, _) in text.match_indices(DECLARED) {
            let rest = &text[i + DECLARED.len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if rest[name.len()..].starts_with(';') {
                out.insert(dir.join(format!("{name}.rs")));
                out.insert(dir.join(&name).join("mod.rs"));
            }
        }
    }
    out
}

/// The top-level modules a piece of code names through `crate::`.
fn named_modules(code: &str) -> BTreeSet<String> {
    code.match_indices("crate::")
        .map(|(i, _)| {
            code[i + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|m| !m.is_empty())
        .collect()
}

/// Each workspace package's internal non-dev dependencies, from `cargo metadata` (offline, no
/// resolution: the manifests alone).
fn internal_dependencies() -> Vec<(String, String, String)> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--offline",
            "--no-deps",
            "--format-version",
            "1",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let members: BTreeSet<&str> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    let mut edges = Vec::new();
    for package in meta["packages"].as_array().unwrap() {
        let name = package["name"].as_str().unwrap();
        for dep in package["dependencies"].as_array().unwrap() {
            let (dep_name, kind) = (dep["name"].as_str().unwrap(), dep["kind"].as_str());
            if members.contains(dep_name) && kind != Some("dev") {
                let kind = kind.unwrap_or("normal");
                edges.push((name.to_string(), dep_name.to_string(), kind.to_string()));
            }
        }
    }
    edges
}

fn crate_layer(name: &str) -> Option<usize> {
    CRATES.iter().position(|l| l.contains(&name))
}

#[test]
fn the_crates_depend_only_on_the_layers_below() {
    let edges = internal_dependencies();
    // The graph is really read: the facade depends on every layer.
    for layer in [
        "zeroone-model",
        "zeroone-backends",
        "zeroone-puzzles",
        "zeroone-harness",
    ] {
        assert!(
            edges
                .iter()
                .any(|(from, to, _)| from == "zeroone" && to == layer),
            "{edges:?}"
        );
    }
    let mut wrong = Vec::new();
    for (from, to, kind) in &edges {
        let (Some(a), Some(b)) = (crate_layer(from), crate_layer(to)) else {
            wrong.push(format!("{from} -> {to}: a crate without a layer in CRATES"));
            continue;
        };
        if b >= a {
            wrong.push(format!("{from} -> {to} ({kind}): not a layer below"));
        }
    }
    assert!(wrong.is_empty(), "dependencies up or sideways: {wrong:?}");
}

#[test]
fn the_layer_check_refuses_an_upward_or_sideways_dependency() {
    // What the check above computes, on made-up edges.
    let bad = |from: &str, to: &str| crate_layer(to) >= crate_layer(from);
    assert!(bad("zeroone-model", "zeroone-backends"));
    assert!(bad("zeroone-benches", "zeroone-python"));
    assert!(!bad("zeroone-harness", "zeroone-model"));
}

#[test]
fn no_file_imports_from_a_layer_above_its_own() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut upward = BTreeSet::new();
    let mut model_tests_seen = false;
    for name in LAYER_CRATES {
        let src = root.join("crates").join(name).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        let tests = test_files(&files);
        model_tests_seen |= tests.contains(&src.join("model/tests.rs"));
        for file in files.iter().filter(|f| !tests.contains(*f)) {
            let rel = file
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let own = rel.split('/').next().unwrap().trim_end_matches(".rs");
            let Some(own_layer) = layer_of(own) else {
                continue; // lib.rs: the crate's modules and re-exports, checked by cargo
            };
            for module in named_modules(&code_of(&fs::read_to_string(file).unwrap())) {
                if layer_of(&module).is_some_and(|l| l > own_layer) {
                    upward.insert((rel.clone(), module));
                }
            }
        }
    }
    assert!(model_tests_seen, "the test files are found");
    let known: BTreeSet<(String, String)> = KNOWN_UPWARD
        .iter()
        .map(|(f, m)| (f.to_string(), m.to_string()))
        .collect();
    let new: Vec<_> = upward.difference(&known).collect();
    assert!(new.is_empty(), "imports from a higher layer: {new:?}");
    let gone: Vec<_> = known.difference(&upward).collect();
    assert!(
        gone.is_empty(),
        "fixed, so remove from KNOWN_UPWARD: {gone:?}"
    );
}

#[test]
fn every_top_level_module_has_a_layer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    for name in LAYER_CRATES {
        let lib = fs::read_to_string(root.join("crates").join(name).join("src/lib.rs")).unwrap();
        for line in lib.lines() {
            if let Some(module) = line.strip_prefix("pub mod ") {
                let module = module.trim_end_matches(';');
                assert!(
                    layer_of(module).is_some(),
                    "module '{module}' has no layer in LAYERS"
                );
                seen += 1;
            }
        }
    }
    assert_eq!(seen, LAYERS.iter().map(|l| l.len()).sum::<usize>());
}

#[test]
fn the_reader_finds_paths_but_not_comments_or_tests() {
    let text = "use crate::model::Model;\n// crate::harness in a comment\nfn f() { crate::backend::x(); }\n#[cfg(test)]\nmod tests { use crate::harness; }\n";
    let found = named_modules(&code_of(text));
    let want: BTreeSet<String> = ["model", "backend"].iter().map(|s| s.to_string()).collect();
    assert_eq!(found, want);
}
