"""The 2D play page on a phone, in headless Chromium's mobile emulation (412x915 and 360x740, touch on).

Fingers are real touch events sent through the DevTools protocol (``Input.dispatchTouchEvent``), which
Chromium turns into the pointer events a phone's browser sends; nothing calls the game's own functions to
play. The tests wait for conditions, never for a time: a long press is a finger held down until the page
shows its mark. Screenshots go to ``tests/artifacts/phone-*.png``. The network check and the reload that
waits for saved progress are test_play_browser.py's.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest

from nonogen.clues import puzzle_from_grid
from nonogen.export.html import page_2d
from nonogen.solve.line import LineAutomaton, solve_line

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium missing")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from test_play_browser import (  # noqa: E402
    ARTIFACTS, _only_local, _until, reload,
)

from browsers import chromium  # noqa: E402

PHONES = {"412": (412, 915), "360": (360, 740)}


def _random_puzzle(size: int, seed: int, density: float = 0.55):
    grid = (np.random.default_rng(seed).random((size, size)) < density).astype(np.uint8)
    return puzzle_from_grid(grid), grid


# --- a phone -------------------------------------------------------------------------------------------------


@pytest.fixture
def phone412() -> Iterator:
    """A 412-pixel phone of its own for the test (nothing stored from before: see tests/browsers.py)."""
    yield from _phone("412")


@pytest.fixture
def phone360() -> Iterator:
    yield from _phone("360")


def _phone(name: str) -> Iterator:
    """An emulated phone; after the test, every URL it requested must be local (file:, data:, blob:)."""
    width, height = PHONES[name]
    with chromium(phone={"width": width, "height": height, "pixelRatio": 2.625, "touch": True}) as driver:
        yield driver
        _only_local(driver)


def _open(driver, tmp_path: Path, name: str, text: str, keep: bool = False) -> None:
    """Open a page from a file with the long press off (``keep``: with the settings the last page kept instead).

    The long press starts switched off (the player's switch): a tap is then a tap however long the machine takes
    between the finger's two events; :func:`_long_press` turns it on for its own press only."""
    path = tmp_path / f"{name}.html"
    path.write_text(text, encoding="utf-8")
    driver.get(path.as_uri())
    if not keep:
        driver.execute_script("localStorage.setItem('nonogen-assists-2d', arguments[0])",
                              json.dumps({"version": 1, "longpress": False}))
    reload(driver)


def _shot(driver, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"phone-{name}.png"))


def _state(driver) -> dict:
    return driver.execute_script("return nonogenPlay.state()")


def _cells(driver) -> np.ndarray:
    return np.array(_state(driver)["cells"])


def _status(driver) -> str:
    return driver.find_element(By.ID, "status").text


def _no_sideways_scroll(driver) -> None:
    width, inner = driver.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
    assert width <= inner, f"the page scrolls sideways: {width} px wide on a {inner} px screen"


# --- fingers -------------------------------------------------------------------------------------------------


def _touch(driver, kind: str, *points: tuple[float, float]) -> None:
    """One touch event: ``points`` are the fingers down after it, finger k with id k (none for touchEnd)."""
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {
        "type": kind, "touchPoints": [{"x": x, "y": y, "id": k} for k, (x, y) in enumerate(points)],
    })


def _center(driver, r: int, c: int) -> tuple[float, float]:
    rect = driver.execute_script(f"return document.getElementById('cell-{r}-{c}').getBoundingClientRect().toJSON()")
    return rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2


def _center_of(driver, element_id: str) -> tuple[float, float]:
    rect = driver.find_element(By.ID, element_id).rect
    return rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2


def _tap_at(driver, point: tuple[float, float]) -> None:
    _touch(driver, "touchStart", point)
    _touch(driver, "touchEnd")


def _tap(driver, r: int, c: int) -> None:
    _reach(driver, r, c)
    _tap_at(driver, _center(driver, r, c))


def _tap_button(driver, element_id: str) -> None:
    """A tap on a button or a switch: the browser makes a click of it (after the touch ends)."""
    _tap_at(driver, _center_of(driver, element_id))


def _drag(driver, start: tuple[int, int], end: tuple[int, int]) -> None:
    _touch(driver, "touchStart", _center(driver, *start))
    _touch(driver, "touchMove", _center(driver, *end))
    _touch(driver, "touchEnd")


def _long_press(driver, r: int, c: int, value: int) -> None:
    """A finger held on cell (r, c) until the page has set it to ``value``, then lifted."""
    _reach(driver, r, c)
    driver.execute_script("nonogenAssists.on.longpress = true")
    _touch(driver, "touchStart", _center(driver, r, c))
    _until(driver, lambda d: _cells(d)[r, c] == value, f"a long press to set ({r}, {c}) to {value}")
    _touch(driver, "touchEnd")
    driver.execute_script("nonogenAssists.on.longpress = false")


def _view(driver) -> dict:
    """The part of the board box where cells show, clear of the pinned clue row and column."""
    return driver.execute_script("""
        const wrap = document.querySelector('.board-wrap'), box = wrap.getBoundingClientRect();
        const corner = document.querySelector('#board .corner').getBoundingClientRect();
        return {left: corner.right, top: corner.bottom, right: box.left + wrap.clientLeft + wrap.clientWidth,
                bottom: Math.min(box.top + wrap.clientTop + wrap.clientHeight, innerHeight)};""")


def _pan(driver, dx: float, dy: float) -> None:
    """Two fingers slide the board's content by (dx, dy), in strokes that keep the fingers on the board."""
    view = _view(driver)
    cx, cy = (view["left"] + view["right"]) / 2, (view["top"] + view["bottom"]) / 2
    reach_x, reach_y = (view["right"] - view["left"]) / 2 - 30, (view["bottom"] - view["top"]) / 2 - 10
    while abs(dx) > 0.5 or abs(dy) > 0.5:
        sx, sy = max(-reach_x, min(reach_x, dx)), max(-reach_y, min(reach_y, dy))
        a, b = (cx - 20, cy), (cx + 20, cy)
        _touch(driver, "touchStart", a)
        _touch(driver, "touchStart", a, b)
        _touch(driver, "touchMove", (a[0] + sx, a[1] + sy), (b[0] + sx, b[1] + sy))
        _touch(driver, "touchEnd")
        dx, dy = dx - sx, dy - sy


def _bring(driver, r: int, c: int) -> None:
    """Pan until cell (r, c) sits at the top left of the cells' view (or as near as the box scrolls)."""
    view = _view(driver)
    x, y = _center(driver, r, c)
    cell = _state(driver)["zoom"]["cell"]
    _pan(driver, view["left"] + cell / 2 + 2 - x, view["top"] + cell / 2 + 2 - y)


def _reach(driver, r: int, c: int) -> None:
    """Pan cell (r, c) into view when it is not (to the view's middle, as a player would)."""
    if not _visible(driver, [(r, c)]):
        view = _view(driver)
        x, y = _center(driver, r, c)
        _pan(driver, (view["left"] + view["right"]) / 2 - x, (view["top"] + view["bottom"]) / 2 - y)
        assert _visible(driver, [(r, c)]), (r, c)


def _runs(line: np.ndarray) -> list[tuple[int, int]]:
    """(first, last) of each run of non-zero cells."""
    out, start = [], None
    for k, v in enumerate(list(line) + [0]):
        if v and start is None:
            start = k
        elif not v and start is not None:
            out.append((start, k - 1))
            start = None
    return out


def _visible(driver, cells: list[tuple[int, int]]) -> bool:
    view = _view(driver)
    rects = driver.execute_script(
        "return arguments[0].map(([r, c]) => "
        "document.getElementById(`cell-${r}-${c}`).getBoundingClientRect().toJSON())", cells)
    return all(rt["left"] >= view["left"] - 1 and rt["right"] <= view["right"] + 1 and rt["top"] >= view["top"] - 1
               and rt["bottom"] <= view["bottom"] + 1 for rt in rects)


def _touch_targets(driver, minimum: float = 40) -> None:
    size = driver.execute_script("return document.getElementById('cell-0-0').getBoundingClientRect().toJSON()")
    assert size["width"] >= minimum and size["height"] >= minimum, f"cells of {size['width']}x{size['height']} px"
    for button in ("mark-mode", "undo", "redo", "hint", "assists-toggle", "check"):
        rect = driver.find_element(By.ID, button).rect
        assert rect["width"] >= minimum and rect["height"] >= minimum, (button, rect)


# --- line logic, from the engine -----------------------------------------------------------------------------


def _lines(puzzle, cells: np.ndarray):
    """(kind, index, positions of its cells, masks line logic leaves them) for every row, then every column."""
    full = (1 << len(puzzle.palette)) - 1
    for kind, clues, lines in (("row", puzzle.rows, cells), ("col", puzzle.cols, cells.T)):
        for k, (clue, line) in enumerate(zip(clues, lines, strict=True)):
            masks = solve_line(LineAutomaton(clue), [full if v < 0 else 1 << int(v) for v in line])
            at = [(k, t) if kind == "row" else (t, k) for t in range(len(line))]
            yield kind, k, line, at, masks


def _proved_empty(puzzle, cells: np.ndarray) -> set[tuple[int, int]]:
    """Unknown cells that their row's or their column's line logic alone proves empty."""
    return {at[t] for _, _, line, at, masks in _lines(puzzle, cells) if masks is not None
            for t, m in enumerate(masks) if line[t] < 0 and m == 1}


def _progressing(puzzle, cells: np.ndarray) -> dict[str, list[int]]:
    """Lines where line logic settles an unknown cell."""
    out: dict[str, list[int]] = {"rows": [], "cols": []}
    for kind, k, line, _, masks in _lines(puzzle, cells):
        if masks is not None and any(line[t] < 0 and m & (m - 1) == 0 for t, m in enumerate(masks)):
            out["rows" if kind == "row" else "cols"].append(k)
    return out


# --- the tests -----------------------------------------------------------------------------------------------


def test_a_30x30_puzzle_is_solved_by_touch_on_a_412px_phone(phone412, tmp_path):
    """At 412 px the cells were 14-17 px, a 30-wide grid was cut off and the page scrolled sideways. Now the
    board box zooms to finger-sized cells and pans under two fingers, its clues pinned, the page never wider
    than the screen; every run is one drag, and the grid is solved by touch alone."""
    driver = phone412
    puzzle, grid = _random_puzzle(30, seed=11)
    _open(driver, tmp_path, "phone-30", page_2d(puzzle, grid, title="Thirty by thirty"))
    zoom = _state(driver)["zoom"]
    assert zoom["phone"] and zoom["cell"] >= 40 and not zoom["whole"]
    _touch_targets(driver)
    _no_sideways_scroll(driver)
    assert not driver.find_element(By.ID, "keys").is_displayed(), "the keys fold away on a phone"
    help_box = driver.find_element(By.ID, "keys-help").rect
    assert help_box["height"] < 80
    _shot(driver, "412-zoomed")
    view = _view(driver)
    cell = zoom["cell"]
    across = max(1, int((view["right"] - view["left"]) // cell) - 1)
    down = max(1, int((view["bottom"] - view["top"]) // cell) - 1)
    assert across >= 3 and down >= 5, (across, down, view)
    for c0 in range(0, 30, across):
        for r0 in range(0, 30, down):
            _bring(driver, r0, c0)
            rows, cols = range(r0, min(30, r0 + down)), range(c0, min(30, c0 + across))
            assert _visible(driver, [(rows[0], cols[0]), (rows[-1], cols[-1])]), (r0, c0)
            for r in rows:
                for a, b in _runs(grid[r, cols.start:cols.stop]):
                    start, end = (r, cols.start + a), (r, cols.start + b)
                    if a == b:
                        _tap(driver, *start)
                    else:
                        _drag(driver, start, end)
            if (r0, c0) == (down * 2, across * 2):  # in the middle: the clues of what shows stay beside it
                _pinned_clues(driver, r0, c0)
                _shot(driver, "412-panned")
            block = _cells(driver)[rows.start:rows.stop, cols.start:cols.stop]
            want = np.where(grid[rows.start:rows.stop, cols.start:cols.stop] > 0, 1, -1)
            assert (block == want).all(), f"block at {(r0, c0)}:\n{block}\n!=\n{want}"
            assert _state(driver)["zoom"]["cell"] == cell  # two-finger pans did not zoom
    _until(driver, lambda d: "Solved!" in _status(d), "the page to say Solved!")
    _no_sideways_scroll(driver)
    saved = _state(driver)["saved"]
    assert saved["solved"] is True and saved["started"] is True
    _tap_button(driver, "zoom")  # the whole picture
    _until(driver, lambda d: _state(d)["zoom"]["whole"], "the whole grid")
    fits = driver.execute_script(
        "const w = document.querySelector('.board-wrap'); "
        "return [w.scrollWidth <= w.clientWidth, w.scrollHeight <= w.clientHeight]")
    assert fits == [True, True]
    _no_sideways_scroll(driver)
    _shot(driver, "412-whole-solved")


def _pinned_clues(driver, r: int, c: int) -> None:
    """Row r's clue and column c's clue show at the board box's edges, though the box scrolled past them."""
    got = driver.execute_script("""
        const wrap = document.querySelector('.board-wrap'), box = wrap.getBoundingClientRect();
        const row = document.querySelector(`td.row-clue[data-row="${arguments[0]}"]`).getBoundingClientRect();
        const col = document.querySelector(`td.col-clue[data-col="${arguments[1]}"]`).getBoundingClientRect();
        const font = parseFloat(getComputedStyle(document.querySelector('td.row-clue')).fontSize);
        return {scrolled: [wrap.scrollLeft, wrap.scrollTop], rowLeft: row.left - box.left, colTop: col.top - box.top,
                font};""", r, c)
    assert min(got["scrolled"]) > 0, got
    assert abs(got["rowLeft"]) <= 1 and abs(got["colTop"]) <= 1, got
    assert got["font"] >= 12, got  # readable while zoomed


def test_long_press_mark_mode_undo_and_pinch_on_a_360px_phone(phone360, tmp_path):
    driver = phone360
    puzzle, grid = _random_puzzle(30, seed=5)
    _open(driver, tmp_path, "phone-360", page_2d(puzzle, grid))
    _touch_targets(driver)
    _no_sideways_scroll(driver)
    _shot(driver, "360-zoomed")
    _tap(driver, 0, 0)
    _until(driver, lambda d: _cells(d)[0, 0] == 1, "a tap to fill")
    _long_press(driver, 0, 1, 0)  # held still: an empty-mark, and lifting the finger leaves it
    _until(driver, lambda d: _state(d)["undo"] == 2, "the long press to be one undoable step")
    assert _cells(driver)[0, 1] == 0
    _long_press(driver, 0, 1, -1)  # again on the mark: cleared
    _tap_button(driver, "mark-mode")
    _until(driver, lambda d: _state(d)["markMode"], "the mark mode")
    _tap(driver, 1, 0)
    _until(driver, lambda d: _cells(d)[1, 0] == 0, "a tap in the mark mode to mark empty")
    _drag(driver, (2, 0), (2, 3))  # a drag in the mark mode marks a run
    _until(driver, lambda d: list(_cells(d)[2, :4]) == [0] * 4, "a drag to mark four cells")
    _long_press(driver, 3, 0, 1)  # in the mark mode a long press fills
    _tap_button(driver, "mark-mode")
    steps = _state(driver)["undo"]
    _tap_button(driver, "undo")
    _until(driver, lambda d: _cells(d)[3, 0] == -1 and _state(d)["undo"] == steps - 1, "undo by touch")
    _tap_button(driver, "undo")
    _until(driver, lambda d: list(_cells(d)[2, :4]) == [-1] * 4, "undo to take back the whole drag")
    _tap_button(driver, "redo")
    _until(driver, lambda d: list(_cells(d)[2, :4]) == [0] * 4, "redo by touch")
    # two fingers pinch: the cells shrink, and the grid point between the fingers stays between them
    _bring(driver, 12, 12)  # away from the edges, where the box cannot scroll further
    cell = _state(driver)["zoom"]["cell"]
    x, y = _center(driver, 14, 13)
    _touch(driver, "touchStart", (x - 60, y))
    _touch(driver, "touchStart", (x - 60, y), (x + 60, y))
    _touch(driver, "touchMove", (x - 30, y), (x + 30, y))
    _touch(driver, "touchEnd")
    _until(driver, lambda d: _state(d)["zoom"]["cell"] < cell, "a pinch to zoom out")
    smaller = _state(driver)["zoom"]["cell"]
    assert abs(smaller - cell / 2) <= 1
    nx, ny = _center(driver, 14, 13)
    assert abs(nx - x) <= smaller and abs(ny - y) <= smaller, ((x, y), (nx, ny))
    assert _state(driver)["undo"] == steps - 1 and _cells(driver)[3, 0] == -1  # the first finger painted nothing
    _no_sideways_scroll(driver)
    _tap_button(driver, "zoom")
    _until(driver, lambda d: _state(d)["zoom"]["whole"], "the whole grid")
    _no_sideways_scroll(driver)
    _shot(driver, "360-whole")
    _tap_button(driver, "zoom")
    _until(driver, lambda d: _state(d)["zoom"]["cell"] >= 40, "finger-sized cells again")
    # the folded help: opened, with the keys and their changing, it still fits the width
    driver.execute_script("for (const id of ['keys-help', 'keymap']) document.getElementById(id).open = true")
    _until(driver, lambda d: d.find_element(By.ID, "keys").is_displayed(), "the keys to show")
    _no_sideways_scroll(driver)


def _assist(driver, name: str, on: bool = True) -> None:
    """Open the assists' panel by touch when it is closed, and tap switch ``name`` to ``on``."""
    if not driver.find_element(By.ID, "assists").is_displayed():
        _tap_button(driver, "assists-toggle")
        _until(driver, lambda d: d.find_element(By.ID, "assists").is_displayed(), "the assists' panel")
    if _state(driver)["assists"][name] != on:
        _tap_button(driver, f"assist-{name}")
        _until(driver, lambda d: _state(d)["assists"][name] == on, f"the switch {name}")


def _flagged(driver) -> set[tuple[int, int]]:
    return {tuple(rc) for rc in _state(driver)["wrong"]}


def test_show_mistakes_flags_a_wrong_cell_at_once(phone412, tmp_path):
    driver = phone412
    puzzle, grid = _random_puzzle(10, seed=2)
    _open(driver, tmp_path, "phone-mistakes", page_2d(puzzle, grid))
    names = ("mistakes", "obvious", "progress")
    assert {k: _state(driver)["assists"][k] for k in names} == dict.fromkeys(names, False)  # off at first
    right = tuple(map(int, np.argwhere(grid == 1)[0]))
    wrong_fill = tuple(map(int, np.argwhere(grid == 0)[0]))
    wrong_mark = tuple(map(int, np.argwhere(grid == 1)[1]))
    _tap(driver, *wrong_fill)
    _until(driver, lambda d: _cells(d)[wrong_fill] == 1, "a fill")
    assert _flagged(driver) == set()  # the switch is off: nothing flagged until Check
    _assist(driver, "mistakes")
    _until(driver, lambda d: _flagged(d) == {wrong_fill}, "the wrong fill to be flagged")
    _tap(driver, *right)
    _long_press(driver, *wrong_mark, 0)
    _until(driver, lambda d: _flagged(d) == {wrong_fill, wrong_mark}, "the wrong mark flagged as it is set")
    assert "wrong" in driver.find_element(By.ID, f"cell-{wrong_mark[0]}-{wrong_mark[1]}").get_attribute("class")
    _shot(driver, "412-show-mistakes")
    _tap(driver, *wrong_fill)  # cleared: no longer a mistake
    _until(driver, lambda d: _flagged(d) == {wrong_mark}, "the cleared cell to lose its flag")
    reload(driver)  # kept per browser: on again after a reload, and on another puzzle
    assert _state(driver)["assists"]["mistakes"] and _flagged(driver) == {wrong_mark}
    other, other_grid = _random_puzzle(8, seed=3)
    _open(driver, tmp_path, "phone-mistakes-2", page_2d(other, other_grid), keep=True)
    assert _state(driver)["assists"]["mistakes"]
    _assist(driver, "mistakes", on=False)
    assert _flagged(driver) == set()


def test_mark_obvious_and_line_progress_follow_the_engines_line_logic(phone412, tmp_path):
    driver = phone412
    puzzle, grid = _random_puzzle(12, seed=8, density=0.6)
    _open(driver, tmp_path, "phone-assists", page_2d(puzzle, grid))
    # play part of the picture: rows 0-2 and column 0, as the solution has them (fills and empty-marks)
    for r in range(12):
        for c in range(12):
            if r < 3 or c == 0:
                (_tap(driver, r, c) if grid[r, c] else _long_press(driver, r, c, 0))
    want = np.full(grid.shape, -1)
    want[:3], want[:, 0] = grid[:3], grid[:, 0]
    _until(driver, lambda d: (_cells(d) == want).all(), "the played cells")
    _assist(driver, "progress")
    cells = _cells(driver)
    assert _state(driver)["progress"] == _progressing(puzzle, cells)
    _assist(driver, "obvious")
    obvious = {tuple(rc) for rc in _state(driver)["obvious"]}
    assert obvious == _proved_empty(puzzle, cells) and obvious, "mark obvious: exactly what line logic proves empty"
    assert all(grid[rc] == 0 for rc in obvious)  # proved from right marks: empty in the picture too
    seen = cells.copy()
    for rc in obvious:
        seen[rc] = 0
    progress = _state(driver)["progress"]
    assert progress == _progressing(puzzle, seen)  # with the dots as empty cells
    for kind, key in (("row", "rows"), ("col", "cols")):
        lit = {int(e.get_attribute(f"data-{kind}"))
               for e in driver.find_elements(By.CSS_SELECTOR, f"td.{kind}-clue.progress")}
        assert lit == set(progress[key]), kind
    dots = {(int(e.get_attribute("data-row")), int(e.get_attribute("data-col")))
            for e in driver.find_elements(By.CSS_SELECTOR, "td.cell.obvious")}
    assert dots == obvious
    _shot(driver, "412-assists-on")
    # one more fill: both follow at once
    r, c = next((int(r), int(c)) for r, c in np.argwhere(grid == 1) if cells[r, c] < 0 and (r, c) not in obvious)
    _tap(driver, r, c)
    _until(driver, lambda d: _cells(d)[r, c] == 1, "one more fill")
    cells = _cells(driver)
    assert {tuple(rc) for rc in _state(driver)["obvious"]} == _proved_empty(puzzle, cells)
    assert _state(driver)["cells"] == cells.tolist()  # the dots are not the player's marks
    _assist(driver, "obvious", on=False)
    _assist(driver, "progress", on=False)
    assert not driver.find_elements(By.CSS_SELECTOR, "td.cell.obvious, td.clue.progress")


def test_a_remapped_key_works_and_survives_a_reload(phone412, tmp_path):
    driver = phone412
    puzzle, grid = _random_puzzle(8, seed=4)
    _open(driver, tmp_path, "phone-keys", page_2d(puzzle, grid))
    _tap_at(driver, _center(driver, 0, 0))  # where the keyboard's cursor starts
    _until(driver, lambda d: _cells(d)[0, 0] == 1, "a tap")
    driver.find_element(By.CSS_SELECTOR, "#keys-help > summary").click()
    driver.find_element(By.CSS_SELECTOR, "#keymap > summary").click()
    driver.find_element(By.ID, "key-fill").click()
    _until(driver, lambda d: "press a key" in d.find_element(By.ID, "key-fill").text, "the button to wait for a key")
    driver.find_element(By.ID, "key-fill").send_keys("g")
    _until(driver, lambda d: _state(d)["keys"]["fill"] == "g", "G to fill")
    assert "G" in driver.find_element(By.ID, "keys").text
    board = driver.find_element(By.ID, "board")
    board.send_keys(Keys.ARROW_RIGHT, "g")
    _until(driver, lambda d: _cells(d)[0, 1] == 1, "G to fill the cursor's cell")
    board.send_keys(Keys.ARROW_RIGHT, Keys.SPACE)  # the fixed keys work besides
    _until(driver, lambda d: _cells(d)[0, 2] == 1, "Space to fill")
    stored = json.loads(driver.execute_script("return localStorage.getItem('nonogen-keys-2d')"))
    assert stored["keys"]["fill"] == "g"
    reload(driver)
    assert _state(driver)["keys"]["fill"] == "g"
    board = driver.find_element(By.ID, "board")
    board.send_keys(Keys.ARROW_DOWN, "g")
    _until(driver, lambda d: _cells(d)[1, 0] == 1, "G to fill after the reload")
    driver.find_element(By.CSS_SELECTOR, "#keys-help > summary").click()  # folded again after the reload
    driver.find_element(By.CSS_SELECTOR, "#keymap > summary").click()
    driver.find_element(By.CSS_SELECTOR, '#key-layouts button[data-layout="default"]').click()
    _until(driver, lambda d: _state(d)["keys"]["fill"] == "", "the default keys back")


def test_the_saved_record_says_started_and_solved_and_old_records_load(phone412, tmp_path):
    """A site's index reads `started` and `solved` from localStorage[puzzle key]; a record saved before those
    fields existed loads as it did, and is given them."""
    driver = phone412
    puzzle, grid = _random_puzzle(5, seed=1)
    _open(driver, tmp_path, "phone-record", page_2d(puzzle, grid))
    key = driver.execute_script("return JSON.parse(document.getElementById('puzzle').textContent).key")
    stored = lambda: json.loads(driver.execute_script("return localStorage.getItem(arguments[0])", key) or "null")  # noqa: E731
    assert stored() is None  # nothing saved before the first move
    r, c = map(int, np.argwhere(grid == 1)[0])
    _tap(driver, r, c)
    _until(driver, lambda d: (stored() or {}).get("started") is True, "started: true")
    assert stored()["solved"] is False
    _tap(driver, r, c)  # cleared again: still started
    _until(driver, lambda d: _cells(d)[r, c] == -1, "the cell cleared")
    assert stored()["started"] is True
    old = {"version": 1, "cells": np.where(grid > 0, 1, -1).flatten().tolist(), "crossed": [], "ms": 1000}
    driver.execute_script("localStorage.setItem(arguments[0], arguments[1])", key, json.dumps(old))
    driver.get(driver.current_url)
    _until(driver, lambda d: d.execute_script("return !!window.nonogenPlay"), "the page to start")
    assert "Solved!" in _status(driver) and _cells(driver).tolist() == np.where(grid > 0, 1, -1).tolist()
    record = stored()
    assert record["started"] is True and record["solved"] is True and record["ms"] >= 1000


def test_a_player_can_switch_the_long_press_off_and_it_starts_on(phone360, tmp_path):
    """A finger that rests on a cell marks it empty, unless the player switched that off (fingers that rest by
    accident): then it fills at once, as a tap does, however long it stays."""
    driver = phone360
    puzzle, grid = _random_puzzle(10, seed=4)
    _open(driver, tmp_path, "phone-long-press", page_2d(puzzle, grid))
    driver.execute_script("localStorage.removeItem('nonogen-assists-2d')")
    reload(driver)
    assert _state(driver)["assists"]["longpress"]  # on for a new player
    _assist(driver, "longpress", on=False)
    _touch(driver, "touchStart", _center(driver, 0, 0))
    _until(driver, lambda d: _cells(d)[0, 0] == 1, "a resting finger to fill at once")
    _touch(driver, "touchEnd")
    assert _cells(driver)[0, 0] == 1 and not _state(driver)["assists"]["longpress"]
    reload(driver)
    assert not _state(driver)["assists"]["longpress"]  # kept in this browser
