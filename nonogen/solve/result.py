"""What the engine answers about a puzzle: one result type for 2D puzzles and Picross 3D levels."""
from __future__ import annotations

from ..grids import GridField
from ..plain import to_jsonable

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Any, Literal, Optional
    import numpy as np

    Status = Literal["unique", "multiple", "unsolvable", "timeout"]
    Difficulty = Literal["line", "probe", "search"]
else:  # the same names at run time, for code that imports them
    Status = Difficulty = str

__all__ = ["Status", "STATUSES", "Difficulty", "VerifyResult"]

STATUSES: tuple[str, ...] = ("unique", "multiple", "unsolvable", "timeout")
"""Every value of :data:`Status`, in its order."""


class VerifyResult:
    """What :func:`nonogen.verify` found out about a puzzle.

    ``difficulty`` is how far a solver had to go: ``"line"`` (line logic alone
    solves it), ``"probe"`` (line logic plus probing single cells) or
    ``"search"`` (needed SAT search). ``work`` is line-solver runs per line.
    ``grade`` (1-5), ``grade_name`` and ``score`` say how hard it is for a
    person (:mod:`nonogen.solve.grade`); ``None`` when not rated.
    Grids are numpy arrays of colour indices (2D, ``height x width``) or
    booleans (3D, ``X x Y x Z``); the engine gives 2D grids as rows of bytes,
    made arrays when first read (:mod:`nonogen.grids`).
    """

    solution: Optional["np.ndarray"] = GridField(writable=True)  # type: ignore[assignment]
    second_solution: Optional["np.ndarray"] = GridField(writable=True)  # type: ignore[assignment]

    def __init__(
        self,
        status: Status,
        solution: Any = None,
        second_solution: Any = None,
        difficulty: Optional[Difficulty] = None,
        work: float = 0.0,
        seconds: float = 0.0,
        message: str = "",
        stats: Optional[dict] = None,
        grade: Optional[int] = None,
        grade_name: Optional[str] = None,
        score: Optional[float] = None,
    ):
        self.status, self.solution, self.second_solution = status, solution, second_solution
        self.difficulty, self.work, self.seconds, self.message = difficulty, work, seconds, message
        self.stats = {} if stats is None else stats
        self.grade, self.grade_name, self.score = grade, grade_name, score

    def __repr__(self) -> str:
        rated = f", grade={self.grade}" if self.grade is not None else ""
        said = f", message={self.message!r}" if self.message else ""
        return f"VerifyResult({self.status!r}, difficulty={self.difficulty!r}{rated}, seconds={self.seconds:.3f}{said})"

    def raw_grid(self, name: str = "solution") -> Any:
        """The grid ``name`` as the engine gave it: a 2D puzzle's rows of bytes (no numpy needed), a box's array."""
        return self.__dict__.get(vars(VerifyResult)[name].slot)

    @property
    def ambiguous(self) -> Optional["np.ndarray"]:
        """Cells where the two reported solutions differ (``multiple`` only).

        Usually only some of the ambiguous cells: :func:`nonogen.solve.ambiguity` finds them all.
        """
        if self.solution is None or self.second_solution is None:
            return None
        return self.solution != self.second_solution

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types only (grids as nested lists), so ``json.dumps`` takes it as it is.

        >>> import json
        >>> json.dumps(VerifyResult("unique", solution=(b"\\x01\\x00", b"\\x00\\x01")).to_dict())[:48]
        '{"status": "unique", "solution": [[1, 0], [0, 1]'
        """
        out: dict[str, Any] = {
            "status": self.status,
            "solution": to_jsonable(self.solution),
            "second_solution": to_jsonable(self.second_solution),
            "difficulty": self.difficulty,
            "work": float(self.work),
            "seconds": round(float(self.seconds), 4),
            "grade": self.grade,
            "grade_name": self.grade_name,
            "score": self.score,
            "message": self.message,
            "stats": to_jsonable(self.stats),
        }
        return out
