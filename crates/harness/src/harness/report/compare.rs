//! `zeroone report --compare A B`: a page of what differs between two record sets (two
//! experiments, or two record files): the (instance, backend) pairs whose status, count or
//! objective differ, and the largest time ratios. Static HTML (no script), deterministic.

use std::collections::BTreeMap;

use super::html::escape;
use super::*;

/// A record set to compare: an experiment file (`.toml`: its records in its `reports_dir`,
/// only the experiment's own) or a record file (`.jsonl`), with the name it goes by (the
/// file's stem). Cost: reading the records.
pub fn compare_input(path: &Path) -> Result<(String, Vec<Record>), HarnessError> {
    let name = path.file_stem().map_or_else(
        || path.display().to_string(),
        |s| s.to_string_lossy().into(),
    );
    let readable = |file: &Path| {
        if file.is_file() {
            Ok(())
        } else {
            Err(HarnessError::NoRecords {
                what: format!("{} does not exist", file.display()),
                hint: "compare two experiment files (.toml) or record files (.jsonl)".into(),
            })
        }
    };
    if path.extension().is_some_and(|e| e == "toml") {
        let experiment = Experiment::load(path)?;
        let records_file = records_path(&experiment.reports_dir, &experiment, None);
        readable(&records_file)?;
        let (records, _) = read_records(&records_file, false)?;
        Ok((name, experiment_records(&experiment, records).0))
    } else {
        readable(path)?;
        Ok((name, read_records(path, false)?.0))
    }
}

/// What one record set says about one (instance, backend label) pair: repetition 0's status,
/// count and objective, and the median time of its answered repetitions.
#[derive(Debug, Clone, PartialEq)]
pub struct PairSummary {
    /// Repetition 0's status (the first repetition on record when 0 is missing).
    pub status: Status,
    /// Its count, when a counting run.
    pub count: Option<String>,
    /// Its verified objective value, when the model has one.
    pub objective: Option<i128>,
    /// Median seconds over the answered repetitions.
    pub seconds: Option<f64>,
}

/// One record set's pairs, keyed by (instance, backend label). Cost: one pass and a sort.
pub fn pair_summaries(records: &[Record]) -> BTreeMap<(String, String), PairSummary> {
    let mut groups: BTreeMap<(String, String), Vec<&Record>> = BTreeMap::new();
    for r in records {
        groups
            .entry((r.instance.clone(), r.backend.clone()))
            .or_default()
            .push(r);
    }
    groups
        .into_iter()
        .map(|(key, mut runs)| {
            runs.sort_by_key(|r| r.repetition);
            let first = runs[0];
            let times: Vec<f64> = runs
                .iter()
                .filter(|r| r.status.is_answer())
                .map(|r| r.seconds)
                .collect();
            let summary = PairSummary {
                status: first.status,
                count: first.count.clone(),
                objective: first.objective,
                seconds: median(&times),
            };
            (key, summary)
        })
        .collect()
}

/// How two summaries of one pair differ: status, count or objective (empty when they agree
/// on all three).
fn difference(a: &PairSummary, b: &PairSummary) -> Vec<String> {
    let mut out = Vec::new();
    if a.status != b.status {
        out.push(format!("status {} / {}", a.status.name(), b.status.name()));
    }
    if a.count != b.count {
        let c = |c: &Option<String>| c.clone().unwrap_or_else(|| "-".into());
        out.push(format!("count {} / {}", c(&a.count), c(&b.count)));
    }
    if a.objective != b.objective {
        let o = |o: Option<i128>| o.map_or("-".into(), |o| o.to_string());
        out.push(format!("objective {} / {}", o(a.objective), o(b.objective)));
    }
    out
}

/// The rows of the compare page, from the two sets' pair summaries: every differing pair
/// (instance, label, what differs), the pairs only one side has, and the pairs both answered
/// with their time ratio B / A, largest change (either way) first, at most `top` of them.
pub fn compare_rows(
    a: &BTreeMap<(String, String), PairSummary>,
    b: &BTreeMap<(String, String), PairSummary>,
    top: usize,
) -> CompareRows {
    let mut rows = CompareRows::default();
    for (key, sa) in a {
        match b.get(key) {
            None => rows.only_a.push(key.clone()),
            Some(sb) => {
                let d = difference(sa, sb);
                if !d.is_empty() {
                    rows.differ.push((key.clone(), d.join("; ")));
                }
                if let (Some(ta), Some(tb)) = (sa.seconds, sb.seconds) {
                    if ta > 0.0 && tb > 0.0 {
                        rows.ratios.push((key.clone(), ta, tb));
                    }
                }
            }
        }
    }
    rows.only_b = b.keys().filter(|k| !a.contains_key(*k)).cloned().collect();
    rows.ratios.sort_by(|x, y| {
        let change = |r: &(_, f64, f64)| (r.2 / r.1).ln().abs();
        change(y).total_cmp(&change(x)).then_with(|| x.0.cmp(&y.0))
    });
    rows.ratios.truncate(top);
    rows
}

/// What [`compare_rows`] finds.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct CompareRows {
    /// Pairs whose status, count or objective differ, with what differs ("A / B").
    pub differ: Vec<((String, String), String)>,
    /// Pairs only A has.
    pub only_a: Vec<(String, String)>,
    /// Pairs only B has.
    pub only_b: Vec<(String, String)>,
    /// Pairs both answered: A's and B's median seconds, largest change first.
    pub ratios: Vec<((String, String), f64, f64)>,
}

/// The compare page of record sets named `a_name` and `b_name`. Cost: a pass and a sort over
/// each set.
pub fn render_compare_html(
    (a_name, a_records): (&str, &[Record]),
    (b_name, b_records): (&str, &[Record]),
) -> String {
    let (a, b) = (pair_summaries(a_records), pair_summaries(b_records));
    let rows = compare_rows(&a, &b, 100);
    let (an, bn) = (escape(a_name), escape(b_name));
    let mut body = format!(
        "<h1>{an} (A) against {bn} (B)</h1>\n<p>A: {} runs, {} (instance, backend) pairs; B: {} runs, {} pairs; {} pairs in both. A pair's status, count and objective are its first repetition's; its time is the median over its answered repetitions.</p>\n",
        a_records.len(),
        a.len(),
        b_records.len(),
        b.len(),
        a.len() - rows.only_a.len()
    );
    let _ = writeln!(
        body,
        "<h2 id=\"differ\">Status, count or objective differ: {}</h2>",
        rows.differ.len()
    );
    if rows.differ.is_empty() {
        body.push_str("<p>None.</p>\n");
    } else {
        body.push_str("<table><tr><th>instance</th><th>backend</th><th>A / B</th></tr>\n");
        for ((instance, label), what) in &rows.differ {
            let _ = writeln!(
                body,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(instance),
                escape(label),
                escape(what)
            );
        }
        body.push_str("</table>\n");
    }
    let _ = writeln!(
        body,
        "<h2 id=\"ratios\">Largest time ratios (the first {} of the pairs both answered)</h2>",
        rows.ratios.len()
    );
    body.push_str("<table><tr><th>instance</th><th>backend</th><th class=\"num\">A</th><th class=\"num\">B</th><th class=\"num\">B / A</th></tr>\n");
    for ((instance, label), ta, tb) in &rows.ratios {
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:.3}</td></tr>",
            escape(instance),
            escape(label),
            seconds_text(Some(*ta)),
            seconds_text(Some(*tb)),
            tb / ta
        );
    }
    body.push_str("</table>\n");
    for (title, list) in [("Only in A", &rows.only_a), ("Only in B", &rows.only_b)] {
        let _ = writeln!(body, "<h2>{title}: {}</h2>", list.len());
        if !list.is_empty() {
            let shown: Vec<String> = list
                .iter()
                .take(200)
                .map(|(i, l)| format!("{} ({})", escape(i), escape(l)))
                .collect();
            let more = list.len().saturating_sub(200);
            let _ = writeln!(
                body,
                "<p>{}{}</p>",
                shown.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            );
        }
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{an} against {bn}</title>\n<link rel=\"icon\" href=\"data:,\">\n<style>\nbody {{ font: 14px/1.4 system-ui, sans-serif; margin: 1em; }}\ntable {{ border-collapse: collapse; }}\nth, td {{ border: 1px solid #d8dce2; padding: 0.15em 0.5em; text-align: left; }}\n.num {{ text-align: right; }}\n</style>\n</head>\n<body>\n{body}</body>\n</html>\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::experiment::Task;

    fn run(instance: &str, backend: &str, rep: u32, status: Status, seconds: f64) -> Record {
        Record {
            status,
            seconds,
            ..Record::new(instance, backend, backend, Task::Solve, rep)
        }
    }

    #[test]
    fn differing_statuses_counts_and_objectives_are_listed_and_ratios_ordered() {
        let a = [
            run("x", "bitset", 0, Status::Solved, 1.0),
            run("x", "bitset", 1, Status::Solved, 3.0),
            run("y", "bitset", 0, Status::Solved, 1.0),
            Record {
                count: Some("7".into()),
                ..run("z", "enum", 0, Status::Solved, 1.0)
            },
            run("w", "enum", 0, Status::Solved, 1.0),
        ];
        let b = [
            run("x", "bitset", 0, Status::Solved, 2.0),
            run("x", "bitset", 1, Status::Solved, 2.0),
            run("y", "bitset", 0, Status::Timeout, 10.0),
            Record {
                count: Some("8".into()),
                ..run("z", "enum", 0, Status::Solved, 10.0)
            },
            run("v", "enum", 0, Status::Solved, 1.0),
        ];
        let rows = compare_rows(&pair_summaries(&a), &pair_summaries(&b), 10);
        assert_eq!(
            rows.differ,
            vec![
                (
                    ("y".into(), "bitset".into()),
                    "status solved / timeout".into()
                ),
                (("z".into(), "enum".into()), "count 7 / 8".into()),
            ]
        );
        assert_eq!(rows.only_a, vec![("w".into(), "enum".into())]);
        assert_eq!(rows.only_b, vec![("v".into(), "enum".into())]);
        // z changed 10x, x not at all (median 2.0 both sides); y's timeout has no time.
        assert_eq!(
            rows.ratios,
            vec![
                (("z".into(), "enum".into()), 1.0, 10.0),
                (("x".into(), "bitset".into()), 2.0, 2.0),
            ]
        );
        let page = render_compare_html(("a", &a), ("b", &b));
        assert!(page.contains("<td>status solved / timeout</td>"), "{page}");
        assert!(page.contains("<td class=\"num\">10.000</td>"), "{page}");
    }
}
