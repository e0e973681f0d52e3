#!/usr/bin/env python3
"""The seeded random instances of experiments/optimisation.toml, as zeroone JSON models with an
objective, written to models/generated/optimisation/ (one model per file).

Three families, five sizes each, every instance from its own seed (family, size), so the files
are the same on every run and machine (Python's `random.Random(seed)` with `randrange` and
`sample` only):

- `setcover-N`: weighted set cover, minimise. N elements, 2N sets of 2 to 6 random elements
  (every element in at least one set), costs 1..20; one `at-least 1` row per element.
- `knapsack-N`: 0-1 knapsack with three knapsack rows, maximise. N items, weights 1..30 per
  row, capacities a third of each row's total weight, values 1..50.
- `queens-cost-N`: the cheapest placement of N queens on an N x N board with cell costs 1..9,
  minimise: one queen per row and per column, no two touching (one `at-most-one` row per 2 x 2
  window), as in the Queens puzzle without colour regions.

Run from the repository root:  python3 experiments/optimisation-instances.py
"""

import json
import os
import random

OUT = os.path.join("models", "generated", "optimisation")


def set_cover(n, rng):
    sets = []
    for _ in range(2 * n):
        sets.append(sorted(rng.sample(range(n), rng.randrange(2, 7))))
    for e in range(n):  # every element coverable
        if not any(e in s for s in sets):
            sets[rng.randrange(len(sets))].append(e)
    sets = [sorted(set(s)) for s in sets]
    names = [f"S{i}" for i in range(len(sets))]
    rows = [[names[i] for i, s in enumerate(sets) if e in s] for e in range(n)]
    return {
        "name": f"weighted set cover: {n} elements, {len(sets)} sets, minimise the cost",
        "variables": names,
        "families": [{"name": "element", "sense": "at-least", "rhs": 1, "rows": rows}],
        "objective": {"sense": "minimize", "costs": {v: rng.randrange(1, 21) for v in names}},
    }


def knapsack(n, rng):
    names = [f"item{i}" for i in range(n)]
    weights = [[rng.randrange(1, 31) for _ in range(n)] for _ in range(3)]
    return {
        "name": f"0-1 knapsack with three knapsack rows: {n} items, maximise the value",
        "variables": names,
        "families": [{
            "name": "capacity",
            "sense": "at-most",
            "rhs": [sum(w) // 3 for w in weights],
            "rows": [names] * 3,
            "weights": weights,
        }],
        "objective": {"sense": "maximize", "costs": {v: rng.randrange(1, 51) for v in names}},
    }


def queens_cost(n, rng):
    cell = lambda r, c: f"r{r}c{c}"
    variables = [{"label": cell(r, c), "row": r, "col": c} for r in range(n) for c in range(n)]
    windows = [
        [cell(r, c), cell(r, c + 1), cell(r + 1, c), cell(r + 1, c + 1)]
        for r in range(n - 1) for c in range(n - 1)
    ]
    return {
        "name": f"cheapest {n}-queens placement, no two touching, cell costs 1..9",
        "variables": variables,
        "families": [
            {"name": "row", "sense": "exactly-one",
             "rows": [[cell(r, c) for c in range(n)] for r in range(n)]},
            {"name": "column", "sense": "exactly-one",
             "rows": [[cell(r, c) for r in range(n)] for c in range(n)]},
            {"name": "touch", "sense": "at-most-one", "rows": windows},
        ],
        "objective": {"sense": "minimize",
                      "costs": {v["label"]: rng.randrange(1, 10) for v in variables}},
    }


FAMILIES = [
    ("setcover", set_cover, [20, 30, 40, 50, 60]),
    ("knapsack", knapsack, [20, 30, 40, 50, 60]),
    ("queens-cost", queens_cost, [6, 7, 8, 9, 10]),
]


def main():
    os.makedirs(OUT, exist_ok=True)
    for family, make, sizes in FAMILIES:
        for size in sizes:
            rng = random.Random(f"{family}-{size}")
            path = os.path.join(OUT, f"{family}-{size}.json")
            with open(path, "w") as f:
                json.dump(make(size, rng), f, indent=1)
                f.write("\n")
            print(path)


if __name__ == "__main__":
    main()
