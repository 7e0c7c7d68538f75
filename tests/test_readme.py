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
RAN: set[tuple[str, int]] = set()  # (page, line) of the commands that ran in this session, for the last test


def without_nonogen(path: str) -> str:
    """PATH minus every folder holding a ``nonogen`` command, so only the README's own set-up can find it."""
    return os.pathsep.join(p for p in path.split(os.pathsep) if p and not (Path(p) / "nonogen").exists())


_SCRATCH: dict[str, tuple[Path, dict]] = {}


@pytest.fixture
def scratch(tmp_path_factory, page: str) -> tuple[Path, dict]:
    """The page's folder: the shipped samples and a ``.venv`` that is this test's environment, ``nonogen`` off the PATH."""
    if page in _SCRATCH:
        return _SCRATCH[page]
    folder = tmp_path_factory.mktemp(Path(page).stem)
    (folder / "samples").symlink_to(REPO / "samples")
    venv = Path(sys.prefix)
    if not (venv / "bin" / "activate").exists():
        pytest.skip(f"{venv} is not a virtual environment: the README's set-up makes one with `make`")
    (folder / ".venv").symlink_to(venv)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = without_nonogen(os.environ.get("PATH", ""))
    _SCRATCH[page] = folder, env
    return folder, env


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
def test_readme_command_runs_as_written(scratch, page, lang, line, code):
    reason = skip_reason(code)
    if reason:
        pytest.skip(reason)
    folder, env = scratch
    if lang == "pycon":
        _run_doctest(folder, env, page, line, code)
        return
    argv = ([sys.executable, "-c", code] if lang == "python"
            else ["bash", "-o", "pipefail", "-c", f"{ACTIVATE} && {code}"])
    done = subprocess.run(argv, cwd=folder, env=env, capture_output=True, text=True, timeout=600,
                          stdin=subprocess.DEVNULL)
    assert done.returncode in (0, 1, 3), f"{page}:{line}: exit {done.returncode}\n{code}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr, f"{page}:{line}\n{done.stderr[-3000:]}"
    RAN.add((page, line))


WRITING_PAGES = sorted({page for page, lang, _, code in PAGE_BLOCKS if lang == "sh" and not skip_reason(code)})


@pytest.mark.parametrize("page", WRITING_PAGES)
def test_following_a_page_writes_only_into_scratch(scratch, page):
    """Runs after every command above (pytest keeps the file's order): the page's folder holds nothing new but
    scratch/."""
    folder, _ = scratch
    commands = {(page, line) for p, lang, line, code in PAGE_BLOCKS if p == page and lang != "pycon" and not skip_reason(code)}
    if not commands <= RAN:
        pytest.skip("only meaningful after every command of the page ran in this session")
    made = sorted(p.name for p in folder.iterdir() if p.name not in ("samples", ".venv", SCRATCH))
    assert not made, f"{page}: its commands wrote outside {SCRATCH}/: {made}"
    assert f"/{SCRATCH}/" in (REPO / ".gitignore").read_text().splitlines(), f"{SCRATCH}/ is not git-ignored"


DOCTEST = """
import doctest, sys
test = doctest.DocTestParser().get_doctest(sys.stdin.read(), {}, sys.argv[2], sys.argv[2], int(sys.argv[1]))
runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
runner.run(test)
sys.exit(9 if runner.failures else 0)
"""


def _run_doctest(folder: Path, env: dict, page: str, line: int, code: str) -> None:
    """A ``pycon`` block is a doctest: every output shown must be what the call prints (exit 9 otherwise)."""
    done = subprocess.run([sys.executable, "-c", DOCTEST, str(line), page], cwd=folder, env=env, input=code,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{page}:{line}: the example's output differs\n{done.stdout[-3000:]}{done.stderr[-2000:]}"
