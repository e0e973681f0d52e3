#!/usr/bin/env python3
"""Peer solvers for zeroone experiments: OR-Tools CP-SAT, CBC (through PuLP) and HiGHS
(through highspy, for machines without zeroone's `highs` feature).

Reads the models `zeroone run EXPERIMENT --export-models DIR` wrote (one JSON file per
instance: {"instance": id, "model": <zeroone model>}), solves each with the chosen peer, checks
every answer against the model's rows (each row's weighted sum `sum w x` against its sense:
"exactly-one" = 1, "at-most-one" <= 1, "exactly" = rhs, "at-most" <= rhs, "at-least" >= rhs,
with `weights` all 1 when absent; every given is 1: the rules of zeroone's verifier), and
appends one JSON line per
run in zeroone's record format, flushed per line. Runs already in the output file are skipped,
so an interrupted run continues where it stopped. A model with an `objective` (sense and
`[variable, cost]` pairs) is optimised: the record's status is `optimal` when the peer proved
its answer optimal, `feasible` when a limit stopped it with one, and `objective` is the
answer's value recomputed here with Python's exact integers (`bound`: the peer's proved bound,
rounded towards the answer, when it reports one). `zeroone merge EXPERIMENT OUT` then joins the
rows with the experiment's own (the experiment must list the label under `peers`).

Optional: nothing in zeroone's build or tests needs this script or its packages.
"""

import argparse
import glob
import json
import os
import sys
import time


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
    solver = pulp.PULP_CBC_CMD(msg=False, timeLimit=time_limit, options=[f"randomSeed {seed}"])
    start = time.perf_counter()
    prob.solve(solver)
    seconds = time.perf_counter() - start
    status = pulp.LpStatus[prob.status]
    if status == "Optimal":
        ones = [i for i, v in enumerate(x) if (v.value() or 0) > 0.5]
        # CBC stopped by its time limit with a solution still says "Optimal"; the solution
        # status tells them apart (1: optimal, 2: integer feasible).
        extra = {"proved": prob.sol_status == 1} if objective else {}
        return "solution", ones, seconds, extra
    if status == "Infeasible":
        return "infeasible", None, seconds, {}
    return "unknown", status, seconds, {}


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
    if has_solution and status in (M.kOptimal, M.kTimeLimit, M.kInterrupt):
        values = h.getSolution().col_value
        ones = [i for i in range(n) if values[i] > 0.5]
        if objective:
            extra["proved"] = status == M.kOptimal
            extra["bound"] = rounded_bound(model, h.getInfo().mip_dual_bound)
        return "solution", ones, seconds, extra
    return "unknown", h.modelStatusToString(status), seconds, extra


SOLVERS = {"cp-sat": solve_cpsat, "cbc": solve_cbc, "highs": solve_highs}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--solver", choices=sorted(SOLVERS), required=True)
    p.add_argument("--models", required=True, help="folder written by zeroone run --export-models")
    p.add_argument("--out", required=True, help="record file to append to (JSON lines)")
    p.add_argument("--label", help="backend label in the records (default: the solver name)")
    p.add_argument("--time-limit", type=float, default=None, help="seconds per run")
    p.add_argument("--repetitions", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    label = args.label or args.solver
    solve = SOLVERS[args.solver]

    files = sorted(glob.glob(os.path.join(args.models, "*.json")))
    if not files:
        sys.exit(f"peers.py: no *.json models in {args.models} (write them with zeroone run --export-models)")
    done = load_done(args.out)
    ran = 0
    with open(args.out, "a") as out:
        for path in files:
            with open(path) as f:
                doc = json.load(f)
            instance, model = doc["instance"], doc["model"]
            for rep in range(args.repetitions):
                if (instance, label, rep) in done:
                    continue
                found, payload, seconds, extra = solve(model, args.time_limit, args.seed)
                record = {
                    "instance": instance,
                    "backend": label,
                    "repetition": rep,
                    "name": "peer",
                    "task": "solve",
                    "options": {"seed": args.seed, "params": {"solver": args.solver}},
                    "status": "unknown",
                    "verified": False,
                    "seconds": seconds,
                    "variables": len(model["variables"]),
                    "rows": len(model["constraints"]),
                    "stats": {"seconds": seconds, "extra": extra},
                }
                if args.time_limit:
                    record["options"]["time_limit"] = args.time_limit
                if found == "solution":
                    wrong = check(model, payload)
                    if objective_of(model):
                        record["sense"] = objective_of(model)[0]
                    if wrong is None:
                        record["status"], record["verified"] = "solved", True
                        extra["solution"] = payload
                        if objective_of(model):
                            proved = extra.pop("proved", False)
                            bound = extra.pop("bound", None)
                            record["status"] = "optimal" if proved else "feasible"
                            record["objective"] = value_of(model, payload)
                            if proved:
                                record["bound"] = record["objective"]
                            elif bound is not None:
                                record["bound"] = bound
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
