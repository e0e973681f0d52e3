#!/usr/bin/env python3
"""Peer solvers for zeroone experiments: OR-Tools CP-SAT and CBC (through PuLP).

Reads the models `zeroone run EXPERIMENT --export-models DIR` wrote (one JSON file per
instance: {"instance": id, "model": <zeroone model>}), solves each with the chosen peer, checks
every answer against the model's rows (each "exactly-one" row sums to 1, each "at-most-one" row
to at most 1, every given is 1: the rules of zeroone's verifier), and appends one JSON line per
run in zeroone's record format, flushed per line. Runs already in the output file are skipped,
so an interrupted run continues where it stopped. `zeroone merge EXPERIMENT OUT` then joins the
rows with the experiment's own (the experiment must list the label under `peers`).

Optional: nothing in zeroone's build or tests needs this script or its packages.
"""

import argparse
import glob
import json
import os
import platform
import resource
import sys
import time


def cpu_now():
    """User + system CPU seconds of this process and its finished children (CBC runs as one)."""
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


def solver_version(name):
    """The peer's package and version, for the records' provenance."""
    if name == "cp-sat":
        import ortools

        return f"ortools {ortools.__version__}"
    import pulp

    return f"pulp {pulp.__version__} (CBC)"


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


def row_terms(row):
    """A row as (terms, sense, rhs): terms are (variable, weight) pairs, sense one of "=", "<=",
    ">=". Reads the set-partitioning form ("exactly-one" / "at-most-one" over `vars`) and the
    general 0-1 form (`weights` beside `vars`, `sense` "=", "<=" or ">=", right side `rhs`)."""
    weights = row.get("weights") or [1] * len(row["vars"])
    terms = list(zip(row["vars"], weights))
    sense = row["sense"]
    if sense == "exactly-one":
        return terms, "=", 1
    if sense == "at-most-one":
        return terms, "<=", 1
    if sense in ("=", "<=", ">="):
        return terms, sense, row["rhs"]
    raise SystemExit(f"peers.py: row sense {sense!r} not understood (expected exactly-one, at-most-one, =, <= or >=)")


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
        terms, sense, rhs = row_terms(row)
        s = sum(w for v, w in terms if v in chosen)
        ok = s == rhs if sense == "=" else (s <= rhs if sense == "<=" else s >= rhs)
        if not ok:
            return f"row {row['family']}/{row['index']} sums to {s}, expected {sense} {rhs}"
    return None


def solve_cpsat(model, time_limit, seed):
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    x = [m.NewBoolVar(f"x{i}") for i in range(len(model["variables"]))]
    for row in model["constraints"]:
        terms, sense, rhs = row_terms(row)
        unit = all(w == 1 for _, w in terms) and rhs == 1
        if unit and sense == "=":
            m.AddExactlyOne([x[v] for v, _ in terms])
        elif unit and sense == "<=":
            m.AddAtMostOne([x[v] for v, _ in terms])
        else:
            expr = sum(w * x[v] for v, w in terms)
            m.Add(expr == rhs if sense == "=" else (expr <= rhs if sense == "<=" else expr >= rhs))
    for g in model["givens"]:
        m.Add(x[g] == 1)
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
        return "solution", ones, seconds, extra
    if status == cp_model.INFEASIBLE:
        return "infeasible", None, seconds, extra
    return "unknown", solver.StatusName(status), seconds, extra


def solve_cbc(model, time_limit, seed):
    import pulp

    prob = pulp.LpProblem("zeroone", pulp.LpMinimize)
    x = [pulp.LpVariable(f"x{i}", cat="Binary") for i in range(len(model["variables"]))]
    prob += pulp.lpSum([])  # feasibility: no objective
    for k, row in enumerate(model["constraints"]):
        terms, sense, rhs = row_terms(row)
        expr = pulp.lpSum(w * x[v] for v, w in terms)
        prob += (expr == rhs if sense == "=" else (expr <= rhs if sense == "<=" else expr >= rhs)), f"r{k}"
    for g in model["givens"]:
        prob += x[g] == 1, f"g{g}"
    solver = pulp.PULP_CBC_CMD(msg=False, timeLimit=time_limit, options=[f"randomSeed {seed}"])
    start = time.perf_counter()
    prob.solve(solver)
    seconds = time.perf_counter() - start
    status = pulp.LpStatus[prob.status]
    if status == "Optimal":
        ones = [i for i, v in enumerate(x) if (v.value() or 0) > 0.5]
        return "solution", ones, seconds, {}
    if status == "Infeasible":
        return "infeasible", None, seconds, {}
    return "unknown", status, seconds, {}


SOLVERS = {"cp-sat": solve_cpsat, "cbc": solve_cbc}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--solver", choices=sorted(SOLVERS), required=True)
    p.add_argument("--models", required=True, help="folder written by zeroone run --export-models")
    p.add_argument("--out", required=True, help="record file to append to (JSON lines)")
    p.add_argument("--label", help="backend label in the records (default: the solver name)")
    p.add_argument("--time-limit", type=float, default=None,
                   help="seconds per run (default: the experiment's, as exported with the models)")
    p.add_argument("--repetitions", type=int, default=None,
                   help="runs per instance (default: the experiment's, as exported with the models)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    label = args.label or args.solver
    solve = SOLVERS[args.solver]

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
            instance, model = doc["instance"], doc["model"]
            time_limit = args.time_limit if args.time_limit is not None else doc.get("time_limit")
            repetitions = args.repetitions if args.repetitions is not None else doc.get("repetitions", 1)
            for rep in range(repetitions):
                if (instance, label, rep) in done:
                    continue
                wall0, cpu0 = time.perf_counter(), cpu_now()
                found, payload, seconds, extra = solve(model, time_limit, args.seed)
                wall, cpu = time.perf_counter() - wall0, cpu_now() - cpu0
                record = {
                    "instance": instance,
                    "backend": label,
                    "repetition": rep,
                    "name": "peer",
                    "task": "solve",
                    "options": {"seed": args.seed, "params": {"solver": args.solver, "version": version}},
                    "status": "unknown",
                    "verified": False,
                    "seconds": seconds,
                    "variables": len(model["variables"]),
                    "rows": len(model["constraints"]),
                    "stats": {"seconds": seconds, "extra": extra},
                    "wall_seconds": wall,
                    "cpu_seconds": cpu,
                    "machine": host,
                }
                for key in ("group", "size", "position", "instances"):
                    if doc.get(key) is not None:
                        record[key] = doc[key]
                if time_limit:
                    record["options"]["time_limit"] = time_limit
                if found == "solution":
                    wrong = check(model, payload)
                    if wrong is None:
                        record["status"], record["verified"] = "solved", True
                        extra["solution"] = payload
                    else:
                        record["status"] = "error"
                        record["reason"] = f"answer rejected by the check: {wrong}"
                elif found == "infeasible":
                    record["status"] = "infeasible"
                else:
                    record["reason"] = f"{args.solver} stopped: {payload}"
                out.write(json.dumps(record, separators=(",", ":")) + "\n")
                out.flush()
                ran += 1
    print(f"peers.py: {ran} runs of {label} appended to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
