//! Tests of the tables: closed forms, counts against known sequences, orbits both ways.

use super::{factorial, orbit_stats, pow2, Method, TableOptions};
use crate::puzzle::kinds::hex::table::{hex_levels, hex_table, hex_widths_table};
use crate::puzzle::kinds::queens::table::queens_levels;
use crate::puzzle::kinds::sudoku::table::sudoku_levels;
use crate::puzzle::symmetry::Group;
use crate::puzzle::table::{group_digits, Format};
use crate::puzzle::{HexBoard, QueensBoard, Sudoku};
use num_bigint::BigUint;

#[test]
fn width_nine_matches_the_seed_in_every_level() {
    for method in [Method::Dp, Method::Enum] {
        let options = TableOptions {
            method,
            ..TableOptions::default()
        };
        let l = hex_levels(9, &options).unwrap();
        assert_eq!(l.every_cell.to_string(), "2305843009213693952");
        assert_eq!(l.choose_n.to_string(), "17341763505");
        assert_eq!(l.one_axis, BigUint::from(25_401_600u32));
        assert_eq!(l.two_axes, BigUint::from(25_231u32));
        assert_eq!(l.three_axes, BigUint::from(244u32));
        assert_eq!(l.orbits, Some(BigUint::from(29u32)));
    }
}

#[test]
fn orbits_agree_with_burnside_and_fixed_points_are_sensible() {
    let board = HexBoard::geometry(11).unwrap();
    let m = board.to_model("w11");
    let stats = orbit_stats(&m, &["row", "diag", "anti"], &Group::hex(11), |r, k| {
        board.diag(r, k)
    })
    .unwrap();
    // The identity fixes every placement; Burnside's mean is a whole number equal to the
    // canonical-form count.
    assert_eq!(stats.fixed[0], stats.placements);
    assert_eq!(
        stats.burnside(),
        Some(BigUint::from(stats.canonical)),
        "{stats:?}"
    );
    assert!(stats.canonical * 12 >= stats.placements);
    let q = QueensBoard::bare(8).to_model("q8");
    let stats = orbit_stats(&q, &["row", "column", "touch"], &Group::square(8), |_, c| c).unwrap();
    assert_eq!(stats.placements, 5242);
    assert_eq!(stats.burnside(), Some(BigUint::from(stats.canonical)));
}

#[test]
fn burnside_by_orbit_models_agrees_with_canonical_forms() {
    for width in [5usize, 9, 13] {
        let forced = TableOptions {
            orbit_limit: 0,
            ..TableOptions::default()
        };
        let by_burnside = hex_levels(width, &forced).unwrap().orbits;
        let by_forms = hex_levels(width, &TableOptions::default()).unwrap().orbits;
        assert!(by_burnside.is_some());
        assert_eq!(by_burnside, by_forms, "width {width}");
    }
}

#[test]
fn queens_levels_match_closed_forms_and_a002464() {
    let a002464 = [1u32, 0, 0, 2, 14, 90, 646, 5242, 47622, 479306];
    for n in 1..=10 {
        let l = queens_levels(n, &TableOptions::default()).unwrap();
        assert_eq!(l.no_touching, BigUint::from(a002464[n - 1]), "n = {n}");
        assert_eq!(l.permutations, factorial(n as u64));
    }
    let l = queens_levels(8, &TableOptions::default()).unwrap();
    assert_eq!(l.choose_n.to_string(), "4426165368");
    assert_eq!(l.one_per_row, BigUint::from(16_777_216u32));
}

#[test]
fn sudoku_levels_of_a_small_grid() {
    let line = "1...3..2.3..2..4";
    let cells = line
        .chars()
        .map(|c| crate::puzzle::kinds::sudoku::digit_of(c, 4))
        .collect();
    let grid = Sudoku::from_cells(2, cells).unwrap();
    let l = sudoku_levels(&grid, 1000).unwrap();
    assert_eq!(l.every_variable, pow2(64));
    assert_eq!(l.one_digit_per_cell, BigUint::from(4u32).pow(16));
    assert!(l.after_propagation <= l.after_givens);
    assert!(l.after_givens < l.one_digit_per_cell);
    assert_eq!(l.solutions, BigUint::from(1u32));
    assert!(l.after_propagation >= l.solutions);
}

#[test]
fn empty_cells_say_why_and_huge_counts_show_their_closed_form() {
    let no_orbits = TableOptions {
        orbit_limit: 0,
        burnside: false,
        ..TableOptions::default()
    };
    let wide = hex_levels(15, &no_orbits).unwrap();
    let t = hex_widths_table(&[hex_levels(1, &TableOptions::default()).unwrap(), wide]);
    let md = t.render(Format::Markdown);
    // 2^169 has 51 digits: the closed form stands for it; shorter counts show both.
    assert!(
        md.contains("| 15 | 169 | 2^169 | C(169,15) = 1,056,592,112,914,276,797,456 |"),
        "{md}"
    );
    assert!(md.contains("| 1 | 1 | 2^1 = 2 |"), "{md}");
    assert!(
        md.contains("\"three axes up to symmetry\" is empty at width 15: not computed"),
        "{md}"
    );
    let csv = t.render(Format::Csv);
    let header = csv.lines().next().unwrap();
    assert!(
        header.starts_with("width,cells,every cell 0/1,log10 every cell 0/1,"),
        "{header}"
    );
    assert!(header.ends_with(",notes"), "{header}");
    let row = csv.lines().nth(2).unwrap();
    assert!(row.contains(&pow2(169).to_string()), "{row}");
    assert!(row.contains(",50.8741,"), "{row}");
    assert!(
        row.contains("three axes up to symmetry: not computed"),
        "{row}"
    );
    let json: serde_json::Value = serde_json::from_str(&t.render(Format::Json)).unwrap();
    assert_eq!(json["rows"][1]["width"], 15);
    assert!(json["rows"][1]["three axes up to symmetry"].is_null());
}

#[test]
fn rendering_groups_digits_only_in_markdown() {
    let l = hex_levels(9, &TableOptions::default()).unwrap();
    let t = hex_table(&l);
    let md = t.render(Format::Markdown);
    assert!(md.contains("2^61 = 2,305,843,009,213,693,952"));
    assert!(md.contains("| 25,401,600 |"));
    let csv = t.render(Format::Csv);
    assert!(csv.contains(",2305843009213693952,"));
    assert!(!csv.contains("2,305"));
    let json: serde_json::Value = serde_json::from_str(&t.render(Format::Json)).unwrap();
    // Stable headers; numbers where JSON holds them exactly, decimal strings above 2^53.
    assert_eq!(json["rows"][4]["count"], 244);
    assert_eq!(json["rows"][0]["count"], "2305843009213693952");
    assert_eq!(json["rows"][4]["log10 count"], 2.3874);
    assert_eq!(group_digits(&BigUint::from(1000u32)), "1,000");
    assert_eq!(group_digits(&BigUint::from(999u32)), "999");
}
