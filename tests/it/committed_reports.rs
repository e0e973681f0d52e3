//! The committed reports' deterministic parts, held as snapshots: for every experiment with a
//! record file in `reports/`, its Markdown report rendered from those records with every
//! timing and the provenance redacted (statuses, counts, columns, figures list), and the
//! header of its CSV. A change to the report code or to the committed records shows up here
//! as a reviewed snapshot change.
//!
//! Left out: experiments whose records a long computation is still appending to
//! (`hex-width-25*`), whose snapshot would change with every shard.

use std::path::Path;

use zeroone::harness::experiment::ExperimentKind;
use zeroone::harness::record::read_records;
use zeroone::harness::report::{experiment_records, render_csv, render_markdown, Provenance};
use zeroone::harness::table_run::render_table_markdown;
use zeroone::harness::Experiment;

const IN_PROGRESS: [&str; 2] = ["hex-width-25", "hex-width-25-middle-first"];

/// Experiments whose reports are not committed: the README's main job writes
/// `reports/quick.*` (ignored by git), so a newcomer who runs it before the tests must not get
/// a snapshot of their own run.
const NOT_COMMITTED: [&str; 1] = ["quick"];

fn redacted_report(experiment: &Experiment, reports: &Path) -> String {
    let path = reports.join(format!("{}.jsonl", experiment.name));
    let (records, _) = read_records(&path, false).unwrap();
    let provenance = Provenance {
        machine: "~".into(),
        commit: "~".into(),
        command: "~".into(),
    };
    match experiment.kind {
        ExperimentKind::Table => render_table_markdown(experiment, &records, &provenance, true),
        _ => {
            let (records, expected) = experiment_records(experiment, records);
            let csv = render_csv(&records);
            let header = csv.lines().next().unwrap_or_default().to_string();
            format!(
                "{}\n---- CSV header ----\n{header}\n",
                render_markdown(experiment, &records, expected, &provenance, true)
            )
        }
    }
}

#[test]
fn each_committed_report_keeps_its_statuses_counts_and_columns() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let reports = root.join("reports");
    let mut names: Vec<String> = std::fs::read_dir(root.join("experiments"))
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            if p.extension()? != "toml" {
                return None;
            }
            Some(p.file_stem()?.to_string_lossy().into_owned())
        })
        .filter(|n| !IN_PROGRESS.contains(&n.as_str()) && !NOT_COMMITTED.contains(&n.as_str()))
        .filter(|n| reports.join(format!("{n}.jsonl")).is_file())
        .collect();
    names.sort();
    assert!(
        names.len() >= 8,
        "expected the committed reports, found {names:?}"
    );
    for name in names {
        let experiment =
            Experiment::load(&root.join("experiments").join(format!("{name}.toml"))).unwrap();
        let text = redacted_report(&experiment, &reports);
        // No timing survives the redaction: every seconds figure is `~`.
        let timing = text
            .as_bytes()
            .windows(3)
            .any(|w| w[0].is_ascii_digit() && w[1] == b'e' && (w[2] == b'-' || w[2] == b'+'));
        assert!(!timing, "{name}: a timing was not redacted");
        insta::assert_snapshot!(format!("report_{name}"), text);
    }
}
