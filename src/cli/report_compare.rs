//! `zeroone report --compare A B`: the page of what differs between two record sets.

use std::path::Path;

use zeroone::harness::report::{compare_input, render_compare_html};
use zeroone::harness::write_atomically;

use super::run::cli_error;
use super::CliError;

/// Reads both record sets and writes `A-vs-B.html` into `dir`.
pub fn compare(a: &Path, b: &Path, dir: &Path) -> Result<(), CliError> {
    let (a_name, a_records) = compare_input(a).map_err(cli_error)?;
    let (b_name, b_records) = compare_input(b).map_err(cli_error)?;
    let page = render_compare_html((&a_name, &a_records), (&b_name, &b_records));
    let file = dir.join(format!("{a_name}-vs-{b_name}.html"));
    write_atomically(&file, page.as_bytes()).map_err(cli_error)?;
    super::print_paths(&[file])
}
