"""Every page's commands run as written and end as the page says; every file a page tells the reader to open is
there once they ran; a picture shown under a command is that command's output.

The pages are README.md and docs/**/*.md. What runs and how a page states an exit code other than 0 (a trailing
``# exit N``) is said once, in docs/_ext/page_commands.py, which the docs build follows too. Each page's
commands run in order in a folder of their own that holds the shipped ``samples/`` and a ``.venv`` that is this
test's environment, with ``nonogen`` off the PATH until the page's activation line puts it there; pages run two
at a time. ``sh`` lines run in bash with pipefail, ``python`` blocks whole, ``pycon`` blocks as doctests.

What this caught when it came in: commands were accepted when they ended with 0, 1 or 3, so two pages whose
first command redirected into a ``scratch/`` nothing had made yet ("No such file or directory", exit 1) passed;
a line whose comment held ``<name>`` was taken for a template and never ran, so the next line's "done: does
nothing" was never true; Getting started told the reader to open ``out/mushroom/puzzle.html`` after writing to
``scratch/mushroom``, showed the demo's sword under the mushroom command and the demo's default-size level under
an ``--size 8`` command; and the front pages' "from a picture | its solution" paired the sword with the smiley.
"""
from __future__ import annotations

import os
import shlex
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "docs" / "_ext"))
import page_commands as pc  # noqa: E402
from test_docs import GENERATED  # noqa: E402  (what a docs build writes into docs/: not there before one)

PAGES = pc.pages(REPO)
PAGE_BLOCKS = [(page, block) for page in PAGES for block in pc.blocks(page)]
PAGE_WORKERS = 2
"""Pages run two at a time, each page's commands in order in its own folder (the machine has two cores)."""


def without_nonogen(path: str) -> str:
    """PATH minus every folder holding a ``nonogen`` command, so only the page's own set-up can find it."""
    return os.pathsep.join(p for p in path.split(os.pathsep) if p and not (Path(p) / "nonogen").exists())


@pytest.fixture(scope="module")
def page_runs(tmp_path_factory):
    """Every page's folder and the future of its commands' results, ``{line: Ran}``."""
    venv = Path(sys.prefix)
    if not (venv / "bin" / "activate").exists():
        pytest.skip(f"{venv} is not a virtual environment: the README's set-up makes one with `make`")
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = without_nonogen(os.environ.get("PATH", ""))
    folders = {}
    for page in PAGES:
        folder = folders[page] = tmp_path_factory.mktemp(Path(page).stem)
        (folder / "samples").symlink_to(REPO / "samples")
        (folder / ".venv").symlink_to(venv)
    pool = ThreadPoolExecutor(PAGE_WORKERS)
    futures = {page: pool.submit(pc.run_page, page, folders[page], env, activate=True,
                                 read=[block for p, block in PAGE_BLOCKS if p == page]) for page in PAGES}
    yield folders, futures
    pool.shutdown(wait=True, cancel_futures=True)


@pytest.mark.parametrize("page,block", PAGE_BLOCKS, ids=[f"{page}:{block.line}" for page, block in PAGE_BLOCKS])
def test_command_ends_as_the_page_says(page_runs, page, block):
    reason = block.skip_reason()
    if reason:
        pytest.skip(reason)
    ran = page_runs[1][page].result()[block.line]
    problem = pc.failure(page, block, ran)
    assert not problem, problem


def test_pages_have_commands_to_run():
    """The README shows a few commands and the pages hold the rest, all of it run."""
    runnable = [(page, block) for page, block in PAGE_BLOCKS if not block.skip_reason()]
    assert len(runnable) >= 60 and len({page for page, _ in runnable}) >= 10


def _built(path: Path) -> bool:
    """A file a docs build makes in docs/ (the gallery, its pages to play): checked by tests/test_docs.py."""
    return any(path.is_relative_to(REPO / "docs" / name) for name in GENERATED)


OPENING_PAGES = [page for page in PAGES if pc.opened(page)]


@pytest.mark.parametrize("page", OPENING_PAGES)
def test_files_the_page_opens_are_there(page_runs, page):
    """Every link or picture to a file, every ``open `X``` and ``open X``: there once the page's commands ran.
    A path under ``scratch/`` is one the page's own commands write."""
    folders, futures = page_runs
    futures[page].result()
    missing = []
    for line, path, against in pc.opened(page):
        if path.startswith(pc.SCRATCH + "/"):
            where = folders[page] / path
        else:
            where = ((REPO / page).parent if against == "page" else REPO) / path
        where = Path(os.path.normpath(where))
        if not where.is_relative_to(folders[page]) and _built(where):
            continue
        found = list(where.parent.glob(where.name)) if "*" in where.name else [where] if where.exists() else []
        if not found:
            missing.append(f"{page}:{line}: {path}")
    assert not missing, "\n".join(missing)


def _demo_commands() -> dict[Path, list[str]]:
    """The Makefile's demo commands by the folder (or file) they write: ``{outputs/...: arguments}``."""
    out = {}
    for line in (REPO / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ").splitlines():
        if line.startswith("\t$(NONOGEN) "):
            words = shlex.split(line.split("||")[0].replace("$(NONOGEN)", "nonogen").replace("$(OUT)", "outputs"))
            for i, word in enumerate(words[:-1]):
                if word in ("-o", "--output", "--png", "--svg"):
                    out[Path(words[i + 1])] = words
    return out


def _same_command(words: list[str]) -> list[str]:
    """A command's arguments without where it writes and ``--force``: two such lists make the same thing."""
    kept, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word in ("-o", "--output"):
            skip = True
        elif word != "--force":
            kept.append(word)
    return kept


def test_a_demo_picture_under_a_command_is_that_commands_output():
    """A picture of ``outputs/`` shown in a section after a command must be what the demo wrote with that very
    command (another folder and ``--force`` aside): Getting started showed the sword under the mushroom command."""
    demo = _demo_commands()
    wrong = []
    for page in PAGES:
        commands = {block.line: block for block in pc.blocks(page) if block.lang == "sh"}
        last = None
        for number, text in enumerate((REPO / page).read_text(encoding="utf-8").splitlines(), 1):
            if text.startswith("#"):
                last = None
            elif number in commands and commands[number].command.startswith("nonogen "):
                last = commands[number]
            for _, target in pc.PICTURE.findall(text):
                picture = Path(os.path.relpath((REPO / page).parent / target, REPO))
                if last is None or picture.parts[0] != "outputs":
                    continue
                made = demo.get(picture) or demo.get(picture.parent)
                if made is None or _same_command(made) != _same_command(shlex.split(last.command)):
                    wrong.append(f"{page}:{number}: {target} is not what line {last.line} makes "
                                 f"({last.command!r}; the demo: {' '.join(made) if made else 'nothing'})")
    assert not wrong, "\n".join(wrong)


def test_a_puzzle_is_shown_beside_its_own_solution():
    """A line (a table row) showing ``puzzle`` and ``solution`` pictures shows each puzzle beside its own solution
    (the front pages paired the demo's sword with the smiley's solution)."""
    wrong = []
    for page in PAGES:
        for number, text in pc.prose(page):
            shown = [Path(target) for _, target in pc.PICTURE.findall(text)]
            puzzles = {p.parent for p in shown if p.stem == "puzzle"}
            solutions = {p.parent for p in shown if p.stem == "solution"}
            if puzzles and solutions and not puzzles <= solutions:
                wrong.append(f"{page}:{number}: puzzle of {sorted(map(str, puzzles))}, solution of "
                             f"{sorted(map(str, solutions))}")
    assert not wrong, "\n".join(wrong)


WRITING_PAGES = sorted({page for page, block in PAGE_BLOCKS if block.lang == "sh" and not block.skip_reason()})


@pytest.mark.parametrize("page", WRITING_PAGES)
def test_following_a_page_writes_only_into_scratch(page_runs, page):
    """Once every command of the page ran, its folder holds nothing new but scratch/ (following the README once
    left some twenty files in the repository's top folder)."""
    folders, futures = page_runs
    futures[page].result()
    made = sorted(p.name for p in folders[page].iterdir() if p.name not in ("samples", ".venv", pc.SCRATCH))
    assert not made, f"{page}: its commands wrote outside {pc.SCRATCH}/: {made}"
    assert f"/{pc.SCRATCH}/" in (REPO / ".gitignore").read_text().splitlines(), f"{pc.SCRATCH}/ is not git-ignored"


@pytest.mark.parametrize("line,command,comment,exit,skipped", [
    ("nonogen verify samples/puzzles   # a table (exit 1: two are unsolvable)", "nonogen verify samples/puzzles",
     "a table (exit 1: two are unsolvable)", 1, False),
    ("printf '.#.\\n###\\n' | nonogen clues - -o scratch/p.non   # a grid",
     "printf '.#.\\n###\\n' | nonogen clues - -o scratch/p.non", "a grid", 0, False),
    ("nonogen image 'a/*.png' -o scratch/icons   # scratch/icons/<name>/", "nonogen image 'a/*.png' -o scratch/icons",
     "scratch/icons/<name>/", 0, False),
    ("nonogen verify <folder>   # your puzzles", "nonogen verify <folder>", "your puzzles", 0, True),
    ("nonogen studio scratch", "nonogen studio scratch", "", 0, True),
    ("nonogen studio --help", "nonogen studio --help", "", 0, False),
    ("dask scheduler   # prints tcp://<host>:8786", "dask scheduler", "prints tcp://<host>:8786", 0, True),
    ("open scratch/sword/puzzle.html", "open scratch/sword/puzzle.html", "", 0, True),
])
def test_the_conventions(line, command, comment, exit, skipped):
    """A comment starts at a ``#`` after a blank outside quotes; ``exit N`` in it is the exit code; a placeholder
    in the comment does not make the line a template (one such line never ran)."""
    block = pc.Block("sh", 1, line)
    assert (block.command, block.comment, block.exit, bool(block.skip_reason())) == (command, comment, exit, skipped)
