"""A collection folder: many pictures or models made into ``OUT/<name>/`` each, and ``OUT/collection.jsonl``.

The twin of :mod:`nonogen.batch` for making. Sources are found as verify
finds its files (:mod:`nonogen.collect`), the work runs in the same
executors (:mod:`nonogen.executors`: this process, a local pool that keeps a
crash or a runaway to one source and caps each worker's memory, or a Dask
cluster), and a killed run resumes from the records it left. A task makes
one source *and saves its folder* in the worker (:func:`make_and_save`):
drawing the sheets is a good part of the work, and only a small record
travels back, so the calling process stays small however many sources
there are. The calling process plans the folder names
(:mod:`nonogen.make.many`), appends each record the moment it arrives, and
with ``dedupe`` removes the folders of duplicates.

The collection folder is nonogen's: nothing is written through a link
found in it (``collection.jsonl`` or ``OUT/<name>`` planted as a link to
elsewhere is refused, with or without ``--force``). A failure of the
machine (:data:`~nonogen.make.many.ENVIRONMENT`: a full disk) stops the run
at once, recording nothing it did not finish; a folder that could not be
written is that source's ``output`` failure, and ``--resume`` makes it
again (:data:`~nonogen.make.many.RETRIED`).
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Optional, Union

from ..collect import found_files
from ..errors import CollectionExistsError, InputError, OptionError
from ..executors import make_executor
from ..files import OWN_NAMES, check_folder, refuse_link, write_file
from ..linefile import LineFile
from ..make.many import DEFAULT_TIMEOUT, SUFFIXES, MakeTask, check_mix, make_one, mixed_grades, pipeline, plan_names
from ..make.many import is_final, stop_error, task_failed
from ..record import RECORDS, read_records
from .folders import save

__all__ = ["make_many", "make_and_save", "collection_records", "resumed_records"]

PathLike = Union[str, Path]


def make_and_save(task: MakeTask) -> dict:
    """Make one source and save its folder as :func:`nonogen.save` does: the task every executor runs."""
    return make_one(task, _save)


def _save(made: Any, task: MakeTask) -> None:
    save(made, refuse_link(task.folder), force=task.force, **task.saving)  # a link planted since the run began too


def collection_records(out: PathLike) -> list[dict]:
    """The records in ``out/collection.jsonl`` as every reader reads them (:func:`~nonogen.record.read_records`).

    A link planted in its place is refused, as writing it is: a resumed run would take another file's lines.
    """
    return read_records(refuse_link(Path(out) / RECORDS).parent)


def resumed_records(out: PathLike) -> list[dict]:
    """The records ``--resume`` keeps: all but the failures it makes again (:func:`~nonogen.make.many.is_final`)."""
    return [rec for rec in collection_records(out) if is_final(rec)]


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
    records = sorted(read_records(path.parent), key=lambda r: r["source"])
    write_file(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), force=True, follow=False)


class _InOrder:
    """Records released in sorted source order, so that with ``dedupe`` "the later one" means the later source.

    Completion order changes from run to run; which of two sources with the
    same clues keeps its folder must not. Sources of the resumed run count
    as released already.
    """

    def __init__(self, released: set[int]):
        self.released = released
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
        check_folder(refuse_link(out / name), force or resume, [source])  # resume: a killed run's unrecorded folder
    return todo


def _open_records(folder: Path, plan: list, resume: bool, force: bool) -> tuple[LineFile, list[dict], list[int]]:
    """The records file, open to append and locked; the resumed run's records; the indices of the sources to make.

    Every refusal comes here, before any work, and leaves no records file behind that was not there before.
    """
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{folder}: exists and is not a folder; name a folder for the collection")
    folder.mkdir(parents=True, exist_ok=True)
    new = not os.path.lexists(folder / RECORDS)
    lines = LineFile(folder / RECORDS, append=True, follow=False)  # locked before it is read: a second run is refused
    try:
        earlier = resumed_records(folder) if resume else []
        todo = _prepare(folder, plan, earlier, resume, force, os.fstat(lines.fd).st_size > 0)
        if not resume:
            os.ftruncate(lines.fd, 0)  # with force: the collection starts over
    except BaseException:
        lines.close()
        if new:
            (folder / RECORDS).unlink()
        raise
    return lines, earlier, todo


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
    :data:`~nonogen.make.many.SUFFIXES`) and glob patterns. Each source is
    made with ``making`` (the keywords of :func:`nonogen.from_image` or
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
    yielded), and a folder the killed run left without a record is replaced;
    a source whose failure was not its own (:data:`~nonogen.make.many.RETRIED`)
    is made again and its new record replaces the old.
    ``dedupe`` turns a source whose clues an earlier source's puzzle already
    had into a ``duplicate`` record and removes its folder. ``grade_mix``
    (``{1: 1, 2: 1, 3: 1}``) aims the sources at grades in those shares
    (:func:`mixed_grades`, replacing ``grade``). ``on_progress(done, total)``
    is called before the first record and after each. Closing the generator
    stops the workers. An OS error of the machine (a full disk, a file size
    limit) stops the run with that :class:`OSError` and records nothing more.
    """
    if kind not in SUFFIXES:
        raise OptionError("kind", kind, " or ".join(SUFFIXES))
    folder = Path(out)
    inside = os.path.abspath(folder) + os.sep  # the collection's own pictures are never sources (a resumed run's)
    plan = plan_names(p for p, _ in found_files(sources, SUFFIXES[kind]) if not os.path.abspath(p).startswith(inside))
    if not plan:
        raise InputError(f"no {'pictures' if kind == 'image' else 'models'} in {', '.join(map(str, sources))} "
                         f"(searched for {' '.join(SUFFIXES[kind])})")
    grades = mixed_grades(len(plan), check_mix(grade_mix, kind)) if grade_mix is not None else None
    lines, earlier, todo = _open_records(folder, plan, resume, force)
    saving = {"colored": colored} if kind == "mesh" else {"cell": cell}

    def task(i: int) -> MakeTask:
        wanted = {"grade": grades[i]} if grades else {}
        source, name = plan[i]
        return MakeTask(source, name, kind, str(folder / name), {**making, **wanted}, saving, force or resume)

    timeout = making.get("timeout", DEFAULT_TIMEOUT[kind])
    runner = make_executor(executor, jobs=jobs, timeout=timeout, scheduler=scheduler)
    pipeline(kind)  # loaded once here, local workers forked from this process start with it (0.5 s each otherwise)
    index = {plan[i][0]: i for i in todo}
    order = _InOrder(set(range(len(plan))) - set(todo)) if dedupe else None
    seen = {r["clue_hash"]: r["name"] for r in earlier if r["status"] == "made" and r.get("clue_hash")}
    report = on_progress or (lambda done, total: None)
    report(0, len(todo))
    done = 0
    stream = runner.run(make_and_save, (task(i) for i in todo), task_failed)
    try:
        for arrived in stream:
            stop = stop_error(arrived)
            if stop is not None:  # the machine failed (a full disk): every later source would fail the same way
                raise stop
            if arrived["error_kind"] in ("crash", "timeout"):  # a worker killed mid-save; save() cleans up after itself
                _remove_if_empty(folder / plan[index[arrived["source"]]][1])
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
