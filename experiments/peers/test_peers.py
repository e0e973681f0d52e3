#!/usr/bin/env python3
"""Checks of peers.py that need no solver package: `python3 experiments/peers/test_peers.py`.

A run without an answer that its time limit stopped is `timeout` (as a zeroone backend's is, so
PAR-2 charges it), whether the solver said so or only its time shows it; CBC's time is its own
wall clock from its log; a #SAT peer's count is a complete counting run read with its
projection. `test_counters.py` runs Ganak and d4 themselves against zeroone's counts."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import counters  # noqa: E402
import peers  # noqa: E402

MODEL = {"variables": ["a"], "constraints": [], "givens": []}


def filled(outcome, limit, wall):
    record = peers.record_of({"instance": "i", "model": MODEL}, "cbc", "cbc", 0, 0, limit, "v", "h")
    record["wall_seconds"] = wall
    peers.fill(record, MODEL, "cbc", outcome)
    return record


class StoppedByTheLimit(unittest.TestCase):
    def test_a_stop_at_the_limit_is_a_timeout(self):
        # CBC's "Not Solved" after 10.05 s of a 10 s limit; HiGHS's own words before it.
        self.assertEqual(filled(("unknown", "Not Solved", 10.05, {}), 10.0, 10.2)["status"], "timeout")
        self.assertEqual(filled(("unknown", "Time limit reached", 3.0, {}), 10.0, 3.1)["status"], "timeout")
        # The solve call inside the limit but the whole run past it.
        self.assertEqual(filled(("unknown", "UNKNOWN", 9.9, {}), 10.0, 10.0)["status"], "timeout")

    def test_other_stops_stay_unknown(self):
        self.assertEqual(filled(("unknown", "MODEL_INVALID", 0.1, {}), 10.0, 0.2)["status"], "unknown")
        self.assertEqual(filled(("unknown", "UNKNOWN", 50.0, {}), None, 50.0)["status"], "unknown")

    def test_cbc_time_is_its_own_wall_clock(self):
        log = "Result - Stopped on time limit\nTotal time (CPU seconds):       0.01   (Wallclock seconds):       0.02\n"
        self.assertEqual(peers.cbc_wallclock(log, 9.0), 0.02)
        self.assertEqual(peers.cbc_wallclock("", 9.0), 9.0)


class CountingPeers(unittest.TestCase):
    def test_the_projection_lines_are_read(self):
        text = "c a comment\np cnf 5 2\nc p show 1 2 0\nc p show 3 0\n1 -4 0\n2 5\n -3 0\n"
        self.assertEqual(counters.parse_dimacs(text), (5, [[1, -4], [2, 5, -3]], [1, 2, 3]))
        self.assertEqual(counters.parse_dimacs("p cnf 2 1\n1 2 0\n")[2], [])

    def test_a_count_is_a_complete_counting_run_without_witnesses(self):
        record = peers.record_of({"instance": "i", "model": MODEL}, "ganak", "ganak", 0, 0, 10.0, "v", "h")
        self.assertEqual(record["task"], "count")
        peers.fill(record, MODEL, "ganak", ("count", "340282366920938463463374607431768211457", 1.5, {}))
        self.assertEqual((record["status"], record["verified"], record["exhaustive"]), ("solved", False, True))
        self.assertEqual(record["count"], str(2**128 + 1))  # exact, as a string
        stopped = peers.record_of({"instance": "i", "model": MODEL}, "d4", "d4", 0, 0, 10.0, "v", "h")
        peers.fill(stopped, MODEL, "d4", ("timeout", "d4 killed at the time limit", 10.0, {}))
        self.assertEqual((stopped["task"], stopped["status"]), ("count", "timeout"))


class MissingPackages(unittest.TestCase):
    def test_a_missing_package_is_named_with_the_command_that_installs_it(self):
        saved = dict(peers.IMPORTS)
        try:
            peers.IMPORTS["cp-sat"] = "no_such_module_for_zeroone"
            said = peers.missing_package("cp-sat")
            self.assertIn("'ortools'", said)
            self.assertIn("-m pip install -r", said)
            self.assertIn("requirements.txt", said)
            peers.IMPORTS["cp-sat"] = "json"  # always importable
            self.assertIsNone(peers.missing_package("cp-sat"))
        finally:
            peers.IMPORTS.clear()
            peers.IMPORTS.update(saved)

    def test_every_peer_but_the_program_has_a_module_to_check(self):
        self.assertEqual(set(peers.IMPORTS) | {"miniexact"}, set(peers.SOLVERS))


if __name__ == "__main__":
    unittest.main()
