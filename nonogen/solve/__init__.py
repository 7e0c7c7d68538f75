"""The verification engine: complete line solving, probing, and SAT (python-sat) for the rest."""
from .verify import STATUSES, VerifyResult, ambiguity, ambiguous_cells, line_solve, verify

__all__ = ["verify", "solve", "ambiguous_cells", "ambiguity", "line_solve", "VerifyResult", "STATUSES"]


def solve(puzzle, timeout: float | None = 60.0) -> VerifyResult:
    """Find a solution (and tell whether it is the only one): :func:`verify` by another name.

    Kept as its own entry point because "solve" is what users reach for; a
    uniqueness proof costs little once one solution is known.
    """
    return verify(puzzle, timeout=timeout)
