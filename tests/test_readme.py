"""Every command in README.md and in the documentation's pages (docs/**/*.md) runs as written: `sh` blocks line
by line, `python` blocks whole, `pycon` blocks as doctests, in a scratch folder per page.

Eight of the README's 21 commands failed as written (files that did not
exist, placeholders that looked like names). The rules the README states:
a line with a ``<placeholder>`` is a template and is not run; the ``make``
lines are the set-up that runs this very test, so they are not run either;
the set-up block's activation line (``. .venv/bin/activate``) is how the
README puts ``nonogen`` on the PATH, so every command runs after it, in a
folder whose ``.venv`` is the environment running this test (a README that
forgot to say how to find ``nonogen`` printed "command not found").
A command passes when its exit code says no error: 0, 1 (some puzzle is not
unique; the shipped samples include unsolvable puzzles on purpose) or 3 (a
timeout, which a busy machine may reach), and it prints no traceback. Commands run in page order in one folder per
page, so a file one writes can be read by the next on the same page. When the README's sections moved to the
documentation site, their commands moved with them and are run here all the same. Everything they write goes
into one git-ignored folder, ``scratch/`` (following the README once left some twenty files in the repository's
top folder).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PLACEHOLDER = re.compile(r"<[A-Za-z][^<>]*>")


PAGES = ["README.md", *sorted(p.relative_to(REPO).as_posix() for p in (REPO / "docs").rglob("*.md")
                              if "_build" not in p.parts)]
"""The pages whose commands are run: the README and every Markdown page of the site."""


def readme_blocks(page: str = "README.md") -> list[tuple[str, int, str]]:
    """``(language, line number, code)`` of ``page``: every line of ``sh`` blocks, every ``python`` and ``pycon`` block."""
    out: list[tuple[str, int, str]] = []
    lang, start, body = None, 0, []
    for number, line in enumerate((REPO / page).read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            if lang is None:
                lang, start, body = line[3:].strip(), number, []
                continue
            if lang in ("python", "pycon"):
                out.append((lang, start + 1, "\n".join(body)))
            lang = None
        elif lang in ("sh", "bash"):
            if line.strip() and not line.lstrip().startswith("#"):
                out.append(("sh", number, line))
        elif lang is not None:
            body.append(line)
    return out


ACTIVATE = ". .venv/bin/activate"


def skip_reason(code: str) -> str:
    if PLACEHOLDER.search(code):
        return "a template: <...> is for the reader to fill in"
    if code.split()[0] == "make" or code.split("#")[0].strip() == ACTIVATE:
        return "the set-up that runs this test"
    return ""


BLOCKS = readme_blocks()
PAGE_BLOCKS = [(page, *block) for page in PAGES for block in readme_blocks(page)]
SCRATCH = "scratch"  # the one folder the pages' commands write into (git-ignored)


def without_nonogen(path: str) -> str:
    """PATH minus every folder holding a ``nonogen`` command, so only the README's own set-up can find it."""
    return os.pathsep.join(p for p in path.split(os.pathsep) if p and not (Path(p) / "nonogen").exists())


PAGE_WORKERS = 2
"""Pages run two at a time, each page's commands in order in its own folder: one after another they took three
of the suite's nine minutes, most of it starting processes."""


@pytest.fixture(scope="module")
def page_runs(tmp_path_factory):
    """Every page's folder (the shipped samples and a ``.venv`` that is this test's environment, ``nonogen`` off
    the PATH) and the future of its commands' results, ``{line: (exit code, stdout, stderr)}``."""
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
    futures = {page: pool.submit(_run_page, page, folders[page], env) for page in PAGES}
    yield folders, futures
    pool.shutdown(wait=True, cancel_futures=True)


def _run_page(page: str, folder: Path, env: dict) -> dict[int, tuple[int, str, str]]:
    out = {}
    for lang, line, code in readme_blocks(page):
        if skip_reason(code):
            continue
        if lang == "pycon":  # a doctest: every output shown must be what the call prints (exit 9 otherwise)
            argv, stdin = [sys.executable, "-c", DOCTEST, str(line), page], code
        else:
            argv = ([sys.executable, "-c", code] if lang == "python"
                    else ["bash", "-o", "pipefail", "-c", f"{ACTIVATE} && {code}"])
            stdin = None
        done = subprocess.run(argv, cwd=folder, env=env, input=stdin, capture_output=True, text=True, timeout=600,
                              stdin=None if stdin is not None else subprocess.DEVNULL)
        out[line] = (done.returncode, done.stdout, done.stderr)
    return out


def test_readme_setup_puts_nonogen_on_the_path():
    """The set-up block says how to find ``nonogen``: a new user got "command not found" from the first example."""
    setup = [code for lang, _, code in BLOCKS if lang == "sh" and code.split("#")[0].strip() == ACTIVATE]
    assert setup, f"README.md has no `{ACTIVATE}` line in an sh block"


def test_the_readme_has_commands_to_run():
    """The README shows the five commands and a Python example; the pages hold the rest, all of it run."""
    runnable = [b for b in BLOCKS if not skip_reason(b[2])]
    assert len(runnable) >= 5 and any(lang == "pycon" for lang, _, _ in runnable)
    everywhere = [b for b in PAGE_BLOCKS if not skip_reason(b[3])]
    assert len(everywhere) >= 60 and len({page for page, *_ in everywhere}) >= 10


@pytest.mark.parametrize("page,lang,line,code", PAGE_BLOCKS, ids=[f"{page}:{line}" for page, _, line, _ in PAGE_BLOCKS])
def test_readme_command_runs_as_written(page_runs, page, lang, line, code):
    reason = skip_reason(code)
    if reason:
        pytest.skip(reason)
    returncode, stdout, stderr = page_runs[1][page].result()[line]
    if lang == "pycon":
        assert returncode == 0, f"{page}:{line}: the example's output differs\n{stdout[-3000:]}{stderr[-2000:]}"
        return
    assert returncode in (0, 1, 3), f"{page}:{line}: exit {returncode}\n{code}\n{stderr[-3000:]}"
    assert "Traceback" not in stderr, f"{page}:{line}\n{stderr[-3000:]}"


WRITING_PAGES = sorted({page for page, lang, _, code in PAGE_BLOCKS if lang == "sh" and not skip_reason(code)})


@pytest.mark.parametrize("page", WRITING_PAGES)
def test_following_a_page_writes_only_into_scratch(page_runs, page):
    """Once every command of the page ran, its folder holds nothing new but scratch/."""
    folders, futures = page_runs
    futures[page].result()
    made = sorted(p.name for p in folders[page].iterdir() if p.name not in ("samples", ".venv", SCRATCH))
    assert not made, f"{page}: its commands wrote outside {SCRATCH}/: {made}"
    assert f"/{SCRATCH}/" in (REPO / ".gitignore").read_text().splitlines(), f"{SCRATCH}/ is not git-ignored"


DOCTEST = """
import doctest, sys
test = doctest.DocTestParser().get_doctest(sys.stdin.read(), {}, sys.argv[2], sys.argv[2], int(sys.argv[1]))
runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
runner.run(test)
sys.exit(9 if runner.failures else 0)
"""
