"""Verifying many puzzle files: collect, load, verify and describe each puzzle as one plain record.

The records are what ``nonogen verify --json`` prints, one per puzzle (a
bundle gives one per member); a file that cannot be read becomes an
``error`` record and the batch goes on. Work is shared out over processes.
"""
from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional, Union

import numpy as np

from . import formats
from .errors import InputError, NonogenError
from .model import Puzzle, Puzzle3D
from .solve import verify
from .solve.result import VerifyResult
from .solve.session import Session

__all__ = ["puzzle_files", "verify_paths", "record"]

PathLike = Union[str, Path]


def puzzle_files(paths: Iterable[PathLike]) -> Iterator[Path]:
    """Files named directly, and files in folders (recursively) that look like puzzles."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            for child in sorted(p for p in path.rglob("*") if p.is_file()):
                if child.suffix.lower() in formats.SUFFIXES:
                    yield child
        else:
            yield path


def _label(path: Path, index: int, count: int) -> str:
    return f"{path}#{index + 1}" if count > 1 else str(path)


def _load_file(path: Path, fmt: Optional[str]) -> list[tuple[str, object]]:
    """``(label, puzzle)`` for every puzzle in a file, or one ``(label, error record)``."""
    try:
        puzzles = formats.load_all(path, format=fmt)
    except NonogenError as exc:
        return [(str(path), {"file": str(path), "status": "error", "message": str(exc)})]
    except OSError as exc:
        return [(str(path), {"file": str(path), "status": "error", "message": f"{path}: {exc.strerror or exc}"})]
    return [(_label(path, i, len(puzzles)), p) for i, p in enumerate(puzzles)]


def _verify_one(task: tuple[str, object, Optional[float], str, bool]) -> dict:
    """Verify one puzzle; bad input becomes an ``error`` record, never an exception."""
    label, puzzle, timeout, strategy, scan = task
    if isinstance(puzzle, dict):
        return puzzle
    try:
        if isinstance(puzzle, Puzzle3D):
            return record(label, puzzle, verify(puzzle, timeout=timeout))
        session = Session(puzzle)
        result = session.verify(timeout=timeout, strategy=strategy, grade=True)
        out = record(label, puzzle, result)
        if scan and result.status == "multiple":
            _add_ambiguity(out, session, result, timeout)
    except NonogenError as exc:
        return {"file": label, "status": "error", "message": str(exc)}
    return out


def _add_ambiguity(out: dict, session: Session, result: VerifyResult, timeout: Optional[float]) -> None:
    """Every cell that differs in some solution, within what is left of the time limit.

    The two reported solutions often differ in a handful of cells while many
    more are ambiguous; a puzzle maker needs them all. Past the time limit
    the cells found so far are reported with ``ambiguous_complete: false``.
    """
    start = time.monotonic()
    left = None if timeout is None else max(timeout - result.seconds, 0.05)
    mask, complete = session.ambiguity(result.solution, timeout=left)
    mask |= result.ambiguous
    out["ambiguous_cells"] = [list(map(int, ix)) for ix in np.argwhere(mask)]
    out["ambiguous_complete"] = complete
    out["seconds"] = round(out["seconds"] + time.monotonic() - start, 4)


def _grid_text(puzzle: Union[Puzzle, Puzzle3D], grid: Optional[np.ndarray]) -> object:
    if grid is None:
        return None
    if isinstance(puzzle, Puzzle3D):
        return "".join("1" if v else "0" for v in np.asarray(grid).ravel())
    return puzzle.grid_to_text(grid)


def record(label: str, puzzle: Union[Puzzle, Puzzle3D], result: VerifyResult) -> dict:
    """The plain record of one verified puzzle (the ``--json`` line): grids as text, no numpy."""
    out = {
        "file": label,
        "status": result.status,
        "solution": _grid_text(puzzle, result.solution),
    }
    if result.second_solution is not None:
        out["second_solution"] = _grid_text(puzzle, result.second_solution)
        out["ambiguous_cells"] = [list(map(int, ix)) for ix in np.argwhere(result.ambiguous)]
        out["ambiguous_complete"] = False  # only where the two solutions differ, until a scan adds the rest
    if isinstance(puzzle, Puzzle3D):
        out["size"] = list(puzzle.size)
    else:
        out["width"], out["height"] = puzzle.width, puzzle.height
        out["colors"] = puzzle.n_colors
    out.update(difficulty=result.difficulty, grade=result.grade, grade_name=result.grade_name, score=result.score,
               work=result.work, seconds=round(result.seconds, 4))
    if result.message:
        out["message"] = result.message
    return out


def verify_paths(
    paths: Iterable[PathLike],
    jobs: int = 1,
    timeout: Optional[float] = 60.0,
    strategy: str = "full",
    ambiguity: bool = True,
    format: Optional[str] = None,
    on_progress: Optional[Callable[[int, int], None]] = None,
) -> Iterator[dict]:
    """Verify every puzzle in ``paths`` (files and folders); yields one record per puzzle, in input order.

    ``ambiguity`` scans puzzles with several solutions for every ambiguous
    cell within the time left. ``jobs`` > 1 shares the puzzles out over that
    many processes. ``on_progress(done, total)`` is called before the
    first record and after each one. Raises :class:`~nonogen.errors.InputError` when the paths
    hold no puzzle file.
    """
    paths = [str(p) for p in paths]
    tasks = [
        (label, puzzle, timeout, strategy, ambiguity)
        for path in puzzle_files(paths)
        for label, puzzle in _load_file(path, format)
    ]
    if not tasks:
        raise InputError(f"no puzzle files in {', '.join(paths)} (known suffixes: {' '.join(formats.SUFFIXES)})")
    report = on_progress or (lambda done, total: None)
    report(0, len(tasks))
    if jobs > 1 and len(tasks) > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for done, out in enumerate(pool.map(_verify_one, tasks, chunksize=4), 1):
                yield out
                report(done, len(tasks))
    else:
        for done, out in enumerate(map(_verify_one, tasks), 1):
            yield out
            report(done, len(tasks))
