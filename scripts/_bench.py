"""What the benchmarks share: where the data lives, the previous engine's built copy, process CPU, blind copies.

Private to ``scripts/`` (hence the underscore): a script run as ``python scripts/bench_x.py`` has this folder
first on its path and imports this by name. It imports nothing of nonogen when loaded: ``bench_verify.py``,
``bench_grade.py`` and ``bench_picross3d.py`` run themselves again with a previous engine's copy
(``--engine DIR``), and which nonogen a process measures is decided by its first import of it, after
:func:`engine_on_path`.
"""
from __future__ import annotations

import resource
import sys
from pathlib import Path
from typing import NoReturn

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
"""The team's shared data beside the checkout (not in the repository): puzzle collections, models, icons."""
DATA = SHARED / "puzzles"
SURVEY = DATA / "webpbn"
SCRAPED_FOLDERS = (DATA / "webpbn" / "griddler-scraped-non", ROOT.parent / "peers" / "data" / "griddler-scraped-non")
"""Where the 6,746 scraped webpbn puzzles of issue 37 may be: beside the shared data, else in ../peers/data."""
STARTUP_PUZZLE = "width 5\nheight 5\nrows\n1\n3\n5\n3\n1\ncolumns\n1\n3\n5\n3\n1\n"
"""The 5x5 puzzle whose whole ``nonogen verify`` process the start-up rows time: line logic alone solves it."""


def engine_on_path() -> Path:
    """Put the engine this process measures first on the path, and return its folder.

    That is this checkout, or ``--engine DIR`` (a previous engine's copy, when a bench runs itself again
    to measure it). Call it before nonogen is first imported: that import decides which engine runs.
    """
    engine = Path(sys.argv[sys.argv.index("--engine") + 1]) if "--engine" in sys.argv else ROOT
    sys.path.insert(0, str(engine))
    return engine


def skip(reason: str) -> NoReturn:
    """End a benchmark whose inputs are not here with one line and exit 0, so ``make bench`` goes on."""
    print(f"skipped: {reason}", flush=True)
    raise SystemExit(0)


def no_shared(path: Path) -> str:
    """Why a benchmark cannot run without ``path`` from the shared data."""
    return f"{path} not found (the shared data beside this checkout, ../shared/data, is not in the repository)"


# -- the previous engine, measured in the same run ---------------------------------------------


def engine_copy(rev: str) -> Path:
    """A built copy of the engine at ``rev`` under build/engines/ (exported and compiled once).

    ``git archive`` gives the commit's files without touching this checkout;
    its C module is compiled in place, so the copy runs as that commit ran.
    Raises RuntimeError when ``rev`` is not here (a shallow clone) or its C modules do not build.
    """
    import shutil
    import subprocess

    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"],
                         capture_output=True, text=True)
    if sha.returncode != 0:
        raise RuntimeError(f"{rev} is not a commit of this repository")
    folder = ROOT / "build" / "engines" / sha.stdout.strip()[:12]
    if (folder / ".built").exists():
        return folder
    import tempfile

    folder.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=folder.name + ".partial-", dir=folder.parent))  # one per run: two benches
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", sha.stdout.strip()], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(partial)], input=archive.stdout, check=True)
    for command in _compile_commands(partial):
        build = subprocess.run(command, capture_output=True, text=True)
        if build.returncode != 0:
            raise RuntimeError(f"the C modules of {rev} did not build: {build.stderr.strip()[-500:]}")
    (partial / ".built").touch()
    try:
        partial.rename(folder)
    except OSError:  # another run built the same commit first: keep its copy
        shutil.rmtree(partial, ignore_errors=True)
        if not (folder / ".built").exists():
            raise
    return folder


def _compile_commands(checkout: Path) -> list[list[str]]:
    """The compiler calls setuptools makes for the checkout's C modules (its pyproject's ``ext-modules``), with
    this interpreter's own flags: one call per module, so a checkout with the 3D module gets it too."""
    import shlex
    import sysconfig
    import tomllib

    get = sysconfig.get_config_var
    modules = tomllib.loads((checkout / "pyproject.toml").read_text())["tool"]["setuptools"]["ext-modules"]
    flags = shlex.split(get("CC")) + shlex.split(get("CFLAGS")) + shlex.split(get("CCSHARED"))
    return [flags + [f"-I{sysconfig.get_paths()['include']}"] + [str(checkout / c) for c in module["sources"]]
            + shlex.split(get("LDSHARED"))[1:]
            + ["-o", str(checkout / (module["name"].replace(".", "/") + get("EXT_SUFFIX"))), "-lm"]
            for module in modules]


# -- measuring ---------------------------------------------------------------------------------


def children_cpu() -> float:
    """User + system CPU seconds of every waited-for child so far (sh -c adds its own, about 1 ms)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def peak_mb() -> float:
    """This process's peak resident memory so far, in MB (Linux reports kB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def machine() -> str:
    """The processor, core count and Python of this run, for a table's heading."""
    import os
    import platform

    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"


# -- the puzzles ---------------------------------------------------------------------------------


def file_tasks(paths):
    """One task per puzzle; files nonogen refuses on purpose (triddlers, ...) are listed and skipped."""
    from nonogen import NonogenError, formats  # the engine on the path by now (engine_on_path)

    tasks = []
    for path in paths:
        try:
            puzzles = formats.load_all(path)
        except NonogenError as exc:
            print(f"skipped: {exc}", file=sys.stderr)  # stdout may be JSON (--measure)
            continue
        tasks.extend((str(path), i, {}) for i in range(len(puzzles)))
    return tasks


def blind_copies(paths: list[Path], folder: Path) -> list[Path]:
    """``.non`` files without their ``goal`` line, so every solver looks for the solutions itself."""
    folder.mkdir(parents=True, exist_ok=True)
    copies = []
    for path in paths:
        text = path.read_text(encoding="utf-8", errors="replace")
        copies.append(folder / path.name)
        copies[-1].write_text("".join(ln for ln in text.splitlines(True) if not ln.startswith("goal")))
    return copies
