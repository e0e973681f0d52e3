//! Certified experiments (`certify = true`, issue 38): every run of a backend that logs proofs
//! leaves its proof beside the records and the record says `certificate: checked`; the
//! answers agree with a backend that logs none (and counts known in closed form); a proof
//! the checker rejects makes its run an `error` in the records and the report; the column is
//! in the CSV and the report; resume keeps working; old records read as `none`; on the
//! command line, auto certifies a model it would send to sat without a proof.
//!
//! Like `certificates.rs`, each test that needs `veripb` skips (and says so) without it.

use std::path::{Path, PathBuf};

use zeroone::backend::proof::{check, find_checker, Checked, ProofTask, ProvedRun, Prover};
use zeroone::backend::search::ProofLog;
use zeroone::backend::{
    make_backend, Backend, BackendError, BackendInfo, BackendOptions, CountReport, Counter,
    Registry, Status,
};
use zeroone::harness::record::{read_records, Certificate, Record};
use zeroone::harness::{run_experiment, Experiment, RunOptions};
use zeroone::model::Model;

fn have_checker(test: &str) -> bool {
    let found = find_checker().is_some();
    if !found {
        eprintln!("{test}: skipped, the proof checker veripb is not installed (cargo install veripb --version '^3' --locked)");
    }
    found
}

fn options(dir: &Path) -> RunOptions {
    let mut o = RunOptions::new(dir.join("reports"));
    o.jobs = Some(2);
    o.worker_exe = Some(PathBuf::from(env!("CARGO_BIN_EXE_zeroone")));
    o
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const QUEENS_COUNTS: &str = r#"description = "certified counts"
kind = "count"
certify = true
[[instances]]
generate = "queens-bare"
sizes = [2, 3, 4, 5, 6]
[[backends]]
name = "bitset"
[[backends]]
name = "xcc"
[[backends]]
name = "enum"
"#;

/// Re-checks a record's proof pair from its files (an independent call of the checker).
fn recheck(reports: &Path, r: &Record) -> Checked {
    let pbp = reports.join(r.proof.as_ref().expect("a checked run names its proof"));
    assert!(pbp.is_file(), "{}", pbp.display());
    let opb = pbp.with_extension("opb");
    check(&opb, &pbp).unwrap()
}

#[test]
fn a_certified_count_experiment_checks_every_proof_and_agrees_with_enum() {
    if !have_checker("certified counts") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "certified.toml", QUEENS_COUNTS);
    let experiment = Experiment::load(&path).unwrap();
    assert!(experiment.certify);
    let summary = run_experiment(&experiment, &options(dir.path())).unwrap();
    assert_eq!(summary.ran, 15);
    let (records, _) = read_records(&summary.records, false).unwrap();
    let reports = dir.path().join("reports");
    // A bare Queens board (one queen per row and column, no two touching): the permutations
    // without adjacent entries differing by 1, OEIS A002464: 0, 0, 2, 14, 90.
    let known = [(2, "0"), (3, "0"), (4, "2"), (5, "14"), (6, "90")];
    for r in &records {
        let size = r.size.unwrap();
        let want = known.iter().find(|(n, _)| *n == size).unwrap().1;
        assert_eq!(
            r.count.as_deref(),
            Some(want),
            "{} {}",
            r.backend,
            r.instance
        );
        assert_eq!(r.status, Status::Solved, "{} {}", r.backend, r.instance);
        assert!(r.options.certify);
        if r.backend == "enum" {
            // enum logs no proofs: it runs as usual, with no certificate and no files.
            assert_eq!(r.certificate, Certificate::None);
            assert!(r.proof.is_none() && r.check_seconds.is_none());
            continue;
        }
        assert_eq!(
            r.certificate,
            Certificate::Checked,
            "{} {}",
            r.backend,
            r.instance
        );
        assert!(r.check_seconds.is_some());
        assert!(matches!(recheck(&reports, r), Checked::Certified { .. }));
    }
    // One proof pair per certified run, nothing else in the folder.
    let files = std::fs::read_dir(reports.join("certified.proofs"))
        .unwrap()
        .count();
    assert_eq!(files, 2 * 10);
    let md = std::fs::read_to_string(reports.join("certified.md")).unwrap();
    assert!(md.contains("| verified | certified |"), "{md}");
    // The two empty counts have no witness to verify; their proofs are checked all the same.
    let row = |label: &str, certified: &str| {
        format!("| `{label}` | 5 | 5 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 3 (2 counts, no witness) | {certified} |")
    };
    assert!(md.contains(&row("bitset", "5")), "{md}");
    assert!(md.contains(&row("xcc", "5")), "{md}");
    assert!(md.contains(&row("enum", "-")), "{md}");
    let csv = std::fs::read_to_string(reports.join("certified.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let column = header.iter().position(|c| *c == "certificate").unwrap();
    let cells: Vec<&str> = (csv.lines().skip(1))
        .map(|l| l.split(',').nth(column).unwrap())
        .collect();
    assert_eq!(cells.iter().filter(|c| **c == "checked").count(), 10);
    assert_eq!(cells.iter().filter(|c| **c == "none").count(), 5);
}

#[test]
fn certified_optima_and_solutions_agree_with_milp() {
    if !have_checker("certified optima") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    let text = format!(
        "description = \"certified optima\"\ncertify = true\n\
         [[instances]]\nfile = \"{m}/knapsack-multi.toml\"\n\
         [[instances]]\nfile = \"{m}/queens-cheapest-6.json\"\n\
         [[instances]]\nfile = \"{m}/set-cover-weighted.json\"\n\
         [[instances]]\nfile = \"{m}/latin-3.toml\"\n\
         [[backends]]\nname = \"bitset\"\n[[backends]]\nname = \"milp\"\n",
        m = models.display()
    );
    let path = write(dir.path(), "optima.toml", &text);
    let experiment = Experiment::load(&path).unwrap();
    let summary = run_experiment(&experiment, &options(dir.path())).unwrap();
    let (records, _) = read_records(&summary.records, false).unwrap();
    let reports = dir.path().join("reports");
    let bitset: Vec<&Record> = records.iter().filter(|r| r.backend == "bitset").collect();
    assert_eq!(bitset.len(), 4);
    for r in bitset {
        let milp = (records.iter())
            .find(|m| m.backend == "milp" && m.instance == r.instance)
            .unwrap();
        assert_eq!(milp.certificate, Certificate::None);
        assert_eq!(
            (r.status, r.objective),
            (milp.status, milp.objective),
            "{}",
            r.instance
        );
        assert!(
            matches!(r.status, Status::Optimal | Status::Solved),
            "{r:?}"
        );
        assert!(r.verified);
        assert_eq!(r.certificate, Certificate::Checked, "{}", r.instance);
        assert!(matches!(recheck(&reports, r), Checked::Certified { .. }));
    }
}

/// A proof log that drops the first solution the search reports: every later step is still
/// written, so the proof lacks one `solx` step and the `rup` steps that relied on it.
struct DropFirstSolution<'a> {
    inner: &'a mut dyn ProofLog,
    dropped: bool,
}

impl ProofLog for DropFirstSolution<'_> {
    fn enabled(&self) -> bool {
        self.inner.enabled()
    }
    fn decide(&mut self, var: usize, value: bool) {
        self.inner.decide(var, value);
    }
    fn retract(&mut self) {
        self.inner.retract();
    }
    fn solution(&mut self, ones: &[u32], improving: Option<bool>, value: i128) {
        if self.dropped {
            self.inner.solution(ones, improving, value);
        } else {
            self.dropped = true;
        }
    }
    fn exhausted(&mut self) {
        self.inner.exhausted();
    }
}

/// A backend whose proofs lie: `bitset`'s search, one solution left out of the proof and of
/// the count it claims, so only the checker can tell.
struct Liar;

impl Prover for Liar {
    fn prove(
        &mut self,
        model: &Model,
        task: ProofTask,
        log: &mut dyn ProofLog,
    ) -> Result<ProvedRun, BackendError> {
        let mut bitset = make_backend("bitset", &BackendOptions::default())?;
        let prover = bitset.prover().expect("bitset logs proofs");
        let mut lying = DropFirstSolution {
            inner: log,
            dropped: false,
        };
        let mut run = prover.prove(model, task, &mut lying)?;
        run.count = run.count.saturating_sub(1);
        Ok(run)
    }
}

/// Without a proof, the liar counts honestly (it is never asked to here: every run logs).
impl Counter for Liar {
    fn count(&mut self, model: &Model, limit: Option<u64>) -> Result<CountReport, BackendError> {
        let mut bitset = make_backend("bitset", &BackendOptions::default())?;
        bitset.counter().expect("bitset counts").count(model, limit)
    }
}

impl Backend for Liar {
    fn name(&self) -> &'static str {
        "liar"
    }
    fn prover(&mut self) -> Option<&mut dyn Prover> {
        Some(self)
    }
    fn solver(&mut self) -> Option<&mut dyn zeroone::backend::Solver> {
        None
    }
    fn counter(&mut self) -> Option<&mut dyn Counter> {
        Some(self)
    }
    fn rows_supported(&self, _model: &Model) -> Result<(), zeroone::backend::RowRefusal> {
        Ok(())
    }
}

const LIAR: BackendInfo = BackendInfo {
    name: "liar",
    about: "bitset with one solution left out of its proofs (a test's toy)",
    make: |_| Ok(Box::new(Liar)),
    params: &[],
    uses_time_limit: false,
    uses_seed: false,
    counters: &[],
    promises: &[],
};

#[test]
fn a_rejected_proof_is_an_error_in_the_records_and_the_report() {
    if !have_checker("rejected proofs") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let text = "description = \"a liar\"\nkind = \"count\"\ncertify = true\n\
                [[instances]]\ngenerate = \"queens-bare\"\nsizes = [4, 6]\n\
                [[backends]]\nname = \"liar\"\n[[backends]]\nname = \"bitset\"\n";
    let path = write(dir.path(), "liar.toml", text);
    let registry = Registry::builtin().with(LIAR);
    let experiment = Experiment::load_with(&path, &registry).unwrap();
    let mut run = options(dir.path());
    run.registry = registry;
    let summary = run_experiment(&experiment, &run).unwrap();
    let (records, _) = read_records(&summary.records, false).unwrap();
    for r in &records {
        if r.backend == "bitset" {
            assert_eq!(
                (r.status, r.certificate),
                (Status::Solved, Certificate::Checked)
            );
            continue;
        }
        assert_eq!(r.certificate, Certificate::Rejected, "{r:?}");
        assert_eq!(r.status, Status::Error);
        let reason = r.reason.as_deref().unwrap();
        assert!(reason.starts_with("certificate rejected: "), "{reason}");
        // The proof stays for inspection, and the checker still rejects it.
        assert!(matches!(
            recheck(&dir.path().join("reports"), r),
            Checked::Rejected { .. }
        ));
    }
    let md = std::fs::read_to_string(dir.path().join("reports/liar.md")).unwrap();
    assert!(
        md.contains("| `liar` | 2 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 2 | 2 | 0 (2 rejected) |"),
        "{md}"
    );
    assert!(md.contains("certificate rejected: "), "{md}");
}

#[test]
fn a_certified_run_resumes_and_refuses_a_changed_certify() {
    if !have_checker("certified resume") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "certified.toml", QUEENS_COUNTS);
    let experiment = Experiment::load(&path).unwrap();
    let mut first = options(dir.path());
    first.stop_after = Some(6);
    let cut = run_experiment(&experiment, &first).unwrap();
    assert_eq!(cut.ran, 6);
    let mut rest = options(dir.path());
    rest.resume = true;
    let resumed = run_experiment(&experiment, &rest).unwrap();
    assert_eq!((resumed.already_done, resumed.ran), (6, 9));
    let (records, _) = read_records(&resumed.records, false).unwrap();
    let checked = records
        .iter()
        .filter(|r| r.certificate == Certificate::Checked)
        .count();
    assert_eq!((records.len(), checked), (15, 10));
    // The same experiment without proofs is another configuration.
    let plain = QUEENS_COUNTS.replace("certify = true\n", "");
    let path = write(dir.path(), "certified.toml", &plain);
    let experiment = Experiment::load(&path).unwrap();
    let e = run_experiment(&experiment, &rest).unwrap_err().to_string();
    assert!(e.contains("other settings"), "{e}");
}

#[test]
fn a_run_stopped_by_its_time_limit_gets_no_certificate_and_leaves_no_proof() {
    if !have_checker("stopped runs") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // 14 x 14 bare Queens boards have 2.7e10 solutions (A002464): no count ends in 0.3 s.
    let text = "description = \"stopped\"\nkind = \"count\"\ncertify = true\ntime_limit = 0.3\n\
                [[instances]]\ngenerate = \"queens-bare\"\nsizes = [14]\n\
                [[backends]]\nname = \"bitset\"\n[[backends]]\nname = \"xcc\"\n";
    let path = write(dir.path(), "stopped.toml", text);
    let experiment = Experiment::load(&path).unwrap();
    let summary = run_experiment(&experiment, &options(dir.path())).unwrap();
    let (records, _) = read_records(&summary.records, false).unwrap();
    assert_eq!(records.len(), 2);
    for r in &records {
        assert!(matches!(r.status, Status::Limit | Status::Timeout), "{r:?}");
        assert_eq!(r.certificate, Certificate::None, "{r:?}");
        assert!(r.proof.is_none());
    }
    let left: Vec<_> = std::fs::read_dir(dir.path().join("reports/stopped.proofs"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn a_uniqueness_experiment_certifies_the_unique_boards_and_not_the_others() {
    if !have_checker("certified uniqueness") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("models");
    let text = format!(
        "description = \"unique?\"\nkind = \"count\"\ncount_limit = 2\ncertify = true\n\
         [[instances]]\nfile = \"{}/sudoku-9x9.sudoku\"\nfirst = 2\n\
         [[instances]]\ngenerate = \"queens-bare\"\nsizes = [4, 5]\n\
         [[backends]]\nname = \"bitset\"\n[[backends]]\nname = \"xcc\"\n",
        models.display()
    );
    let path = write(dir.path(), "unique.toml", &text);
    let experiment = Experiment::load(&path).unwrap();
    let summary = run_experiment(&experiment, &options(dir.path())).unwrap();
    let (records, _) = read_records(&summary.records, false).unwrap();
    assert_eq!(records.len(), 8);
    for r in &records {
        assert_eq!(r.options.count_limit, Some(2));
        if r.instance == "queens-bare-5" {
            // 14 solutions: stopped at the limit, a partial count, no certificate.
            assert_eq!((r.status, r.count.as_deref()), (Status::Limit, Some("2")));
            assert_eq!(r.certificate, Certificate::None, "{r:?}");
            assert_eq!(r.reason.as_deref(), Some("stopped at the limit of 2"));
            continue;
        }
        // The unique Sudokus are exact counts of 1, certified; queens-bare-4 has 2 solutions,
        // and the search stops at the second: a partial count, as for queens-bare-5.
        let want = if r.instance == "queens-bare-4" {
            "2"
        } else {
            "1"
        };
        assert_eq!(r.count.as_deref(), Some(want), "{r:?}");
        if want == "1" {
            assert_eq!(
                (r.status, r.certificate),
                (Status::Solved, Certificate::Checked),
                "{r:?}"
            );
            assert!(matches!(
                recheck(&dir.path().join("reports"), r),
                Checked::Certified { .. }
            ));
        } else {
            assert_eq!(
                (r.status, r.certificate),
                (Status::Limit, Certificate::None),
                "{r:?}"
            );
        }
    }
}

#[test]
fn a_large_proof_is_kept_gzipped_and_zeroone_check_takes_it_as_it_is() {
    if !have_checker("gzipped proofs") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let text = "description = \"large\"\nkind = \"count\"\ncertify = true\n\
                [[instances]]\ngenerate = \"queens-bare\"\nsizes = [8]\n\
                [[backends]]\nname = \"bitset\"\n";
    let path = write(dir.path(), "large.toml", text);
    let experiment = Experiment::load(&path).unwrap();
    let summary = run_experiment(&experiment, &options(dir.path())).unwrap();
    let (records, _) = read_records(&summary.records, false).unwrap();
    let r = &records[0];
    // A002464(8) = 5242 solutions, one `solx` step each: well over 1 MB.
    assert_eq!(
        (r.count.as_deref(), r.certificate),
        (Some("5242"), Certificate::Checked)
    );
    let proof = r.proof.as_deref().unwrap();
    assert!(proof.ends_with(".pbp.gz"), "{proof}");
    let pbp = dir.path().join("reports").join(proof);
    let opb = pbp.with_file_name(
        pbp.file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .replace(".pbp.gz", ".opb"),
    );
    assert!(!pbp.with_extension("").exists(), "the plain proof is gone");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(["check", opb.to_str().unwrap(), pbp.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("certified: count 5242"), "{stdout}");
}

#[test]
fn certify_without_the_checker_or_in_a_table_experiment_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "certified.toml", QUEENS_COUNTS);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(["run", path.to_str().unwrap()])
        .env("ZEROONE_VERIPB", dir.path().join("no-such-veripb"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("certify: the proof checker `veripb` was not found"),
        "{stderr}"
    );
    assert!(!dir.path().join("reports").exists(), "nothing is written");
    let table = "kind = \"table\"\ncertify = true\n[table]\nhex_widths = [1]\n";
    let e = Experiment::from_text(Path::new("t.toml"), table)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("t.toml:2:11: certify: a table experiment"),
        "{e}"
    );
}

#[test]
fn records_without_a_certificate_read_as_none() {
    let dir = tempfile::tempdir().unwrap();
    let mut r = Record::new(
        "queens-bare-4",
        "bitset",
        "bitset",
        zeroone::harness::Task::Count,
        0,
    );
    r.status = Status::Solved;
    let line = r.to_line();
    assert!(
        !line.contains("certificate") && !line.contains("certify"),
        "{line}"
    );
    let path = write(dir.path(), "old.jsonl", &format!("{line}\n"));
    let (back, _) = read_records(&path, false).unwrap();
    assert_eq!(back[0].certificate, Certificate::None);
    assert!(!back[0].options.certify);
    r.certificate = Certificate::Checked;
    r.options.certify = true;
    let line = r.to_line();
    assert!(line.contains("\"certificate\":\"checked\"") && line.contains("\"certify\":true"));
}

/// The `zeroone` binary run with `args`.
fn zeroone_cli(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn auto_certifies_on_the_command_line_a_model_it_would_send_to_sat() {
    if !have_checker("auto-cli") {
        return;
    }
    // Pigeonhole of 7 pigeons in 6 holes as CNF: 133 clauses over 42 variables, which auto
    // sends to sat (no proofs) when no proof is asked; with --certify bitset refutes it.
    let dir = tempfile::tempdir().unwrap();
    let var = |p: usize, h: usize| p * 6 + h + 1;
    let mut clauses: Vec<String> = (0..7)
        .map(|p| {
            (0..6)
                .map(|h| format!("{} ", var(p, h)))
                .collect::<String>()
                + "0"
        })
        .collect();
    for h in 0..6 {
        for p in 0..7 {
            for q in p + 1..7 {
                clauses.push(format!("-{} -{} 0", var(p, h), var(q, h)));
            }
        }
    }
    let text = format!("p cnf 42 {}\n{}\n", clauses.len(), clauses.join("\n"));
    let file = dir.path().join("php-7-6.cnf");
    std::fs::write(&file, text).unwrap();
    let plain = zeroone_cli(&["solve", file.to_str().unwrap(), "--json"]);
    let plain = String::from_utf8_lossy(&plain.stdout).to_string();
    assert!(plain.contains("\"backend\":\"sat\""), "{plain}");
    let out = zeroone_cli(&["solve", file.to_str().unwrap(), "--certify", "--json"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("\"certificate\":\"checked\""), "{stdout}");
    assert!(stdout.contains("infeasible"), "{stdout}");
}
