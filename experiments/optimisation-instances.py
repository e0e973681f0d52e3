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

Harder families (issue 39 item 6), written to models/generated/optimisation-hard/, sized from
where every solver answers at once up to where HiGHS is expected to need 10-60 s (the largest
set cover is the issue's 3,000-set instance); the same seeding:

- `setcover-N` at N = 200, 500, 1000, 1500 elements (2N sets).
- `mknap-N`: 0-1 knapsack with five capacity rows (weights 1..100, capacities half of each
  row's total), values correlated with the weights (their mean plus 1..20), maximise; the
  OR-Library style that MIPLIB's and the PB competitions' multi-knapsacks follow. N = 50, 100,
  250, 500 items.
- `wxc-N`: weighted exact cover, minimise: N elements, a planted partition into sets of 2 to 5
  elements (so a cover exists) plus 4N random sets of 2 to 5 elements, costs 1..100 (the
  planted sets cost as much as random ones). N = 60, 120, 240, 480.
- `gap-MxN`: generalised assignment (a MIPLIB classic): N jobs each to exactly one of M
  agents, agent capacity rows (weights 5..25, capacity 0.8 of the mean load), costs 10..50,
  minimise. 5x40, 10x80, 20x160.
- `vcover-N`: minimum-weight vertex cover of a random graph (PB-competition style: one clause
  `x_u + x_v >= 1` per edge), N vertices, 3N edges, weights 1..20. N = 300, 1000, 3000.
- `queens-cost-N` at N = 14, 20, 28.

python3 experiments/optimisation-instances.py           both sets
python3 experiments/optimisation-instances.py --hard    the harder set only

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


def multi_knapsack(n, rng):
    names = [f"item{i}" for i in range(n)]
    weights = [[rng.randrange(1, 101) for _ in range(n)] for _ in range(5)]
    values = {v: sum(w[i] for w in weights) // 5 + rng.randrange(1, 21) for i, v in enumerate(names)}
    return {
        "name": f"0-1 knapsack with five capacity rows, correlated values: {n} items, maximise",
        "variables": names,
        "families": [{
            "name": "capacity",
            "sense": "at-most",
            "rhs": [sum(w) // 2 for w in weights],
            "rows": [names] * 5,
            "weights": weights,
        }],
        "objective": {"sense": "maximize", "costs": values},
    }


def weighted_exact_cover(n, rng):
    elements = list(range(n))
    rng.shuffle(elements)
    sets = []
    i = 0
    while i < n:  # the planted partition
        k = min(rng.randrange(2, 6), n - i)
        sets.append(sorted(elements[i:i + k]))
        i += k
    for _ in range(4 * n):
        sets.append(sorted(rng.sample(range(n), rng.randrange(2, 6))))
    rng.shuffle(sets)
    names = [f"S{i}" for i in range(len(sets))]
    rows = [[names[i] for i, s in enumerate(sets) if e in s] for e in range(n)]
    return {
        "name": f"weighted exact cover: {n} elements, {len(sets)} sets (a planted cover), minimise",
        "variables": names,
        "families": [{"name": "element", "sense": "exactly-one", "rows": rows}],
        "objective": {"sense": "minimize", "costs": {v: rng.randrange(1, 101) for v in names}},
    }


def assignment(size, rng):
    m, n = size
    var = lambda a, j: f"a{a}j{j}"
    weights = [[rng.randrange(5, 26) for _ in range(n)] for _ in range(m)]
    capacity = [int(0.8 * sum(w) / m) + 25 for w in weights]
    return {
        "name": f"generalised assignment: {n} jobs to {m} agents, minimise the cost",
        "variables": [var(a, j) for a in range(m) for j in range(n)],
        "families": [
            {"name": "job", "sense": "exactly-one",
             "rows": [[var(a, j) for a in range(m)] for j in range(n)]},
            {"name": "agent", "sense": "at-most", "rhs": capacity,
             "rows": [[var(a, j) for j in range(n)] for a in range(m)], "weights": weights},
        ],
        "objective": {"sense": "minimize",
                      "costs": {var(a, j): rng.randrange(10, 51) for a in range(m) for j in range(n)}},
    }


def vertex_cover(n, rng):
    names = [f"v{i}" for i in range(n)]
    edges = set()
    while len(edges) < 3 * n:
        u, v = sorted(rng.sample(range(n), 2))
        edges.add((u, v))
    return {
        "name": f"minimum-weight vertex cover: {n} vertices, {len(edges)} edges",
        "variables": names,
        "families": [{"name": "edge", "sense": "at-least", "rhs": 1,
                      "rows": [[names[u], names[v]] for u, v in sorted(edges)]}],
        "objective": {"sense": "minimize", "costs": {v: rng.randrange(1, 21) for v in names}},
    }


FAMILIES = [
    ("setcover", set_cover, [20, 30, 40, 50, 60]),
    ("knapsack", knapsack, [20, 30, 40, 50, 60]),
    ("queens-cost", queens_cost, [6, 7, 8, 9, 10]),
]

HARD_OUT = os.path.join("models", "generated", "optimisation-hard")
HARD = [
    ("setcover", set_cover, [200, 500, 1000, 1500]),
    ("mknap", multi_knapsack, [50, 100, 250, 500]),
    ("wxc", weighted_exact_cover, [60, 120, 240, 480]),
    ("gap", assignment, [(5, 40), (10, 80), (20, 160)]),
    ("vcover", vertex_cover, [300, 1000, 3000]),
    ("queens-cost", queens_cost, [14, 20, 28]),
]


def write(out, families):
    os.makedirs(out, exist_ok=True)
    for family, make, sizes in families:
        for size in sizes:
            tag = "x".join(map(str, size)) if isinstance(size, tuple) else str(size)
            rng = random.Random(f"{family}-{tag}")
            path = os.path.join(out, f"{family}-{tag}.json")
            with open(path, "w") as f:
                json.dump(make(size, rng), f, indent=1)
                f.write("\n")
            print(path)


def main():
    import sys

    if "--hard" not in sys.argv[1:]:
        write(OUT, FAMILIES)
    write(HARD_OUT, HARD)


if __name__ == "__main__":
    main()
