//! A backend is one file plus one registry line: a toy backend defined here, in the test, and
//! added to a registry value, solves and counts through the verified runners and runs in a
//! harness experiment, whose report names its counters as its registry entry does, and runs the
//! shared conformance suite its entry promises. Nothing outside this file knows it.

use std::path::{Path, PathBuf};

use zeroone::backend::{
    count_verified, solve_verified, Backend, BackendError, BackendInfo, BackendOptions, CountEnd,
    CountReport, Counter, Found, Promise, Registry, SearchCounter, SolveReport, Solver, Stats,
    Status,
};
use zeroone::harness::record::read_records;
use zeroone::harness::source::load_instances;
use zeroone::harness::{run_experiment, Experiment, RunOptions};
use zeroone::model::verify::Verifier;
use zeroone::model::{Model, Solution};

/// Walks every 0-1 assignment of the model's free variables (after its givens, see
/// `Model::reduce`) in binary order and asks the shared verifier about each: an exhaustive (so
/// complete) method for models of at most [`MAX_VARIABLES`] free variables.
struct Walk;

const MAX_VARIABLES: usize = 16;

impl Walk {
    /// Every solution of `model` in walk order, up to `limit`, counting the assignments tried
    /// in `stats.steps` (the counter the registry entry names) and in `extra.walks`.
    fn walk(
        model: &Model,
        limit: Option<u64>,
    ) -> Result<(Vec<Solution>, bool, Stats), BackendError> {
        let reduction = model.reduce();
        let n = reduction.model.num_variables();
        if n > MAX_VARIABLES {
            return Err(BackendError::TooLarge {
                backend: "walk".into(),
                reason: format!("{n} free variables; walk takes at most {MAX_VARIABLES}"),
            });
        }
        let verifier = Verifier::new(&reduction.model);
        let mut stats = Stats::default();
        let mut found = Vec::new();
        let walks = if reduction.infeasible { 0 } else { 1u32 << n };
        for x in 0u32..walks {
            stats.steps += 1;
            let candidate = Solution {
                ones: (0..n).filter(|&i| x >> i & 1 == 1).collect(),
            };
            if verifier.accepts(&candidate) {
                found.push(reduction.lift(&candidate));
                if limit.is_some_and(|l| found.len() as u64 >= l) {
                    stats.extra.insert("walks".into(), 1.into());
                    return Ok((found, false, stats));
                }
            }
        }
        stats.extra.insert("walks".into(), 1.into());
        Ok((found, true, stats))
    }
}

impl Solver for Walk {
    fn solve(&mut self, model: &Model) -> Result<SolveReport, BackendError> {
        let (mut found, _, stats) = Walk::walk(model, Some(1))?;
        Ok(SolveReport {
            found: found.pop().map_or(Found::Infeasible, Found::Solution),
            stats,
        })
    }
}

impl Counter for Walk {
    fn count(&mut self, model: &Model, limit: Option<u64>) -> Result<CountReport, BackendError> {
        let (found, complete, stats) = Walk::walk(model, limit)?;
        Ok(CountReport {
            count: (found.len() as u128).into(),
            end: if complete {
                CountEnd::Complete
            } else {
                CountEnd::AtLimit
            },
            witnesses: found.into_iter().take(4).collect(),
            stats,
        })
    }
}

impl Backend for Walk {
    fn name(&self) -> &'static str {
        "walk"
    }
    fn solver(&mut self) -> Option<&mut dyn Solver> {
        Some(self)
    }
    fn counter(&mut self) -> Option<&mut dyn Counter> {
        Some(self)
    }
    fn rows_supported(&self, _model: &Model) -> Result<(), zeroone::backend::RowRefusal> {
        Ok(())
    }
}

/// The one registry line.
const WALK: BackendInfo = BackendInfo {
    name: "walk",
    about: "every 0-1 assignment in binary order, each checked by the verifier (a test's toy)",
    make: |_| Ok(Box::new(Walk)),
    params: &[],
    uses_time_limit: false,
    uses_seed: false,
    counters: &[(SearchCounter::Steps, "assignments walked")],
    promises: &[Promise {
        max_free: MAX_VARIABLES,
        ..Promise::EXACT
    }],
};

fn models(dir: &Path, registry: &Registry) -> Vec<Model> {
    let path = experiment_file(dir, "");
    let experiment = Experiment::load_with(&path, registry).unwrap();
    load_instances(&experiment.sources)
        .unwrap()
        .into_iter()
        .map(|i| i.puzzle.as_ref().unwrap().to_model(&i.id).unwrap())
        .collect()
}

fn experiment_file(dir: &Path, head: &str) -> PathBuf {
    let path = dir.join("walk.toml");
    let text = format!(
        "{head}baseline = \"brute\"\n[[instances]]\ngenerate = \"queens-bare\"\nsizes = [1, 2, 3, 4]\n[[backends]]\nname = \"walk\"\n[[backends]]\nname = \"brute\"\n"
    );
    std::fs::write(&path, text).unwrap();
    path
}

/// The toy backend's one registry line brings it into the shared conformance suite, with
/// nothing in `conformance.rs` naming it.
#[test]
fn a_toy_backend_added_to_a_registry_runs_the_conformance_suite() {
    let registry = Registry::builtin().with(WALK);
    let ran = crate::conformance::conformance_of(&registry, &WALK);
    // Every case within 16 free variables: 9 of the 12 (not hex-5, queens-5, the empty 4x4
    // Sudoku).
    let within = (crate::conformance::cases().iter())
        .filter(|(m, _)| m.reduce().model.num_variables() <= MAX_VARIABLES)
        .count();
    assert_eq!((ran, within), (9, 9));
}

#[test]
fn a_toy_backend_added_to_a_registry_solves_counts_and_runs_in_the_harness() {
    let registry = Registry::builtin().with(WALK);
    assert!(!registry.is_builtin("walk") && registry.is_builtin("brute"));
    // Only the registry value knows it.
    let unknown = Registry::builtin().make("walk", &BackendOptions::default());
    assert!(matches!(unknown, Err(BackendError::UnknownBackend { .. })));

    let dir = tempfile::tempdir().unwrap();
    let options = BackendOptions::default();
    let mut brute = registry.make("brute", &options).unwrap();
    for model in models(dir.path(), &registry) {
        let mut walk = registry.make("walk", &options).unwrap();
        let solved = solve_verified(walk.as_mut(), &model).unwrap();
        let reference = solve_verified(brute.as_mut(), &model).unwrap();
        assert_eq!(solved.status, reference.status, "{}", model.name());
        assert!(solved.verified || solved.status == Status::Infeasible);
        let counted = count_verified(walk.as_mut(), &model, None).unwrap();
        let reference = count_verified(brute.as_mut(), &model, None).unwrap();
        assert_eq!(
            (counted.status, counted.count),
            (reference.status, reference.count),
            "{}",
            model.name()
        );
        let reduced = model.reduce();
        let walked = if reduced.infeasible {
            0
        } else {
            1 << reduced.model.num_variables()
        };
        assert_eq!(counted.stats.steps, walked, "{}", model.name());
    }
    // An option the entry does not declare is refused through the registry, as for any backend.
    let seeded = BackendOptions {
        params: [("order".to_string(), "x".to_string())].into(),
        ..BackendOptions::default()
    };
    assert!(matches!(
        registry.make("walk", &seeded),
        Err(BackendError::UnknownOption { .. })
    ));

    // A harness run: walk runs in this process (no worker knows it), brute in workers.
    let path = experiment_file(dir.path(), "");
    let experiment = Experiment::load_with(&path, &registry).unwrap();
    assert!(
        Experiment::load(&path).is_err(),
        "the binary's registry has no walk"
    );
    let mut run = RunOptions::new(dir.path().join("reports"));
    run.jobs = Some(2);
    run.worker_exe = Some(PathBuf::from(env!("CARGO_BIN_EXE_zeroone")));
    run.registry = registry.clone();
    let summary = run_experiment(&experiment, &run).unwrap();
    assert_eq!(summary.ran, 8);
    let (records, _) = read_records(&summary.records, false).unwrap();
    for r in records.iter().filter(|r| r.backend == "walk") {
        let brute = records
            .iter()
            .find(|b| b.backend == "brute" && b.instance == r.instance)
            .unwrap();
        assert_eq!(r.status, brute.status, "{}", r.instance);
        assert_eq!(r.verified, brute.verified, "{}", r.instance);
        assert_eq!(
            r.counters,
            Some(vec![(
                SearchCounter::Steps,
                "assignments walked".to_string()
            )])
        );
    }
    let md = std::fs::read_to_string(dir.path().join("reports/walk.md")).unwrap();
    assert!(
        md.contains("| `walk` | assignments walked | median "),
        "the counter is named as the entry names it: {md}"
    );
    assert!(
        md.contains("| `walk` | walks | median 1, max 1 over 4 runs |"),
        "{md}"
    );
    assert!(
        md.contains("| `brute` | assignments tried | median "),
        "{md}"
    );
    let csv = std::fs::read_to_string(dir.path().join("reports/walk.csv")).unwrap();
    assert!(
        csv.lines()
            .next()
            .unwrap()
            .contains("walk.assignments_walked"),
        "{csv}"
    );

    // A limit walk could not honour in this process is refused before anything runs.
    let limited = experiment_file(dir.path(), "time_limit = 5\n");
    let experiment = Experiment::load_with(&limited, &registry).unwrap();
    run.fresh = true;
    let refused = run_experiment(&experiment, &run).unwrap_err();
    assert!(refused.is_bad_input(), "{refused}");
    assert!(
        refused
            .to_string()
            .contains("backend 'walk' is not built into zeroone"),
        "{refused}"
    );
}
