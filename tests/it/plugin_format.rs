//! A 0-1 program format is one reader file: a toy format defined here, in the test, reads
//! through the same pieces every reader under `crates/model/src/read/` uses (the [`Lines`]
//! source, [`words`] with their columns, the located [`ReadError`]) and has the signature of
//! theirs (`fn read<L: Lines>(lines, name) -> Result<Model, L::Error>`), so its models count
//! like the same program read as OPB.
//!
//! What it cannot do from outside: be registered. `read::Format` is a closed enum, so a new
//! format is, today, the file plus five edits in `read/mod.rs` (the variant, `Format::ALL`,
//! `name`, `extensions`, the arm of `read`); see CONTRIBUTING.md, "Adding a format".
//!
//! The toy, `pick`: each line lists labels (lower-case letters, digits, `_`), exactly one of
//! which is 1; `#` starts a comment line.

use std::collections::HashMap;

use zeroone::backend::{count_verified, make_backend, BackendOptions, Status};
use zeroone::model::{Coord, Model, ModelBuilder, PuzzleKind, Sense};
use zeroone::read::{read_str, words, Format, Lines, ReadError, TextLines};

/// Reads a `pick` file (see the module docs) as a model named `name`. Cost: one pass, one hash
/// look-up per label.
fn read<L: Lines>(lines: &mut L, name: &str) -> Result<Model, L::Error> {
    let mut b = ModelBuilder::new(name, PuzzleKind::Generic);
    let family = b.family("pick");
    let mut labels: HashMap<String, usize> = HashMap::new();
    while let Some((number, line)) = lines.next_line()? {
        let row = pick_row(line, number, &mut b, &mut labels);
        if let Some(row) = row.map_err(|e| lines.error(e))? {
            b.row(family, row, Sense::ExactlyOne);
        }
    }
    let model = b.build();
    model.map_err(|e| lines.error(ReadError::at(0, 0, "a consistent model", e.to_string())))
}

/// The variables of one line's row (declaring new labels), `None` for a blank or comment line.
fn pick_row(
    line: &str,
    number: usize,
    b: &mut ModelBuilder,
    labels: &mut HashMap<String, usize>,
) -> Result<Option<Vec<usize>>, ReadError> {
    let words = words(line);
    if words.first().is_none_or(|(_, w)| w.starts_with('#')) {
        return Ok(None);
    }
    let mut row = Vec::new();
    for (column, word) in words {
        if !word
            .bytes()
            .all(|c| matches!(c, b'a'..=b'z' | b'0'..=b'9' | b'_'))
        {
            let expected = "a label of lower-case letters, digits and '_'";
            return Err(ReadError::at(number, column, expected, word));
        }
        let next = labels.len();
        let var = *labels.entry(word.to_string()).or_insert(next);
        if var == next {
            b.variable(word, Coord::Free);
        }
        if !row.contains(&var) {
            row.push(var);
        }
    }
    Ok(Some(row))
}

fn count(backend: &str, model: &Model) -> u128 {
    let mut backend = make_backend(backend, &BackendOptions::default()).unwrap();
    let out = count_verified(backend.as_mut(), model, None).unwrap();
    assert_eq!(out.status, Status::Solved, "{:?}", out.reason);
    out.count.to_u128().unwrap()
}

#[test]
fn a_toy_format_reads_through_the_shared_pieces_and_counts_like_its_opb_twin() {
    let text = "# one of a, b, c; one of c, d\na b c\nc d\n\nd e a\n";
    let model = read(&mut TextLines::new(text), "toy").unwrap();
    assert_eq!(model.num_variables(), 5);
    let opb = "+1 a +1 b +1 c = 1 ;\n+1 c +1 d = 1 ;\n+1 d +1 e +1 a = 1 ;\n";
    let twin = read_str(Format::Opb, opb, "twin").unwrap();
    // {c, e}, {b, d}: brute force on both, and xcc on the toy's.
    assert_eq!(count("brute", &model), 2);
    assert_eq!(count("brute", &twin), 2);
    assert_eq!(count("xcc", &model), 2);
}

#[test]
fn a_toy_format_locates_its_errors_as_the_built_in_readers_do() {
    let err = read(&mut TextLines::new("a b\n# fine\nc  D7 e\n"), "toy").unwrap_err();
    assert_eq!((err.line, err.column), (3, 4), "{err:?}");
    assert!(
        err.expected.contains("label") && err.found == "D7",
        "{err:?}"
    );
}
