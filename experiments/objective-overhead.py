#!/usr/bin/env python3
"""Does the objective code slow down models WITHOUT an objective? Runs two zeroone binaries on
the same objective-free workloads, interleaved (old, new, old, new, ...) so both see the same
machine load, and prints per workload the median over repetitions of the seconds spent inside
the backends (the sum of `stats.seconds` over the file's puzzles, one worker) and the ratio
new / old.

    python3 experiments/objective-overhead.py OLD_ZEROONE NEW_ZEROONE [--repetitions 7]

OLD_ZEROONE is a release build of the commit before objectives landed (fab09bd^), NEW_ZEROONE a
release build of the branch under test; build the old one in its own target directory, e.g.

    git archive fab09bd^ | tar -x -C /tmp/zeroone-base
    (cd /tmp/zeroone-base && CARGO_TARGET_DIR=/tmp/target-base cargo build --release)

Run from the repository root (the workloads are files under data/ and models/).
"""

import argparse
import json
import statistics
import subprocess

# (label, command, backend, file): solves and counts on the search backends, the enumerator
# and general rows; none of the files has an objective.
WORKLOADS = [
    ("sudoku top1465, bitset solve", "solve", "bitset", "data/sudoku/magictour_top1465.txt"),
    ("queens samimsu, bitset solve", "solve", "bitset", "data/queens/samimsu_community_levels.txt"),
    ("queens samimsu, bitset count", "count", "bitset", "data/queens/samimsu_community_levels.txt"),
    ("queens capybaradoku, enum solve", "solve", "enum", "data/queens/capybaradoku_levels.txt"),
    ("queens capybaradoku, enum count", "count", "enum", "data/queens/capybaradoku_levels.txt"),
    ("sudoku top95, vsa solve", "solve", "vsa", "data/sudoku/norvig_top95.txt"),
    ("star battle 10x10 (general rows), bitset count", "count", "bitset", "models/star-10x10-2.star"),
]


def backend_seconds(binary, command, backend, path):
    """Seconds inside the backend, summed over the file's puzzles (one worker)."""
    out = subprocess.run(
        [binary, command, path, "--backend", backend, "--json", "--jobs", "1"],
        capture_output=True, text=True, check=False,
    )
    total = 0.0
    lines = [l for l in out.stdout.splitlines() if l.startswith("{")]
    if not lines:
        raise SystemExit(f"{binary} {command} {path}: no JSON output\n{out.stderr}")
    for line in lines:
        total += json.loads(line).get("stats", {}).get("seconds", 0.0)
    return total


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--repetitions", type=int, default=7)
    args = p.parse_args()
    print("| workload | old median | new median | new / old |")
    print("|---|---:|---:|---:|")
    for label, command, backend, path in WORKLOADS:
        old, new = [], []
        for _ in range(args.repetitions):
            old.append(backend_seconds(args.old, command, backend, path))
            new.append(backend_seconds(args.new, command, backend, path))
        mo, mn = statistics.median(old), statistics.median(new)
        print(f"| {label} | {mo * 1e3:.2f} ms | {mn * 1e3:.2f} ms | {mn / mo:.3f} |", flush=True)


if __name__ == "__main__":
    main()
