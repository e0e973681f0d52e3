//! What this binary is: zeroone's version and the commit it was built from, captured at build
//! time by `build.rs` (no `git` runs when zeroone runs). The commit ends in `-dirty` when the
//! build had uncommitted changes to tracked files, and is `unknown` outside a git checkout.

/// zeroone's version (`Cargo.toml`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The commit the binary was built from (`-dirty` when tracked files had changes; `unknown`
/// when built outside git).
pub const COMMIT: &str = env!("ZEROONE_COMMIT");

/// `VERSION (COMMIT)`, what `zeroone --version` prints after the program name.
pub const VERSION_AND_COMMIT: &str =
    concat!(env!("CARGO_PKG_VERSION"), " (", env!("ZEROONE_COMMIT"), ")");

/// `zeroone VERSION (COMMIT)`, for report headers.
pub fn describe() -> String {
    format!("zeroone {VERSION} ({COMMIT})")
}
