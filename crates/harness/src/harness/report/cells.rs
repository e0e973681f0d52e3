//! The texts of the report tables' cells: times, ratios, backend labels.

use crate::output::{markdown_code, markdown_text};

/// A time with its unit (`123 us`, `12.1 ms`, `2.31 s`; see [`crate::render::duration_text`]),
/// `-` when absent.
pub fn seconds_text(s: Option<f64>) -> String {
    s.map_or("-".into(), crate::render::duration_text)
}

/// A time for a table: `~` when redacted, `-` when absent.
pub(super) fn time_cell(s: Option<f64>, redact_times: bool) -> String {
    match s {
        Some(_) if redact_times => "~".to_string(),
        _ => seconds_text(s),
    }
}

/// The label of a backend in the tables: `` `label` `` and its registry name when it differs.
pub(super) fn label_cell(label: &str, name: &str) -> String {
    if label == name {
        markdown_code(label)
    } else {
        format!("{} ({})", markdown_code(label), markdown_text(name))
    }
}

/// A ratio with three significant digits (`0.0123`, `1.24`, `412`), in e-notation below 0.001.
pub(super) fn ratio_text(r: f64) -> String {
    if r == 0.0 {
        "0".into()
    } else if r < 1e-3 {
        format!("{r:.2e}")
    } else if r < 1.0 {
        let decimals = (-r.log10().floor()) as usize + 2;
        format!("{r:.decimals$}")
    } else if r < 100.0 {
        format!("{r:.3}")
    } else {
        format!("{r:.0}")
    }
}
