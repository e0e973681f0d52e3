"""Linear expressions over 0-1 variables, as PySAT, OR-Tools and PuLP users write them:
``x + 2*y <= 3``, ``~x`` (the negation ``1 - x``), ``m.minimize(3*x - y)``.

A ``LinearModel`` collects rows and an objective and builds a ``zeroone.Model`` through the
OPB reader itself: each row is written as an OPB constraint (constants moved to the right-hand
side), each family under a ``* family NAME`` comment, so negative coefficients and negated
literals become complements ``~x`` (tied by ``x + ~x = 1`` in the family ``complement``) and a
row with more negative than positive terms is negated first, exactly as an ``.opb`` file is
read. Building costs one pass over the terms; the model is built again only after a change.
"""

from __future__ import annotations

import numbers
import re
from typing import Dict, List, Optional, Tuple

from . import _zeroone
from ._zeroone import Model, ModelError

# A label the OPB reader reads as one literal: no blank, no `;`, no relation character, not
# starting with a sign, a digit or `~` (which would make it a coefficient or a negation).
_LABEL = re.compile(r"[A-Za-z_][^\s;<>=~*+-]*")

# (label, negated) -> coefficient
_Terms = Dict[Tuple[str, bool], int]


def _whole(value, what: str) -> int:
    """``value`` as an exact int (a bool or a float with no fraction is taken), else
    ModelError naming ``what``."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise ModelError(f"{what} must be a whole number, found {value!r}")


class LinExpr:
    """``sum c * literal + constant`` over the variables of one ``LinearModel``; a literal is a
    variable or its negation ``~x``. Supports ``+``, ``-``, multiplication by a whole number,
    and the comparisons ``<=``, ``>=``, ``==`` (which make a ``Row``)."""

    __slots__ = ("model", "terms", "constant")

    def __init__(self, model: "LinearModel", terms: Optional[_Terms] = None, constant: int = 0):
        self.model = model
        self.terms: _Terms = dict(terms or {})
        self.constant = constant

    def _of(self, other) -> "LinExpr":
        if isinstance(other, LinExpr):
            if other.model is not self.model:
                raise ModelError("the two expressions belong to different models")
            return other
        return LinExpr(self.model, None, _whole(other, "a constant"))

    def __add__(self, other) -> "LinExpr":
        other = self._of(other)
        terms = dict(self.terms)
        for lit, c in other.terms.items():
            terms[lit] = terms.get(lit, 0) + c
        return LinExpr(self.model, terms, self.constant + other.constant)

    __radd__ = __add__

    def __neg__(self) -> "LinExpr":
        return LinExpr(self.model, {k: -c for k, c in self.terms.items()}, -self.constant)

    def __sub__(self, other) -> "LinExpr":
        return self + (-self._of(other))

    def __rsub__(self, other) -> "LinExpr":
        return self._of(other) + (-self)

    def __mul__(self, k) -> "LinExpr":
        k = _whole(k, "a coefficient")
        return LinExpr(self.model, {l: c * k for l, c in self.terms.items()}, self.constant * k)

    __rmul__ = __mul__

    def _row(self, relation: str, other) -> "Row":
        diff = self - self._of(other)
        return Row(diff, relation)

    def __le__(self, other) -> "Row":
        return self._row("<=", other)

    def __ge__(self, other) -> "Row":
        return self._row(">=", other)

    def __eq__(self, other) -> "Row":  # type: ignore[override]
        return self._row("=", other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        parts = [f"{c:+d} {'~' if neg else ''}{label}" for (label, neg), c in self.terms.items()]
        if self.constant or not parts:
            parts.append(f"{self.constant:+d}")
        return " ".join(parts)


class Var(LinExpr):
    """A 0-1 variable of a ``LinearModel`` (``m.var("x")``); ``~x`` is its negation."""

    __slots__ = ("label", "negated")

    def __init__(self, model: "LinearModel", label: str, negated: bool = False):
        super().__init__(model, {(label, negated): 1})
        self.label = label
        self.negated = negated

    def __invert__(self) -> "Var":
        return Var(self.model, self.label, not self.negated)

    def __hash__(self) -> int:
        return hash((id(self.model), self.label, self.negated))

    def __repr__(self) -> str:
        return ("~" if self.negated else "") + self.label


class Row:
    """``expression relation 0`` made by comparing two expressions; ``LinearModel.add`` takes
    it. ``bool(row)`` raises: a comparison is a row, not a truth value."""

    __slots__ = ("expr", "relation")

    def __init__(self, expr: LinExpr, relation: str):
        self.expr = expr
        self.relation = relation

    def __bool__(self):
        raise TypeError("a row (x + y <= 1) has no truth value; add it with m.add(row)")

    def opb(self) -> str:
        """The row as an OPB constraint, constants on the right (``+1 x +2 ~y >= 1 ;``); a
        row whose terms cancel keeps one variable at weight 0, so the reader drops it when it
        holds and makes the model infeasible when it cannot."""
        text = _terms_text(self.expr.terms)
        if not text:
            labels = [label for label, _ in self.expr.terms] or self.expr.model._labels
            if not labels:
                raise ModelError("a row without variables in a model without variables")
            text = f"+0 {labels[0]}"
        return f"{text} {self.relation} {-self.expr.constant} ;"


def _terms_text(terms: _Terms) -> str:
    """``+3 x -2 ~y`` for the nonzero terms."""
    return " ".join(f"{c:+d} {'~' if neg else ''}{label}"
                    for (label, neg), c in terms.items() if c != 0)


class LinearModel:
    """A 0-1 program written with expressions: ``m = LinearModel("name")``, ``x = m.var("x")``,
    ``m.add(x + 2*y <= 3)``, ``m.minimize(x - y)``; ``m.model()`` (or passing ``m`` to
    ``solve``, ``count``, ``solutions``) builds the ``zeroone.Model`` the OPB reader builds
    from the same rows."""

    def __init__(self, name: str = "model"):
        self.name = name
        self._labels: List[str] = []
        self._families: List[Tuple[str, List[Row]]] = []
        self._objective: Optional[Tuple[str, LinExpr]] = None
        self._built: Optional[Model] = None

    def var(self, label: str) -> Var:
        """The variable ``label``, made on first use (labels as OPB reads them: a letter or
        ``_`` first, no blank, ``;``, ``~``, sign or relation character)."""
        if not isinstance(label, str) or not _LABEL.fullmatch(label):
            raise ModelError(
                f"variable label {label!r}: expected a letter or _ first and no blank, ';', "
                "'~', '*', sign or relation character (the labels OPB reads)")
        if label not in self._labels:
            self._labels.append(label)
            self._built = None
        return Var(self, label)

    def vars(self, *labels: str) -> List[Var]:
        """``var`` of each label, in order."""
        return [self.var(l) for l in labels]

    def add(self, row: Row, family: str = "constraint") -> None:
        """Adds ``row`` (``x + y <= 1``) to ``family`` (default ``constraint``, as OPB)."""
        if not isinstance(row, Row):
            raise ModelError(f"expected a row such as x + y <= 1, found {type(row).__name__}")
        if row.expr.model is not self:
            raise ModelError("the row belongs to another model")
        if not re.fullmatch(r"\S+", family):
            raise ModelError(f"family name {family!r}: expected one word")
        for name, rows in self._families:
            if name == family:
                rows.append(row)
                break
        else:
            self._families.append((family, [row]))
        self._built = None

    def _objective_of(self, sense: str, expr) -> None:
        if isinstance(expr, Var) or isinstance(expr, LinExpr):
            if expr.model is not self:
                raise ModelError("the objective belongs to another model")
        else:
            raise ModelError("expected an expression such as 3*x - y as the objective")
        if expr.constant != 0:
            raise ModelError(
                f"the objective has a constant ({expr.constant}); OPB keeps none: leave it out")
        self._objective = (sense, expr)
        self._built = None

    def minimize(self, expr: LinExpr) -> None:
        """Sets the objective to minimise ``expr`` (no constant term)."""
        self._objective_of("min", expr)

    def maximize(self, expr: LinExpr) -> None:
        """Sets the objective to maximise ``expr`` (no constant term)."""
        self._objective_of("max", expr)

    def opb(self) -> str:
        """The program as OPB text: what ``model()`` reads. Its first row names every
        variable at weight 0 (``+0 x +0 y >= 0 ;``, which always holds, so the reader drops
        it): the model has every variable made, used or not, in the order they were made."""
        lines = []
        declare = (" ".join(f"+0 {label}" for label in self._labels) + " >= 0 ;"
                   if self._labels else None)
        for i, (family, rows) in enumerate(self._families):
            lines.append(f"* family {family}")
            if i == 0 and declare:
                lines.append(declare)
            lines.extend(row.opb() for row in rows)
        if not self._families and declare:
            lines.append(declare)
        if self._objective is not None:
            sense, expr = self._objective
            text = _terms_text(expr.terms) or (f"+0 {self._labels[0]}" if self._labels else "")
            if not text:
                raise ModelError("an objective in a model without variables")
            lines.append(f"{sense}: {text} ;")
        return "\n".join(lines) + "\n"

    def model(self) -> Model:
        """The ``zeroone.Model`` of these rows, read by the OPB reader (built once per change)."""
        if self._built is None:
            self._built = _zeroone._read_opb(self.opb(), self.name)
        return self._built
