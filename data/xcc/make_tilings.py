#!/usr/bin/env python3
"""Writes the polyomino tiling problems of this folder in Knuth's exact-cover format.

The problems (which placements exist, as 0-1 rows over pieces and cells) are made by the
`polyomino` package (PyPI, MIT licence, by Jack Grahl): `Shape.tile_with_set(...).make_problem()`
builds them. This script only names the columns and writes the rows: the first line lists the
items (one per piece that must be placed once, `P<k>_<name>`, then one per cell, `r<row>c<col>`),
then one option per placement (its items), in polyomino's order.

    python3 -m venv /tmp/poly && /tmp/poly/bin/pip install polyomino==0.7.1
    /tmp/poly/bin/python data/xcc/make_tilings.py data/xcc
"""

import os
import sys

from polyomino.board import Rectangle
from polyomino.constant import DOMINO, PENTOMINOS, RIGHT_TROMINO, TETROMINOS
from polyomino.tileset import exactly, many


def problems():
    """(file stem, description, shape, tileset, piece names)."""
    pentominoes = exactly(list(PENTOMINOS.values())).with_reflections()
    names = list(PENTOMINOS)
    centre = [(3, 3), (3, 4), (4, 3), (4, 4)]
    yield ("pentominoes-6x10", "the 12 pentominoes (turned and flipped) in a 6x10 box",
           Rectangle(6, 10), pentominoes, names)
    yield ("pentominoes-3x20", "the 12 pentominoes in a 3x20 box (2 solutions up to symmetry)",
           Rectangle(3, 20), pentominoes, names)
    yield ("pentominoes-scott", "Dana Scott's problem: the 12 pentominoes on an 8x8 board without its centre",
           Rectangle(8, 8).remove_all(centre), pentominoes, names)
    # polyomino's TETROMINOS holds the one-sided set (seven pieces); the five free ones:
    free = ["Square", "T", "S", "Line", "L"]
    yield ("tetrominoes-4x5", "the 5 free tetrominoes in a 4x5 box: impossible (colouring argument)",
           Rectangle(4, 5), exactly([TETROMINOS[k] for k in free]).with_reflections(), free)
    yield ("tetrominoes-one-sided-4x7", "the 7 one-sided tetrominoes (turned, not flipped) in a 4x7 box",
           Rectangle(4, 7), exactly(list(TETROMINOS.values())), list(TETROMINOS))
    yield ("dominoes-mutilated-6x6", "dominoes on a 6x6 board without two opposite corners: impossible",
           Rectangle(6, 6).remove_all([(0, 0), (5, 5)]), many(DOMINO), [])
    yield ("trominoes-5x5-corner", "right trominoes on a 5x5 board without a corner",
           Rectangle(5, 5).remove((0, 0)), many(RIGHT_TROMINO), [])


def write(folder, stem, description, shape, tileset, names):
    problem = shape.tile_with_set(tileset)
    problem.make_problem()
    pieces = [f"P{k}_{names[k] if k < len(names) else k}" for k in range(tileset.selector_size)]
    cells = [f"r{r}c{c}" for r, c in shape.squares]
    items = pieces + cells
    lines = [f"| {description}.",
             "| Made by the polyomino package (PyPI, MIT) through data/xcc/make_tilings.py.",
             " ".join(items)]
    for row in problem.array:
        lines.append(" ".join(item for item, bit in zip(items, row) if bit))
    with open(os.path.join(folder, stem + ".xcc"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(stem, len(items), "items,", len(problem.array), "options")


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "."
    for stem, description, shape, tileset, names in problems():
        write(folder, stem, description, shape, tileset, names)


if __name__ == "__main__":
    main()
