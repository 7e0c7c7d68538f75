"""The pages of a puzzle web site: its index, the navigation bar of its play pages, its app manifest, service
worker and icons.

An index lists puzzles and levels in the order given (grade order, from
:mod:`nonogen.output.site`), grouped by grade. Its tiles never show an
answer: a 2D puzzle is its empty grid at its aspect and size, a level a plain
box of its proportions; once the player has started, a 2D tile shows the
player's own cells (read from the browser's storage), and a solved puzzle
tells its title. Filters by grade, kind and state, and a Continue button, are
``assets/site.js``. Like every page of nonogen, the index works from
``file://`` with no network, all inline, under a Content Security Policy that
loads nothing from elsewhere; over http(s) it may also register the site's
service worker and link its manifest, which is what makes the site
installable and playable offline.

This module only assembles text and bytes; :mod:`nonogen.output.site` decides what goes in and writes it.
"""
from __future__ import annotations

import html
import json
from dataclasses import dataclass
from itertools import groupby
from typing import Optional, Sequence
from urllib.parse import quote

from ..render import Picture, Rect, encode
from .html import _asset, _json_for_script, _script_text

__all__ = ["SiteEntry", "index_page", "nav_bar", "web_manifest", "service_worker", "icons", "page_key",
           "MANIFEST", "WORKER", "RECENT"]

MANIFEST, WORKER = "manifest.webmanifest", "sw.js"
RECENT = "nonogen-recent"
"""localStorage key of the puzzles opened last (their progress keys, latest first): what Continue picks from."""
THEME, PAPER, RED = "#2f6fd0", "#f7f6f2", "#d62828"

# Inline scripts and styles only; pictures from the site itself; over http(s) the manifest and the worker too.
_CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' file: data:; "
        "manifest-src 'self'; worker-src 'self'; connect-src 'none'; font-src 'none'; form-action 'none'; "
        "base-uri 'none'")

ICONS = {"icons/icon-192.png": (192, False), "icons/icon-512.png": (512, False),
         "icons/icon-maskable-512.png": (512, True), "icons/apple-touch-icon.png": (180, True)}
"""The icons a site ships: path -> (pixels a side, drawn for a mask: the picture kept inside the middle 60%)."""


@dataclass(frozen=True)
class SiteEntry:
    """One puzzle or level as the index shows it.

    ``href`` is relative to the index; ``key`` is the play page's progress key in localStorage (:func:`page_key`);
    ``title`` is told only once solved; ``palette`` (2D) the colours, background first, the player's cells are
    drawn in.
    """

    href: str
    key: str
    kind: str  # "2d" or "3d"
    label: str
    title: str
    size: tuple[int, ...]
    grade: Optional[int]
    grade_name: Optional[str] = None
    palette: tuple[str, ...] = ()


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _url(path: str) -> str:
    """A relative path as a URL: each part percent-encoded."""
    return "/".join(quote(part) for part in path.split("/"))


def page_key(page: str) -> str:
    """The progress key of a play page of :mod:`nonogen.export.html`, as its script reads it from the page."""
    opening = '<script type="application/json" id="puzzle">'
    start = page.index(opening) + len(opening)
    return str(json.loads(page[start:page.index("</script>", start)])["key"])


def nav_bar(*, index: str, label: str, next_page: Optional[str] = None, next_label: str = "") -> str:
    """The bar a play page of a site ends with (shown on top): back to the index, where it is, and on to the next.

    Put last in the page, so that one Tab from page load still reaches the
    grid first; its script keeps the page's key at the front of the
    :data:`RECENT` list, for the index's Continue button.
    """
    after = (f'<a id="nav-next" rel="next" href="{_e(_url(next_page))}">{_e(next_label or "Next")} &rsaquo;</a>'
             if next_page else '<span id="nav-next" class="last">the last one</span>')
    return (f'<nav class="site-nav" aria-label="puzzles" data-recent="{RECENT}">'
            f'<a id="nav-index" href="{_e(_url(index))}">&lsaquo; '
            f'All puzzles</a><span class="here">{_e(label)}</span>{after}</nav>\n'
            f"<style>\n{_asset('site-nav.css')}</style>\n"
            f"<script>\n{_script_text(_asset('site-nav.js'))}</script>\n")


def _grid(entry: SiteEntry) -> str:
    """A 2D tile's picture: the empty grid at the puzzle's aspect (the player's cells are drawn over it later)."""
    w, h = entry.size[:2]
    width = 100 if w >= h else round(100 * w / h, 1)
    return (f'<span class="board" style="--w:{w};--h:{h};width:{width}%">'
            f'<canvas class="cells" width="{w}" height="{h}" hidden></canvas></span>')


def _box(entry: SiteEntry) -> str:
    """A level's tile picture: a plain box of its proportions in oblique view (nothing of the model in it)."""
    x, y, z = entry.size
    side = max(x, y, z)
    dx, dy = z / side * 0.45, z / side * 0.3  # the depth goes up and to the right
    w, h = x / side, y / side
    top = f"0,{dy:.3f} {dx:.3f},0 {w + dx:.3f},0 {w:.3f},{dy:.3f}"
    right = f"{w:.3f},{dy:.3f} {w + dx:.3f},0 {w + dx:.3f},{h:.3f} {w:.3f},{h + dy:.3f}"
    view = f"-0.04 -0.04 {w + dx + 0.08:.3f} {h + dy + 0.08:.3f}"
    return (f'<svg class="box" viewBox="{view}" aria-hidden="true"><polygon class="top" points="{top}"/>'
            f'<polygon class="side" points="{right}"/><rect class="front" x="0" y="{dy:.3f}" width="{w:.3f}" '
            f'height="{h:.3f}"/></svg>')


def _tile(k: int, entry: SiteEntry) -> str:
    size = "×".join(map(str, entry.size))
    picture = _grid(entry) if entry.kind == "2d" else _box(entry)
    kind = "puzzle" if entry.kind == "2d" else "Picross 3D level"
    return (f'<li class="tile" data-index="{k}" data-kind="{entry.kind}" data-grade="{_e(entry.grade or "")}">'
            f'<a href="{_e(_url(entry.href))}" aria-label="{_e(entry.label)}, {kind}, {size}">'
            f'<span class="thumb">{picture}<span class="badge"></span></span>'
            f'<span class="label">{_e(entry.label)}</span><span class="told"></span>'
            f'<span class="meta">{size}</span></a></li>')


def _sections(entries: Sequence[SiteEntry]) -> str:
    out, k = [], 0
    for grade, group in groupby(entries, key=lambda e: e.grade):
        items = list(group)
        name = items[0].grade_name
        heading = "No grade" if grade is None else f"Grade {grade}" + (f" <small>{_e(name)}</small>" if name else "")
        tiles = "".join(_tile(k + i, e) for i, e in enumerate(items))
        out.append(f'<section class="grade" data-grade="{_e(grade or "")}"><h2>{heading}</h2>'
                   f'<ol class="tiles">{tiles}</ol></section>\n')
        k += len(items)
    return "".join(out)


def _select(name: str, label: str, options: Sequence[tuple[str, str]]) -> str:
    choices = "".join(f'<option value="{_e(v)}">{_e(text)}</option>' for v, text in options)
    return f'<label>{label} <select id="{name}">{choices}</select></label>'


def _filters(entries: Sequence[SiteEntry]) -> str:
    grades = sorted({e.grade for e in entries if e.grade is not None})
    grade_options = [("", "all"), *((str(g), str(g)) for g in grades)]
    if any(e.grade is None for e in entries):
        grade_options.append(("none", "no grade"))
    kinds = {e.kind for e in entries}
    kind = _select("f-kind", "Kind", [("", "all"), ("2d", "2D"), ("3d", "3D")]) if len(kinds) > 1 else ""
    states = [("", "all"), ("todo", "to solve"), ("started", "started"), ("solved", "solved")]
    state = _select("f-state", "Show", states)
    return (f'<div class="filters" role="group" aria-label="filter">{_select("f-grade", "Grade", grade_options)}'
            f'{kind}{state}<span id="shown" aria-live="polite"></span></div>\n')


def index_page(entries: Sequence[SiteEntry], *, title: str, installable: bool = True) -> str:
    """The index: a heading with the tally and Continue, the filters, then one tile per entry, by grade.

    ``installable`` links the site's icons, and lets the script link the
    :data:`MANIFEST` and register the :data:`WORKER` where the browser allows
    it (over http or https, never from ``file://``); a level pack's index
    is not.
    """
    data = {"entries": [{"key": e.key, "kind": e.kind, "title": e.title, "size": list(e.size),
                         "palette": list(e.palette), "href": _url(e.href)} for e in entries],
            "install": installable, "manifest": MANIFEST, "worker": WORKER, "recent": RECENT}
    icon = ('<link rel="icon" type="image/png" href="icons/icon-192.png">\n'
            '<link rel="apple-touch-icon" href="icons/apple-touch-icon.png">\n' if installable
            else '<link rel="icon" href="data:,">\n')
    count = {kind: sum(e.kind == kind for e in entries) for kind in ("2d", "3d")}
    what = [f"{n} {noun}{'s' if n != 1 else ''}" for n, noun in ((count["2d"], "puzzle"), (count["3d"], "3D level"))
            if n]
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta name="theme-color" content="{THEME}">\n{icon}'
        f"<title>{_e(title)}</title>\n<style>\n{_asset('site.css')}</style>\n</head>\n<body>\n"
        f'<header class="top"><h1>{_e(title)}</h1><p class="tally" id="tally">{" and ".join(what)}</p>'
        '<a id="continue" class="continue" href="#" hidden>Continue</a></header>\n'
        f"{_filters(entries)}<main id=\"puzzles\">\n{_sections(entries)}</main>\n"
        '<p class="help">Progress is kept in this browser. Over the web the site can be installed as an app and '
        "played offline.</p>\n"
        f'<script type="application/json" id="site">{_json_for_script(data)}</script>\n'
        f"<script>\n{_script_text(_asset('site.js'))}</script>\n</body>\n</html>\n"
    )


def web_manifest(title: str) -> str:
    """The web app manifest: the name, colours and icons a phone installs the site with; every URL relative."""
    manifest = {
        "name": title, "short_name": title if len(title) <= 15 else "Puzzles",
        "description": "Nonograms and Picross 3D levels to play, offline too",
        "start_url": "index.html", "scope": "./", "display": "standalone",
        "background_color": PAPER, "theme_color": THEME,
        "icons": [{"src": path, "sizes": f"{px}x{px}", "type": "image/png",
                   "purpose": "maskable" if masked else "any"}
                  for path, (px, masked) in ICONS.items() if "apple" not in path],
    }
    return json.dumps(manifest, indent=1, ensure_ascii=False) + "\n"


def service_worker(files: Sequence[str], version: str) -> str:
    """The service worker: keeps ``files`` (relative to it) in a cache named by ``version``, and answers from it.

    A new build of the site has another version, so the browser installs the new worker, which drops the old cache.
    """
    code = _asset("site-sw.js")
    for name, value in (("VERSION", version), ("FILES", list(files))):
        code = code.replace(f"/*{name}*/null", json.dumps(value, ensure_ascii=False), 1)
    return code


# The icon: a 5x5 board with a heart filled in, on the theme colour.
_HEART = (".#.#.", "#####", "#####", ".###.", "..#..")


def _icon(px: int, masked: bool) -> bytes:
    """An icon ``px`` pixels a side; ``masked``: the board within the middle 60%, safe from any launcher's mask."""
    unit = 100.0
    board = 56.0 if masked else 74.0
    cell, at = board / 5, (unit - board) / 2
    shapes = [Rect(0, 0, unit, unit, THEME), Rect(at, at, board, board, "#ffffff")]
    for r, row in enumerate(_HEART):
        shapes += [Rect(at + c * cell, at + r * cell, cell, cell, RED) for c, ch in enumerate(row) if ch == "#"]
    line = board / 90
    shapes += [Rect(at + k * cell - line / 2, at, line, board, "#9aa6b8") for k in range(1, 5)]
    shapes += [Rect(at, at + k * cell - line / 2, board, line, "#9aa6b8") for k in range(1, 5)]
    shapes.append(Rect(at, at, board, board, None, "#1d2b45", line * 2))
    return encode(Picture(unit, unit, shapes), ".png", dpi=96 * px / unit)


def icons() -> dict[str, bytes]:
    """Every icon of :data:`ICONS`, as PNG bytes by path."""
    return {path: _icon(px, masked) for path, (px, masked) in ICONS.items()}
