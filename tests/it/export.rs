//! Every export format of a width-9 hex board, a Queens level and a Sudoku, read back: LP, MPS
//! and OPB by the small readers below (rows compared with the model's, names mapped back to
//! variables), CNF by varisat's own DIMACS parser and solved (the answer, read off the first
//! variables, must pass the verifier, and blocking clauses must find no second one), JSON
//! through the generic reader of `zeroone::puzzle::parse`.

use std::collections::BTreeMap;

use varisat::{ExtendFormula, Lit};
use zeroone::export::cnf::{to_dimacs, CnfOptions};
use zeroone::export::{render, Format, Names};
use zeroone::model::verify::Verifier;
use zeroone::model::{Model, ModelBuilder, PuzzleKind, Relation, Sense};
use zeroone::puzzle::generate::GenerateOptions;
use zeroone::puzzle::kinds::hex::generate::generate_hex;
use zeroone::puzzle::{QueensBoard, Sudoku};

/// A row read back from a file: `(variable id, weight)` terms sorted by variable, and the sense
/// (normalized as the model builder does: `= 1` / `<= 1` on unit weights are the exact-cover
/// variants).
type Row = (Vec<(usize, u64)>, Sense);

/// The row `terms (relation) rhs` as the model would hold it.
fn row_of(mut terms: Vec<(usize, u64)>, relation: Relation, rhs: u64) -> Row {
    terms.sort();
    let unit = terms.iter().all(|&(_, w)| w == 1);
    (terms, Sense::new(relation, rhs).normalized(unit))
}

fn data(path: &str) -> String {
    let p = format!("{}/data/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

/// Width-9 hex board with one solution (from the generator, seed 3).
fn hex_board() -> Model {
    let g = generate_hex(&GenerateOptions::new(9, 1, 3)).unwrap();
    g[0].board.to_model("hex-9")
}

/// Capybaradoku level 1 (7x7) from the shared data.
fn queens_level() -> Model {
    let text = data("queens/capybaradoku_levels.txt");
    let rows: Vec<Vec<usize>> = text
        .lines()
        .skip_while(|l| l.starts_with('#'))
        .take_while(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.bytes().map(|b| (b - b'A') as usize).collect())
        .collect();
    QueensBoard::with_regions(rows)
        .unwrap()
        .to_model("capybaradoku-1")
}

/// The first of Norvig's easy Sudokus (clues become givens).
fn sudoku() -> Model {
    let line = data("sudoku/norvig_easy50.txt")
        .lines()
        .next()
        .unwrap()
        .to_string();
    let cells = line
        .chars()
        .map(|c| zeroone::puzzle::kinds::sudoku::digit_of(c, 9))
        .collect();
    Sudoku::from_cells(3, cells)
        .unwrap()
        .to_model("norvig-easy-1")
        .unwrap()
}

fn models() -> Vec<Model> {
    vec![hex_board(), queens_level(), sudoku()]
}

/// A model with every general row kind, one sense per family (as the JSON model needs):
/// `= 2`, `<= 2`, `>= 2`, `<= 0` and weighted `=`, `<=`, `>=` rows, an exact-cover row and a
/// given. By hand: v0 = 0, v3 = 1, one of v1 / v2, and {v5, v6} or {v6, v7}: 4 solutions.
fn general_model() -> Model {
    let mut b = ModelBuilder::new("general", PuzzleKind::Generic);
    let v: Vec<usize> = (0..8)
        .map(|i| b.variable(format!("v{i}"), zeroone::model::Coord::Free))
        .collect();
    let two = b.family("two");
    b.row(two, v[..4].to_vec(), Sense::Exactly(2));
    let most = b.family("most");
    b.row(most, v[4..].to_vec(), Sense::AtMost(2));
    let least = b.family("least");
    b.row(least, v[2..].to_vec(), Sense::AtLeast(2));
    let none = b.family("none");
    b.row(none, vec![v[0]], Sense::AtMost(0));
    let w_eq = b.family("w_eq");
    b.weighted_row(w_eq, v[4..].to_vec(), vec![3, 1, 4, 1], Sense::Exactly(5));
    let w_most = b.family("w_most");
    b.weighted_row(
        w_most,
        vec![v[0], v[1], v[2], v[4]],
        vec![5, 2, 7, 1],
        Sense::AtMost(8),
    );
    let w_least = b.family("w_least");
    b.weighted_row(w_least, v.clone(), (1..=8).collect(), Sense::AtLeast(7));
    let cover = b.family("cover");
    b.row(cover, vec![v[1], v[2]], Sense::ExactlyOne);
    b.given(v[3]);
    b.build().unwrap()
}

/// The rows every writer must produce: the model's rows plus one row per given, keyed by name.
fn expected_rows(model: &Model) -> BTreeMap<String, Row> {
    let full = model.with_givens_as_rows();
    let names = Names::of(&full);
    full.constraints()
        .iter()
        .zip(names.rows)
        .map(|(c, n)| (n, (c.terms().collect(), c.sense)))
        .collect()
}

/// Variable id from an `x<id>_<label>` name, checking the label part.
fn var_of(names: &Names, name: &str) -> usize {
    let id: usize = name[1..name.find('_').unwrap()].parse().unwrap();
    assert_eq!(
        names.variables[id], name,
        "name does not match its variable"
    );
    id
}

fn read_lp(model: &Model, text: &str) -> (BTreeMap<String, Row>, Vec<usize>) {
    let names = Names::of(&model.with_givens_as_rows());
    let mut section = "";
    let mut rows = BTreeMap::new();
    let mut binary = Vec::new();
    let mut current: Option<(String, Vec<(usize, u64)>)> = None;
    let mut weight = None;
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('\\') || t.is_empty() {
            continue;
        }
        match t {
            "Minimize" | "Subject To" | "Binary" | "End" => {
                section = t;
                continue;
            }
            _ => {}
        }
        let mut tokens: Vec<&str> = t.split_whitespace().collect();
        match section {
            "Subject To" => {
                if tokens[0].ends_with(':') {
                    current = Some((tokens[0].trim_end_matches(':').to_string(), Vec::new()));
                    tokens.remove(0);
                }
                let (name, terms) = current.as_mut().expect("row name first");
                let mut i = 0;
                while i < tokens.len() {
                    match tokens[i] {
                        "+" => {}
                        op @ ("=" | "<=" | ">=") => {
                            let relation = match op {
                                "=" => Relation::Equal,
                                "<=" => Relation::AtMost,
                                _ => Relation::AtLeast,
                            };
                            let rhs = tokens[i + 1].parse().unwrap();
                            rows.insert(name.clone(), row_of(std::mem::take(terms), relation, rhs));
                            i += 1;
                        }
                        token => match token.parse::<u64>() {
                            Ok(w) => weight = Some(w),
                            Err(_) => {
                                terms.push((var_of(&names, token), weight.take().unwrap_or(1)))
                            }
                        },
                    }
                    i += 1;
                }
            }
            "Binary" => binary.extend(tokens.iter().map(|v| var_of(&names, v))),
            // No objective: an empty one, which reads back as none (issue 35, item 8).
            "Minimize" => assert_eq!(tokens, ["obj:"]),
            _ => panic!("text outside a section: {t}"),
        }
    }
    assert_eq!(section, "End");
    (rows, binary)
}

fn read_mps(model: &Model, text: &str) -> (BTreeMap<String, Row>, Vec<usize>) {
    let names = Names::of(&model.with_givens_as_rows());
    let mut section = "";
    let mut relations = BTreeMap::new();
    let mut rhs: BTreeMap<String, u64> = BTreeMap::new();
    let mut terms: BTreeMap<String, Vec<(usize, u64)>> = BTreeMap::new();
    let mut binary = Vec::new();
    for line in text.lines() {
        if line.starts_with('*') {
            continue;
        }
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if !line.starts_with(' ') {
            section = tokens[0];
            continue;
        }
        match section {
            "ROWS" => {
                let relation = match tokens[0] {
                    "E" => Some(Relation::Equal),
                    "L" => Some(Relation::AtMost),
                    "G" => Some(Relation::AtLeast),
                    "N" => None,
                    other => panic!("row type {other}"),
                };
                if let Some(r) = relation {
                    relations.insert(tokens[1].to_string(), r);
                }
            }
            "COLUMNS" => {
                let v = var_of(&names, tokens[0]);
                for pair in tokens[1..].chunks(2) {
                    if pair[0] != "obj" {
                        let w = pair[1].parse().unwrap();
                        terms.entry(pair[0].to_string()).or_default().push((v, w));
                    }
                }
            }
            "RHS" => {
                assert_eq!(tokens[0], "rhs");
                rhs.insert(tokens[1].to_string(), tokens[2].parse().unwrap());
            }
            "BOUNDS" => {
                assert_eq!(tokens[0], "BV");
                binary.push(var_of(&names, tokens[2]));
            }
            other => panic!("section {other}"),
        }
    }
    assert_eq!(section, "ENDATA");
    // Every row has its right-hand side written, even a zero one.
    assert_eq!(rhs.len(), relations.len());
    let rows = relations
        .into_iter()
        .map(|(name, relation)| {
            let row = row_of(
                terms.remove(&name).unwrap_or_default(),
                relation,
                rhs[&name],
            );
            (name, row)
        })
        .collect();
    (rows, binary)
}

/// OPB rows in file order (OPB rows carry no names).
fn read_opb(model: &Model, text: &str) -> Vec<Row> {
    let first = text.lines().next().unwrap();
    let full = model.with_givens_as_rows();
    assert_eq!(
        first,
        format!(
            "* #variable= {} #constraint= {}",
            full.num_variables(),
            full.constraints().len()
        )
    );
    let mut rows = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('*')) {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(tokens.last(), Some(&";"));
        let n = tokens.len();
        let (op, rhs) = (tokens[n - 3], tokens[n - 2].parse::<i64>().unwrap());
        let coefs: Vec<(usize, i64)> = tokens[..n - 3]
            .chunks(2)
            .map(|t| {
                (
                    t[1][1..].parse::<usize>().unwrap() - 1,
                    t[0].parse().unwrap(),
                )
            })
            .collect();
        // "<=" rows are written negated ("-w x >= -k"): all coefficients share one sign.
        let negated = coefs[0].1 < 0;
        assert!(coefs.iter().all(|&(_, c)| (c < 0) == negated), "{line}");
        let relation = match (op, negated) {
            ("=", false) => Relation::Equal,
            (">=", true) => Relation::AtMost,
            (">=", false) => Relation::AtLeast,
            other => panic!("unexpected {other:?} in {line}"),
        };
        let terms = coefs.iter().map(|&(v, c)| (v, c.unsigned_abs())).collect();
        let k = if negated { -rhs } else { rhs };
        rows.push(row_of(terms, relation, u64::try_from(k).unwrap()));
    }
    rows
}

#[test]
fn lp_rows_and_binaries_read_back() {
    for m in models() {
        let (rows, binary) = read_lp(&m, &render(&m, Format::Lp).unwrap());
        assert_eq!(rows, expected_rows(&m), "{}", m.name());
        assert_eq!(binary, (0..m.num_variables()).collect::<Vec<_>>());
    }
}

#[test]
fn mps_rows_and_binaries_read_back() {
    for m in models() {
        let (rows, binary) = read_mps(&m, &render(&m, Format::Mps).unwrap());
        assert_eq!(rows, expected_rows(&m), "{}", m.name());
        assert_eq!(binary, (0..m.num_variables()).collect::<Vec<_>>());
    }
}

#[test]
fn opb_rows_read_back_in_order() {
    for m in models() {
        let rows = read_opb(&m, &render(&m, Format::Opb).unwrap());
        let full = m.with_givens_as_rows();
        let expected: Vec<Row> = full
            .constraints()
            .iter()
            .map(|c| (c.terms().collect(), c.sense))
            .collect();
        assert_eq!(rows, expected, "{}", m.name());
    }
}

#[test]
fn general_rows_read_back_from_lp_mps_and_opb() {
    let m = general_model();
    let expected = expected_rows(&m);
    let (lp, _) = read_lp(&m, &render(&m, Format::Lp).unwrap());
    assert_eq!(lp, expected);
    let mps_text = render(&m, Format::Mps).unwrap();
    let (mps, _) = read_mps(&m, &mps_text);
    assert_eq!(mps, expected);
    // The at-least rows are MPS row type G.
    assert!(mps_text.contains(" G least_0\n") && mps_text.contains(" G w_least_0\n"));
    let opb_text = render(&m, Format::Opb).unwrap();
    let opb = read_opb(&m, &opb_text);
    let in_order: Vec<Row> = m
        .with_givens_as_rows()
        .constraints()
        .iter()
        .map(|c| (c.terms().collect(), c.sense))
        .collect();
    assert_eq!(opb, in_order);
    // "<= 8" with weights 5, 2, 7, 1 is written negated, and "<= 0" keeps a plain 0.
    assert!(opb_text.contains("-5 x1 -2 x2 -7 x3 -1 x5 >= -8 ;\n"));
    assert!(opb_text.contains("-1 x1 >= 0 ;\n"));
    // The header names each family's sense and weights.
    assert!(opb_text.contains(
        "* families: two 1 (= 2), most 1 (<= 2), least 1 (>= 2), none 1 (<= 0), w_eq 1 (= 5, weights 1..4), w_most 1 (<= 8, weights 1..7), w_least 1 (>= 7, weights 1..8), cover 1 (= 1), given 1 (= 1)\n"
    ));
}

#[test]
fn general_rows_in_cnf_have_the_models_solutions() {
    // Every CNF encoding of the general model has exactly the model's solutions (counted over
    // the model variables with blocking clauses, each one verified).
    let m = general_model();
    let mut brute = zeroone::backend::make_backend("brute", &Default::default()).unwrap();
    let expected = zeroone::backend::count_verified(brute.as_mut(), &m, None)
        .unwrap()
        .count
        .to_u128()
        .unwrap();
    assert!(expected > 1, "{expected}");
    for pb in zeroone::export::cnf::PbEncoding::ALL {
        let options = CnfOptions {
            pb,
            ..CnfOptions::default()
        };
        let text = to_dimacs(&m, &options).unwrap();
        assert!(text.contains(&format!("weighted by the {} ({pb})", pb.describe())));
        let solutions = solve_dimacs(&text, m.num_variables(), 1000);
        assert_eq!(solutions.len() as u128, expected, "{pb}");
        for x in &solutions {
            Verifier::new(&m)
                .check(&zeroone::model::Solution::from_bools(x))
                .unwrap();
        }
    }
}

#[test]
fn json_round_trips() {
    for m in models().into_iter().chain([general_model()]) {
        let text = render(&m, Format::Json).unwrap();
        let back = zeroone::read::generic::parse_json(&text).unwrap();
        assert_eq!(back.name(), m.name());
        assert_eq!(back.variables(), m.variables());
        assert_eq!(back.families(), m.families());
        assert_eq!(back.constraints(), m.constraints());
        assert_eq!(back.givens(), m.givens());
    }
}

/// Solves DIMACS text with varisat and returns every solution over the first `n` variables
/// (blocking clauses over those), up to `limit`.
fn solve_dimacs(text: &str, n: usize, limit: usize) -> Vec<Vec<bool>> {
    let mut solver = varisat::Solver::new();
    solver.add_dimacs_cnf(text.as_bytes()).unwrap();
    let mut found = Vec::new();
    while found.len() < limit && solver.solve().unwrap() {
        let mut x = vec![false; n];
        for lit in solver.model().unwrap() {
            if lit.index() < n && lit.is_positive() {
                x[lit.index()] = true;
            }
        }
        let block: Vec<Lit> = (0..n).map(|v| Lit::from_index(v, !x[v])).collect();
        solver.add_clause(&block);
        found.push(x);
    }
    found
}

#[test]
fn cnf_solved_by_varisat_gives_the_one_verified_answer() {
    for m in models() {
        for options in [
            CnfOptions::default(),
            CnfOptions {
                pairwise_up_to: 0,
                ..CnfOptions::default()
            },
            CnfOptions {
                pairwise_up_to: usize::MAX,
                ..CnfOptions::default()
            },
        ] {
            let text = to_dimacs(&m, &options).unwrap();
            let header = text.lines().find(|l| l.starts_with("p cnf")).unwrap();
            let clauses = text
                .lines()
                .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
                .count();
            assert!(header.ends_with(&format!(" {clauses}")), "{header}");
            let solutions = solve_dimacs(&text, m.num_variables(), 2);
            assert_eq!(solutions.len(), 1, "{} should have one solution", m.name());
            let answer = zeroone::model::Solution::from_bools(&solutions[0]);
            Verifier::new(&m).check(&answer).unwrap();
        }
    }
}

#[test]
fn cnf_header_counts_match_the_encoding_formulas() {
    for m in models() {
        let text = render(&m, Format::Cnf).unwrap();
        let full = m.with_givens_as_rows();
        let (mut alo, mut pairwise, mut sequential, mut givens) = (0, 0, 0, 0);
        for c in m.constraints() {
            let k = c.vars.len();
            alo += usize::from(c.sense == Sense::ExactlyOne);
            if k <= 6 {
                pairwise += k * (k - 1) / 2;
            } else {
                sequential += 3 * k - 4;
            }
        }
        for _ in m.givens() {
            givens += 1;
        }
        let total = alo + pairwise + sequential + givens;
        let line = format!(
            "c clauses: {alo} at-least-one, {pairwise} pairwise, {sequential} sequential counter, {givens} givens, {total} total"
        );
        assert!(text.contains(&line), "{}: {line}", m.name());
        assert!(
            text.contains("pairwise for rows of <= 6 variables, sequential counter (Sinz) above")
        );
        // Every model variable is listed with its label and coordinate.
        for i in 0..full.num_variables() {
            assert!(text.contains(&format!("c   {} {} ", i + 1, full.label(i))));
        }
    }
    let q = render(&queens_level(), Format::Cnf).unwrap();
    assert!(q.contains("c   1 r0c0 row 0 col 0\n"));
}
