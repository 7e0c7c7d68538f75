"""Making many sources: folder names, target grades, and one source made into its record.

The pure half of a collection (:mod:`nonogen.output.many` writes the
folder): which name each source's folder gets, which grade each source is
aimed at for a grade mix, and :func:`make_one`, the whole per-source work
an executor runs, which turns every failure into a record instead of an
exception. The record fields are the collection contract (README, "Making a
collection").
"""
from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Optional, Union

from ..batch import clue_hash
from ..errors import FormatError, NonogenError, OptionError, SolverTimeout

__all__ = ["MakeTask", "make_one", "plan_names", "mixed_grades", "check_mix", "pipeline", "task_failed", "KINDS",
           "STATUSES", "RECORDS", "SAFE_NAME"]

PathLike = Union[str, Path]

KINDS = {
    "image": (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".tif", ".tiff"),
    "mesh": (".stl", ".obj", ".ply", ".glb", ".gltf", ".off"),
}
"""The suffixes a folder or glob is searched for, by kind of source (named files are taken whatever their suffix)."""

GRADES = {"image": (1, 2, 3, 4, 5), "mesh": (1, 2, 3, 5)}
DEFAULT_TIMEOUT = {"image": 60.0, "mesh": 300.0}
STATUSES = ("made", "failed", "duplicate")
"""Every status a collection record can have, in the order summaries list them."""
RECORDS = "collection.jsonl"
"""The records file of a collection folder, one JSON object per source."""
NAME_CHARACTERS = "a-z0-9_-"
SAFE_NAME = re.compile(f"[{NAME_CHARACTERS}]+")
"""What a source's folder name is made of (:func:`safe_name`); readers of a collection refuse any other name."""


class MakeTask(NamedTuple):
    """One source to make and save: the unit of work an executor ships (plain, picklable values only)."""

    source: str
    name: str
    kind: str
    folder: str
    making: dict
    saving: dict
    force: bool


# --- planning ---------------------------------------------------------------------------------------


def safe_name(path: PathLike) -> str:
    """A source's folder name: its stem in lower case, every character but ``a-z 0-9 - _`` turned into ``-``.

    >>> safe_name("/photos/My Cat (2).JPG")
    'my-cat--2-'
    """
    return re.sub(f"[^{NAME_CHARACTERS}]", "-", Path(path).stem.lower()) or "source"


def plan_names(sources: Iterable[PathLike]) -> list[tuple[str, str]]:
    """``(absolute source, folder name)`` in sorted source order; a name already taken gets ``-2``, ``-3``...

    The same file named twice is made once. Names depend only on the set of
    sources, so a resumed run gives every source the folder it had.

    >>> plan_names(["b/cat.png", "a/cat.png", "a/cat-2.png"])  # doctest: +ELLIPSIS
    [('.../a/cat-2.png', 'cat-2'), ('.../a/cat.png', 'cat'), ('.../b/cat.png', 'cat-3')]
    """
    taken: set[str] = set()
    plan = []
    for source in sorted({os.path.abspath(p) for p in sources}):
        base = name = safe_name(source)
        number = 1
        while name in taken:
            number += 1
            name = f"{base}-{number}"
        taken.add(name)
        plan.append((source, name))
    return plan


def mixed_grades(count: int, mix: Mapping[int, float]) -> list[int]:
    """The target grade of each of ``count`` sources so that the grades come in the shares ``mix`` gives.

    Smooth weighted round robin: every prefix of the list is as close to the
    mix as whole sources allow, so a collection of any size (and any part of
    it) keeps the mix, and the same count always gives the same grades.

    >>> mixed_grades(7, {1: 1, 2: 1, 3: 1}), mixed_grades(4, {1: 3, 5: 1})
    ([1, 2, 3, 1, 2, 3, 1], [1, 1, 5, 1])
    """
    total = sum(mix.values())
    credit = dict.fromkeys(mix, 0.0)
    grades = []
    for _ in range(count):
        for grade, weight in mix.items():
            credit[grade] += weight
        best = max(mix, key=lambda g: (credit[g], -g))
        credit[best] -= total
        grades.append(best)
    return grades


def check_mix(mix: Mapping[int, float], kind: str) -> dict[int, float]:
    """The grade mix with its grades as numbers, in order; a grade the kind has not, or a share of 0, is refused."""
    allowed = GRADES[kind]
    for grade, weight in mix.items():
        if grade not in allowed:
            raise OptionError("grade_mix", f"{grade}:{weight}", f"grades {', '.join(map(str, allowed))}")
        if not weight > 0:
            raise OptionError("grade_mix", f"{grade}:{weight}", "a share above 0")
    if not mix:
        raise OptionError("grade_mix", "(empty)", "at least one grade:share")
    return {int(g): float(w) for g, w in sorted(mix.items())}


# --- one source -------------------------------------------------------------------------------------


def make_one(task: MakeTask, keep: Callable[[Any, MakeTask], None]) -> dict:
    """Make one source, hand it to ``keep`` (which saves its folder) and return its record; never raises.

    Any failure, of the making or of ``keep``, is a ``failed`` record naming
    its kind. This is the whole per-source work, the same in every executor,
    so the local pool and a Dask cluster give the same records.
    """
    start = time.monotonic()
    try:
        made = pipeline(task.kind)(task.source, **task.making)
        made.report["seconds"] = round(time.monotonic() - start, 3)
        keep(made, task)
        return made_record(task, made, time.monotonic() - start)
    except SolverTimeout as exc:
        return failed_record(task, _one_line(exc, task.source), "timeout", time.monotonic() - start)
    except FormatError as exc:
        return failed_record(task, _one_line(exc, task.source), "format", time.monotonic() - start)
    except NonogenError as exc:
        return failed_record(task, _one_line(exc, task.source), "input", time.monotonic() - start)
    except MemoryError:
        message = f"{task.source}: ran out of memory (the worker's memory is capped)"
        return failed_record(task, message, "memory", time.monotonic() - start)
    except Exception as exc:  # a bug: this source only, named and located
        return failed_record(task, f"{task.source}: internal error: {type(exc).__name__}: {exc}", "internal",
                             time.monotonic() - start)


def pipeline(kind: str) -> Callable:
    """``from_mesh`` or ``from_image``, imported on first use: a picture collection never loads the 3D stack."""
    if kind == "mesh":
        from .level3d import from_mesh  # see the docstring: each kind loads its own stack only

        return from_mesh
    from .picture import from_image  # likewise

    return from_image


def _one_line(exc: BaseException, source: str) -> str:
    """The error's first line, naming the source when the message does not."""
    text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return text if source in text or Path(source).name in text else f"{source}: {text}"


def _record(task: MakeTask, status: str) -> dict:
    return {"source": task.source, "name": task.name if status == "made" else None, "kind": task.kind,
            "status": status, "width": None, "height": None, **({"depth": None} if task.kind == "mesh" else {}),
            "colors": None, "grade": None, "grade_name": None,
            "grade_wanted": task.making.get("grade"), "line_solvable": None, "recognisability": None,
            "speck_share": None, "fill_share": None, "warnings": [], "seconds": None, "clue_hash": None,
            "duplicate_of": None, "error": None, "error_kind": None}


def made_record(task: MakeTask, made, seconds: float) -> dict:
    """The record of a made source: size, colours, grade and the quality figures of its report."""
    report, puzzle = made.report, made.puzzle
    rec = _record(task, "made")
    if made.is_level:
        (rec["width"], rec["height"], rec["depth"]), volume = puzzle.size, puzzle.goal.size
        rec.update(colors=max(1, len(puzzle.palette) - 1), fill_share=round(report["voxels"] / volume, 4))
        warnings = [] if report["status"] == "unique" else [f"the level is {report['status']}"]
    else:
        rec.update(width=puzzle.width, height=puzzle.height, colors=puzzle.n_colors,
                   **{k: report.get(k) for k in ("recognisability", "speck_share", "fill_share")})
        warnings = list(report["warnings"])
        if report["status"] != "unique":
            warnings.append(f"the puzzle is {report['status']}")
    rec.update(grade=report.get("grade"), grade_name=report.get("grade_name"), line_solvable=report["line_solvable"],
               warnings=warnings, seconds=round(seconds, 3), clue_hash=clue_hash(puzzle))
    return rec


def failed_record(task: MakeTask, message: str, kind: str, seconds: Optional[float] = None) -> dict:
    """The record of a source that could not be made: one line saying why, and the kind of failure."""
    rec = _record(task, "failed")
    rec.update(seconds=None if seconds is None else round(seconds, 3), error=message, error_kind=kind)
    return rec


def task_failed(task: MakeTask, message: str, status: str = "error") -> dict:
    """The record of a task whose worker died or was stopped (the executors' side of :func:`make_one`)."""
    kind = "timeout" if status == "timeout" else "crash"
    return failed_record(task, f"{task.source}: {message}", kind)
