//! A 0-1 program format is one reader file plus one line: a toy format defined here, in the
//! test, reads through the same pieces every reader under `crates/model/src/read/` uses (the
//! [`Lines`](zeroone::read::Lines) source, [`words`] with their columns, the located [`ReadError`]), has the
//! signature of theirs (`fn read(lines: &mut Source, name) -> Result<Model, Stopped>`) and is
//! described by a [`Format`] value as theirs are (`pub const FORMAT`). Registering it is one
//! line, as `formats!` in `read/mod.rs` is for the built-in ones: here the toy joins
//! [`FORMATS`] in a list of the test's own, and is found by its extension and read through the
//! one dispatcher, [`read_str`]. See CONTRIBUTING.md, "Adding a format".
//!
//! The toy, `pick`: each line lists labels (lower-case letters, digits, `_`), exactly one of
//! which is 1; `#` starts a comment line.

use std::collections::HashMap;

use zeroone::backend::{count_verified, make_backend, BackendOptions, Status};
use zeroone::model::{Coord, Model, ModelBuilder, PuzzleKind, Sense};
use zeroone::read::{opb, read_str, words, Format, ReadError, Source, Stopped, FORMATS};

/// The toy format, as a built-in reader file declares its own.
const PICK: Format = Format::new("pick", &["pick"], read);

/// Reads a `pick` file (see the module docs) as a model named `name`. Cost: one pass, one hash
/// look-up per label.
fn read(lines: &mut Source<'_>, name: &str) -> Result<Model, Stopped> {
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
fn a_toy_format_registered_in_one_line_reads_and_counts_like_its_opb_twin() {
    let formats = [FORMATS, &[PICK]].concat();
    let format = Format::by_extension_in(&formats, "pick").unwrap();
    assert_eq!((format, format.name()), (PICK, "pick"));
    assert_eq!(Format::by_extension_in(&formats, "opb"), Some(opb::FORMAT));
    let text = "# one of a, b, c; one of c, d\na b c\nc d\n\nd e a\n";
    let model = read_str(format, text, "toy").unwrap();
    assert_eq!(model.num_variables(), 5);
    let opb = "+1 a +1 b +1 c = 1 ;\n+1 c +1 d = 1 ;\n+1 d +1 e +1 a = 1 ;\n";
    let twin = read_str(opb::FORMAT, opb, "twin").unwrap();
    // {c, e}, {b, d}: brute force on both, and xcc on the toy's.
    assert_eq!(count("brute", &model), 2);
    assert_eq!(count("brute", &twin), 2);
    assert_eq!(count("xcc", &model), 2);
}

#[test]
fn a_toy_format_locates_its_errors_as_the_built_in_readers_do() {
    let err = read_str(PICK, "a b\n# fine\nc  D7 e\n", "toy").unwrap_err();
    assert_eq!((err.line, err.column), (3, 4), "{err:?}");
    assert!(
        err.expected.contains("label") && err.found == "D7",
        "{err:?}"
    );
}
