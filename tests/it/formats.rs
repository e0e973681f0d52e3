//! The example files of the README section "Bring your own model" (`examples/formats/`), one
//! per format read from other tools, solved and counted through the command line by several
//! backends; answers come in the file's own variables (no complement or colour variable shows);
//! a malformed file of every format is a located error with exit status 2. And every export
//! reads back: `read(export(model))` has the model's solutions and optimum, for random models.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use std::collections::BTreeSet;

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use zeroone::backend::{make_backend, solutions_verified, solve_verified, BackendOptions};
use zeroone::model::verify::Verifier;
use zeroone::model::{
    Coord, Model, ModelBuilder, ObjectiveSense, PuzzleKind, Relation, Sense, Solution,
};
use zeroone::read::{cnf, lp, mps, opb, read_str, xcc};

fn zeroone(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .output()
        .unwrap()
}

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/formats")
        .join(name)
}

fn json(o: &Output) -> Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout.clone()).unwrap();
    serde_json::from_str(text.lines().next().unwrap()).unwrap()
}

/// (file, verified count, optimum, the one optimal answer or the first answer's ones)
const EXAMPLES: &[(&str, u64, Option<i64>, &[&str])] = &[
    ("knapsack.opb", 10, Some(12), &["x2", "x3", "x4"]),
    ("cycle4.cnf", 2, None, &["x1", "x3"]),
    ("pick.lp", 4, Some(5), &["x", "y"]),
    ("pick.mps", 4, Some(5), &["x", "y"]),
    ("colours.xcc", 3, None, &["a,x:red", "b,c,x:red"]),
];

#[test]
fn every_example_solves_and_counts_the_same_by_several_backends() {
    for &(file, count, optimum, ones) in EXAMPLES {
        let path = example(file);
        let path = path.to_str().unwrap();
        for backend in ["bitset", "sat", "milp", "brute"] {
            let c = json(&zeroone(&["count", "--json", "--backend", backend, path]));
            assert_eq!(c["count"], count, "{file} {backend}");
            assert_eq!(c["verified"], true, "{file} {backend}");
            let s = json(&zeroone(&["solve", "--json", "--backend", backend, path]));
            assert_eq!(s["verified"], true, "{file} {backend}");
            match optimum {
                Some(best) => {
                    assert_eq!(s["objective"], best, "{file} {backend}");
                    assert_eq!(s["ones"], serde_json::json!(ones), "{file} {backend}");
                }
                None => assert_eq!(s["status"], "solved", "{file} {backend}"),
            }
        }
        let s = json(&zeroone(&["solve", "--json", "--backend", "bitset", path]));
        if optimum.is_none() {
            assert_eq!(s["ones"], serde_json::json!(ones), "{file}");
        }
    }
}

#[test]
fn answers_list_the_files_own_variables_only() {
    // cycle4.cnf has four variables and a complement for each (its negative literals): ids
    // stop at 3, and `solve --all` prints each of the two solutions once.
    let path = example("cycle4.cnf");
    let args = ["solve", "--all", "--json", "--ids", "--backend", "brute"];
    let out = zeroone(&[&args[..], &[path.to_str().unwrap()]].concat());
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let all: BTreeSet<Vec<u64>> = text
        .lines()
        .filter(|line| !line.contains("\"complete\""))
        .map(|line| {
            let v: Value = serde_json::from_str(line).unwrap();
            let ones = v["ones"].as_array().unwrap();
            ones.iter().map(|x| x.as_u64().unwrap()).collect()
        })
        .collect();
    assert_eq!(all, BTreeSet::from([vec![0, 2], vec![1, 3]]), "{text}");
    assert_eq!(
        text.lines().count(),
        3,
        "two solutions and the closing line"
    );
}

#[test]
fn malformed_files_of_every_format_are_located_errors_with_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("bad.opb", "+1 x1 x2 >= 1 ;\n", ":1:7: expected"),
        ("bad.cnf", "p cnf 2 1\n1 x 0\n", ":2:3: expected"),
        (
            "bad.lp",
            "Minimize\n obj: x\nSubject To\n c: x + y >= 1\nBinary\n x\nEnd\n",
            ":4:9: expected",
        ),
        (
            "bad.mps",
            "NAME t\nROWS\n N obj\n L c\nCOLUMNS\n x c 0.5\nENDATA\n",
            ":6:6: expected",
        ),
        ("bad.xcc", "a b\na c\n", ":2:3: expected"),
    ];
    for (name, text, located) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        let out = zeroone(&["solve", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(&format!("{name}{located}")), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn standard_input_takes_the_format_by_name() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(["count", "--json", "--format", "cnf", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let text = std::fs::read(example("cycle4.cnf")).unwrap();
    child.stdin.take().unwrap().write_all(&text).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(json(&out)["count"], 2);
}

/// Every solution of `model` found by `backend`, each verified, projected onto the variables
/// `ids` (in that order) as 0-1 vectors.
fn projected(model: &Model, backend: &str, ids: &[usize]) -> BTreeSet<Vec<bool>> {
    let mut b = make_backend(backend, &BackendOptions::default()).unwrap();
    let mut out = BTreeSet::new();
    let outcome = solutions_verified(b.as_mut(), model, None, &mut |s: &Solution| {
        out.insert(
            ids.iter()
                .map(|v| s.ones.binary_search(v).is_ok())
                .collect(),
        );
    })
    .unwrap();
    assert!(outcome.exhaustive, "{backend} did not finish");
    out
}

/// The verified optimum of `model` by `backend` (`None`: infeasible; 0 for a feasible model
/// without an objective, as for an objective whose costs are all 0).
fn optimum(model: &Model, backend: &str) -> Option<i128> {
    let mut b = make_backend(backend, &BackendOptions::default()).unwrap();
    let outcome = solve_verified(b.as_mut(), model).unwrap();
    if model.objective().is_none() {
        return outcome.status.has_solution().then_some(0);
    }
    let status = outcome.status.name();
    assert!(
        status == "optimal" || status == "infeasible",
        "{status}: {:?}",
        outcome.reason
    );
    outcome.objective
}

/// All solutions of a model without derived variables, by trying every assignment, and its
/// optimum.
fn brute(model: &Model) -> (BTreeSet<Vec<bool>>, Option<i128>) {
    let n = model.num_variables();
    let v = Verifier::new(model);
    let maximize = model.objective().is_some_and(|o| o.is_maximize());
    let mut set = BTreeSet::new();
    let mut best: Option<i128> = None;
    for bits in 0u32..(1 << n) {
        let values: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
        let s = Solution::from_bools(&values);
        if v.accepts(&s) {
            let value = v.objective_value(&s).unwrap_or(0);
            if best.is_none_or(|b| if maximize { value > b } else { value < b }) {
                best = Some(value);
            }
            set.insert(values);
        }
    }
    (set, best)
}
// ---- every export reads back ----

/// A random model built in code: unit and weighted rows of every relation (one relation per
/// family, as the JSON model needs), maybe givens, maybe an objective.
fn random_model(seed: u64, weighted: bool) -> Model {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = rng.gen_range(1..=6);
    let mut b = ModelBuilder::new("r", PuzzleKind::Generic);
    let vars: Vec<usize> = (0..n)
        .map(|i| b.variable(format!("v{i}"), Coord::Free))
        .collect();
    for f in 0..rng.gen_range(1..=3) {
        let family = b.family(format!("f{f}"));
        let relation = [Relation::AtLeast, Relation::Equal, Relation::AtMost][rng.gen_range(0..3)];
        for _ in 0..rng.gen_range(1..=2) {
            let mut row: Vec<usize> = vars.iter().copied().filter(|_| rng.gen_bool(0.5)).collect();
            if row.is_empty() {
                row.push(rng.gen_range(0..n));
            }
            let weights: Vec<u64> = row
                .iter()
                .map(|_| if weighted { rng.gen_range(1..=3) } else { 1 })
                .collect();
            let total: u64 = weights.iter().sum();
            let rhs = rng.gen_range(0..=total);
            b.weighted_row(family, row, weights, Sense::new(relation, rhs));
        }
    }
    if rng.gen_bool(0.5) {
        let sense = if rng.gen_bool(0.5) {
            ObjectiveSense::Maximize
        } else {
            ObjectiveSense::Minimize
        };
        let terms = vars
            .iter()
            .map(|&v| (v, rng.gen_range(-4..=4)))
            .filter(|&(_, c)| c != 0)
            .collect();
        b.objective(sense, terms);
    }
    let without_given = b.clone();
    if rng.gen_bool(0.3) {
        b.given(rng.gen_range(0..n));
    }
    // A given may overfill a row: then the model is the one without it.
    b.build().or_else(|_| without_given.build()).unwrap()
}

/// `model` written in `format` and read back, with the ids its variables got.
fn round_trip(model: &Model, format: zeroone::export::Format) -> Option<(Model, Vec<usize>)> {
    use zeroone::export::{render, Format as Out, Names};
    let text = match render(model, format) {
        Ok(text) => text,
        Err(e) => {
            // Only what the format cannot say is refused.
            // (JSON takes every model: a family mixing relations gets one sense per row.)
            let weighted = model.constraints().iter().any(|c| c.weights.is_some());
            let allowed = match format {
                Out::Xcc => weighted || model.objective().is_some(),
                Out::Cnf => model.objective().is_some(),
                _ => false,
            };
            assert!(allowed, "{format} refused: {e}");
            return None;
        }
    };
    let n = model.num_variables();
    let back = match format {
        Out::Json => {
            let p =
                zeroone::puzzle::parse::parse_str(&text, zeroone::puzzle::parse::Format::Json, "t")
                    .unwrap();
            p[0].to_model("t").unwrap()
        }
        Out::Lp => read_str(lp::FORMAT, &text, "t").unwrap(),
        Out::Mps => read_str(mps::FORMAT, &text, "t").unwrap(),
        Out::Opb => read_str(opb::FORMAT, &text, "t").unwrap(),
        Out::Cnf => read_str(cnf::FORMAT, &text, "t").unwrap(),
        Out::Xcc => read_str(xcc::FORMAT, &text, "t").unwrap(),
    };
    let ids = match format {
        Out::Lp => {
            let names = Names::of(model);
            (0..n)
                .map(|v| back.variable_by_label(&names.variables[v]).unwrap())
                .collect()
        }
        Out::Json => (0..n)
            .map(|v| back.variable_by_label(&model.label(v)).unwrap())
            .collect(),
        _ => (0..n).collect(),
    };
    Some((back, ids))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// `read(export(model))` has the model's solutions over its variables (extra variables of
    /// an encoding may take several values) and its optimum, in every format.
    #[test]
    fn every_export_reads_back_with_the_same_solutions_and_optimum(seed in any::<u64>(), weighted in any::<bool>()) {
        let model = random_model(seed, weighted);
        let (expected, best) = brute(&model);
        for format in zeroone::export::Format::ALL {
            let Some((back, ids)) = round_trip(&model, format) else { continue };
            let found = projected(&back, "bitset", &ids);
            prop_assert_eq!(&found, &expected, "{}", format);
            if format != zeroone::export::Format::Cnf {
                // Every variable the reader adds is fixed by the model's own: same count.
                let count = zeroone::testing::count(&back, "bitset").unwrap().count;
                prop_assert_eq!(count, expected.len() as u128, "{}", format);
            }
            if model.objective().is_some() && format != zeroone::export::Format::Xcc {
                let mut got = optimum(&back, "bitset");
                if format == zeroone::export::Format::Opb && model.objective().unwrap().is_maximize() {
                    got = got.map(|v| -v); // OPB minimises the negated costs
                }
                prop_assert_eq!(got, best, "{}", format);
            }
        }
    }
}
