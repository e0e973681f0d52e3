"""The documented API on models built in Python and read from the repository's files."""

import json

import numpy as np
import pytest

import zeroone


def latin2() -> zeroone.Model:
    """x[r][c] = cell (r, c) holds symbol 1, in a 2x2 Latin square: 2 solutions."""
    m = zeroone.Model("latin-2")
    m.add_variables(["a", "b", "c", "d"])
    m.add_family("row", "exactly-one", [["a", "b"], ["c", "d"]])
    m.add_family("column", "exactly-one", [["a", "c"], ["b", "d"]])
    return m


def test_a_built_model_solves_with_two_backends_and_every_answer_is_verified():
    m = latin2()
    for backend in ["bitset", "sat"]:
        r = zeroone.solve(m, backend=backend)
        assert r.status == "solved" and r.verified and r.backend == backend
        assert sorted(r.solution) in (["a", "d"], ["b", "c"])
        assert r.vector.dtype == np.int8
        assert list(r.vector) == [int(v in r.solution) for v in m.variable_labels()]
        assert r.objective is None
        assert isinstance(r.stats, dict) and r.seconds >= 0


def test_counts_are_exact_python_ints_and_solutions_are_each_solution_once():
    m = latin2()
    c = zeroone.count(m, backend="enum")
    assert (c.count, c.status, c.exhaustive, c.verified) == (2, "solved", True, True)
    assert type(c.count) is int
    found = [frozenset(s) for s in zeroone.solutions(m)]
    assert sorted(found, key=sorted) == [frozenset({"a", "d"}), frozenset({"b", "c"})]
    stopped = zeroone.count(m, limit=1)
    assert (stopped.count, stopped.status, stopped.exhaustive) == (1, "limit", False)


def test_big_counts_stay_exact_beyond_a_float():
    # 40 independent "at most one of a pair" rows: 3^40 solutions, past 2^63 (a float or an
    # int64 would lose it), counted by dynamic programming without enumerating them.
    m = zeroone.Model("pairs")
    labels = [f"x{i}" for i in range(80)]
    m.add_variables(labels)
    m.add_family("pair", "at-most-one", [labels[i:i + 2] for i in range(0, 80, 2)])
    c = zeroone.count(m, backend="dp")
    assert c.status == "solved" and c.count == 3 ** 40 and c.count > 2 ** 63


def test_counts_past_2_to_128_are_exact_ints():
    # 81 independent "exactly one of three" rows: 3^81 > 2^128 solutions, and 130 variables in
    # no row: 2^130. xcc's memo engine counts past u128 in big integers (issue 41).
    m = zeroone.Model("triples")
    labels = [f"x{i}" for i in range(243)]
    m.add_variables(labels)
    m.add_family("triple", "exactly-one", [labels[i:i + 3] for i in range(0, 243, 3)])
    c = zeroone.count(m, backend="xcc", engine="memo")
    assert (c.status, c.count, type(c.count)) == ("solved", 3 ** 81, int) and c.count > 2 ** 128
    free = zeroone.Model("free")
    free.add_variables([f"y{i}" for i in range(130)])
    assert zeroone.count(free, backend="xcc", engine="memo").count == 2 ** 130


def test_matrix_rows_and_labels_match_the_model():
    m = zeroone.Model("weighted")
    m.add_variables(["p", "q", "r"])
    m.add_family("cap", "at-most", [["p", "q", "r"]], rhs=4, weights=[[1, 2, 3]])
    m.add_family("pick", "at-least", [["p", "q"], ["q", "r"]], rhs=[1, 1])
    a = m.matrix()
    assert a.shape == (3, 3)
    assert a.toarray().tolist() == [[1, 2, 3], [1, 1, 0], [0, 1, 1]]
    assert m.row_labels() == ["cap_0", "pick_0", "pick_1"]
    assert m.variable_labels() == ["p", "q", "r"]
    assert m.row_senses() == [("<=", 4), (">=", 1), (">=", 1)]
    assert (m.num_variables, m.num_rows, m.families()) == (3, 3, ["cap", "pick"])


def test_json_round_trips_and_a_loaded_model_can_be_extended():
    m = latin2()
    m.add_givens(["a"])
    text = m.to_json()
    back = zeroone.Model.from_json(text)
    assert back.to_json() == text
    assert json.loads(text)["givens"] == ["a"]
    r = zeroone.solve(back)
    assert sorted(r.solution) == ["a", "d"]
    # A model read from JSON takes new rows like one built here.
    back.add_family("corner", "at-most-one", [["a", "d"]])
    assert zeroone.solve(back).status == "infeasible"


def test_load_streams_every_puzzle_of_a_file_and_solves_them(root):
    models = zeroone.load(root / "data/sudoku/norvig_top95.txt")
    first = [next(models) for _ in range(3)]
    assert [m.name for m in first] == ["norvig_top95#0", "norvig_top95#1", "norvig_top95#2"]
    for m in first:
        assert (m.num_variables, m.num_rows) == (729, 324)
        r = zeroone.solve(m)
        assert r.status == "solved" and r.verified and len(r.solution) == 81
        assert zeroone.count(m).count == 1
    assert sum(1 for _ in zeroone.load(root / "models/hex-9.hex")) >= 1


def test_backends_lists_the_registry():
    names = {b["name"]: b for b in zeroone.backends()}
    assert {"bitset", "sat", "enum", "dp", "milp", "brute", "vsa", "gauss"} <= set(names)
    assert names["vsa"]["seed"] and not names["bitset"]["seed"]
    assert "dim" in names["vsa"]["params"]


def test_backend_params_pass_through_as_text():
    m = latin2()
    assert zeroone.solve(m, backend="vsa", seed=3, dim=256).status == "solved"
    relaxed = zeroone.solve(m, backend="milp", relax=True)
    assert relaxed.backend == "milp" and relaxed.status in {"solved", "unknown"}


def test_a_time_limit_is_passed_to_backends_that_stop_themselves():
    r = zeroone.solve(latin2(), backend="bitset", time_limit=5.0)
    assert r.status == "solved"


def test_an_objective_is_optimised_and_its_value_is_exact():
    m = zeroone.Model("pick-two")
    m.add_variables(["a", "b", "c"])
    m.add_family("two", "at-most", [["a", "b", "c"]], rhs=2)
    m.set_objective("maximize", {"a": 3, "b": 5, "c": 4})
    r = zeroone.solve(m, backend="milp")
    assert r.status == "optimal" and r.verified
    assert sorted(r.solution) == ["b", "c"] and r.objective == 9 and type(r.objective) is int
    assert '"objective"' in m.to_json()
    with pytest.raises(zeroone.ModelError, match="'zz'"):
        m.set_objective("minimize", {"zz": 1})
