"""Complete line solving with a bit-parallel automaton.

A line clue is a regular language over colours (0 = background). Its
deterministic automaton has one state per *pattern position*: the blocks
written out cell by cell, with one mandatory background cell between two
blocks of the same colour. States where a block starts (and the final state)
also loop on background. Because every state is a bit of a Python integer,
one step of the automaton over all states is a couple of shifts and masks.

Running it forwards and backwards over the cells' allowed colours gives, for
every cell, exactly the colours some valid placement gives it: *complete* line
logic, in O(length x colours) big-integer operations instead of enumerating
placements. The same reachable state sets bound the SAT encoding
(:mod:`nonogen.solve.cnf`), so decided stretches of a line cost no clauses.
"""
from __future__ import annotations

from ..model import LineClue

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Optional, Sequence

__all__ = ["LineAutomaton", "solve_line", "all_values", "overlap"]


def all_values(mask: int) -> list[int]:
    """Colour indices whose bit is set in ``mask``.

    >>> all_values(0b1011)
    [0, 1, 3]
    """
    out = []
    value = 0
    while mask:
        if mask & 1:
            out.append(value)
        mask >>= 1
        value += 1
    return out


class LineAutomaton:
    """The automaton of one line clue; see the module docstring.

    ``masks[a]`` has bit ``j`` set when pattern position ``j`` reads colour ``a``
    (``a = 0``: the gap between two same-coloured blocks); ``loop`` has the
    bits of states that may also read background and stay; ``final`` is the
    single accepting state; ``starts[i]`` is the state where block ``i`` begins.

    >>> auto = LineAutomaton(((2, 1), (1, 1)))
    >>> auto.pattern, bin(auto.loop), auto.final
    ([1, 1, 0, 1], '0b11001', 4)
    """

    __slots__ = ("clue", "pattern", "starts", "final", "loop", "masks", "colors", "_forward")

    def __init__(self, clue: LineClue):
        self.clue = clue
        pattern: list[int] = []
        starts: list[int] = []
        for i, (length, color) in enumerate(clue):
            if i and clue[i - 1][1] == color:
                pattern.append(0)
            starts.append(len(pattern))
            pattern.extend([color] * length)
        self.pattern = pattern
        self.starts = starts
        self.final = len(pattern)
        self.loop = sum(1 << j for j in starts) | (1 << self.final)
        self.colors = sorted({c for _, c in clue})
        self.masks = {a: 0 for a in [0] + self.colors}
        for j, a in enumerate(pattern):
            self.masks[a] |= 1 << j
        # Black and white lines (most lines of most puzzles) run forwards with no per-colour inner loop.
        self._forward = self._forward_bw if self.colors in ([], [1]) else self._forward_colour

    def live_states(self, domain: Sequence[int]) -> Optional[tuple[list[int], list[int]]]:
        """States on some accepting run at each time step, and each cell's possible colours.

        Returns ``(states, values)``: ``states[t]`` is the bit set of states at
        time ``t`` (``len(domain) + 1`` entries); ``values[t]`` the colour bit
        mask cell ``t`` can take. ``None`` when no placement fits the domain.
        """
        reach = self._forward(domain)
        if reach is None:
            return None
        return self._backward(reach, domain)

    def _forward_colour(self, domain: Sequence[int]) -> Optional[list[int]]:
        """Reachable state sets after each prefix of the line, or ``None`` if a prefix is dead."""
        masks, loop = self.masks, self.loop
        bg = masks[0]
        fg = [(1 << a, masks[a]) for a in self.colors]
        reach = [1] * (len(domain) + 1)
        states = 1
        for t, allowed in enumerate(domain):
            nxt = (((states & bg) << 1) | (states & loop)) if allowed & 1 else 0
            for bit, mask in fg:
                if allowed & bit:
                    nxt |= (states & mask) << 1
            if not nxt:
                return None
            states = nxt
            reach[t + 1] = nxt
        if not (states >> self.final) & 1:
            return None
        return reach

    def _forward_bw(self, domain: Sequence[int]) -> Optional[list[int]]:
        """:meth:`_forward_colour` for clues of one colour: the same sets, fewer operations."""
        gap, loop = self.masks[0], self.loop
        ink = self.masks.get(1, 0)
        reach = [1] * (len(domain) + 1)
        states = 1
        for t, allowed in enumerate(domain):
            if allowed & 1:
                if allowed & 2:
                    states = ((states & (gap | ink)) << 1) | (states & loop)
                else:
                    states = ((states & gap) << 1) | (states & loop)
            elif allowed & 2:
                states = (states & ink) << 1
            else:
                return None
            if not states:
                return None
            reach[t + 1] = states
        if not (states >> self.final) & 1:
            return None
        return reach

    def _backward(self, reach: list[int], domain: Sequence[int]) -> tuple[list[int], list[int]]:
        """Keep the reachable states from which the line can still be finished; read off cell values."""
        masks, loop = self.masks, self.loop
        bg = masks[0]
        fg = [(1 << a, masks[a]) for a in self.colors]
        n = len(domain)
        live = [0] * (n + 1)
        values = [0] * n
        after = 1 << self.final
        live[n] = after
        for t in range(n - 1, -1, -1):
            here = reach[t]
            allowed = domain[t]
            shifted = after >> 1
            before = 0
            out = 0
            if allowed & 1:
                src = (shifted & bg) | (after & loop)
                if here & src:
                    out = 1
                    before = src
            for bit, mask in fg:
                if allowed & bit:
                    src = shifted & mask
                    if here & src:
                        out |= bit
                        before |= src
            after = before & here
            live[t] = after
            values[t] = out
        return live, values


def solve_line(auto: LineAutomaton, domain: Sequence[int]) -> Optional[tuple[int, ...]]:
    """Narrow each cell's colour mask to the colours some placement of the clue gives it.

    ``domain[t]`` is a bit mask of allowed colours (bit 0 = background).
    Returns the narrowed masks, or ``None`` when no placement fits.

    >>> solve_line(LineAutomaton(((3, 1),)), (3, 3, 3, 3))  # a 3 in 4 cells fixes the middle two
    (3, 2, 2, 3)
    >>> solve_line(LineAutomaton(((2, 1), (2, 2))), (7, 7, 7, 7))  # colours may touch
    (2, 2, 4, 4)
    >>> solve_line(LineAutomaton(((2, 1),)), (3, 1, 3)) is None
    True
    """
    result = auto.live_states(domain)
    if result is None:
        return None
    return tuple(result[1])


def overlap(automaton: LineAutomaton, domain) -> Optional[tuple[int, ...]]:
    """What a person sees on a line: the overlap of each block's leftmost and rightmost placement.

    A block's earliest and latest start (given the cells already known) bound
    it: the cells every placement of it covers take its colour, and cells no
    block can reach are background. This is the classic left-right overlap
    line solver (pbnsolve's); complete line logic sometimes finds more, and
    those deductions are the hard ones (:mod:`nonogen.solve.grade`). ``None``
    when no placement fits. The grade reads it from the C module's
    ``deductions`` when it is built; this is the reference it is checked
    against, and the fallback.

    >>> overlap(LineAutomaton(((3, 1),)), (3, 3, 3, 3))
    (3, 2, 2, 3)
    >>> overlap(LineAutomaton(((1, 1), (1, 1))), (3, 3, 2, 3, 3))  # complete logic also empties cells 1 and 3
    (3, 3, 2, 3, 3)
    """
    result = automaton.live_states(domain)
    if result is None:
        return None
    live, n = result[0], len(domain)
    clue, starts = automaton.clue, automaton.starts
    first = _earliest_starts(live, range(n), clue, starts, domain)
    last = _earliest_starts(live, range(n - 1, -1, -1), clue, starts, domain)
    out = [1] * n  # background wherever no block reaches
    for (length, color), a, b in zip(clue, first, last, strict=True):
        bit = 1 << color
        out[a : b + length] = [m | bit for m in out[a : b + length]]
    for (length, color), a, b in zip(clue, first, last, strict=True):
        if b < a + length:  # every placement of the block covers b .. a + length - 1
            out[b : a + length] = [1 << color] * (a + length - b)
    return tuple(m & d for m, d in zip(out, domain, strict=True))


def _earliest_starts(live: list[int], order, clue, starts: list[int], domain) -> list[int]:
    """For each block, the first position in ``order`` where some valid placement starts it."""
    found = [0] * len(clue)
    block_of = {1 << s: i for i, s in enumerate(starts)}
    waiting = sum(block_of)
    for t in order:
        starting = live[t] & (live[t + 1] >> 1) & waiting
        while starting:
            low = starting & -starting
            i = block_of[low]
            if domain[t] >> clue[i][1] & 1:
                found[i] = t
                waiting ^= low
            starting ^= low
        if not waiting:
            break
    return found
