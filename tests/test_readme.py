"""Every command in README.md runs as written: `sh` blocks line by line, `python` blocks whole, `pycon` blocks
as doctests, in a scratch folder.

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
timeout, which a busy machine may reach), and it prints no traceback. Commands run in README order in one folder, so a file
one writes can be read by the next. Everything they write goes into one git-ignored folder,
``scratch/`` (following the README once left some twenty files in the repository's top folder).
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


def readme_blocks() -> list[tuple[str, int, str]]:
    """``(language, line number, code)``: every line of ``sh`` blocks, every ``python`` and ``pycon`` block."""
    out: list[tuple[str, int, str]] = []
    lang, start, body = None, 0, []
    for number, line in enumerate((REPO / "README.md").read_text(encoding="utf-8").splitlines(), 1):
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
SCRATCH = "scratch"  # the one folder the README's commands write into (git-ignored)
RAN: list[int] = []  # README lines whose command ran in this session, for the last test


def without_nonogen(path: str) -> str:
    """PATH minus every folder holding a ``nonogen`` command, so only the README's own set-up can find it."""
    return os.pathsep.join(p for p in path.split(os.pathsep) if p and not (Path(p) / "nonogen").exists())


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> tuple[Path, dict]:
    """A folder with the shipped samples and a ``.venv`` that is this test's environment, ``nonogen`` off the PATH."""
    folder = tmp_path_factory.mktemp("readme")
    (folder / "samples").symlink_to(REPO / "samples")
    venv = Path(sys.prefix)
    if not (venv / "bin" / "activate").exists():
        pytest.skip(f"{venv} is not a virtual environment: the README's set-up makes one with `make`")
    (folder / ".venv").symlink_to(venv)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = without_nonogen(os.environ.get("PATH", ""))
    return folder, env


def test_readme_setup_puts_nonogen_on_the_path():
    """The set-up block says how to find ``nonogen``: a new user got "command not found" from the first example."""
    setup = [code for lang, _, code in BLOCKS if lang == "sh" and code.split("#")[0].strip() == ACTIVATE]
    assert setup, f"README.md has no `{ACTIVATE}` line in an sh block"


def test_the_readme_has_commands_to_run():
    runnable = [b for b in BLOCKS if not skip_reason(b[2])]
    assert len(runnable) >= 20 and any(lang == "pycon" for lang, _, _ in runnable)


@pytest.mark.parametrize("lang,line,code", BLOCKS, ids=[f"README.md:{line}" for _, line, _ in BLOCKS])
def test_readme_command_runs_as_written(scratch, lang, line, code):
    reason = skip_reason(code)
    if reason:
        pytest.skip(reason)
    folder, env = scratch
    if lang == "pycon":
        _run_doctest(folder, env, line, code)
        return
    argv = ([sys.executable, "-c", code] if lang == "python"
            else ["bash", "-o", "pipefail", "-c", f"{ACTIVATE} && {code}"])
    done = subprocess.run(argv, cwd=folder, env=env, capture_output=True, text=True, timeout=600,
                          stdin=subprocess.DEVNULL)
    assert done.returncode in (0, 1, 3), f"README.md:{line}: exit {done.returncode}\n{code}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr, f"README.md:{line}\n{done.stderr[-3000:]}"
    RAN.append(line)


def test_following_the_readme_writes_only_into_scratch(scratch):
    """Runs after every command above (pytest keeps the file's order): the folder holds nothing new but scratch/."""
    folder, _ = scratch
    commands = [line for lang, line, code in BLOCKS if lang != "pycon" and not skip_reason(code)]
    if sorted(RAN) != commands:
        pytest.skip("only meaningful after every README command ran in this session")
    made = sorted(p.name for p in folder.iterdir() if p.name not in ("samples", ".venv"))
    assert made == [SCRATCH], f"the README's commands wrote outside {SCRATCH}/: {made}"
    assert len(list((folder / SCRATCH).iterdir())) >= 20
    assert f"/{SCRATCH}/" in (REPO / ".gitignore").read_text().splitlines(), f"{SCRATCH}/ is not git-ignored"


DOCTEST = """
import doctest, sys
test = doctest.DocTestParser().get_doctest(sys.stdin.read(), {}, "README.md", "README.md", int(sys.argv[1]))
runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
runner.run(test)
sys.exit(9 if runner.failures else 0)
"""


def _run_doctest(folder: Path, env: dict, line: int, code: str) -> None:
    """A ``pycon`` block is a doctest: every output shown must be what the call prints (exit 9 otherwise)."""
    done = subprocess.run([sys.executable, "-c", DOCTEST, str(line)], cwd=folder, env=env, input=code,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"README.md:{line}: the example's output differs\n{done.stdout[-3000:]}{done.stderr[-2000:]}"
