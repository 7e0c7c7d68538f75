"""The hostile side of the fuzz campaign that is not a mutated file: writers, targets, glTF files, resumes.

Used by ``scripts/fuzz.py`` (which counts these cases with the others) and by
``tests/test_roundtrip.py``:

* :func:`writers_round_trip` -- every puzzle a case reads goes through every
  writer: the text must be UTF-8, sniff as the format it was written in
  and read back with the same clues; a 2D sheet's SVG must be well-formed.
* :func:`round_trip` -- the same over folders of real puzzles (samples, held tests).
* ``target`` cases -- :func:`nonogen.files.write_file` and ``LineFile`` into
  FIFOs (with and without a reader), character and block devices, sockets,
  symlinks, folders, made with ``os.mkfifo`` / ``os.mknod`` in a temporary
  folder (never /dev).
* ``gltf`` cases -- models whose buffers and images live in other files:
  huge (sparse), FIFOs, folders, missing, hundreds of them.
* ``resume`` cases -- two ``nonogen verify --resume`` runs on one file at once.
"""
from __future__ import annotations

import json
import os
import random
import socket
import stat
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Callable, Iterable, Optional

ENV_KINDS = ("target", "gltf", "resume")
"""Case kinds that build a situation instead of mutating a seed file."""

BIG_FILE_PUZZLES = 1000
"""A file with more puzzles than this is a tournament set: :func:`round_trip` may sample it."""


# --- every writer, read back --------------------------------------------------------------------------


def _writers(puzzle) -> list[str]:
    """Every format that writes puzzles of ``puzzle``'s kind (2D or Picross 3D)."""
    from nonogen import formats

    out = []
    for name in formats.FORMATS:
        try:
            formats.dropped(puzzle, name)  # refuses a format of the other kind, or one nonogen only reads
        except Exception:
            continue
        out.append(name)
    return out


def writers_round_trip(puzzle, svg: bool = True) -> tuple[int, Optional[str]]:
    """``(round trips done, the first problem or None)`` of ``puzzle`` through every writer that takes it.

    A writer may refuse a puzzle it cannot hold (colours in a black-and-white
    format, a non-square TAAI puzzle) with a NonogenError; anything else it
    writes must be UTF-8, sniff as its own format and read back with the same clues.
    """
    from nonogen import formats
    from nonogen.errors import NonogenError

    want, done = puzzle.clue_hash(), 0
    for fmt in _writers(puzzle):
        try:
            text = formats.dumps(puzzle, fmt)
        except NonogenError:
            continue
        except Exception as exc:
            return done, f"{fmt} writer: {type(exc).__name__}: {str(exc)[:120]}"
        try:
            text.encode("utf-8")
            found = formats.sniff(text)
            back = formats.loads_all(text, found)
        except Exception as exc:
            return done, f"{fmt} does not read back: {type(exc).__name__}: {str(exc)[:120]}"
        done += 1
        if found != fmt and not {found, fmt} <= {"nonogen", "rowscols"}:
            return done, f"{fmt} reads back as {found}"
        if len(back) != 1 or back[0].clue_hash() != want:
            return done, f"{fmt} reads back with other clues"
    if svg and not _is_3d(puzzle) and puzzle.width * puzzle.height <= 900:
        problem = _svg_problem(puzzle)
        if problem:
            return done, problem
    return done, None


def _is_3d(puzzle) -> bool:
    from nonogen.model3d import Puzzle3D

    return isinstance(puzzle, Puzzle3D)


def _svg_problem(puzzle) -> Optional[str]:
    """Whether the puzzle's sheet, titled with its own title, is well-formed XML."""
    from nonogen.render.canvas import to_svg
    from nonogen.render.sheet2d import sheet_picture

    try:
        ET.fromstring(to_svg(sheet_picture(puzzle, None, 10, title=puzzle.meta.get("title"))).encode("utf-8"))
    except Exception as exc:
        return f"sheet SVG: {type(exc).__name__}: {str(exc)[:120]}"
    return None


def round_trip(folders: Iterable[Path], every_nth_of_big_files: int = 1) -> dict:
    """Every puzzle in ``folders`` (once per clue set) through every writer: counts and failures."""
    from nonogen import formats

    stats: dict = {"files": 0, "puzzles": 0, "round_trips": 0, "failed": []}
    seen: set = set()
    for path in sorted(p for folder in folders for p in Path(folder).rglob("*") if p.is_file()):
        if path.suffix.lower() not in formats.SUFFIXES or path.name.endswith("solution.txt"):
            continue
        try:
            puzzles = formats.load_all(path)
        except Exception:
            continue  # files nonogen refuses on purpose (triddlers, junk) are the readers' tests
        stats["files"] += 1
        step = every_nth_of_big_files if len(puzzles) > BIG_FILE_PUZZLES else 1
        for k, puzzle in enumerate(puzzles[::step]):
            key = puzzle.clue_hash()
            if key in seen:
                continue
            seen.add(key)
            stats["puzzles"] += 1
            done, problem = writers_round_trip(puzzle, svg=False)
            stats["round_trips"] += done
            if problem:
                stats["failed"].append(f"{path}#{k * step + 1}: {problem}")
    return stats


# --- targets that are not regular files -----------------------------------------------------------------

TARGETS = ("regular", "missing", "fifo-read", "fifo-unread", "null", "full", "block", "socket", "symlink",
           "dangling", "symlink-fifo", "folder", "under-a-file")
WRITERS = ("write_file", "write_file-force", "line_file", "line_file-force", "line_file-append")


def _make_target(kind: str, folder: Path) -> tuple[Path, Optional[int]]:
    """The target ``kind`` in ``folder`` and the reading end of its FIFO (opened first, as a reader would be)."""
    path = folder / "out.txt"
    if kind in ("regular", "symlink"):
        (folder / "real.txt").write_text("old\n")
    if kind == "regular":
        path = folder / "real.txt"
    elif kind == "symlink":
        path.symlink_to(folder / "real.txt")
    elif kind == "dangling":
        path.symlink_to(folder / "made.txt")
    elif kind.startswith("fifo") or kind == "symlink-fifo":
        os.mkfifo(folder / "pipe")
        if kind == "symlink-fifo":
            path.symlink_to(folder / "pipe")
        else:
            path = folder / "pipe"
        reader = None if kind == "fifo-unread" else os.open(folder / "pipe", os.O_RDONLY | os.O_NONBLOCK)
        return path, reader
    elif kind in ("null", "full", "block"):
        kind_bits, (major, minor) = (stat.S_IFBLK, (254, 254)) if kind == "block" else \
            (stat.S_IFCHR, (1, 3) if kind == "null" else (1, 7))
        os.mknod(path, kind_bits | 0o666, os.makedev(major, minor))  # in the temp folder, never /dev
    elif kind == "socket":
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(path))
        sock.close()
    elif kind == "folder":
        path.mkdir()
    elif kind == "under-a-file":
        (folder / "plain").write_text("x")
        path = folder / "plain" / "out.txt"
    return path, None


def _write(writer: str, path: Path, text: str) -> None:
    from nonogen.files import write_file
    from nonogen.linefile import LineFile

    if writer.startswith("write_file"):
        write_file(path, text, force=writer.endswith("force"))
        return
    with LineFile(path, force=writer.endswith("force"), append=writer.endswith("append")) as out:
        for line in text.splitlines():
            out.write(line)


def target_case(rng: random.Random, folder: Path) -> tuple[str, str]:
    """``(label, problem or "")`` of one write into one hostile target."""
    from nonogen.errors import NonogenError

    kind, writer = rng.choice(TARGETS), rng.choice(WRITERS)
    label = f"{kind} <- {writer}"
    try:
        path, reader = _make_target(kind, folder)
    except PermissionError:
        return label + " (mknod not permitted)", ""
    before = os.lstat(path).st_mode if os.path.lexists(path) else None
    text = "".join(f"line {k}\n" for k in range(rng.randint(1, 50)))
    try:
        _write(writer, path, text)
        error = None
    except NonogenError as exc:
        error = str(exc)
        if "\n" in error or str(path) not in error:
            return label, f"error message is not one line naming the target: {error!r}"
    except OSError as exc:
        if exc.filename is None:
            return label, f"OSError naming no file: {exc}"
        error = str(exc)
    except Exception as exc:
        return label, f"{type(exc).__name__}: {exc}"
    got = _drain(reader) if reader is not None else None
    return label, _judge_target(kind, path, before, text, error, got, folder)


def _drain(fd: int) -> bytes:
    data = b""
    try:
        while chunk := os.read(fd, 65536):
            data += chunk
    except BlockingIOError:
        pass
    finally:
        os.close(fd)
    return data


def _judge_target(kind: str, path: Path, before: Optional[int], text: str, error: Optional[str],
                  got: Optional[bytes], folder: Path) -> str:
    after = os.lstat(path).st_mode if os.path.lexists(path) else None
    if before is not None and not stat.S_ISREG(before) and stat.S_IFMT(after or 0) != stat.S_IFMT(before):
        return f"the {kind} became {'nothing' if after is None else stat.filemode(after)}"
    if kind in ("symlink", "symlink-fifo", "dangling") and not path.is_symlink():
        return "the symlink was replaced"
    left = [p.name for p in folder.iterdir() if p.name.startswith(".")]
    if left:
        return f"temporary files left: {left}"
    if error is None and kind in ("fifo-read", "symlink-fifo") and got != text.encode():
        return f"the reader got {len(got or b'')} of {len(text)} bytes"
    if error is None and kind in ("regular", "missing", "symlink", "dangling"):
        written = path.read_text()
        if not written.endswith(text):
            return "the file does not hold what was written"
    if error is None and kind in ("block", "socket", "folder", "fifo-unread", "under-a-file", "full"):
        return f"writing into a {kind} was not refused"
    return ""


# --- glTF models that name other files ---------------------------------------------------------------

GLTF_TRICKS = ("huge-buffer", "huge-image", "fifo-buffer", "folder-buffer", "missing-buffer", "many-buffers",
               "glb-external", "small-buffers")


def gltf_case(rng: random.Random, folder: Path) -> tuple[str, Path, int]:
    """A model whose external files play ``trick``: ``(trick, model path, bytes it names outside itself)``."""
    import trimesh

    trick = rng.choice(GLTF_TRICKS)
    files = trimesh.exchange.gltf.export_gltf(trimesh.Scene(trimesh.creation.box()))
    for name, data in files.items():
        (folder / name).write_bytes(data)
    model = folder / "model.gltf"
    doc = json.loads(files["model.gltf"])
    extra = sum(len(v) for k, v in files.items() if k != "model.gltf")
    if trick in ("huge-buffer", "huge-image"):
        size = rng.choice((16, 64, 200, 500)) << 20  # sparse: costs no disk; bounded so a failing run cannot OOM
        name = "gltf_buffer_0.bin" if trick == "huge-buffer" else "texture.png"
        (folder / name).touch()
        os.truncate(folder / name, size)
        if trick == "huge-image":
            doc["images"] = [{"uri": name}]
        extra += size
    elif trick in ("fifo-buffer", "folder-buffer", "missing-buffer"):
        target = folder / "gltf_buffer_1.bin"
        target.unlink()
        if trick == "fifo-buffer":
            os.mkfifo(target)
        elif trick == "folder-buffer":
            target.mkdir()
    elif trick == "many-buffers":
        count = rng.choice((70, 300, 5000))
        doc["buffers"] += [{"uri": "gltf_buffer_1.bin", "byteLength": 96}] * count
        extra += 96 * count
    elif trick == "glb-external":
        body = json.dumps(doc).encode()
        body += b" " * (-len(body) % 4)
        model = folder / "model.glb"
        model.write_bytes(b"glTF" + struct.pack("<II", 2, 12 + 8 + len(body)) + struct.pack("<I", len(body))
                          + b"JSON" + body)
        os.truncate(folder / "gltf_buffer_0.bin", 64 << 20)
        return trick, model, extra + (64 << 20)
    model.write_text(json.dumps(doc))
    return trick, model, extra


# --- two runs resuming one file ----------------------------------------------------------------------


def resume_case(rng: random.Random, folder: Path) -> tuple[str, str]:
    """Two ``verify --resume`` runs on one file, started together: no record twice, none lost, counts right."""
    puzzles = folder / "in"
    puzzles.mkdir()
    count = rng.randint(3, 8)
    for k in range(count):
        bits = format(k + 1, "04b")
        (puzzles / f"p{k}.non").write_text("width 4\nheight 1\nrows\n" + (" ".join(
            str(len(run)) for run in bits.split("0") if run) or "0") + "\ncolumns\n"
            + "\n".join("1" if b == "1" else "0" for b in bits) + "\n")
    resume = folder / "r.jsonl"
    argv = [sys.executable, "-m", "nonogen", "verify", str(puzzles), "--resume", str(resume)]
    runs = [subprocess.Popen(argv + (["--jobs", "2"] if rng.random() < 0.3 else []), stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True) for _ in range(2)]
    try:
        errors = [run.communicate(timeout=50)[1] for run in runs]
    finally:  # a hang (the campaign's alarm, or the timeout) must not leave the runs behind
        for run in runs:
            if run.poll() is None:
                run.kill()
                run.wait()
    label = f"{count} puzzles, exits {[r.returncode for r in runs]}"
    for run, err in zip(runs, errors, strict=True):
        if run.returncode not in (0, 2) or "Traceback" in err:
            return label, f"exit {run.returncode}: {err.strip()[-300:]}"
        if run.returncode == 2 and "another nonogen run" not in err:
            return label, f"exit 2 without the lock's message: {err.strip()[-300:]}"
    files = [json.loads(line)["file"] for line in resume.read_text().splitlines()]
    if len(files) != len(set(files)):
        return label, f"{len(files) - len(set(files))} records written twice"
    if len(set(files)) != count:
        return label, f"{count - len(set(files))} puzzles missing"
    again = subprocess.run(argv + ["--summary-json", "-"], capture_output=True, text=True, timeout=50)
    summary = json.loads(again.stdout.strip().splitlines()[-1]) if again.returncode == 0 else {}
    if summary.get("puzzles") != count:
        return label, f"the resumed summary counts {summary.get('puzzles')} puzzles, not {count}"
    return label, ""


def env_case(kind: str, rng: random.Random, check_model: Callable[[Path, str], object]) -> tuple[str, str, str]:
    """``(label, problem or "", detail)`` of one case of an :data:`ENV_KINDS` kind, in its own temp folder."""
    import shutil

    folder = Path(tempfile.mkdtemp(prefix=f"nonogen-fuzz-{kind}-"))
    try:
        if kind == "target":
            label, problem = target_case(rng, folder)
            return label, problem, ""
        if kind == "resume":
            label, problem = resume_case(rng, folder)
            return label, problem, ""
        trick, model, named = gltf_case(rng, folder)
        outcome = check_model(model, trick)
        problem = outcome.problem
        if not problem and named > (8 << 20) and "MB" not in outcome.detail:
            problem = f"a model naming {named >> 20} MB outside itself was read ({outcome.detail[:80]})"
        if not problem and trick in ("fifo-buffer", "folder-buffer", "many-buffers") and "voxels" in outcome.detail:
            problem = f"{trick} was read"
        return trick, problem, outcome.detail
    finally:
        shutil.rmtree(folder, ignore_errors=True)
