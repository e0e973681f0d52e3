//! Counts past 2^64 and 2^128 (issue 41): exact end to end (the count report, `zeroone count` and its
//! `--json`, the worker of `--time-limit`, an experiment's records and report), checked
//! against independent formulas: `2^n` for `n` free variables, and a power for independent
//! components (each counted apart by enumeration).

use std::path::Path;
use std::process::Command;

use num_bigint::BigUint;
use zeroone::backend::{count_verified, make_backend, BackendOptions, Count, Status};
use zeroone::export::json::to_json;
use zeroone::model::{Coord, Model, ModelBuilder, PuzzleKind, Sense};

/// A model of `n` variables in no row: `2^n` solutions.
fn free_variables(n: usize) -> Model {
    let mut b = ModelBuilder::new(format!("free-{n}"), PuzzleKind::Generic);
    for i in 0..n {
        b.variable(format!("x{i}"), Coord::Free);
    }
    b.build().unwrap()
}

/// `copies` disjoint copies of the perfect matchings of 8 points (one variable per pair, one
/// "exactly one" row per point): `105^copies` solutions (7!! = 105 per copy).
fn matchings(copies: usize) -> Model {
    let mut b = ModelBuilder::new(format!("matchings-8x{copies}"), PuzzleKind::Generic);
    let f = b.family("point");
    for c in 0..copies {
        let mut at: Vec<Vec<usize>> = vec![Vec::new(); 8];
        for i in 0..8 {
            for j in i + 1..8 {
                let v = b.variable(format!("c{c}p{i}-{j}"), Coord::Free);
                at[i].push(v);
                at[j].push(v);
            }
        }
        for vars in at {
            b.row(f, vars, Sense::ExactlyOne);
        }
    }
    b.build().unwrap()
}

fn count_with(engine: &str, model: &Model, limit: Option<u64>) -> zeroone::backend::CountOutcome {
    let mut options = BackendOptions::default();
    options.params.insert("engine".into(), engine.into());
    let mut xcc = make_backend("xcc", &options).unwrap();
    count_verified(xcc.as_mut(), model, limit).unwrap()
}

fn pow(base: u32, exp: usize) -> BigUint {
    (0..exp).fold(BigUint::from(1u8), |acc, _| acc * base)
}

#[test]
fn counts_past_2_to_128_are_exact_in_every_memo_engine() {
    // Two copies by enumeration (the default engines visit every solution): 105^2; one copy: 105.
    let mut xcc = make_backend("xcc", &BackendOptions::default()).unwrap();
    let one = count_verified(xcc.as_mut(), &matchings(1), None).unwrap();
    let two = count_verified(xcc.as_mut(), &matchings(2), None).unwrap();
    assert_eq!(
        (one.count, two.count),
        (Count::from(105u128), Count::from(11_025u128))
    );
    // 10 copies: 105^10 ~ 1.63e20, past 2^64 ~ 1.84e19 (the first count, in u64, overflows
    // and the second, in u128, holds it).
    let mid = matchings(10);
    for engine in ["memo", "memo-sweep", "memo-mrv"] {
        let out = count_with(engine, &mid, None);
        assert_eq!(out.status, Status::Solved, "{engine}: {:?}", out.reason);
        assert!(out.exhaustive && out.verified, "{engine}");
        assert_eq!(out.count.to_u128(), Some(105u128.pow(10)), "{engine}");
        assert!(!out.stats.extra.contains_key("big_integers"), "{engine}");
    }
    // 20 copies: 105^20 ~ 2.65e40 > 2^128 ~ 3.4e38.
    let big = matchings(20);
    for engine in ["memo", "memo-sweep", "memo-mrv"] {
        let out = count_with(engine, &big, None);
        assert_eq!(out.status, Status::Solved, "{engine}: {:?}", out.reason);
        assert!(out.exhaustive && out.verified, "{engine}");
        assert_eq!(out.count.as_big(), &pow(105, 20), "{engine}");
        assert!(out.count.to_u128().is_none());
        assert_eq!(out.stats.extra["big_integers"], true, "{engine}");
    }
    // 130 free variables: 2^130 (the free variables' factor alone passes 2^128).
    let out = count_with("memo", &free_variables(130), None);
    assert_eq!(out.status, Status::Solved, "{:?}", out.reason);
    assert_eq!(out.count.as_big(), &(BigUint::from(1u8) << 130));
    // A limit still cuts a big count at the limit.
    let out = count_with("memo", &big, Some(5));
    assert_eq!((out.status, out.count.to_u128()), (Status::Limit, Some(5)));
}

fn zeroone(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_cli_json_worker_records_and_report_carry_a_big_count_exactly() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("big.json"),
        to_json(&matchings(20)).unwrap(),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("small.json"),
        to_json(&matchings(1)).unwrap(),
    )
    .unwrap();
    let exact = pow(105, 20).to_string();
    let memo = ["--backend", "xcc", "--param", "engine=memo"];
    // The answer in text, in-process and through the worker of --time-limit.
    for extra in [&[][..], &["--time-limit", "60"][..]] {
        let args = [&["count", "big.json"][..], &memo[..], extra].concat();
        let (code, out, err) = zeroone(dir.path(), &args);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains(&exact), "{extra:?}: {out}");
    }
    // --json: a string past 2^128, a number below.
    let (code, out, err) = zeroone(
        dir.path(),
        &[&["count", "big.json", "--json"][..], &memo].concat(),
    );
    assert_eq!(code, 0, "{err}");
    let line: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(line["count"], serde_json::Value::String(exact.clone()));
    let (_, out, _) = zeroone(
        dir.path(),
        &[&["count", "small.json", "--json"][..], &memo].concat(),
    );
    let line: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(line["count"], 105);
    // An experiment: the record keeps the decimal count, the report shows it.
    let experiment = r#"title = "big counts"
kind = "count"
repetitions = 1
time_limit = 60
baseline = "xcc memo"

[[instances]]
file = "big.json"

[[backends]]
name = "xcc"
label = "xcc memo"
params = { engine = "memo" }
"#;
    std::fs::write(dir.path().join("big.toml"), experiment).unwrap();
    let (code, _, err) = zeroone(dir.path(), &["run", "big.toml", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    let records = std::fs::read_to_string(dir.path().join("reports/big.jsonl")).unwrap();
    let record: serde_json::Value = serde_json::from_str(records.lines().next().unwrap()).unwrap();
    assert_eq!(
        (record["status"].as_str(), record["count"].as_str()),
        (Some("solved"), Some(exact.as_str()))
    );
    let report = std::fs::read_to_string(dir.path().join("reports/big.md")).unwrap();
    assert!(
        report.contains(&exact) || report.contains(&grouped(&exact)),
        "{report}"
    );
}

/// `digits` with a comma every three digits from the right (how reports may print counts).
fn grouped(digits: &str) -> String {
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
