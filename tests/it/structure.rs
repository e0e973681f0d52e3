//! The shape of the sources inside each crate: no circle of files.
//!
//! Circles: this test reads every file of each layer crate (`crates/NAME/src`, test modules
//! and test-only files, comments and string literals left out), expands its `use` trees and
//! the `a::b::c` paths in its code, and follows each name to the file that defines it, through
//! the `use` lines (re-exports and globs included) that route it. A file depends on the files
//! defining the items it names. Not dependencies: a `mod` line, a re-export (`pub use`) the
//! file's own code does not use, a module's own name, and a name a file takes from a module
//! above it in its own folder chain (`super::X` in `read/xcc.rs` naming `read/mod.rs`): a
//! folder's `mod.rs` is its front, holding what its files share and handing out their work,
//! so those edges run both ways by design. The strongly connected components of the graph
//! (Tarjan) must all be single files; a circle is printed file by file, each step with the
//! names that make it. A macro's expansion is not read (`registry!` names its modules
//! literally, so its paths are).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use crate::layers::rust_files;

/// The folders under `crates/` holding the layers' sources.
const LAYER_CRATES: &[&str] = &["model", "backends", "puzzles", "harness"];

/// Circles still open, each as (crate folder, its files under `src/`, sorted): the list may
/// only shrink, and a circle that no longer occurs fails the test so that it is removed.
const KNOWN_CIRCLES: &[(&str, &[&str])] = &[];

/// A module path inside a crate (`["harness", "report"]`).
type ModPath = Vec<String>;

/// One token of Rust code: an identifier or keyword, `::`, or a single punctuation character.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Path,
    Punct(char),
}

/// The code of a file without its trailing test module.
fn without_tests(text: &str) -> &str {
    match text.find("#[cfg(test)]\nmod tests {") {
        Some(i) => &text[..i],
        None => text,
    }
}

/// The tokens of `code`, with comments, strings and character literals left out.
fn tokens(code: &str) -> Vec<Tok> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i = skip_block_comment(&chars, i);
        } else if c == '"' {
            i = skip_string(&chars, i + 1, 0);
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && raw_start(&chars, i) {
            let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
            i = skip_string(&chars, i + 2 + hashes, hashes);
        } else if c == 'b' && next == Some('"') {
            i = skip_string(&chars, i + 2, 0);
        } else if c == '\'' {
            i = skip_char_or_lifetime(&chars, i);
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Tok::Ident(chars[start..i].iter().collect()));
        } else if c == ':' && next == Some(':') {
            out.push(Tok::Path);
            i += 2;
        } else {
            if !c.is_whitespace() {
                out.push(Tok::Punct(c));
            }
            i += 1;
        }
    }
    out
}

fn raw_start(chars: &[char], i: usize) -> bool {
    let prev_ident = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
    let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
    !prev_ident && chars.get(i + 1 + hashes) == Some(&'"')
}

fn skip_block_comment(chars: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i + 1 < chars.len() {
        if chars[i] == '/' && chars[i + 1] == '*' {
            depth += 1;
            i += 2;
        } else if chars[i] == '*' && chars[i + 1] == '/' {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    chars.len()
}

/// The index after a string whose body starts at `i`, closed by `"` and `hashes` hashes.
fn skip_string(chars: &[char], mut i: usize, hashes: usize) -> usize {
    while i < chars.len() {
        if chars[i] == '\\' && hashes == 0 {
            i += 2;
        } else if chars[i] == '"' && chars[i + 1..].iter().take(hashes).all(|&h| h == '#') {
            return i + 1 + hashes;
        } else {
            i += 1;
        }
    }
    chars.len()
}

fn skip_char_or_lifetime(chars: &[char], i: usize) -> usize {
    if chars.get(i + 1) == Some(&'\\') {
        let close = chars[i + 2..].iter().position(|&c| c == '\'').unwrap_or(0);
        return i + 3 + close;
    }
    if chars.get(i + 2) == Some(&'\'') {
        return i + 3;
    }
    // A lifetime: skip its name.
    let mut j = i + 1;
    while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
        j += 1;
    }
    j
}

/// What one file says: the items it defines at its top level, the names its `use` lines bind
/// (to absolute paths, or `None` outside the crate), its glob imports, and the paths it names.
#[derive(Default, Debug)]
struct FileFacts {
    items: BTreeSet<String>,
    binds: BTreeMap<String, Option<ModPath>>,
    globs: Vec<ModPath>,
    /// Paths named for use (private `use` leaves and paths in the code), absolute.
    named: Vec<ModPath>,
    /// Every identifier of the code, for glob imports.
    idents: BTreeSet<String>,
}

/// The crate's modules, each with its file and what the file says.
struct CrateMap {
    files: BTreeMap<ModPath, String>,
    facts: BTreeMap<ModPath, FileFacts>,
}

/// The module path of a file under `src/` (`harness/report/mod.rs` -> `harness::report`).
fn module_of(rel: &str) -> ModPath {
    let mut parts: Vec<String> = rel.split('/').map(String::from).collect();
    let last = parts.pop().unwrap();
    if last != "mod.rs" && last != "lib.rs" {
        parts.push(last.trim_end_matches(".rs").to_string());
    }
    parts
}

const ITEM_KEYWORDS: &[&str] = &[
    "fn", "struct", "enum", "trait", "type", "const", "static", "union", "mod",
];

/// A `use` tree's leaves: (path as written, bound name or `*`).
fn use_leaves(
    toks: &[Tok],
    mut i: usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, String)>,
) -> usize {
    let mut path = prefix;
    loop {
        match toks.get(i) {
            Some(Tok::Ident(name)) => {
                path.push(name.clone());
                i += 1;
            }
            Some(Tok::Path) => i += 1,
            Some(Tok::Punct('*')) => {
                out.push((path.clone(), "*".into()));
                return i + 1;
            }
            Some(Tok::Punct('{')) => {
                i += 1;
                while toks.get(i) != Some(&Tok::Punct('}')) && i < toks.len() {
                    i = use_leaves(toks, i, path.clone(), out);
                    if toks.get(i) == Some(&Tok::Punct(',')) {
                        i += 1;
                    }
                }
                return i + 1;
            }
            _ => break,
        }
    }
    let n = path.len();
    if n >= 3 && path[n - 2] == "as" {
        let alias = path.pop().unwrap();
        path.pop();
        out.push((path, alias));
    } else if let Some(last) = path.last().cloned() {
        if last == "self" {
            path.pop();
            let name = path.last().cloned().unwrap_or_default();
            out.push((path, name));
        } else {
            out.push((path, last));
        }
    }
    i
}

/// Where a written path starts: its absolute form, or `None` outside the crate.
fn absolute(
    module: &ModPath,
    written: &[String],
    is_module: &dyn Fn(&ModPath) -> bool,
    binds: &BTreeMap<String, Option<ModPath>>,
) -> Option<ModPath> {
    let first = written.first()?;
    let mut base: ModPath = match first.as_str() {
        "crate" => Vec::new(),
        "self" => module.clone(),
        "super" => module[..module.len().checked_sub(1)?].to_vec(),
        _ => {
            let mut child = module.clone();
            child.push(first.clone());
            if is_module(&child) {
                child
            } else {
                let mut bound = binds.get(first)?.clone()?;
                bound.extend(written[1..].iter().cloned());
                return Some(bound);
            }
        }
    };
    let mut rest = &written[1..];
    while rest.first().is_some_and(|s| s == "super") {
        base.pop();
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// Reads one file's facts (its module is `module`).
fn facts_of(module: &ModPath, code: &str, is_module: &dyn Fn(&ModPath) -> bool) -> FileFacts {
    let toks = tokens(code);
    let mut facts = FileFacts::default();
    let mut leaves_private = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        match &toks[i] {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => depth = depth.saturating_sub(1),
            Tok::Ident(word) if word == "use" => {
                let public = i > 0
                    && (toks[i - 1] == Tok::Ident("pub".into()) || toks[i - 1] == Tok::Punct(')'));
                let mut leaves = Vec::new();
                i = use_leaves(&toks, i + 1, Vec::new(), &mut leaves);
                for leaf in leaves {
                    leaves_private.push((leaf, public));
                }
                continue;
            }
            Tok::Ident(word) if depth == 0 && ITEM_KEYWORDS.contains(&word.as_str()) => {
                if let Some(Tok::Ident(name)) = toks.get(i + 1) {
                    facts.items.insert(name.clone());
                }
            }
            Tok::Ident(word) if word == "macro_rules" => {
                if let Some(Tok::Ident(name)) = toks.get(i + 2) {
                    facts.items.insert(name.clone());
                }
            }
            Tok::Ident(word) => {
                facts.idents.insert(word.clone());
            }
            _ => {}
        }
        i += 1;
    }
    // Bindings first (a use may name a name bound by another), then what is named.
    let written: Vec<_> = leaves_private
        .iter()
        .map(|((path, name), public)| (path.clone(), name.clone(), *public))
        .collect();
    for _ in 0..2 {
        for (path, name, _) in &written {
            if name != "*" {
                let abs = absolute(module, path, is_module, &facts.binds);
                facts.binds.insert(name.clone(), abs);
            }
        }
    }
    for (path, name, public) in &written {
        let abs = absolute(module, path, is_module, &facts.binds);
        match (name.as_str(), abs) {
            ("*", Some(abs)) => facts.globs.push(abs),
            // A re-export only routes a name, unless the file's own code uses it too.
            (_, Some(abs)) if !public || facts.idents.contains(name) => facts.named.push(abs),
            _ => {}
        }
    }
    facts
        .named
        .extend(code_paths(module, &toks, is_module, &facts.binds));
    facts
}

/// The paths of `a::b::c` form in code (outside `use` lines), absolute where they start in the
/// crate.
fn code_paths(
    module: &ModPath,
    toks: &[Tok],
    is_module: &dyn Fn(&ModPath) -> bool,
    binds: &BTreeMap<String, Option<ModPath>>,
) -> Vec<ModPath> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if toks[i] == Tok::Ident("use".into()) {
            while i < toks.len() && toks[i] != Tok::Punct(';') {
                i += 1;
            }
            continue;
        }
        let starts = matches!(&toks[i], Tok::Ident(_))
            && toks.get(i + 1) == Some(&Tok::Path)
            && (i == 0 || toks[i - 1] != Tok::Path);
        if !starts {
            i += 1;
            continue;
        }
        let mut written = Vec::new();
        while let Some(Tok::Ident(name)) = toks.get(i) {
            written.push(name.clone());
            if toks.get(i + 1) != Some(&Tok::Path) {
                break;
            }
            i += 2;
        }
        if let Some(abs) = absolute(module, &written, is_module, binds) {
            out.push(abs);
        }
        i += 1;
    }
    out
}

/// Where a resolved name lives.
#[derive(Debug, PartialEq)]
enum Target {
    Module,
    Item(ModPath, String),
}

impl CrateMap {
    /// Every file of `files` (path under `src/` -> text), read.
    fn read(files: &BTreeMap<String, String>) -> CrateMap {
        let paths: BTreeMap<ModPath, String> = files
            .keys()
            .map(|rel| (module_of(rel), rel.clone()))
            .collect();
        let is_module = |m: &ModPath| paths.contains_key(m);
        let facts = files
            .iter()
            .map(|(rel, text)| {
                let module = module_of(rel);
                let facts = facts_of(&module, without_tests(text), &is_module);
                (module, facts)
            })
            .collect();
        CrateMap {
            files: paths,
            facts,
        }
    }

    /// The file that defines what `path` names, following `use` lines (at most `hops` deep).
    fn resolve(&self, path: &[String], hops: usize) -> Option<Target> {
        let mut module: ModPath = Vec::new();
        for (k, seg) in path.iter().enumerate() {
            let mut child = module.clone();
            child.push(seg.clone());
            if self.files.contains_key(&child) {
                module = child;
                continue;
            }
            let facts = self.facts.get(&module)?;
            if facts.items.contains(seg) {
                return Some(Target::Item(module, seg.clone()));
            }
            if hops == 0 {
                return None;
            }
            if let Some(bound) = facts.binds.get(seg) {
                let mut through = bound.clone()?;
                through.extend(path[k + 1..].iter().cloned());
                return self.resolve(&through, hops - 1);
            }
            return facts.globs.iter().find_map(|glob| {
                let mut through = glob.clone();
                through.extend(path[k..].iter().cloned());
                self.resolve(&through, hops - 1)
            });
        }
        Some(Target::Module)
    }

    /// Each file's dependencies: (from, to) -> the names that make the edge.
    fn edges(&self) -> BTreeMap<(ModPath, ModPath), BTreeSet<String>> {
        let mut out: BTreeMap<(ModPath, ModPath), BTreeSet<String>> = BTreeMap::new();
        for (module, facts) in &self.facts {
            let mut add = |path: &ModPath| {
                if let Some(Target::Item(to, name)) = self.resolve(path, 8) {
                    // A file may name what its ancestors hold (the folder's front, which
                    // holds what its files share); every other edge counts.
                    if !module.starts_with(&to) {
                        out.entry((module.clone(), to)).or_default().insert(name);
                    }
                }
            };
            facts.named.iter().for_each(&mut add);
            for glob in &facts.globs {
                for ident in &facts.idents {
                    let mut path = glob.clone();
                    path.push(ident.clone());
                    add(&path);
                }
            }
        }
        out
    }

    fn file(&self, module: &ModPath) -> &str {
        &self.files[module]
    }
}

/// The strongly connected components of more than one node (Tarjan's algorithm).
fn circles(
    nodes: &[ModPath],
    edges: &BTreeMap<(ModPath, ModPath), BTreeSet<String>>,
) -> Vec<Vec<ModPath>> {
    let index: BTreeMap<&ModPath, usize> = nodes.iter().enumerate().map(|(i, n)| (n, i)).collect();
    let mut next = vec![Vec::new(); nodes.len()];
    for (from, to) in edges.keys() {
        if let (Some(&a), Some(&b)) = (index.get(from), index.get(to)) {
            next[a].push(b);
        }
    }
    let mut t = Tarjan {
        next,
        order: vec![None; nodes.len()],
        low: vec![0; nodes.len()],
        on_stack: vec![false; nodes.len()],
        stack: Vec::new(),
        counter: 0,
        found: Vec::new(),
    };
    for v in 0..nodes.len() {
        if t.order[v].is_none() {
            t.visit(v);
        }
    }
    t.found
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| c.into_iter().map(|v| nodes[v].clone()).collect())
        .collect()
}

struct Tarjan {
    next: Vec<Vec<usize>>,
    order: Vec<Option<usize>>,
    low: Vec<usize>,
    on_stack: Vec<bool>,
    stack: Vec<usize>,
    counter: usize,
    found: Vec<Vec<usize>>,
}

impl Tarjan {
    fn visit(&mut self, v: usize) {
        self.order[v] = Some(self.counter);
        self.low[v] = self.counter;
        self.counter += 1;
        self.stack.push(v);
        self.on_stack[v] = true;
        for w in self.next[v].clone() {
            match self.order[w] {
                None => {
                    self.visit(w);
                    self.low[v] = self.low[v].min(self.low[w]);
                }
                Some(o) if self.on_stack[w] => self.low[v] = self.low[v].min(o),
                Some(_) => {}
            }
        }
        if Some(self.low[v]) == self.order[v] {
            let mut component = Vec::new();
            while let Some(w) = self.stack.pop() {
                self.on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            self.found.push(component);
        }
    }
}

/// One circle through `component`, from its first file back to it, each step with its names.
fn describe(
    map: &CrateMap,
    component: &[ModPath],
    edges: &BTreeMap<(ModPath, ModPath), BTreeSet<String>>,
) -> String {
    let inside: BTreeSet<&ModPath> = component.iter().collect();
    let start = &component[0];
    // Breadth-first from start to an edge back into start, inside the component.
    let mut came_from: BTreeMap<&ModPath, &ModPath> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    let mut last = None;
    while let Some(v) = queue.pop_front() {
        if edges.contains_key(&(v.clone(), start.clone())) {
            last = Some(v);
            break;
        }
        for (from, to) in edges.keys() {
            if from == v && inside.contains(to) && !came_from.contains_key(to) && to != start {
                came_from.insert(to, v);
                queue.push_back(to);
            }
        }
    }
    let mut path = vec![start];
    let mut v = last.expect("a component has a circle");
    let mut back = vec![v];
    while v != start {
        v = came_from[v];
        back.push(v);
    }
    back.pop();
    back.reverse();
    path.extend(back);
    path.push(start);
    let steps: Vec<String> = path
        .windows(2)
        .map(|w| {
            let names: Vec<_> = edges[&(w[0].clone(), w[1].clone())]
                .iter()
                .cloned()
                .collect();
            format!("{} -({})->", map.file(w[0]), names.join(", "))
        })
        .collect();
    let all: Vec<&str> = component.iter().map(|m| map.file(m)).collect();
    format!(
        "{} files ({}), e.g. {} {}",
        component.len(),
        all.join(" "),
        steps.join(" "),
        map.file(start)
    )
}

/// The sources of a layer crate: path under `src/` -> text.
fn crate_sources(name: &str) -> BTreeMap<String, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates")
        .join(name)
        .join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files
        .iter()
        .map(|f| {
            let rel = f
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, fs::read_to_string(f).unwrap())
        })
        .collect()
}

/// The sources without the files that hold only tests: the modules a `#[cfg(test)]` line
/// declares (`#[cfg(test)] mod fixtures;`) and everything under them.
fn without_test_files(files: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    const DECLARED: &str = "#[cfg(test)]\nmod ";
    let mut test_modules = Vec::new();
    for (rel, text) in files {
        for (i, _) in text.match_indices(DECLARED) {
            let rest = &text[i + DECLARED.len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if rest[name.len()..].starts_with(';') {
                let mut module = module_of(rel);
                module.push(name);
                test_modules.push(module);
            }
        }
    }
    files
        .iter()
        .filter(|(rel, _)| {
            let module = module_of(rel);
            !test_modules.iter().any(|t| module.starts_with(t))
        })
        .map(|(r, t)| (r.clone(), t.clone()))
        .collect()
}

/// The circles of one crate's files: each one's files (under `src/`, sorted) and a description.
fn circles_in(files: &BTreeMap<String, String>) -> Vec<(Vec<String>, String)> {
    let map = CrateMap::read(files);
    let edges = map.edges();
    let nodes: Vec<ModPath> = map.files.keys().cloned().collect();
    circles(&nodes, &edges)
        .iter()
        .map(|c| {
            let mut names: Vec<String> = c.iter().map(|m| map.file(m).to_string()).collect();
            names.sort();
            (names, describe(&map, c, &edges))
        })
        .collect()
}

#[test]
fn no_circle_of_files_in_any_crate() {
    let mut found = Vec::new();
    let mut edges_seen = 0;
    let mut known_seen = BTreeSet::new();
    for name in LAYER_CRATES {
        let files = without_test_files(&crate_sources(name));
        edges_seen += CrateMap::read(&files).edges().len();
        for (members, text) in circles_in(&files) {
            let known = KNOWN_CIRCLES
                .iter()
                .position(|(c, f)| c == name && f.iter().eq(members.iter()));
            match known {
                Some(i) => {
                    known_seen.insert(i);
                }
                None => found.push(format!("{name}: {text}")),
            }
        }
    }
    assert!(
        edges_seen > 500,
        "the reader finds the files' dependencies ({edges_seen})"
    );
    assert!(found.is_empty(), "circles of files:\n{}", found.join("\n"));
    let gone: Vec<_> = (0..KNOWN_CIRCLES.len())
        .filter(|i| !known_seen.contains(i))
        .map(|i| KNOWN_CIRCLES[i])
        .collect();
    assert!(
        gone.is_empty(),
        "opened, so remove from KNOWN_CIRCLES: {gone:?}"
    );
}

fn sources(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect()
}

#[test]
fn the_circle_reader_finds_a_circle_through_a_re_export_and_a_glob() {
    let files = sources(&[
        ("lib.rs", "pub mod a;\n"),
        (
            "a/mod.rs",
            "mod b;\nmod c;\npub use b::Thing;\npub struct Top;\nfn f() { c::help(); }\n",
        ),
        (
            "a/b.rs",
            "// use super::c::help; in a comment\npub struct Thing;\nconst S: &str = \"crate::a::c::help\";\n",
        ),
        ("a/c.rs", "use crate::a::Thing;\npub fn help() {}\n"),
    ]);
    // a -> c (help), c -> b (Thing, through a's re-export): no circle.
    assert!(circles_in(&files).is_empty());
    // Files naming their folder's front (`super::Top`) make no circle with it.
    let mut with_parent = files.clone();
    with_parent.insert(
        "a/c.rs".into(),
        "use super::{Top as T};\npub fn help() {}\n".into(),
    );
    assert!(circles_in(&with_parent).is_empty());
    // b names c's `help` under another name, c names b's `Thing` through a glob of a.
    let mut with_circle = files.clone();
    let b = "use super::c::help as h;\npub struct Thing;\nfn g() { h(); }\n";
    with_circle.insert("a/b.rs".into(), b.into());
    let c = "use crate::a::*;\npub fn help() -> Thing {}\n";
    with_circle.insert("a/c.rs".into(), c.into());
    let found = circles_in(&with_circle);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, ["a/b.rs", "a/c.rs"]);
    assert!(found[0].1.contains("a/b.rs -(help)-> a/c.rs"), "{found:?}");
    assert!(found[0].1.contains("a/c.rs -(Thing)-> a/b.rs"), "{found:?}");
}

/// The longest function allowed, in lines from its `fn` line to its closing brace.
const MAX_FN_LINES: usize = 120;
/// The longest file allowed, in lines.
const MAX_FILE_LINES: usize = 1000;

/// The folders (from the checkout's root) whose Rust files the size check reads.
const SIZE_FOLDERS: &[&str] = &[
    "crates",
    "src",
    "tests",
    "benches",
    "examples",
    "python/src",
];

/// Files and functions the size check passes over, each with why: (file from the checkout's
/// root, function name or `""` for the whole file's length).
const SIZE_EXEMPT: &[(&str, &str)] = &[];

/// The functions of a rustfmt-formatted source: (name, first line, lines), each from its `fn`
/// line to the first later line that closes a brace at the `fn` line's indent. A declaration
/// without a body (`fn f();` in a trait) is no function.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(name) = fn_name(line) else { continue };
        if line.contains('{') && line.trim_end().ends_with('}') {
            out.push((name, i + 1, 1)); // `fn f() {}` on one line
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let close = format!("{}}}", &line[..indent]);
        let body = lines[i..]
            .iter()
            .position(|l| l.trim_end().ends_with('{') || l.trim_end().ends_with(';'));
        if body.is_some_and(|b| lines[i + b].trim_end().ends_with(';')) {
            continue;
        }
        if let Some(end) = lines[i..].iter().position(|l| l.trim_end() == close) {
            out.push((name, i + 1, end + 1));
        }
    }
    out
}

/// The name of the function a line starts (`pub(crate) async fn name<...>(`), if it does.
fn fn_name(line: &str) -> Option<String> {
    let mut words = line.trim_start();
    for prefix in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "async ",
        "unsafe ",
        "extern \"C\" ",
    ] {
        words = words.strip_prefix(prefix).unwrap_or(words);
    }
    let rest = words.strip_prefix("fn ")?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Every Rust file the size check reads: path from the checkout's root -> text.
fn checkout_sources() -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for folder in SIZE_FOLDERS {
        rust_files(&root.join(folder), &mut files);
    }
    files
        .iter()
        .filter(|f| !f.components().any(|c| c.as_os_str() == "target"))
        .map(|f| {
            let rel = f
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, fs::read_to_string(f).unwrap())
        })
        .collect()
}

/// What is too long in `files`: `file: N lines` and `file:line fn name: N lines`.
fn too_long(files: &BTreeMap<String, String>) -> Vec<String> {
    let exempt = |file: &str, name: &str| SIZE_EXEMPT.contains(&(file, name));
    let mut out = Vec::new();
    for (file, text) in files {
        let n = text.lines().count();
        if n > MAX_FILE_LINES && !exempt(file, "") {
            out.push(format!("{file}: {n} lines"));
        }
        for (name, at, len) in functions(text) {
            if len > MAX_FN_LINES && !exempt(file, &name) {
                out.push(format!("{file}:{at} fn {name}: {len} lines"));
            }
        }
    }
    out
}

#[test]
fn no_function_or_file_too_long() {
    let files = checkout_sources();
    let fns: usize = files.values().map(|t| functions(t).len()).sum();
    assert!(fns > 3000, "the reader finds the functions ({fns})");
    let found = too_long(&files);
    assert!(found.is_empty(), "too long:\n{}", found.join("\n"));
    for (file, name) in SIZE_EXEMPT {
        let text = files
            .get(*file)
            .unwrap_or_else(|| panic!("{file} is gone: remove its exemption"));
        let long = match *name {
            "" => text.lines().count() > MAX_FILE_LINES,
            _ => functions(text)
                .iter()
                .any(|(n, _, len)| n == name && *len > MAX_FN_LINES),
        };
        assert!(long, "{file} {name} is short now: remove its exemption");
    }
}

#[test]
fn the_size_reader_measures_functions_to_their_closing_brace() {
    let text = "trait T {\n    fn declared(&self);\n}\n\npub(crate) fn outer<A>(\n    a: A,\n) -> u8 {\n    let f = |x| {\n        x\n    };\n    fn inner() {}\n    0\n}\n";
    assert_eq!(
        functions(text),
        [("outer".into(), 5, 9), ("inner".into(), 11, 1)]
    );
    let long = format!("fn big() {{\n{}}}\n", "    x;\n".repeat(MAX_FN_LINES - 2));
    let files = sources(&[("a.rs", long.as_str())]);
    assert!(too_long(&files).is_empty());
    let longer = format!("fn big() {{\n{}}}\n", "    x;\n".repeat(MAX_FN_LINES - 1));
    let files = sources(&[("a.rs", longer.as_str())]);
    assert_eq!(
        too_long(&files),
        [format!("a.rs:1 fn big: {} lines", MAX_FN_LINES + 1)]
    );
}
