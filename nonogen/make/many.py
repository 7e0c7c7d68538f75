"""Making many sources: folder names, target grades, and one source made into its record.

The pure half of a collection (:mod:`nonogen.output.many` writes the
folder): which name each source's folder gets, which grade each source is
aimed at for a grade mix, and :func:`make_one`, the whole per-source work
an executor runs, which turns every failure of a source into a record
instead of an exception, and a failure of the machine (a full disk) into a
stop. What a record holds is :mod:`nonogen.record`'s.
"""
from __future__ import annotations

import errno
import os
import re
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Optional, Union

from ..collect import one_line, shown, unreadable
from ..errors import FormatError, InputError, NonogenError, OptionError, SolverTimeout
from ..importers import MODEL_SUFFIXES, PICTURE_SUFFIXES
from ..record import NAME_CHARACTERS, blank, summary

__all__ = ["MakeTask", "make_one", "plan_names", "mixed_grades", "check_mix", "pipeline", "task_failed", "SUFFIXES",
           "ENVIRONMENT", "RETRIED", "is_final", "stop_error"]

PathLike = Union[str, Path]

SUFFIXES = {"image": PICTURE_SUFFIXES, "mesh": MODEL_SUFFIXES}
"""The suffixes a folder or glob is searched for, by kind of source (named files are taken whatever their suffix)."""

GRADES = {"image": (1, 2, 3, 4, 5), "mesh": (1, 2, 3, 5)}
DEFAULT_TIMEOUT = {"image": 60.0, "mesh": 300.0}


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
    its kind (:func:`failure_record`), except an OS error of the machine
    (:data:`ENVIRONMENT`): that comes back as a stop (:func:`stop_record`).
    This is the whole per-source work, the same in every executor, so the
    local pool and a Dask cluster give the same records.
    """
    start = time.monotonic()
    saving = False
    try:
        refuse_unreadable(task.source)
        made = pipeline(task.kind)(task.source, **task.making)
        saving = True
        keep(made, task)
        return made_record(task, made, time.monotonic() - start)
    except Exception as exc:  # MemoryError included: one source's failure, never the run's
        return failure_record(task, exc, saving, time.monotonic() - start)


def refuse_unreadable(source: str) -> None:
    """An :class:`InputError` for a source that is no regular file, in the words verify uses (:func:`unreadable`)."""
    why = unreadable(source)
    if why:
        raise InputError(f"{shown(source)}: {why[0]}")


ENVIRONMENT = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS, errno.EMFILE,
                         errno.ENFILE, errno.ENOMEM, errno.ESTALE, errno.ENOTCONN})
"""OS errors of the machine, not of one source: no space, over quota or a file size limit, a failing or read-only
disk, out of descriptors or kernel memory, a lost network file system. Every source after would fail the same way,
so the run stops at once (exit 2) and records nothing for them: ``--resume`` carries on once the cause is gone. Any
other OS error (no permission, not a folder, a link loop) concerns one path, and is that source's failed record."""

RETRIED = frozenset({"output", "crash", "internal"})
"""The failure kinds ``--resume`` makes again: none says the source is bad. ``output``: its folder could not be
written (no permission, a link or a file in its way), which the user can fix; ``crash`` and ``internal``: nonogen's
fault (and earlier versions recorded a full disk or a read-only folder as ``internal``). ``input``, ``format``,
``timeout`` and ``memory`` are verdicts on the source with the run's options, and stand."""


def is_final(rec: dict) -> bool:
    """Whether ``--resume`` keeps this record rather than making its source again (:data:`RETRIED`)."""
    return not (rec.get("status") == "failed" and rec.get("error_kind") in RETRIED)


def failure_record(task: MakeTask, exc: Exception, saving: bool, seconds: float) -> dict:
    """The record of a source whose making (or, ``saving``, whose folder) failed with ``exc``, or a stop.

    A failure while saving is ``output`` whatever raised it (an OS error, a
    link refused, a folder in the way): the source was made, only its folder
    could not be written.
    """
    if isinstance(exc, OSError) and exc.errno in ENVIRONMENT:
        return stop_record(task, exc)
    if isinstance(exc, SolverTimeout):
        kind = "timeout"
    elif saving and isinstance(exc, (NonogenError, OSError)):
        kind = "output"
    elif isinstance(exc, FormatError):
        kind = "format"
    elif isinstance(exc, (NonogenError, OSError)):  # an OS error reading the source: the source's
        kind = "input"
    elif isinstance(exc, MemoryError):
        return failed_record(task, f"{shown(task.source)}: ran out of memory (the worker's memory is capped)",
                             "memory", seconds)
    else:  # a bug: this source only, named and located
        return failed_record(task, one_line(f"internal error: {type(exc).__name__}: {exc}", task.source), "internal",
                             seconds)
    return failed_record(task, _reason(exc, task.source), kind, seconds)


def _reason(exc: Exception, source: str) -> str:
    """One line saying why, naming the file as :func:`~nonogen.collect.shown` spells it (the OS error's own file)."""
    if isinstance(exc, OSError) and not isinstance(exc, NonogenError) and exc.filename is not None:
        return f"{shown(os.fsdecode(exc.filename))}: {exc.strerror or exc}"
    return one_line(str(exc) or type(exc).__name__, source)


def stop_record(task: MakeTask, exc: OSError) -> dict:
    """Not a record: a worker's word that the machine failed (:data:`ENVIRONMENT`); :func:`stop_error` raises it
    again."""
    filename = None if exc.filename is None else os.fsdecode(exc.filename)
    return {"source": task.source, "stop": [exc.errno, exc.strerror or str(exc), filename]}


def stop_error(rec: dict) -> Optional[OSError]:
    """The OS error a :func:`stop_record` carries (its own subclass, as ``open`` would raise it), or None for a
    record."""
    if "stop" not in rec:
        return None
    number, reason, filename = rec["stop"]
    return OSError(number, reason) if filename is None else OSError(number, reason, filename)


def pipeline(kind: str) -> Callable:
    """``from_mesh`` or ``from_image``, imported on first use: a picture collection never loads the 3D stack."""
    if kind == "mesh":
        from .level3d import from_mesh  # see the docstring: each kind loads its own stack only

        return from_mesh
    from .picture import from_image  # likewise

    return from_image


def made_record(task: MakeTask, made, seconds: float) -> dict:
    """The record of a made source: what its report gives (:func:`~nonogen.record.summary`) and its clues' hash."""
    rec = blank(task.source, task.name, task.kind, "made", task.making.get("grade"))
    rec.update(summary(made.report, made.is_level), seconds=round(seconds, 3), clue_hash=made.puzzle.clue_hash())
    if made.is_level:  # a level's report names no colours: its palette is the background and the cubes' colours
        rec["colors"] = max(1, len(made.puzzle.palette) - 1)
    return rec


def failed_record(task: MakeTask, message: str, kind: str, seconds: Optional[float] = None) -> dict:
    """The record of a source that could not be made: one line saying why, and the kind of failure."""
    return {**blank(task.source, None, task.kind, "failed", task.making.get("grade")),
            "seconds": None if seconds is None else round(seconds, 3), "error": message, "error_kind": kind}


def task_failed(task: MakeTask, message: str, status: str = "error") -> dict:
    """The record of a task whose worker died or was stopped (the executors' side of :func:`make_one`)."""
    kind = "timeout" if status == "timeout" else "crash"
    return failed_record(task, f"{shown(task.source)}: {message}", kind)
