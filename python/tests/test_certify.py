"""Certified answers from Python (issue 38): ``solve(..., certify=True)`` and
``count(..., certify=True)`` run the backend with its proof log and check the proof with
``veripb``; ``Result.certificate`` says what came of it. Each answer is cross-checked with a
backend that logs no proof. Without ``veripb`` the tests that need it skip."""

import os
import pathlib
import shutil

import pytest

import zeroone


def _checker() -> bool:
    if os.environ.get("ZEROONE_VERIPB"):
        return os.path.isfile(os.environ["ZEROONE_VERIPB"])
    home = pathlib.Path.home() / ".cargo/bin/veripb"
    return shutil.which("veripb") is not None or home.is_file()


needs_checker = pytest.mark.skipif(
    not _checker(),
    reason="the proof checker veripb is not installed (cargo install veripb --version '^3' --locked)",
)


def queens(n: int) -> zeroone.Model:
    """n non-attacking rooks that never touch diagonally (a bare Queens board), built here:
    0, 0, 2, 14, 90 solutions for n = 2..6 (OEIS A002464)."""
    m = zeroone.Model(f"queens-{n}")
    cells = [[f"r{r}c{c}" for c in range(n)] for r in range(n)]
    m.add_variables([v for row in cells for v in row])
    m.add_family("row", "exactly-one", cells)
    m.add_family("column", "exactly-one", [[cells[r][c] for r in range(n)] for c in range(n)])
    touching = [[cells[r][c], cells[r + 1][c + d]] for r in range(n - 1) for c in range(n)
                for d in (-1, 1) if 0 <= c + d < n]
    m.add_family("touch", "at-most-one", touching)
    return m


@needs_checker
@pytest.mark.parametrize("n,known", [(2, 0), (3, 0), (4, 2), (5, 14), (6, 90)])
@pytest.mark.parametrize("backend", ["bitset", "xcc"])
def test_certified_counts_are_checked_and_agree_with_enum(n, known, backend):
    m = queens(n)
    c = zeroone.count(m, backend=backend, certify=True)
    plain = zeroone.count(m, backend="enum")
    assert (c.count, c.status, c.exhaustive) == (known, "solved", True)
    assert c.count == plain.count
    assert c.certificate == "checked"
    assert plain.certificate == "none"


@needs_checker
def test_certified_optima_agree_with_milp_and_infeasible_models_are_refuted(root, tmp_path):
    for path in ["models/knapsack-multi.toml", "models/set-cover-weighted.json"]:
        for m in zeroone.load(root / path):
            kept = tmp_path / path.replace("/", "-")
            r = zeroone.solve(m, backend="bitset", certify=True, proof=kept)
            milp = zeroone.solve(m, backend="milp")
            assert (r.status, r.certificate) == ("optimal", "checked"), path
            assert r.verified and r.objective == milp.objective == r.bound, path
            # The model and its proof stay (names made safe: '#' is not kept).
            assert sorted(p.suffix for p in kept.iterdir()) == [".opb", ".pbp"]
    for backend in ["bitset", "xcc"]:
        r = zeroone.solve(queens(3), backend=backend, certify=True)
        assert (r.status, r.certificate, r.solution) == ("infeasible", "checked", None)


@needs_checker
@pytest.mark.parametrize("backend", ["bitset", "xcc"])
def test_a_count_up_to_a_limit_is_certified_when_it_ends_first(backend):
    # queens(4) has 2 solutions: up to 3, the count ends first and is exact.
    c = zeroone.count(queens(4), backend=backend, limit=3, certify=True)
    assert (c.count, c.status, c.exhaustive, c.certificate) == (2, "solved", True, "checked")
    # queens(5) has 14: stopped at 2, a partial count, no certificate.
    c = zeroone.count(queens(5), backend=backend, limit=2, certify=True)
    assert (c.count, c.status, c.exhaustive, c.certificate) == (2, "limit", False, "none")
    assert c.verified


@needs_checker
def test_a_solution_is_certified_and_proof_alone_writes_without_checking(tmp_path):
    m = queens(5)
    r = zeroone.solve(m, backend="xcc", certify=True)
    assert (r.status, r.certificate, r.verified) == ("solved", "checked", True)
    kept = zeroone.solve(m, backend="bitset", proof=tmp_path / "proofs")
    assert (kept.status, kept.certificate) == ("solved", "none")
    assert sorted(p.suffix for p in (tmp_path / "proofs").iterdir()) == [".opb", ".pbp"]


def test_certify_is_refused_where_it_cannot_be_honoured(monkeypatch):
    m = queens(4)
    for backend in ["enum", "sat"]:
        with pytest.raises(zeroone.OptionError, match="cannot log proofs"):
            zeroone.solve(m, backend=backend, certify=True)
    monkeypatch.setenv("ZEROONE_VERIPB", "/no/such/veripb")
    with pytest.raises(zeroone.OptionError, match="veripb"):
        zeroone.count(m, backend="bitset", certify=True)
    # Without certify nothing changes.
    assert zeroone.count(m, backend="bitset").certificate == "none"
    assert zeroone.solve(m, backend="bitset").certificate == "none"


@needs_checker
def test_auto_certifies_through_its_logging_engine():
    # The default backend runs xcc (exact cover) or bitset with the proof log.
    r = zeroone.count(queens(4), certify=True)
    assert (r.status, r.count, r.certificate) == ("solved", 2, "checked")
    r = zeroone.solve(queens(5), certify=True)
    assert (r.status, r.certificate, r.verified) == ("solved", "checked", True)
