"""One Model used from several threads at once: every run answers (never `Already
borrowed`), every answer is right, and an edit applies to the runs started after it."""

import threading

import zeroone

QUEENS_8 = 92  # the number of ways to place 8 non-attacking queens (OEIS A000170)


def queens(n: int) -> zeroone.Model:
    """n-queens as exact cover: one queen per row and column, at most one per diagonal."""
    m = zeroone.Model(f"queens-{n}")
    cell = [[f"r{r}c{c}" for c in range(n)] for r in range(n)]
    m.add_variables([label for row in cell for label in row])
    m.add_family("row", "exactly-one", cell)
    m.add_family("column", "exactly-one", [[cell[r][c] for r in range(n)] for c in range(n)])
    cells = [(r, c) for r in range(n) for c in range(n)]
    for name, key, keys in [("diagonal", lambda r, c: r - c, range(-(n - 2), n - 1)),
                            ("anti-diagonal", lambda r, c: r + c, range(1, 2 * n - 2))]:
        m.add_family(name, "at-most-one",
                     [[cell[r][c] for r, c in cells if key(r, c) == k] for k in keys])
    return m


def is_queens(labels, n: int) -> bool:
    """Whether `labels` place n queens none of which attacks another (checked directly)."""
    placed = [(int(l[1:l.index("c")]), int(l[l.index("c") + 1:])) for l in labels]
    return (len(placed) == n
            and len({r for r, _ in placed}) == n and len({c for _, c in placed}) == n
            and len({r - c for r, c in placed}) == n and len({r + c for r, c in placed}) == n)


def run_together(work, threads: int):
    """Runs work(i) on `threads` threads released together; returns the exceptions raised."""
    barrier = threading.Barrier(threads)
    errors = []

    def body(i):
        barrier.wait()
        try:
            work(i)
        except Exception as e:  # noqa: BLE001 - every failure is reported by the test
            errors.append(repr(e))

    pool = [threading.Thread(target=body, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return errors


def test_one_model_is_solved_counted_and_streamed_from_several_threads():
    m = queens(8)
    counts, solved, streamed = [], [], []

    def work(i):
        for k in range(6):
            kind = (i + k) % 3
            if kind == 0:
                c = zeroone.count(m)
                counts.append((c.status, c.count, c.verified))
            elif kind == 1:
                r = zeroone.solve(m)
                assert r.status == "solved" and r.verified
                solved.append(r.solution)
            else:
                streamed.append(list(zeroone.solutions(m, limit=3)))

    errors = run_together(work, threads=6)
    assert errors == []
    assert counts and set(counts) == {("solved", QUEENS_8, True)}
    assert len(counts) + len(solved) + len(streamed) == 6 * 6
    assert all(is_queens(s, 8) for s in solved)
    for three in streamed:
        assert len(three) == 3 and len({tuple(s) for s in three}) == 3
        assert all(is_queens(s, 8) for s in three)
    assert m.num_rows == 8 + 8 + 13 + 13


def test_an_edit_while_other_threads_solve_applies_to_the_runs_after_it():
    m = queens(6)  # 4 solutions; every free variable added doubles the count
    done = threading.Event()
    seen = set()
    edits = 6

    def work(i):
        if i == 0:
            try:
                for k in range(edits):
                    m.add_variables([f"free{k}"])
                    # The writer's own count sees its edit.
                    assert zeroone.count(m).count == 4 * 2 ** (k + 1)
            finally:
                done.set()
            return
        while not done.is_set():
            seen.add(zeroone.count(m).count)

    errors = run_together(work, threads=4)
    assert errors == []
    assert seen <= {4 * 2**k for k in range(edits + 1)}, seen
    assert zeroone.count(m).count == 4 * 2**edits
    assert m.num_variables == 36 + edits
