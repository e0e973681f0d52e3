//! DIMACS CNF: the model's CNF encoding ([`crate::encode::cnf`], which the `sat` backend
//! solves too) written with its `c` header, the projection lines and the clauses. Costs: the
//! encoding's, plus one pass to write it.

use std::fmt::Write;

use super::{describe_coord, header_lines};
use crate::model::Model;

pub use crate::encode::cnf::*;

/// The model in DIMACS CNF, with the encodings and clause counts in the `c` header. The
/// header lines of an exact-cover model are those of earlier versions; lines on general rows
/// appear only when the model has some.
pub fn to_dimacs(model: &Model, options: &CnfOptions) -> Result<String, super::ExportError> {
    if let Some(o) = model.objective() {
        return Err(super::ExportError::ObjectiveUnsupported {
            format: "cnf",
            sense: o.sense(),
        });
    }
    let cnf = Cnf::encode(model, options)?;
    let mut out = String::new();
    for line in header_lines(model) {
        let _ = writeln!(out, "c {line}");
    }
    for line in encoding_lines(&cnf, options) {
        let _ = writeln!(out, "c {line}");
    }
    out.push_str("c variable, label, coordinate:\n");
    for (i, v) in model.variables().iter().enumerate() {
        let _ = writeln!(
            out,
            "c   {} {} {}",
            i + 1,
            model.label(i),
            describe_coord(&v.coord)
        );
    }
    let _ = writeln!(out, "p cnf {} {}", cnf.num_vars, cnf.clauses.len());
    for line in projection_lines(model, &cnf) {
        let _ = writeln!(out, "{line}");
    }
    for clause in &cnf.clauses {
        for l in clause {
            let _ = write!(out, "{l} ");
        }
        out.push_str("0\n");
    }
    Ok(out)
}

/// How many variables one `c p show` line names (the format allows any number of lines).
pub const SHOW_PER_LINE: usize = 32;

/// The `c p show ... 0` lines projecting a count: onto the model's own projection (a CNF file
/// read with `c p show` lines, [`Model::count_projection`]) when it has one, so a projected
/// formula exports as projected; else onto the model variables `1..=model_vars`, none when
/// the formula has no auxiliary variables. Costs `O(model_vars)`.
fn projection_lines(model: &Model, cnf: &Cnf) -> Vec<String> {
    let vars: Vec<usize> = match model.count_projection() {
        Some(shown) => shown.iter().map(|&v| v + 1).collect(),
        None if cnf.num_vars == cnf.model_vars => return Vec::new(),
        None => (1..=cnf.model_vars).collect(),
    };
    vars.chunks(SHOW_PER_LINE)
        .map(|chunk| {
            let names: Vec<String> = chunk.iter().map(usize::to_string).collect();
            format!("c p show {} 0", names.join(" "))
        })
        .collect()
}

/// The header lines naming the encodings and counting rows and clauses by kind.
fn encoding_lines(cnf: &Cnf, options: &CnfOptions) -> Vec<String> {
    let threshold = if options.pairwise_up_to == usize::MAX {
        "pairwise for every row".to_string()
    } else {
        format!(
            "pairwise for rows of <= {} variables, sequential counter (Sinz) above",
            options.pairwise_up_to
        )
    };
    let general = cnf.rows_cardinality + cnf.rows_pseudo_boolean > 0;
    let mut lines = vec![format!(
        "exactly-one = at-least-one clause + at-most-one encoding; {threshold}"
    )];
    if general {
        lines.push(format!(
            "general rows by rustsat {RUSTSAT_VERSION}: cardinality (unit weights, k != 1) by the totalizer, weighted by the {} ({}); equalities bounded both ways",
            options.pb.describe(),
            options.pb.name()
        ));
    }
    lines.push(format!(
        "rows: {} pairwise, {} sequential counter",
        cnf.rows_pairwise, cnf.rows_sequential
    ));
    if general {
        lines.push(format!(
            "general rows: {} cardinality (totalizer), {} weighted ({})",
            cnf.rows_cardinality,
            cnf.rows_pseudo_boolean,
            options.pb.name()
        ));
    }
    lines.push(format!(
        "clauses: {} at-least-one, {} pairwise, {} sequential counter, {} givens, {} total",
        cnf.at_least_one,
        cnf.pairwise,
        cnf.sequential,
        cnf.givens,
        cnf.clauses.len()
    ));
    if general {
        lines.push(format!(
            "general-row clauses: {} totalizer, {} {} (included in the total)",
            cnf.cardinality,
            cnf.pseudo_boolean,
            options.pb.name()
        ));
    }
    lines.push(format!(
        "variables: {} model (1..={}), {} auxiliary",
        cnf.model_vars,
        cnf.model_vars,
        cnf.num_vars - cnf.model_vars
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Coord, ModelBuilder, PuzzleKind, Sense};

    fn row_model(k: usize, sense: Sense) -> Model {
        let mut b = ModelBuilder::new("row", PuzzleKind::Generic);
        let vars: Vec<usize> = (0..k)
            .map(|i| b.variable(format!("v{i}"), Coord::Free))
            .collect();
        let f = b.family("only");
        b.row(f, vars, sense);
        b.build().unwrap()
    }

    /// Whether some assignment of the auxiliary variables satisfies `cnf` given the model
    /// variables `x` (exhaustive over the auxiliaries: small formulas only).
    fn satisfiable_with(cnf: &Cnf, x: &[bool]) -> bool {
        let aux = cnf.num_vars - cnf.model_vars;
        (0u32..1 << aux).any(|a| {
            let value = |l: i32| {
                let v = l.unsigned_abs() as usize - 1;
                let b = if v < cnf.model_vars {
                    x[v]
                } else {
                    a >> (v - cnf.model_vars) & 1 == 1
                };
                if l > 0 {
                    b
                } else {
                    !b
                }
            };
            cnf.clauses.iter().all(|c| c.iter().any(|&l| value(l)))
        })
    }

    #[test]
    fn both_encodings_accept_exactly_the_right_assignments() {
        for k in 1..=8 {
            for sense in [Sense::ExactlyOne, Sense::AtMostOne] {
                let m = row_model(k, sense);
                for threshold in [0, usize::MAX] {
                    let cnf = Cnf::encode(
                        &m,
                        &CnfOptions {
                            pairwise_up_to: threshold,
                            ..CnfOptions::default()
                        },
                    )
                    .unwrap();
                    for bits in 0u32..1 << k {
                        let x: Vec<bool> = (0..k).map(|i| bits >> i & 1 == 1).collect();
                        let ones = bits.count_ones() as usize;
                        assert_eq!(
                            satisfiable_with(&cnf, &x),
                            sense.holds(ones as u64),
                            "k={k} {sense:?} threshold {threshold} bits {bits:b}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn clause_counts_follow_the_formulas() {
        let m = row_model(9, Sense::ExactlyOne);
        let seq = Cnf::encode(&m, &CnfOptions::default()).unwrap();
        assert_eq!((seq.at_least_one, seq.sequential, seq.pairwise), (1, 23, 0));
        assert_eq!(seq.num_vars, 9 + 8);
        let pw = Cnf::encode(
            &m,
            &CnfOptions {
                pairwise_up_to: usize::MAX,
                ..CnfOptions::default()
            },
        )
        .unwrap();
        assert_eq!((pw.pairwise, pw.num_vars), (36, 9));
        let text = to_dimacs(&m, &CnfOptions::default()).unwrap();
        assert!(text.contains("c clauses: 1 at-least-one, 0 pairwise, 23 sequential counter"));
        assert!(text.contains("p cnf 17 24\n"));
    }

    /// Counts the assignments of the DIMACS `text` by brute force: all of them, and their
    /// distinct restrictions to the variables its `c p show` lines name.
    fn brute_counts(text: &str) -> (usize, usize) {
        let mut show = Vec::new();
        let mut clauses: Vec<Vec<i32>> = Vec::new();
        let mut vars = 0;
        for line in text.lines() {
            let nums = |l: &str| -> Vec<i32> {
                l.split_whitespace().map(|t| t.parse().unwrap()).collect()
            };
            if let Some(rest) = line.strip_prefix("c p show ") {
                show.extend(nums(rest).into_iter().filter(|&v| v != 0));
            } else if let Some(rest) = line.strip_prefix("p cnf ") {
                vars = nums(rest)[0] as usize;
            } else if !line.starts_with('c') {
                clauses.push(nums(line).into_iter().filter(|&l| l != 0).collect());
            }
        }
        let models: Vec<u32> = (0u32..1 << vars)
            .filter(|a| {
                let value = |l: i32| (a >> (l.unsigned_abs() - 1) & 1 == 1) == (l > 0);
                clauses.iter().all(|c| c.iter().any(|&l| value(l)))
            })
            .collect();
        let mask: u32 = show.iter().map(|&v| 1u32 << (v - 1)).sum();
        let projected: std::collections::BTreeSet<u32> = models.iter().map(|a| a & mask).collect();
        (models.len(), projected.len())
    }

    #[test]
    fn projection_lines_make_counters_count_the_model_solutions() {
        // One "at most one" row over 9 variables: the sequential counter adds 8 auxiliaries,
        // free when no variable is set, so the plain count is more than the model's 10; projected
        // on the shown variables it is 10.
        let m = row_model(9, Sense::AtMostOne);
        let text = to_dimacs(&m, &CnfOptions::default()).unwrap();
        assert!(text.contains("p cnf 17 23\nc p show 1 2 3 4 5 6 7 8 9 0\n"));
        let (all, projected) = brute_counts(&text);
        assert_eq!(projected, 10);
        assert!(all > 10, "auxiliaries multiply the count: {all}");
        // Pairwise: no auxiliaries, no show lines, and the plain count is the model's.
        let pairwise = CnfOptions {
            pairwise_up_to: usize::MAX,
            ..CnfOptions::default()
        };
        let text = to_dimacs(&m, &pairwise).unwrap();
        assert!(!text.contains("c p show"));
        assert_eq!(brute_counts(&text).0, 10);
        // 40 model variables: two lines (32 + 8).
        let text = to_dimacs(&row_model(40, Sense::AtMostOne), &CnfOptions::default()).unwrap();
        let shown: Vec<&str> = text.lines().filter(|l| l.starts_with("c p show")).collect();
        assert_eq!(shown.len(), 2);
        assert!(shown[1].ends_with(" 33 34 35 36 37 38 39 40 0"));
    }

    #[test]
    fn a_projected_cnf_exports_its_own_projection() {
        // Three variables, one clause, shown: 1 and 3 (the second is projected away).
        let text = "p cnf 3 1\nc p show 3 1 0\n1 2 3 0\n";
        let m = crate::read::read_str(crate::read::cnf::FORMAT, text, "projected").unwrap();
        assert_eq!(m.count_projection(), Some(&[0, 2][..]));
        let out = to_dimacs(&m, &CnfOptions::default()).unwrap();
        let shown: Vec<&str> = out.lines().filter(|l| l.starts_with("c p show")).collect();
        assert_eq!(shown, ["c p show 1 3 0"]);
        // Read back, the projection is the same.
        let back = crate::read::read_str(crate::read::cnf::FORMAT, &out, "back").unwrap();
        assert_eq!(back.count_projection(), m.count_projection());
    }

    /// A model of one row `sum weights[i] x_i (sense)` over `weights.len()` variables.
    fn weighted_model(weights: &[u64], sense: Sense) -> Model {
        let mut b = ModelBuilder::new("row", PuzzleKind::Generic);
        let vars: Vec<usize> = (0..weights.len())
            .map(|i| b.variable(format!("v{i}"), Coord::Free))
            .collect();
        let f = b.family("only");
        b.weighted_row(f, vars, weights.to_vec(), sense);
        b.build().unwrap()
    }

    /// For every assignment of the model variables, whether the CNF (auxiliaries free) is
    /// satisfiable under it, decided by varisat with the assignment as assumptions.
    fn accepted_assignments(cnf: &Cnf) -> Vec<bool> {
        use varisat::{ExtendFormula, Lit as VLit, Solver};
        let mut solver = Solver::new();
        for clause in &cnf.clauses {
            let lits: Vec<VLit> = clause
                .iter()
                .map(|&l| VLit::from_dimacs(l as isize))
                .collect();
            solver.add_clause(&lits);
        }
        let n = cnf.model_vars;
        (0u32..1 << n)
            .map(|bits| {
                let assumptions: Vec<VLit> = (0..n)
                    .map(|v| {
                        let l = v as isize + 1;
                        VLit::from_dimacs(if bits >> v & 1 == 1 { l } else { -l })
                    })
                    .collect();
                solver.assume(&assumptions);
                solver.solve().unwrap()
            })
            .collect()
    }

    #[test]
    fn general_row_encodings_accept_exactly_the_right_assignments() {
        let rows: [&[u64]; 6] = [
            &[1, 1, 1, 1, 1],
            &[1, 1],
            &[3, 1, 4, 1, 5],
            &[2, 2, 2, 2],
            &[7, 2, 9],
            &[1, 6, 2, 5, 3],
        ];
        let mut encoded = 0;
        for weights in rows {
            let total: u64 = weights.iter().sum();
            for k in 0..=total + 1 {
                for sense in [Sense::Exactly(k), Sense::AtMost(k), Sense::AtLeast(k)] {
                    let m = weighted_model(weights, sense);
                    for pb in PbEncoding::ALL {
                        let options = CnfOptions {
                            pb,
                            ..CnfOptions::default()
                        };
                        let cnf = Cnf::encode(&m, &options).unwrap();
                        let accepted = accepted_assignments(&cnf);
                        for (bits, &ok) in accepted.iter().enumerate() {
                            let sum: u64 = (0..weights.len())
                                .filter(|&i| bits >> i & 1 == 1)
                                .map(|i| weights[i])
                                .sum();
                            assert_eq!(
                                ok,
                                sense.holds(sum),
                                "{weights:?} {sense:?} {pb}: x = {bits:b} (sum {sum})"
                            );
                        }
                        encoded += usize::from(cnf.rows_cardinality + cnf.rows_pseudo_boolean > 0);
                    }
                }
            }
        }
        // Most of these rows are general (the rest are = 1 / <= 1 on unit weights).
        assert!(encoded > 300, "{encoded}");
    }

    #[test]
    fn general_rows_are_counted_and_named_in_the_header() {
        let mut b = ModelBuilder::new("mixed", PuzzleKind::Generic);
        let v: Vec<usize> = (0..6)
            .map(|i| b.variable(format!("v{i}"), Coord::Free))
            .collect();
        let card = b.family("card");
        let weighted = b.family("weighted");
        let cover = b.family("cover");
        b.row(card, v[..4].to_vec(), Sense::Exactly(2));
        b.row(card, v[2..].to_vec(), Sense::AtLeast(3));
        b.weighted_row(
            weighted,
            v.clone(),
            vec![1, 2, 3, 4, 5, 6],
            Sense::AtMost(9),
        );
        b.row(cover, vec![v[0], v[5]], Sense::AtMostOne);
        let m = b.build().unwrap();
        for pb in PbEncoding::ALL {
            let options = CnfOptions {
                pb,
                ..CnfOptions::default()
            };
            let cnf = Cnf::encode(&m, &options).unwrap();
            assert_eq!((cnf.rows_cardinality, cnf.rows_pseudo_boolean), (2, 1));
            assert_eq!((cnf.rows_pairwise, cnf.pairwise), (1, 1));
            assert!(cnf.cardinality > 0 && cnf.pseudo_boolean > 0);
            assert_eq!(
                cnf.clauses.len(),
                cnf.at_least_one
                    + cnf.pairwise
                    + cnf.sequential
                    + cnf.givens
                    + cnf.cardinality
                    + cnf.pseudo_boolean
            );
            let text = to_dimacs(&m, &options).unwrap();
            assert!(text.contains(&format!(
                "c general rows by rustsat {RUSTSAT_VERSION}: cardinality (unit weights, k != 1) by the totalizer, weighted by the {} ({pb})",
                pb.describe()
            )));
            assert!(text.contains(&format!(
                "c general rows: 2 cardinality (totalizer), 1 weighted ({pb})\n"
            )));
            assert!(text.contains(&format!(
                "c general-row clauses: {} totalizer, {} {pb} (included in the total)\n",
                cnf.cardinality, cnf.pseudo_boolean
            )));
            assert!(text.contains(&format!("p cnf {} {}\n", cnf.num_vars, cnf.clauses.len())));
            assert!(text.contains(
                "c families: card 2 (mixed), weighted 1 (<= 9, weights 1..6), cover 1 (<= 1)\n"
            ));
        }
        // An exact-cover model's header has none of these lines.
        let plain = to_dimacs(&row_model(9, Sense::ExactlyOne), &CnfOptions::default()).unwrap();
        assert!(!plain.contains("general"));
    }

    #[test]
    fn the_named_rustsat_version_is_the_locked_one() {
        let lock = include_str!("../../../../../Cargo.lock");
        let locked = format!("name = \"rustsat\"\nversion = \"{RUSTSAT_VERSION}\"\n");
        assert!(
            lock.contains(&locked),
            "Cargo.lock has another rustsat than {RUSTSAT_VERSION}"
        );
    }

    #[test]
    fn pb_encodings_parse_by_name() {
        for e in PbEncoding::ALL {
            assert_eq!(e.name().parse::<PbEncoding>().unwrap(), e);
        }
        assert_eq!("GTE".parse::<PbEncoding>().unwrap(), PbEncoding::Gte);
        assert!("bdd"
            .parse::<PbEncoding>()
            .unwrap_err()
            .contains("known: gte, dpw, adder"));
    }
}
