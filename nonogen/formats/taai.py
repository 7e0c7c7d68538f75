"""The TAAI/TCGA/ICGA computer-tournament batch format (many 25x25 puzzles per file).

Each puzzle starts with a ``$<n>`` line, followed by the COLUMN clues and then
the ROW clues, one line each, numbers separated by tabs. Solutions live in
a separate file: ``$<n>`` and then one line per row of 0/1 cells (see
:data:`solutions`). Puzzles are square (the tournaments use 25x25), which is
how the reader splits the 2N lines into N columns and N rows. The ``n`` of
each puzzle is kept as ``meta["catalogue"]``.
"""
from __future__ import annotations

import itertools
import re
from types import SimpleNamespace
from typing import Optional

from ..errors import FormatError
from ..grids import Rows, shape_of
from ..model import Puzzle
from ._common import (
    MAX_PUZZLES,
    MAX_SIDE,
    build,
    bw_numbers,
    check_count,
    check_size,
    counts_only_dropped,
    cut_members,
    parse_bw_line,
    require_bw,
    split_lines,
)

NAME = "taai"
SUFFIXES = (".txt",)
MULTI = True
_HEAD = re.compile(r"\$\s*(\S+)\s*$")
_CLUE_CHARS = re.compile(r"[\d\s,]*")


def _blocks(text: str) -> list[tuple[str, int, list[str]]]:
    """``(id, line number of the $ line, body lines)`` per puzzle; blank lines between puzzles dropped."""
    lines = split_lines(text)
    blocks: list[tuple[str, int, list[str]]] = []
    for i, raw in enumerate(lines):
        m = _HEAD.match(raw.strip())
        if m:
            check_count(len(blocks) + 1, MAX_PUZZLES, "puzzles in one file", i + 1)
            blocks.append((m.group(1), i + 1, []))
        elif not blocks:
            if raw.strip():
                raise FormatError(f"expected a '$<number>' line before the clues, got {raw.strip()[:30]!r}", line=i + 1)
        else:
            blocks[-1][2].append(raw)
    for _, _, body in blocks:
        while body and not body[-1].strip():
            body.pop()
    if not blocks:
        raise FormatError("no '$<number>' line: not a TAAI tournament file", line=1)
    return blocks


def members(text: str) -> list[tuple[int, str]]:
    """The puzzles of a tournament file as ``(lines before, text)``, each opening with its ``$`` line."""
    return cut_members(text, _MemberKind())


class _MemberKind:
    """Where members start: at ``$`` lines, and at a bad line after a whole block (an even count of clue lines).

    A mangled ``$`` line then opens a member of its own, whose error names
    it, instead of ending (and costing) the puzzle before it; a bad line
    inside a block stays in that block.
    """

    def __init__(self) -> None:
        self.clue_lines = 0

    def __call__(self, line: str) -> Optional[str]:
        s = line.strip()
        if s.startswith("$"):
            self.clue_lines = 0
            return "opener"
        if not s:
            return None
        if _CLUE_CHARS.fullmatch(s):
            self.clue_lines += 1
            return None
        whole = self.clue_lines > 0 and self.clue_lines % 2 == 0
        self.clue_lines = 0
        return "opener" if whole else None


def _is_solution_block(body: list[str]) -> bool:
    rows = [ln.split() for ln in body]
    return bool(rows) and all(len(r) == len(rows) and set(r) <= {"0", "1"} for r in rows)


def looks_like(text: str) -> bool:
    """Starts with a ``$<n>`` line followed by clue lines (a square of 0/1 rows is a solution file)."""
    lines = [ln for ln in split_lines(text[:4000]) if ln.strip()]
    return bool(lines) and bool(_HEAD.match(lines[0].strip())) and not _solutions_looks_like(text)


def _puzzle(ident: str, head_line: int, body: list[str], cache: dict) -> Puzzle:
    if len(body) % 2 or not body:
        raise FormatError(
            f"puzzle ${ident}: expected N column and N row clue lines (an even count), found {len(body)}",
            line=head_line + len(body),
        )
    n = len(body) // 2
    check_size(n, n, head_line)
    clues = []
    for k, t in enumerate(body):
        clue = cache.get(t)
        if clue is None:
            clue = parse_bw_line(t, head_line + 1 + k, f"puzzle ${ident} {'column' if k < n else 'row'} {k % n + 1}")
            cache[t] = clue
        clues.append(clue)
    return build(clues[n:], clues[:n], meta={"catalogue": ident}, line=head_line)


def loads_all(text: str) -> list[Puzzle]:
    """Every puzzle of a tournament file, in file order."""
    cache: dict[str, tuple] = {}  # tournament files repeat clue lines a lot
    return [_puzzle(*b, cache) for b in _blocks(text)]


def loads(text: str) -> Puzzle:
    """The single puzzle of a one-puzzle file."""
    puzzles = loads_all(text)
    if len(puzzles) != 1:
        raise FormatError(f"holds {len(puzzles)} puzzles; read them with load_all")
    return puzzles[0]


def _ident(puzzle: Puzzle, k: int) -> str:
    ident = puzzle.meta.get("catalogue", "")
    return ident if ident.isdigit() else str(k + 1)


def dumps_all(puzzles: list[Puzzle]) -> str:
    """A tournament file: ``$n``, column clues, row clues, tab-separated; puzzles must be square."""
    out = []
    for k, p in enumerate(puzzles):
        require_bw(p, "the TAAI format")
        if p.width != p.height:
            raise FormatError(f"the TAAI format holds square puzzles only, got {p.width}x{p.height}")
        out.append(f"${_ident(p, k)}")
        out += ["\t".join(map(str, bw_numbers(line))) or "0" for line in p.cols + p.rows]
    return "\n".join(out) + "\n"


def dumps(puzzle: Puzzle) -> str:
    """A one-puzzle tournament file."""
    return dumps_all([puzzle])


def dropped(puzzle: Puzzle) -> list[str]:
    """Everything but the clues and the puzzle number (a number only: other catalogue text is replaced)."""
    return counts_only_dropped(puzzle, keeps=_keeps(puzzle))


def _keeps(puzzle: Puzzle, *more: str) -> tuple[str, ...]:
    return more + (("catalogue",) if puzzle.meta.get("catalogue", "1").isdigit() else ())


# --- solution files ---------------------------------------------------------------------------


def _solution_bits(text: str) -> list[tuple[str, list[str]]]:
    """``(id, rows as '0110...' strings)`` per solution, checked to be a 0/1 rectangle."""
    out = []
    for ident, head_line, body in _blocks(text):
        check_size(len(body[0].split()) if body else 1, len(body) or 1, head_line)
        bits = ["".join(ln.split()) for ln in body]
        for k, (row, ln) in enumerate(zip(bits, body, strict=True)):
            if len(row) != len(bits[0]) or row.strip("01") or len(ln.split()) != len(row):
                raise FormatError(f"solution ${ident}: expected {len(bits[0])} cells of 0 or 1, "
                                  f"got {ln.strip()[:30]!r}", line=head_line + 1 + k)
        if not bits:
            raise FormatError(f"solution ${ident} has no rows", line=head_line)
        check_size(len(bits[0]), len(bits), head_line)
        out.append((ident, bits))
    return out


_BITS = bytes.maketrans(b"01", b"\x00\x01")


def _grid(bits: list[str]) -> Rows:
    return tuple(row.encode("ascii").translate(_BITS) for row in bits)


def loads_solutions(text: str) -> dict[str, Rows]:
    """``{id: grid}`` from a solution file (``$n`` then rows of tab-separated 0/1)."""
    return {ident: _grid(bits) for ident, bits in _solution_bits(text)}


def attach_solutions(puzzles: list[Puzzle], solutions: dict[str, Rows]) -> list[Puzzle]:
    """The puzzles with their tournament solution as ``goal`` (matched by ``$n``)."""
    out = []
    for p in puzzles:
        grid = solutions.get(p.meta.get("catalogue", ""))
        out.append(p if grid is None or shape_of(grid) != (p.height, p.width) else p.replace(goal=grid))
    return out


def _solutions_loads_all(text: str) -> list[Puzzle]:
    """Solution files read as puzzles: clues derived from each grid, which becomes the goal."""
    out = []
    for ident, bits in _solution_bits(text):
        cols = ["".join(col) for col in zip(*bits, strict=True)]
        rows = [_runs(b) for b in bits]
        out.append(build(rows, [_runs(c) for c in cols], goal=_grid(bits), meta={"catalogue": ident},
                         check_goal=False))
    return out


def _runs(bits: str) -> tuple:
    """The clue of a 0/1 string (much faster than numpy for short lines).

    >>> _runs("0110100")
    ((2, 1), (1, 1))
    """
    return tuple((len(run), 1) for run in bits.split("0") if run)


def _solutions_looks_like(text: str) -> bool:
    """The first block is a square of 0/1 rows: N rows of N cells.

    A clue block never is: it has 2N lines, while a line of k tokens that
    are all 0 or 1 is k ones, which fit only in N >= 2k - 1 cells, so k < 2N.
    Looking at fewer rows than the square has mistook puzzles whose first
    column clue is ``1`` or ``0`` for solutions.
    """
    head = text.split("\n", 2 * MAX_SIDE + 2)[: 2 * MAX_SIDE + 2]  # enough lines for any block, not the file
    lines = [ln for ln in split_lines("\n".join(head)) if ln.strip()]
    if len(lines) < 2 or not _HEAD.match(lines[0].strip()):
        return False
    body = list(itertools.takewhile(lambda ln: not ln.strip().startswith("$"), lines[1:]))
    return _is_solution_block(body)


def _solutions_dumps_all(puzzles: list[Puzzle]) -> str:
    out = []
    for k, p in enumerate(puzzles):
        if p.goal is None:
            raise FormatError("a TAAI solution file needs puzzles with a goal")
        require_bw(p, "the TAAI solution format")
        if p.width != p.height:  # a square is what tells a solution from a clue block when the file is read
            raise FormatError(f"the TAAI solution format holds square puzzles only, got {p.width}x{p.height}")
        out.append(f"${_ident(p, k)}")
        out += ["\t".join(str(int(v)) for v in row) for row in p.goal]
    return "\n".join(out) + "\n"


def _solutions_dropped(puzzle: Puzzle) -> list[str]:
    return counts_only_dropped(puzzle, keeps=_keeps(puzzle, "goal"))


solutions = SimpleNamespace(
    NAME="taai-solution",
    SUFFIXES=(".txt",),
    MULTI=True,
    looks_like=_solutions_looks_like,
    loads_all=_solutions_loads_all,
    members=members,
    dumps_all=_solutions_dumps_all,
    dumps=lambda p: _solutions_dumps_all([p]),
    dropped=_solutions_dropped,
)
"""The solution-file side as a format of its own: reading one gives puzzles whose goal is the solution."""
