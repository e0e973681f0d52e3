#!/usr/bin/env python3
"""Exact cover: zeroone's `xcc` and `bitset` backends against the peer `miniexact` (Knuth's
Algorithms X, C and M with dancing links, in C) on the same models, counting every solution.

For each instance the script
1. exports the model to Knuth's DLX format with `zeroone export --format xcc` (the dialect
   miniexact reads; multiplicities as `name:u;v`),
2. counts it with `zeroone count --backend xcc|bitset --json --jobs 1` (each witness verified
   by zeroone's verifier),
3. counts it with `miniexact -x|-c|-m -e` (every algorithm that reads the file: `-x` and `-c`
   only without multiplicities), its output piped through `tail -n 1` to read
   `Found N solutions!`,
repeating each `--repeat` times, and checks that every count agrees. Times are whole-process
wall-clock medians, start-up and model reading included on both sides; zeroone's own search
time (`stats.seconds`) is shown beside them. A count that disagrees makes the script exit 1
after writing the report with the disagreement marked.

Optional: nothing in zeroone's build or tests needs this script or miniexact.

    cargo build --release
    cargo run --release --example exact_cover_models -- experiments/exact-cover
    python3 -m venv .venv-peers && .venv-peers/bin/pip install -r experiments/peers/requirements.txt
    .venv-peers/bin/python experiments/peers/exact_cover.py --zeroone target/release/zeroone \
        --miniexact .venv-peers/bin/miniexact --repeat 3 --out reports/exact-cover.md

`--whole-process FILE...` adds the Sudoku files solved whole by the default backend against
the `sudoku` crate (`cargo build --release -p zeroone-benches --features peer --example
sudoku_peer`), timed by GNU time (`/usr/bin/time`: the peak RSS of each process alone); `--notes FILE` appends the report's reading (kept in
`experiments/peers/exact-cover-notes.md`).
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

# (label, file, note): the exact-cover models of reports/exact-cover.md.
INSTANCES = [
    ("pentominoes 6x10", "experiments/exact-cover/pentominoes-6x10.json", ""),
    ("pentominoes 5x12", "experiments/exact-cover/pentominoes-5x12.json", ""),
    ("Langford L(2,11)", "experiments/exact-cover/langford-11.json", ""),
    ("Langford L(2,12)", "experiments/exact-cover/langford-12.json", ""),
    ("Langford L(2,15)", "experiments/exact-cover/langford-15.json", "slow"),
    ("12-queens", "experiments/exact-cover/n-queens-12.json", ""),
    ("13-queens", "experiments/exact-cover/n-queens-13.json", ""),
    ("14-queens", "experiments/exact-cover/n-queens-14.json", ""),
    ("15-queens", "experiments/exact-cover/n-queens-15.json", ""),
    ("Star Battle 10x10, 2 stars", "models/star-10x10-2.star", ""),
]


def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_timed(cmd, shell=False):
    """((wall seconds, CPU seconds), stdout) of one process (or pipeline) run to completion;
    raises on a non-zero exit other than miniexact's 10/20 (solution found / none). CPU time
    is user + system of the process and its children (for a pipeline: every stage)."""
    cpu = cpu_of_children()
    start = time.perf_counter()
    p = subprocess.run(cmd, shell=shell, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    cpu = cpu_of_children() - cpu
    if p.returncode not in (0, 10, 20):
        raise RuntimeError(f"{cmd}: exit {p.returncode}: {p.stderr.strip()[:500]}")
    return (seconds, cpu), p.stdout


def zeroone_count(zeroone, path, backend):
    """(wall seconds, count, search seconds summed over the file's puzzles)."""
    cmd = [zeroone, "count", path, "--backend", backend, "--json", "--jobs", "1"]
    seconds, out = run_timed(cmd)
    count, search = 0, 0.0
    for line in out.splitlines():
        r = json.loads(line)
        if r.get("status") != "solved":
            raise RuntimeError(f"{backend} on {path}: {r.get('status')} {r.get('reason')}")
        count += int(r["count"])
        search += float(r.get("stats", {}).get("seconds", 0.0))
    return seconds, count, search


def miniexact_count(miniexact, files, algorithm):
    """((wall, CPU) seconds summed over the files, count summed) with `miniexact -<algorithm> -e`."""
    total, count = (0.0, 0.0), 0
    for f in files:
        seconds, out = run_timed(f"{miniexact} -{algorithm} -e {f} | tail -n 1", shell=True)
        last = out.strip().splitlines()[-1] if out.strip() else ""
        if not (last.startswith("Found ") and last.endswith(" solutions!")):
            raise RuntimeError(f"miniexact -{algorithm} {f}: unexpected output {last!r}")
        total = (total[0] + seconds[0], total[1] + seconds[1])
        count += int(last.split()[1])
    return total, count


def export(zeroone, path, folder):
    """The instance's puzzles as DLX files in `folder` (one per puzzle)."""
    os.makedirs(folder, exist_ok=True)
    cmd = [zeroone, "export", path, "--format", "xcc", "--output", folder]
    subprocess.run(cmd, check=True, capture_output=True)
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".xcc"))


def algorithms_for(files):
    """The miniexact algorithms that read the files: X and C need every item exactly once or
    at most once; M reads multiplicities too."""
    with open(files[0]) as f:
        header = f.readline()
    return ["m"] if ":" in header else ["x", "c", "m"]


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def measure(args, label, path, scratch):
    files = export(args.zeroone, path, os.path.join(scratch, str(abs(hash(label)))))
    row = {"label": label, "file": path, "puzzles": len(files), "times": {}, "counts": {}}
    algorithms = algorithms_for(files)
    engines = ["xcc", "bitset"] + [f"miniexact -{a}" for a in algorithms]
    samples = {e: [] for e in engines}
    search = {"xcc": [], "bitset": []}
    for _ in range(args.repeat):
        # Interleaved, so that a burst of load on the shared machine hits every engine alike.
        for e in engines:
            if e.startswith("miniexact"):
                s, c = miniexact_count(args.miniexact, files, e.split("-")[-1])
            else:
                s, c, inner = zeroone_count(args.zeroone, path, e)
                search[e].append(inner)
            samples[e].append(s)
            row["counts"].setdefault(e, c)
            if row["counts"][e] != c:
                raise RuntimeError(f"{e} counted {c}, then {row['counts'][e]} on {label}")
        print(label, {e: samples[e][-1] for e in engines}, flush=True)
    row["times"] = {e: median([w for w, _ in v]) for e, v in samples.items()}
    row["cpu"] = {e: median([c for _, c in v]) for e, v in samples.items()}
    row["search"] = {e: median(v) for e, v in search.items()}
    return row


def run_rusage(cmd):
    """(wall seconds, CPU seconds, peak RSS in MB, stdout) of one process run to completion,
    its output written to a file (as `zeroone solve FILE > out.jsonl` would: a pipe to this
    script costs the writer more); raises on a non-zero exit. CPU: user + system of this
    script's children (GNU time and the process); the peak RSS from GNU time
    (`/usr/bin/time`, Debian package `time`), the measured process's alone (a child forked from
    this script would count the script's pages until it execs)."""
    with tempfile.NamedTemporaryFile(mode="r") as usage, tempfile.TemporaryFile("w+") as out:
        timed = ["/usr/bin/time", "-f", "%M", "-o", usage.name] + list(cmd)
        cpu = cpu_of_children()
        start = time.perf_counter()
        p = subprocess.run(timed, stdout=out, stderr=subprocess.PIPE, text=True)
        wall = time.perf_counter() - start
        cpu = cpu_of_children() - cpu
        if p.returncode != 0:
            raise RuntimeError(f"{cmd}: exit {p.returncode}: {p.stderr.strip()[:500]}")
        kb = int(usage.read().split()[-1])
        out.seek(0)
        return wall, cpu, kb / 1024, out.read()


def sudoku_whole_process(args, path):
    """The default backend (`zeroone solve FILE --json --jobs 1`) against the `sudoku` crate's
    whole process on one Sudoku file, interleaved `--repeat` times; every zeroone line must be
    solved and verified, and the serving engine is read from the records."""
    runs = {"zeroone": [], "peer": []}
    engines = set()
    for _ in range(args.repeat):
        wall, cpu, rss, out = run_rusage([args.zeroone, "solve", path, "--json", "--jobs", "1"])
        puzzles = 0
        for line in out.splitlines():
            r = json.loads(line)
            if r["status"] != "solved" or not r.get("verified"):
                raise RuntimeError(f"zeroone on {path}: puzzle {puzzles} not solved and verified")
            engines.add(r["backend"] + "/" + str(r["stats"].get("extra", {}).get("engine", "-")))
            puzzles += 1
        del out
        runs["zeroone"].append((wall, cpu, rss))
        wall, cpu, rss, out = run_rusage([args.sudoku_peer, path])
        runs["peer"].append((wall, cpu, rss))
        if puzzles == 0 or len(out.splitlines()) != puzzles:
            raise RuntimeError(f"the peer printed {len(out.splitlines())} lines for {puzzles} puzzles")
        print(os.path.basename(path), {k: v[-1] for k, v in runs.items()}, flush=True)
    med = {k: tuple(median([r[i] for r in v]) for i in range(3)) for k, v in runs.items()}
    return {"file": path, "puzzles": puzzles, "engines": sorted(engines), "median": med}


def fmt(s):
    return f"{s:.3f}" if s == s else "-"


def report(rows, whole, args, command):
    lines = [
        "# Exact cover: xcc, bitset and miniexact",
        "",
        "Every solution counted; whole process, median of "
        f"{args.repeat} interleaved runs in one command on one machine (2 cores shared with "
        "other jobs: read the ratios within a row). Each cell is `wall / CPU` seconds (CPU = "
        "user + system of the process and its children, less disturbed by the other jobs' load "
        "than wall time). zeroone's times include reading the JSON model and verifying every "
        "witness; `(search)` is the backend's own time. miniexact (PyPI, Knuth's Algorithms "
        "X/C/M with dancing links, in C) reads the same models exported by `zeroone export "
        "--format xcc`, its printed solutions piped to `tail -n 1`. `best/xcc` is miniexact's "
        "best algorithm over xcc, by CPU time and (in brackets) by wall time; `bitset/xcc` "
        "likewise by CPU time.",
        "",
        "| model | count | xcc (search) | bitset (search) | miniexact -x | -c | -m | best/xcc | bitset/xcc |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['label']} | {r['error']} | | | | | | | |")
            continue
        counts = set(r["counts"].values())
        count = f"{counts.pop():,}" if len(counts) == 1 else "MISMATCH " + json.dumps(r["counts"])
        t, c = r["times"], r["cpu"]
        cell = lambda e: f"{fmt(t[e])} / {fmt(c[e])}" if e in t else "-"
        peers = [e for e in t if e.startswith("miniexact")]
        best_cpu = min(c[e] for e in peers)
        best_wall = min(t[e] for e in peers)
        lines.append(
            f"| {r['label']} | {count} | {cell('xcc')} ({fmt(r['search']['xcc'])}) | "
            f"{cell('bitset')} ({fmt(r['search']['bitset'])}) | {cell('miniexact -x')} | "
            f"{cell('miniexact -c')} | {cell('miniexact -m')} | "
            f"{best_cpu / c['xcc']:.2f}x ({best_wall / t['xcc']:.2f}x) | {c['bitset'] / c['xcc']:.2f}x |"
        )
    if args.whole_process:
        lines += [
            "",
            "## Sudoku, whole process, against the `sudoku` crate",
            "",
            "`zeroone solve FILE --json --jobs 1 > FILE.jsonl` (the default backend, one JSON record "
            "per puzzle, each solution verified) against `benches/sudoku_peer.rs` (the `sudoku` crate, a "
            "JCZSolve port, printing one solution line per puzzle), each a whole process reading "
            f"the same file; median of {args.repeat} interleaved runs; CPU = user + system; peak "
            "RSS of the process alone, from GNU time (`/usr/bin/time -f %M`).",
            "",
            "| file | puzzles | served by | zeroone wall / CPU | peak RSS | peer wall / CPU | zeroone/peer (CPU) |",
            "|---|---:|---|---:|---:|---:|---:|",
        ]
        for w in whole:
            if "error" in w:
                lines.append(f"| {w['file']} | {w['error']} | | | | | |")
                continue
            (zw, zc, zr), (pw, pc, _) = w["median"]["zeroone"], w["median"]["peer"]
            lines.append(
                f"| {os.path.basename(w['file'])} | {w['puzzles']:,} | {', '.join(w['engines'])} | "
                f"{fmt(zw)} / {fmt(zc)} | {zr:.1f} MB | {fmt(pw)} / {fmt(pc)} | {zc / pc:.2f}x |"
            )
    lines += ["", "Command:", "", "    " + command, ""]
    if args.notes:
        with open(args.notes) as f:
            lines += ["", f.read().rstrip(), ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--zeroone", default="target/release/zeroone")
    ap.add_argument("--miniexact", default=".venv-peers/bin/miniexact")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument(
        "--only",
        help="semicolon-separated labels (labels hold commas: 'Langford L(2,12);14-queens'; "
        "default: every instance)",
    )
    ap.add_argument("--skip-slow", action="store_true", help="leave out L(2,15)")
    ap.add_argument("--sudoku", help="a Sudoku file: its first --sudoku-count puzzles as one instance")
    ap.add_argument("--sudoku-count", type=int, default=100)
    ap.add_argument(
        "--whole-process",
        nargs="*",
        default=[],
        help="Sudoku files to solve whole (default backend) against --sudoku-peer",
    )
    ap.add_argument("--sudoku-peer", default="target/release/examples/sudoku_peer")
    ap.add_argument("--notes", help="a Markdown file appended to the report (its reading)")
    ap.add_argument("--out", help="write the Markdown report here")
    args = ap.parse_args()
    instances = [i for i in INSTANCES if not (args.skip_slow and i[2] == "slow")]
    if args.only:
        keep = set(args.only.split(";"))
        instances = [i for i in instances if i[0] in keep]
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        if args.sudoku:
            path = os.path.join(scratch, "sudoku.txt")
            with open(args.sudoku) as f, open(path, "w") as out:
                puzzles = [l for l in f if l.strip() and not l.startswith("#")]
                out.writelines(puzzles[: args.sudoku_count])
            label = f"Sudoku 17-clue, first {args.sudoku_count} of {os.path.basename(args.sudoku)}"
            instances.append((label, path, ""))
        for label, path, _ in instances:
            try:
                rows.append(measure(args, label, path, scratch))
            except (RuntimeError, subprocess.CalledProcessError) as e:
                print(f"{label}: {e}", file=sys.stderr)
                rows.append({"label": label, "error": str(e)[:200]})
    whole = []
    for path in args.whole_process:
        try:
            whole.append(sudoku_whole_process(args, path))
        except (RuntimeError, OSError) as e:
            print(f"{path}: {e}", file=sys.stderr)
            whole.append({"file": path, "error": str(e)[:200]})
    command = " ".join(["experiments/peers/exact_cover.py"] + sys.argv[1:])
    text = report(rows, whole, args, command)
    if args.out:
        with open(args.out + ".tmp", "w") as f:
            f.write(text)
        os.replace(args.out + ".tmp", args.out)
    print(text)
    bad = any("error" in r or len(set(r["counts"].values())) != 1 for r in rows)
    bad |= any("error" in w for w in whole)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
