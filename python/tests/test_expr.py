"""The expression layer (zeroone.LinearModel): rows written as `x + 2*y <= 3`, `~x`, objectives
with negative costs; checked against the OPB reader reading the same program by hand, and
against brute force over every assignment evaluated in Python."""

import itertools

import pytest

import zeroone


def holds(row, values):
    """Whether `row` (a zeroone.expr.Row) holds when each label takes `values[label]`."""
    total = row.expr.constant
    for (label, negated), c in row.expr.terms.items():
        v = values[label]
        total += c * (1 - v if negated else v)
    return {"<=": total <= 0, ">=": total >= 0, "=": total == 0}[row.relation]


def value(expr, values):
    return expr.constant + sum(
        c * (1 - values[l] if neg else values[l]) for (l, neg), c in expr.terms.items()
    )


def program():
    m = zeroone.LinearModel("mix")
    x, y, z, w = m.vars("x", "y", "z", "w")
    rows = [
        (x + 2 * y <= 2, "constraint"),
        (~x + z >= 1, "constraint"),
        (x - y + z - w == 0, "balance"),  # negative coefficients: complements
        (-y - z >= -1, "balance"),  # more negative than positive terms: negated first
        (3 <= x + y + z + w + 1, "cover"),  # constants on both sides
    ]
    for row, family in rows:
        m.add(row, family)
    objective = 3 * x - 2 * z + y - ~w
    m.minimize(objective)
    return m, [r for r, _ in rows], objective


HAND_WRITTEN = """* the same program as an OPB file, as a user would write it
* family constraint
+1 x +2 y <= 2 ;
+1 ~x +1 z >= 1 ;
* family balance
+1 x -1 y +1 z -1 w = 0 ;
-1 y -1 z >= -1 ;
* family cover
+1 x +1 y +1 z +1 w >= 2 ;
min: +3 x -2 z +1 y -1 ~w ;
"""


def test_the_rows_are_those_the_opb_reader_builds_from_the_same_program(tmp_path):
    m, _, _ = program()
    built = m.model()
    path = tmp_path / "mix.opb"
    path.write_text(HAND_WRITTEN)
    (read,) = list(zeroone.load(path))
    assert built.families() == read.families()
    assert built.row_senses() == read.row_senses()
    assert built.variable_labels() == read.variable_labels()
    assert (built.matrix() != read.matrix()).nnz == 0
    assert "complement" in built.families()
    a, b = zeroone.solve(built, "bitset"), zeroone.solve(read, "bitset")
    assert (a.status, a.objective) == (b.status, b.objective)


def test_counts_and_the_optimum_match_brute_force_over_every_assignment():
    m, rows, objective = program()
    labels = ["x", "y", "z", "w"]
    feasible = []
    for bits in itertools.product([0, 1], repeat=len(labels)):
        values = dict(zip(labels, bits))
        if all(holds(r, values) for r in rows):
            feasible.append(value(objective, values))
    solved = zeroone.solve(m, "bitset")
    assert solved.status == "optimal" and solved.objective == min(feasible)
    # Counting ignores the objective: the same rows without it.
    plain = zeroone.LinearModel("plain")
    x, y, z, w = plain.vars(*labels)
    for row in (x + 2 * y <= 2, ~x + z >= 1, x - y + z - w == 0, -y - z >= -1,
                3 <= x + y + z + w + 1):
        plain.add(row)
    assert zeroone.count(plain, "bitset").count == len(feasible)


def test_a_variable_no_row_names_is_still_a_variable_and_doubles_the_count():
    m = zeroone.LinearModel()
    x, y = m.vars("x", "y")
    m.var("unused")
    m.add(x + y == 1)
    assert m.model().variable_labels() == ["x", "y", "unused"]
    assert zeroone.count(m).count == 4


def test_rows_whose_terms_cancel_hold_or_make_the_model_infeasible():
    m = zeroone.LinearModel()
    x = m.var("x")
    m.add(x - x >= 0)
    assert zeroone.count(m).count == 2
    m.add(x - x >= 1)
    assert zeroone.count(m).count == 0


def test_bad_input_is_a_model_error():
    m = zeroone.LinearModel()
    x = m.var("x")
    for bad in ("2x", "~x", "a b", "x;y", ""):
        with pytest.raises(zeroone.ModelError, match="variable label"):
            m.var(bad)
    with pytest.raises(zeroone.ModelError, match="whole number"):
        m.add(x * 1.5 <= 1)
    with pytest.raises(zeroone.ModelError, match="constant"):
        m.minimize(x + 1)
    with pytest.raises(TypeError, match="no truth value"):
        bool(x <= 1)
    other = zeroone.LinearModel()
    with pytest.raises(zeroone.ModelError, match="different models"):
        x + other.var("y")


def test_auto_is_the_default_and_the_result_names_the_engine_that_ran():
    m = zeroone.LinearModel()
    x, y = m.vars("x", "y")
    m.add(x + y == 1)
    # Unit-weight exact cover: auto hands it to xcc, as `zeroone solve` does.
    assert zeroone.solve(m).backend == "xcc"
    assert zeroone.count(m).backend == "xcc"
    m.add(2 * x + y <= 2)
    assert zeroone.solve(m).backend == "bitset"
