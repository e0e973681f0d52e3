"""The ``zeroone`` program that ``experiments/peers/peers.py`` calls, when ``zeroone.run()``
runs an experiment's peers from Python (where no zeroone binary need exist): only
``export SOURCE --format FORMAT --output OUT``, the one command peers.py uses (miniexact's XCC
file, the #SAT counters' CNF), through the package's own reader and exporter, which write what
``zeroone export`` writes. Anything else exits with status 2 and says so."""

import sys
from typing import List

USAGE = ("zeroone (the Python package's stand-in for peers.py): only "
         "'export SOURCE --format FORMAT --output OUT'")


def main(argv: List[str]) -> int:
    """Runs ``argv`` (without the program name); returns the exit status."""
    from . import BackendError, ModelError, OptionError, ParseError, load

    if len(argv) != 6 or argv[0] != "export" or argv[2] != "--format" or argv[4] != "--output":
        print(USAGE, file=sys.stderr)
        return 2
    source, format, output = argv[1], argv[3], argv[5]
    try:
        model = next(iter(load(source)), None)
        if model is None:
            print(f"zeroone: {source}: no puzzle", file=sys.stderr)
            return 2
        text = model.export(format)
        with open(output, "w") as f:
            f.write(text)
    except (ParseError, ModelError, OptionError, BackendError, OSError) as e:
        print(f"zeroone: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
