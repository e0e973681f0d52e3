#!/usr/bin/env python3
"""Ganak and d4 (the #SAT peers) against zeroone's own counts, on small models of the counted
kinds: the counting experiment's Latin squares, Steiner triple systems and perfect matchings,
bare Queens grids (4x4, 5x5: "at most one" rows whose sequential counters add free auxiliary
variables, so a count that ignored the `c p show` projection would be too large), bare hex
boards of width 5 and 7, n-queens 6 and 8 and Langford pairs L(2, 7) and L(2, 8) (exact
cover with "at most one" diagonals, built here), and with ZEROONE_SLOW_PEERS=1 also
pentominoes 6x10 and 12-queens (minutes each for Ganak).

Run it with the peers' virtual environment and a zeroone binary whose CNF export writes the
projection lines (this checkout's):

    cargo build --release
    .venv-peers/bin/python experiments/peers/test_counters.py

A counter whose package is missing is skipped (each test says so), as is everything when the
zeroone binary (ZEROONE, default target/release/zeroone) is missing."""

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import peers  # noqa: E402

ZEROONE = os.environ.get("ZEROONE", os.path.join(ROOT, "target", "release", "zeroone"))
LIMIT = 300.0  # seconds per count: far above what these models take


def n_queens(n):
    """n-queens as exact cover: rows and columns exactly one, diagonals at most one."""
    cell = lambda r, c: r * n + c  # noqa: E731
    rows = [("exactly-one", [cell(r, c) for c in range(n)]) for r in range(n)]
    rows += [("exactly-one", [cell(r, c) for r in range(n)]) for c in range(n)]
    for d in range(-(n - 1), n):
        rows.append(("at-most-one", [cell(r, r - d) for r in range(n) if 0 <= r - d < n]))
        rows.append(("at-most-one", [cell(r, d + n - 1 - r) for r in range(n) if 0 <= d + n - 1 - r < n]))
    return n * n, [r for r in rows if len(r[1]) > 1]


def langford(n):
    """L(2, n): the two copies of each k in 1..n sit k + 1 apart in 2n places; an option per
    (k, first place), exactly one per k and per place."""
    options = [(k, p) for k in range(1, n + 1) for p in range(2 * n - k - 1)]
    rows = [("exactly-one", [i for i, (k, _) in enumerate(options) if k == j]) for j in range(1, n + 1)]
    for q in range(2 * n):
        rows.append(("exactly-one", [i for i, (k, p) in enumerate(options) if q in (p, p + k + 1)]))
    return len(options), rows


def generic(name, size_rows):
    size, rows = size_rows
    return {"name": name, "variables": [f"v{i}" for i in range(size)],
            "constraints": [{"family": k, "index": 0, "sense": s, "vars": v} for k, (s, v) in enumerate(rows)],
            "givens": []}


def exported_models():
    """(name, model) of the puzzle files and generated boards, through `--export-models`."""
    files = ["experiments/counting/latin-squares-4.json", "experiments/counting/steiner-triples-7.json",
             "experiments/counting/steiner-triples-9.json", "models/queens-bare.queens"]
    if os.environ.get("ZEROONE_SLOW_PEERS"):
        files += ["experiments/exact-cover/pentominoes-6x10.json", "experiments/exact-cover/n-queens-12.json"]
    with tempfile.TemporaryDirectory() as scratch:
        toml = os.path.join(scratch, "cross.toml")
        with open(toml, "w") as f:
            f.write('title = "cross-check"\nkind = "count"\nrepetitions = 1\n')
            for path in files:
                f.write(f'[[instances]]\nfile = "{os.path.join(ROOT, path)}"\n')
            f.write('[[instances]]\ngenerate = "hex"\nsizes = [5, 7]\n[[backends]]\nname = "xcc"\n')
        out = os.path.join(scratch, "models")
        subprocess.run([ZEROONE, "run", toml, "--export-models", out], check=True, capture_output=True)
        models = []
        for name in sorted(os.listdir(out)):
            with open(os.path.join(out, name)) as f:
                models.append((name, json.load(f)["model"]))
    return models


def zeroone_count(model):
    """zeroone's count of the model (its default counting backend), as an int."""
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "model.json")
        with open(path, "w") as f:
            json.dump(peers.generic_json(model), f)
        p = subprocess.run([ZEROONE, "count", path, "--json"], capture_output=True, text=True, check=True)
    return int(json.loads(p.stdout.splitlines()[0])["count"])


def models():
    built = [generic(f"n-queens-{n}", n_queens(n)) for n in (6, 8)]
    built += [generic(f"langford-{n}", langford(n)) for n in (7, 8)]
    return exported_models() + [(m["name"], m) for m in built]


@unittest.skipUnless(os.path.exists(ZEROONE), f"no zeroone binary at {ZEROONE}")
class CountsAgree(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        peers.ZEROONE = ZEROONE
        cls.models = models()
        cls.expected = {name: zeroone_count(m) for name, m in cls.models}

    def agree(self, label, count):
        for name, model in self.models:
            with self.subTest(model=name):
                found, payload, seconds, extra = count(model, LIMIT, 0)
                self.assertEqual(found, "count", f"{label} on {name}: {payload}")
                self.assertEqual(int(payload), self.expected[name], f"{label} on {name}")
                print(f"{label:6} {name:32} {payload:>12} {seconds:8.3f} s  {extra}", file=sys.stderr)

    @unittest.skipUnless(importlib.util.find_spec("pyganak"), "pyganak is not installed")
    def test_ganak(self):
        self.agree("ganak", peers.count_ganak)

    @unittest.skipUnless(importlib.util.find_spec("py_d4"), "d4solver is not installed")
    def test_d4(self):
        self.agree("d4", peers.count_d4)

    def test_the_known_counts(self):
        # Independent of all three: 4 and 92 n-queens solutions (OEIS A000170); L(2,7) = 26
        # and L(2,8) = 150 up to reversal (OEIS A014552), so 52 and 300 sequences.
        known = {"n-queens-6": 4, "n-queens-8": 92, "langford-7": 52, "langford-8": 300}
        for name, count in known.items():
            self.assertEqual(self.expected[name], count, name)


if __name__ == "__main__":
    unittest.main()
