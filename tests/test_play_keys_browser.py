"""Keyboard play on both play pages, in headless Chromium: one Tab to the grid or model, a focus ring on the
cursor cell, a clean solved picture, the 3D page's cube cursor, keys and line-logic hint, and the keys listed.

The browser, the network check and the page loader are test_play_browser.py's fixtures. Keys are pressed
as a person presses them (WebDriver key events to the focused element), never by calling the game.
"""
from __future__ import annotations

import io

import numpy as np
import pytest

from nonogen.clues3d import puzzle3d_from_cells
from nonogen.export.html import page_2d, page_3d
from nonogen.solve.line3d import line_solve3d, solve_line_3d

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium missing")
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
import test_play_browser  # noqa: E402
from test_play_browser import _bw_puzzle, _cell, _cells, _level_cells, _shot, _state, _status, _until  # noqa: E402

# test_play_browser's fixtures (the test's own browser with the network check, the page loader): pytest finds a
# fixture by its name in this module. Bound by assignment, not imported, because every test parameter named like an
# import reads to pyflakes as that import redefined unused (F811), the rule that finds a test shadowed by a namesake.
driver, open_page = test_play_browser.driver, test_play_browser.open_page

ACCENT = (47, 111, 208)  # --accent in play.css: the focus ring
FRAME = (31, 95, 200)  # the 3D cursor frame (play3d_view.js)


def _screen(driver) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")).astype(int)


def _near(pixels: np.ndarray, rgb: tuple[int, int, int], tol: int = 14) -> np.ndarray:
    return (np.abs(pixels - np.array(rgb)) <= tol).all(axis=-1)


def _tab(driver, times: int = 1) -> str:
    """Press Tab on the page as a person does; the id of the element that has the focus then."""
    ActionChains(driver).send_keys(Keys.TAB * times).perform()
    return driver.execute_script("return document.activeElement.id")


def _keys_listed(driver) -> str:
    return driver.find_element(By.ID, "keys").text


# --- 2D --------------------------------------------------------------------------------------------------------


def test_one_tab_reaches_the_grid_and_the_cursor_cell_has_a_ring(driver, open_page):
    """8 Tab presses reached the grid, and the focus ring showed only on the board's right edge."""
    puzzle, grid = _bw_puzzle()
    open_page("bw-tab", page_2d(puzzle, grid))
    assert _tab(driver) == "board"
    ActionChains(driver).send_keys(Keys.ARROW_DOWN, Keys.SPACE).perform()  # a black cell: the ring must show on it
    _until(driver, lambda d: _cells(d)[1, 0] == 1, "the cursor cell to be filled")
    shot = _screen(driver)
    rect = _cell(driver, 1, 0).rect
    left, top = round(rect["x"]), round(rect["y"])
    right, bottom = left + round(rect["width"]), top + round(rect["height"])
    mid_x, mid_y = slice(left + 4, right - 4), slice(top + 4, bottom - 4)
    sides = {"left": shot[mid_y, left - 3:left], "right": shot[mid_y, right:right + 3],
             "top": shot[top - 3:top, mid_x], "bottom": shot[bottom:bottom + 3, mid_x]}
    for side, band in sides.items():
        assert _near(band, ACCENT).mean() > 0.5, f"no focus ring on the cursor cell's {side} side"
    board = driver.find_element(By.ID, "board").rect
    x0 = round(board["x"])  # the grid's own focus ring shows on its left edge too, not clipped by the scroll box
    assert _near(shot[round(board["y"]):round(board["y"] + board["height"]), x0 - 6:x0], ACCENT, 30).any()
    _shot(driver, "2d-tab-focus-ring")
    assert _tab(driver) != "board"  # the next Tab goes on to the buttons
    assert _state(driver)["cursor"] == [1, 0]


def test_the_solved_picture_shows_no_empty_marks(driver, open_page):
    puzzle, grid = _bw_puzzle()
    open_page("bw-marks", page_2d(puzzle, grid))
    board = driver.find_element(By.ID, "board")
    board.send_keys(Keys.ARROW_DOWN * 2, "x", Keys.ARROW_DOWN, "x")  # two empty-marks: (2, 0) and (3, 0)
    _until(driver, lambda d: _cells(d)[2, 0] == 0 and _cells(d)[3, 0] == 0, "two empty-marks")
    dot = "return getComputedStyle(arguments[0], '::after').content"
    assert driver.execute_script(dot, _cell(driver, 2, 0)) != "none"  # the dot shows while playing
    for r, c in zip(*np.nonzero(grid), strict=True):
        if (r, c) != (4, 2):
            _cell(driver, r, c).click()
    _until(driver, lambda d: d.execute_script("return nonogenPlay.solved()"), "the grid to be solved")
    assert _cells(driver)[2, 0] == 0  # the marks are still the player's (undo brings them back)...
    for r, c in ((2, 0), (3, 0), (0, 1)):  # ...but the solved picture shows none, the given empty one neither
        assert driver.execute_script(dot, _cell(driver, r, c)) == "none", (r, c)
    rect = _cell(driver, 2, 0).rect
    cell = _screen(driver)[round(rect["y"]) + 3:round(rect["y"] + rect["height"]) - 3,
                           round(rect["x"]) + 3:round(rect["x"] + rect["width"]) - 3]
    assert (cell > 240).all(), "a grey dot is still drawn on the solved picture"
    _shot(driver, "2d-solved-clean")
    driver.find_element(By.ID, "undo").click()
    _until(driver, lambda d: d.execute_script(dot, _cell(d, 2, 0)) != "none", "the marks to show again after undo")


def test_the_2d_page_lists_its_keys(driver, open_page):
    puzzle, grid = _bw_puzzle()
    open_page("bw-keys-list", page_2d(puzzle, grid))
    listed = _keys_listed(driver)
    for key in ("Tab", "←", "↑", "→", "↓", "Space", "Enter", "X", "Delete", "Backspace", "1", "9", "H",
                "Ctrl", "Z", "Y", "Shift"):
        assert key in listed, key
    assert driver.find_element(By.ID, "keys").is_displayed()


# --- 3D --------------------------------------------------------------------------------------------------------


def _press(driver, *keys) -> None:
    ActionChains(driver).send_keys(*keys).perform()


def _go(driver, target: tuple[int, int, int]) -> None:
    """Move the 3D cursor to ``target`` with arrows and Page Up/Down, as a keyboard player does."""
    x, y, z = _state(driver)["cursor"]
    keys = []
    keys += [Keys.ARROW_RIGHT if target[0] > x else Keys.ARROW_LEFT] * abs(target[0] - x)
    keys += [Keys.ARROW_DOWN if target[1] > y else Keys.ARROW_UP] * abs(target[1] - y)
    keys += [Keys.PAGE_DOWN if target[2] > z else Keys.PAGE_UP] * abs(target[2] - z)
    if keys:
        _press(driver, *keys)
    _until(driver, lambda d: _state(d)["cursor"] == list(target), f"the cursor to reach {target}")


def _cube(driver, x: int, y: int, z: int) -> str:
    return _state(driver)["cubes"][x][y][z]


def test_3d_keyboard_play_with_a_cube_cursor(driver, open_page):
    """The 3D page had no keyboard play: a cube cursor through x, y and the layers, keys that break and paint."""
    cells = _level_cells()
    open_page("level-keys", page_3d(puzzle3d_from_cells(cells), cells))
    frame = lambda: _near(_screen(driver), FRAME, 10).sum()  # noqa: E731
    assert frame() == 0  # no cursor until the model has the focus
    assert _tab(driver) == "view"
    _until(driver, lambda d: frame() > 200, "the cursor frame to show")
    assert driver.find_element(By.ID, "stage").value_of_css_property("outline-style") == "solid"
    _shot(driver, "3d-keys-cursor")
    _press(driver, "f")  # (0, 0, 0) is part of the shape: F paints it, in Break mode
    _until(driver, lambda d: _cube(d, 0, 0, 0) == "painted", "F to paint the cube")
    _go(driver, (1, 0, 0))
    _press(driver, Keys.SPACE)  # Break mode: Space breaks, as a click does
    _until(driver, lambda d: _cube(d, 1, 0, 0) == "broken", "Space to break the cube")
    _press(driver, "p")
    _go(driver, (2, 1, 0))
    _press(driver, Keys.ENTER)  # Paint mode: Enter paints...
    _until(driver, lambda d: _cube(d, 2, 1, 0) == "painted", "Enter to paint in Paint mode")
    _press(driver, "f", "b")  # ...F unpaints, B goes back to Break mode
    _until(driver, lambda d: _state(d)["mode"] == "break" and _cube(d, 2, 1, 0) == "intact", "unpaint, Break mode")
    _go(driver, (0, 0, 1))  # a layer deeper: the front layer is sliced away so the cube can be seen
    assert _state(driver)["slice"]["z"] == 1
    _shot(driver, "3d-keys-layer-2")
    before = driver.execute_script("return nonogenPlay.project(0, 0, 0).x")
    ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.ARROW_RIGHT).key_up(Keys.SHIFT).perform()
    _until(driver, lambda d: d.execute_script("return nonogenPlay.project(0, 0, 0).x") != before, "the view to turn")
    for target in sorted(map(tuple, np.argwhere(~cells).tolist()), key=lambda c: (c[2], c[1], c[0])):
        if _cube(driver, *target) == "broken":
            continue
        _go(driver, target)
        _press(driver, "x")
        _until(driver, lambda d, target=target: _cube(d, *target) == "broken" or _state(d)["solved"],
               f"X to break {target}")
    assert _state(driver)["solved"] and _state(driver)["strikes"] == 0 and "Solved" in _status(driver)
    _until(driver, lambda d: frame() == 0, "the cursor frame to leave the solved model")
    _shot(driver, "3d-keys-solved")


def _engine_hint(puzzle, known: np.ndarray):
    """The hint the page must give, from the engine's own 3D line solver: the line that settles the most
    untouched cubes (lines along x, then y, then z; the first on a tie), its first cube to break, else to paint."""
    X, Y, Z = puzzle.size
    order = ([("x", (y, z), known[:, y, z], [(t, y, z) for t in range(X)]) for y in range(Y) for z in range(Z)]
             + [("y", (x, z), known[x, :, z], [(x, t, z) for t in range(Y)]) for x in range(X) for z in range(Z)]
             + [("z", (x, y), known[x, y, :], [(x, y, t) for t in range(Z)]) for x in range(X) for y in range(Y)])
    best = None
    for axis, at, line, cubes in order:
        count, groups = puzzle.clues[axis][at[0]][at[1]]
        after = solve_line_3d(count, groups, tuple(int(v) for v in line))
        if after is None:
            return {"axis": axis, "cube": list(cubes[max(0, list(line).index(1) if 1 in line else 0)]),
                    "contradiction": True}
        settled = [t for t, v in enumerate(after) if line[t] < 0 and v >= 0]
        if settled and (best is None or len(settled) > best["settled"]):
            pick = next((t for t in settled if after[t] == 0), settled[0])
            best = {"axis": axis, "cube": list(cubes[pick]), "value": after[pick], "settled": len(settled)}
    return best


def _known(driver) -> np.ndarray:
    values = {"intact": -1, "broken": 0, "painted": 1}
    return np.vectorize(values.get)(np.array(_state(driver)["cubes"]))


def test_3d_hints_from_line_logic_solve_a_line_solvable_level(driver, open_page):
    """The 3D page had no hint. Each hint is the engine's next line-logic cube; following them solves the level."""
    cells = np.zeros((4, 3, 3), dtype=bool)
    cells[:, 2, :] = True  # a floor, a post and a wall
    cells[0, :, 0] = True
    cells[1:3, 1, 2] = True
    level = puzzle3d_from_cells(cells)
    assert line_solve3d(level)[1], "the test needs a level that line logic solves"
    open_page("level-hint", page_3d(level, cells))
    assert _tab(driver) == "view"
    steps = 0
    while not _state(driver)["solved"]:
        want = _engine_hint(level, _known(driver))
        _press(driver, "h")
        _until(driver, lambda d: _state(d)["hint"] is not None, "a hint")
        hint = _state(driver)["hint"]
        assert {k: hint[k] for k in want} == want
        assert _state(driver)["cursor"] == hint["cube"] and "yellow cube" in _status(driver)
        if steps == 0:
            _shot(driver, "3d-hint")
        _press(driver, "x" if hint["value"] == 0 else "f")  # do what the hint says, where the cursor now is
        _until(driver, lambda d: _state(d)["hint"] is None, "the hint to clear after the move")
        steps += 1
        assert steps <= cells.size
    assert _state(driver)["strikes"] == 0 and "Solved" in _status(driver)


def test_3d_hint_names_a_line_that_painted_cubes_break(driver, open_page):
    cells = _level_cells()
    level = puzzle3d_from_cells(cells)
    open_page("level-hint-bad", page_3d(level, cells))
    for cube in ((1, 0, 0), (2, 0, 0)):  # the top front row has one cube; painting two more breaks its clue
        driver.execute_script("nonogenPlay.paintCube(...arguments)", *cube)
    driver.find_element(By.ID, "hint").click()
    _until(driver, lambda d: "cannot meet its clue" in _status(d), "the hint to name the broken line")
    hint = _state(driver)["hint"]
    assert hint["contradiction"] and hint == {**hint, **_engine_hint(level, _known(driver))}


def test_3d_line_solver_matches_the_engine_on_random_lines(driver, open_page):
    cells = _level_cells()
    open_page("level-lines", page_3d(puzzle3d_from_cells(cells), cells))
    rng = np.random.default_rng(5)
    cases = []
    for _ in range(300):
        n = int(rng.integers(1, 11))
        line = rng.random(n) < 0.5
        count, groups = int(line.sum()), max(1, min(3, int(np.count_nonzero(line[1:] & ~line[:-1]) + line[0])))
        truth = line if rng.random() < 0.8 else rng.random(n) < 0.5
        known = [int(v) if rng.random() < 0.3 else -1 for v in truth]
        cases.append((count, groups, known))
    got = driver.execute_script("return arguments[0].map(([n, g, k]) => nonogenLine3d.solveLine3d(n, g, k))", cases)
    for (count, groups, known), answer in zip(cases, got, strict=True):
        want = solve_line_3d(count, groups, tuple(known))
        assert answer == (None if want is None else list(want)), (count, groups, known)
    assert sum(a is None for a in got) > 10 and sum(a is not None for a in got) > 100


def test_the_3d_page_lists_its_keys(driver, open_page):
    cells = _level_cells()
    open_page("level-keys-list", page_3d(puzzle3d_from_cells(cells), cells))
    listed = _keys_listed(driver)
    for key in ("Tab", "←", "→", "↑", "↓", "Page Down", "Page Up", "Shift", "Space", "Enter", "X", "Delete",
                "Backspace", "F", "B", "P", "H", "Ctrl", "Z"):
        assert key in listed, key
