//! Reports from records: `NAME.md` (per-backend table, extra figures, disagreements, errors,
//! and a header with machine, commit and command), `NAME.csv` (one row per run) and the plots.
//!
//! Every file is written through a temporary file and a rename. Everything is computed from the
//! record file alone, so `zeroone merge` and `zeroone run --resume` produce the same reports as
//! an uninterrupted run.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::backend::worker::LimitBy;
use crate::backend::Status;
use crate::harness::experiment::{Experiment, Output};
use crate::harness::figures::{self};
use crate::harness::record::{
    memory_limits_on_record, read_records, repetitions_on_record, time_limit_on_record,
    time_limits_on_record, Certificate, Record,
};
use crate::harness::store::records_path;
use crate::harness::{plot, write_atomically, HarnessError};
use crate::output::{markdown_code, markdown_text};

mod benchexec;
mod cells;
mod compare;
mod csv;
mod header;
mod html;
mod markdown;
mod plots;
mod summary;

pub use benchexec::{benchexec_status, render_benchexec, write_benchexec};
pub use cells::seconds_text;
pub use compare::{
    compare_input, compare_rows, pair_summaries, render_compare_html, CompareRows, PairSummary,
};
pub use csv::{render_csv, CSV_COLUMNS};
pub use header::Provenance;
pub use html::{render_html, render_page, HTML_RUN_COLUMNS};
pub use markdown::render_markdown;
pub use plots::{draw_figure, figure_list, Figure, FigureKind};
use summary::present_labels;
pub use summary::{disagreements, experiment_records, in_job_order, summarise, BackendSummary};

pub use crate::harness::record::{median, quantile};
pub use crate::harness::stats::par2;

/// Reads the experiment's record file from `dir` and writes the reports its `outputs` name,
/// from the records alone: no puzzle source is read, no backend made, no program started.
/// Returns the files written.
pub fn write_reports(
    experiment: &Experiment,
    dir: &Path,
    command: &str,
) -> Result<Vec<PathBuf>, HarnessError> {
    let path = records_path(dir, experiment, None);
    let (records, _) = read_records(&path, false)?;
    let (records, expected) = experiment_records(experiment, records);
    let provenance = Provenance::of(&records, command);
    let mut written = Vec::new();
    for output in &experiment.outputs {
        let (file, contents) = match output {
            Output::Markdown => (
                dir.join(format!("{}.md", experiment.name)),
                render_markdown(experiment, &records, expected, &provenance, false),
            ),
            Output::Csv => (
                dir.join(format!("{}.csv", experiment.name)),
                render_csv(&records),
            ),
            Output::TimePlot => {
                for figure in figure_list(experiment, &records) {
                    let file = dir.join(&figure.file);
                    let svg = draw_figure(experiment, &records, &figure).map_err(|message| {
                        HarnessError::Plot {
                            path: file.clone(),
                            message,
                        }
                    })?;
                    written.extend(crate::harness::raster::write_figure(&file, &svg)?);
                }
                continue;
            }
            Output::SizePlot => continue,
        };
        write_atomically(&file, contents.as_bytes())?;
        written.push(file);
        if *output == Output::Markdown {
            // The page to explore the runs goes wherever the Markdown report goes.
            let page = dir.join(format!("{}.html", experiment.name));
            let html = render_html(experiment, &records, expected, &provenance);
            write_atomically(&page, html.as_bytes())?;
            written.push(page);
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::experiment::Task;

    /// A counting run; `dp` (like the real one) returns no witness, so it is never `verified`.
    fn count(instance: &str, backend: &str, value: &str, exhaustive: bool) -> Record {
        Record {
            status: if exhaustive {
                Status::Solved
            } else {
                Status::Limit
            },
            verified: backend != "dp",
            seconds: 0.1,
            count: Some(value.into()),
            exhaustive: Some(exhaustive),
            variables: 4,
            rows: 3,
            ..Record::new(instance, backend, backend, Task::Count, 0)
        }
    }

    /// A solving run under a time limit of 10 s, as its record states it.
    fn run(backend: &str, instance: &str, status: Status, seconds: f64) -> Record {
        Record {
            status,
            seconds,
            options: crate::harness::record::RecordOptions {
                time_limit: Some(10.0),
                ..Default::default()
            },
            ..Record::new(instance, backend, backend, Task::Solve, 0)
        }
    }

    #[test]
    fn only_answers_enter_ratios_and_par2_charges_twice_the_limit() {
        let exp = Experiment::from_text(Path::new("e.toml"), &exp_text()).unwrap();
        let records = [
            run("a", "x", Status::Solved, 1.0),
            run("a", "y", Status::Solved, 2.0),
            run("a", "z", Status::Infeasible, 3.0),
            run("b", "x", Status::Solved, 2.0),
            // Killed at the limit: not a time for the ratio, twice the limit for PAR-2.
            run("b", "y", Status::Timeout, 11.0),
            run("b", "z", Status::Memout, 0.5),
            run("b", "w", Status::Unknown, 0.1),
        ];
        let s = summarise(&exp, &records);
        assert_eq!(s[0].par2, Some(2.0));
        assert_eq!((s[1].timeout, s[1].memout, s[1].unknown), (1, 1, 1));
        // b answered only x: 2.0 against a's 1.0 on the same instance.
        assert_eq!(s[1].ratio, Some((2.0, 1)));
        assert_eq!(s[1].median_seconds, Some(2.0));
        // (2 + 20 + 20) / 3; the unknown run is left out.
        assert_eq!(s[1].par2, Some(14.0));
        // The limit is the records': the file's time limit, edited after the run, changes
        // nothing; records made without a limit have no PAR-2 whatever the file says.
        let edited = Experiment::from_text(
            Path::new("e.toml"),
            &exp_text().replace("time_limit = 10", "time_limit = 99"),
        )
        .unwrap();
        assert_eq!(summarise(&edited, &records), s);
        let unlimited: Vec<Record> = records
            .iter()
            .cloned()
            .map(|mut r| {
                r.options.time_limit = None;
                r
            })
            .collect();
        assert!(summarise(&exp, &unlimited).iter().all(|b| b.par2.is_none()));
    }

    fn exp_text() -> String {
        "time_limit = 10\nbaseline = \"a\"\n[[instances]]\ngenerate = \"hex\"\nsizes = [1]\n[[backends]]\nname = \"brute\"\nlabel = \"a\"\n[[backends]]\nname = \"brute\"\nlabel = \"b\"\n".into()
    }

    #[test]
    fn exhaustive_counts_that_differ_are_a_disagreement_and_cut_counts_are_not() {
        let records = [
            count("a", "enum", "25231", true),
            count("a", "dp", "25230", true),
            count("b", "enum", "7", true),
            count("b", "dp", "7", true),
            // Cut by its limit: not a disagreement.
            count("c", "enum", "10", false),
            count("c", "dp", "12", true),
        ];
        assert_eq!(
            disagreements(&records),
            vec!["a: counts differ: 25230 (dp) vs 25231 (enum)".to_string()]
        );
    }

    #[test]
    fn disagreements_are_flagged_above_the_first_table() {
        let exp = Experiment::from_text(
            Path::new("e.toml"),
            "[[instances]]\ngenerate = \"hex\"\nsizes = [1]\n[[backends]]\nname = \"brute\"\nlabel = \"a\"\n[[backends]]\nname = \"brute\"\nlabel = \"b\"\n",
        )
        .unwrap();
        let optimum = |backend: &str, value: i128| Record {
            objective: Some(value),
            ..run(backend, "x", Status::Optimal, 1.0)
        };
        let provenance = Provenance::of(&[], "test");
        let agree = [optimum("a", 5), optimum("b", 5)];
        let md = render_markdown(&exp, &agree, 2, &provenance, true);
        assert!(!md.contains("**Disagreements"), "{md}");
        let differ = [optimum("a", 5), optimum("b", 6)];
        let md = render_markdown(&exp, &differ, 2, &provenance, true);
        let warning = md.find("> **Disagreements: 1.**").expect("a warning");
        assert!(warning < md.find("## Statuses").unwrap(), "{md}");
        assert!(
            md.contains("x: proved optima differ: 5 (a) vs 6 (b)"),
            "{md}"
        );
    }
}
