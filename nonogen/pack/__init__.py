"""Polyomino packing puzzles (IQ Puzzler Pro style): levels, exact-cover solvers, generator, renders."""
from .level import Level, classic_level
from .pieces import CLASSIC_PIECES, Piece, canonical, orientations
from .solve import PackResult, count_solutions, solve_level, verify_level
from .text import dump, dumps, load, loads

__all__ = [
    "Level",
    "Piece",
    "CLASSIC_PIECES",
    "classic_level",
    "orientations",
    "canonical",
    "PackResult",
    "solve_level",
    "verify_level",
    "count_solutions",
    "load",
    "loads",
    "dump",
    "dumps",
]
