//! Tests of the model: building, checks, serialisation and reduction.

use crate::model::{
    Coord, Model, ModelBuilder, ModelError, PuzzleKind, Sense, Solution, VarId, MAX_COEFFICIENT,
};

fn tiny() -> Model {
    let mut b = ModelBuilder::new("tiny", PuzzleKind::Generic);
    let x: Vec<VarId> = (0..4)
        .map(|i| b.variable(format!("x{i}"), Coord::Free))
        .collect();
    let f = b.family("pair");
    b.row(f, vec![x[1], x[0]], Sense::ExactlyOne);
    b.row(f, vec![x[2], x[3]], Sense::ExactlyOne);
    let g = b.family("cross");
    b.row(g, vec![x[0], x[2]], Sense::AtMostOne);
    b.given(x[0]);
    b.build().unwrap()
}

#[test]
fn rows_are_sorted_and_summary_counts() {
    let m = tiny();
    assert_eq!(m.constraints()[0].vars, vec![0, 1]);
    let s = m.summary();
    assert_eq!(s.variables, 4);
    assert_eq!(s.constraints, 3);
    assert_eq!(s.nonzeros, 6);
    assert_eq!(s.families["pair"], 2);
}

#[test]
fn reduce_fixes_neighbours_and_lifts_back() {
    let m = tiny();
    let r = m.reduce();
    // x0 = 1 fixes x1 = 0 and x2 = 0; only x3 is left, forced by the second pair row.
    assert_eq!(r.model.num_variables(), 1);
    assert_eq!(r.original, vec![3]);
    assert!(!r.infeasible);
    let lifted = r.lift(&Solution::new(vec![0]));
    assert_eq!(lifted.ones, vec![0, 3]);
}

#[test]
fn givens_as_rows_adds_a_family() {
    let m = tiny().with_givens_as_rows();
    assert!(m.givens().is_empty());
    assert_eq!(m.summary().families["given"], 1);
    // Three equality rows now (the two pairs and the given); the dense view of them moved to
    // gauss with nalgebra (backend::gauss::dense checks it on this model).
    let equalities = m.constraints().iter().filter(|c| c.sense.is_equality());
    assert_eq!(equalities.count(), 3);
}

#[test]
fn build_rejects_bad_rows() {
    let mut b = ModelBuilder::new("bad", PuzzleKind::Generic);
    b.variable("a", Coord::Free);
    let f = b.family("f");
    b.row(f, vec![0, 3], Sense::ExactlyOne);
    assert!(matches!(
        b.build(),
        Err(ModelError::UnknownVariable { var: 3, .. })
    ));
    let mut b = ModelBuilder::new("bad", PuzzleKind::Generic);
    b.variable("a", Coord::Free);
    b.variable("b", Coord::Free);
    let f = b.family("f");
    b.row(f, vec![0, 1], Sense::ExactlyOne);
    b.given(0);
    b.given(1);
    assert!(matches!(b.build(), Err(ModelError::ClashingGivens { .. })));
}

#[test]
fn with_givens_checks_range_and_clashes_like_the_builder() {
    let m = tiny();
    let other = m.with_givens("other", vec![3, 3]).unwrap();
    assert!(other.shares_shape_with(&m));
    assert_eq!(other.givens(), &[3]);
    assert!(matches!(
        m.with_givens("x", vec![9]),
        Err(ModelError::UnknownGiven { var: 9, .. })
    ));
    // x0 and x2 share the "cross" row, and x2, x3 the second "pair" row.
    assert_eq!(
        m.with_givens("x", vec![2, 0, 3]),
        Err(ModelError::ClashingGivens {
            first: "x2".into(),
            second: "x3".into(),
            family: "pair".into(),
            index: 1,
        })
    );
}

#[test]
fn stored_and_derived_labels_mix() {
    let mut b = ModelBuilder::new("mix", PuzzleKind::Generic);
    b.coord_variable(Coord::Cell { row: 0, col: 1 });
    b.variable("named", Coord::Free);
    b.coord_variable(Coord::Free);
    let f = b.family("f");
    b.row(f, vec![0, 1, 2], Sense::ExactlyOne);
    let m = b.build().unwrap();
    let labels: Vec<_> = (0..3).map(|v| m.label(v).into_owned()).collect();
    assert_eq!(labels, ["r0c1", "named", "x2"]);
    let r = m.reduce();
    assert_eq!(r.model.label(1), "named");
}

/// Four free variables: "two" (exactly 2 of all), "budget" (weights 1, 2, 3, 4 at most 5).
fn two_on_a_budget() -> Model {
    let mut b = ModelBuilder::new("budget", PuzzleKind::Generic);
    for _ in 0..4 {
        b.coord_variable(Coord::Free);
    }
    let two = b.family("two");
    b.row(two, vec![3, 2, 1, 0], Sense::Exactly(2));
    let budget = b.family("budget");
    b.weighted_row(budget, vec![3, 0, 1, 2], vec![4, 1, 2, 3], Sense::AtMost(5));
    b.build().unwrap()
}

#[test]
fn the_builder_sorts_weights_with_their_variables_and_normalizes_senses() {
    let m = two_on_a_budget();
    let budget = &m.constraints()[1];
    assert_eq!(
        (budget.vars.clone(), budget.weights.clone()),
        (vec![0, 1, 2, 3], Some(vec![1, 2, 3, 4]))
    );
    assert_eq!(m.row_weights_of(3), Some(&[1, 4][..]));
    let mut b = ModelBuilder::new("n", PuzzleKind::Generic);
    let (x, y) = (b.coord_variable(Coord::Free), b.coord_variable(Coord::Free));
    let f = b.family("f");
    b.weighted_row(f, vec![x, y], vec![1, 1], Sense::Exactly(1));
    b.weighted_row(f, vec![x, y], vec![2, 1], Sense::AtMostOne);
    b.row(f, vec![x, y], Sense::AtMost(1));
    let m = b.build().unwrap();
    let senses: Vec<Sense> = m.constraints().iter().map(|c| c.sense).collect();
    assert_eq!(
        senses,
        [Sense::ExactlyOne, Sense::AtMost(1), Sense::AtMostOne]
    );
    assert_eq!(m.constraints()[0].weights, None);
    assert!(!m.is_exact_cover());
}

#[test]
fn bad_weights_are_refused_by_the_builder() {
    let build = |weights: Vec<u64>, sense: Sense| {
        let mut b = ModelBuilder::new("w", PuzzleKind::Generic);
        let vars: Vec<VarId> = (0..weights.len().max(2))
            .map(|_| b.coord_variable(Coord::Free))
            .collect();
        let f = b.family("f");
        b.weighted_row(f, vars[..2].to_vec(), weights, sense);
        b.build()
    };
    assert!(matches!(
        build(vec![1, 0], Sense::Exactly(1)),
        Err(ModelError::ZeroWeight { .. })
    ));
    assert!(matches!(
        build(vec![1], Sense::Exactly(1)),
        Err(ModelError::WeightCount {
            vars: 2,
            weights: 1,
            ..
        })
    ));
    let huge = MAX_COEFFICIENT;
    assert!(matches!(
        build(vec![huge, 1], Sense::Exactly(1)),
        Err(ModelError::CoefficientTooLarge {
            what: "total weight",
            ..
        })
    ));
    assert!(matches!(
        build(vec![1, 1], Sense::AtLeast(huge + 1)),
        Err(ModelError::CoefficientTooLarge {
            what: "right-hand side",
            ..
        })
    ));
    assert!(build(vec![huge - 1, 1], Sense::AtLeast(huge)).is_ok());
}

#[test]
fn givens_use_up_general_rows_and_may_not_overfill_them() {
    let m = two_on_a_budget();
    // x3 (weight 4) and x1 (weight 2) overfill the budget of 5.
    assert_eq!(
        m.with_givens("g", vec![3, 1]),
        Err(ModelError::OverfullRow {
            givens: "x1, x3".into(),
            sum: 6,
            sense: "<= 5".into(),
            family: "budget".into(),
            index: 0,
        })
    );
    // Given x3: one more of x0 (weight 1) only; "two" needs exactly 1 more, budget <= 1.
    let r = m.with_givens("g", vec![3]).unwrap().reduce();
    assert!(!r.infeasible);
    let senses: Vec<Sense> = r.model.constraints().iter().map(|c| c.sense).collect();
    assert_eq!(senses, [Sense::ExactlyOne, Sense::AtMost(1)]);
    assert_eq!(r.model.constraints()[1].weights, Some(vec![1, 2, 3]));
    // Given x0 and x1: "two" is full (exactly 0 more), the budget has 2 left.
    let r = m.with_givens("g", vec![0, 1]).unwrap().reduce();
    assert_eq!(r.model.constraints()[0].sense, Sense::Exactly(0));
    assert_eq!(r.model.constraints()[1].sense, Sense::AtMost(2));
}

#[test]
fn reduce_drops_rows_the_givens_leave_always_true_and_finds_dead_ones() {
    let mut b = ModelBuilder::new("r", PuzzleKind::Generic);
    let x: Vec<VarId> = (0..3).map(|_| b.coord_variable(Coord::Free)).collect();
    let f = b.family("f");
    b.row(f, x.clone(), Sense::AtLeast(1));
    b.weighted_row(f, vec![x[1], x[2]], vec![2, 2], Sense::Exactly(3));
    let m = b.build().unwrap();
    let r = m.with_givens("g", vec![0]).unwrap().reduce();
    // The at-least row is met by x0 and dropped; the odd row stays (it is infeasible, but
    // only a search finds that: 2 + 2 and 2 are not 3).
    assert_eq!(r.model.constraints().len(), 1);
    // A row left with no free variable and a need it cannot meet is infeasible at once.
    let mut b = ModelBuilder::new("d", PuzzleKind::Generic);
    let x: Vec<VarId> = (0..2).map(|_| b.coord_variable(Coord::Free)).collect();
    let f = b.family("f");
    b.row(f, x.clone(), Sense::ExactlyOne);
    b.row(f, x.clone(), Sense::AtLeast(2));
    let m = b.build().unwrap().with_givens("g", vec![0]).unwrap();
    assert!(m.reduce().infeasible);
}

#[test]
fn a_general_model_round_trips_through_serde() {
    let m = two_on_a_budget();
    let text = serde_json::to_string(&m).unwrap();
    assert!(text.contains(r#""sense":"exactly","rhs":2"#), "{text}");
    assert!(text.contains(r#""weights":[1,2,3,4]"#), "{text}");
    let back: Model = serde_json::from_str(&text).unwrap();
    assert_eq!(back, m);
    let bad = text.replacen(r#""sense":"exactly""#, r#""sense":"roughly""#, 1);
    assert!(serde_json::from_str::<Model>(&bad).is_err());
}

#[test]
fn a_row_checked_alone_gets_the_error_the_builder_gives_and_a_good_one_builds() {
    use crate::model::Constraint;
    // (variables of the row, weights, sense), over a model of 3 variables.
    let rows: Vec<(Vec<VarId>, Option<Vec<u64>>, Sense)> = vec![
        (vec![], None, Sense::AtMostOne),
        (vec![0, 5], None, Sense::ExactlyOne),
        (vec![2, 0, 2], None, Sense::AtMost(2)),
        (vec![1, 0], Some(vec![1, 0]), Sense::Exactly(1)),
        (vec![1, 0], Some(vec![3]), Sense::Exactly(1)),
        (
            vec![0, 1],
            Some(vec![MAX_COEFFICIENT + 1, 1]),
            Sense::AtMost(1),
        ),
        (vec![0, 1], Some(vec![MAX_COEFFICIENT, 1]), Sense::AtMost(1)),
        (vec![0, 1], None, Sense::AtLeast(MAX_COEFFICIENT + 1)),
        (vec![2, 0], Some(vec![1, 1]), Sense::Exactly(1)),
        (vec![2, 1], Some(vec![3, 2]), Sense::AtMost(4)),
    ];
    for (vars, weights, sense) in rows {
        let mut b = ModelBuilder::new("m", PuzzleKind::Generic);
        for l in ["a", "b", "c"] {
            b.variable(l, Coord::Free);
        }
        let f = b.family("f");
        b.family("g");
        let row = Constraint::new(f, 0, vars.clone(), weights.clone(), sense);
        match weights {
            Some(w) => b.weighted_row(f, vars, w, sense),
            None => b.row(f, vars, sense),
        };
        let label = |v: VarId| ["a", "b", "c"].get(v).map_or("?", |l| l).to_string();
        let built = b.build();
        assert_eq!(&row, built.as_ref().map_or(&row, |m| &m.constraints()[0]));
        assert_eq!(row.check("f", 3, &label), built.map(|_| ()), "{row:?}");
    }
}

#[test]
fn sense_names_are_read_in_any_case() {
    use crate::model::{is_sense_name, parse_sense, ObjectiveSense};
    assert_eq!(parse_sense("Exactly-One", None), Ok(Sense::ExactlyOne));
    assert_eq!(parse_sense("AT-MOST", Some(3)), Ok(Sense::AtMost(3)));
    assert_eq!(parse_sense("at-LEAST", Some(2)), Ok(Sense::AtLeast(2)));
    assert!(is_sense_name("AT-MOST-ONE") && !is_sense_name("at most one"));
    let refused = parse_sense(">=", Some(2)).unwrap_err();
    assert!(refused.contains("write \"at-least\""), "{refused}");
    let two = parse_sense("EXACTLY-ONE", Some(2)).unwrap_err();
    assert!(two.contains("'EXACTLY-ONE'"), "{two}");
    for (text, sense) in [
        ("MAXIMIZE", ObjectiveSense::Maximize),
        ("Max", ObjectiveSense::Maximize),
        ("maximise", ObjectiveSense::Maximize),
        ("Minimize", ObjectiveSense::Minimize),
        ("MIN", ObjectiveSense::Minimize),
    ] {
        assert_eq!(ObjectiveSense::parse(text), Some(sense), "{text}");
    }
    assert_eq!(ObjectiveSense::parse("most"), None);
}

#[test]
fn row_names_are_kept_checked_and_cost_nothing_when_they_are_the_made_name() {
    let mut b = ModelBuilder::new("n", PuzzleKind::Generic);
    let x = b.variable("x", Coord::Free);
    let y = b.variable("y", Coord::Free);
    let f = b.family("knap");
    let first = b.row(f, vec![x, y], Sense::AtLeast(1));
    let second = b.row(f, vec![x], Sense::AtMost(1));
    b.name_row(first, "cover");
    // `knap_1` is the name the exports give the second row anyway: not stored.
    b.name_row(second, "knap_1");
    let model = b.clone().build().unwrap();
    assert_eq!(model.row_label(first), Some("cover"));
    assert_eq!(model.row_label(second), None);
    assert_eq!(
        model.describe_row(first),
        "row 'cover' (row 0 of family 'knap')"
    );
    assert_eq!(model.describe_row(second), "row 1 of family 'knap'");
    // Reduced (y fixed to 0): `x >= 1` keeps its name; the "at most one" row stays unnamed.
    let reduced = model.reduce_fixed(&[None, Some(false)]).model;
    assert_eq!(reduced.constraints().len(), 2);
    assert_eq!(reduced.constraints()[0].sense, Sense::AtLeast(1));
    assert_eq!(
        (reduced.row_label(0), reduced.row_label(1)),
        (Some("cover"), None)
    );
    for (row, name) in [(7, "far"), (first, ""), (first, "a\u{7}b")] {
        let mut bad = b.clone();
        bad.name_row(row, name);
        let e = bad.build().unwrap_err();
        assert!(matches!(e, ModelError::RowLabel { .. }), "{e}");
    }
}
