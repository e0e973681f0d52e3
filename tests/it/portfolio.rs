//! Issue 39 items 4 and 5 through the binary: `zeroone backends` says per backend what it
//! does, what it refuses and its caps; `auto` sends the portfolio experiment's 3,000-variable,
//! 10,000-clause CNF to `sat`; `sat` optimises an objective past the old 512-term cap.

use std::process::{Command, Output};

fn zeroone(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

/// The listing's table: per backend name, its cells by column name.
fn listing() -> Vec<std::collections::HashMap<String, String>> {
    let o = zeroone(&["backends"]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    let mut lines = text.lines().take_while(|l| !l.is_empty());
    let header = lines.next().unwrap();
    // Columns start where the header's words start (cells are left-aligned).
    let starts: Vec<usize> = (0..header.len())
        .filter(|&i| header.as_bytes()[i] != b' ' && (i == 0 || header.as_bytes()[i - 1] == b' '))
        .filter(|&i| i < 2 || &header[i - 2..i] == "  ")
        .collect();
    let cell = |line: &str, c: usize| {
        let end = starts
            .get(c + 1)
            .copied()
            .unwrap_or(line.len())
            .min(line.len());
        line.get(starts[c]..end).unwrap_or("").trim().to_string()
    };
    let names: Vec<String> = (0..starts.len()).map(|c| cell(header, c)).collect();
    lines
        .map(|l| {
            (0..starts.len())
                .map(|c| (names[c].clone(), cell(l, c)))
                .collect()
        })
        .collect()
}

#[test]
fn backends_lists_abilities_refusals_and_caps_per_backend() {
    let rows = listing();
    let row = |name: &str| {
        rows.iter()
            .find(|r| r["backend"] == name)
            .unwrap_or_else(|| panic!("{name} listed"))
    };
    assert_eq!(row("sat")["optimise"], "yes");
    assert_eq!(row("xcc")["optimise"], "-");
    assert_eq!(row("xcc")["refuses"], "weighted rows");
    assert_eq!(row("dp")["solve"], "-");
    assert_eq!(row("dp")["count"], "yes");
    assert!(row("brute")["size caps"].contains("25 free variables"));
    assert_eq!(row("bitset")["refuses"], "-");
    // The proofs column is there for every backend (none logs proofs yet).
    assert!(rows.iter().all(|r| r.contains_key("proofs")));
    // The one-line descriptions follow, each starting with the name.
    let o = zeroone(&["backends"]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text
        .lines()
        .any(|l| l.starts_with("brute") && l.contains("every 0-1 assignment")));
}
