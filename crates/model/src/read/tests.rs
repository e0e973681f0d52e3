//! The readers against independent evaluations: random OPB programs with negative coefficients
//! and negated literals counted by brute force over their own semantics; every export read
//! back with the same solutions and optimum; malformed input located.

use std::collections::BTreeSet;

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::model::verify::Verifier;
use crate::model::{ObjectiveSense, Relation, Solution};

/// The solutions of `model` (tried on every assignment of all its variables) projected onto
/// its own variables, how many full solutions there are, and the optimum.
fn brute(model: &Model) -> (BTreeSet<Vec<bool>>, usize, Option<i128>) {
    let n = model.num_variables();
    let v = Verifier::new(model);
    let own = model.own_variables();
    let mut set = BTreeSet::new();
    let mut count = 0;
    let mut best: Option<i128> = None;
    for bits in 0u32..(1 << n) {
        let values: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
        let s = Solution::from_bools(&values);
        if v.accepts(&s) {
            count += 1;
            if let Some(value) = v.objective_value(&s) {
                let better = |b: i128| match model.objective().map(|o| o.is_maximize()) {
                    Some(true) => value > b,
                    _ => value < b,
                };
                if best.is_none_or(better) {
                    best = Some(value);
                }
            }
            set.insert(values[..own].to_vec());
        }
    }
    (set, count, best)
}

// ---- OPB against its own semantics ----

/// `(coefficient, negated, variable)` terms.
type Terms = Vec<(i64, bool, usize)>;

/// A random OPB program in plain data.
#[derive(Debug, Clone)]
struct Program {
    vars: usize,
    rows: Vec<(Terms, Relation, i64)>,
    /// `(maximise, terms)`.
    objective: Option<(bool, Terms)>,
}

fn random_program(seed: u64) -> Program {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let vars = rng.gen_range(1..=6);
    let terms = |rng: &mut ChaCha8Rng| -> Vec<(i64, bool, usize)> {
        (0..rng.gen_range(1..=4))
            .map(|_| {
                let mut c = rng.gen_range(-5..=5);
                if c == 0 {
                    c = 1;
                }
                (c, rng.gen_bool(0.4), rng.gen_range(0..vars))
            })
            .collect()
    };
    let rows = (0..rng.gen_range(0..=4))
        .map(|_| {
            let relation =
                [Relation::AtLeast, Relation::Equal, Relation::AtMost][rng.gen_range(0..3)];
            (terms(&mut rng), relation, rng.gen_range(-6..=6))
        })
        .collect();
    let objective = rng
        .gen_bool(0.6)
        .then(|| (rng.gen_bool(0.5), terms(&mut rng)));
    Program {
        vars,
        rows,
        objective,
    }
}

fn term_text(terms: &[(i64, bool, usize)]) -> String {
    terms
        .iter()
        .map(|&(c, neg, v)| format!("{c:+} {}x{} ", if neg { "~" } else { "" }, v + 1))
        .collect()
}

fn program_text(p: &Program) -> String {
    let mut out = format!("* #variable= {} #constraint= {}\n", p.vars, p.rows.len());
    if let Some((max, terms)) = &p.objective {
        out.push_str(&format!(
            "{} {};\n",
            if *max { "max:" } else { "min:" },
            term_text(terms)
        ));
    }
    for (terms, relation, rhs) in &p.rows {
        let op = match relation {
            Relation::AtLeast => ">=",
            Relation::AtMost => "<=",
            Relation::Equal => "=",
        };
        out.push_str(&format!("{}{op} {rhs} ;\n", term_text(terms)));
    }
    out
}

/// The value of `terms` at `x`, literal by literal, as the OPB standard defines it.
fn value(terms: &[(i64, bool, usize)], x: &[bool]) -> i64 {
    terms
        .iter()
        .map(|&(c, neg, v)| c * i64::from(x[v] != neg))
        .sum()
}

/// The solutions and the optimum of `p`, by trying every assignment of its own variables.
fn evaluate(p: &Program) -> (BTreeSet<Vec<bool>>, Option<i128>) {
    let mut set = BTreeSet::new();
    let mut best: Option<i64> = None;
    for bits in 0u32..(1 << p.vars) {
        let x: Vec<bool> = (0..p.vars).map(|i| bits >> i & 1 == 1).collect();
        let holds = p.rows.iter().all(|(terms, relation, rhs)| {
            let lhs = value(terms, &x);
            match relation {
                Relation::AtLeast => lhs >= *rhs,
                Relation::AtMost => lhs <= *rhs,
                Relation::Equal => lhs == *rhs,
            }
        });
        if holds {
            if let Some((max, terms)) = &p.objective {
                let v = value(terms, &x);
                if best.is_none_or(|b| if *max { v > b } else { v < b }) {
                    best = Some(v);
                }
            }
            set.insert(x);
        }
    }
    (set, best.map(i128::from))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Complements and merged terms change nothing: the same solutions over the file's
    /// variables, each extended exactly once (the count is the same), the same optimum.
    #[test]
    fn opb_with_negations_reads_to_the_same_solutions_and_optimum(seed in any::<u64>()) {
        let p = random_program(seed);
        let text = program_text(&p);
        let m = read_str(opb::FORMAT, &text, "t").unwrap();
        prop_assert_eq!(m.own_variables(), p.vars);
        let (expected, best) = evaluate(&p);
        let (found, count, optimum) = brute(&m);
        prop_assert_eq!(&found, &expected, "{}", text);
        prop_assert_eq!(count, expected.len(), "{}", text);
        let has_costs = p.objective.as_ref().is_some_and(|(_, t)| !t.is_empty()) && m.objective().is_some();
        if has_costs {
            prop_assert_eq!(optimum, best, "{}", text);
        }
    }
}

// ---- small files of every format ----

fn count_of(format: Format, text: &str) -> usize {
    brute(&read_str(format, text, "t").unwrap()).1
}

#[test]
fn dimacs_clauses_are_at_least_one_rows_over_literals() {
    let text = "c tiny\np cnf 3 3\n1 -2 0\n2 3\n -1 0\n-3 0\n";
    let m = read_str(cnf::FORMAT, text, "t").unwrap();
    assert_eq!(
        (m.own_variables(), m.family_id("clause").is_some()),
        (3, true)
    );
    // x3 = 0, then x1 = x2: two solutions.
    assert_eq!(brute(&m).1, 2);
    // The empty clause: no solution; a tautology: no constraint.
    assert_eq!(count_of(cnf::FORMAT, "p cnf 2 1\n0\n"), 0);
    assert_eq!(count_of(cnf::FORMAT, "p cnf 2 1\n1 -1 0\n"), 4);
}

#[test]
fn cnf_projection_lines_mark_the_model_unless_they_show_every_variable() {
    // Shown: x1 and x3 of three, over two lines (repeats count once).
    let text = "p cnf 3 1\nc p show 1 0\nc p show 3 1 0\n1 2 3 0\n";
    let m = read_str(cnf::FORMAT, text, "t").unwrap();
    assert_eq!(m.count_projection(), Some(&[0, 2][..]));
    // The projection survives the JSON form worker processes receive.
    let back: Model = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
    assert_eq!(back.count_projection(), Some(&[0, 2][..]));
    assert_eq!(back, m);
    // Every variable shown is no projection; negated literals' complements are not counted.
    let all = read_str(cnf::FORMAT, "p cnf 2 1\nc p show 2 1 0\n-1 2 0\n", "t").unwrap();
    assert_eq!(all.count_projection(), None);
    // Other `c` lines stay comments.
    let plain = read_str(cnf::FORMAT, "p cnf 2 1\nc p weight 1 0.5 0\n1 0\n", "t").unwrap();
    assert_eq!(plain.count_projection(), None);
    // Bad projection lines are located errors.
    for (text, line, column, expected) in [
        (
            "p cnf 2 1\nc p show 3 0\n1 0\n",
            2,
            10,
            "a variable to show, 1 to 2",
        ),
        (
            "p cnf 2 1\nc p show -1 0\n1 0\n",
            2,
            10,
            "a variable to show",
        ),
        (
            "p cnf 2 1\nc p show 1 0 2\n1 0\n",
            2,
            14,
            "the end of the 'c p show' line",
        ),
        ("p cnf 2 1\nc p show 1 2\n1 0\n", 2, 13, "to end with 0"),
        ("c p show 1 0\np cnf 2 1\n1 0\n", 1, 1, "the header 'p cnf"),
    ] {
        let e = read_str(cnf::FORMAT, text, "t").unwrap_err();
        assert_eq!((e.line, e.column), (line, column), "{text:?}: {e}");
        assert!(e.expected.contains(expected), "{text:?}: {e}");
    }
}

#[test]
fn xcc_colours_and_multiplicities_count_as_knuths_programs_do() {
    // Options: 0 a x:red, 1 b x:blue, 2 c y, 3 a b, 4 b c x:red, 5 c x:red y.
    let text = "| comment\na b c | x y\na x:red\nb x:blue\nc y\na b\nb c x:red\nc x:red y\n";
    // {0,4} (x red twice), {3,2}, {3,5}; {0,1,...} clash on x's colour.
    assert_eq!(count_of(xcc::FORMAT, text), 3);
    let m = read_str(xcc::FORMAT, text, "t").unwrap();
    assert_eq!(m.own_variables(), 6);
    assert_eq!(m.label(0), "a,x:red");
    // An uncoloured use of x excludes every coloured one.
    assert_eq!(count_of(xcc::FORMAT, "a b | x\na x\nb x:red\nb\n"), 1);
    // Multiplicities: item a covered 1 to 2 times by three single options: 3 + 3 = 6; `2|a`
    // exactly twice: 3; the miniexact spelling `a:1;2` as Knuth's `1:2|a`.
    assert_eq!(count_of(xcc::FORMAT, "1:2|a\na\na\na\n"), 6);
    assert_eq!(count_of(xcc::FORMAT, "2|a\na\na\na\n"), 3);
    assert_eq!(count_of(xcc::FORMAT, "a:1;2\na\na\na\n"), 6);
    // Repeated options are distinct variables with distinct labels.
    let m = read_str(xcc::FORMAT, "a\na\na\n", "t").unwrap();
    assert_eq!((m.label(0), m.label(1)), ("a".into(), "a#2".into()));
}

#[test]
fn lp_and_mps_read_what_other_solvers_write() {
    let lp = "\\ knapsack\nMaximize\n obj: 3 x + 2 y + 4 z\nSubject To\n budget_0: 2 x + 3 y\n   + 4 z <= 5\n c2: x - y >= 0\nBounds\n 0 <= z <= 1\nBinary\n x y\nGeneral\n z\nEnd\n";
    let m = read_str(lp::FORMAT, lp, "t").unwrap();
    // Sizes 2 + 3 fit, 2 + 4 do not: x and y, value 5.
    assert_eq!(brute(&m).2, Some(5));
    assert!(m.family_id("budget").is_some());
    assert_eq!(m.objective().unwrap().sense(), ObjectiveSense::Maximize);
    let mps = "NAME knap\nOBJSENSE\n    MAX\nROWS\n N  obj\n L  budget_0\n G  c2\nCOLUMNS\n    MARKER  'MARKER'  'INTORG'\n    x  obj  3  budget_0  2\n    x  c2  1\n    y  obj  2  budget_0  3\n    y  c2  -1\n    z  obj  4  budget_0  4\n    MARKER  'MARKER'  'INTEND'\nRHS\n    rhs  budget_0  5\nBOUNDS\n UP bnd x 1\n UP bnd y 1\n BV bnd z\nENDATA\n";
    let m2 = read_str(mps::FORMAT, mps, "t").unwrap();
    // Same variables in the same order: the same solutions, count and optimum.
    assert_eq!(brute(&m2), brute(&m));
}

#[test]
fn opb_objective_constants_from_negated_literals_are_kept() {
    // min: -2 ~x1 is -2 when x1 = 0: the cost sits on the complement, not on a shifted x1.
    let m = read_str(opb::FORMAT, "min: -2 ~x1 ;\n+1 x1 +1 x2 >= 0 ;\n", "t").unwrap();
    assert_eq!(brute(&m).2, Some(-2));
    // Output shows own variables only: the complement is derived.
    assert_eq!(m.derived(2), Some(crate::model::Derived::Complement(0)));
    let s = Solution::new(vec![1, 2]);
    assert_eq!(m.own_solution(&s).ones, vec![1]);
}

#[test]
fn opb_reads_the_older_star_syntax_of_minisat_plus() {
    // As minisat+'s examples write it: `+1*v1` and a relation glued to `;`.
    let starred = "+1*v1  +1*v2 -1*v3  -1*v4  >= 1;\n-1*v1  -1*v2 +1*v3  +1*v4  >= 1;\n";
    let plain = "+1 v1 +1 v2 -1 v3 -1 v4 >= 1 ;\n-1 v1 -1 v2 +1 v3 +1 v4 >= 1 ;\n";
    let (a, b) = (
        read_str(opb::FORMAT, starred, "t").unwrap(),
        read_str(opb::FORMAT, plain, "t").unwrap(),
    );
    assert_eq!(brute(&a), brute(&b));
    // The two rows together are unsatisfiable (x1 + x2 - x3 - x4 is at least 1 and at most -1).
    assert_eq!(brute(&a).1, 0);
    // A product stays a product with or without stars.
    let e = read_str(opb::FORMAT, "+1*x1*x2 >= 1 ;\n", "t").unwrap_err();
    assert!(e.to_string().contains("product"), "{e}");
}

#[test]
fn lp_variables_first_named_after_a_complement_keep_their_declarations() {
    // `x - y >= 0` makes the complement ~y (the next id) before `w` first appears: `w` must
    // still be found under Binary (found by the mutation fuzz test: it panicked).
    let text =
        "Maximize\n obj: x\nSubject To\n c: x - y >= 0\n d: w + x <= 1\nBinary\n x y w\nEnd\n";
    let m = read_str(lp::FORMAT, text, "t").unwrap();
    assert_eq!(m.own_variables(), 3);
    assert_eq!(brute(&m).2, Some(1));
    let e = read_str(lp::FORMAT, &text.replace(" x y w\n", " x y\n"), "t").unwrap_err();
    assert!(e.to_string().contains("variable 'w'"), "{e}");
    assert_eq!((e.line, e.column), (5, 5), "{e}");
}

// ---- located errors ----

pub(crate) use super::malformed::MALFORMED;

#[test]
fn malformed_input_of_every_format_is_located() {
    for &(format, text, (line, column), word) in MALFORMED {
        let e = read_str(format, text, "t").unwrap_err();
        assert_eq!(
            (e.line, e.column),
            (line, column),
            "{format}: {text:?}: {e}"
        );
        assert!(e.to_string().contains(word), "{format}: {text:?}: {e}");
    }
}

#[test]
fn integers_are_read_exactly() {
    let ok = [
        ("12", 12),
        ("+3", 3),
        ("-4", -4),
        ("3.0", 3),
        ("1e3", 1000),
        ("2.50e1", 25),
        ("0.0", 0),
        ("9007199254740992", 1 << 53),
    ];
    for (text, value) in ok {
        assert_eq!(exact_integer(text), Ok(value), "{text}");
    }
    assert_eq!(exact_integer("2.5"), Err(NumberError::Fractional));
    assert_eq!(exact_integer("1e-1"), Err(NumberError::Fractional));
    assert_eq!(
        exact_integer("9007199254740993"),
        Err(NumberError::TooLarge)
    );
    assert_eq!(exact_integer("1e99999"), Err(NumberError::TooLarge));
    for bad in ["", "-", "x", "1e", "1.2.3", "e5", "--1"] {
        assert_eq!(exact_integer(bad), Err(NumberError::NotANumber), "{bad}");
    }
}

// ---- Headers that declare more or less than the body holds ----

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// A `p cnf` header declaring `declared` clauses over a body of `written` one-line
    /// clauses: read when they agree; refused at the first clause too many (not after
    /// reading the rest: a 436 KB gzip declaring 1 clause and holding 16.6 M grew to 2.3 GB
    /// before its error, issue 35), or at the end when clauses are missing.
    #[test]
    fn cnf_clause_counts_are_refused_where_the_header_is_contradicted(
        declared in 0usize..40,
        written in 0usize..40,
        huge in prop::bool::ANY,
    ) {
        // Sometimes a huge declared count over the same small body.
        let declared = if huge { super::MAX_NONZEROS - declared } else { declared };
        let mut text = format!("c test\np cnf 3 {declared}\n");
        for i in 0..written {
            text.push_str(&format!("{} -{} 0\n", i % 3 + 1, (i + 1) % 3 + 1));
        }
        let read = read_str(cnf::FORMAT, &text, "t");
        if written == declared {
            let m = read.unwrap();
            let clauses = m.families().iter().find(|f| f.name == "clause");
            prop_assert_eq!(clauses.map_or(0, |f| f.rows.len()), written);
        } else if written > declared {
            let e = read.unwrap_err();
            // Clause `declared + 1` starts on line `declared + 3`, column 1.
            prop_assert_eq!((e.line, e.column), (declared + 3, 1), "{}", e);
            prop_assert!(e.to_string().contains("as the header on line 2 declares"), "{}", e);
        } else {
            let e = read.unwrap_err();
            prop_assert_eq!(e.line, written + 2, "{}", e);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// An OPB header's `#constraint= N` over a body of `written` one-line constraints (and an
    /// objective, which is not one), as CNF's clause count: read when they agree; refused at
    /// the first constraint too many, at its line; or at the end when some are missing. It
    /// was never checked (issue 35).
    #[test]
    fn opb_constraint_counts_are_refused_where_the_header_is_contradicted(
        declared in 0usize..40,
        written in 0usize..40,
        huge in prop::bool::ANY,
    ) {
        let declared = if huge { super::MAX_NONZEROS - declared } else { declared };
        let mut text = format!("* #variable= 3 #constraint= {declared}\nmin: +1 x1 ;\n");
        for i in 0..written {
            text.push_str(&format!("+1 x{} -1 x{} >= 0 ;\n", i % 3 + 1, (i + 1) % 3 + 1));
        }
        let read = read_str(opb::FORMAT, &text, "t");
        if written == declared {
            let m = read.unwrap();
            let rows = m.families().iter().find(|f| f.name == "constraint");
            prop_assert_eq!(rows.map_or(0, |f| f.rows.len()), written);
        } else if written > declared {
            let e = read.unwrap_err();
            // Constraint `declared + 1` starts on line `declared + 3`, column 1.
            prop_assert_eq!((e.line, e.column), (declared + 3, 1), "{}", e);
            prop_assert!(e.to_string().contains("as the header on line 1 declares"), "{}", e);
        } else {
            let e = read.unwrap_err();
            prop_assert_eq!(e.line, written + 2, "{}", e);
        }
    }
}

#[test]
fn an_opb_constraint_count_is_one_number_on_the_header_line() {
    for (text, at) in [
        ("* #variable= 1 #constraint= x\n", (1, 29)),
        ("* #variable= 1 #constraint= -1\n", (1, 29)),
        ("* #constraint= 1 #constraint= 1\n+1 x1 >= 1 ;\n", (1, 31)),
    ] {
        let e = read_str(opb::FORMAT, text, "t").unwrap_err();
        assert_eq!((e.line, e.column), at, "{text}: {e}");
    }
    // Without the count, any number of constraints reads; on a later line it is a comment.
    assert!(read_str(opb::FORMAT, "* #variable= 1\n+1 x1 >= 1 ;\n", "t").is_ok());
    let later = "* #variable= 1\n* #constraint= 0\n+1 x1 >= 1 ;\n";
    assert!(read_str(opb::FORMAT, later, "t").is_ok());
}

#[test]
fn numbered_variables_are_found_by_number_and_other_names_by_name() {
    // `x1..xN` of a header are found without a name table; `x01` or `x1a` are other names.
    let m = read_str(
        opb::FORMAT,
        "* #variable= 3 #constraint= 2\n+1 x3 +1 x01 >= 1 ;\n+1 x1 +1 x1a >= 2 ;\n",
        "t",
    )
    .unwrap();
    assert_eq!(m.num_variables(), 5);
    let labels: Vec<String> = (0..5).map(|v| m.label(v).into_owned()).collect();
    assert_eq!(labels, ["x1", "x2", "x3", "x01", "x1a"]);
    assert_eq!(m.constraints()[0].vars, vec![2, 3]);
    assert_eq!(m.constraints()[1].vars, vec![0, 4]);
    let twice = read_str(opb::FORMAT, "* #variable= 3 #variable= 4\n", "t").unwrap_err();
    assert_eq!((twice.line, twice.column), (1, 27), "{twice}");
}

#[test]
fn a_memory_budget_refuses_a_header_at_its_line_and_holds_only_on_its_thread() {
    let text = "c big\np cnf 100000 1\n1 0\n";
    let e = with_memory_budget(Some(1 << 20), || read_str(cnf::FORMAT, text, "t")).unwrap_err();
    assert_eq!((e.line, e.column), (2, 1), "{e}");
    assert!(e.to_string().contains("100000 variables"), "{e}");
    // Rows count too: 20,000 two-literal rows of a named-variable OPB pass 1 MB.
    let mut opb = String::new();
    for i in 0..20_000 {
        opb.push_str(&format!("+1 a{i} +1 b{i} >= 1 ;\n"));
    }
    let e = with_memory_budget(Some(1 << 20), || read_str(opb::FORMAT, &opb, "t")).unwrap_err();
    assert!(e.line > 1 && e.line < 20_000, "{e}");
    // Without a budget (and after one) both read.
    assert_eq!(
        read_str(cnf::FORMAT, text, "t").unwrap().num_variables(),
        100_000
    );
    assert!(read_str(opb::FORMAT, &opb, "t").is_ok());
}

/// A source that fails at its third line with an error of its own type.
struct FailingAtThree {
    lines: Vec<&'static str>,
    next: usize,
}

impl Lines for FailingAtThree {
    type Error = String;
    fn next_line(&mut self) -> Result<Option<(usize, &str)>, String> {
        self.next += 1;
        match self.next {
            3 => Err("line 3 could not be read".into()),
            n => Ok(self.lines.get(n - 1).map(|l| (n, *l))),
        }
    }
    fn error(&self, e: ReadError) -> String {
        format!("reader: {e}")
    }
}

/// Every registered format's reader sees one source type, whatever the caller's: the caller's
/// own failure and the reader's located errors both come back as the caller's error type.
#[test]
fn every_format_hands_back_the_source_s_own_errors() {
    for &format in FORMATS {
        let mut source = FailingAtThree {
            lines: vec!["* a comment", "c a comment", "x", "y"],
            next: 0,
        };
        let e = read(format, &mut source, "t").unwrap_err();
        // A reader may refuse line 1 or 2 first (its own error, located) or meet line 3.
        assert!(
            e == "line 3 could not be read"
                || e.starts_with("reader: 1:")
                || e.starts_with("reader: 2:"),
            "{format}: {e}"
        );
    }
    let mut bad = FailingAtThree {
        lines: vec!["+1 x1 x2 >= 1 ;"],
        next: 0,
    };
    let e = read(opb::FORMAT, &mut bad, "t").unwrap_err();
    assert!(e.starts_with("reader: 1:7: expected"), "{e}");
    let mut unreadable = FailingAtThree {
        lines: vec!["p cnf 2 1", "1 -2 0"],
        next: 0,
    };
    let e = read(cnf::FORMAT, &mut unreadable, "t").unwrap_err();
    assert_eq!(e, "line 3 could not be read");
}

#[test]
fn formats_are_found_by_extension_and_compared_by_name() {
    let names: Vec<&str> = FORMATS.iter().map(|f| f.name()).collect();
    assert_eq!(names, ["opb", "cnf", "lp", "mps", "xcc"]);
    assert_eq!(Format::by_extension("dlx"), Some(xcc::FORMAT));
    assert_eq!(Format::by_extension("txt"), None);
    let mine = Format::new("mine", &["opb"], opb::read);
    assert_ne!(mine, opb::FORMAT);
    assert_eq!(
        Format::by_extension_in(&[mine, opb::FORMAT], "opb"),
        Some(mine)
    );
    assert_eq!(format!("{mine} {mine:?}"), "mine Format(mine)");
}
