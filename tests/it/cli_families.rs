//! `--families` restricts the model itself, so the backend and the verifier see the same rules.

use std::process::Command;

fn zeroone(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn counting_rows_and_diag_gives_the_seeds_second_level() {
    // The seed's "second axis too" level on the bare width-9 board: 25,231 placements.
    let (code, out, err) = zeroone(&[
        "count",
        "models/hex-bare.hex",
        "--index",
        "4",
        "--backend",
        "enum",
        "--families",
        "row,diag",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"count\":25231"), "{out}");
    assert!(out.contains("\"verified\":true"), "{out}");
}

#[test]
fn an_unknown_family_is_bad_input() {
    let (code, out, err) = zeroone(&[
        "solve",
        "models/hex-bare.hex",
        "--backend",
        "enum",
        "--families",
        "row,dia",
    ]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("no family 'dia'"), "{err}");
}
