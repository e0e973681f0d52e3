"""The README's Python example, run as a newcomer would paste it (from the repository's root)."""

import contextlib
import io
import os
import pathlib
import re

import zeroone

ROOT = pathlib.Path(__file__).resolve().parents[2]


def readme_python_example() -> str:
    """The first ```python block under the README's "## Python" heading."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert blocks, "README's Python section has no python code block"
    return blocks[0]


def test_the_readme_python_example_runs_and_prints_what_it_promises():
    code = readme_python_example()
    out = io.StringIO()
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        scope: dict = {}
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md (Python example)", "exec"), scope)
    finally:
        os.chdir(here)
    lines = out.getvalue().splitlines()
    # The solve line: status, verified, then the solution; the count line: exactly 2.
    assert lines[0].startswith("solved True "), lines[0]
    assert lines[1] == "2", lines
    # Both solutions of the 2x2 Latin square, each printed once.
    assert len(lines) == 4, lines
    assert scope["a"].shape == (4, 4)
    assert len(scope["frame"]) > 0 and "backend" in scope["frame"].columns
    assert isinstance(scope["m"], zeroone.Model)
