//! The generic model's reader: JSON and TOML give the same model, and every error is located
//! at the offending element (line and column), in both.

use super::*;
use crate::model::ModelError;

fn err_json(text: &str) -> GenericError {
    match parse_json(text) {
        Ok(_) => panic!("expected an error, read a model"),
        Err(e) => e,
    }
}

fn err_toml(text: &str) -> GenericError {
    match parse_toml(text) {
        Ok(_) => panic!("expected an error, read a model"),
        Err(e) => e,
    }
}

const JSON: &str = r#"{
  "name": "small",
  "variables": ["a", "b", {"label": "c", "row": 0, "col": 2}, "d"],
  "families": [
    {"name": "first", "sense": "exactly-one", "rows": [["a", "b", "c"]]},
    {"name": "second", "sense": "exactly-one", "rows": [["c", "d"]]},
    {"name": "apart", "sense": "at-most-one", "rows": [["a", "d"]]}
  ],
  "givens": ["d"]
}
"#;

const TOML: &str = r#"name = "small"
variables = ["a", "b", { label = "c", row = 0, col = 2 }, "d"]
givens = ["d"]

[[families]]
name = "first"
sense = "exactly-one"
rows = [["a", "b", "c"]]

[[families]]
name = "second"
sense = "exactly-one"
rows = [["c", "d"]]

[[families]]
name = "apart"
sense = "at-most-one"
rows = [["a", "d"]]
"#;

#[test]
fn json_and_toml_give_the_same_model() {
    let j = parse_json(JSON).unwrap();
    let t = parse_toml(TOML).unwrap();
    assert_eq!(j, t);
    assert_eq!(j.num_variables(), 4);
    assert_eq!(j.constraints().len(), 3);
    assert_eq!(j.givens(), &[3]);
    assert_eq!(
        j.variables()[2].coord,
        crate::model::Coord::Cell { row: 0, col: 2 }
    );
    assert_eq!(j.constraints()[2].sense, crate::model::Sense::AtMostOne);
}

#[test]
fn json_row_naming_an_unknown_variable_is_located() {
    let text = JSON.replace(r#"[["c", "d"]]"#, r#"[["c", "zz"]]"#);
    let e = err_json(&text);
    assert_eq!(e.kind, GenericErrorKind::UnknownVariable("zz".into()));
    // Line 6 is the "second" family; "zz" opens at column 66.
    let line6 = text.lines().nth(5).unwrap();
    assert_eq!((e.line, e.column), (6, line6.find("\"zz\"").unwrap() + 1));
}

#[test]
fn toml_row_naming_an_unknown_variable_is_located() {
    let text = TOML.replace(r#"rows = [["c", "d"]]"#, r#"rows = [["c", "zz"]]"#);
    let e = err_toml(&text);
    assert_eq!(e.kind, GenericErrorKind::UnknownVariable("zz".into()));
    let (line, src) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("zz"))
        .unwrap();
    assert_eq!(
        (e.line, e.column),
        (line + 1, src.find("\"zz\"").unwrap() + 1)
    );
}

#[test]
fn generic_model_consistency_errors_are_located() {
    // Duplicate label: the second "a".
    let text = JSON.replace(r#""d"],"#, r#""a"],"#);
    let e = err_json(&text);
    assert!(
        matches!(&e.kind, GenericErrorKind::Model(m) if matches!(**m, ModelError::DuplicateLabel(_))),
        "{e}"
    );
    assert_eq!(
        (e.line, e.column),
        (3, text.lines().nth(2).unwrap().rfind("\"a\"").unwrap() + 1)
    );
    // Empty row.
    let text = JSON.replace(r#"[["a", "d"]]"#, "[[]]");
    let e = err_json(&text);
    assert!(
        matches!(&e.kind, GenericErrorKind::Model(m) if matches!(**m, ModelError::EmptyRow { .. })),
        "{e}"
    );
    assert_eq!(e.line, 7);
    assert_eq!(
        e.column,
        text.lines().nth(6).unwrap().find("[]").unwrap() + 1
    );
    // Clashing givens: c and d share the row of "second"; point at the second given.
    let text = JSON.replace(r#""givens": ["d"]"#, r#""givens": ["c", "d"]"#);
    let e = err_json(&text);
    assert!(
        matches!(&e.kind, GenericErrorKind::Model(m) if matches!(**m, ModelError::ClashingGivens { .. })),
        "{e}"
    );
    assert_eq!((e.line, e.column), (9, 19));
    // Same in TOML.
    let text = TOML.replace(r#"givens = ["d"]"#, r#"givens = ["c", "d"]"#);
    let e = err_toml(&text);
    assert_eq!((e.line, e.column), (3, 16), "{e}");
    // Duplicate in a row.
    let text = TOML.replace(r#"rows = [["a", "d"]]"#, r#"rows = [["a", "a"]]"#);
    let e = err_toml(&text);
    assert!(
        matches!(&e.kind, GenericErrorKind::Model(m) if matches!(**m, ModelError::DuplicateInRow { .. })),
        "{e}"
    );
    assert_eq!((e.line, e.column), (18, 15), "{e}");
}

#[test]
fn generic_syntax_errors_are_located() {
    let e = err_json("{\n  \"variables\": [\"a\",,]\n}");
    assert_eq!(e.line, 2);
    assert!(matches!(e.kind, GenericErrorKind::Syntax(_)));
    assert!(!e.to_string().contains(" at line "), "{e}");
    let e = err_json(&JSON.replace("exactly-one", "exactly-two"));
    assert_eq!(e.line, 5);
    let e = err_toml("variables = [\"a\"]\nfamilies = [ { name = \"f\", sense = \"exactly-one\", rows = [[\"a\"]], colour = 1 } ]\n");
    assert_eq!(e.line, 2, "{e}");
    assert!(matches!(e.kind, GenericErrorKind::Syntax(_)));
}

/// A generic model with every general sense: two of three, at least three by weight, a cage
/// summing to 4 with per-row right-hand sides.
const GENERAL_JSON: &str = r#"{
  "variables": ["a", "b", "c", "d"],
  "families": [
    {"name": "pair", "sense": "exactly", "rhs": 2, "rows": [["a", "b", "c"]]},
    {"name": "heavy", "sense": "at-least", "rhs": 3, "rows": [["a", "d"]], "weights": [[1, 2]]},
    {"name": "cage", "sense": "at-most", "rhs": [4, 1], "rows": [["b", "c", "d"], ["a", "b"]], "weights": [[1, 3, 2], [1, 1]]}
  ]
}
"#;

const GENERAL_TOML: &str = r#"variables = ["a", "b", "c", "d"]

[[families]]
name = "pair"
sense = "exactly"
rhs = 2
rows = [["a", "b", "c"]]

[[families]]
name = "heavy"
sense = "at-least"
rhs = 3
rows = [["a", "d"]]
weights = [[1, 2]]

[[families]]
name = "cage"
sense = "at-most"
rhs = [4, 1]
rows = [["b", "c", "d"], ["a", "b"]]
weights = [[1, 3, 2], [1, 1]]
"#;

#[test]
fn general_rows_read_the_same_from_json_and_toml() {
    use crate::model::Sense;
    let j = parse_json(GENERAL_JSON).unwrap();
    let t = parse_toml(GENERAL_TOML).unwrap();
    assert_eq!(j, t);
    let rows = j.constraints();
    assert_eq!(rows[0].sense, Sense::Exactly(2));
    assert_eq!(
        (rows[1].sense, rows[1].weights.clone()),
        (Sense::AtLeast(3), Some(vec![1, 2]))
    );
    assert_eq!(
        (rows[2].sense, rows[2].weights.clone()),
        (Sense::AtMost(4), Some(vec![1, 3, 2]))
    );
    // An "at-most 1" row on unit weights is the exact-cover at-most-one row.
    assert_eq!(
        (rows[3].sense, rows[3].weights.clone()),
        (Sense::AtMostOne, None)
    );
}

#[test]
fn general_rows_round_trip_through_the_json_export() {
    let model = parse_json(GENERAL_JSON).unwrap();
    let text = crate::export::json::to_json(&model).unwrap();
    let back = parse_json(&text).unwrap();
    assert_eq!(back.constraints(), model.constraints());
}

/// The (line, column) of the `nth` occurrence of `needle` on the line holding `marker`.
fn spot(text: &str, marker: &str, needle: &str, nth: usize) -> (usize, usize) {
    let (line, src) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains(marker))
        .unwrap();
    let column = src.match_indices(needle).nth(nth - 1).unwrap().0 + 1;
    (line + 1, column)
}

fn bad_value(e: &GenericError) -> &str {
    match &e.kind {
        GenericErrorKind::BadValue { expected, .. } => expected,
        other => panic!("expected a bad value, got {other:?}"),
    }
}

#[test]
fn bad_general_rows_are_located_errors() {
    // (replace this, with that, then the marker line and needle the error must point at)
    let cases: [(&str, &str, &str, &str, &str); 9] = [
        // One sense per row (a family mixing relations): each is checked where it stands.
        (
            r#""sense": "at-most", "rhs": [4, 1]"#,
            r#""sense": ["at-most", "at-leest"], "rhs": [4, 1]"#,
            "cage",
            "\"at-leest\"",
            "exactly-one, at-most-one",
        ),
        (
            r#""sense": "at-most", "rhs": [4, 1]"#,
            r#""sense": ["at-most", "exactly", "at-least"], "rhs": [4, 1]"#,
            "cage",
            "\"at-least\"",
            "one sense per row (2)",
        ),
        (
            r#"[[1, 3, 2], [1, 1]]"#,
            r#"[[1, 0, 2], [1, 1]]"#,
            "cage",
            "0",
            "weight",
        ),
        (
            r#""rhs": 2,"#,
            r#""rhs": -2,"#,
            "pair",
            "-2",
            "right-hand side",
        ),
        (r#"[[1, 2]]"#, r#"[[1, 0]]"#, "heavy", "0", "weight"),
        (
            r#""exactly", "rhs""#,
            r#""exactlyy", "rhs""#,
            "pair",
            "\"exactlyy\"",
            "exactly-one, at-most-one",
        ),
        (
            r#"[[1, 3, 2], [1, 1]]"#,
            r#"[[1, 3], [1, 1]]"#,
            "cage",
            "3]",
            "one weight per variable",
        ),
        (
            r#""rhs": [4, 1]"#,
            r#""rhs": [4]"#,
            "cage",
            "4]",
            "one right-hand side per row",
        ),
        (
            r#""at-least", "rhs": 3"#,
            r#""at-most-one", "rhs": 3"#,
            "heavy",
            "\"at-most-one\"",
            "right-hand side 1",
        ),
    ];
    for (from, to, marker, needle, expected) in cases {
        let text = GENERAL_JSON.replace(from, to);
        assert_ne!(text, GENERAL_JSON, "{from}");
        let e = err_json(&text);
        assert!(bad_value(&e).contains(expected), "{to}: {e}");
        assert_eq!(
            (e.line, e.column),
            spot(&text, marker, needle, 1),
            "{to}: {e}"
        );
    }
}

#[test]
fn bad_general_rows_are_located_in_toml_too() {
    let text = GENERAL_TOML.replace("weights = [[1, 2]]", "weights = [[1, -5]]");
    let e = err_toml(&text);
    assert!(bad_value(&e).contains("weight"), "{e}");
    assert_eq!((e.line, e.column), spot(&text, "[[1, -5]]", "-5", 1));
    let text = GENERAL_TOML.replace("rhs = 2\n", "rhs = 9007199254740993\n");
    let e = err_toml(&text);
    assert!(bad_value(&e).contains("right-hand side"), "{e}");
}

#[test]
fn givens_overfilling_a_general_row_are_located() {
    // "pair" allows two of a, b, c: the third given overfills it. (The at-most-one row
    // ["a", "b"] is moved to ["a", "d"] so that a and b do not clash there first.)
    let text = GENERAL_JSON
        .replace(r#"["a", "b"]], "weights""#, r#"["a", "d"]], "weights""#)
        .replace("\n  ]\n}", "\n  ],\n  \"givens\": [\"a\", \"c\", \"b\"]\n}");
    let e = err_json(&text);
    assert!(
        bad_value(&e).contains("givens that fit row 0 of family 'pair'"),
        "{e}"
    );
    assert_eq!((e.line, e.column), spot(&text, "givens", "\"b\"", 1));
    // Two givens in an exact-cover row are still the clash they always were.
    let text = GENERAL_JSON.replace("\n  ]\n}", "\n  ],\n  \"givens\": [\"a\", \"b\"]\n}");
    let e = err_json(&text);
    assert!(
        matches!(&e.kind, GenericErrorKind::Model(m) if matches!(**m, ModelError::ClashingGivens { .. })),
        "{e}"
    );
}
