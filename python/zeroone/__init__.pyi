"""Type stubs of the zeroone package (hand-written; the implementation is zeroone._zeroone
plus the thin wrappers in __init__.py)."""

import os
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np
import pandas as pd
import scipy.sparse

from .expr import LinearModel as LinearModel

__version__: str

_Path = Union[str, "os.PathLike[str]"]

class ParseError(ValueError):
    """A malformed or unreadable file, located."""

    path: str
    """The file, as given."""
    line: Optional[int]
    """1-based line; None when the error concerns the whole file."""
    column: Optional[int]
    """1-based column (in characters); None when no column applies."""
    puzzle: Optional[int]
    """0-based index of the puzzle in the file, when the error is inside one."""

class ModelError(ValueError):
    """A model that cannot be built, or an edit that would make one (unknown label, empty row,
    bad weight or rhs, ...): raised at the call, which then leaves the model as it was."""

class OptionError(ValueError):
    """An unknown backend, an option the backend does not read or a bad value (refused,
    never ignored), or an ability the backend lacks."""

class BackendError(RuntimeError):
    """A backend failed while streaming solutions (one was rejected by the verifier)."""

class Model:
    """A 0-1 model: variables, families of rows ``sum w_i x_i (=, <=, >=) k``, givens.

    Every edit is checked at the call: a bad one raises ``ModelError`` and changes nothing.
    One model may be solved, counted and streamed from several threads at once; an edit made
    meanwhile applies to the runs started after it.

    Memory that grows with the input (the labels and rows given, the model built, a run's
    working memory) is checked against what this process can take before it is taken: past
    it, ``MemoryError`` says how much was needed, and nothing changes."""

    def __init__(self, name: str) -> None:
        """An empty model called ``name``."""
    @property
    def name(self) -> str: ...
    @property
    def num_variables(self) -> int: ...
    @property
    def num_rows(self) -> int: ...
    def add_variables(self, labels: Sequence[str]) -> None:
        """Adds variables with these labels (unique, no control characters), in order: all of
        them or, on ``ModelError``, none."""
    def add_family(
        self,
        name: str,
        sense: str,
        rows: Sequence[Sequence[str]],
        rhs: Union[int, Sequence[int]] = 1,
        weights: Optional[Sequence[Sequence[int]]] = None,
    ) -> None:
        """Adds a family of rows (lists of labels). ``sense``: ``"exactly-one"``,
        ``"at-most-one"``, ``"exactly"``, ``"at-most"`` or ``"at-least"``, in any case;
        ``rhs`` one ``k`` (0 to 2**53) for every row or one per row; ``weights`` positive ints
        in the shape of ``rows``, each row's total at most 2**53. Raises ``ModelError`` (and
        adds nothing) for a name in use, an empty row, a label unknown or twice in a row, a
        zero weight, a number out of range, lists not in the shape of ``rows``, or a row the
        givens already overfill."""
    def add_givens(self, labels: Sequence[str]) -> None:
        """Fixes these variables to 1; givens that clash (two in an exact-cover row, or
        summing past a row's bound) raise ``ModelError`` and none is added."""
    def set_objective(self, sense: str, costs: Dict[str, int]) -> None:
        """``sense`` ``"minimize"`` or ``"maximize"`` in any case (also ``"minimise"``,
        ``"maximise"``, ``"min"``, ``"max"``); integer ``costs`` from -2**53 to 2**53 by label
        (others 0). A bad sense, label or cost raises ``ModelError``."""
    def export(self, format: str) -> str:
        """The model as ``zeroone export --format FORMAT`` writes it (lp, mps, opb, cnf, json,
        xcc)."""
    def to_json(self) -> str:
        """The model in the JSON schema every zeroone command reads."""
    @classmethod
    def from_json(cls, text: str, path: str = "<json>") -> "Model":
        """A model from that JSON schema; errors raise ParseError with line and column."""
    def matrix(self) -> scipy.sparse.csr_matrix:
        """Rows x variables, weights as values (scipy CSR)."""
    def row_senses(self) -> List[Tuple[str, int]]:
        """Each row's relation (``=``, ``<=``, ``>=``) and right-hand side, in matrix order."""
    def row_labels(self) -> List[str]:
        """Each row's name, in matrix order, as the LP and MPS exports write it: the name its
        file gave it (an LP or MPS row name), else ``family_index``."""
    def variable_labels(self) -> List[str]:
        """Each variable's label, in matrix (column) order."""
    def families(self) -> List[str]:
        """Family names, in order."""
    def givens(self) -> List[str]:
        """Labels of the variables fixed to 1."""

class Result:
    """One verified solve."""

    status: str
    """``solved``, ``optimal``, ``feasible``, ``infeasible``, ``unknown``, ``timeout``,
    ``unsupported`` or ``error``."""
    solution: Optional[List[str]]
    """Labels of the variables set to 1 (only when solved, hence verified)."""
    verified: bool
    reason: Optional[str]
    stats: Dict[str, Any]
    backend: str
    seconds: float
    objective: Optional[int]
    """The solution's objective value (exact), or None when the model has no objective."""
    bound: Optional[int]
    """The best bound proved on the objective (equal to it when optimal), or None."""
    certificate: str
    """``checked``, ``rejected`` or ``none`` (see ``solve(certify=True)``)."""
    @property
    def vector(self) -> Optional[np.ndarray]:
        """0-1 int8 array over the variables (``Model.variable_labels()`` order)."""

class CountResult:
    """One verified count."""

    status: str
    """``solved`` (complete), ``limit`` (stopped at the limit), or why it failed."""
    count: Optional[int]
    """Exact; None when the count failed."""
    exhaustive: bool
    verified: bool
    reason: Optional[str]
    stats: Dict[str, Any]
    backend: str
    seconds: float
    certificate: str
    """``checked``, ``rejected`` or ``none`` (see ``count(certify=True)``)."""

def load(path: _Path, format: Optional[str] = None) -> Iterator[Model]:
    """The models of a puzzle file, one at a time (every format the CLI reads). A model past
    three quarters of the memory this process can take (its address-space limit or the
    system's available memory) raises ``MemoryError`` at the line that declares it."""

def solve(
    model: Union[Model, LinearModel],
    backend: str = "auto",
    time_limit: Optional[float] = None,
    seed: Optional[int] = None,
    certify: bool = False,
    proof: Optional[_Path] = None,
    **params: Any,
) -> Result:
    """Solves and verifies; the GIL is released; Ctrl-C raises KeyboardInterrupt."""

def count(
    model: Union[Model, LinearModel],
    backend: str = "auto",
    limit: Optional[int] = None,
    time_limit: Optional[float] = None,
    seed: Optional[int] = None,
    certify: bool = False,
    proof: Optional[_Path] = None,
    **params: Any,
) -> CountResult:
    """Counts solutions (every witness verified), stopping after ``limit``."""

def solutions(
    model: Union[Model, LinearModel],
    backend: str = "auto",
    limit: Optional[int] = None,
    time_limit: Optional[float] = None,
    seed: Optional[int] = None,
    **params: Any,
) -> Iterator[List[str]]:
    """Every solution (verified, distinct) as the labels set to 1."""

def backends() -> List[Dict[str, Any]]:
    """Every backend: name, about, params, time_limit, seed, solves, counts, streams."""

def records(jsonl_path: _Path) -> pd.DataFrame:
    """A record file as a DataFrame with the tidy CSV's columns."""

def run(
    experiment_path: _Path,
    resume: bool = True,
    reports: Optional[_Path] = None,
    jobs: Optional[int] = None,
    peers: bool = True,
) -> pd.DataFrame:
    """Runs an experiment (workers, limits, records, reports) and returns its records;
    ``reports`` defaults to the experiment's own ``reports_dir``."""
