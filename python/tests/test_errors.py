"""Bad input raises located, typed exceptions; nothing crashes."""

import pytest

import zeroone


def test_a_malformed_puzzle_file_raises_parse_error_with_its_location(tmp_path):
    bad = tmp_path / "bad.txt"
    good = "." * 81
    bad.write_text(good + "\n" + "." * 40 + "x" + "." * 40 + "\n")
    models = zeroone.load(bad)
    assert next(models).name == "bad#0"
    with pytest.raises(zeroone.ParseError) as e:
        next(models)
    assert (e.value.path, e.value.line, e.value.column, e.value.puzzle) == (str(bad), 2, 41, 1)
    assert isinstance(e.value, ValueError)


def test_a_missing_file_and_an_unknown_format_raise_parse_error(tmp_path):
    with pytest.raises(zeroone.ParseError) as e:
        zeroone.load(tmp_path / "none.txt")
    assert e.value.line is None and e.value.column is None
    (tmp_path / "x.unknown").write_text("abc\n")
    with pytest.raises(zeroone.ParseError):
        zeroone.load(tmp_path / "x.unknown")
    with pytest.raises(zeroone.OptionError):
        zeroone.load(tmp_path / "x.unknown", format="nonsense")


def test_bad_json_raises_parse_error_at_the_offending_element():
    text = '{"name": "m",\n "variables": ["a", "b"],\n "families": [{"name": "f", "sense": "exactly-one", "rows": [["a", "zz"]]}]}'
    with pytest.raises(zeroone.ParseError) as e:
        zeroone.Model.from_json(text, path="m.json")
    assert e.value.path == "m.json" and e.value.line == 3 and e.value.column is not None
    assert "zz" in str(e.value)


def test_model_mistakes_raise_model_error():
    m = zeroone.Model("m")
    m.add_variables(["a", "b"])
    with pytest.raises(zeroone.ModelError, match="'zz'"):
        m.add_family("f", "exactly-one", [["a", "zz"]])
    with pytest.raises(zeroone.ModelError, match="exactly-one, at-most-one"):
        m.add_family("f", "roughly-one", [["a", "b"]])
    with pytest.raises(zeroone.ModelError, match="labelled 'a'"):
        m.add_variables(["a"])
    # Refused at the call (see test_model_input.py for every case), so the model still solves.
    with pytest.raises(zeroone.ModelError, match="gives 'b' weight 0"):
        m.add_family("f", "exactly", [["a", "b"]], rhs=1, weights=[[1, 0]])
    m.add_family("f", "exactly-one", [["a", "b"]])
    assert zeroone.count(m).count == 2


def test_bad_backend_options_are_refused_not_ignored():
    m = zeroone.Model("m")
    m.add_variables(["a"])
    m.add_family("f", "exactly-one", [["a"]])
    with pytest.raises(zeroone.OptionError, match="unknown backend"):
        zeroone.solve(m, backend="nope")
    with pytest.raises(zeroone.OptionError, match="does not take option 'dim'"):
        zeroone.solve(m, backend="bitset", dim=64)
    with pytest.raises(zeroone.OptionError, match="seed"):
        zeroone.solve(m, backend="bitset", seed=1)
    with pytest.raises(zeroone.OptionError, match="cannot stop itself"):
        zeroone.solve(m, backend="brute", time_limit=1)
    with pytest.raises(zeroone.OptionError, match="time_limit"):
        zeroone.solve(m, time_limit=-1)
    with pytest.raises(zeroone.OptionError, match="cannot solve"):
        zeroone.solve(m, backend="dp")
    with pytest.raises(zeroone.OptionError, match="every solution"):
        zeroone.solutions(m, backend="milp")
    with pytest.raises(zeroone.OptionError, match="expected"):
        zeroone.solve(m, backend="vsa", dim="many")


def test_a_model_a_backend_cannot_read_is_unsupported_not_wrong():
    m = zeroone.Model("general")
    m.add_variables(["a", "b", "c"])
    m.add_family("two", "exactly", [["a", "b", "c"]], rhs=2)
    r = zeroone.solve(m, backend="enum")
    assert r.status in {"solved", "unsupported"}
    if r.status == "unsupported":
        assert r.solution is None and r.reason
    g = zeroone.solve(m, backend="gauss")
    assert g.status in {"unknown", "unsupported", "solved"}
    assert g.solution is None or g.verified


def test_a_broken_record_file_raises_parse_error_with_its_line(tmp_path):
    bad = tmp_path / "x.jsonl"
    bad.write_text("{}\n")
    with pytest.raises(zeroone.ParseError) as e:
        zeroone.records(bad)
    assert e.value.line == 1


def test_numbers_out_of_range_are_option_errors_naming_the_argument():
    m = zeroone.Model("m")
    m.add_variables(["a", "b"])
    m.add_family("f", "exactly-one", [["a", "b"]])
    with pytest.raises(zeroone.OptionError, match=r"^limit = -1: expected a whole number from 0"):
        zeroone.count(m, limit=-1)
    with pytest.raises(zeroone.OptionError, match=rf"^limit = {2**70}: expected"):
        zeroone.solutions(m, limit=2**70)
    with pytest.raises(zeroone.OptionError, match=r"^seed = -3: expected"):
        zeroone.solve(m, backend="vsa", seed=-3)
    with pytest.raises(zeroone.OptionError, match=r"time_limit = 0: expected a number of seconds above 0"):
        zeroone.solve(m, time_limit=0)
    # The largest values are taken.
    assert zeroone.count(m, limit=2**64 - 1).count == 2
    assert zeroone.solve(m, backend="vsa", seed=2**64 - 1).status in {"solved", "unknown"}
