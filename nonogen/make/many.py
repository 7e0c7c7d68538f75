"""Many pictures or models into a collection folder: one made folder per source, one record per source.

The twin of :mod:`nonogen.batch` for making. Sources are found as verify
finds its files (:mod:`nonogen.collect`), the work runs in the same
executors (:mod:`nonogen.executors`: this process, a local pool that keeps a
crash or a runaway to one source and caps each worker's memory, or a Dask
cluster), and a killed run resumes from the records it left in
``OUT/collection.jsonl``. A task makes one source *and saves its folder* in
the worker: drawing the sheets is a good part of the work, and only a small
record travels back, so the calling process stays small however many
sources there are. The calling process plans the folder names, appends each
record the moment it arrives, and with ``dedupe`` removes the folders of
duplicates. The folder layout and record fields are the collection contract
(README, "Making a collection").
"""
from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, NamedTuple, Optional, Union

from ..batch import clue_hash
from ..collect import found_files, read_records
from ..errors import CollectionExistsError, FormatError, InputError, NonogenError, OptionError, SolverTimeout
from ..executors import make_executor
from ..files import OWN_NAMES, LineFile, check_folder, write_file
from ..output.folders import save

__all__ = ["make_many", "make_one", "plan_names", "mixed_grades", "read_collection", "KINDS", "RECORDS", "STATUSES"]

PathLike = Union[str, Path]

KINDS = {
    "image": (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".tif", ".tiff"),
    "mesh": (".stl", ".obj", ".ply", ".glb", ".gltf", ".off"),
}
"""The suffixes a folder or glob is searched for, by kind of source (named files are taken whatever their suffix)."""

GRADES = {"image": (1, 2, 3, 4, 5), "mesh": (1, 2, 3, 5)}
DEFAULT_TIMEOUT = {"image": 60.0, "mesh": 300.0}
RECORDS = "collection.jsonl"
STATUSES = ("made", "failed", "duplicate")
"""Every status a collection record can have, in the order summaries list them."""


class MakeTask(NamedTuple):
    """One source to make and save: the unit of work an executor ships (plain, picklable values only)."""

    index: int
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
    return re.sub(r"[^a-z0-9_-]", "-", Path(path).stem.lower()) or "source"


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


def _check_mix(mix: Mapping[int, float], kind: str) -> dict[int, float]:
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


def make_one(task: MakeTask) -> dict:
    """Make one source, save its folder and return its record; any failure is a ``failed`` record, never an exception.

    This is the whole per-source work, the same in every executor, so the
    local pool and a Dask cluster give the same records.
    """
    start = time.monotonic()
    try:
        made = _make(task)
        made.report["seconds"] = round(time.monotonic() - start, 3)
        _save(made, task)
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


def _make(task: MakeTask):
    return _pipeline(task.kind)(task.source, **task.making)


def _pipeline(kind: str) -> Callable:
    """``from_mesh`` or ``from_image``, imported on first use: a picture collection never loads the 3D stack."""
    if kind == "mesh":
        from .level3d import from_mesh  # see the docstring: each kind loads its own stack only

        return from_mesh
    from .picture import from_image  # likewise

    return from_image


def _save(made, task: MakeTask) -> None:
    save(made, task.folder, force=task.force, **task.saving)


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


# --- the collection folder ----------------------------------------------------------------------------


def read_collection(out: PathLike) -> list[dict]:
    """The records in ``out/collection.jsonl`` (none when it is missing), a torn last line left out."""
    return read_records(Path(out) / RECORDS, "source", "a nonogen collection")


def _discard(folder: Path) -> None:
    """Remove a made folder nonogen wrote (a duplicate's): its own files only, then the folder if that empties it."""
    for name in OWN_NAMES:
        try:
            (folder / name).unlink()
        except FileNotFoundError:
            pass
    _remove_if_empty(folder)


def _remove_if_empty(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:  # missing, or it holds files nonogen did not write
        pass


def _sort_records(path: Path) -> None:
    """Rewrite the finished collection's records in sorted source order (each run appends them as they finish)."""
    records = sorted(read_records(path, "source", "a nonogen collection"), key=lambda r: r["source"])
    write_file(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), force=True)


class _InOrder:
    """Records released in sorted source order, so that with ``dedupe`` "the later one" means the later source.

    Completion order changes from run to run; which of two sources with the
    same clues keeps its folder must not. Sources of the resumed run count
    as released already.
    """

    def __init__(self, count: int, released: set[int]):
        self.count, self.released = count, released
        self.next = 0
        self.waiting: dict[int, dict] = {}

    def add(self, index: int, rec: dict) -> Iterator[dict]:
        self.waiting[index] = rec
        while True:
            while self.next in self.released:
                self.next += 1
            if self.next not in self.waiting:
                return
            yield self.waiting.pop(self.next)
            self.next += 1


def _as_duplicate(rec: dict, seen: dict[str, str], folder: Path) -> dict:
    """A made record whose clues an earlier source already had becomes a ``duplicate``, its folder removed."""
    if rec["status"] != "made":
        return rec
    first = seen.setdefault(rec["clue_hash"], rec["name"])
    if first == rec["name"]:
        return rec
    _discard(folder / rec["name"])
    return {**rec, "status": "duplicate", "name": None, "duplicate_of": first}


def _prepare(out: Path, plan: list, earlier: list[dict], resume: bool, force: bool, recorded: bool) -> list[int]:
    """The indices of the sources still to make; refuses, before any work, to overwrite what the user has."""
    done = {r["source"] for r in earlier}
    todo = [i for i, (source, _) in enumerate(plan) if source not in done]
    if recorded and not resume and not force:
        raise CollectionExistsError(f"{out / RECORDS}: a collection was made here already")
    for i in todo:
        source, name = plan[i]
        check_folder(out / name, force or resume, [source])  # with resume: the killed run's unrecorded folder
    return todo


def make_many(
    sources: Iterable[PathLike],
    out: PathLike,
    *,
    kind: str = "image",
    jobs: int = 1,
    executor: object = None,
    scheduler: Optional[str] = None,
    resume: bool = False,
    force: bool = False,
    dedupe: bool = False,
    grade_mix: Optional[Mapping[int, float]] = None,
    cell: int = 20,
    colored: bool = True,
    on_progress: Optional[Callable[[int, int], None]] = None,
    **making: Any,
) -> Iterator[dict]:
    """Make every picture (``kind="image"``) or model (``"mesh"``) in ``sources`` into the collection folder ``out``.

    ``sources`` are files, folders (searched recursively for the kind's
    suffixes, :data:`KINDS`) and glob patterns. Each source is made with
    ``making`` (the keywords of :func:`nonogen.from_image` or
    :func:`nonogen.from_mesh`) and saved as :func:`nonogen.save` does into
    ``out/<name>`` (:func:`plan_names`; ``cell`` and ``colored`` as there).
    Yields one record per source as it finishes (with ``dedupe``, in source
    order) and appends it to ``out/collection.jsonl``, sorted by source once
    the run is complete. A source that cannot be made is a ``failed`` record
    and the rest go on. ``jobs``, ``executor`` and ``scheduler`` choose where
    the work runs, as in :func:`nonogen.verify_paths`.

    An existing ``out/<name>`` or records file is refused
    (:class:`OutputExistsError`) unless ``force`` (make everything again) or
    ``resume``: then the sources already recorded are not made again (nor
    yielded), and a folder the killed run left without a record is replaced.
    ``dedupe`` turns a source whose clues an earlier source's puzzle already
    had into a ``duplicate`` record and removes its folder. ``grade_mix``
    (``{1: 1, 2: 1, 3: 1}``) aims the sources at grades in those shares
    (:func:`mixed_grades`, replacing ``grade``). ``on_progress(done, total)``
    is called before the first record and after each. Closing the generator
    stops the workers.
    """
    if kind not in KINDS:
        raise OptionError("kind", kind, " or ".join(KINDS))
    folder = Path(out)
    inside = os.path.abspath(folder) + os.sep  # the collection's own pictures are never sources (a resumed run's)
    plan = plan_names(p for p, _ in found_files(sources, KINDS[kind]) if not os.path.abspath(p).startswith(inside))
    if not plan:
        raise InputError(f"no {'pictures' if kind == 'image' else 'models'} in {', '.join(map(str, sources))} "
                         f"(searched for {' '.join(KINDS[kind])})")
    grades = mixed_grades(len(plan), _check_mix(grade_mix, kind)) if grade_mix is not None else None
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{folder}: exists and is not a folder; name a folder for the collection")
    folder.mkdir(parents=True, exist_ok=True)
    lines = LineFile(folder / RECORDS, append=True)  # locked before it is read: a second run on it is refused
    try:
        earlier = read_collection(folder) if resume else []
        todo = _prepare(folder, plan, earlier, resume, force, os.fstat(lines.fd).st_size > 0)
        if not resume:
            os.ftruncate(lines.fd, 0)  # with force: the collection starts over
    except BaseException:
        lines.close()
        raise
    saving = {"colored": colored} if kind == "mesh" else {"cell": cell}

    def task(i: int) -> MakeTask:
        wanted = {"grade": grades[i]} if grades else {}
        source, name = plan[i]
        return MakeTask(i, source, name, kind, str(folder / name), {**making, **wanted}, saving, force or resume)

    timeout = making.get("timeout", DEFAULT_TIMEOUT[kind])
    runner = make_executor(executor, jobs=jobs, timeout=timeout, scheduler=scheduler)
    _pipeline(kind)  # loaded once here, local workers forked from this process start with it (0.5 s each otherwise)
    index = {plan[i][0]: i for i in todo}
    order = _InOrder(len(plan), set(range(len(plan))) - set(todo)) if dedupe else None
    seen = {r["clue_hash"]: r["name"] for r in earlier if r["status"] == "made" and r.get("clue_hash")}
    report = on_progress or (lambda done, total: None)
    report(0, len(todo))
    done = 0
    stream = runner.run(make_one, (task(i) for i in todo), task_failed)
    try:
        for arrived in stream:
            if arrived["status"] == "failed":
                _remove_if_empty(folder / plan[index[arrived["source"]]][1])  # a worker killed mid-save
            for rec in order.add(index[arrived["source"]], arrived) if order else (arrived,):
                rec = _as_duplicate(rec, seen, folder) if dedupe else rec
                lines.write(json.dumps(rec, ensure_ascii=False))
                done += 1
                yield rec
                report(done, len(todo))
    finally:
        stream.close()
        lines.close()
    _sort_records(folder / RECORDS)
