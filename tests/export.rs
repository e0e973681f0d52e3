//! Every export format of a width-9 hex board, a Queens level and a Sudoku, read back: LP, MPS
//! and OPB by the small readers below (rows compared with the model's, names mapped back to
//! variables), CNF by varisat's own DIMACS parser and solved (the answer, read off the first
//! variables, must pass the verifier, and blocking clauses must find no second one), JSON
//! through the generic reader of `zeroone::puzzle::parse`.

use std::collections::BTreeMap;

use varisat::{ExtendFormula, Lit};
use zeroone::export::cnf::{to_dimacs, CnfOptions};
use zeroone::export::{render, Format, Names};
use zeroone::generate::{generate_hex, GenerateOptions};
use zeroone::model::{Model, Sense};
use zeroone::puzzle::{QueensBoard, Sudoku};
use zeroone::verify::Verifier;

/// A row read back from a file: variable ids (sorted) and sense.
type Row = (Vec<usize>, Sense);

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
        .map(|c| zeroone::puzzle::sudoku::digit_of(c, 9))
        .collect();
    Sudoku::from_cells(3, cells)
        .unwrap()
        .to_model("norvig-easy-1")
        .unwrap()
}

fn models() -> Vec<Model> {
    vec![hex_board(), queens_level(), sudoku()]
}

/// The rows every writer must produce: the model's rows plus one row per given, keyed by name.
fn expected_rows(model: &Model) -> BTreeMap<String, Row> {
    let full = model.with_givens_as_rows();
    let names = Names::of(&full);
    full.constraints()
        .iter()
        .zip(names.rows)
        .map(|(c, n)| (n, (c.vars.clone(), c.sense)))
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
    let mut current: Option<(String, Vec<usize>)> = None;
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
                let (name, vars) = current.as_mut().expect("row name first");
                let mut i = 0;
                while i < tokens.len() {
                    match tokens[i] {
                        "+" => {}
                        "=" | "<=" => {
                            assert_eq!(tokens[i + 1], "1");
                            let sense = if tokens[i] == "=" {
                                Sense::ExactlyOne
                            } else {
                                Sense::AtMostOne
                            };
                            let mut v = std::mem::take(vars);
                            v.sort();
                            rows.insert(name.clone(), (v, sense));
                            i += 1;
                        }
                        var => vars.push(var_of(&names, var)),
                    }
                    i += 1;
                }
            }
            "Binary" => binary.extend(tokens.iter().map(|v| var_of(&names, v))),
            "Minimize" => assert_eq!(&tokens[..2], ["obj:", "0"]),
            _ => panic!("text outside a section: {t}"),
        }
    }
    assert_eq!(section, "End");
    (rows, binary)
}

fn read_mps(model: &Model, text: &str) -> (BTreeMap<String, Row>, Vec<usize>) {
    let names = Names::of(&model.with_givens_as_rows());
    let mut section = "";
    let mut senses = BTreeMap::new();
    let mut vars: BTreeMap<String, Vec<usize>> = BTreeMap::new();
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
                let sense = match tokens[0] {
                    "E" => Some(Sense::ExactlyOne),
                    "L" => Some(Sense::AtMostOne),
                    "N" => None,
                    other => panic!("row type {other}"),
                };
                if let Some(s) = sense {
                    senses.insert(tokens[1].to_string(), s);
                }
            }
            "COLUMNS" => {
                let v = var_of(&names, tokens[0]);
                for pair in tokens[1..].chunks(2) {
                    if pair[0] != "obj" {
                        assert_eq!(pair[1], "1");
                        vars.entry(pair[0].to_string()).or_default().push(v);
                    }
                }
            }
            "RHS" => assert_eq!((tokens[0], tokens[2]), ("rhs", "1")),
            "BOUNDS" => {
                assert_eq!(tokens[0], "BV");
                binary.push(var_of(&names, tokens[2]));
            }
            other => panic!("section {other}"),
        }
    }
    assert_eq!(section, "ENDATA");
    let rows = senses
        .into_iter()
        .map(|(name, s)| {
            let mut v = vars.remove(&name).unwrap_or_default();
            v.sort();
            (name, (v, s))
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
        let (op, rhs) = (tokens[n - 3], tokens[n - 2]);
        let sense = match (op, rhs) {
            ("=", "1") => Sense::ExactlyOne,
            (">=", "-1") => Sense::AtMostOne,
            other => panic!("unexpected {other:?}"),
        };
        let coef = if sense == Sense::ExactlyOne {
            "+1"
        } else {
            "-1"
        };
        let mut vars: Vec<usize> = tokens[..n - 3]
            .chunks(2)
            .map(|t| {
                assert_eq!(t[0], coef);
                t[1][1..].parse::<usize>().unwrap() - 1
            })
            .collect();
        vars.sort();
        rows.push((vars, sense));
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
            .map(|c| (c.vars.clone(), c.sense))
            .collect();
        assert_eq!(rows, expected, "{}", m.name());
    }
}

#[test]
fn json_round_trips() {
    for m in models() {
        let text = render(&m, Format::Json).unwrap();
        let back = zeroone::puzzle::parse::generic::parse_json(&text, "export.json").unwrap();
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
            CnfOptions { pairwise_up_to: 0 },
            CnfOptions {
                pairwise_up_to: usize::MAX,
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
