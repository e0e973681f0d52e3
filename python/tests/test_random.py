"""Random small models: every backend's count and solution set against a brute force written
here in Python, independent of the library."""

import itertools
import random

import pytest

import zeroone

RELATIONS = {
    "exactly-one": lambda s, k: s == 1,
    "at-most-one": lambda s, k: s <= 1,
    "exactly": lambda s, k: s == k,
    "at-most": lambda s, k: s <= k,
    "at-least": lambda s, k: s >= k,
}


def random_model(rng: random.Random, general: bool):
    """A model of 3 to 9 variables in 1 to 3 families; general rows (weights, k) when asked.
    Returns the model and its rows as (labels, weights, sense, k) for the brute force."""
    n = rng.randint(3, 9)
    labels = [f"v{i}" for i in range(n)]
    m = zeroone.Model(f"random-{n}")
    m.add_variables(labels)
    rows = []
    for f in range(rng.randint(1, 3)):
        senses = list(RELATIONS) if general else ["exactly-one", "at-most-one"]
        sense = rng.choice(senses)
        family = []
        weights = []
        ks = []
        for _ in range(rng.randint(1, 3)):
            row = rng.sample(labels, rng.randint(1, min(n, 4)))
            w = [rng.randint(1, 3) for _ in row] if general and sense not in ("exactly-one", "at-most-one") else [1] * len(row)
            k = 1 if sense in ("exactly-one", "at-most-one") else rng.randint(0, sum(w))
            family.append(row)
            weights.append(w)
            ks.append(k)
            rows.append((row, w, sense, k))
        m.add_family(f"f{f}", sense, family, rhs=ks,
                     weights=weights if any(x != 1 for w in weights for x in w) else None)
    return m, labels, rows


def brute_force(labels, rows):
    """Every 0-1 assignment that satisfies every row, as a set of frozensets of labels."""
    found = set()
    for bits in itertools.product((0, 1), repeat=len(labels)):
        x = dict(zip(labels, bits))
        if all(RELATIONS[sense](sum(w * x[v] for v, w in zip(row, ws)), k)
               for row, ws, sense, k in rows):
            found.add(frozenset(v for v in labels if x[v]))
    return found


@pytest.mark.parametrize("seed", range(40))
def test_counts_and_solution_sets_match_a_python_brute_force(seed):
    rng = random.Random(seed)
    general = seed % 2 == 1
    m, labels, rows = random_model(rng, general)
    expected = brute_force(labels, rows)
    for backend in ["bitset", "sat", "brute", "milp"] + ([] if general else ["enum", "dp"]):
        c = zeroone.count(m, backend=backend)
        assert c.status == "solved", (backend, c.reason)
        assert c.count == len(expected), backend
        if backend == "dp":
            continue  # dp counts only
        r = zeroone.solve(m, backend=backend)
        if expected:
            assert r.status == "solved" and frozenset(r.solution) in expected, backend
        else:
            assert r.status == "infeasible", backend
    streamed = [frozenset(s) for s in zeroone.solutions(m)]
    assert len(streamed) == len(set(streamed)) and set(streamed) == expected
