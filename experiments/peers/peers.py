#!/usr/bin/env python3
"""Peer solvers for zeroone experiments: OR-Tools CP-SAT, CBC (through PuLP), HiGHS (through
highspy, for machines without zeroone's `highs` feature), SCIP (through PySCIPOpt), Exact (the
pseudo-Boolean solver, PyPI `exact`), CaDiCaL (through python-sat), miniexact (Knuth's
Algorithms C and M, on the model as `zeroone export --format xcc` writes it), and the #SAT
counters Ganak (PyPI `pyganak`) and d4 (PyPI `d4solver`), which count the model's CNF export
projected onto its own variables (counters.py; their rows are counting runs).

Reads the models `zeroone run EXPERIMENT --export-models DIR` wrote (one JSON file per
instance: {"instance": id, "group", "file", "size", "original_variables", "original_rows",
"position", "instances", "time_limit", "repetitions", "model": <zeroone model>}), solves
each with the chosen peer under the experiment's own time limit and repetitions
(`--time-limit` / `--repetitions` override them),
checks every answer against the model's rows (each row's weighted sum `sum w x` against its
sense: "exactly-one" = 1, "at-most-one" <= 1, "exactly" = rhs, "at-most" <= rhs, "at-least" >=
rhs, with `weights` all 1 when absent; every given is 1: the rules of zeroone's verifier), and
appends one JSON line per run in zeroone's record format (with the instance's group, file,
size and position, so the reports put peer rows beside the backends' in every table), flushed
per line. Runs already in the output file are skipped, so an interrupted run continues where it
stopped. A model with an `objective` (sense and `[variable, cost]` pairs) is optimised: the
record's status is `optimal` when the peer proved its answer optimal, `feasible` when a limit
stopped it with one, and `objective` is the answer's value recomputed here with Python's exact
integers (`bound`: the peer's proved bound, rounded towards the answer, when it reports one). A
peer that cannot take a model (CaDiCaL: an objective or rows of mixed weights; miniexact: an
objective or rows zeroone's xcc export refuses) records `unsupported` with the reason; a run
its time limit stopped without an answer records `timeout` (the solver said so, or the solve
call or the whole run took the limit), as a zeroone backend's does. `seconds` is the solve call
alone (CBC: its own wall clock from its log), `wall_seconds` the whole run with the model built
in Python (see README.md for what is timed per peer). `zeroone merge EXPERIMENT OUT` then
joins the rows with the experiment's own (the experiment must list the label under `peers`).

Optional: nothing in zeroone's build or tests needs this script or its packages.
"""

import argparse
import glob
import json
import multiprocessing
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time

# The counting peers live beside this script; named explicitly so that `python -I` (isolated
# mode, which leaves the script's folder off sys.path) finds them too.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import counters  # noqa: E402


def cpu_now():
    """User + system CPU seconds of this process and its finished children (CBC, miniexact and
    the CaDiCaL child run as such)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def machine():
    """This machine as zeroone's records name it: logical cores, CPU model, OS, architecture."""
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    arch = platform.machine().replace("AMD64", "x86_64")
    return f"{os.cpu_count()} logical cores, {cpu}, {platform.system().lower()} {arch}"


# The Python package behind each peer, for the records' provenance.
PACKAGES = {
    "cp-sat": "ortools",
    "cbc": "pulp",
    "highs": "highspy",
    "scip": "pyscipopt",
    "exact": "exact",
    "cadical": "python-sat",
    "miniexact": "miniexact",
    "ganak": "pyganak",
    "d4": "d4solver",
}


# The module each peer imports (miniexact is a program: checked on the PATH instead).
IMPORTS = {
    "cp-sat": "ortools",
    "cbc": "pulp",
    "highs": "highspy",
    "scip": "pyscipopt",
    "exact": "exact",
    "cadical": "pysat",
    "ganak": "pyganak",
    "d4": "py_d4",
}

# Exit status of `--check` when the peer's package is missing (zeroone run reads it).
MISSING = 3


def missing_package(name):
    """None when the peer `name` can run here, else a message naming the package it lacks and
    the command that installs every peer's packages into this interpreter."""
    import importlib.util
    import shutil

    install = (f"{sys.executable} -m pip install -r "
               f"{os.path.join(os.path.dirname(os.path.abspath(__file__)), 'requirements.txt')}"
               " (the list: experiments/peers/requirements.txt)")
    if name == "miniexact":
        beside = os.path.join(os.path.dirname(sys.executable), "miniexact")
        if os.path.exists(beside) or shutil.which("miniexact"):
            return None
        return (f"peer 'miniexact' needs the program miniexact (PyPI package 'miniexact'), "
                f"found neither beside {sys.executable} nor on the PATH; install it with: {install}")
    module = IMPORTS[name]
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        found = False
    if found:
        return None
    return (f"peer '{name}' needs the Python package '{PACKAGES[name]}' (module '{module}'), "
            f"which {sys.executable} cannot import; install it with: {install}")


def solver_version(name):
    """The peer's package and version (from the installed distribution)."""
    from importlib import metadata

    package = PACKAGES[name]
    try:
        return f"{package} {metadata.version(package)}"
    except metadata.PackageNotFoundError:
        return f"{package} (version unknown)"


def load_done(path):
    done = set()
    if not os.path.exists(path):
        return done
    with open(path, "rb") as f:
        data = f.read()
    good = 0
    for line in data.split(b"\n"):
        if not line.strip():
            good += len(line) + 1
            continue
        try:
            r = json.loads(line)
        except ValueError:
            break  # a torn last line: dropped below
        done.add((r["instance"], r["backend"], r["repetition"]))
        good += len(line) + 1
    if good < len(data):
        with open(path, "r+b") as f:
            f.truncate(good)
    return done


# The relation of each serialized sense; `rhs` is absent for the two exact-cover senses (k = 1).
RELATIONS = {
    "exactly-one": "=",
    "at-most-one": "<=",
    "exactly": "=",
    "at-most": "<=",
    "at-least": ">=",
}


def row_terms(row):
    """(variable, weight) pairs of a serialized row (weights default to 1)."""
    weights = row.get("weights") or [1] * len(row["vars"])
    if len(weights) != len(row["vars"]):
        raise ValueError(f"row {row['family']}/{row['index']}: {len(row['vars'])} variables, {len(weights)} weights")
    return list(zip(row["vars"], weights))


def row_bound(row):
    """(relation, k) of a serialized row: '=', '<=' or '>=' and the right-hand side."""
    sense = row["sense"]
    if sense not in RELATIONS:
        raise ValueError(f"row {row['family']}/{row['index']}: unknown sense {sense!r}")
    return RELATIONS[sense], row.get("rhs", 1)


def holds(relation, total, k):
    return total == k if relation == "=" else total <= k if relation == "<=" else total >= k


def check(model, ones):
    """The verifier's rules; returns None when the answer is valid, else what is wrong."""
    chosen = set(ones)
    n = len(model["variables"])
    if any(v < 0 or v >= n for v in chosen):
        return "a variable out of range"
    for g in model["givens"]:
        if g not in chosen:
            return f"given variable {g} is 0"
    for row in model["constraints"]:
        s = sum(w for v, w in row_terms(row) if v in chosen)
        relation, k = row_bound(row)
        if not holds(relation, s, k):
            return f"row {row['family']}/{row['index']} sums to {s}, expected {relation} {k}"
    return None


def objective_of(model):
    """(sense, {variable: cost}) of the model's objective, or None."""
    o = model.get("objective")
    if not o:
        return None
    return o["sense"], {int(v): int(c) for v, c in o["costs"]}


def value_of(model, ones):
    """The exact objective value of an answer (Python integers)."""
    sense, costs = objective_of(model)
    return sum(costs.get(v, 0) for v in ones)


def rounded_bound(model, bound):
    """A float bound rounded towards the feasible side (it bounds an integer optimum)."""
    import math

    if bound is None or math.isnan(bound) or math.isinf(bound):
        return None
    sense, _ = objective_of(model)
    return math.ceil(bound - 1e-6) if sense == "minimize" else math.floor(bound + 1e-6)


def solve_cpsat(model, time_limit, seed):
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    x = [m.NewBoolVar(f"x{i}") for i in range(len(model["variables"]))]
    for row in model["constraints"]:
        if row["sense"] == "exactly-one":
            m.AddExactlyOne([x[v] for v in row["vars"]])
        elif row["sense"] == "at-most-one":
            m.AddAtMostOne([x[v] for v in row["vars"]])
        else:
            expr = sum(w * x[v] for v, w in row_terms(row))
            relation, k = row_bound(row)
            m.Add(expr == k if relation == "=" else expr <= k if relation == "<=" else expr >= k)
    for g in model["givens"]:
        m.Add(x[g] == 1)
    objective = objective_of(model)
    if objective:
        sense, costs = objective
        expr = sum(c * x[v] for v, c in costs.items())
        m.Minimize(expr) if sense == "minimize" else m.Maximize(expr)
    solver = cp_model.CpSolver()
    if time_limit:
        solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.random_seed = seed
    solver.parameters.num_workers = 1
    start = time.perf_counter()
    status = solver.Solve(m)
    seconds = time.perf_counter() - start
    extra = {"branches": solver.NumBranches(), "conflicts": solver.NumConflicts()}
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        ones = [i for i, v in enumerate(x) if solver.Value(v)]
        if objective:
            extra["bound"] = rounded_bound(model, solver.BestObjectiveBound())
            extra["proved"] = status == cp_model.OPTIMAL
        return "solution", ones, seconds, extra
    if status == cp_model.INFEASIBLE:
        return "infeasible", None, seconds, extra
    # CP-SAT says UNKNOWN both at its time limit and for other stops; the time tells them apart.
    if status == cp_model.UNKNOWN and time_limit and seconds >= time_limit:
        return "timeout", "CP-SAT reached its time limit without a solution", seconds, extra
    return "unknown", solver.StatusName(status), seconds, extra


def solve_cbc(model, time_limit, seed):
    import pulp

    objective = objective_of(model)
    maximize = objective is not None and objective[0] == "maximize"
    prob = pulp.LpProblem("zeroone", pulp.LpMaximize if maximize else pulp.LpMinimize)
    x = [pulp.LpVariable(f"x{i}", cat="Binary") for i in range(len(model["variables"]))]
    if objective:
        prob += pulp.lpSum(c * x[v] for v, c in objective[1].items())
    else:
        prob += pulp.lpSum([])  # feasibility: no objective
    for k, row in enumerate(model["constraints"]):
        expr = pulp.lpSum(w * x[v] for v, w in row_terms(row))
        relation, rhs = row_bound(row)
        prob += (expr == rhs if relation == "=" else expr <= rhs if relation == "<=" else expr >= rhs), f"r{k}"
    for g in model["givens"]:
        prob += x[g] == 1, f"g{g}"
    with tempfile.TemporaryDirectory() as scratch:
        log_path = os.path.join(scratch, "cbc.log")
        solver = pulp.PULP_CBC_CMD(msg=False, timeLimit=time_limit, logPath=log_path,
                                   options=[f"randomSeed {seed}"])
        start = time.perf_counter()
        prob.solve(solver)
        seconds = time.perf_counter() - start
        try:
            with open(log_path) as f:
                log = f.read()
        except OSError:
            log = ""
    # The solve alone, as CBC itself timed it; PuLP's call around it also writes the MPS file,
    # starts the cbc process and reads the solution back (kept when the log has no time).
    seconds = cbc_wallclock(log, seconds)
    status = pulp.LpStatus[prob.status]
    if status == "Optimal":
        ones = [i for i, v in enumerate(x) if (v.value() or 0) > 0.5]
        # CBC stopped by its time limit with a solution still says "Optimal"; the solution
        # status tells them apart (1: optimal, 2: integer feasible).
        extra = {"proved": prob.sol_status == 1} if objective else {}
        return "solution", ones, seconds, extra
    if status == "Infeasible":
        return "infeasible", None, seconds, {}
    if "Stopped on time limit" in log:
        return "timeout", "CBC stopped on its time limit without a solution", seconds, {}
    return "unknown", status, seconds, {}


def cbc_wallclock(log, fallback):
    """CBC's own wall time of its solve from its log ("Total time (CPU seconds): 0.01
    (Wallclock seconds): 0.02"), else `fallback`."""
    import re

    m = re.search(r"Wallclock seconds\):\s*([0-9.]+)", log)
    return float(m.group(1)) if m else fallback


def solve_highs(model, time_limit, seed):
    import highspy
    import numpy as np

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    h.setOptionValue("random_seed", seed)
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 0.5)  # integer costs: a gap below 1 is exact
    if time_limit:
        h.setOptionValue("time_limit", float(time_limit))
    n = len(model["variables"])
    objective = objective_of(model)
    costs = [0.0] * n
    if objective:
        for v, c in objective[1].items():
            costs[v] = float(c)
    lower = [1.0 if v in set(model["givens"]) else 0.0 for v in range(n)]
    h.addVars(n, np.array(lower), np.ones(n))
    h.changeColsIntegrality(n, np.arange(n, dtype=np.int32), np.ones(n, dtype=np.uint8))
    h.changeColsCost(n, np.arange(n, dtype=np.int32), np.array(costs))
    if objective and objective[0] == "maximize":
        h.changeObjectiveSense(highspy.ObjSense.kMaximize)
    inf = highspy.kHighsInf
    for row in model["constraints"]:
        terms = row_terms(row)
        relation, k = row_bound(row)
        lo = k if relation in ("=", ">=") else -inf
        hi = k if relation in ("=", "<=") else inf
        h.addRow(lo, hi, len(terms), np.array([v for v, _ in terms], dtype=np.int32),
                 np.array([float(w) for _, w in terms]))
    start = time.perf_counter()
    h.run()
    seconds = time.perf_counter() - start
    status = h.getModelStatus()
    M = highspy.HighsModelStatus
    extra = {}
    has_solution = h.getInfo().primal_solution_status == 2
    if status == M.kInfeasible:
        return "infeasible", None, seconds, extra
    if not has_solution and status == M.kTimeLimit:
        return "timeout", "HiGHS reached its time limit without a solution", seconds, extra
    if has_solution and status in (M.kOptimal, M.kTimeLimit, M.kInterrupt):
        values = h.getSolution().col_value
        ones = [i for i in range(n) if values[i] > 0.5]
        if objective:
            extra["proved"] = status == M.kOptimal
            extra["bound"] = rounded_bound(model, h.getInfo().mip_dual_bound)
        return "solution", ones, seconds, extra
    return "unknown", h.modelStatusToString(status), seconds, extra


def solve_scip(model, time_limit, seed):
    """SCIP through PySCIPOpt: binary variables, the rows as linear constraints, one thread."""
    from pyscipopt import Model, quicksum

    m = Model("zeroone")
    m.hideOutput()
    if time_limit:
        m.setParam("limits/time", float(time_limit))
    m.setParam("randomization/randomseedshift", seed)
    m.setParam("limits/gap", 0.0)
    m.setParam("limits/absgap", 0.5)  # integer costs: a gap below 1 is exact
    n = len(model["variables"])
    x = [m.addVar(f"x{i}", vtype="B") for i in range(n)]
    for k, row in enumerate(model["constraints"]):
        expr = quicksum(w * x[v] for v, w in row_terms(row))
        relation, rhs = row_bound(row)
        m.addCons(expr == rhs if relation == "=" else expr <= rhs if relation == "<=" else expr >= rhs, f"r{k}")
    for g in model["givens"]:
        m.addCons(x[g] == 1, f"g{g}")
    objective = objective_of(model)
    if objective:
        sense, costs = objective
        m.setObjective(quicksum(c * x[v] for v, c in costs.items()), "minimize" if sense == "minimize" else "maximize")
    start = time.perf_counter()
    m.optimize()
    seconds = time.perf_counter() - start
    status = m.getStatus()
    extra = {"nodes": m.getNNodes()}
    if status == "infeasible":
        return "infeasible", None, seconds, extra
    if m.getNSols() > 0 and status in ("optimal", "timelimit", "gaplimit"):
        sol = m.getBestSol()
        ones = [i for i in range(n) if m.getSolVal(sol, x[i]) > 0.5]
        if objective:
            extra["proved"] = status in ("optimal", "gaplimit")
            extra["bound"] = rounded_bound(model, m.getDualbound())
        return "solution", ones, seconds, extra
    if status == "timelimit":
        return "timeout", "SCIP reached its time limit without a solution", seconds, extra
    return "unknown", status, seconds, extra


def solve_exact(model, time_limit, seed):
    """Exact (the pseudo-Boolean solver of Jo Devriendt) through its Python bindings: the rows
    as linear constraints over 0-1 variables, integers exact (Python integers)."""
    from exact import Exact

    solver = Exact([("seed", str(seed + 1))])
    names = [f"x{i}" for i in range(len(model["variables"]))]
    for name in names:
        solver.addVariable(name, 0, 1)
    for row in model["constraints"]:
        terms = [(w, names[v]) for v, w in row_terms(row)]
        relation, rhs = row_bound(row)
        solver.addConstraint(terms, relation in ("=", ">="), rhs, relation in ("=", "<="), rhs)
    for g in model["givens"]:
        solver.addConstraint([(1, names[g])], True, 1, False, 0)
    objective = objective_of(model)
    if objective:
        sense, costs = objective
        solver.setObjective([(c, names[v]) for v, c in costs.items()], sense == "minimize")
    start = time.perf_counter()
    result = solver.runFull(objective is not None, float(time_limit or 0))
    seconds = time.perf_counter() - start
    extra = {}
    if solver.hasSolution():
        values = solver.getLastSolutionFor(names)
        ones = [i for i, v in enumerate(values) if v]
        if objective:
            # With an objective, "UNSAT" means no better solution exists: the last is optimal.
            extra["proved"] = result == "UNSAT"
            extra["bound"] = solver.getDualBound()
        return "solution", ones, seconds, extra
    if result in ("UNSAT", "INCONSISTENT"):
        return "infeasible", None, seconds, extra
    if result == "TIMEOUT":
        return "timeout", "Exact reached its time limit without a solution", seconds, extra
    return "unknown", result, seconds, extra


def clauses_of(model):
    """The model as CNF clauses for a SAT solver (variables 1..n), with python-sat's own
    cardinality encodings (sequential counter, totalizer) for rows other than clauses; rows
    whose weights differ from each other cannot be written this way: ValueError names the row."""
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool

    n = len(model["variables"])
    pool = IDPool(start_from=n + 1)
    clauses = []
    for row in model["constraints"]:
        terms = row_terms(row)
        relation, rhs = row_bound(row)
        weights = {w for _, w in terms}
        if len(weights) > 1:
            raise ValueError(f"row {row['family']}/{row['index']} has weights {sorted(weights)}; "
                             "a cardinality encoding needs one weight per row")
        w = weights.pop() if weights else 1
        lits = [v + 1 for v, _ in terms]
        # sum w x (rel) rhs  <=>  sum x (rel) rhs / w, rounded the safe way.
        low = -(-rhs // w) if relation in ("=", ">=") else None
        high = rhs // w if relation in ("=", "<=") else None
        if relation == "=" and rhs % w:
            clauses.append([])  # no 0-1 point meets it
            continue
        if low is not None and low > 0:
            if low == 1:
                clauses.append(lits)
            else:
                clauses += CardEnc.atleast(lits, low, vpool=pool, encoding=EncType.seqcounter).clauses
        if high is not None and high < len(lits):
            encoding = EncType.pairwise if high == 1 and len(lits) <= 6 else EncType.seqcounter
            clauses += CardEnc.atmost(lits, high, vpool=pool, encoding=encoding).clauses
    clauses += [[g + 1] for g in model["givens"]]
    return clauses


def cadical_child(clauses, conn):
    """Runs in a child process (python-sat's CaDiCaL cannot be interrupted): SAT model or None."""
    from pysat.solvers import Solver

    with Solver(name="cadical195", bootstrap_with=clauses) as s:
        start = time.perf_counter()
        sat = s.solve()
        seconds = time.perf_counter() - start
        stats = s.accum_stats() or {}
        conn.send((sat, s.get_model() if sat else None, seconds, stats))


def solve_cadical(model, time_limit, seed):
    """CaDiCaL 1.9.5 through python-sat on the rows as clauses (see `clauses_of`). It decides
    feasibility only: a model with an objective is unsupported. Solved in a child process that
    is killed at the time limit."""
    if objective_of(model):
        return "unsupported", "a SAT solver decides feasibility; the model has an objective", 0.0, {}
    try:
        clauses = clauses_of(model)
    except ValueError as e:
        return "unsupported", str(e), 0.0, {}
    if any(not c for c in clauses):
        return "infeasible", None, 0.0, {"empty-clause": True}
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    start = time.perf_counter()
    proc = ctx.Process(target=cadical_child, args=(clauses, child))
    proc.start()
    child.close()
    ready = parent.poll(time_limit) if time_limit else parent.poll(None)
    if not ready:
        proc.kill()
        proc.join()
        return "timeout", "CaDiCaL killed at the time limit", time.perf_counter() - start, {}
    sat, values, seconds, stats = parent.recv()
    proc.join()
    extra = {k: stats[k] for k in ("conflicts", "decisions", "propagations") if k in stats}
    if not sat:
        return "infeasible", None, seconds, extra
    n = len(model["variables"])
    return "solution", [lit - 1 for lit in values if 0 < lit <= n], seconds, extra


def generic_json(model):
    """The model in zeroone's own JSON schema (variables v0, v1, ...; one family per row, so
    every row keeps its sense and right-hand side), for `zeroone export`."""
    labels = [f"v{i}" for i in range(len(model["variables"]))]
    families = []
    for k, row in enumerate(model["constraints"]):
        terms = row_terms(row)
        family = {"name": f"r{k}", "sense": row["sense"], "rows": [[labels[v] for v, _ in terms]]}
        if "rhs" in row:
            family["rhs"] = row["rhs"]
        if any(w != 1 for _, w in terms):
            family["weights"] = [[w for _, w in terms]]
        families.append(family)
    return {"name": "peer", "variables": labels, "families": families,
            "givens": [labels[g] for g in model["givens"]]}


ZEROONE = "target/release/zeroone"
MINIEXACT = "miniexact"


def solve_miniexact(model, time_limit, seed):
    """miniexact (Knuth's Algorithms C and M with dancing links) on the model as
    `zeroone export --format xcc` writes it: one option per variable (line 1 + id), then the
    slack options of variables in no binding equation. What the export refuses (weighted rows)
    and models with an objective are unsupported. The process is killed at the time limit."""
    if objective_of(model):
        return "unsupported", "miniexact finds exact covers; the model has an objective", 0.0, {}
    n = len(model["variables"])
    with tempfile.TemporaryDirectory() as scratch:
        source = os.path.join(scratch, "model.json")
        with open(source, "w") as f:
            json.dump(generic_json(model), f)
        out = os.path.join(scratch, "model.xcc")
        e = subprocess.run([ZEROONE, "export", source, "--format", "xcc", "--output", out],
                           capture_output=True, text=True)
        if e.returncode != 0:
            return "unsupported", "zeroone export --format xcc: " + e.stderr.strip()[:300], 0.0, {}
        with open(out) as f:
            lines = f.read().splitlines()
        algorithm = "-m" if ":" in lines[0] else "-c"
        start = time.perf_counter()
        try:
            p = subprocess.run([MINIEXACT, algorithm, "-p", out], capture_output=True, text=True,
                               timeout=time_limit or None)
        except subprocess.TimeoutExpired:
            return "timeout", "miniexact killed at the time limit", time.perf_counter() - start, {}
        seconds = time.perf_counter() - start
    extra = {"algorithm": algorithm}
    if p.returncode == 20:
        return "infeasible", None, seconds, extra
    if p.returncode != 10:
        return "unknown", f"miniexact exit {p.returncode}: {p.stderr.strip()[:300]}", seconds, extra
    # Printed options are their items; identical options are interchangeable, so each printed
    # one takes the first unused option with the same items.
    options = {}
    for index, line in enumerate(lines[1:]):
        options.setdefault(tuple(sorted(line.split())), []).append(index)
    ones = []
    for line in p.stdout.splitlines():
        items = tuple(sorted(line.rstrip(";").split()))
        if not items:
            continue
        free = options.get(items)
        if not free:
            return "unknown", f"miniexact printed an option that is not in the file: {line!r}", seconds, extra
        index = free.pop(0)
        if index < n:
            ones.append(index)
    return "solution", sorted(ones), seconds, extra


def export_cnf(model, scratch):
    """(path, None) of the model's DIMACS CNF as `zeroone export --format cnf` writes it (with
    its `c p show` projection lines) in the folder `scratch`, or (None, why) when the export
    refuses the model."""
    source = os.path.join(scratch, "model.json")
    with open(source, "w") as f:
        json.dump(generic_json(model), f)
    out = os.path.join(scratch, "model.cnf")
    e = subprocess.run([ZEROONE, "export", source, "--format", "cnf", "--output", out],
                       capture_output=True, text=True)
    if e.returncode != 0:
        return None, "zeroone export --format cnf: " + e.stderr.strip()[:300]
    return out, None


def count_ganak(model, time_limit, seed):
    """Ganak's projected count of the model's CNF export (see counters.py)."""
    return counters.count_with(counters.ganak_child, "Ganak", model, time_limit, seed,
                               export_cnf, bool(objective_of(model)))


def count_d4(model, time_limit, seed):
    """d4's projected count of the model's CNF export (see counters.py)."""
    return counters.count_with(counters.d4_child, "d4", model, time_limit, seed,
                               export_cnf, bool(objective_of(model)))


# The peers that count (#SAT) rather than solve: their records are counting runs.
COUNTERS = {"ganak", "d4"}

SOLVERS = {
    "cp-sat": solve_cpsat,
    "cbc": solve_cbc,
    "highs": solve_highs,
    "scip": solve_scip,
    "exact": solve_exact,
    "cadical": solve_cadical,
    "miniexact": solve_miniexact,
    "ganak": count_ganak,
    "d4": count_d4,
}


def record_of(doc, label, solver, rep, seed, time_limit, version, host):
    """A zeroone record of one run before its outcome: the instance's provenance from the
    exported model (group, file, size, position, instances), the run's options and machine."""
    model = doc["model"]
    record = {
        "instance": doc["instance"],
        "backend": label,
        "repetition": rep,
        "name": "peer",
        "task": "count" if solver in COUNTERS else "solve",
        "options": {"seed": seed, "params": {"solver": solver, "version": version}},
        "status": "unknown",
        "verified": False,
        "seconds": 0.0,
        "variables": len(model["variables"]),
        "rows": len(model["constraints"]),
        "stats": {"seconds": 0.0, "extra": {}},
        "machine": host,
    }
    for key in ("group", "file", "size", "position", "instances", "repetitions",
                "original_variables", "original_rows"):
        if doc.get(key) is not None:
            record[key] = doc[key]
    if time_limit:
        record["options"]["time_limit"] = time_limit
    return record


def fill(record, model, solver, outcome):
    """The record's status from the peer's outcome: every answer is checked against the rows
    first, and its objective value recomputed exactly."""
    found, payload, seconds, extra = outcome
    record["seconds"] = seconds
    record["stats"] = {"seconds": seconds, "extra": extra}
    objective = objective_of(model)
    if objective:
        record["sense"] = objective[0]
    if found == "solution":
        wrong = check(model, payload)
        if wrong is not None:
            record["status"] = "error"
            record["reason"] = f"answer rejected by the check: {wrong}"
            return
        record["status"], record["verified"] = "solved", True
        extra["solution"] = payload
        if objective:
            proved = extra.pop("proved", False)
            bound = extra.pop("bound", None)
            record["status"] = "optimal" if proved else "feasible"
            record["objective"] = value_of(model, payload)
            if proved:
                record["bound"] = record["objective"]
            elif bound is not None:
                record["bound"] = bound
    elif found == "count":
        # A #SAT peer's complete count: no witnesses, so not `verified` (like zeroone's `dp`);
        # the reports check it against the other backends' counts under "Disagreements".
        record["count"], record["exhaustive"] = payload, True
        record["status"] = "solved"
    elif found == "infeasible":
        record["status"] = "infeasible"
    elif found in ("unsupported", "timeout"):
        record["status"] = found
        record["reason"] = payload
    elif stopped_by_limit(record, payload):
        record["status"] = "timeout"
        record["reason"] = f"{solver} stopped at the time limit: {payload}"
    else:
        record["reason"] = f"{solver} stopped: {payload}"


def stopped_by_limit(record, said):
    """Whether a run without an answer was stopped by its time limit: the solver said so, or the
    solve call or the whole run took the limit. Such a run is `timeout`, as a zeroone backend's
    is (and as `zeroone` reads older peer records that said `unknown`), so PAR-2 charges it."""
    limit = record["options"].get("time_limit")
    took = max(record["seconds"], record.get("wall_seconds") or 0.0)
    return "time limit" in str(said).lower() or (bool(limit) and took >= limit)


def main():
    global ZEROONE, MINIEXACT
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--solver", choices=sorted(SOLVERS), required=True)
    p.add_argument("--models", help="folder written by zeroone run --export-models")
    p.add_argument("--out", help="record file to append to (JSON lines)")
    p.add_argument("--check", action="store_true",
                   help=f"only check that the peer can run here: exit 0, or {MISSING} naming what is missing")
    p.add_argument("--label", help="backend label in the records (default: the solver name)")
    p.add_argument("--time-limit", type=float, default=None,
                   help="seconds per run (default: the experiment's, as exported with the models)")
    p.add_argument("--repetitions", type=int, default=None,
                   help="runs per instance (default: the experiment's, as exported with the models)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--zeroone", default=ZEROONE, help="the zeroone binary (miniexact: its xcc export)")
    p.add_argument("--miniexact", default=None,
                   help="the miniexact program (default: beside this Python, else on PATH)")
    args = p.parse_args()
    lacking = missing_package(args.solver)
    if args.check or lacking:
        if lacking:
            print(f"peers.py: {lacking}", file=sys.stderr)
            sys.exit(MISSING)
        return
    if not args.models or not args.out:
        p.error("--models and --out are required (unless --check)")
    label = args.label or args.solver
    solve = SOLVERS[args.solver]
    ZEROONE = args.zeroone
    beside = os.path.join(os.path.dirname(sys.executable), "miniexact")
    MINIEXACT = args.miniexact or (beside if os.path.exists(beside) else "miniexact")

    files = sorted(glob.glob(os.path.join(args.models, "*.json")))
    if not files:
        sys.exit(f"peers.py: no *.json models in {args.models} (write them with zeroone run --export-models)")
    done = load_done(args.out)
    version, host = solver_version(args.solver), machine()
    ran = 0
    with open(args.out, "a") as out:
        for path in files:
            with open(path) as f:
                doc = json.load(f)
            model = doc["model"]
            time_limit = args.time_limit if args.time_limit is not None else doc.get("time_limit")
            repetitions = args.repetitions if args.repetitions is not None else doc.get("repetitions") or 1
            for rep in range(repetitions):
                if (doc["instance"], label, rep) in done:
                    continue
                record = record_of(doc, label, args.solver, rep, args.seed, time_limit, version, host)
                wall0, cpu0 = time.perf_counter(), cpu_now()
                outcome = solve(model, time_limit, args.seed)
                record["wall_seconds"] = time.perf_counter() - wall0
                record["cpu_seconds"] = cpu_now() - cpu0
                fill(record, model, args.solver, outcome)
                out.write(json.dumps(record, separators=(",", ":")) + "\n")
                out.flush()
                ran += 1
    print(f"peers.py: {ran} runs of {label} appended to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
