//! Tests of the enumerator: counts against the other backends and known sequences, orders,
//! families and threads.

use super::backend::EnumBackend;
use super::enumerator::Enumerator;
use super::{EnumSettings, Order};
use crate::backend::{BackendError, BackendOptions};
use crate::model::{Model, Sense};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use crate::model::PuzzleKind;
use crate::puzzle::{HexBoard, QueensBoard, Sudoku};

fn count_with(model: &Model, families: &[&str], order: Order, parallel: bool) -> u128 {
    let settings = EnumSettings {
        families: Some(families.iter().map(|s| s.to_string()).collect()),
        order,
        parallel,
        ..EnumSettings::default()
    };
    Enumerator::new(model, &settings).unwrap().count(None).0
}

#[test]
fn width_nine_levels_match_the_seed() {
    let m = HexBoard::geometry(9).unwrap().to_model("w9");
    assert_eq!(count_with(&m, &["row"], Order::Fixed, true), 25_401_600);
    for order in [Order::Fixed, Order::Mrv] {
        for parallel in [false, true] {
            assert_eq!(count_with(&m, &["row", "diag"], order, parallel), 25_231);
            assert_eq!(
                count_with(&m, &["row", "diag", "anti"], order, parallel),
                244
            );
        }
    }
}

#[test]
fn queens_without_touching_match_a002464() {
    // Hertzsprung's problem, OEIS A002464, n = 1..8.
    let expected = [1u128, 0, 0, 2, 14, 90, 646, 5242];
    for (n, &want) in (1..=8).zip(&expected) {
        let m = QueensBoard::bare(n).to_model("q");
        for order in [Order::Fixed, Order::Mrv] {
            assert_eq!(
                count_with(&m, &["row", "column", "touch"], order, n % 2 == 0),
                want,
                "n = {n}"
            );
        }
    }
}

#[test]
fn streaming_stops_when_asked_and_solutions_verify() {
    let m = HexBoard::geometry(7).unwrap().to_model("w7");
    let e = Enumerator::new(&m, &EnumSettings::default()).unwrap();
    let verifier = crate::model::verify::Verifier::new(&m);
    let mut seen = 0;
    let summary = e.for_each_solution(|s| {
        verifier.check(s).unwrap();
        seen += 1;
        if seen == 3 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!(seen, 3);
    assert!(!summary.finished);
    let (all, _, full) = e.count(None);
    assert!(full.finished);
    assert!(all > 3);
    assert_eq!(
        full.stats.nodes_per_depth.iter().sum::<u64>(),
        full.stats.nodes
    );
}

#[test]
fn sudoku_with_givens_is_solved_by_both_orders() {
    // A 4x4 grid with one solution.
    let line = "1...3..2.3..2..4";
    let cells = line
        .chars()
        .map(|c| crate::puzzle::kinds::sudoku::digit_of(c, 4))
        .collect();
    let m = Sudoku::from_cells(2, cells).unwrap().to_model("s").unwrap();
    for order in [Order::Fixed, Order::Mrv] {
        let settings = EnumSettings {
            order,
            ..EnumSettings::default()
        };
        let e = Enumerator::new(&m, &settings).unwrap();
        assert_eq!(e.coordinate(), Some("cell"));
        let (count, witnesses, _) = e.count(None);
        assert_eq!(count, 1, "{order:?}");
        crate::model::verify::Verifier::new(&m)
            .check(&witnesses[0])
            .unwrap();
        let empty = Sudoku::empty(2).to_model("empty").unwrap();
        let e = Enumerator::new(&empty, &settings).unwrap();
        assert_eq!(e.count(None).0, 288, "{order:?}");
    }
}

#[test]
fn variables_outside_exactly_one_rows_are_chosen_in_and_out() {
    use crate::model::{Coord, ModelBuilder, PuzzleKind};
    // x0 + x1 = 1, x1 + x2 <= 1, x3 unconstrained: {x0}, {x0,x2}, {x1}, each with or
    // without x3: 6 solutions.
    let mut b = ModelBuilder::new("free", PuzzleKind::Generic);
    for i in 0..4 {
        b.variable(format!("x{i}"), Coord::Free);
    }
    let f = b.family("one");
    b.row(f, vec![0, 1], Sense::ExactlyOne);
    let g = b.family("most");
    b.row(g, vec![1, 2], Sense::AtMostOne);
    let m = b.build().unwrap();
    for order in [Order::Fixed, Order::Mrv] {
        let settings = EnumSettings {
            order,
            ..EnumSettings::default()
        };
        let (count, witnesses, _) = Enumerator::new(&m, &settings).unwrap().count(None);
        assert_eq!(count, 6);
        assert_eq!(witnesses.len(), 6);
    }
}

#[test]
fn time_limit_stops_a_long_count() {
    let m = HexBoard::geometry(19).unwrap().to_model("w19");
    let settings = EnumSettings {
        time_limit: Some(Duration::from_millis(50)),
        families: Some(vec!["row".into(), "diag".into()]),
        parallel: true,
        ..EnumSettings::default()
    };
    let (_, _, summary) = Enumerator::new(&m, &settings).unwrap().count(None);
    assert!(!summary.finished);
    assert!(summary.timed_out);
}

/// `pigeons` pigeons in `holes` holes, each pigeon in exactly one hole, each hole holding
/// at most one: no solution when pigeons > holes, and a search tree of about
/// holes! / (holes - pigeons + 1)! leaves to learn it.
fn pigeonhole(pigeons: usize, holes: usize) -> Model {
    let var = |p: usize, h: usize| format!("\"p{p}h{h}\"");
    let vars: Vec<String> = (0..pigeons)
        .flat_map(|p| (0..holes).map(move |h| var(p, h)))
        .collect();
    let rows = |outer: usize, inner: usize, name: &dyn Fn(usize, usize) -> String| {
        (0..outer)
            .map(|o| {
                let r: Vec<String> = (0..inner).map(|i| name(o, i)).collect();
                format!("[{}]", r.join(","))
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    let text = format!(
        r#"{{"variables": [{}], "families": [
            {{"name": "pigeon", "sense": "exactly-one", "rows": [{}]}},
            {{"name": "hole", "sense": "at-most-one", "rows": [{}]}}]}}"#,
        vars.join(","),
        rows(pigeons, holes, &|p, h| var(p, h)),
        rows(holes, pigeons, &|h, p| var(p, h)),
    );
    zeroone_model::read::generic::parse_json(&text).unwrap()
}

#[test]
fn a_parallel_count_spends_one_time_limit_not_two() {
    // The witness pass finds nothing before the deadline (there is no solution), so
    // before the fix it spent the whole limit and the parallel count then got a fresh one.
    let m = pigeonhole(13, 12);
    let limit = Duration::from_millis(500);
    let settings = EnumSettings {
        time_limit: Some(limit),
        parallel: true,
        ..EnumSettings::default()
    };
    let start = Instant::now();
    let (count, _, summary) = Enumerator::new(&m, &settings).unwrap().count(None);
    let took = start.elapsed();
    assert_eq!(count, 0);
    assert!(summary.timed_out && !summary.finished);
    assert!(took < limit * 17 / 10, "a limit of {limit:?} took {took:?}");
}

#[test]
fn bad_options_are_refused() {
    let mut o = BackendOptions::default();
    o.params.insert("order".into(), "random".into());
    assert!(matches!(
        EnumBackend::new(&o),
        Err(BackendError::BadOption { .. })
    ));
    let m = HexBoard::geometry(3).unwrap().to_model("w3");
    let settings = EnumSettings {
        families: Some(vec!["colour".into()]),
        ..EnumSettings::default()
    };
    assert!(Enumerator::new(&m, &settings).is_err());
}

/// `n x n` 0-1 matrices with every row and column sum in `sense`.
fn matrices(n: usize, sense: Sense) -> Model {
    use crate::model::{Coord, ModelBuilder};
    let mut b = ModelBuilder::new("m", PuzzleKind::Generic);
    for i in 0..n * n {
        b.variable(format!("x{i}"), Coord::Free);
    }
    let (row, column) = (b.family("row"), b.family("column"));
    for i in 0..n {
        b.row(row, (0..n).map(|j| i * n + j).collect(), sense);
        b.row(column, (0..n).map(|j| j * n + i).collect(), sense);
    }
    b.build().unwrap()
}

fn count_all(model: &Model, order: Order, parallel: bool) -> u128 {
    let settings = EnumSettings {
        order,
        parallel,
        ..EnumSettings::default()
    };
    let (count, witnesses, summary) = Enumerator::new(model, &settings).unwrap().count(None);
    assert!(summary.finished);
    let verifier = crate::model::verify::Verifier::new(model);
    for w in &witnesses {
        verifier.check(w).unwrap();
    }
    count
}

#[test]
fn general_rows_are_running_sums_a001499_and_a048291() {
    for (n, want) in [(3, 6u128), (4, 90), (5, 2040), (6, 67950)] {
        let m = matrices(n, Sense::Exactly(2));
        for order in [Order::Fixed, Order::Mrv] {
            assert_eq!(count_all(&m, order, n % 2 == 0), want, "n = {n} {order:?}");
        }
    }
    for (n, want) in [(2, 7u128), (3, 265), (4, 41503)] {
        assert_eq!(
            count_all(&matrices(n, Sense::AtLeast(1)), Order::Fixed, false),
            want
        );
    }
}

#[test]
fn general_rows_next_to_a_coordinate_family_prune_and_count() {
    use crate::model::{Coord, ModelBuilder};
    // n x n permutation matrices (cell rows "exactly one" as coordinates, columns too)
    // whose ones, weighted by column + 1, sum to exactly `target` over the first two rows:
    // counted against a plain walk over the permutations.
    let n = 6;
    let target = 7;
    let mut b = ModelBuilder::new("p", PuzzleKind::Generic);
    for i in 0..n * n {
        b.variable(format!("x{i}"), Coord::Free);
    }
    let (row, column, sum) = (b.family("row"), b.family("column"), b.family("sum"));
    for i in 0..n {
        b.row(row, (0..n).map(|j| i * n + j).collect(), Sense::ExactlyOne);
        b.row(
            column,
            (0..n).map(|j| j * n + i).collect(),
            Sense::ExactlyOne,
        );
    }
    let vars: Vec<usize> = (0..2 * n).collect();
    let weights: Vec<u64> = (0..2 * n).map(|v| (v % n) as u64 + 1).collect();
    b.weighted_row(sum, vars, weights, Sense::Exactly(target));
    let m = b.build().unwrap();
    // Pairs of distinct columns (a, b) with a + b + 2 = target, times 4! for the rest.
    let pairs = (0..n)
        .flat_map(|a| (0..n).map(move |b| (a, b)))
        .filter(|&(a, b)| a != b && (a + b + 2) as u64 == target)
        .count() as u128;
    assert_eq!(pairs, 6);
    let settings = EnumSettings {
        coordinate: Some("row".into()),
        ..EnumSettings::default()
    };
    let e = Enumerator::new(&m, &settings).unwrap();
    assert_eq!(e.count(None).0, pairs * 24);
    assert_eq!(count_all(&m, Order::Mrv, false), pairs * 24);
}

#[test]
fn a_row_past_reach_is_pruned_before_its_lines_are_walked() {
    // Rows and columns "= 2" of a 6x6 matrix plus "at least 3" over the first row: dead
    // once the first row's six variables are decided (2 < 3 and nothing left to gain), so
    // the pruning must stop there instead of walking the 67,950 matrices below.
    let m = matrices(6, Sense::Exactly(2));
    let m = {
        use crate::model::{Coord, ModelBuilder};
        let mut b = ModelBuilder::new("m", PuzzleKind::Generic);
        for i in 0..36 {
            b.variable(format!("x{i}"), Coord::Free);
        }
        let f = b.family("all");
        for c in m.constraints() {
            b.row(f, c.vars.clone(), c.sense);
        }
        b.row(f, (0..6).collect(), Sense::AtLeast(3));
        b.build().unwrap()
    };
    let (count, _, summary) = Enumerator::new(&m, &EnumSettings::default())
        .unwrap()
        .count(None);
    assert_eq!(count, 0);
    assert!(summary.stats.nodes < 200, "{} nodes", summary.stats.nodes);
}

#[test]
fn free_variables_are_walked_without_recursing_once_per_variable() {
    // 20,000 variables in no "exactly one" row (one `>= 1` row over the first): the free
    // phase once recursed per variable and overflowed the stack (issue 35). Run on a thread
    // with a small stack, so a walk whose depth follows the variables fails here too.
    use crate::model::{Coord, ModelBuilder};
    let n = 20_000;
    let mut b = ModelBuilder::new("free", PuzzleKind::Generic);
    for i in 0..n {
        b.variable(format!("x{i}"), Coord::Free);
    }
    let f = b.family("clause");
    b.row(f, vec![0, 1], Sense::AtLeast(1));
    let m = b.build().unwrap();
    let found = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || {
            let e = Enumerator::new(&m, &EnumSettings::default()).unwrap();
            let (first, _) = e.first();
            let first = first.expect("a solution");
            crate::model::verify::Verifier::new(&m)
                .check(&first)
                .unwrap();
            // Counting walks every subset: stop after a few thousand.
            let (count, witnesses, _) = e.count(Some(5_000));
            (count, witnesses.len())
        })
        .unwrap()
        .join()
        .expect("the walk must not overflow its stack");
    assert_eq!(found.0, 5_000);
    assert!(found.1 > 0);
}

#[test]
fn thousands_of_branching_rows_are_walked_without_recursing_once_per_row() {
    // Disjoint "exactly one" pairs: the branching phase once recursed per row and overflowed
    // the stack at 4,000 rows (issue 35). Both orders (MRV scans every row per node, so on
    // fewer rows), on a thread with a small stack.
    use crate::model::{Coord, ModelBuilder};
    let model = |pairs: usize| {
        let mut b = ModelBuilder::new("pairs", PuzzleKind::Generic);
        for i in 0..2 * pairs {
            b.variable(format!("x{i}"), Coord::Free);
        }
        let f = b.family("pair");
        for i in 0..pairs {
            b.row(f, vec![2 * i, 2 * i + 1], Sense::ExactlyOne);
        }
        b.build().unwrap()
    };
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || {
            for (order, pairs) in [(Order::Fixed, 4_000), (Order::Mrv, 1_000)] {
                let m = model(pairs);
                let settings = EnumSettings {
                    order,
                    ..EnumSettings::default()
                };
                let e = Enumerator::new(&m, &settings).unwrap();
                let first = e.first().0.expect("a solution");
                crate::model::verify::Verifier::new(&m)
                    .check(&first)
                    .unwrap();
                let (count, witnesses, _) = e.count(Some(100));
                assert_eq!(count, 100);
                assert!(witnesses.len() > 1);
            }
        })
        .unwrap()
        .join()
        .expect("the walk must not overflow its stack");
}

/// A maximising 0-1 knapsack with `rows` capacity rows over `items` items (weights and values
/// from a fixed xorshift stream, each capacity half its row's weight): no "exactly one" row,
/// so the enumerator spends it all in its free phase, leaving items out and pruning by bound.
fn packing_knapsack(items: usize, rows: usize) -> Model {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |below: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        1 + state % below
    };
    let names: Vec<String> = (0..items).map(|i| format!("\"i{i}\"")).collect();
    let weights: Vec<Vec<u64>> = (0..rows)
        .map(|_| (0..items).map(|_| next(20)).collect())
        .collect();
    let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
    let all = format!("[{}]", names.join(","));
    let costs: Vec<String> = names.iter().map(|n| format!("{n}: {}", next(50))).collect();
    let text = format!(
        r#"{{"variables": {all}, "families": [{{"name": "capacity", "sense": "at-most",
            "rhs": [{}], "rows": [{}], "weights": [{}]}}],
            "objective": {{"sense": "maximize", "costs": {{{}}}}}}}"#,
        list(
            &weights
                .iter()
                .map(|w| w.iter().sum::<u64>() / 2)
                .collect::<Vec<_>>()
        ),
        vec![all.clone(); rows].join(","),
        weights
            .iter()
            .map(|w| format!("[{}]", list(w)))
            .collect::<Vec<_>>()
            .join(","),
        costs.join(","),
    );
    zeroone_model::read::generic::parse_json(&text).unwrap()
}

#[test]
fn an_optimisation_in_the_free_phase_stops_at_its_time_limit() {
    // Before the free phase read the clock by its steps, only items put in counted towards a
    // clock read (every 4,096), each after many steps of bound pruning, and a knapsack ran
    // on far past its limit.
    use crate::backend::Optimizer;
    let model = packing_knapsack(400, 10);
    let limit = Duration::from_millis(100);
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let options = BackendOptions {
            time_limit: Some(limit),
            ..BackendOptions::default()
        };
        let report = EnumBackend::new(&options).unwrap().optimize(&model);
        let _ = send.send(report);
    });
    let start = Instant::now();
    let report = receive
        .recv_timeout(Duration::from_secs(20))
        .expect("a 100 ms limit still running after 20 s")
        .unwrap();
    let took = start.elapsed();
    assert!(
        !report.proved,
        "a 400-item knapsack proved in 100 ms: {report:?}"
    );
    // Measured in a debug build: 0.12-0.13 s with the clock read every 256 free steps, 4.6 s
    // without (400 items; 2.3 s at 200).
    assert!(
        took < Duration::from_secs(2),
        "a 100 ms limit took {took:?}"
    );
}
