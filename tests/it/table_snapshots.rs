//! Snapshots of the search-space tables: hex widths 1-11 and Queens sizes 1-8. Reviewed by hand
//! against the seed (width 9: 2^61, C(61,9), 25,401,600, 25,231, 244, 29) and OEIS A002464
//! (1, 0, 0, 2, 14, 90, 646, 5242).

use zeroone::space::table::{self, Format, TableOptions};

#[test]
fn hex_widths_1_to_11() {
    let options = TableOptions::default();
    let levels: Vec<_> = (1..=11)
        .step_by(2)
        .map(|w| table::hex_levels(w, &options).unwrap())
        .collect();
    insta::assert_snapshot!(table::hex_widths_table(&levels).render(Format::Markdown));
}

#[test]
fn queens_sizes_1_to_8() {
    let options = TableOptions::default();
    let levels: Vec<_> = (1..=8)
        .map(|n| table::queens_levels(n, &options).unwrap())
        .collect();
    insta::assert_snapshot!(table::queens_sizes_table(&levels).render(Format::Markdown));
}

#[test]
fn hex_width_9_as_csv() {
    let levels = table::hex_levels(9, &TableOptions::default()).unwrap();
    insta::assert_snapshot!(table::hex_table(&levels).render(Format::Csv));
}
