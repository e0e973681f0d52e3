"""Ctrl-C stops a long run within a second, and the run really stops (no CPU burnt after)."""

import os
import shutil
import signal
import threading
import time

import pytest

import zeroone


@pytest.fixture(autouse=True)
def python_handles_sigint():
    """Python's own Ctrl-C handler, as in an interactive session: a process started in the
    background by a non-interactive shell inherits SIGINT ignored, and these tests would then
    wait for a count that never ends."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def bare_hex(tmp_path, width):
    """The bare hex board of this width (every cell free): far too many solutions to count
    in a test's time."""
    s = (width + 1) // 2
    lines = [" " * abs(r - (s - 1)) + "." * (width - abs(r - (s - 1))) for r in range(width)]
    path = tmp_path / f"bare-{width}.hex"
    path.write_text("\n".join(lines) + "\n")
    return next(zeroone.load(path))


def children():
    """The process ids whose parent is this process (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    # The parent's pid is the second field after the parenthesised name.
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == os.getpid():
                        found.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return found


def interrupt_after(seconds):
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


def all_true_rows(n=25, rows=40):
    """n free variables under rows that every assignment satisfies: brute force counts all
    2^n of them, far more than a test's time in a debug build and seconds in a release one."""
    labels = [f"x{i}" for i in range(n)]
    m = zeroone.Model(f"all-true-{n}")
    m.add_variables(labels)
    rows = [labels[i % n:] + labels[:i % n] for i in range(rows)]
    m.add_family("loose", "at-most", [r[: n // 2] for r in rows], rhs=n // 2)
    return m


def dense_equations(n=1500, rows=1200, width=30, seed=7):
    """Random exactly-one rows over many variables: exact elimination fills in, overflows
    i128 fractions and goes on with big ones, for many seconds."""
    import random

    rng = random.Random(seed)
    labels = [f"y{i}" for i in range(n)]
    m = zeroone.Model("dense-equations")
    m.add_variables(labels)
    m.add_family("eq", "exactly-one", [rng.sample(labels, width) for _ in range(rows)])
    return m


# Every backend the package's registry lists (zeroone.backends(), no list here), each on a
# model it takes far longer than a second over, counting where it can (gauss only solves).
# The bare hex board of width 21 is that model unless the backend is named below.
BACKENDS = {b["name"]: b for b in zeroone.backends()}
DP_WIDTH = 23
LONG_RUN_EXCEPTIONS = {
    # dp's long run has been the wider board since this test began.
    "dp": lambda p: bare_hex(p, DP_WIDTH),
    # brute force takes at most 25 free variables.
    "brute": lambda p: all_true_rows(),
    # gauss only solves, and only dense equations keep elimination busy (see above).
    "gauss": lambda p: dense_equations(),
}


def long_run(backend, tmp_path):
    """The task (count where the backend can, else solve) and the model of `backend`'s long
    run."""
    make = LONG_RUN_EXCEPTIONS.get(backend, lambda p: bare_hex(p, 21))
    task = "count" if BACKENDS[backend]["counts"] else "solve"
    return task, make(tmp_path)


def test_the_long_runs_come_from_the_registry():
    assert {"bitset", "brute", "dp", "gauss", "xcc"} <= set(BACKENDS)
    assert set(LONG_RUN_EXCEPTIONS) <= set(BACKENDS)
    assert all(b["solves"] or b["counts"] for b in BACKENDS.values())
    assert not BACKENDS["gauss"]["counts"] and not BACKENDS["dp"]["solves"]


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_ctrl_c_stops_a_long_run_within_a_second(tmp_path, backend):
    task, m = long_run(backend, tmp_path)
    interrupt_after(0.5)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        getattr(zeroone, task)(m, backend=backend)
    assert time.monotonic() - start < 1.5, backend
    # The search itself stopped: this process uses (almost) no CPU from now on.
    cpu = time.process_time()
    time.sleep(0.5)
    assert time.process_time() - cpu < 0.2, backend


def test_ctrl_c_stops_a_solution_stream(tmp_path):
    m = bare_hex(tmp_path, 21)
    interrupt_after(0.5)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        for _ in zeroone.solutions(m):
            pass
    assert time.monotonic() - start < 1.5


def test_a_dropped_solution_stream_stops_its_search(tmp_path):
    m = bare_hex(tmp_path, 21)
    stream = zeroone.solutions(m)
    first = [next(stream) for _ in range(3)]
    assert len(first) == 3
    del stream
    time.sleep(0.2)
    cpu = time.process_time()
    time.sleep(0.5)
    assert time.process_time() - cpu < 0.2


def test_the_gil_is_released_while_a_backend_runs(tmp_path):
    # A Python thread keeps running while the main thread waits for a long count.
    m = bare_hex(tmp_path, 21)
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.01)

    t = threading.Thread(target=tick)
    t.start()
    r = zeroone.count(m, backend="bitset", time_limit=0.5)
    stop.set()
    t.join()
    assert r.status == "limit" and not r.exhaustive
    assert len(ticks) >= 20


def test_ctrl_c_stops_a_running_experiment_and_records_only_finished_runs(root, tmp_path):
    # A quick board first, then a count far longer than the test: Ctrl-C kills the worker
    # within a second, the quick runs stay on record, the cut one is not recorded, and
    # resume=True would run it again.
    shutil.copy(root / "models/hex-5.hex", tmp_path / "quick.hex")
    bare_hex(tmp_path, 21)
    experiment = tmp_path / "long.toml"
    experiment.write_text(
        'title = "long"\ndescription = "a quick board, then a long count"\nkind = "count"\n'
        '[[instances]]\nfile = "quick.hex"\n\n[[instances]]\nfile = "bare-21.hex"\n\n'
        '[[backends]]\nname = "bitset"\n'
    )
    reports = tmp_path / "reports"
    interrupt_after(3.0)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        zeroone.run(experiment, reports=reports, jobs=1)
    assert time.monotonic() - start < 4.5
    frame = zeroone.records(reports / "long.jsonl")
    boards = sum(1 for _ in zeroone.load(tmp_path / "quick.hex"))
    assert list(frame["instance"]) == [f"quick#{i}" for i in range(boards)]
    assert set(frame["status"]) == {"solved"}
    # No worker is left counting, and this process uses no CPU from now on.
    assert children() == []
    cpu = time.process_time()
    time.sleep(0.5)
    assert time.process_time() - cpu < 0.2
