"""Puzzle pages as other programs show them, to scan: Simon Tatham's Pattern, web pages in Chromium, colour styles.

Used by ``scripts/bench_scan.py`` and ``tests/test_scan_others.py``. Each maker draws a puzzle whose clues we
know and returns the picture's path, or raises :class:`Unavailable` when the program it needs is not installed
(Pattern and Xvfb: Debian's ``sgt-puzzles`` and ``xvfb``; Chromium for the web pages). The programs are only run,
never copied: Pattern is given a game ID (its clue description, columns then rows) and asked for a screenshot of
its window; the web pages are HTML written here in three common styles and one colour style.
"""
from __future__ import annotations

import html
import os
import shutil
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

import nonogen

PATTERN = ("/usr/games/sgt-pattern", "/usr/games/pattern", "/usr/bin/sgt-pattern")
CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
WEB_STYLES = ("boxes", "tight", "dark", "colour")


class Unavailable(RuntimeError):
    """The program a style needs is not installed (the reason is the message)."""


def pattern_binary() -> Optional[str]:
    """Simon Tatham's Pattern, when installed."""
    return next((p for p in PATTERN if os.access(p, os.X_OK)), None) or shutil.which("sgt-pattern")


def chromium_binary() -> Optional[str]:
    return next((p for p in CHROMIUM if os.access(p, os.X_OK)), None)


def _numbers(clue: tuple) -> list[int]:
    return [n for n, _ in clue]


def pattern_id(puzzle: nonogen.Puzzle) -> str:
    """Pattern's game ID of ``puzzle``: ``WxH:`` then every column's clue, then every row's, ``/`` between lines
    and ``.`` between numbers (an empty line is empty)."""
    lines = [".".join(map(str, _numbers(c))) for c in puzzle.cols + puzzle.rows]
    return f"{puzzle.width}x{puzzle.height}:" + "/".join(lines)


@contextmanager
def xvfb() -> Iterator[str]:
    """A virtual X display for the time of the block (its name, e.g. ``:91``); Unavailable without Xvfb."""
    binary = shutil.which("Xvfb")
    if binary is None:
        raise Unavailable("Xvfb is not installed (Debian: apt install xvfb)")
    for number in range(91, 120):
        if os.path.exists(f"/tmp/.X11-unix/X{number}") or os.path.exists(f"/tmp/.X{number}-lock"):
            continue
        proc = subprocess.Popen([binary, f":{number}", "-screen", "0", "2400x2000x24", "-nolisten", "tcp"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 20
            while not os.path.exists(f"/tmp/.X11-unix/X{number}"):  # the display is up when its socket is there
                if proc.poll() is not None or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            else:
                yield f":{number}"
                return
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    raise Unavailable("no X display could be started with Xvfb")


def pattern_screenshot(puzzle: nonogen.Puzzle, out: Path, display: str, tile: Optional[int] = None) -> Path:
    """Pattern's window showing ``puzzle`` unsolved, as a PNG (``tile``: its cell size, else Pattern's own)."""
    binary = pattern_binary()
    if binary is None:
        raise Unavailable("Simon Tatham's Pattern is not installed (Debian: apt install sgt-puzzles)")
    env = dict(os.environ, DISPLAY=display)
    if tile:
        env["PATTERN_TILESIZE"] = str(tile)
    done = subprocess.run([binary, "--screenshot", str(out), pattern_id(puzzle)], env=env, capture_output=True,
                          timeout=120, check=False)
    if done.returncode != 0 or not out.exists():
        raise RuntimeError(f"Pattern made no screenshot: {done.stderr.decode(errors='replace').strip()}")
    return out


STYLE_CSS = {
    "boxes": """body{background:#fff;font:14px Arial,'Liberation Sans',sans-serif;color:#222}
table{border-collapse:collapse}td{width:22px;height:22px;padding:0;text-align:center;border:1px solid #999}
td.c{background:#e8e8e8;border-color:#b4b4b4}td.k{border:none}""",
    "tight": """body{background:#fafafa;font:bold 12px Verdana,'DejaVu Sans',sans-serif;color:#000}
table{border-collapse:collapse}td{width:18px;height:18px;padding:0;border:1px solid #aaa}
td.r{border:none;text-align:right;padding-right:4px;white-space:nowrap;letter-spacing:1px}
td.t{border:none;vertical-align:bottom;text-align:center;line-height:14px;padding-bottom:3px}
td.k{border:none}td.b5{border-left:2px solid #000}td.d5{border-top:2px solid #000}
td.e{border-right:2px solid #000}td.f{border-bottom:2px solid #000}""",
    "dark": """body{background:#1e1f24;font:13px 'DejaVu Sans',sans-serif;color:#e6e6e6}
table{border-collapse:collapse}td{width:20px;height:20px;padding:0;border:1px solid #5a5d66;text-align:center}
td.c{border:none;background:#26282e}td.k{border:none}td.b5{border-left:2px solid #b8bcc8}
td.d5{border-top:2px solid #b8bcc8}td.e{border-right:2px solid #b8bcc8}td.f{border-bottom:2px solid #b8bcc8}""",
    "colour": """body{background:#fff;font:bold 14px Arial,'Liberation Sans',sans-serif}
table{border-collapse:collapse}td{width:22px;height:22px;padding:0;text-align:center;border:1px solid #a0a0a0}
td.c{border:none}td.k{border:none}td.b5{border-left:2px solid #333}td.d5{border-top:2px solid #333}""",
}


def _clue_cell(n: int, colour: Optional[str], style: str) -> str:
    tint = f' style="color:{colour}"' if colour and style == "colour" else ""
    return f'<td class="c"{tint}>{n}</td>'


def _grid_cell(r: int, c: int, puzzle: nonogen.Puzzle) -> str:
    cls = [k for k, on in (("b5", c % 5 == 0), ("d5", r % 5 == 0), ("e", c == puzzle.width - 1),
                           ("f", r == puzzle.height - 1)) if on]
    return f'<td class="{" ".join(cls)}"></td>' if cls else "<td></td>"


def web_page(puzzle: nonogen.Puzzle, style: str) -> str:
    """The puzzle as an HTML table in ``style``: clue cells in boxes, tight right-aligned clues, dark, colour."""
    rgb = [c.rgb for c in puzzle.palette]
    deep = max(len(c) for c in puzzle.cols) or 1
    wide = max(len(r) for r in puzzle.rows) or 1
    rows = []
    if style == "tight":  # one header row: each column's numbers stacked in one cell, bottom-aligned
        rows.append('<td class="k"></td>' + "".join(
            '<td class="t">' + ("<br>".join(map(str, _numbers(c))) or "0") + "</td>" for c in puzzle.cols))
    for k in range(deep if style != "tight" else 0):
        cells = ['<td class="k"></td>' * wide]
        for col in puzzle.cols:
            at = k - (deep - len(col))
            cells.append(_clue_cell(col[at][0], rgb[col[at][1]], style) if at >= 0 else '<td class="k"></td>')
        rows.append("".join(cells))
    for r, clue in enumerate(puzzle.rows):
        if style == "tight":
            cells = [f'<td class="r">{"&nbsp;".join(map(str, _numbers(clue))) or "0"}</td>']
        else:
            cells = ['<td class="k"></td>'] * (wide - len(clue))
            cells += [_clue_cell(n, rgb[c], style) for n, c in clue]
        cells += [_grid_cell(r, c, puzzle) for c in range(puzzle.width)]
        rows.append("".join(cells))
    body = "\n".join(f"<tr>{row}</tr>" for row in rows)
    return (f"<!doctype html><html><head><meta charset='utf-8'><style>{STYLE_CSS[style]}</style></head>"
            f"<body><h3>{html.escape(puzzle.meta.get('title', 'Nonogram'))}</h3><table>{body}</table></body></html>")


def web_screenshot(puzzle: nonogen.Puzzle, style: str, out: Path) -> Path:
    """The page of :func:`web_page` rendered by headless Chromium, a PNG of the whole window."""
    binary = chromium_binary()
    if binary is None:
        raise Unavailable("Chromium is not installed (Debian: apt install chromium)")
    cell = 24
    width = (puzzle.width + 2 * max(len(r) for r in puzzle.rows) + 6) * cell
    height = (puzzle.height + max(len(c) for c in puzzle.cols) + 6) * cell
    with tempfile.TemporaryDirectory(prefix="scan-web-") as folder:
        page = Path(folder) / "page.html"
        page.write_text(web_page(puzzle, style), encoding="utf-8")
        done = subprocess.run([binary, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                               "--force-device-scale-factor=1", f"--user-data-dir={folder}/profile",
                               f"--window-size={width},{height}", f"--screenshot={out}", page.as_uri()],
                              capture_output=True, timeout=120, check=False)
    if not out.exists():
        raise RuntimeError(f"Chromium made no screenshot: {done.stderr.decode(errors='replace')[-300:]}")
    return out
