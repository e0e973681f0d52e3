//! Captures the commit zeroone is built from, so every record and report can name it without
//! running `git` at run time (`zeroone::build_info`).
//!
//! `ZEROONE_COMMIT` is `git rev-parse HEAD` of the workspace's checkout, with `-dirty` appended
//! when the files the binary is built from (`src/`, `crates/`, `Cargo.toml`, `Cargo.lock`, all
//! relative to the workspace root, two folders above this crate) differ from it, or `unknown` outside git or without a `git` program. Set `ZEROONE_COMMIT`
//! in the environment to override it (release tarballs, packagers).
//!
//! Re-run when, and only when, the stamp could change: `HEAD`, the branch ref it names (loose
//! or in `packed-refs`, found with `git rev-parse --git-path` so worktrees work) and those
//! source files. Not `.git/index`: every `git status` rewrites it, and watching it rebuilt the
//! whole crate after a fresh clone's first git command.

use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn main() {
    println!("cargo:rerun-if-env-changed=ZEROONE_COMMIT");
    // The workspace root: this crate is crates/harness.
    let dir = &Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let commit = match std::env::var("ZEROONE_COMMIT") {
        Ok(c) if !c.trim().is_empty() => c.trim().to_string(),
        _ => describe(dir),
    };
    println!("cargo:rustc-env=ZEROONE_COMMIT={commit}");
}

fn describe(dir: &Path) -> String {
    let Some(head) = git(dir, &["rev-parse", "HEAD"]) else {
        return "unknown".into();
    };
    // Re-run when HEAD moves (a commit, a checkout, a reset): HEAD itself and its ref.
    let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(r) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        watched.push(r);
    }
    for name in watched {
        let Some(path) = git(
            dir,
            &["rev-parse", "--path-format=absolute", "--git-path", &name],
        ) else {
            continue;
        };
        let path = Path::new(&path);
        // A missing file would make cargo re-run the script on every build; a packed ref
        // becomes a loose file in its folder at the next commit, so watch the folder then.
        let watch = if path.exists() {
            Some(path)
        } else if name.starts_with("refs/") {
            path.parent().filter(|p| p.exists())
        } else {
            None
        };
        if let Some(watch) = watch {
            println!("cargo:rerun-if-changed={}", watch.display());
        }
    }
    // An edit to the sources changes what "dirty" means: re-run then too (cargo checks every
    // file under a listed folder).
    for path in ["src", "crates", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={}", dir.join(path).display());
    }
    let dirty = git(
        dir,
        &[
            "status",
            "--porcelain",
            "--untracked-files=no",
            "--",
            ":(top)src",
            ":(top)crates",
            ":(top)Cargo.toml",
            ":(top)Cargo.lock",
        ],
    )
    .is_some_and(|s| !s.is_empty());
    if dirty {
        format!("{head}-dirty")
    } else {
        head
    }
}
