"""Bad input to a Model being built is refused at the call, with ModelError saying what was
wrong, and leaves no trace: the model still builds, solves and counts as before."""

import json

import pytest

import zeroone

BIG = 2**53


def base() -> zeroone.Model:
    """Four variables, exactly one of a, b, c: three solutions (d free doubles them)."""
    m = zeroone.Model("m")
    m.add_variables(["a", "b", "c", "d"])
    m.add_family("one", "exactly-one", [["a", "b", "c"]])
    return m


def assert_untouched(m: zeroone.Model, givens=()) -> None:
    """The model is exactly base() (plus `givens`): same JSON, same count."""
    reference = base()
    if givens:
        reference.add_givens(list(givens))
    assert json.loads(m.to_json()) == json.loads(reference.to_json())
    assert m.families() == ["one"] and m.variable_labels() == ["a", "b", "c", "d"]
    expected = 6 if not givens else 1
    assert zeroone.count(m).count == expected
    assert zeroone.count(m, backend="brute").count == expected
    r = zeroone.solve(m)
    assert r.status == "solved" and r.verified


# Each case: the call's arguments, and what the message must say.
BAD_FAMILIES = {
    "empty row": (("f", "at-most-one", [["a"], []]), "row 1 of family 'f' is empty"),
    "weight 0": (("f", "at-most", [["a", "b"]], 1, [[1, 0]]), "gives 'b' weight 0"),
    "negative weight": (("f", "at-most", [["a", "b"]], 1, [[1, -2]]),
                        "row 0 of family 'f' has a weight of -2, below 1"),
    "too few weight lists": (("f", "at-most", [["a", "b"], ["c"]], 1, [[1, 2]]),
                             "family 'f' has 2 rows but 1 weight lists"),
    "too many weight lists": (("f", "at-most", [["a", "b"]], 1, [[1, 2], [3]]),
                              "family 'f' has 1 rows but 2 weight lists"),
    "a row's weights too short": (("f", "at-most", [["a", "b"]], 1, [[2]]),
                                  "row 0 of family 'f' has 2 variables but 1 weights"),
    "rhs list too short": (("f", "at-most", [["a", "b"], ["c", "d"]], [1]),
                           "family 'f' has 2 rows but 1 right-hand sides"),
    "rhs list too long": (("f", "at-most", [["a", "b"]], [1, 1]),
                          "family 'f' has 1 rows but 2 right-hand sides"),
    "duplicate family": (("one", "at-most-one", [["a", "d"]]), "two families are named 'one'"),
    "repeated variable": (("f", "at-most", [["a", "b", "a"]], 2),
                          "row 0 of family 'f' lists variable 'a' twice"),
    "weight above 2^53": (("f", "at-most", [["a", "b"]], 1, [[BIG + 1, 1]]),
                          f"weight of {BIG + 1}, above the limit 2^53"),
    "weight beyond 64 bits": (("f", "at-most", [["a", "b"]], 1, [[2**70, 1]]),
                              f"weight of {2**70}, above the limit 2^53"),
    "total weight above 2^53": (("f", "at-most", [["a", "b"]], 1, [[BIG, 1]]),
                                f"total weight of {BIG + 1}, above the limit 2^53"),
    "rhs above 2^53": (("f", "at-most", [["a", "b"]], BIG + 1),
                       f"family 'f' has a right-hand side of {BIG + 1}, above the limit 2^53"),
    "rhs beyond 64 bits": (("f", "at-most", [["a", "b"]], [2**64]),
                           f"row 0 of family 'f' has a right-hand side of {2**64}, above"),
    "negative rhs": (("f", "at-least", [["a", "b"]], -1),
                     "family 'f' has a right-hand side of -1, below 0"),
    "shared rhs above 2^53 on no row": (("f", "at-most", [], BIG + 1), "right-hand side of"),
    "unknown sense": (("f", "roughly-one", [["a", "b"]]),
                      "expected a sense: exactly-one, at-most-one"),
    "symbol for a sense": (("f", ">=", [["a", "b"]]), "write \"at-least\""),
    "exactly-one with rhs 2": (("f", "exactly-one", [["a", "b"]], 2), "right-hand side 1"),
    "unknown variable": (("f", "at-most-one", [["a", "zz"]]),
                         "row 0 of family 'f': 'zz' is not a variable of the model"),
    "control character in the name": (("f\n", "at-most-one", [["a", "b"]]),
                                      "family name without control characters"),
}


@pytest.mark.parametrize("case", sorted(BAD_FAMILIES))
def test_a_bad_family_is_refused_at_the_call_and_leaves_no_trace(case):
    args, message = BAD_FAMILIES[case]
    m = base()
    with pytest.raises(zeroone.ModelError) as e:
        m.add_family(*args)
    assert message in str(e.value), str(e.value)
    assert_untouched(m)


def test_a_family_the_givens_already_overfill_is_refused():
    m = base()
    m.add_givens(["a", "d"])
    with pytest.raises(zeroone.ModelError, match="givens 'a' and 'd' clash in row 0 of family 'f'"):
        m.add_family("f", "at-most-one", [["c", "d", "a"]])
    with pytest.raises(zeroone.ModelError, match="givens a, d sum to 5 in row 0 of family 'g'"):
        m.add_family("g", "at-most", [["a", "d"]], 4, weights=[[2, 3]])
    assert_untouched(m, givens=["a", "d"])


def test_clashing_givens_are_refused_at_the_call_and_none_is_added():
    m = base()
    with pytest.raises(zeroone.ModelError, match="givens 'a' and 'b' clash"):
        m.add_givens(["d", "a", "b"])
    with pytest.raises(zeroone.ModelError, match="given: 'zz' is not a variable"):
        m.add_givens(["d", "zz"])
    assert_untouched(m)


def test_bad_variables_are_refused_whole():
    m = base()
    with pytest.raises(zeroone.ModelError, match="two variables are labelled 'a'"):
        m.add_variables(["e", "a"])
    with pytest.raises(zeroone.ModelError, match="two variables are labelled 'e'"):
        m.add_variables(["e", "e"])
    with pytest.raises(zeroone.ModelError, match="variable label without control characters"):
        m.add_variables(["e", "f\tg"])
    assert_untouched(m)


@pytest.mark.parametrize("sense, costs, message", [
    ("largest", {"a": 1}, "expected a sense minimize or maximize"),
    ("maximize", {"zz": 1}, "objective: 'zz' is not a variable"),
    ("maximize", {"a": BIG + 1}, f"the cost of 'a' is {BIG + 1}, outside -2^53..=2^53"),
    ("maximize", {"a": -(2**80)}, f"the cost of 'a' is {-(2**80)}, outside"),
])
def test_a_bad_objective_is_refused_at_the_call(sense, costs, message):
    m = base()
    with pytest.raises(zeroone.ModelError) as e:
        m.set_objective(sense, costs)
    assert message in str(e.value), str(e.value)
    assert_untouched(m)


def test_sense_spellings_are_case_insensitive_everywhere():
    m = base()
    m.add_family("pair", "AT-MOST", [["b", "d"]], 2, weights=[[1, 2]])
    m.add_family("cap", "At-Most-One", [["a", "d"]])
    m.set_objective("MAXIMIZE", {"a": 3, "b": 2, "c": 1, "d": 5})
    model = json.loads(m.to_json())
    assert [f["sense"] for f in model["families"]] == ["exactly-one", "at-most", "at-most-one"]
    assert model["objective"]["sense"] == "maximize"
    # d excludes a and b: c + d (6) beats a alone (3) and b alone (2).
    r = zeroone.solve(m, backend="milp")
    assert (r.status, r.objective, sorted(r.solution)) == ("optimal", 6, ["c", "d"])
    for spelling, best in [("Max", 6), ("maximise", 6), ("MIN", 1), ("Minimise", 1)]:
        m.set_objective(spelling, {"a": 3, "b": 2, "c": 1, "d": 5})
        assert zeroone.solve(m, backend="milp").objective == best, spelling
    # The JSON reader takes the same spellings.
    model["families"][0]["sense"] = "EXACTLY-ONE"
    model["objective"]["sense"] = "Maximize"
    back = zeroone.Model.from_json(json.dumps(model))
    assert zeroone.solve(back, backend="milp").objective == 6


def test_numbers_of_other_integer_types_are_read_and_floats_refused():
    np = pytest.importorskip("numpy")
    m = base()
    m.add_family("w", "at-most", [["a", "d"]], np.int64(3), weights=[[np.int64(2), 2]])
    assert m.row_senses()[-1] == ("<=", 3)
    with pytest.raises(TypeError):
        m.add_family("x", "at-most", [["a", "d"]], 1.5)
    assert m.families() == ["one", "w"]


def test_row_labels_keep_an_lp_files_row_names(tmp_path):
    path = tmp_path / "m.lp"
    path.write_text("Subject To\n cov3: x + y >= 1\n x + z >= 1\nBinary\n x y z\nEnd\n")
    model = next(iter(zeroone.load(path)))
    assert model.row_labels() == ["cov3", "row_1"]
    assert " cov3: " in model.export("lp")
