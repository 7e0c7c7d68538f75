"""The commands a page shows, read and run as the reader would; as a Sphinx extension, the pictures they make.

A page is README.md or a Markdown page under docs/. Its commands are the lines of its ``sh`` blocks (and its
``python`` and ``pycon`` blocks, whole), run in order in one folder per page that holds the shipped ``samples/``;
whatever they write goes into ``scratch/`` there. The conventions a page's author follows, stated once here:

- A line's trailing comment (``#`` after the command, outside quotes) says what it does, for the reader. When
  the line is meant to end with another exit code than 0, the comment says ``exit N`` (``# exit 1: two samples
  are unsolvable on purpose``).
- A line with a ``<placeholder>`` in its command is a template for the reader to fill in: not run.
- ``make ...`` and ``. .venv/bin/activate`` are the set-up (what runs the tests): not run; every other line runs
  after the activation.
- A server (``nonogen studio`` for a browser, ``dask scheduler``, ``dask worker``: they run until Ctrl-C) is not
  run; ``nonogen studio --help`` is. Neither are ``open``/``xdg-open`` lines: the file they open must exist once
  the lines before them ran.
- A line that reads the team's data (``../shared``) is not run where that folder is missing.
- A picture ``![...](scratch/...)`` on a page is a file that page's own commands write: the picture shown under
  a command is what the command makes. When Sphinx builds the site, :func:`setup` runs those pages' commands in
  ``docs/_build/commands/<page>/`` and the picture shows that file (on GitHub, where nothing runs, its alt text
  says what it shows).

tests/test_docs_commands.py runs every page's commands by these rules and checks that every file the page tells
the reader to open (``open `X```, a link, a picture) is there afterwards.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx

REPO = Path(__file__).resolve().parents[2]
SCRATCH = "scratch"
"""The one folder a page's commands write into (git-ignored at the top of the repository)."""
ACTIVATE = ". .venv/bin/activate"
SERVERS = (["nonogen", "studio"], ["dask", "scheduler"], ["dask", "worker"])
"""Commands that serve until stopped (the studio for a browser, a Dask cluster's parts): never run by a page."""
PLACEHOLDER = re.compile(r"<[A-Za-z][^<>]*>")
EXIT = re.compile(r"\bexit (\d+)\b")
PICTURE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)\)")
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|<img\s[^>]*src=\"([^\"]+)\"")
OPEN = re.compile(r"\bopen\b([^.;:]*(?:\.[^\s.][^.;:]*)*)", re.IGNORECASE)
"""The word "open" and the rest of its sentence (a dot inside a path such as `a/b.html` does not end it)."""
BACKTICKED = re.compile(r"`([^`\s]+)`")


def pages(repo: Path = REPO) -> list[str]:
    """README.md and every Markdown page of the site, as paths relative to the repository."""
    found = (p.relative_to(repo).as_posix() for p in (repo / "docs").rglob("*.md") if "_build" not in p.parts)
    return ["README.md", *sorted(found)]


@dataclass(frozen=True)
class Block:
    """One thing a page asks the reader to run: an ``sh`` line, or a whole ``python`` or ``pycon`` block."""

    lang: str
    line: int
    code: str

    @property
    def command(self) -> str:
        """An ``sh`` line without its trailing comment."""
        return split_comment(self.code)[0] if self.lang == "sh" else self.code

    @property
    def comment(self) -> str:
        return split_comment(self.code)[1] if self.lang == "sh" else ""

    @property
    def exit(self) -> int:
        """The exit code the line ends with: 0, or the ``exit N`` its comment states."""
        said = EXIT.search(self.comment)
        return int(said.group(1)) if said else 0

    def skip_reason(self, repo: Path = REPO) -> str:
        """Why the line is not run ("" when it is)."""
        words = self.command.split()
        if PLACEHOLDER.search(self.command):
            return "a template: <...> is for the reader to fill in"
        if words[:1] == ["make"] or self.command.strip() == ACTIVATE:
            return "the set-up that runs this test"
        if words[:1] in (["open"], ["xdg-open"]):
            return "opens a file in the reader's viewer (the file is checked to exist instead)"
        if words[:2] in SERVERS and "--help" not in words:
            return "starts a server, which runs until Ctrl-C"
        if "../shared" in self.command and not (repo.parent / "shared").is_dir():
            return "reads the team's shared data (../shared), which is not here"
        return ""


def split_comment(line: str) -> tuple[str, str]:
    """``(command, comment)`` of a shell line: the comment starts at a ``#`` after a blank, outside quotes."""
    quote = ""
    for i, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1:].strip()
    return line.rstrip(), ""


def blocks(page: str, repo: Path = REPO) -> list[Block]:
    """Every ``sh`` line (comment lines and blank lines left out) and every ``python`` and ``pycon`` block."""
    out: list[Block] = []
    lang: str | None = None
    start, body = 0, list[str]()
    for number, line in enumerate((repo / page).read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            if lang is None:
                lang, start, body = line[3:].strip(), number, []
                continue
            if lang in ("python", "pycon"):
                out.append(Block(lang, start + 1, "\n".join(body)))
            lang = None
        elif lang in ("sh", "bash"):
            if line.strip() and not line.lstrip().startswith("#"):
                out.append(Block("sh", number, line))
        elif lang is not None:
            body.append(line)
    return out


def prose(page: str, repo: Path = REPO) -> list[tuple[int, str]]:
    """``(line number, text)`` of the page outside code blocks."""
    out, fenced = [], False
    for number, line in enumerate((repo / page).read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            out.append((number, line))
    return out


def opened(page: str, repo: Path = REPO) -> list[tuple[int, str, str]]:
    """``(line, path, against)`` of every file the page tells the reader to open: its links and pictures to files
    (``against`` "page": relative to the page), and the paths in backticks after the word "open" and on
    ``open``/``xdg-open`` lines (``against`` "top": the folder the reader types commands in). Links to other
    sites and to anchors of the same page are not files."""
    found: list[tuple[int, str, str]] = []
    for number, text in prose(page, repo):
        for match in LINK.finditer(text):
            target = match.group(1) or match.group(2)
            if not re.match(r"[a-z][a-z0-9+.-]*:|#|//", target):
                found.append((number, target.split("#")[0].split("?")[0], "page"))
        for match in OPEN.finditer(text):
            paths = BACKTICKED.findall(match.group(1))
            found += [(number, path, "top") for path in paths if "/" in path or "." in path]
    for block in blocks(page, repo):
        words = block.command.split()
        if block.lang == "sh" and words[:1] in (["open"], ["xdg-open"]):
            found += [(block.line, word, "top") for word in words[1:] if not word.startswith("-")]
    return [(number, path, against) for number, path, against in found if path]


def pictures_made_here(page: str, repo: Path = REPO) -> list[str]:
    """The pictures of the page that its own commands make (``![...](scratch/...)``)."""
    return [target for _, text in prose(page, repo) for _, target in PICTURE.findall(text)
            if target.startswith(SCRATCH + "/")]


@dataclass(frozen=True)
class Ran:
    returncode: int
    stdout: str
    stderr: str


DOCTEST = """
import doctest, sys
test = doctest.DocTestParser().get_doctest(sys.stdin.read(), {}, sys.argv[2], sys.argv[2], int(sys.argv[1]))
runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
runner.run(test)
sys.exit(9 if runner.failures else 0)
"""
"""A ``pycon`` block runs as a doctest: every output it shows must be what the call prints (exit 9 otherwise)."""


def run_page(page: str, folder: Path, env: dict, *, activate: bool, repo: Path = REPO,
             read: list[Block] | None = None) -> dict[int, Ran]:
    """Run the page's commands in order in ``folder`` (which holds ``samples``): ``{line: result}``. With
    ``activate``, every ``sh`` line runs after the page's activation line (``folder`` then holds a ``.venv``).
    ``read`` is the page's blocks as already read (else the page is read now)."""
    out = {}
    for block in blocks(page, repo) if read is None else read:
        if block.skip_reason(repo):
            continue
        stdin = None
        if block.lang == "pycon":
            argv, stdin = [sys.executable, "-c", DOCTEST, str(block.line), page], block.code
        elif block.lang == "python":
            argv = [sys.executable, "-c", block.code]
        else:
            argv = ["bash", "-o", "pipefail", "-c", f"{ACTIVATE} && {block.code}" if activate else block.code]
        done = subprocess.run(argv, cwd=folder, env=env, input=stdin, capture_output=True, text=True, timeout=600,
                              stdin=None if stdin is not None else subprocess.DEVNULL)
        out[block.line] = Ran(done.returncode, done.stdout, done.stderr)
    return out


def failure(page: str, block: Block, ran: Ran) -> str:
    """What went wrong with one block's run ("" when it ended as the page says)."""
    if block.lang == "pycon" and ran.returncode:
        return f"{page}:{block.line}: the example's output differs\n{ran.stdout[-3000:]}{ran.stderr[-2000:]}"
    if ran.returncode != block.exit:
        said = f" (its comment says exit {block.exit})" if block.exit else ""
        return f"{page}:{block.line}: exit {ran.returncode}{said}\n{block.code}\n{ran.stderr[-3000:]}"
    if "Traceback" in ran.stderr:
        return f"{page}:{block.line}: a traceback\n{block.code}\n{ran.stderr[-3000:]}"
    return ""


# --- the Sphinx extension ------------------------------------------------------------------------------------

MADE = "_build/commands"
"""Where the build runs the pages' commands, under docs/ (git-ignored, never read as pages)."""


def _folder(srcdir: Path, docname: str) -> Path:
    return srcdir / MADE / docname.replace("/", "-")


def _run_for_pictures(app: Sphinx) -> None:
    """Run the commands of every page that shows pictures its commands make; fail the build when one fails."""
    from sphinx.errors import ExtensionError

    srcdir = Path(app.srcdir)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    for page in pages(REPO):
        if not page.startswith("docs/") or not pictures_made_here(page):
            continue
        folder = _folder(srcdir, page[len("docs/"):-len(".md")])
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        (folder / "samples").symlink_to(REPO / "samples")
        ran = run_page(page, folder, env, activate=False)
        problems = [failure(page, block, ran[block.line]) for block in blocks(page) if block.line in ran]
        problems = [p for p in problems if p]
        missing = [p for p in pictures_made_here(page) if not (folder / p).is_file()]
        if problems or missing:
            raise ExtensionError(f"{page}: its commands do not make what it shows: {missing}\n" + "\n".join(problems))


def _show_made_pictures(app: Sphinx, docname: str, source: list[str]) -> None:
    """``![...](scratch/x.png)`` shows the file the build's run of the page's commands wrote."""
    made = "/" + Path(MADE, _folder(Path(), docname).name).as_posix()
    source[0] = PICTURE.sub(lambda m: f"![{m.group(1)}]({made}/{m.group(2)})" if m.group(2).startswith(SCRATCH + "/")
                            else m.group(0), source[0])


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", _run_for_pictures)
    app.connect("source-read", _show_made_pictures)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
