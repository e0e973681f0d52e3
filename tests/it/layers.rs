//! The layer order of `src/`, kept by reading the code: every `crate::` path in a file of the
//! library names a module of its own layer or of a layer below. Data flows one way (model ->
//! backend -> puzzle kinds -> search-space tables -> harness), and so do imports.
//!
//! Test modules (`#[cfg(test)] mod tests` at a file's end) may build models from any layer and
//! are not read; doc comments are not read either. `KNOWN_UPWARD` lists the imports that still
//! run up the layers, each with where it should go: the list may only shrink, and an entry that
//! no longer occurs fails the test so that it is removed.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The library's top-level modules, lowest layer first.
const LAYERS: &[&[&str]] = &[
    &["build_info", "output", "suggest"],
    &["model"],
    &["export", "read"],
    &["backend"],
    &["puzzle", "render", "testing"],
    &["space"],
    &["harness"],
];

/// Imports that still run up the layers: (file under `src/`, module it names).
const KNOWN_UPWARD: &[(&str, &str)] = &[];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
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

#[test]
fn no_file_imports_from_a_layer_above_its_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let tests = test_files(&files);
    assert!(tests.contains(&src.join("model/tests.rs")), "{tests:?}");
    let mut upward = BTreeSet::new();
    for file in files.iter().filter(|f| !tests.contains(*f)) {
        let rel = file
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let own = rel.split('/').next().unwrap().trim_end_matches(".rs");
        let Some(own_layer) = layer_of(own) else {
            continue; // lib.rs, main.rs and the CLI sit on top of everything
        };
        for module in named_modules(&code_of(&fs::read_to_string(file).unwrap())) {
            if layer_of(&module).is_some_and(|l| l > own_layer) {
                upward.insert((rel.clone(), module));
            }
        }
    }
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
    let lib = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    for line in lib.lines() {
        if let Some(name) = line.strip_prefix("pub mod ") {
            let name = name.trim_end_matches(';');
            assert!(
                layer_of(name).is_some(),
                "module '{name}' has no layer in LAYERS"
            );
        }
    }
}

#[test]
fn the_reader_finds_paths_but_not_comments_or_tests() {
    let text = "use crate::model::Model;\n// crate::harness in a comment\nfn f() { crate::backend::x(); }\n#[cfg(test)]\nmod tests { use crate::harness; }\n";
    let found = named_modules(&code_of(text));
    let want: BTreeSet<String> = ["model", "backend"].iter().map(|s| s.to_string()).collect();
    assert_eq!(found, want);
}
