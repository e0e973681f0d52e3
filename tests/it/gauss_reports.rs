//! Snapshot tests of the Gaussian-elimination reports: the bare hex geometries of widths 1-9
//! and a coloured width-9 board (the seed's 36 equations for 61 unknowns).

use zeroone::backend::gauss::{analyse, least_norm_grid, Verdict};
use zeroone::backend::{make_backend, solve_verified, BackendOptions, Status};
use zeroone::model::Model;
use zeroone::puzzle::HexBoard;

/// A coloured width-9 board with exactly one solution (pieces at row/position (0,4), (1,1),
/// (2,5), (3,0), (4,2), (5,5), (6,6), (7,0), (8,3)); one letter per region, rows top to bottom.
const COLOURED_9: [&str; 9] = [
    "DBAAA",
    "DBBAAC",
    "DBBDACC",
    "DDDDAACG",
    "DDEEIFFGG",
    "DDIIIFGG",
    "HDHIGGG",
    "HHHIGG",
    "HHIII",
];

fn coloured_9() -> Model {
    let regions = COLOURED_9
        .iter()
        .map(|row| row.bytes().map(|b| (b - b'A') as usize).collect())
        .collect();
    HexBoard::coloured(regions)
        .expect("a well-formed board")
        .to_model("hex-9-coloured")
}

fn markdown(model: &Model) -> String {
    let report = analyse(model);
    let mut s = report.to_markdown();
    if let Some(grid) = least_norm_grid(model, &report) {
        s.push_str(&grid);
    }
    s
}

#[test]
fn bare_hex_reports_for_widths_one_to_nine() {
    for width in [1, 3, 5, 7, 9] {
        let model = HexBoard::geometry(width)
            .unwrap()
            .to_model(format!("hex-{width}"));
        insta::assert_snapshot!(format!("bare_hex_{width}"), markdown(&model));
    }
}

#[test]
fn bare_width_nine_numbers_are_the_seeds() {
    let model = HexBoard::geometry(9).unwrap().to_model("hex-9");
    let r = analyse(&model);
    assert_eq!(
        (r.equations, r.unknowns, r.rank, r.nullity),
        (27, 61, 24, 37)
    );
    let json = serde_json::to_value(&r).unwrap();
    for key in [
        "equations",
        "unknowns",
        "rank",
        "nullity",
        "consistent",
        "redundant",
        "fixed",
    ] {
        assert!(json.get(key).is_some(), "JSON lacks '{key}'");
    }
    assert_eq!(json["redundant"]["diag"].as_array().unwrap().len(), 1);
    assert_eq!(json["redundant"]["anti"].as_array().unwrap().len(), 2);
    assert_eq!(json["redundant"]["row"].as_array().unwrap().len(), 0);
}

#[test]
fn coloured_width_nine_board_has_the_seeds_36_equations() {
    let model = coloured_9();
    let r = analyse(&model);
    assert_eq!((r.equations, r.unknowns), (36, 61));
    assert!(r.consistent);
    assert_eq!(r.rank + r.nullity, 61);
    assert!(matches!(r.verdict, Verdict::Unknown(_)));
    insta::assert_snapshot!("coloured_hex_9", markdown(&model));
    insta::assert_json_snapshot!("coloured_hex_9_json", r);
}

#[test]
fn the_coloured_board_is_a_real_puzzle_and_gauss_stays_honest() {
    // The backend reports unknown on it, never a wrong answer.
    let model = coloured_9();
    let mut gauss = make_backend("gauss", &BackendOptions::default()).unwrap();
    let out = solve_verified(gauss.as_mut(), &model).unwrap();
    assert_eq!(out.status, Status::Unknown);
    assert!(out.reason.unwrap().contains("free variable"));
}
