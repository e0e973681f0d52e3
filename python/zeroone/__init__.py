"""zeroone: 0-1 integer programming on grid puzzles, from Python.

Puzzles and models become 0-1 constraint matrices (binary variables; rows
``sum w_i x_i (=, <=, >=) k`` grouped into named families); the same model is fed to
every backend, and every answer passes the library's verifier before you see it.

    import zeroone
    for m in zeroone.load("data/sudoku/norvig_top95.txt"):
        r = zeroone.solve(m)               # bitset by default
        assert r.status == "solved" and r.verified

The compiled part (``zeroone._zeroone``) holds the library; this module only turns its
answers into Python objects (numpy, scipy and pandas are imported when first needed).
Type stubs: ``zeroone/__init__.pyi``.
"""

from __future__ import annotations

import atexit
import io
import os
import shutil
import stat
import sys
import tempfile
from typing import Any, Dict, Iterator, List, Optional

from . import _zeroone
from ._zeroone import BackendError, Model, ModelError, OptionError, ParseError, Result
from .expr import LinearModel

__version__ = _zeroone.__version__

__all__ = [
    "Model",
    "LinearModel",
    "Result",
    "CountResult",
    "ParseError",
    "ModelError",
    "OptionError",
    "BackendError",
    "load",
    "solve",
    "count",
    "solutions",
    "backends",
    "run",
    "records",
]


class CountResult:
    """One verified count: ``count`` (an exact Python int; None when the count failed),
    ``status`` (``solved`` when complete, ``limit`` when stopped at a limit, else why not),
    ``exhaustive``, ``verified`` (every witness checked passed the verifier), ``reason``,
    ``stats``, ``backend`` and ``certificate`` (``checked``, ``rejected`` or ``none``; see
    ``count(certify=True)``)."""

    __slots__ = ("status", "count", "exhaustive", "verified", "reason", "stats", "backend",
                 "seconds", "certificate")

    def __init__(self, raw: Dict[str, Any]):
        self.status: str = raw["status"]
        self.count: Optional[int] = raw["count"]
        self.exhaustive: bool = raw["exhaustive"]
        self.verified: bool = raw["verified"]
        self.reason: Optional[str] = raw["reason"]
        self.stats: Dict[str, Any] = raw["stats"]
        self.backend: str = raw["backend"]
        self.seconds: float = raw["seconds"]
        self.certificate: str = raw["certificate"]

    def __repr__(self) -> str:
        return (f"CountResult(count={self.count}, status={self.status!r}, "
                f"backend={self.backend!r}, exhaustive={self.exhaustive})")


def _params(params: Dict[str, Any]) -> Dict[str, str]:
    # Backend options travel as text, as on the command line (`--param key=value`).
    return {str(k): (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in params.items()}


def _model_of(model: "Model | LinearModel") -> Model:
    """A ``Model`` as it is; a ``LinearModel`` built (through the OPB reader)."""
    return model.model() if isinstance(model, LinearModel) else model


def load(path: "str | os.PathLike[str]", format: Optional[str] = None) -> Iterator[Model]:
    """The models of a puzzle file, read one at a time: every format the CLI reads
    (``.hex``, ``.queens``, Sudoku lines ``.sudoku``/``.txt``, ``.killer``, ``.star``,
    JSON/TOML models, each optionally ``.gz``). ``format`` names it when the file name does
    not. A malformed file raises ``ParseError`` (with ``.path``, ``.line``, ``.column``) when
    the bad puzzle is reached."""
    return _zeroone.load(os.fspath(path), format)


def solve(model: Model, backend: str = "auto", time_limit: Optional[float] = None,
          seed: Optional[int] = None, certify: bool = False,
          proof: "Optional[str | os.PathLike[str]]" = None, **params: Any) -> Result:
    """Solves ``model`` with ``backend`` and verifies the answer. ``time_limit`` (seconds) is
    taken only by backends that stop themselves (bitset, vsa, enum, xcc, milp); ``seed`` only by
    those that read one; ``params`` are the backend's own options (``zeroone.backends()``
    lists them). An option the backend does not read raises ``OptionError``. The GIL is
    released while the backend runs; Ctrl-C raises ``KeyboardInterrupt`` within a second.

    ``certify=True`` runs the backend with its VeriPB proof log (``bitset``; ``xcc`` without an
    objective) and checks the proof with ``veripb``: ``Result.certificate`` is ``checked``, or
    ``rejected`` (the status is then ``error``, the reason the checker's), or ``none`` when the
    run stopped without an answer. On a model with an objective the optimum is what is
    proved. ``proof=DIR`` keeps ``NAME.opb`` and ``NAME.pbp`` there (checked only with
    ``certify``). A backend that logs no proof, or a missing checker, raises ``OptionError``
    before anything runs. Checking often takes longer than solving."""
    return _zeroone.solve(_model_of(model), backend, time_limit, seed, _params(params),
                          certify, None if proof is None else os.fspath(proof))


def count(model: Model, backend: str = "auto", limit: Optional[int] = None,
          time_limit: Optional[float] = None, seed: Optional[int] = None,
          certify: bool = False, proof: "Optional[str | os.PathLike[str]]" = None,
          **params: Any) -> CountResult:
    """Counts the solutions of ``model`` (every witness verified), stopping after ``limit``
    when given. Options as for ``solve``; ``certify=True`` proves the exact count (each
    solution logged and excluded, then the rest refuted), so it takes no ``limit``."""
    return CountResult(_zeroone.count(_model_of(model), backend, limit, time_limit, seed,
                                      _params(params), certify,
                                      None if proof is None else os.fspath(proof)))


def solutions(model: Model, backend: str = "auto", limit: Optional[int] = None,
              time_limit: Optional[float] = None, seed: Optional[int] = None,
              **params: Any) -> Iterator[List[str]]:
    """Every solution of ``model``, one at a time (each verified, none repeated), as the
    labels of its variables set to 1. Stops after ``limit``; dropping the iterator stops the
    search. A backend that cannot stream raises ``OptionError``."""
    # Made now, so that a bad option raises here rather than at the first next().
    stream = _zeroone.solutions(_model_of(model), backend, limit, time_limit, seed,
                                _params(params))
    return (labels for labels, _ids in stream)


def backends() -> List[Dict[str, Any]]:
    """Every backend: ``name``, ``about``, ``params`` (the options it reads), whether it
    takes ``time_limit`` and ``seed``, and what it can do with its default options
    (``solves``, ``counts``, ``streams``)."""
    return _zeroone.backends()


def records(jsonl_path: "str | os.PathLike[str]"):
    """The records of a ``reports/NAME.jsonl`` file as a pandas DataFrame with the columns of
    the report's tidy CSV (one row per run; times in seconds; ``count``, ``objective`` and
    ``bound`` as exact Python ints, object columns; the schema is in the README, "Experiment
    files"). A malformed line raises ``ParseError``."""
    import pandas as pd

    text = _zeroone._records_csv(os.fspath(jsonl_path))
    exact = ("count", "objective", "bound")
    text_columns = ("reason", "limit_by", "sense", "file", "certificate")
    frame = pd.read_csv(io.StringIO(text), dtype={c: str for c in exact + text_columns})
    for c in exact:
        frame[c] = frame[c].map(lambda v: int(v) if isinstance(v, str) else None)
    return frame


def run(experiment_path: "str | os.PathLike[str]", resume: bool = True,
        reports: "Optional[str | os.PathLike[str]]" = None, jobs: Optional[int] = None,
        peers: bool = True):
    """Runs an experiment file as ``zeroone run`` does (each run in a worker process, under
    the experiment's limits), writes ``NAME.jsonl`` and its reports into ``reports`` (default:
    the experiment's own ``reports_dir``, relative to its file, as for ``zeroone run``), and
    returns the records as a DataFrame (see ``records``). ``resume`` continues the record file, skipping
    runs already on record; ``resume=False`` starts it afresh.

    The experiment's ``peers`` run as the CLI runs them: checked before anything runs (a
    missing package raises ``ValueError`` naming it and the command that installs it), run
    after the backends through ``experiments/peers/peers.py`` under ``$ZEROONE_PYTHON``
    (default ``python3``), their records joined and the reports written again.
    ``peers=False`` runs the backends alone (the CLI's ``--no-peers``).

    Ctrl-C raises ``KeyboardInterrupt`` within a second: running workers are killed, finished
    runs stay on record, and none cut short is recorded."""
    folder = None if reports is None else os.fspath(reports)
    exe = _cli_exe() if peers else None
    path = _zeroone._run(os.fspath(experiment_path), resume, folder, _worker_exe(), jobs, exe)
    return records(path)


_EXES: Dict[str, str] = {}


def _script_exe(name: str, command: str) -> str:
    """An executable ``name`` that runs ``command`` (a shell command line; the executable's
    own arguments follow it), made once per process in a temporary folder."""
    if name not in _EXES:
        folder = tempfile.mkdtemp(prefix="zeroone-exe-")
        atexit.register(shutil.rmtree, folder, True)
        exe = os.path.join(folder, name)
        with open(exe, "w") as f:
            f.write(f"#!/bin/sh\nexec {command} \"$@\"\n")
        os.chmod(exe, os.stat(exe).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        _EXES[name] = exe
    return _EXES[name]


def _worker_exe() -> str:
    """An executable that runs this interpreter as a zeroone worker (``EXE worker`` serves
    jobs on standard input)."""
    code = "from zeroone._zeroone import _serve_worker; _serve_worker()"
    return _script_exe("zeroone-worker", f"{_quote(sys.executable)} -c {_quote(code)}")


def _cli_exe() -> str:
    """An executable that stands in for the ``zeroone`` program peers.py calls (its
    ``export`` command, see ``zeroone/_cli.py``), run by this interpreter."""
    return _script_exe("zeroone", f"{_quote(sys.executable)} -m zeroone._cli")


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"
