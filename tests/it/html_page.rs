//! The HTML report pages (`reports/NAME.html`, issue 40): every committed experiment has one,
//! current with its records and within its weight; and, in headless Chromium driven through
//! WebDriver, a committed page's table, sort, filters, URL state, scatter and run details are
//! checked against its CSV, and a 50,000-run page is timed. Without a browser the browser
//! tests say so loudly on stderr and pass.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use zeroone::backend::Status;
use zeroone::harness::experiment::{ExperimentKind, Task};
use zeroone::harness::record::{read_records, Record};
use zeroone::harness::report::{experiment_records, render_html, render_page, Provenance};
use zeroone::harness::table_run::render_table_markdown;
use zeroone::harness::Experiment;

use crate::webdriver::{find_browser, Browser};

const IN_PROGRESS: [&str; 2] = ["hex-width-25", "hex-width-25-middle-first"];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Where the screenshots and generated pages go.
fn out_dir() -> PathBuf {
    let dir = root().join("target").join("html-page");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The committed experiments with a record file (those still being appended to left out).
fn committed_experiments() -> Vec<Experiment> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("experiments"))
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            (p.extension()? == "toml").then(|| p.file_stem().unwrap().to_string_lossy().into())
        })
        .filter(|n: &String| !IN_PROGRESS.contains(&n.as_str()) && n != "quick")
        .filter(|n| root().join(format!("reports/{n}.jsonl")).is_file())
        .collect();
    names.sort();
    names
        .iter()
        .map(|n| Experiment::load(&root().join(format!("experiments/{n}.toml"))).unwrap())
        .collect()
}

/// The page's bytes from its data on (the data, Chart.js, the page's code): what the records
/// and this code alone decide, whatever machine renders the summary.
fn from_data(page: &str) -> &str {
    &page[page.find("<script id=\"data\"").expect("the data element")..]
}

#[test]
fn every_committed_experiment_has_a_current_page_within_its_weight() {
    // Those whose records are still being appended to have a page, checked when they finish.
    for name in IN_PROGRESS {
        assert!(
            root().join(format!("reports/{name}.html")).is_file(),
            "{name}"
        );
    }
    let experiments = committed_experiments();
    assert!(experiments.len() >= 10, "{}", experiments.len());
    for experiment in experiments {
        let name = &experiment.name;
        let path = root().join(format!("reports/{name}.html"));
        let committed = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (run experiments/regenerate.sh)", path.display()));
        let (records, _) =
            read_records(&root().join(format!("reports/{name}.jsonl")), false).unwrap();
        let command = format!("zeroone report experiments/{name}.toml");
        let (records, page) = if experiment.kind == ExperimentKind::Table {
            let provenance = Provenance::of(&records, &command);
            let md = render_table_markdown(&experiment, &records, &provenance, false);
            let page = render_page(&experiment, &records, &md);
            (records, page)
        } else {
            let (records, expected) = experiment_records(&experiment, records);
            let provenance = Provenance::of(&records, &command);
            let page = render_html(&experiment, &records, expected, &provenance);
            // Deterministic: the same records give the same bytes.
            assert_eq!(
                page,
                render_html(&experiment, &records, expected, &provenance)
            );
            (records, page)
        };
        assert!(
            from_data(&committed) == from_data(&page),
            "{name}: the committed page is not what this code writes (run experiments/regenerate.sh)"
        );
        let budget = 1_000_000 + 200 * records.len();
        assert!(
            committed.len() < budget,
            "{name}: {} bytes for {} runs (budget {budget})",
            committed.len(),
            records.len()
        );
        // Self-contained: nothing is fetched.
        for fetch in [
            "<script src",
            "<link rel=\"stylesheet\"",
            "http://",
            "https://cdn",
        ] {
            assert!(!committed.contains(fetch), "{name}: {fetch}");
        }
    }
}

/// The rows of a CSV file (quoted fields with `""` escapes), header first.
fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut rows = vec![];
    let mut row = vec![];
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => row.push(std::mem::take(&mut field)),
            ('\n', false) => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            _ => field.push(c),
        }
    }
    rows
}

/// The browser, or a loud skip (stderr) when none can be found on this machine.
fn browser_or_skip(test: &str) -> Option<Browser> {
    if let Err(why) = find_browser() {
        // Straight to the process's stderr, past the test harness's capture (which takes
        // `eprintln!`), so the skip shows in every `cargo test` output.
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "\n*** SKIPPED {test}: {why}. The HTML page is NOT browser-tested here. ***\n"
        );
        return None;
    }
    Some(Browser::start(1400, 1000).unwrap_or_else(|e| panic!("{test}: the browser: {e}")))
}

fn file_url(path: &Path) -> String {
    format!("file://{}", path.canonicalize().unwrap().display())
}

fn count(browser: &Browser) -> usize {
    let v = browser.run(
        "return document.getElementById('count').getAttribute('data-count');",
        json!([]),
    );
    v.as_str().unwrap().parse().unwrap()
}

/// The run indices (CSV data rows) shown on the table's page, top to bottom.
fn shown_runs(browser: &Browser) -> Vec<usize> {
    let v = browser.run(
        "return Array.from(document.querySelectorAll('#runs-table tbody tr')).map(function (tr) { return +tr.getAttribute('data-run'); });",
        json!([]),
    );
    serde_json::from_value(v).unwrap()
}

fn no_console_errors(browser: &Browser, what: &str) {
    let bad: Vec<(String, String)> = browser
        .console()
        .into_iter()
        .filter(|(level, _)| level == "SEVERE" || level == "WARNING")
        .collect();
    assert!(bad.is_empty(), "{what}: console: {bad:?}");
}

fn screenshot(browser: &Browser, name: &str) {
    let png = browser.screenshot();
    assert!(png.starts_with(b"\x89PNG"), "{name}: not a PNG");
    std::fs::write(out_dir().join(format!("{name}.png")), png).unwrap();
}

#[test]
fn a_committed_page_sorts_filters_keeps_its_url_and_opens_runs_in_chromium() {
    let Some(browser) = browser_or_skip("html_page (committed page)") else {
        return;
    };
    let name = "backends-sudoku";
    let csv = std::fs::read_to_string(root().join(format!("reports/{name}.csv"))).unwrap();
    let rows = csv_rows(&csv);
    let head = &rows[0];
    let col = |c: &str| head.iter().position(|h| h == c).unwrap();
    let (instance, backend, status, seconds) = (
        col("instance"),
        col("backend"),
        col("status"),
        col("seconds"),
    );
    let data = &rows[1..];
    let page = root().join(format!("reports/{name}.html"));
    browser.open(&file_url(&page));
    screenshot(&browser, &format!("{name}-summary"));
    let summary = browser.run(
        "return document.querySelector('#tab-summary').innerText;",
        json!([]),
    );
    assert!(
        summary.as_str().unwrap().contains("Competition"),
        "{summary}"
    );

    // Every run is a row.
    browser.click("#tabs button[data-tab=runs]");
    assert_eq!(count(&browser), data.len());
    screenshot(&browser, &format!("{name}-runs"));

    // Sorted by time: the shown runs' CSV times never decrease, and the first is the least.
    browser.click("#runs-table th[data-sort=seconds]");
    let time = |i: usize| data[i][seconds].parse::<f64>().unwrap();
    let shown = shown_runs(&browser);
    assert_eq!(shown.len(), 100);
    // The page keeps 6 significant digits: compare within that.
    for w in shown.windows(2) {
        assert!(time(w[0]) <= time(w[1]) * (1.0 + 1e-5), "{w:?}");
    }
    let least = (0..data.len()).map(time).fold(f64::INFINITY, f64::min);
    assert!((time(shown[0]) - least).abs() <= least * 1e-5);

    // A status filter: exactly the CSV's runs of that status.
    browser.click("#filter-status input[value=unknown]");
    let unknown = data.iter().filter(|r| r[status] == "unknown").count();
    assert!(unknown > 0);
    assert_eq!(count(&browser), unknown);
    assert!(shown_runs(&browser)
        .iter()
        .all(|&i| data[i][status] == "unknown"));

    // The URL keeps the view: reloaded, the same filter and sort.
    let url = browser.url();
    assert!(url.contains("status=unknown"), "{url}");
    browser.open("about:blank");
    browser.open(&url);
    assert_eq!(count(&browser), unknown);
    let checked = browser.run(
        "return document.querySelector('#filter-status input[value=unknown]').checked;",
        json!([]),
    );
    assert_eq!(checked, json!(true));
    browser.refresh();
    assert_eq!(count(&browser), unknown);

    // The scatter of two backends chosen in the page: one point per instance both ran.
    browser.click("#tabs button[data-tab=plots]");
    let instances_of = |label: &str| -> std::collections::BTreeSet<&str> {
        data.iter()
            .filter(|r| r[backend] == label)
            .map(|r| r[instance].as_str())
            .collect()
    };
    for (x, y) in [("enum", "bitset"), ("bitset", "cp-sat"), ("sat", "highs")] {
        browser.click(&format!("#scatter-x option[value='{x}']"));
        browser.click(&format!("#scatter-y option[value='{y}']"));
        let points = browser.run(
            "return zeroone.charts().scatter.data.datasets[0].data.length;",
            json!([]),
        );
        let both = instances_of(x).intersection(&instances_of(y)).count();
        assert!(both > 0);
        assert_eq!(points, json!(both), "{x} vs {y}");
        assert!(browser.url().contains(&format!("sx={x}&sy={y}")));
    }
    screenshot(&browser, &format!("{name}-plots"));

    // A run's details: click the first row of the filtered table.
    browser.click("#tabs button[data-tab=runs]");
    let first = shown_runs(&browser)[0];
    browser.click("#runs-table tbody tr");
    let title = browser.run(
        "return document.getElementById('run-title').textContent;",
        json!([]),
    );
    let title = title.as_str().unwrap().to_string();
    assert!(title.contains(&data[first][instance]), "{title}");
    assert!(title.contains(&data[first][backend]), "{title}");
    let details = browser.run(
        "return document.getElementById('tab-run').innerText;",
        json!([]),
    );
    let details = details.as_str().unwrap();
    assert!(
        details.contains("Options") && details.contains("\"seed\""),
        "{details}"
    );
    assert!(details.contains("unknown"), "{details}");
    screenshot(&browser, &format!("{name}-run"));
    no_console_errors(&browser, name);
}

#[test]
fn a_certified_runs_details_link_its_proof_and_a_crashed_runs_show_its_stderr_in_chromium() {
    let Some(browser) = browser_or_skip("html_page (proofs and stderr)") else {
        return;
    };
    // The committed `backends-star` (certify = true): a certified column, filterable, and each
    // run's details link its proof file, which exists beside the page.
    let name = "backends-star";
    let csv = std::fs::read_to_string(root().join(format!("reports/{name}.csv"))).unwrap();
    let rows = csv_rows(&csv);
    let col = |c: &str| rows[0].iter().position(|h| h == c).unwrap();
    let certificate = col("certificate");
    let data = &rows[1..];
    let checked = data.iter().filter(|r| r[certificate] == "checked").count();
    assert!(
        checked > 0 && checked < data.len(),
        "{checked} of {}",
        data.len()
    );
    let page = root().join(format!("reports/{name}.html"));
    browser.open(&format!("{}#tab=runs", file_url(&page)));
    assert_eq!(count(&browser), data.len());
    browser.click("#filter-certified input[value=checked]");
    assert_eq!(count(&browser), checked);
    assert!(browser.url().contains("certified=checked"));
    let shown = shown_runs(&browser);
    assert!(shown.iter().all(|&i| data[i][certificate] == "checked"));
    browser.click("#runs-table tbody tr");
    let href = browser.run(
        "var a = document.getElementById('run-proof'); return a ? a.href : null;",
        json!([]),
    );
    let href = href
        .as_str()
        .expect("a proof link in a certified run's details");
    let reports = file_url(&root().join("reports"));
    let relative = href
        .strip_prefix(&format!("{reports}/"))
        .unwrap_or_else(|| panic!("{href} is not beside the page"));
    assert!(
        relative.starts_with(&format!("{name}.proofs/")),
        "{relative}"
    );
    assert!(
        root().join("reports").join(relative).is_file(),
        "{relative}"
    );
    screenshot(&browser, &format!("{name}-run-proof"));
    no_console_errors(&browser, name);

    // A page made here: a crashed run shows its stderr tail, a solved one has neither.
    let text = "[[instances]]\ngenerate = \"hex\"\nsizes = [1]\n[[backends]]\nname = \"bitset\"\n";
    let experiment = Experiment::from_text(Path::new("crash.toml"), text).unwrap();
    let mut crashed = Record::new("a", "bitset", "bitset", Task::Solve, 0);
    crashed.status = Status::Crash;
    crashed.reason = Some("the worker died: signal 6 (SIGABRT)".into());
    crashed.stderr = "line one <b>not bold</b>\nthread main panicked at x.rs:1:1\n".into();
    let mut solved = Record::new("b", "bitset", "bitset", Task::Solve, 0);
    solved.status = Status::Solved;
    solved.verified = true;
    let provenance = Provenance {
        machine: "test".into(),
        commit: "test".into(),
        command: "test".into(),
    };
    let html = render_html(&experiment, &[crashed.clone(), solved], 2, &provenance);
    let path = out_dir().join("crashed.html");
    std::fs::write(&path, &html).unwrap();
    let stderr_of = |run: usize| {
        browser.open(&format!("{}#tab=run&run={run}", file_url(&path)));
        browser.run(
            "var e = document.getElementById('run-stderr'); return e ? e.textContent : null;",
            json!([]),
        )
    };
    assert_eq!(stderr_of(0), json!(crashed.stderr));
    screenshot(&browser, "crashed-run");
    assert_eq!(stderr_of(1), Value::Null);
    let proof = browser.run("return document.getElementById('run-proof');", json!([]));
    assert_eq!(proof, Value::Null);
    // No certificate on record: no certified column or filter.
    let certified = browser.run(
        "return document.querySelector('#filter-certified, [data-column=certified]:checked');",
        json!([]),
    );
    assert_eq!(certified, Value::Null);
    no_console_errors(&browser, "crashed");
}

/// 50,000 runs: three backends over 16,667 instances of one source, some timeouts.
fn big_experiment() -> (Experiment, Vec<Record>) {
    let text = "time_limit = 10\nbaseline = \"enum\"\n[[instances]]\ngenerate = \"hex\"\nsizes = [1]\n[[backends]]\nname = \"bitset\"\n[[backends]]\nname = \"enum\"\n[[backends]]\nname = \"sat\"\n";
    let experiment = Experiment::from_text(Path::new("big.toml"), text).unwrap();
    let mut seed = 12345u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut records = Vec::new();
    for k in 0..16_667 {
        for b in ["bitset", "enum", "sat"] {
            let x = next();
            let (status, seconds) = if x < 0.01 {
                (Status::Timeout, 10.0)
            } else {
                (Status::Solved, 1e-5 * (1e6f64).powf(next()))
            };
            let mut r = Record::new(&format!("royle_17clue#{k}"), b, b, Task::Solve, 0);
            r.status = status;
            r.verified = status == Status::Solved;
            r.seconds = seconds;
            r.options.time_limit = Some(10.0);
            r.stats.nodes = (x * 1e5) as u64;
            r.position = Some(k);
            r.instances = Some(16_667);
            r.variables = 729;
            r.rows = 324;
            records.push(r);
        }
    }
    records.truncate(50_000);
    (experiment, records)
}

#[test]
fn a_50000_run_page_renders_sorts_and_filters_quickly_in_chromium() {
    let Some(browser) = browser_or_skip("html_page (50,000 runs)") else {
        return;
    };
    let (experiment, records) = big_experiment();
    let provenance = Provenance {
        machine: "test".into(),
        commit: "test".into(),
        command: "test".into(),
    };
    let page = render_html(&experiment, &records, records.len(), &provenance);
    let budget = 1_000_000 + 200 * records.len();
    assert!(page.len() < budget, "{} bytes", page.len());
    let path = out_dir().join("big.html");
    std::fs::write(&path, &page).unwrap();
    browser.open(&format!("{}#tab=runs", file_url(&path)));
    assert_eq!(count(&browser), 50_000);
    let first = browser
        .run("return zeroone.timings.first;", json!([]))
        .as_f64()
        .unwrap();
    // Each action's time in the page: the click's handler (filter, sort, the visible rows
    // rebuilt) and the layout it forces.
    let timed = |css: &str| -> f64 {
        browser
            .run(
                "var t = performance.now(); document.querySelector(arguments[0]).click(); void document.body.offsetHeight; return performance.now() - t;",
                json!([css]),
            )
            .as_f64()
            .unwrap()
    };
    let sorts: Vec<f64> = (0..3)
        .map(|_| timed("#runs-table th[data-sort=seconds]"))
        .collect();
    let sort_nodes = timed("#runs-table th[data-sort=nodes]");
    // The page's own split of the last action: filter and sort, then all of the update.
    let split = browser.run("return zeroone.timings;", json!([]));
    let filter_on = timed("#filter-status input[value=timeout]");
    let timeouts = records
        .iter()
        .filter(|r| r.status == Status::Timeout)
        .count();
    assert_eq!(count(&browser), timeouts);
    let filter_off = timed("#filter-status input[value=timeout]");
    assert_eq!(count(&browser), 50_000);
    let filter_backend = timed("#filter-backend input[value=sat]");
    screenshot(&browser, "big-runs");
    // Past the harness's capture, like the skip message: the figures to report.
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "50,000-run page ({} bytes): first render {first:.0} ms after navigation start; sort by seconds {:.0} / {:.0} / {:.0} ms, by nodes {sort_nodes:.0} ms; status filter on {filter_on:.0} ms, off {filter_off:.0} ms; backend filter {filter_backend:.0} ms; in the page, the last sort's filter and order {:.0} ms of an update of {:.0} ms",
        page.len(),
        sorts[0],
        sorts[1],
        sorts[2],
        split["compute"].as_f64().unwrap_or(f64::NAN),
        split["update"].as_f64().unwrap_or(f64::NAN)
    );
    // Targets: 200 ms per action, 2 s to first render; the machine is shared, so only 10x
    // the target fails the test (the figures above are what to report).
    for t in sorts
        .iter()
        .chain([sort_nodes, filter_on, filter_off, filter_backend].iter())
    {
        assert!(*t < 2_000.0, "an action took {t} ms");
    }
    assert!(first < 20_000.0, "first render {first} ms");
    no_console_errors(&browser, "big");
}

#[test]
fn csv_rows_reads_quoted_fields() {
    let rows = csv_rows("a,b\n\"x,\"\"y\"\"\",2\n");
    assert_eq!(rows, vec![vec!["a", "b"], vec!["x,\"y\"", "2"]]);
    let _: Value = json!(null);
}
