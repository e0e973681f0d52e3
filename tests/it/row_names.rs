//! Row names of LP and MPS files survive (issue 36, item 9): the model keeps the names its
//! file gave its rows (`cov3: x + y >= 1`), the LP, MPS and OPB exports write them back (OPB in
//! a `* row NAME` comment its reader reads), worker processes receive them, and the verifier's
//! and the backends' messages name the row by them. Rows without a name of their own store
//! nothing.

use std::process::Command;

use zeroone::model::verify::{Verifier, Violation};
use zeroone::model::{Model, Solution};
use zeroone::read::{lp, mps, opb, read_str};

/// Named rows among unnamed ones; `knap_0` is the name every export gives that row anyway.
const LP: &str = "\\ row names
Minimize
 obj: 3 x + 2 y + 4 z
Subject To
 cov3: x + y >= 1
 x + z >= 1
 pair_7: y + z <= 1
 knap_0: 2 x + 3 y + z <= 4
 c.1: x + y + z >= 1
Binary
 x y z
End
";

/// Each row's own name, in row order.
fn row_names(model: &Model) -> Vec<Option<String>> {
    (0..model.constraints().len())
        .map(|r| model.row_label(r).map(str::to_string))
        .collect()
}

fn lp_model() -> Model {
    read_str(lp::FORMAT, LP, "m").unwrap()
}

#[test]
fn an_lp_files_row_names_are_kept_and_unnamed_rows_store_none() {
    let model = lp_model();
    let names = row_names(&model);
    let expected = [Some("cov3"), None, Some("pair_7"), None, Some("c.1")];
    assert_eq!(
        names,
        expected.map(|n| n.map(str::to_string)),
        "knap_0 is the name the row gets anyway: not stored"
    );
    // The families follow the names as before: NAME_K goes to NAME, the rest to `row`.
    let families: Vec<&str> = (model.constraints().iter())
        .map(|c| model.families()[c.family].name.as_str())
        .collect();
    assert_eq!(families, ["row", "row", "pair", "knap", "row"]);
    let unnamed = read_str(
        lp::FORMAT,
        "Subject To\n x + y >= 1\nBinary\n x y\nEnd\n",
        "u",
    );
    assert!(!unnamed.unwrap().has_row_labels());
}

#[test]
fn lp_to_model_to_lp_keeps_the_row_names() {
    let model = lp_model();
    let lp = zeroone::export::lp::to_lp(&model);
    for line in [" cov3:", " row_1:", " pair_7:", " knap_0:", " c_1:"] {
        assert!(lp.contains(line), "{line} in\n{lp}");
    }
    let again = read_str(lp::FORMAT, &lp, "m").unwrap();
    // `c.1` is written `c_1` (names in exports are letters, digits and `_`); the unnamed
    // row's `row_1` is again the name it gets anyway, so not stored.
    let mut expected = row_names(&model);
    expected[4] = Some("c_1".into());
    assert_eq!(row_names(&again), expected);
    // A second round trip writes the same row names (variable names grow a prefix each time,
    // `x0_x` read back is exported `x0_x0_x`, and `c_1` now starts a family `c`).
    let names = |text: &str| -> Vec<String> {
        (text.lines())
            .skip_while(|l| *l != "Subject To")
            .filter_map(|l| Some(l.strip_prefix(' ')?.split_once(':')?.0.to_string()))
            .collect()
    };
    assert_eq!(names(&lp), ["cov3", "row_1", "pair_7", "knap_0", "c_1"]);
    assert_eq!(names(&zeroone::export::lp::to_lp(&again)), names(&lp));
}

#[test]
fn mps_and_opb_exports_carry_the_names_back() {
    let model = lp_model();
    let mps = zeroone::export::mps::to_mps(&model);
    assert!(
        mps.contains(" G cov3\n") && mps.contains(" L pair_7\n"),
        "{mps}"
    );
    let from_mps = read_str(mps::FORMAT, &mps, "m").unwrap();
    let opb = zeroone::export::opb::to_opb(&model);
    assert!(opb.contains("* row cov3\n+1 x1 +1 x2 >= 1 ;"), "{opb}");
    let from_opb = read_str(opb::FORMAT, &opb, "m").unwrap();
    for (format, back) in [("mps", &from_mps), ("opb", &from_opb)] {
        let names = row_names(back);
        assert_eq!(names[0].as_deref(), Some("cov3"), "{format}: {names:?}");
        assert_eq!(names[2].as_deref(), Some("pair_7"), "{format}: {names:?}");
    }
    // The unnamed LP row is `row_1` in MPS, the name it gets anyway: nothing stored.
    assert_eq!(from_mps.row_label(1), None);
    assert_eq!(from_opb.row_label(1), None);
}

#[test]
fn the_json_model_keeps_the_names_and_refuses_a_bad_list_where_it_stands() {
    use zeroone::read::generic::parse_json;
    let model = lp_model();
    let json = zeroone::export::json::to_json(&model).unwrap();
    assert!(json.contains("\"names\""), "{json}");
    let back = parse_json(&json).unwrap();
    // JSON lists rows family by family, so compare each row's place and name.
    let placed = |m: &Model| {
        let mut rows: Vec<(String, usize, Option<String>)> = (0..m.constraints().len())
            .map(|r| {
                let c = &m.constraints()[r];
                let family = m.families()[c.family].name.clone();
                (family, c.index, m.row_label(r).map(str::to_string))
            })
            .collect();
        rows.sort();
        rows
    };
    assert_eq!(placed(&back), placed(&model));
    // A family whose rows have no names of their own writes none.
    let plain = read_str(
        lp::FORMAT,
        "Subject To\n x + y >= 1\nBinary\n x y\nEnd\n",
        "u",
    )
    .unwrap();
    let plain_json = zeroone::export::json::to_json(&plain).unwrap();
    assert!(!plain_json.contains("\"names\""), "{plain_json}");
    let text = r#"{"variables": ["a", "b"], "families": [
  {"name": "f", "sense": "at-least", "rhs": 1, "rows": [["a", "b"], ["a"]],
   "names": ["one"]}]}"#;
    let e = parse_json(text).unwrap_err().to_string();
    assert!(
        e.starts_with("3:") && e.contains("one name per row (2)"),
        "{e}"
    );
    let e = parse_json(&text.replace(r#"["one"]"#, r#"["one", "t\u0007"]"#))
        .unwrap_err()
        .to_string();
    assert!(e.contains("row name"), "{e}");
    let named = parse_json(&text.replace(r#"["one"]"#, r#"[null, "two"]"#)).unwrap();
    assert_eq!(row_names(&named), [None, Some("two".to_string())]);
}

#[test]
fn two_names_alike_once_sanitized_stay_distinct_in_the_export() {
    let text = "Subject To\n a.b: x + y >= 1\n a_b: x + z >= 1\n row_2: y + z >= 1\n x + y + z >= 2\nBinary\n x y z\nEnd\n";
    let model = read_str(lp::FORMAT, text, "m").unwrap();
    let names = zeroone::export::Names::of(&model).rows;
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "{names:?}");
    let lp = zeroone::export::lp::to_lp(&model);
    assert!(read_str(lp::FORMAT, &lp, "m").is_ok(), "{lp}");
}

#[test]
fn a_row_name_with_a_control_character_is_refused_where_it_stands_or_left_out() {
    let mps = "NAME m\nROWS\n N obj\n G c\u{1}3\nCOLUMNS\n x c\u{1}3 1\nRHS\n rhs c\u{1}3 1\nBOUNDS\n BV bnd x\nENDATA\n";
    let e = read_str(mps::FORMAT, mps, "m").unwrap_err().to_string();
    assert!(
        e.starts_with("4:4:") && e.contains("a row name without control characters"),
        "{e}"
    );
    // An OPB comment is free text: a name there that the model cannot keep is left out.
    let opb = "* row c\u{1}3\n+1 x1 +1 x2 >= 1 ;\n";
    let model = read_str(opb::FORMAT, opb, "m").unwrap();
    assert_eq!(model.row_label(0), None);
}

#[test]
fn the_verifier_names_the_broken_row_by_its_own_name() {
    let model = lp_model();
    // Only z: cov3 (x + y >= 1) is the first row broken.
    let z = model.variable_by_label("z").unwrap();
    let err = Verifier::new(&model)
        .check(&Solution::new(vec![z]))
        .unwrap_err();
    assert!(
        matches!(&err, Violation::Row { label: Some(l), index: 0, .. } if l == "cov3"),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "row 'cov3' (row 0 of family 'row') sums to 0, but must be >= 1"
    );
    // An unnamed row is named as before.
    let x = model.variable_by_label("x").unwrap();
    let y = model.variable_by_label("y").unwrap();
    let err = Verifier::new(&model)
        .check(&Solution::new(vec![y]))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "row 1 of family 'row' sums to 0, but must be >= 1"
    );
    assert!(Verifier::new(&model).accepts(&Solution::new(vec![x])));
}

#[test]
fn names_survive_serialization_restriction_and_givens_as_rows() {
    let model = lp_model();
    // Worker processes receive models as JSON.
    let json = serde_json::to_string(&model).unwrap();
    let back: Model = serde_json::from_str(&json).unwrap();
    assert_eq!(back, model);
    assert_eq!(row_names(&back), row_names(&model));
    // Families restricted: the rows move, their names with them.
    let pairs = model.restricted_to(&["pair", "row"]);
    let kept: Vec<Option<String>> = row_names(&pairs);
    assert_eq!(
        kept,
        [Some("cov3"), None, Some("c.1"), Some("pair_7")].map(|n| n.map(str::to_string))
    );
    let x = model.variable_by_label("x").unwrap();
    let given = model
        .with_givens("g", vec![x])
        .unwrap()
        .with_givens_as_rows();
    assert_eq!(given.row_label(0), Some("cov3"));
    assert_eq!(given.row_label(given.constraints().len() - 1), None);
    // A model differing only in a row's name is another model.
    let renamed = read_str(lp::FORMAT, &LP.replace("cov3", "cov4"), "m").unwrap();
    assert_ne!(renamed, model);
}

#[test]
fn the_command_line_names_the_row_a_hint_breaks_and_exports_the_names() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("m.lp"), LP).unwrap();
    std::fs::write(dir.path().join("h.txt"), "ones: z\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(["solve", "m.lp", "--backend", "bitset", "--hint", "h.txt"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("row 'cov3' (row 0 of family 'row')"), "{err}");
    let out = Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(["export", "m.lp", "--format", "mps"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let mps = String::from_utf8_lossy(&out.stdout);
    assert!(mps.contains(" G cov3\n"), "{mps}");
    // A backend refusing a row names it too.
    let out = Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(["count", "m.lp", "--backend", "dp"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("unsupported") && text.contains("row 'cov3' (row 0 of family 'row') is >= 1"),
        "{text}"
    );
}
