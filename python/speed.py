"""The README's speed figure in one command: the Python loop over a Sudoku file against the
CLI's whole process on the same file (`zeroone solve FILE --jobs 1 --backend bitset`), both with bitset and
every answer verified, interleaved, `--runs` times each (default 3).

    python python/speed.py [--zeroone PATH] [--file data/sudoku/royle_17clue.txt] [--runs 3]

Run it from the repository root with the release CLI (`cargo build --release`; default path
`$CARGO_TARGET_DIR/release/zeroone`, else `target/release/zeroone`) and the package installed
from a release build (`pip install ./python`). Prints each run's wall and CPU seconds (the
child process's user + system time, less disturbed by other load than wall time), the
medians and the ratio Python / CLI.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

LOOP = """
import sys, zeroone
n = 0
for m in zeroone.load(sys.argv[1]):
    r = zeroone.solve(m, backend="bitset")
    assert r.status == "solved" and r.verified, r
    n += 1
print(n)
"""


def timed(command: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds (user + system of the child) of `command`, and its output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def main() -> None:
    target = os.environ.get("CARGO_TARGET_DIR", "target")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--zeroone", default=os.path.join(target, "release", "zeroone"))
    parser.add_argument("--file", default="data/sudoku/royle_17clue.txt")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    python = [sys.executable, "-c", LOOP, args.file]
    cli = [args.zeroone, "solve", args.file, "--jobs", "1", "--backend", "bitset"]
    results: dict[str, list[tuple[float, float]]] = {"python": [], "cli": []}
    for run in range(args.runs):
        for name, command in (("python", python), ("cli", cli)):
            wall, cpu, out = timed(command)
            if name == "python":
                print(f"run {run + 1} python: {out.strip()} puzzles", end="; ")
            results[name].append((wall, cpu))
            print(f"{name} {wall:.2f} s wall, {cpu:.2f} s cpu", end="; " if name == "python" else "\n")
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v))
           for k, v in results.items()}
    print(f"median wall: python {med['python'][0]:.2f} s, cli {med['cli'][0]:.2f} s, "
          f"ratio {med['python'][0] / med['cli'][0]:.2f}x")
    print(f"median cpu:  python {med['python'][1]:.2f} s, cli {med['cli'][1]:.2f} s, "
          f"ratio {med['python'][1] / med['cli'][1]:.2f}x (the issue asks for at most 1.5x)")


if __name__ == "__main__":
    main()
