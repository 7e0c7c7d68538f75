"""The engine: line logic, probing and SAT that decide whether a puzzle (2D or Picross 3D) has one solution."""
from __future__ import annotations

from ..model import Puzzle
from .deadline import TIMEOUT
from .result import STATUSES, Status, VerifyResult
from .session import Session
from .verify import ambiguity, ambiguous_cells, line_solve, timed_session

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Optional, Union
    from ..model3d import Puzzle3D

__all__ = ["verify", "verify_kept", "solve", "Session", "ambiguous_cells", "ambiguity", "line_solve", "VerifyResult",
           "Status", "STATUSES"]


def verify(
    puzzle: Union[Puzzle, Puzzle3D],
    *,
    target: Any = None,
    timeout: Optional[float] = TIMEOUT,
    strategy: str = "full",
    grade: bool = True,
) -> VerifyResult:
    """Decide whether ``puzzle`` has exactly one solution: 2D puzzles and Picross 3D levels alike.

    With a ``target`` (or a goal stored in the puzzle that meets the clues)
    the question is "is this the only solution?". ``strategy`` applies to 2D
    puzzles (see :func:`nonogen.solve.verify.verify2d`). ``grade`` rates how
    hard the puzzle is for a person, 1-5 (:mod:`nonogen.solve.grade`), within
    the same time limit; every door of the engine grades unless told
    ``grade=False``, and gives up after :data:`~nonogen.solve.deadline.TIMEOUT` seconds.

    >>> from nonogen.clues import puzzle_from_grid
    >>> verify(puzzle_from_grid([[1, 0, 0], [0, 1, 0], [0, 0, 1]])).status
    'multiple'
    >>> verify("heart.non")
    Traceback (most recent call last):
    TypeError: verify takes a Puzzle or Puzzle3D, not str; read a file with nonogen.load(path) first
    """
    return verify_kept(puzzle, target=target, timeout=timeout, strategy=strategy, grade=grade)[0]


def verify_kept(puzzle: Union[Puzzle, Puzzle3D], *, target: Any = None, timeout: Optional[float] = TIMEOUT,
                strategy: str = "full", grade: bool = True) -> tuple[VerifyResult, Optional[Session]]:
    """:func:`verify`, and the :class:`Session` that answered (``None`` for a Picross 3D level): its line cache is
    warm for more questions, as the ambiguity scan of a batch record."""
    dimensions = getattr(puzzle, "dimensions", None)
    if dimensions == 3:
        from .verify3d import verify3d  # the 3D half loads numpy: a 2D verify does not

        # dimensions says the kind: an isinstance would import model3d (numpy) on every 2D verify
        return verify3d(puzzle, target=target, timeout=timeout, grade=grade), None  # type: ignore[arg-type]
    if dimensions != 2:  # a path, most likely: say how to get a puzzle from it
        raise TypeError(f"verify takes a Puzzle or Puzzle3D, not {type(puzzle).__name__}; "
                        "read a file with nonogen.load(path) first")
    session, left = timed_session(puzzle, timeout=timeout)  # type: ignore[arg-type]  # 2D: dimensions said so
    return session.verify(target=target, timeout=left, strategy=strategy, grade=grade), session


def solve(puzzle: Union[Puzzle, Puzzle3D], *, timeout: Optional[float] = TIMEOUT) -> VerifyResult:
    """Find a solution (and tell whether it is the only one): :func:`verify` by another name.

    Kept as its own entry point because "solve" is what users reach for; a
    uniqueness proof costs little once one solution is known.
    """
    return verify(puzzle, timeout=timeout)
