"""Ctrl-C stops a long run within a second, and the run really stops (no CPU burnt after)."""

import os
import signal
import threading
import time

import pytest

import zeroone


def bare_hex(tmp_path, width):
    """The bare hex board of this width (every cell free): far too many solutions to count
    in a test's time."""
    s = (width + 1) // 2
    lines = [" " * abs(r - (s - 1)) + "." * (width - abs(r - (s - 1))) for r in range(width)]
    path = tmp_path / f"bare-{width}.hex"
    path.write_text("\n".join(lines) + "\n")
    return next(zeroone.load(path))


def interrupt_after(seconds):
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


@pytest.mark.parametrize("backend", ["bitset", "enum"])
def test_ctrl_c_stops_a_long_count_within_a_second(tmp_path, backend):
    m = bare_hex(tmp_path, 21)
    interrupt_after(0.5)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        zeroone.count(m, backend=backend)
    assert time.monotonic() - start < 1.5
    # The search itself stopped: this process uses (almost) no CPU from now on.
    cpu = time.process_time()
    time.sleep(0.5)
    assert time.process_time() - cpu < 0.2


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
