"""An allocation past the memory a process can take is a Python exception, never an abort.

Rust aborts the process on a failed allocation, which killed the interpreter (exit -6,
SIGABRT) under an address-space limit (issue 35, item 2). Each case runs in a subprocess under
such a limit and must end with the exception the script catches and names on stdout, exit 0;
the same script given room must succeed, so the checks refuse only what does not fit.
"""

import resource
import subprocess
import sys
import textwrap

import pytest

CASES = {
    # Three million labelled variables (the labels alone are some 200 MB in Rust).
    "variables": """
        m = zeroone.Model("m")
        m.add_variables([f"x{i}" for i in range(SIZE)])
        print("ok", m.num_variables)
    """,
    # One family repeating a row of 100,000 labels: few Python objects, many Rust strings.
    "family": """
        m = zeroone.Model("m")
        labels = [f"x{i}" for i in range(100_000)]
        m.add_variables(labels)
        m.add_family("f", "at-least", [labels] * SIZE, rhs=1)
        print("ok", m.num_rows)
    """,
    # A 40-byte file declaring 16,777,216 variables (some 690 MB built).
    "read": """
        path = os.path.join(TMP, "wide.opb")
        open(path, "w").write(f"* #variable= {SIZE} #constraint= 1\\n+1 x1 >= 1 ;\\n")
        m = next(iter(zeroone.load(path)))
        print("ok", m.num_variables)
    """,
    # A million unconstrained variables solved by bitset (some 370 MB beside the model).
    "solve": """
        path = os.path.join(TMP, "free.cnf")
        open(path, "w").write(f"p cnf {SIZE} 1\\n1 0\\n")
        m = next(iter(zeroone.load(path)))
        print("ok", zeroone.solve(m, backend="bitset").status)
    """,
}

# (case, size past a 400 MB address space, size that fits it)
SIZES = [
    ("variables", 3_000_000, 10_000),
    ("family", 200, 2),
    ("read", 16_777_216, 1_000),
    ("solve", 1_000_000, 10_000),
]


def run_capped(case: str, size: int, tmp_path, limit_mb: int = 400):
    body = textwrap.indent(textwrap.dedent(CASES[case]), "    ")
    script = (
        "import os, zeroone\n"
        f"SIZE = {size}\nTMP = {str(tmp_path)!r}\n"
        "try:\n" + body + "\n"
        "except (MemoryError, zeroone.ModelError, zeroone.ParseError) as e:\n"
        "    print(type(e).__name__, e)\n"
    )

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (limit_mb << 20, limit_mb << 20))

    return subprocess.run(
        [sys.executable, "-c", script],
        preexec_fn=cap,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("case,past,fits", SIZES)
def test_an_allocation_past_the_limit_is_a_memory_error_not_an_abort(case, past, fits, tmp_path):
    ran = run_capped(case, past, tmp_path)
    assert ran.returncode == 0, f"{case}: exit {ran.returncode}\n{ran.stderr[-2000:]}"
    assert ran.stdout.startswith("MemoryError "), ran.stdout + ran.stderr[-2000:]
    assert "MB" in ran.stdout, ran.stdout
    small = run_capped(case, fits, tmp_path)
    assert small.returncode == 0, small.stderr[-2000:]
    assert small.stdout.startswith("ok "), small.stdout + small.stderr[-2000:]
