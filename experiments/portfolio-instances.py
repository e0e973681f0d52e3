#!/usr/bin/env python3
"""The seeded instances of experiments/portfolio.toml (the measurement behind `auto`'s rules),
written to models/generated/portfolio/ (one model per file; the folder is not tracked).

Every instance comes from its own seed (family, size) with Python's `random.Random(seed)`,
`randrange` and `sample` only, so the files are the same on every run and machine:

- `3sat-N.cnf`: random 3-SAT in DIMACS CNF, N variables, round(3.33 N) clauses of three
  distinct variables with random signs (below the satisfiability threshold of about 4.27, so
  nearly all are satisfiable); N = 3000 is the issue's 3,000-variable, 10,000-clause CNF.
- `rows-N.json`: general rows without an objective: N variables, N/4 random cardinality rows
  `sum x >= 2` and `sum x <= 5` over 8 variables each, and N/10 knapsack rows
  `sum w x <= W` over 10 variables (weights 1..20, W half the row's total).
- `setcover-N.json`: weighted set cover as in experiments/optimisation-instances.py
  (N elements, 2N sets of 2 to 6 elements, costs 1..20), an objective of 2N terms.
- `knapsack-N.json`: three-row 0-1 knapsack, maximise (N items), as there.

Run from the repository root:  python3 experiments/portfolio-instances.py
"""

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(__file__))
from importlib import import_module

optimisation = import_module("optimisation-instances")

OUT = os.path.join("models", "generated", "portfolio")


def three_sat(n, rng):
    m = round(3.33 * n)
    lines = [f"c random 3-SAT, {n} variables, {m} clauses (seed 3sat-{n})", f"p cnf {n} {m}"]
    for _ in range(m):
        vs = rng.sample(range(1, n + 1), 3)
        lines.append(" ".join(str(v if rng.randrange(2) else -v) for v in vs) + " 0")
    return "\n".join(lines) + "\n"


def rows(n, rng):
    names = [f"x{i}" for i in range(n)]
    card = [rng.sample(names, 8) for _ in range(n // 4)]
    knap = [rng.sample(names, 10) for _ in range(n // 10)]
    weights = [[rng.randrange(1, 21) for _ in r] for r in knap]
    return {
        "name": f"general rows: {n} variables, {len(card)} cardinality pairs, {len(knap)} knapsacks",
        "variables": names,
        "families": [
            {"name": "at-least-2", "sense": "at-least", "rhs": 2, "rows": card},
            {"name": "at-most-5", "sense": "at-most", "rhs": 5, "rows": card},
            {"name": "knapsack", "sense": "at-most", "rhs": [sum(w) // 2 for w in weights],
             "rows": knap, "weights": weights},
        ],
    }


FAMILIES = [
    ("3sat", three_sat, ".cnf", [100, 300, 1000, 3000]),
    ("rows", rows, ".json", [40, 200, 1000]),
    ("setcover", optimisation.set_cover, ".json", [20, 100, 400, 1500]),
    ("knapsack", optimisation.knapsack, ".json", [20, 60, 200]),
]


def main():
    os.makedirs(OUT, exist_ok=True)
    for family, make, ext, sizes in FAMILIES:
        for size in sizes:
            rng = random.Random(f"{family}-{size}")
            path = os.path.join(OUT, f"{family}-{size}{ext}")
            model = make(size, rng)
            with open(path, "w") as f:
                if isinstance(model, str):
                    f.write(model)
                else:
                    json.dump(model, f, indent=1)
                    f.write("\n")
            print(path)


if __name__ == "__main__":
    main()
