"""The C line solver's two ways (a word at a time under 64 cells, cell by cell) against each other and Python.

linebits.c solves lines under 64 cells with the cells as bits of a word; line.c
keeps the cell-by-cell dynamic programming for longer lines. Both must give
the same masks and the same placements (the overlap rule reads them), and the
Python automaton is the reference for both.
"""
from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from nonogen.clues import line_clue
from nonogen.solve import propagate
from nonogen.solve.line import LineAutomaton, overlap, solve_line

native = pytest.mark.skipif(propagate._linelogic is None, reason="C module not built")


@st.composite
def long_lines(draw):
    """A clue from a random line of up to 70 cells (sometimes spoilt) and a random domain: both sides of 64."""
    n = draw(st.sampled_from([draw(st.integers(0, 70)), 62, 63, 64, 65]))
    colours = draw(st.sampled_from([1, 2, 3, 5]))
    density = draw(st.floats(0.1, 0.9))
    cells = [0 if draw(st.floats(0, 1)) < density else draw(st.integers(1, colours)) for _ in range(n)]
    clue = list(line_clue(cells))
    if clue and draw(st.booleans()):
        i = draw(st.integers(0, len(clue) - 1))
        clue[i] = (max(1, clue[i][0] + draw(st.sampled_from([-1, 1]))), clue[i][1])
    full = (1 << (colours + 1)) - 1
    domain = [full if draw(st.floats(0, 1)) < 0.7 else (1 << c) | draw(st.integers(0, full)) for c in cells]
    return tuple(clue), tuple(d & full for d in domain)


@native
@settings(max_examples=1500, deadline=None)
@given(long_lines())
@example((((63, 1),), (3,) * 63))  # one block filling the widest line a word holds
@example((((1, 1), (1, 1)), (1,) * 63))  # blocks where no cell allows them
@example((((2, 1), (1, 2), (2, 2)), (7,) * 6))  # touching colours, then a gap between equal ones
def test_word_and_cell_solvers_agree(case):
    clue, domain = case
    words = propagate._linelogic.deductions(clue, domain)
    assert words == propagate._linelogic.deductions(clue, domain, True)
    if len(domain) <= 24:  # the Python automaton is slow on long lines
        full = solve_line(LineAutomaton(clue), domain)
        assert words == (None if full is None else (full, overlap(LineAutomaton(clue), domain)))
