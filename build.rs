//! Captures the commit zeroone is built from, so every record and report can name it without
//! running `git` at run time (`zeroone::build_info`).
//!
//! `ZEROONE_COMMIT` is `git rev-parse HEAD` of this crate's checkout, with `-dirty` appended
//! when tracked files differ from it (reports/ excluded: rewriting reports does not change the
//! code), or `unknown` outside git or without a `git` program. Set `ZEROONE_COMMIT` in the
//! environment to override it (release tarballs, packagers).

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
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
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
    // Rebuild when HEAD moves or the index changes (a commit, a checkout, a staged edit).
    if let Some(git_dir) = git(dir, &["rev-parse", "--absolute-git-dir"]) {
        let g = Path::new(&git_dir);
        println!("cargo:rerun-if-changed={}", g.join("HEAD").display());
        println!("cargo:rerun-if-changed={}", g.join("index").display());
        if let Some(r) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={}", g.join(r).display());
        }
    }
    // An edit to the sources changes what "dirty" means: re-run then too (cargo checks every
    // file under a listed folder).
    for path in ["src", "Cargo.toml", "Cargo.lock", "build.rs"] {
        println!("cargo:rerun-if-changed={}", dir.join(path).display());
    }
    let dirty = git(
        dir,
        &[
            "status",
            "--porcelain",
            "--untracked-files=no",
            "--",
            ":(top)",
            ":(top,exclude)reports",
        ],
    )
    .is_some_and(|s| !s.is_empty());
    if dirty {
        format!("{head}-dirty")
    } else {
        head
    }
}
