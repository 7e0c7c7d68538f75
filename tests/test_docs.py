"""The documentation site builds, with warnings as errors, and what it shows is real: `make docs`, checked.

Built once per session into a scratch folder, the way `make docs` builds it (the gallery's examples run
again, from scratch). Then: every gallery example shows the pictures its code wrote; the command reference
holds every option of every command's parser (it is generated from them, so a flag added to the CLI and
missing here means the generation broke); the API reference documents the public functions; no page links
to a page, anchor or picture that is not there; and the README's links into the site point at pages that
exist. Run alone with ``pytest -m docs``.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

pytestmark = pytest.mark.docs

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
GENERATED = ["gallery", "_play", "examples/out", "sg_execution_times.rst"]
"""What a build writes into docs/ itself (sphinx-gallery generates its pages beside the sources)."""


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    pytest.importorskip("sphinx",
                        reason="the docs build needs the docs tools (pip install -e '.[dev]', as make test does)")
    for name in GENERATED:
        path = DOCS / name
        shutil.rmtree(path) if path.is_dir() else path.unlink(missing_ok=True)
    out = tmp_path_factory.mktemp("site")
    argv = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(DOCS), str(out)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=900, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, \
        f"the docs build failed (warnings are errors):\n{done.stdout[-3000:]}{done.stderr[-6000:]}"
    return out


class _Page(HTMLParser):
    """The links, pictures and element ids of one HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.images: list[str] = []
        self.loads: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attr = dict(attrs)
        if attr.get("id"):
            self.ids.add(attr["id"])
        if tag == "a" and attr.get("href"):
            self.links.append(attr["href"])
        if tag == "img" and attr.get("src"):
            self.images.append(attr["src"])
        if tag in ("script", "img", "iframe") and attr.get("src"):
            self.loads.append(attr["src"])
        if tag == "link" and attr.get("href") and "stylesheet" in (attr.get("rel") or ""):
            self.loads.append(attr["href"])


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def test_gallery_examples_show_the_pictures_their_code_wrote(site):
    from PIL import Image

    examples = sorted((site / "gallery").glob("plot_*.html"))
    assert len(examples) >= 12, [p.name for p in examples]
    for example in examples:
        shown = [src for src in _parse(example).images if "sphx_glr_" in src and "thumb" not in src]
        assert len(shown) >= 2, f"{example.name} shows {shown}"
        for src in shown:
            with Image.open(example.parent / unquote(src)) as picture:
                assert min(picture.size) >= 64 and len(picture.convert("L").getcolors(1 << 16) or [0, 0]) > 1, src
    assert len(list((site / "play").glob("*.html"))) >= 10, "the examples' playable pages are not published"


def test_command_reference_has_every_option_of_every_command(site):
    from nonogen.cli import COMMANDS, build_parser

    text = (site / "reference" / "cli.html").read_text(encoding="utf-8")
    for command in COMMANDS:
        parser = build_parser([command])
        subparsers = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
        stack = [subparsers[0].choices[command]]
        while stack:
            current = stack.pop()
            for action in current._actions:
                for option in action.option_strings:
                    assert option in text, f"nonogen {command}: {option} is not in the command reference"
                if action.__class__.__name__ == "_SubParsersAction":
                    stack.extend(action.choices.values())


def test_api_reference_documents_the_public_functions(site):
    ids = _parse(site / "reference" / "api.html").ids
    for name in ["load", "loads", "dump", "dumps", "verify", "verify_paths", "from_image", "from_mesh", "save",
                 "draw", "book", "Puzzle", "Puzzle3D", "Made", "ImageOptions"]:
        assert f"nonogen.{name}" in ids, f"nonogen.{name} is not documented"
    assert "nonogen.errors.NonogenError" in ids and "nonogen.errors.OptionError" in ids


def test_no_page_links_to_something_missing(site):
    pages = {path: _parse(path) for path in site.rglob("*.html") if "_static" not in path.parts}
    broken = []
    for path, page in pages.items():
        for target in page.links + page.images:
            parts = urlsplit(target)
            if parts.scheme or parts.netloc:  # another site: not ours to check offline
                continue
            file = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if not file.exists():
                broken.append(f"{path.relative_to(site)} -> {target}")
            elif parts.fragment and file.suffix == ".html" and file in pages and parts.fragment not in pages[file].ids:
                broken.append(f"{path.relative_to(site)} -> {target} (no such anchor)")
    assert not broken, "\n".join(broken[:30])


def test_pages_load_nothing_from_other_sites(site):
    """The site reads offline, like nonogen's own pages: no script, style or picture from a CDN."""
    remote = [f"{path.relative_to(site)}: {src}" for path in site.rglob("*.html")
              for src in _parse(path).loads if urlsplit(src).scheme or src.startswith("//")]
    assert not remote, "\n".join(remote[:20])


def test_readme_links_into_the_site_exist():
    """The README is the front page on GitHub: its relative links and pictures must be files of the repository."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", readme)
    local = [t for t in targets if not urlsplit(t).scheme]
    assert any(t.startswith("docs/") for t in local)
    missing = [t for t in local if not (REPO / unquote(urlsplit(t).path)).exists()]
    assert not missing, missing
