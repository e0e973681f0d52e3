//! The solution-improving search against brute force (random small models with negative and
//! large costs), on objectives past the old 512-term cap (against a closed form), and its
//! bound at a stop.

use super::improve::{gte_estimate, objective_encoding};
use super::*;
use crate::backend::stop::{with_stop_flag, StopFlag};
use crate::backend::{solve_verified, Optimizer, Status};
use crate::model::{Coord, ModelBuilder, ObjectiveSense, PuzzleKind, Sense};

/// A small deterministic stream (xorshift64*), so the random models are the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random model of 3 to 10 variables: one to three rows (cardinality or weighted, each
/// sense), sometimes a given, and an objective mixing small, negative and large costs (up to
/// 2^50 in absolute value), minimised or maximised.
fn random_model(rng: &mut Rng) -> Option<Model> {
    let n = 3 + rng.below(8) as usize;
    let mut b = ModelBuilder::new("random", PuzzleKind::Generic);
    let x: Vec<usize> = (0..n)
        .map(|i| b.variable(format!("x{i}"), Coord::Free))
        .collect();
    let f = b.family("rows");
    for _ in 0..1 + rng.below(3) {
        let vars: Vec<usize> = x.iter().copied().filter(|_| rng.below(3) > 0).collect();
        if vars.is_empty() {
            continue;
        }
        let weighted = rng.below(2) == 0;
        let weights: Vec<u64> = vars
            .iter()
            .map(|_| if weighted { 1 + rng.below(9) } else { 1 })
            .collect();
        let total: u64 = weights.iter().sum();
        let k = rng.below(total + 1);
        let sense = match rng.below(3) {
            0 => Sense::AtMost(k),
            1 => Sense::AtLeast(k),
            _ => Sense::Exactly(k),
        };
        if weighted {
            b.weighted_row(f, vars, weights, sense);
        } else {
            b.row(f, vars, sense);
        }
    }
    if rng.below(4) == 0 {
        b.given(x[rng.below(n as u64) as usize]);
    }
    let terms = x
        .iter()
        .map(|&v| {
            let magnitude = match rng.below(3) {
                0 => rng.below(10) as i64,
                1 => rng.below(1000) as i64,
                _ => (rng.below(1 << 20) as i64) << 30,
            };
            (
                v,
                if rng.below(2) == 0 {
                    magnitude
                } else {
                    -magnitude
                },
            )
        })
        .collect();
    let sense = if rng.below(2) == 0 {
        ObjectiveSense::Minimize
    } else {
        ObjectiveSense::Maximize
    };
    b.objective(sense, terms);
    b.build().ok() // `None` where a given overfills a row
}

/// The optimum of `model` by trying every assignment (`None`: infeasible).
fn brute_optimum(model: &Model) -> Option<i128> {
    let n = model.num_variables();
    let objective = model.objective().unwrap();
    let mut best: Option<i128> = None;
    for bits in 0u32..1 << n {
        let one = |v: usize| bits >> v & 1 == 1;
        if !model.givens().iter().all(|&g| one(g)) {
            continue;
        }
        let feasible = model.constraints().iter().all(|c| {
            let sum: u64 = c.terms().filter(|&(v, _)| one(v)).map(|(_, w)| w).sum();
            c.sense.holds(sum)
        });
        if !feasible {
            continue;
        }
        let value: i128 = (0..n)
            .filter(|&v| one(v))
            .map(|v| i128::from(objective.cost(v)))
            .sum();
        let better = match (best, objective.is_maximize()) {
            (None, _) => true,
            (Some(b), true) => value > b,
            (Some(b), false) => value < b,
        };
        if better {
            best = Some(value);
        }
    }
    best
}

fn sat_with(params: &[(&str, &str)]) -> Sat {
    let mut o = BackendOptions::default();
    for (k, v) in params {
        o.params.insert(k.to_string(), v.to_string());
    }
    Sat::new(&o).unwrap()
}

#[test]
fn optimises_random_models_as_brute_force_does_with_every_setting() {
    let settings: [&[(&str, &str)]; 4] = [
        &[],
        &[("bound-fixing", "false")],
        &[("pb-encoding", "dpw")],
        &[("pb-encoding", "dpw"), ("bound-fixing", "false")],
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut built = 0;
    for case in 0..80 {
        let Some(model) = random_model(&mut rng) else {
            continue;
        };
        built += 1;
        let expected = brute_optimum(&model);
        for params in settings {
            let out = solve_verified(&mut sat_with(params), &model).unwrap();
            match expected {
                Some(value) => {
                    assert_eq!(out.status, Status::Optimal, "case {case} {params:?}");
                    assert_eq!(out.objective, Some(value), "case {case} {params:?}");
                    assert_eq!(out.bound, Some(value), "case {case} {params:?}");
                }
                None => assert_eq!(out.status, Status::Infeasible, "case {case} {params:?}"),
            }
        }
    }
    assert!(built >= 60, "{built} models built");
}

/// `pairs` pairs of variables, exactly one of each pair chosen, and (when `at_least` is
/// given) at least that many second members (a cardinality row); costs drawn from `costs`.
/// Returns the model and its optimum by a closed form: every pair's cheaper member, then the
/// cheapest swaps to second members until `at_least` are chosen.
fn pairs_model(
    pairs: usize,
    at_least: Option<usize>,
    costs: std::ops::RangeInclusive<i64>,
    rng: &mut Rng,
) -> (Model, i128) {
    let mut b = ModelBuilder::new("pairs", PuzzleKind::Generic);
    let mut terms = Vec::new();
    let mut seconds = Vec::new();
    let mut base = 0i128;
    let mut swaps = Vec::new();
    let f = b.family("pair");
    let span = (costs.end() - costs.start() + 1) as u64;
    for i in 0..pairs {
        let first = b.variable(format!("a{i}"), Coord::Free);
        let second = b.variable(format!("b{i}"), Coord::Free);
        b.row(f, vec![first, second], Sense::ExactlyOne);
        let (ca, cb) = (
            costs.start() + rng.below(span) as i64,
            costs.start() + rng.below(span) as i64,
        );
        terms.push((first, ca));
        terms.push((second, cb));
        seconds.push(second);
        base += i128::from(ca);
        swaps.push(i128::from(cb) - i128::from(ca));
    }
    let at_least = at_least.unwrap_or(0);
    if at_least > 0 {
        let g = b.family("seconds");
        b.row(g, seconds, Sense::AtLeast(at_least as u64));
    }
    b.objective(ObjectiveSense::Minimize, terms);
    swaps.sort();
    let taken: i128 = (swaps.iter().enumerate())
        .filter(|&(i, &d)| i < at_least || d < 0)
        .map(|(_, &d)| d)
        .sum();
    (b.build().unwrap(), base + taken)
}

#[test]
fn optimises_an_objective_of_600_terms_to_its_closed_form() {
    // Today's cap refused this (512 terms at most). Costs -100..100: past the GTE budget
    // (about 10^8 clauses), so the objective goes to DPW.
    let mut rng = Rng(7);
    let (model, optimum) = pairs_model(300, None, -100..=100, &mut rng);
    let objective = model.objective().unwrap();
    let costs: Vec<(usize, i64)> = (0..model.num_variables())
        .map(|v| (v, objective.cost(v)))
        .collect();
    assert_eq!(objective_encoding(&costs, PbEncoding::Gte), PbEncoding::Dpw);
    let out = solve_verified(&mut sat_with(&[]), &model).unwrap();
    assert_eq!(out.status, Status::Optimal, "{:?}", out.reason);
    assert_eq!(out.objective, Some(optimum));
}

#[test]
fn small_objectives_keep_gte_and_the_estimate_counts_a_tree() {
    // Four terms of weight 1, counted with the empty sum: 2 sums per leaf, 3 per pair; 3 * 3
    // clauses at the root, 2 * 2 at each pair.
    assert_eq!(gte_estimate(&[1, 1, 1, 1]), 9 + 2 * 4);
    // The committed optimisation experiment's largest objective: 120 terms of costs 1..50.
    let costs: Vec<(usize, i64)> = (0..120).map(|v| (v, 1 + (v as i64 % 50))).collect();
    assert_eq!(objective_encoding(&costs, PbEncoding::Gte), PbEncoding::Gte);
    assert_eq!(
        objective_encoding(&costs, PbEncoding::Adder),
        PbEncoding::Adder
    );
}

#[test]
fn refuses_only_costs_whose_total_passes_the_encodings_weight_type() {
    // 1,100 costs of 2^53 sum past isize::MAX: unsupported, with the reason.
    let mut b = ModelBuilder::new("huge", PuzzleKind::Generic);
    let x: Vec<usize> = (0..1100)
        .map(|i| b.variable(format!("x{i}"), Coord::Free))
        .collect();
    let f = b.family("one");
    b.row(f, x.clone(), Sense::AtLeast(1));
    b.objective(
        ObjectiveSense::Minimize,
        x.iter().map(|&v| (v, 1i64 << 53)).collect(),
    );
    let model = b.build().unwrap();
    let out = solve_verified(&mut sat_with(&[("bound-fixing", "false")]), &model).unwrap();
    assert_eq!(out.status, Status::Unsupported, "{:?}", out.reason);
    assert!(out.reason.unwrap().contains("sum to"));
}

#[test]
fn a_stopped_search_reports_a_proved_bound_with_or_without_fixing() {
    let mut rng = Rng(11);
    let (model, optimum) = pairs_model(40, Some(25), -100..=100, &mut rng);
    for params in [&[][..], &[("bound-fixing", "false")][..]] {
        let flag = StopFlag::new();
        flag.raise();
        let mut o = BackendOptions {
            time_limit: Some(Duration::from_secs(3600)),
            ..BackendOptions::default()
        };
        for (k, v) in params {
            o.params.insert(k.to_string(), v.to_string());
        }
        let mut sat = Sat::new(&o).unwrap();
        let report = with_stop_flag(&flag, || sat.optimize(&model)).unwrap();
        assert_eq!(report.found, Found::TimedOut, "{params:?}");
        let bound = report.bound.expect("a bound at a stop");
        assert!(bound <= optimum, "{params:?}: {bound} > {optimum}");
    }
}
