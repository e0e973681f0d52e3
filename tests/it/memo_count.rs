//! `xcc`'s memo engines (issue 41): counts equal to the enumerating engines' and to a brute
//! force on random exact-cover and XCC models, the published counts of the classic counting
//! families (`zeroone::puzzle::generate::counting`), a cache far smaller than the states
//! (flushed, same count), and honest refusals and stops.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use zeroone::backend::stop::{with_stop_flag, StopFlag};
use zeroone::backend::{
    count_verified, make_backend, solve_verified, BackendOptions, CountOutcome, Status,
    WITNESS_LIMIT,
};
use zeroone::model::verify::Verifier;
use zeroone::model::{Coord, Model, ModelBuilder, PuzzleKind, Sense};
use zeroone::puzzle::generate::counting::{
    latin_squares, perfect_matchings, set_partitions, steiner_triple_systems,
};
use zeroone::puzzle::generate::exact_cover::{langford, n_queens, pentominoes};
use zeroone::read::{read_str, xcc};

/// The count outcome of `model` by `backend` with `params`.
fn outcome(backend: &str, params: &[(&str, &str)], model: &Model) -> CountOutcome {
    let mut options = BackendOptions::default();
    for (k, v) in params {
        options.params.insert(k.to_string(), v.to_string());
    }
    let mut b = make_backend(backend, &options).unwrap();
    count_verified(b.as_mut(), model, None).unwrap()
}

/// The complete, verified count of `model` by `backend` with `params`.
fn count(backend: &str, params: &[(&str, &str)], model: &Model) -> u128 {
    let out = outcome(backend, params, model);
    assert_eq!(
        out.status,
        Status::Solved,
        "{backend} {params:?} on {}: {:?}",
        model.name(),
        out.reason
    );
    assert!(out.exhaustive);
    out.count.to_u128().unwrap()
}

/// The memo engines' counts of `model`, both branchings, checked equal and returned.
fn memo_count(model: &Model) -> u128 {
    let sweep = count("xcc", &[("engine", "memo-sweep")], model);
    let mrv = count("xcc", &[("engine", "memo-mrv")], model);
    let memo = count("xcc", &[("engine", "memo")], model);
    assert_eq!((sweep, mrv), (memo, memo), "{}", model.name());
    memo
}

/// A random model of exact-cover rows: up to 5 "exactly one" rows and up to 3 "at most one"
/// rows over up to 10 variables, some variables in no row, some only in "at most one" rows,
/// sometimes one given.
fn random_cover(seed: u64) -> Model {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = rng.gen_range(1..=10);
    let mut b = ModelBuilder::new(format!("random-{seed}"), PuzzleKind::Generic);
    for v in 0..n {
        b.variable(format!("x{v}"), Coord::Free);
    }
    let (one, most) = (b.family("one"), b.family("most"));
    for (family, sense, rows) in [
        (one, Sense::ExactlyOne, rng.gen_range(0..=5)),
        (most, Sense::AtMostOne, rng.gen_range(0..=3)),
    ] {
        for _ in 0..rows {
            let vars: Vec<usize> = (0..n).filter(|_| rng.gen_range(0..3) == 0).collect();
            if !vars.is_empty() {
                b.row(family, vars, sense);
            }
        }
    }
    let model = b.build().unwrap();
    if rng.gen_range(0..3) == 0 {
        let given = rng.gen_range(0..n);
        if let Ok(m) = model.with_givens(model.name(), vec![given]) {
            return m;
        }
    }
    model
}

/// A random XCC file without colours or multiplicities: up to 4 primary and 3 secondary
/// items, up to 12 options, some with no primary item (Knuth's programs never choose those).
fn random_xcc(seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (primaries, secondaries) = (rng.gen_range(1..=4), rng.gen_range(0..=3));
    let mut first: Vec<String> = (0..primaries).map(|p| format!("p{p}")).collect();
    if secondaries > 0 {
        first.push("|".into());
        first.extend((0..secondaries).map(|s| format!("s{s}")));
    }
    let mut text = format!("{}\n", first.join(" "));
    for _ in 0..rng.gen_range(1..=12) {
        let mut words: Vec<String> = (0..primaries)
            .filter(|_| rng.gen_range(0..3) == 0)
            .map(|p| format!("p{p}"))
            .collect();
        words.extend(
            (0..secondaries)
                .filter(|_| rng.gen_range(0..3) == 0)
                .map(|s| format!("s{s}")),
        );
        if words.is_empty() {
            words.push(format!("p{}", rng.gen_range(0..primaries)));
        }
        text.push_str(&words.join(" "));
        text.push('\n');
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Random exact-cover models (free variables, slack items, givens): the memo engines count
    /// what the brute force and the enumerating `xcc` engines count.
    #[test]
    fn random_exact_cover_counts_agree(seed in any::<u64>()) {
        let model = random_cover(seed);
        let brute = count("brute", &[], &model);
        prop_assert_eq!(count("xcc", &[], &model), brute);
        prop_assert_eq!(count("xcc", &[("engine", "counts")], &model), brute);
        prop_assert_eq!(memo_count(&model), brute);
    }

    /// Random XCC files (no colours, no multiplicities): the memo engines count as the brute
    /// force and `xcc`'s MRV engine do.
    #[test]
    fn random_xcc_counts_agree(seed in any::<u64>()) {
        let text = random_xcc(seed);
        let model = read_str(xcc::FORMAT, &text, "random").unwrap();
        let brute = count("brute", &[], &model);
        prop_assert_eq!(count("xcc", &[("engine", "counts")], &model), brute, "{}", text);
        prop_assert_eq!(memo_count(&model), brute, "{}", text);
    }
}

#[test]
fn the_classic_families_have_their_published_counts() {
    // OEIS A000110 (Bell), A001147 (double factorials), A002860 (Latin squares), A030128
    // (labelled Steiner triple systems); the enumerating engine agrees where it finishes fast.
    let bell = [1, 2, 5, 15, 52, 203, 877, 4140];
    for (n, &b) in (1..=8).zip(&bell) {
        let model = set_partitions(n).unwrap();
        assert_eq!(memo_count(&model), b, "Bell({n})");
        assert_eq!(count("xcc", &[], &model), b, "Bell({n}) by xcc");
    }
    let double_factorials = [1, 3, 15, 105, 945, 10395];
    for (m, &d) in (1..=6).zip(&double_factorials) {
        let model = perfect_matchings(m).unwrap();
        assert_eq!(memo_count(&model), d, "{}!!", 2 * m - 1);
        assert_eq!(count("xcc", &[], &model), d, "{}!! by xcc", 2 * m - 1);
    }
    for (n, l) in [(1, 1), (2, 2), (3, 12), (4, 576)] {
        let model = latin_squares(n).unwrap();
        assert_eq!(memo_count(&model), l, "Latin squares {n}");
        assert_eq!(count("xcc", &[], &model), l, "Latin squares {n} by xcc");
    }
    for (v, s) in [(3, 1), (7, 30), (9, 840), (5, 0)] {
        let model = steiner_triple_systems(v).unwrap();
        assert_eq!(memo_count(&model), s, "STS({v})");
        assert_eq!(count("xcc", &[], &model), s, "STS({v}) by xcc");
    }
    // Bigger terms, memo alone (the enumerating engines visit every solution).
    let model = set_partitions(12).unwrap();
    assert_eq!(count("xcc", &[("engine", "memo")], &model), 4_213_597);
    let model = perfect_matchings(9).unwrap();
    assert_eq!(count("xcc", &[("engine", "memo")], &model), 34_459_425);
}

#[test]
fn memo_sweep_reads_distinct_verified_witnesses_back_from_its_layers() {
    // Counted forwards by layers (nothing flushed, no fallback to the recursion), the
    // witnesses are rebuilt backwards: each a solution, no two alike, as many as asked for.
    let cases = [
        (latin_squares(4).unwrap(), 576),
        (n_queens(8), 92),
        (pentominoes(3, 20), 8),
        (steiner_triple_systems(7).unwrap(), 30),
    ];
    for (model, expected) in cases {
        let mut options = BackendOptions::default();
        options.params.insert("engine".into(), "memo-sweep".into());
        let mut xcc = make_backend("xcc", &options).unwrap();
        let report = xcc.counter().unwrap().count(&model, None).unwrap();
        assert_eq!(report.count.to_u128(), Some(expected), "{}", model.name());
        assert!(!report.stats.extra.contains_key("layers_full"));
        let want = WITNESS_LIMIT.min(expected as usize);
        assert_eq!(report.witnesses.len(), want, "{}", model.name());
        let verifier = Verifier::new(&model);
        for w in &report.witnesses {
            assert!(verifier.check(w).is_ok(), "{}: {w:?}", model.name());
        }
        let distinct: std::collections::HashSet<_> = report.witnesses.iter().collect();
        assert_eq!(distinct.len(), want, "{}", model.name());
    }
}

#[test]
fn puzzles_with_secondary_items_count_as_the_enumerating_engines_do() {
    for (model, expected) in [
        (n_queens(6), 4),
        (n_queens(8), 92),
        (langford(7), 52),
        (pentominoes(3, 20), 8),
    ] {
        assert_eq!(memo_count(&model), expected, "{}", model.name());
    }
}

#[test]
fn a_cache_far_smaller_than_the_states_is_flushed_and_the_count_stays_exact() {
    // 64 KiB holds 655 one-word states; the matchings of 18 points meet about 4,200.
    let model = perfect_matchings(9).unwrap();
    let out = outcome("xcc", &[("engine", "memo"), ("memo-cache", "64K")], &model);
    assert_eq!(
        (out.status, out.count.to_u128().unwrap()),
        (Status::Solved, 34_459_425)
    );
    let flushes = out.stats.extra["flushes"].as_u64().unwrap();
    assert!(flushes > 0, "{:?}", out.stats.extra);
    // memo-sweep's layers, which are never flushed, outgrew the cache first.
    assert_eq!(
        out.stats.extra["layers_full"], true,
        "{:?}",
        out.stats.extra
    );
    let mut options = BackendOptions::default();
    options.params.insert("memo-cache".into(), "1K".into());
    let refused = make_backend("xcc", &options).err().unwrap().to_string();
    assert!(refused.contains("memo-cache"), "{refused}");
}

#[test]
fn what_the_memo_engines_cannot_serve_is_refused_by_name() {
    let mut options = BackendOptions::default();
    options.params.insert("engine".into(), "memo".into());
    let mut xcc = make_backend("xcc", &options).unwrap();
    let solved = solve_verified(xcc.as_mut(), &n_queens(6)).unwrap();
    assert_eq!(solved.status, Status::Unsupported);
    assert!(solved.reason.unwrap().contains("counts only"));
    // A multiplicity (`= 2`) is not exact cover.
    let mut b = ModelBuilder::new("two", PuzzleKind::Generic);
    (0..3).for_each(|v| {
        b.variable(format!("x{v}"), Coord::Free);
    });
    let f = b.family("pick");
    b.row(f, vec![0, 1, 2], Sense::Exactly(2));
    let model = b.build().unwrap();
    let out = outcome("xcc", &[("engine", "memo")], &model);
    assert_eq!(out.status, Status::Unsupported);
    assert!(out.reason.unwrap().contains("multiplicities"));
    assert_eq!(count("xcc", &[("engine", "counts")], &model), 3);
}

#[test]
fn a_raised_stop_flag_ends_the_count_as_a_limit_with_nothing_claimed() {
    let flag = StopFlag::new();
    flag.raise();
    let model = set_partitions(10).unwrap();
    let out = with_stop_flag(&flag, || outcome("xcc", &[("engine", "memo")], &model));
    assert_eq!(
        (out.status, out.count.to_u128().unwrap()),
        (Status::Limit, 0)
    );
}

#[test]
fn a_count_limit_ends_at_the_limit() {
    let mut options = BackendOptions::default();
    options.params.insert("engine".into(), "memo".into());
    let mut xcc = make_backend("xcc", &options).unwrap();
    let out = count_verified(xcc.as_mut(), &set_partitions(6).unwrap(), Some(7)).unwrap();
    assert_eq!(
        (out.status, out.count.to_u128().unwrap(), out.exhaustive),
        (Status::Limit, 7, false)
    );
    assert!(out.verified);
}

#[test]
fn the_deepest_models_taken_are_counted_on_a_thread_of_the_default_stack() {
    // 1,024 items (the most the memo engines take), each covered by one option of its own
    // and one option shared with the next item: sweep recurses once per item. Rust's spawned
    // threads (`--jobs`, Python) have 2 MiB of stack; the count is Fibonacci(1,025).
    let n = 1024;
    let mut b = ModelBuilder::new("chain", PuzzleKind::Generic);
    for i in 0..2 * n - 1 {
        b.variable(format!("x{i}"), Coord::Free);
    }
    let f = b.family("item");
    for i in 0..n {
        // Variable 2i alone covers item i; variable 2i+1 covers items i and i+1.
        let mut vars = vec![2 * i];
        if i + 1 < n {
            vars.push(2 * i + 1);
        }
        if i > 0 {
            vars.push(2 * i - 1);
        }
        b.row(f, vars, Sense::ExactlyOne);
    }
    let model = b.build().unwrap();
    let counts = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            ["memo-sweep", "memo-mrv"].map(|engine| {
                let out = outcome("xcc", &[("engine", engine)], &model);
                (out.status, out.count, out.reason)
            })
        })
        .unwrap()
        .join()
        .expect("the count must not overflow its stack");
    // Fibonacci(1,025) is past 2^128: counted again in big integers, exactly.
    let (mut a, mut b) = (
        num_bigint::BigUint::from(1u8),
        num_bigint::BigUint::from(1u8),
    );
    for _ in 2..1025 {
        (a, b) = (b.clone(), a + b);
    }
    for (status, count, reason) in counts {
        assert_eq!(status, Status::Solved, "{reason:?}");
        assert_eq!(count.as_big(), &b);
    }
}
