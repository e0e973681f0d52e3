//! `zeroone report --format benchexec`: the records as BenchExec result files (issue 40, item
//! 2), one per backend label (a BenchExec run set), `NAME.results.LABEL.xml`, valid against
//! BenchExec's `result.dtd` (3.0), so BenchExec's `table-generator` renders zeroone's runs
//! beside other tools' (`table-generator reports/NAME.results.*.xml`).
//!
//! Columns: BenchExec's `status`, `category`, `cputime`, `walltime` and `memory` (with their
//! units: `s`, `B`), then zeroone's own (`time in backend`, `count`, `objective`, `bound`,
//! `nodes`, `verified`, `reason`). A run is named by its instance (and ` (repetition k)` from
//! the second repetition on), so table-generator lines up the labels' runs per instance.
//! Records carry no start date: `date` and `starttime` say `not recorded`.

use super::html::escape;
use super::*;

/// An XML attribute value: escaped, line breaks as character references.
fn attr(text: &str) -> String {
    escape(text)
        .replace('\n', "&#10;")
        .replace('\r', "&#13;")
        .replace('\t', "&#9;")
        .chars()
        .filter(|c| !c.is_control())
        .collect()
}

/// BenchExec's status text and category for a zeroone status: answers keep zeroone's word and
/// are `correct` when the verifier accepted them (`missing`, BenchExec's "no expected
/// verdict", otherwise: a proved infeasibility, a dp count); the resource ends take
/// BenchExec's words (`TIMEOUT`, `OUT OF MEMORY`, `ERROR (...)`) and category `error`; runs
/// without an answer are `unknown`.
pub fn benchexec_status(record: &Record) -> (String, &'static str) {
    let s = record.status;
    match s {
        Status::Timeout => ("TIMEOUT".into(), "error"),
        Status::Memout => ("OUT OF MEMORY".into(), "error"),
        Status::Crash => ("ERROR (crash)".into(), "error"),
        Status::Error => ("ERROR".into(), "error"),
        Status::Unknown | Status::Limit | Status::Unsupported => (s.name().into(), "unknown"),
        _ if record.verified => (s.name().into(), "correct"),
        _ => (s.name().into(), "missing"),
    }
}

const COLUMNS: [&str; 12] = [
    "status",
    "category",
    "cputime",
    "walltime",
    "memory",
    "time in backend",
    "count",
    "objective",
    "bound",
    "nodes",
    "verified",
    "reason",
];

fn run_element(r: &Record) -> String {
    let (status, category) = benchexec_status(r);
    let name = if r.repetition == 0 {
        r.instance.clone()
    } else {
        format!("{} (repetition {})", r.instance, r.repetition)
    };
    let seconds = |x: f64| format!("{x}s");
    let values: [Option<String>; 12] = [
        Some(status),
        Some(category.into()),
        r.cpu_seconds.map(seconds),
        r.wall_seconds.map(seconds),
        r.peak_rss_mb
            .map(|mb| format!("{}B", (mb * 1_048_576.0).round() as u64)),
        Some(seconds(r.seconds)),
        r.count.clone(),
        r.objective.map(|x| x.to_string()),
        r.bound.map(|x| x.to_string()),
        (r.stats.nodes > 0).then(|| r.stats.nodes.to_string()),
        Some(r.verified.to_string()),
        r.reason.clone(),
    ];
    let mut out = format!(
        "  <run name=\"{}\" files=\"[]\" options=\"{}\">\n",
        attr(&name),
        attr(&serde_json::to_string(&r.options).unwrap_or_default())
    );
    for (title, value) in COLUMNS.iter().zip(values) {
        if let Some(v) = value {
            let _ = writeln!(
                out,
                "    <column title=\"{title}\" value=\"{}\"/>",
                attr(&v)
            );
        }
    }
    out.push_str("  </run>\n");
    out
}

/// The `<systeminfo>` of a recorded machine string (`2 logical cores, AMD EPYC, linux
/// x86_64`).
fn systeminfo(machine: Option<&str>) -> String {
    let parts: Vec<&str> = machine.unwrap_or("").splitn(3, ", ").collect();
    let cores = parts
        .first()
        .and_then(|p| p.split_whitespace().next())
        .filter(|n| n.parse::<u32>().is_ok())
        .unwrap_or("not recorded");
    let model = parts.get(1).copied().unwrap_or("not recorded");
    let os = parts.get(2).copied().unwrap_or("not recorded");
    format!(
        "  <systeminfo>\n    <os name=\"{}\"/>\n    <cpu cores=\"{}\" model=\"{}\"/>\n    <ram size=\"not recorded\"/>\n    <environment/>\n  </systeminfo>\n",
        attr(os),
        attr(cores),
        attr(model)
    )
}

/// The BenchExec result file of each label with runs: (label, XML). Cost: one pass over the
/// records per label.
pub fn render_benchexec(experiment: &Experiment, records: &[Record]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (label, name) in experiment.labels() {
        let mine: Vec<&Record> = records.iter().filter(|r| r.backend == label).collect();
        let Some(first) = mine.first() else {
            continue;
        };
        let version = if name == "peer" {
            first
                .options
                .params
                .get("version")
                .cloned()
                .unwrap_or_else(|| "not recorded".into())
        } else {
            match (&first.version, &first.commit) {
                (Some(v), Some(c)) => format!("{v} ({c})"),
                _ => "not recorded".into(),
            }
        };
        let time_limit = first
            .options
            .time_limit
            .map_or(String::new(), |t| format!(" timelimit=\"{t}s\""));
        let memory_limit = first.options.memory_limit.map_or(String::new(), |m| {
            format!(" memlimit=\"{}B\"", m * 1_048_576)
        });
        let mut xml = format!(
            "<?xml version=\"1.0\" ?>\n<!DOCTYPE result PUBLIC '+//IDN sosy-lab.org//DTD BenchExec result 3.0//EN' 'https://www.sosy-lab.org/benchexec/result-3.0.dtd'>\n<result benchmarkname=\"{}\" name=\"{}\" date=\"not recorded\" starttime=\"not recorded\" tool=\"{}\" toolmodule=\"zeroone\" version=\"{}\" generator=\"zeroone report --format benchexec\"{time_limit}{memory_limit}>\n",
            attr(&experiment.name),
            attr(&label),
            attr(if name == "peer" { &label } else { "zeroone" }),
            attr(&version),
        );
        let _ = writeln!(
            xml,
            "  <description>{}</description>",
            escape(&format!(
                "zeroone experiment {}: backend label {label} (registry name {name})",
                experiment.name
            ))
        );
        xml.push_str("  <columns>\n");
        for title in COLUMNS {
            let _ = writeln!(xml, "    <column title=\"{title}\"/>");
        }
        xml.push_str("  </columns>\n");
        xml.push_str(&systeminfo(first.machine.as_deref()));
        for r in &mine {
            xml.push_str(&run_element(r));
        }
        xml.push_str("</result>\n");
        out.push((label, xml));
    }
    out
}

/// Reads the experiment's records from `dir` and writes `NAME.results.LABEL.xml` per label
/// there. Returns the files written.
pub fn write_benchexec(experiment: &Experiment, dir: &Path) -> Result<Vec<PathBuf>, HarnessError> {
    let path = records_path(dir, experiment, None);
    if !path.is_file() {
        return Err(HarnessError::NoRecords {
            what: format!("{} does not exist", path.display()),
            hint: "run the experiment (or merge its shards) first".into(),
        });
    }
    let (records, _) = read_records(&path, false)?;
    let (records, _) = experiment_records(experiment, records);
    let mut written = Vec::new();
    for (label, xml) in render_benchexec(experiment, &records) {
        let file = dir.join(format!("{}.results.{label}.xml", experiment.name));
        write_atomically(&file, xml.as_bytes())?;
        written.push(file);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::experiment::Task;

    #[test]
    fn statuses_map_to_benchexec_words_and_attributes_stay_one_line() {
        let mut r = Record::new("a\"<b>\n", "x", "x", Task::Solve, 1);
        r.status = Status::Timeout;
        assert_eq!(benchexec_status(&r), ("TIMEOUT".into(), "error"));
        r.status = Status::Solved;
        r.verified = true;
        assert_eq!(benchexec_status(&r), ("solved".into(), "correct"));
        r.status = Status::Infeasible;
        r.verified = false;
        assert_eq!(benchexec_status(&r), ("infeasible".into(), "missing"));
        let run = run_element(&r);
        assert!(
            run.starts_with("  <run name=\"a&quot;&lt;b&gt;&#10; (repetition 1)\""),
            "{run}"
        );
    }
}
