"""#SAT counters as peers of zeroone's counting backends: Ganak (PyPI `pyganak`) and d4 (PyPI
`d4solver`), on the model's DIMACS CNF as `zeroone export --format cnf` writes it.

The export numbers the model's variables 1..n and its encodings' auxiliary variables after them;
when there are auxiliaries it writes `c p show 1 .. n 0` lines (the model-counting competition's
format), and both counters count projected onto the shown variables, so an auxiliary left free
by an encoding (a sequential counter's, a totalizer's) never multiplies the count:

- Ganak: `Counter.add_clauses`, `Counter.set_sampling_set(shown)` (Arjun's preprocessing and
  Ganak's count run inside `Counter.count()`, which returns an exact Python int);
- d4: `py_d4.Solver(path)` reads the file itself, its `c p show` lines included (projected
  counting with its classical branching), and `Solver.count()` returns the count as a decimal
  string.

Each count runs in a child process (neither binding can be interrupted) that is killed at the
time limit (`timeout`); `seconds` is the `count()` call alone, timed in the child (the export,
reading the formula, starting the child and sending the count back are in `wall_seconds`).
d4 prints its statistics on standard output: the child points that at /dev/null.
"""

import multiprocessing
import os
import time


def parse_dimacs(text):
    """(variables, clauses, shown) of a DIMACS CNF text: `shown` lists the variables of its
    `c p show` lines (empty when it has none: every variable counts)."""
    variables, clauses, shown, clause = 0, [], [], []
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "c":
            if words[1:3] == ["p", "show"]:
                shown += [int(w) for w in words[3:] if w != "0"]
            continue
        if words[0] == "p":
            variables = int(words[2])
            continue
        for w in words:
            lit = int(w)
            if lit == 0:
                clauses.append(clause)
                clause = []
            else:
                clause.append(lit)
    return variables, clauses, shown


def ganak_child(path, seed, conn):
    """Child process: Ganak's count of the CNF at `path`, projected on its shown variables."""
    import pyganak

    with open(path) as f:
        variables, clauses, shown = parse_dimacs(f.read())
    counter = pyganak.Counter(verbose=0, seed=seed)
    if variables:
        counter.new_vars(variables)
    counter.add_clauses(clauses)
    if shown:
        counter.set_sampling_set(shown)
    start = time.perf_counter()
    count = counter.count()
    seconds = time.perf_counter() - start
    conn.send((str(count), seconds, {"cnf_variables": variables, "cnf_clauses": len(clauses),
                                     "projected_on": len(shown) if shown else variables}))


def d4_child(path, seed, conn):
    """Child process: d4's count of the CNF at `path` (it reads the `c p show` lines itself)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # d4 writes its statistics to standard output
    import py_d4

    with open(path) as f:
        variables, clauses, shown = parse_dimacs(f.read())
    solver = py_d4.Solver(path)
    start = time.perf_counter()
    result = solver.count()
    seconds = time.perf_counter() - start
    conn.send((result.getIntResult(), seconds,
               {"cnf_variables": variables, "cnf_clauses": len(clauses),
                "projected_on": len(shown) if shown else variables,
                "decisions": result.getNbDecisionNodes()}))


def count_in_child(child, name, path, time_limit, seed):
    """Runs `child(path, seed, conn)` in a forked process killed at `time_limit`: the peer
    outcome ("count", decimal count, seconds, extra) or a timeout / crash."""
    ctx = multiprocessing.get_context("fork")
    parent, end = ctx.Pipe(duplex=False)
    start = time.perf_counter()
    proc = ctx.Process(target=child, args=(path, seed, end))
    proc.start()
    end.close()
    ready = parent.poll(time_limit) if time_limit else parent.poll(None)
    if not ready:
        proc.kill()
        proc.join()
        return "timeout", f"{name} killed at the time limit", time.perf_counter() - start, {}
    try:
        count, seconds, extra = parent.recv()
    except EOFError:
        proc.join()
        return "unknown", f"{name} died (exit {proc.exitcode}) without a count", time.perf_counter() - start, {}
    proc.join()
    if not count.isdigit():
        return "unknown", f"{name} answered {count[:100]!r}, not a count", seconds, extra
    return "count", count, seconds, extra


def count_with(child, name, model, time_limit, seed, export_cnf, has_objective):
    """A #SAT peer's outcome on `model`: unsupported with an objective or when the CNF export
    refuses it, else its count of the export (see the module docs)."""
    if has_objective:
        return "unsupported", f"{name} counts models; the model has an objective", 0.0, {}
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        path, refusal = export_cnf(model, scratch)
        if refusal:
            return "unsupported", refusal, 0.0, {}
        return count_in_child(child, name, path, time_limit, seed)
