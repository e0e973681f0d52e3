//! Knuth's exact-cover format read and solved as Knuth's programs do: random `.xcc` files
//! (options with no primary item, secondary items with colours, multiplicities) counted by an
//! independent brute-force counter written from Knuth's rules directly on the file's text, and
//! the counts of every engine that reads the model checked against it.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use zeroone::backend::{count_verified, make_backend, solutions_verified, BackendOptions, Status};
use zeroone::model::Model;
use zeroone::read::{read_str, xcc};

/// The number of solutions of the XCC `text` by Knuth's rules, tried on every set of options:
/// a set is a solution when each of its options holds a primary item (Knuth's programs reach
/// options through primary items only), each primary item `u:v|name` is held by `u` to `v` of
/// its options (once without multiplicities), and each secondary item is held by at most one
/// option without a colour, or by any number of options that all give it the same colour.
/// Written on the text alone (no reader): lines starting with `|` are comments.
fn knuth_count(text: &str) -> u64 {
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('|'));
    let first = lines.next().expect("an item line");
    // (name, primary, low, high)
    let mut items: Vec<(String, bool, u32, u32)> = Vec::new();
    let mut primary = true;
    for word in first.split_whitespace() {
        if word == "|" {
            primary = false;
            continue;
        }
        let (name, low, high) = match word.split_once('|') {
            Some((bounds, name)) => {
                let (u, v) = bounds.split_once(':').unwrap_or((bounds, bounds));
                (name, u.parse().unwrap(), v.parse().unwrap())
            }
            None => (word, 1, 1),
        };
        items.push((name.to_string(), primary, low, high));
    }
    let index = |name: &str| items.iter().position(|i| i.0 == name).unwrap();
    // Per option: (item, colour) pairs.
    let options: Vec<Vec<(usize, Option<&str>)>> = lines
        .map(|l| {
            l.split_whitespace()
                .map(|w| match w.split_once(':') {
                    Some((n, c)) => (index(n), Some(c)),
                    None => (index(w), None),
                })
                .collect()
        })
        .collect();
    assert!(options.len() <= 16, "brute force over at most 2^16 sets");
    let mut count = 0;
    'sets: for set in 0u32..1 << options.len() {
        let chosen: Vec<&Vec<(usize, Option<&str>)>> = (0..options.len())
            .filter(|&o| set >> o & 1 == 1)
            .map(|o| &options[o])
            .collect();
        if chosen.iter().any(|o| o.iter().all(|&(i, _)| !items[i].1)) {
            continue;
        }
        for (i, (_, primary, low, high)) in items.iter().enumerate() {
            let uses: Vec<Option<&str>> = chosen
                .iter()
                .flat_map(|o| o.iter().filter(|&&(j, _)| j == i).map(|&(_, c)| c))
                .collect();
            let fits = if *primary {
                (*low..=*high).contains(&(uses.len() as u32))
            } else {
                uses.len() <= 1 || uses.iter().all(|c| c.is_some() && *c == uses[0])
            };
            if !fits {
                continue 'sets;
            }
        }
        count += 1;
    }
    count
}

/// A random XCC file: up to 3 primary items (sometimes with multiplicities `u:v|name`), up to
/// 3 secondary ones, up to 9 options of random items, some with no primary item, secondary
/// items sometimes with one of two colours.
fn random_xcc(seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let primaries = rng.gen_range(1..=3);
    let secondaries = rng.gen_range(0..=3);
    let mut first: Vec<String> = (0..primaries)
        .map(|p| match rng.gen_range(0..4) {
            0 => {
                let u = rng.gen_range(0..=2);
                format!("{u}:{}|p{p}", rng.gen_range(u..=2))
            }
            _ => format!("p{p}"),
        })
        .collect();
    if secondaries > 0 {
        first.push("|".into());
        first.extend((0..secondaries).map(|s| format!("s{s}")));
    }
    let mut text = format!("| random {seed}\n{}\n", first.join(" "));
    for _ in 0..rng.gen_range(1..=9) {
        let mut words = Vec::new();
        // About one option in four has no primary item.
        if rng.gen_range(0..4) > 0 {
            for p in 0..primaries {
                if rng.gen_range(0..2) == 0 {
                    words.push(format!("p{p}"));
                }
            }
        }
        for s in 0..secondaries {
            match rng.gen_range(0..4) {
                0 => words.push(format!("s{s}")),
                1 => words.push(format!("s{s}:red")),
                2 => words.push(format!("s{s}:blue")),
                _ => {}
            }
        }
        if words.is_empty() {
            words.push(format!("s{}", rng.gen_range(0..secondaries.max(1))));
            if secondaries == 0 {
                words[0] = "p0".into();
            }
        }
        text.push_str(&words.join(" "));
        text.push('\n');
    }
    text
}

/// The verified count of `model` by backend `name` (with `engine` for `xcc`), which must be
/// complete.
fn count_by(name: &str, engine: Option<&str>, model: &Model) -> u128 {
    let mut options = BackendOptions::default();
    if let Some(e) = engine {
        options.params.insert("engine".into(), e.into());
    }
    let mut backend = make_backend(name, &options).unwrap();
    let out = count_verified(backend.as_mut(), model, None).unwrap();
    assert_eq!(
        out.status,
        Status::Solved,
        "{name} {engine:?}: {:?}",
        out.reason
    );
    out.count.to_u128().unwrap()
}

#[test]
fn an_option_with_no_primary_item_is_never_chosen() {
    // The file: `x` alone is an option of no primary item. Knuth's programs and
    // miniexact count one solution, {a}; zeroone counted two ({a} and {a, x}).
    let model = read_str(xcc::FORMAT, "a | x\na\nx\n", "s").unwrap();
    for backend in ["auto", "xcc", "bitset", "brute", "enum", "sat"] {
        assert_eq!(count_by(backend, None, &model), 1, "{backend}");
    }
    let mut every = Vec::new();
    let mut xcc = make_backend("xcc", &BackendOptions::default()).unwrap();
    solutions_verified(xcc.as_mut(), &model, None, &mut |s| {
        every.push(s.ones.iter().map(|&v| model.label(v)).collect::<Vec<_>>())
    })
    .unwrap();
    assert_eq!(every, [["a"]]);
    // DLX2's own example of colour controls: `X:0 Y:1` has no primary item and is deleted;
    // the unique solution is `A C X:1 Y:1` with `B X:1`.
    let text = "| A simple example of color controls\nA B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\n\
                X:0 Y:1\nB X:1\nC Y:1\n";
    let model = read_str(xcc::FORMAT, text, "dlx2").unwrap();
    assert_eq!(knuth_count(text), 1);
    // (The colour rows are not exact-cover rows: only the MRV engine takes them.)
    for engine in ["auto", "counts"] {
        assert_eq!(count_by("xcc", Some(engine), &model), 1, "{engine}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]

    /// The reader's model has Knuth's count, by an engine-free brute force over the model
    /// (`brute`), by `xcc` (its default engine and the MRV one) and by `bitset`.
    #[test]
    fn random_xcc_files_count_as_knuths_rules_say(seed in any::<u64>()) {
        let text = random_xcc(seed);
        let expected = u128::from(knuth_count(&text));
        let model = read_str(xcc::FORMAT, &text, "random").unwrap();
        prop_assert_eq!(count_by("brute", None, &model), expected, "{}", text);
        prop_assert_eq!(count_by("xcc", None, &model), expected, "{}", text);
        prop_assert_eq!(count_by("xcc", Some("counts"), &model), expected, "{}", text);
        prop_assert_eq!(count_by("bitset", None, &model), expected, "{}", text);
    }
}

#[test]
fn the_random_files_hold_options_with_no_primary_item_and_solutions() {
    // The property bites: many files have an option of no primary item, and their counts are
    // not all zero.
    let (mut orphans, mut solvable) = (0, 0);
    for seed in 0..200 {
        let text = random_xcc(seed);
        let orphan = text.lines().skip(2).any(|l| !l.contains('p'));
        orphans += usize::from(orphan);
        solvable += usize::from(orphan && knuth_count(&text) > 0);
    }
    assert!(orphans >= 60 && solvable >= 30, "{orphans} {solvable}");
}

/// The engine and item order `xcc` (default engine) picks for `model`, from a count stopped
/// at its first solution.
fn engine_and_order(model: &Model) -> (String, String) {
    let mut xcc = make_backend("xcc", &BackendOptions::default()).unwrap();
    let out = count_verified(xcc.as_mut(), model, Some(1)).unwrap();
    assert_eq!(
        (out.status, out.count.to_u128().unwrap()),
        (Status::Limit, 1),
        "{:?}",
        out.reason
    );
    let extra = &out.stats.extra;
    let text = |k: &str| {
        extra
            .get(k)
            .and_then(|v| v.as_str())
            .unwrap_or("-")
            .to_string()
    };
    (text("engine"), text("order"))
}

#[test]
fn every_spelling_of_a_pentomino_problem_gets_the_same_engine_and_order() {
    // Issue 35, item 9: pentominoes 6x10 as an `.xcc` file (one list of items, the pieces
    // first) went to the MRV engine (7-10 s), as JSON with families to the sweep (2.4 s), and
    // the sweep forced on the `.xcc` file followed the file's order (past 300 s). The sweep's
    // order now comes from the items and options alone.
    use zeroone::export::{render, Format as Out};
    use zeroone::puzzle::generate::exact_cover::pentominoes;
    let root = env!("CARGO_MANIFEST_DIR");
    let read_xcc = |path: &str| {
        let text = std::fs::read_to_string(format!("{root}/{path}")).unwrap();
        read_str(xcc::FORMAT, &text, path).unwrap()
    };
    let json = std::fs::read_to_string(format!(
        "{root}/experiments/exact-cover/pentominoes-6x10.json"
    ))
    .unwrap();
    let parsed =
        zeroone::puzzle::parse::parse_str(&json, zeroone::puzzle::parse::Format::Json, "j")
            .unwrap();
    let from_json = parsed[0].to_model("json").unwrap();
    let file = read_xcc("data/xcc/pentominoes-6x10.xcc");
    let exported = read_str(xcc::FORMAT, &render(&from_json, Out::Xcc).unwrap(), "e").unwrap();
    let expected = (
        "sweep".to_string(),
        "space 60 (transposed, width 10), labels 12".to_string(),
    );
    for (spelling, model) in [
        ("json", &from_json),
        ("xcc file", &file),
        ("exported", &exported),
    ] {
        assert_eq!(engine_and_order(model), expected, "{spelling}");
    }
    let generated = pentominoes(3, 20);
    let file = read_xcc("data/xcc/pentominoes-3x20.xcc");
    let exported = read_str(xcc::FORMAT, &render(&generated, Out::Xcc).unwrap(), "e").unwrap();
    let (first, second) = (engine_and_order(&generated), engine_and_order(&file));
    assert_eq!(first, second);
    assert_eq!(first, engine_and_order(&exported));
    assert_eq!(first.0, "sweep");
}
