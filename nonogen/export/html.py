"""Playable, self-contained HTML pages for 2D nonograms and Picross 3D levels.

Each page is one file that works offline from a ``file://`` URL: its CSS and
JavaScript are inlined, the puzzle travels as a JSON blob in a
``<script type="application/json" id="puzzle">`` tag, and a Content Security
Policy forbids every network request, so a page can be mailed or put on a
USB stick and played anywhere. The game logic lives in ``assets/`` (each
page's scripts are listed in ``_SCRIPTS_2D`` and ``_SCRIPTS_3D``); this module
only assembles the page.

three.js ships as an ES module only, and an inline module cannot ``import``
another inline script. The 3D page therefore carries the vendored
``three.module.min.js`` as a base64 ``data:`` URL in an import map, so the
page script's ``import * as THREE from "three"`` resolves without a fetch.
"""
from __future__ import annotations

import base64
import functools
import hashlib
import html
import json
import re
from collections.abc import Mapping
from importlib import resources
from pathlib import PurePath
from typing import Any, Optional

import numpy as np

from ..model import Puzzle
from ..model3d import AXES, Puzzle3D
from ..colorspace import readable_names

__all__ = ["page_2d", "page_3d", "model_name", "STRIKE_LIMIT"]

STRIKE_LIMIT = 5  # strikes that end a try on the 3D page

# Solved cubes without a colour array: a warm orange that reads well on the page's light background.
DEFAULT_CUBE_COLOR = "#e8913a"

# Everything a page may load must come from the page itself (inline) or from data:/blob: URLs.
_CSP = (
    "default-src 'none'; script-src 'unsafe-inline' data: blob:; style-src 'unsafe-inline'; "
    "img-src data: blob:; connect-src 'none'; font-src 'none'; form-action 'none'; base-uri 'none'"
)


def page_2d(puzzle: Puzzle, solution: np.ndarray, title: Optional[str] = None, *, nav: str = "") -> str:
    """One self-contained HTML page that lets a person play ``puzzle`` in a browser.

    ``solution`` (``height x width`` colour indices) goes into the page so that
    "Check" can point at wrong cells and "Reveal" can show the picture; "Solved"
    itself only asks whether every line meets its clue, so any valid grid wins.
    ``nav`` is HTML put last in the body: a site's navigation bar (:func:`nonogen.export.site.nav_bar`).
    """
    grid = np.asarray(solution, dtype=np.uint8)
    if grid.shape != (puzzle.height, puzzle.width):
        raise ValueError(f"solution has shape {grid.shape}, expected {(puzzle.height, puzzle.width)}")
    clues = {
        "width": puzzle.width,
        "height": puzzle.height,
        "palette": [{"name": name, "rgb": c.rgb}
                    for c, name in zip(puzzle.palette, readable_names(puzzle.palette), strict=True)],
        "rows": [[list(item) for item in line] for line in puzzle.rows],
        "cols": [[list(item) for item in line] for line in puzzle.cols],
        "givens": [list(g) for g in puzzle.givens],
    }
    title = title or puzzle.meta.get("title") or f"Nonogram {puzzle.width}x{puzzle.height}"
    data = {**clues, "title": title, "key": "nonogen-2d-" + _digest(clues), "solution": grid.tolist()}
    return _page(title, data, body=_BODY_2D, script=_scripts(_SCRIPTS_2D), module=False, nav=nav)


def page_3d(
    puzzle: Puzzle3D,
    solution: np.ndarray,
    colors: Optional[np.ndarray] = None,
    title: Optional[str] = None,
    strike_limit: int = STRIKE_LIMIT,
    *,
    nav: str = "",
) -> str:
    """One self-contained HTML page that lets a person play the Picross 3D level ``puzzle``.

    ``solution`` is the boolean box ``cells[x, y, z]`` (needed to count strikes,
    as in the game); ``colors`` (``X x Y x Z x 3`` RGB) paints the finished
    model, one colour for all cubes when absent. As in the game, the model's
    name (:func:`model_name`) is told only once the level is solved, so the
    heading is ``title`` or the level's size; ``strike_limit`` strikes end a try. ``nav`` as for :func:`page_2d`.
    """
    cells = np.asarray(solution, dtype=bool)
    if cells.shape != puzzle.size:
        raise ValueError(f"solution has shape {cells.shape}, expected {puzzle.size}")
    clues = {
        "size": list(puzzle.size),
        "clues": {axis: [[None if c is None else list(c) for c in row] for row in puzzle.clues[axis]] for axis in AXES},
        "givens": [list(g) for g in puzzle.givens],
    }
    title = title or "Picross 3D {}x{}x{}".format(*puzzle.size)
    data = {
        **clues,
        "title": title,
        "name": model_name(puzzle.meta),
        "strike_limit": strike_limit,
        "key": "nonogen-3d-" + _digest(clues),
        "solution": cells.astype(np.uint8).tolist(),
        "colors": _cube_colors(cells, colors),
    }
    head = '<script type="importmap">' + json.dumps({"imports": {"three": _three_data_url()}}) + "</script>\n"
    return _page(title, data, body=_BODY_3D, script=_scripts(_SCRIPTS_3D), module=True, head=head, nav=nav)


def model_name(meta: Mapping[str, str]) -> Optional[str]:
    """What the model is, for the solved page: the level's title, or its model file's name when the title
    is only the size nonogen gave it ("Level 10x10x10").

    >>> model_name({"title": "Level 8x8x8", "source": "red_mushroom.ply"}), model_name({"title": "Pyramid"})
    ('Red mushroom', 'Pyramid')
    """
    title = str(meta.get("title", "")).strip()
    if title and not re.fullmatch(r"Level \d+x\d+x\d+", title):
        return title
    stem = PurePath(str(meta.get("source", ""))).stem.replace("_", " ").replace("-", " ").strip()
    return stem[:1].upper() + stem[1:] if stem else None


def _cube_colors(cells: np.ndarray, colors: Optional[np.ndarray]) -> list[Any]:
    """``#rrggbb`` per solution cube (``None`` elsewhere), nested ``[x][y][z]`` like the solution."""
    if colors is None:
        rgb = np.empty(cells.shape, dtype=object)
        rgb[...] = DEFAULT_CUBE_COLOR
    else:
        colors = np.asarray(colors)
        if colors.shape != cells.shape + (3,):
            raise ValueError(f"colors has shape {colors.shape}, expected {cells.shape + (3,)}")
        codes = colors.astype(np.uint32)
        packed = (codes[..., 0] << 16) | (codes[..., 1] << 8) | codes[..., 2]
        rgb = np.vectorize(lambda v: f"#{int(v):06x}", otypes=[object])(packed)
    rgb[~cells] = None
    return rgb.tolist()


def _digest(clues: dict[str, Any]) -> str:
    """A short hash of what defines the puzzle: progress saved for one puzzle never loads into another."""
    text = json.dumps(clues, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _page(title: str, data: dict[str, Any], body: str, script: str, module: bool, head: str = "",
          nav: str = "") -> str:
    """The HTML skeleton shared by both pages; ``nav`` (trusted HTML, its text escaped by its maker) ends the body."""
    kind = "module" if module else "text/javascript"
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<link rel="icon" href="data:,">\n'
        f"<title>{html.escape(title)}</title>\n"
        f"<style>\n{_asset('play.css')}</style>\n{head}</head>\n<body>\n"
        f"<h1>{html.escape(title)}</h1>\n{body}"
        f'<script type="application/json" id="puzzle">{_json_for_script(data)}</script>\n'
        f'<script type="{kind}">\n{_script_text(script)}</script>\n{nav}'
        "</body>\n</html>\n"
    )


def _json_for_script(data: dict[str, Any]) -> str:
    """JSON that cannot end its ``<script>`` element early: ``<``, ``>`` and ``&`` become ``\\u`` escapes.

    >>> _json_for_script({"t": "</script><!--"})
    '{"t":"\\\\u003c/script\\\\u003e\\\\u003c!--"}'
    """
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _script_text(code: str) -> str:
    """Our own script, checked rather than rewritten: inside ``<script>`` the text ``</script`` ends it."""
    if "</script" in code.lower() or "<!--" in code:
        raise ValueError("inline script contains '</script' or '<!--'")
    return code


# Each page's game, as files of assets/ joined in this order into its one inline script: play.js holds what
# both games share (and sets window.nonogenPage, which the later files read), so it comes first. The 2D
# files are classic scripts that each keep to their own closure; the 3D files are one ES module, where
# play3d_keys.js and play3d.js use the top-level names of the files before them (play3d_keys.js only inside
# functions, which play3d.js calls once it has set up the game). keymap.js, a classic script like play.js, sets
# window.nonogenKeymap for both pages.
_SCRIPTS_2D = (
    "play.js", "keymap.js", "linesolve.js", "play2d_board.js", "play2d_assists.js", "play2d_touch.js", "play2d.js",
)
_SCRIPTS_3D = ("play.js", "keymap.js", "play3d_view.js", "linesolve3d.js", "play3d_keys.js", "play3d.js")


def _scripts(names: tuple[str, ...]) -> str:
    return "".join(_asset(name) for name in names)


@functools.lru_cache(maxsize=None)
def _asset(name: str) -> str:
    return resources.files(__package__).joinpath("assets").joinpath(name).read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def _three_data_url() -> str:
    """The vendored three.js module as a ``data:`` URL: importable from an inline module with no fetch."""
    vendor = resources.files(__package__).joinpath("assets").joinpath("vendor")
    raw = vendor.joinpath("three.module.min.js").read_bytes()
    return "data:text/javascript;base64," + base64.b64encode(raw).decode("ascii")


# The grid (or the model) comes first in the page, so one Tab from page load reaches it; CSS (.game) shows the
# toolbar and the status line above it all the same. Every key the game reads is in the page's list of keys.
_BODY_2D = """\
<main class="game game-2d">
<div class="board-wrap"><table id="board" class="board" aria-describedby="keys"></table></div>
<div class="toolbar" id="toolbar">
  <div id="palette" class="palette" role="radiogroup" aria-label="colour"></div>
  <button id="mark-mode" type="button" aria-pressed="false" title="touch: paint dots (empty cells)">&#x2715; mark empty</button>
  <button id="undo" type="button" title="Ctrl+Z">Undo</button>
  <button id="redo" type="button" title="Ctrl+Y">Redo</button>
  <button id="zoom" type="button" aria-pressed="false" hidden>&#x2296; Whole grid</button>
  <button id="hint" type="button" title="H: the line that line logic advances next">Hint</button>
  <button id="assists-toggle" type="button" aria-expanded="false" aria-controls="assists">Assists</button>
  <button id="check" type="button">Check</button>
  <button id="reveal" type="button">Reveal</button>
  <button id="reset" type="button">Reset</button>
  <span class="timer" title="time played, paused while the page is hidden">time <b id="timer">0:00</b></span>
</div>
<div class="assists" id="assists" role="group" aria-label="assists" hidden>
  <label><input type="checkbox" role="switch" id="assist-mistakes"><span>Show mistakes<small>flags a wrong cell as you set it</small></span></label>
  <label><input type="checkbox" role="switch" id="assist-obvious"><span>Mark obvious<small>a blue ring where a row or column alone proves a cell empty</small></span></label>
  <label><input type="checkbox" role="switch" id="assist-progress"><span>Line progress<small>a blue clue: line logic tells more in that line</small></span></label>
  <label><input type="checkbox" role="switch" id="assist-longpress"><span>Long press<small>a finger held on a cell marks it empty (✕ mode: fills)</small></span></label>
</div>
<p id="status" class="status" role="status" aria-live="polite"></p>
</main>
<section class="help">
<p>Click or drag to fill; right-click or the &#x2715; mode marks a cell empty. Click a filled cell again to clear
it. Click a clue number to cross it off. Progress is kept in this browser.</p>
<p>On a phone: tap or drag to fill; hold a finger still on a cell to mark it empty. Two fingers pinch and pan the
grid (one finger on the clues pans too); Whole grid shows it all, Zoom in brings the cells back to finger size.</p>
<details class="keys-help" id="keys-help" open>
<summary>Keys</summary>
<dl class="keys" id="keys">
<dt><kbd>Tab</kbd></dt><dd>to the grid (the first stop), then the buttons</dd>
<dt><kbd>&larr;</kbd> <kbd>&uarr;</kbd> <kbd>&rarr;</kbd> <kbd>&darr;</kbd> <kbd data-action="left" hidden></kbd>
<kbd data-action="up" hidden></kbd> <kbd data-action="right" hidden></kbd> <kbd data-action="down" hidden></kbd></dt>
<dd>move the cursor on the grid</dd>
<dt><kbd>Space</kbd> <kbd>Enter</kbd> <kbd data-action="fill" hidden></kbd></dt><dd>fill the cell with the chosen colour (again: clear it)</dd>
<dt><kbd data-action="mark">X</kbd> <kbd>.</kbd></dt><dd>mark the cell empty (off the grid, the same key switches the &#x2715; mode)</dd>
<dt><kbd>Delete</kbd> <kbd>Backspace</kbd> <kbd data-action="clear" hidden></kbd></dt><dd>clear the cell</dd>
<dt><kbd>1</kbd>&ndash;<kbd>9</kbd></dt><dd>pick a colour (colour puzzles)</dd>
<dt><kbd data-action="hint">H</kbd></dt><dd>hint: the line that line logic advances next</dd>
<dt><kbd>Ctrl</kbd>+<kbd>Z</kbd></dt><dd>undo</dd>
<dt><kbd>Ctrl</kbd>+<kbd>Y</kbd> <kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>Z</kbd></dt><dd>redo</dd>
</dl>
<details class="keymap" id="keymap">
<summary>Change keys</summary>
<p>Give the actions letter keys of your own, or pick a layout. The keys listed above always work besides; the
choice is kept in this browser.</p>
<div class="key-layouts" id="key-layouts" role="group" aria-label="layouts">
  <button type="button" data-layout="default">Default</button>
  <button type="button" data-layout="qwerty">QWERTY: W A S D move</button>
  <button type="button" data-layout="azerty">AZERTY: Z Q S D move</button>
</div>
<ul class="key-list" id="key-list"></ul>
<p class="key-note" id="key-note" role="status"></p>
</details>
</details>
</section>
"""  # noqa: E501 - the page's own lines: wrapping them would change every page

_BODY_3D = """\
<main class="game game-3d">
<div class="stage" id="stage"><canvas id="view" tabindex="0" role="application" aria-describedby="keys"
  aria-label="the model: arrows and Page Up/Down move the cube cursor, Space breaks or paints"></canvas></div>
<p id="cursor-say" class="sr-only" aria-live="polite" aria-atomic="true"></p>
<div class="toolbar" id="toolbar">
  <div class="modes" role="radiogroup" aria-label="mode">
    <button id="mode-break" type="button" class="mode" data-mode="break" aria-pressed="true">Break</button>
    <button id="mode-paint" type="button" class="mode" data-mode="paint" aria-pressed="false">Paint</button>
  </div>
  <button id="undo" type="button" title="Ctrl+Z">Undo</button>
  <button id="hint" type="button" title="H: a cube that line logic settles next">Hint</button>
  <button id="check" type="button">Check</button>
  <button id="reset-view" type="button">Reset view</button>
  <button id="reset" type="button">Reset</button>
  <span class="strikes">Strikes: <b id="strikes">0</b></span>
</div>
<div class="slicers" id="slicers" role="group" aria-label="hide layers">
  <div class="slicer"><label for="slice-x">x from right</label>
    <button type="button" class="step" data-axis="x" data-step="-1" aria-label="x: show a layer again">&minus;</button>
    <input type="range" id="slice-x" data-axis="x" min="0" value="0" step="1">
    <button type="button" class="step" data-axis="x" data-step="1" aria-label="x: hide one more layer from the right">+</button></div>
  <div class="slicer"><label for="slice-y">y from top</label>
    <button type="button" class="step" data-axis="y" data-step="-1" aria-label="y: show a layer again">&minus;</button>
    <input type="range" id="slice-y" data-axis="y" min="0" value="0" step="1">
    <button type="button" class="step" data-axis="y" data-step="1" aria-label="y: hide one more layer from the top">+</button></div>
  <div class="slicer"><label for="slice-z">z from front</label>
    <button type="button" class="step" data-axis="z" data-step="-1" aria-label="z: show a layer again">&minus;</button>
    <input type="range" id="slice-z" data-axis="z" min="0" value="0" step="1">
    <button type="button" class="step" data-axis="z" data-step="1" aria-label="z: hide one more layer from the front">+</button></div>
</div>
<p id="status" class="status" role="status" aria-live="polite"></p>
</main>
<section class="help">
<p>Drag to turn, wheel or pinch to zoom. Break: click or tap a cube that is not part of the shape.
Paint: click or tap to mark a cube you want to keep (painted cubes cannot be broken); right-click paints in any mode.
The sliders and their &minus; and + buttons hide outer layers so inner cubes can be reached. Undo takes back breaks
and paints, not strikes; at the strike limit the try is over. Solve it to learn what the model is.</p>
<dl class="keys" id="keys">
<dt><kbd>Tab</kbd></dt><dd>to the model (the first stop), then the buttons; a blue frame shows the cursor cube</dd>
<dt><kbd>&larr;</kbd> <kbd>&rarr;</kbd> <kbd>&uarr;</kbd> <kbd>&darr;</kbd> <kbd data-action="left" hidden></kbd>
<kbd data-action="right" hidden></kbd> <kbd data-action="up" hidden></kbd> <kbd data-action="down" hidden></kbd></dt>
<dd>move the cursor left, right, up, down</dd>
<dt><kbd>Page&nbsp;Down</kbd> <kbd>Page&nbsp;Up</kbd> (<kbd>Shift</kbd>+<kbd>&darr;</kbd> <kbd>&uarr;</kbd>)
<kbd data-action="deeper" hidden></kbd> <kbd data-action="front" hidden></kbd></dt>
<dd>one layer deeper, or back towards the front; the layers in front of the cursor are sliced away</dd>
<dt><kbd>Space</kbd> <kbd>Enter</kbd></dt><dd>what a click does: break or paint, by the mode</dd>
<dt><kbd data-action="break">X</kbd> <kbd>Delete</kbd> <kbd>Backspace</kbd></dt><dd>break the cube</dd>
<dt><kbd data-action="paint">F</kbd></dt><dd>paint the cube, or unpaint it (what a right-click does)</dd>
<dt><kbd data-action="breakMode">B</kbd> <kbd data-action="paintMode">P</kbd></dt><dd>Break mode, Paint mode</dd>
<dt><kbd>Shift</kbd>+<kbd>&larr;</kbd> <kbd>&rarr;</kbd> <kbd data-action="turnLeft" hidden></kbd>
<kbd data-action="turnRight" hidden></kbd></dt><dd>turn the model</dd>
<dt><kbd data-action="hint">H</kbd></dt><dd>hint: a cube that line logic settles next, shown yellow</dd>
<dt><kbd>Ctrl</kbd>+<kbd>Z</kbd></dt><dd>undo</dd>
</dl>
<details class="keymap" id="keymap">
<summary>Change keys</summary>
<p>Give the letter keys other jobs, or pick a layout. The keys listed above always work besides; the choice is kept
in this browser.</p>
<div class="key-layouts" id="key-layouts" role="group" aria-label="layouts">
  <button type="button" data-layout="default">Default</button>
  <button type="button" data-layout="qwerty">QWERTY: W A S D move, Q E layers</button>
  <button type="button" data-layout="azerty">AZERTY: Z Q S D move, A E layers</button>
</div>
<ul class="key-list" id="key-list"></ul>
<p class="key-note" id="key-note" role="status"></p>
</details>
</section>
"""  # noqa: E501 - the page's own lines: wrapping them would change every page
