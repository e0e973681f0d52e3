"""zeroone.run() runs an experiment's peers as ``zeroone run`` does (issue 36): with a fake
peer script standing in for peers.py (no solver package needed), the real peers.py only for
its missing-package message; ``peers=False`` matches ``--no-peers``."""

import json
import os
import subprocess
import sys

import pytest

import zeroone

# A small OPB model with an objective: x1 alone (cost 2) is optimal.
MODEL = "min: +2 x1 +1 x2 +3 x3 ;\n+1 x1 +1 x2 >= 1 ;\n+1 ~x2 +1 x3 >= 1 ;\n"

# A stand-in for peers.py: `--check` passes; a run first has the `--zeroone` program export a
# small generic model to XCC (as peers.py does for miniexact) and stops if that fails, then
# writes one `optimal` record per exported model and repetition not yet in its file, and logs
# the call.
FAKE_PEER = r'''import json, os, subprocess, sys
args = sys.argv[1:]
solver = args[args.index("--solver") + 1]
if "--check" in args:
    sys.exit(0)
models, out = args[args.index("--models") + 1], args[args.index("--out") + 1]
zeroone = args[args.index("--zeroone") + 1]
scratch = os.path.dirname(out)
source, xcc = os.path.join(scratch, "g.json"), os.path.join(scratch, "g.xcc")
with open(source, "w") as f:
    json.dump({"name": "g", "variables": ["a", "b"],
               "families": [{"name": "r", "sense": "exactly-one", "rows": [["a", "b"]]}]}, f)
e = subprocess.run([zeroone, "export", source, "--format", "xcc", "--output", xcc],
                   capture_output=True, text=True)
if e.returncode != 0 or not os.path.exists(xcc):
    sys.exit("fake peer: zeroone export failed: " + e.stderr)
with open(os.path.join(scratch, "calls.log"), "a") as log:
    log.write(solver + "\n")
done = set()
if os.path.exists(out):
    for line in open(out):
        r = json.loads(line)
        done.add((r["instance"], r["repetition"]))
with open(out, "a") as f:
    for name in sorted(os.listdir(models)):
        doc = json.load(open(os.path.join(models, name)))
        for rep in range(doc["repetitions"]):
            if (doc["instance"], rep) in done:
                continue
            r = {"instance": doc["instance"], "backend": solver, "repetition": rep, "name": "peer",
                 "task": "solve", "options": {"seed": 0, "params": {"solver": solver}},
                 "status": "optimal", "verified": True, "seconds": 0.001, "objective": 2,
                 "bound": 1, "sense": "minimize", "stats": {"seconds": 0.001, "extra": {}},
                 "group": doc["group"], "file": doc["file"], "position": doc["position"]}
            f.write(json.dumps(r) + "\n")
'''


def experiment(folder, peers):
    (folder / "m.opb").write_text(MODEL)
    path = folder / "e.toml"
    path.write_text(
        'title = "t"\ndescription = "d"\nkind = "solve"\nrepetitions = 2\ntime_limit = 5\n'
        f'reports_dir = "out"\npeers = {json.dumps(peers)}\n\n[[instances]]\nfile = "m.opb"\n\n'
        '[[backends]]\nname = "bitset"\n'
    )
    return path


def test_run_runs_the_experiments_peers_into_the_same_records(tmp_path, monkeypatch):
    script = tmp_path / "fake_peers.py"
    script.write_text(FAKE_PEER)
    monkeypatch.setenv("ZEROONE_PYTHON", sys.executable)
    monkeypatch.setenv("ZEROONE_PEERS_SCRIPT", str(script))
    path = experiment(tmp_path, ["fake"])
    frame = zeroone.run(path, jobs=1)
    counts = frame["backend"].value_counts().to_dict()
    assert counts == {"bitset": 2, "fake": 2}
    fake = frame[frame["backend"] == "fake"]
    assert (fake["name"] == "peer").all()
    # The CSV's gap for the peer's record: |2 - 1| / 2.
    assert fake["gap"].tolist() == [0.5, 0.5]
    assert "`fake`" in (tmp_path / "out/e.md").read_text()
    log = tmp_path / "out/e.peers/calls.log"
    assert log.read_text().splitlines() == ["fake"]
    # Resumed: nothing runs again and nothing is joined twice.
    again = zeroone.run(path, jobs=1)
    assert len(again) == 4
    # peers=False runs the backends alone: the script is not called.
    alone = zeroone.run(path, resume=False, jobs=1, peers=False)
    assert set(alone["backend"]) == {"bitset"}
    assert log.read_text().splitlines() == ["fake", "fake"]


def test_a_missing_peer_package_raises_before_anything_runs(root, tmp_path, monkeypatch):
    # An interpreter without site-packages: OR-Tools cannot be imported, installed or not.
    bare = tmp_path / "bare-python"
    bare.write_text(f'#!/bin/sh\nexec "{sys.executable}" -I -S "$@"\n')
    bare.chmod(0o755)
    monkeypatch.setenv("ZEROONE_PYTHON", str(bare))
    monkeypatch.setenv("ZEROONE_PEERS_SCRIPT", str(root / "experiments/peers/peers.py"))
    path = experiment(tmp_path, ["cp-sat"])
    with pytest.raises(ValueError) as raised:
        zeroone.run(path, jobs=1)
    message = str(raised.value)
    for part in ["peer 'cp-sat'", "'ortools'", "pip install -r",
                 "experiments/peers/requirements.txt", "peers=False"]:
        assert part in message, message
    assert "--no-peers" not in message
    assert not (tmp_path / "out/e.jsonl").exists(), "nothing ran"
    # peers=False needs no package.
    frame = zeroone.run(path, jobs=1, peers=False)
    assert set(frame["backend"]) == {"bitset"}


def test_the_stand_in_program_exports_as_the_package_does(tmp_path):
    m = zeroone.LinearModel("pick")
    x, y, z = m.vars("x", "y", "z")
    m.add(x + y + z == 1)
    model = m.model()
    source = tmp_path / "m.json"
    source.write_text(model.to_json())
    exe = zeroone._cli_exe()
    for format in ["xcc", "lp", "cnf"]:
        out = tmp_path / f"m.{format}"
        done = subprocess.run([exe, "export", str(source), "--format", format, "--output",
                               str(out)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert out.read_text() == next(iter(zeroone.load(source))).export(format)
    bad = subprocess.run([exe, "solve", str(source)], capture_output=True, text=True)
    assert bad.returncode == 2 and "only 'export" in bad.stderr
    refused = subprocess.run([exe, "export", str(source), "--format", "xls", "--output",
                              os.devnull], capture_output=True, text=True)
    assert refused.returncode == 2 and "xls" in refused.stderr

