"""The playable HTML pages, played in a real browser (headless Chromium through Selenium).

Cells and cubes are clicked the way a person would (WebDriver pointer actions at the element or at
the canvas pixel the page reports), never by calling the game's own functions, so the pointer
handling is tested too. Every test also checks from Chrome's network log that the page asked for
nothing but ``file:``, ``data:`` and ``blob:`` URLs. Screenshots go to ``tests/artifacts/``.
"""
from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest
from PIL import Image, ImageDraw

from nonogen import from_image, save
from nonogen.clues import puzzle_from_grid
from nonogen.clues3d import puzzle3d_from_cells
from nonogen.export.html import page_2d, page_3d
from nonogen.model import Color
from nonogen.render.book import caption
from nonogen.render.sheet2d import cell_center

from browsers import INSTALL_HINT, chromium

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"

# A 5x5 B&W picture with a full row (for a drag) and a given at (4, 2).
BW = ["#.#.#", "#####", ".#.#.", "..#..", "..#.."]
# A 4x4 picture in red (r) and yellow (y), where different colours touch.
COLOR_GRID = ["rry.", ".yyr", "r.yy", "yrr."]
PALETTE = (Color("white", "#ffffff", "."), Color("red", "#d62828", "r"), Color("yellow", "#f6d743", "y"))


def _bw_puzzle():
    grid = np.array([[ch == "#" for ch in row] for row in BW], dtype=np.uint8)
    return puzzle_from_grid(grid, givens=[(4, 2, 1), (0, 1, 0)]), grid


def _color_puzzle():
    index = {c.char: i for i, c in enumerate(PALETTE)}
    grid = np.array([[index[ch] for ch in row] for row in COLOR_GRID], dtype=np.uint8)
    return puzzle_from_grid(grid, palette=PALETTE), grid


def _level_cells() -> np.ndarray:
    """A 3x3x2 shape: the left column at the front, standing on a full bottom layer."""
    cells = np.zeros((3, 3, 2), dtype=bool)
    cells[0, :, 0] = True
    cells[:, 2, :] = True
    return cells


# --- pages without a browser ------------------------------------------------------------------------------


def _puzzle_json(page: str) -> dict:
    match = re.search(r'<script type="application/json" id="puzzle">(.*?)</script>', page, re.S)
    assert match, "puzzle JSON tag missing"
    return json.loads(match.group(1))


def test_pages_are_self_contained_and_escape_script_ends():
    puzzle, grid = _bw_puzzle()
    page = page_2d(puzzle, grid, title="</script><script>alert(1)</script>")
    assert '<link rel="icon" href="data:,">' in page
    assert page.count("</script>") == 2  # the JSON blob and the game script, nothing smuggled in
    data = _puzzle_json(page)
    assert data["title"] == "</script><script>alert(1)</script>"
    assert data["rows"][0] == [[1, 1], [1, 1], [1, 1]] and data["givens"] == [[0, 1, 0], [4, 2, 1]]
    assert not re.search(r'(src|href)="(https?:)?//', page)
    level = page_3d(puzzle3d_from_cells(_level_cells()), _level_cells())
    assert '"three":"data:text/javascript;base64,' in level.replace(" ", "")
    assert not re.search(r'(src|href)="(https?:)?//', level)


def test_page_keys_follow_the_clues():
    puzzle, grid = _bw_puzzle()
    key = _puzzle_json(page_2d(puzzle, grid))["key"]
    assert key == _puzzle_json(page_2d(puzzle, grid, title="other title"))["key"]
    assert key != _puzzle_json(page_2d(puzzle.replace(givens=()), grid))["key"]


def test_page_3d_colors_and_bad_shapes():
    cells = _level_cells()
    colors = np.zeros(cells.shape + (3,), dtype=np.uint8)
    colors[0, 0, 0] = (255, 16, 1)
    data = _puzzle_json(page_3d(puzzle3d_from_cells(cells), cells, colors))
    assert data["colors"][0][0][0] == "#ff1001" and data["colors"][1][0][0] is None
    with pytest.raises(ValueError):
        page_3d(puzzle3d_from_cells(cells), cells[:2])
    with pytest.raises(ValueError):
        page_2d(_bw_puzzle()[0], np.zeros((2, 2), dtype=np.uint8))


# --- the browser -----------------------------------------------------------------------------------------------

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium missing: " + INSTALL_HINT)
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support import expected_conditions as EC  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def browser() -> Iterator["webdriver.Chrome"]:
    """A browser shared by a module's tests, for pages that keep nothing in the browser (the studio's)."""
    with chromium(window=(1100, 900), webgl=True) as shared:
        yield shared


@pytest.fixture
def driver() -> Iterator["webdriver.Chrome"]:
    """A browser of its own for the test (nothing stored from before: see tests/browsers.py); after the test,
    every URL it requested must be local (file:, data:, blob:)."""
    with chromium(window=(1100, 900), webgl=True) as fresh:
        yield fresh
        _only_local(fresh)


def _only_local(driver) -> None:
    urls = _requested_urls(driver)
    assert any(u.startswith("file:") for u in urls), "the network log recorded nothing: the check would be void"
    foreign = [u for u in urls if not u.startswith(("file:", "data:", "blob:"))]
    assert not foreign, f"the page made network requests: {foreign[:5]}"


def _requested_urls(driver) -> list[str]:
    """URLs requested since the last call, leaving out Chromium's own pages (its new-tab page, chrome://)."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            params = message["params"]
            if not params.get("documentURL", "").startswith(("chrome:", "chrome-untrusted:")):
                urls.append(params["request"]["url"])
    return urls


@pytest.fixture
def open_page(driver, tmp_path):
    """Write a page to a file and open it from a ``file://`` URL (the test's own browser: nothing saved before)."""

    def go(name: str, text: str):
        path = tmp_path / f"{name}.html"
        path.write_text(text, encoding="utf-8")
        driver.get(path.as_uri())
        reload(driver)
        return path

    return go


STORED = "return JSON.stringify(Object.entries(localStorage).sort())"


def reload(driver) -> None:
    """Open the page afresh once what it stored has reached the browser, and wait for the game to start.

    The page's storage writes travel to the browser in the background; a reload right after them could
    start the new page without them, and the saved progress came back empty (1 run in 8). So the page is
    loaded again in a new tab, as often as it takes, while the old one stays open until that fresh
    document reads exactly what the old one stored; the test goes on in the new tab.
    """
    stored, page, old = driver.execute_script(STORED), driver.current_url, driver.current_window_handle
    driver.switch_to.new_window("tab")

    seen = [""]

    def fresh_copy(d) -> bool:
        d.get(page)
        seen[0] = d.execute_script(STORED)
        return seen[0] == stored

    try:
        _until(driver, fresh_copy, "the page's saved progress to reach a fresh copy of the page")
    except TimeoutException:  # once under load (two suites at once, load 7): say what the fresh copies read
        raise AssertionError(f"a fresh copy of the page never read what it stored:\n stored {stored}\n "
                             f"fresh  {seen[0]}") from None
    new = driver.current_window_handle
    driver.switch_to.window(old)
    driver.close()
    driver.switch_to.window(new)
    _until(driver, lambda d: d.execute_script("return !!window.nonogenPlay"), "the page to start")


WAIT = 120
"""Seconds a wait on a condition may take before the test fails: a safety net that a loaded machine never
reaches; a wait ends as soon as its condition holds, so it costs nothing when the page is quick."""


def _until(driver, condition, what: str):
    """Wait for ``condition(driver)`` (never for a fixed time): pages answer late on a loaded machine."""
    return WebDriverWait(driver, WAIT).until(condition, f"waited {WAIT} s for {what}")


def _shot(driver, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


def _cell(driver, r: int, c: int):
    return driver.find_element(By.CSS_SELECTOR, f'td.cell[data-row="{r}"][data-col="{c}"]')


def _cells(driver) -> np.ndarray:
    return np.array(driver.execute_script("return nonogenPlay.state().cells"))


def _status(driver) -> str:
    return driver.find_element(By.ID, "status").text


# --- 2D -----------------------------------------------------------------------------------------------------------


def test_bw_solved_by_clicks_and_a_drag(driver, open_page):
    puzzle, grid = _bw_puzzle()
    open_page("bw", page_2d(puzzle, grid, title="B&W test"))
    given = _cell(driver, 4, 2)
    assert "given" in given.get_attribute("class")
    given.click()  # givens do not change
    assert _cells(driver)[4, 2] == 1 and _cells(driver)[0, 1] == 0
    # row 1 is full: one drag across it
    ActionChains(driver).click_and_hold(_cell(driver, 1, 0)).move_to_element(_cell(driver, 1, 2)) \
        .move_to_element(_cell(driver, 1, 4)).release().perform()
    assert list(_cells(driver)[1]) == [1] * 5
    row_clue = driver.find_element(By.CSS_SELECTOR, 'td.row-clue[data-row="1"]')
    assert "done" in row_clue.get_attribute("class")
    for r, c in zip(*np.nonzero(grid), strict=True):
        if r != 1 and (r, c) != (4, 2):
            _cell(driver, r, c).click()
    assert "Solved" in _status(driver)
    assert driver.execute_script("return nonogenPlay.solved()")
    _shot(driver, "2d-bw-solved")


def test_color_solved_with_the_picker(driver, open_page):
    puzzle, grid = _color_puzzle()
    open_page("color", page_2d(puzzle, grid))
    boxes = driver.find_elements(By.CSS_SELECTOR, 'td.row-clue[data-row="0"] .num')
    assert [b.text for b in boxes] == ["2", "1"]
    assert boxes[1].value_of_css_property("color") == "rgba(17, 17, 17, 1)"  # dark digits on yellow
    assert boxes[0].value_of_css_property("color") == "rgba(255, 255, 255, 1)"  # light digits on red
    _shot(driver, "2d-color-start")
    for color in (1, 2):
        driver.find_element(By.CSS_SELECTOR, f'#palette .swatch[data-color="{color}"]').click()
        for r, c in zip(*np.nonzero(grid == color), strict=True):
            _cell(driver, r, c).click()
    assert "Solved" in _status(driver)
    assert (_cells(driver) == np.where(grid > 0, grid.astype(int), -1)).all()
    _shot(driver, "2d-color-solved")


def test_check_flags_mistakes(driver, open_page):
    puzzle, grid = _bw_puzzle()
    open_page("bw-check", page_2d(puzzle, grid))
    _cell(driver, 0, 0).click()  # right
    _cell(driver, 2, 0).click()  # wrong: empty in the picture
    ActionChains(driver).context_click(_cell(driver, 3, 2)).perform()  # marked empty, but it is filled
    assert _cells(driver)[3, 2] == 0
    driver.find_element(By.ID, "check").click()
    assert "2 mistakes" in _status(driver)
    flagged = {(int(e.get_attribute("data-row")), int(e.get_attribute("data-col")))
               for e in driver.find_elements(By.CSS_SELECTOR, "td.cell.wrong")}
    assert flagged == {(2, 0), (3, 2)}
    _shot(driver, "2d-check-mistakes")
    # the touch-friendly mark mode does what the right button does
    driver.find_element(By.ID, "mark-mode").click()
    _cell(driver, 0, 3).click()
    assert _cells(driver)[0, 3] == 0


def test_undo_redo_reload_reset_reveal(driver, open_page):
    """Failed once under load: it read the grid and the alert right after clicks; now it waits for each state."""
    puzzle, grid = _bw_puzzle()
    open_page("bw-undo", page_2d(puzzle, grid))
    for c in (0, 2, 4):
        _cell(driver, 0, c).click()
    filled = lambda: int((_cells(driver) > 0).sum())  # noqa: E731

    def expect(count: int) -> None:
        _until(driver, lambda d: filled() == count, f"{count} filled cells (have {filled()})")

    expect(4)  # three clicks and the given
    driver.find_element(By.ID, "undo").click()
    expect(3)
    ActionChains(driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    expect(2)
    driver.find_element(By.ID, "redo").click()
    ActionChains(driver).key_down(Keys.CONTROL).send_keys("y").key_up(Keys.CONTROL).perform()
    expect(4)
    reload(driver)
    expect(4)
    assert list(_cells(driver)[0]) == [1, 0, 1, -1, 1]
    _until(driver, lambda d: "restored" in _status(d), "the status to say the grid was restored")
    assert "done" in driver.find_element(By.CSS_SELECTOR, 'td.row-clue[data-row="0"]').get_attribute("class")
    _shot(driver, "2d-restored")
    driver.find_element(By.ID, "reset").click()
    expect(1)  # only the given is left
    driver.find_element(By.ID, "undo").click()
    expect(4)
    driver.find_element(By.ID, "reveal").click()
    _until(driver, EC.alert_is_present(), "the reveal question").dismiss()
    expect(4)
    driver.find_element(By.ID, "reveal").click()
    _until(driver, EC.alert_is_present(), "the reveal question").accept()
    _until(driver, lambda d: "Solved" in _status(d), "the status to say solved")
    assert ((_cells(driver) > 0) == (grid > 0)).all()


def _pixel(png: bytes, x: float, y: float) -> tuple[int, ...]:
    return Image.open(io.BytesIO(png)).convert("RGB").getpixel((int(x), int(y)))


def test_a_dark_background_is_the_page_board_as_in_solution_png(driver, open_page, tmp_path):
    """Regression: a white disc on black gave a solution.png with a black background, while the page kept its
    board white; the revealed picture read inverted, and its whitesmoke disc did not show at all. The board is
    the background colour, as every picture of the answer paints it, and an empty-mark still shows on it."""
    picture = tmp_path / "disc.png"
    img = Image.new("RGB", (80, 80), "black")
    ImageDraw.Draw(img).ellipse((16, 16, 63, 63), fill="white")
    img.save(picture)
    made = from_image(picture, colors=1, size=(8, 8))
    puzzle, report = made.puzzle, made.report
    assert puzzle.palette[0].rgb == "#000000" and made.solution[0, 0] == 0 and made.solution[4, 4] == 1
    out = save(made, tmp_path / "out")
    sheet = (out / "solution.png").read_bytes()
    line = caption(None, report["grade"], report["grade_name"])
    open_page("dark", (out / "puzzle.html").read_text(encoding="utf-8"))
    driver.find_element(By.ID, "reveal").click()
    _until(driver, EC.alert_is_present(), "the reveal question").accept()
    _until(driver, lambda d: "Solved" in _status(d), "the status to say solved")
    for r, c in ((0, 0), (4, 4), (7, 3)):  # background, the disc, background
        on_paper = _pixel(sheet, *cell_center(puzzle, r, c, 20, caption=line, legend=puzzle.is_color))
        assert on_paper == puzzle.palette[int(made.solution[r, c])].rgb_tuple
        shot = _cell(driver, r, c).screenshot_as_png
        size = Image.open(io.BytesIO(shot)).size
        on_page = _pixel(shot, size[0] / 2, size[1] / 2)
        assert max(abs(a - b) for a, b in zip(on_page, on_paper, strict=True)) <= 2, (r, c, on_page, on_paper)
    _shot(driver, "2d-dark-background-revealed")
    ActionChains(driver).context_click(_cell(driver, 0, 0)).perform()  # an empty-mark on the dark board
    _until(driver, lambda d: _cells(d)[0, 0] == 0, "the cell to be marked empty")
    dot = driver.execute_script("return getComputedStyle(arguments[0], '::after').backgroundColor",
                                _cell(driver, 0, 0))
    assert dot not in ("rgb(0, 0, 0)", "rgba(0, 0, 0, 0)")


# --- 3D -----------------------------------------------------------------------------------------------------------


def _canvas(driver):
    return driver.find_element(By.ID, "view")


def _click_cube(driver, x: int, y: int, z: int, button: str = "left") -> None:
    """Click cube (x, y, z) on the canvas where the page says a face of it shows, slicing first if needed."""
    X, Y, Z = driver.execute_script("return nonogenPlay.state().size")
    point = driver.execute_script("return nonogenPlay.screenPoint(...arguments)", x, y, z)
    for axis, k in (("z", z), ("y", y), ("x", X - 1 - x)):
        if point:
            break
        _set_slider(driver, axis, k)
        point = driver.execute_script("return nonogenPlay.screenPoint(...arguments)", x, y, z)
    assert point, f"cube {(x, y, z)} cannot be reached"
    canvas = _canvas(driver)
    size = canvas.size
    # WebDriver offsets count from the element's centre
    dx, dy = round(point["x"] - size["width"] / 2), round(point["y"] - size["height"] / 2)
    actions = ActionChains(driver).move_to_element_with_offset(canvas, dx, dy)
    (actions.context_click() if button == "right" else actions.click()).perform()
    for axis in ("x", "y", "z"):
        _set_slider(driver, axis, 0)


def _set_slider(driver, axis: str, k: int) -> None:
    """Move a slice slider the way the page listens to it (an ``input`` event on the range input)."""
    slider = driver.find_element(By.ID, f"slice-{axis}")
    driver.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", slider, k
    )


def _cube(driver, x: int, y: int, z: int) -> str:
    return driver.execute_script("return nonogenPlay.state().cubes[arguments[0]][arguments[1]][arguments[2]]", x, y, z)


def _webgl_works(driver) -> bool:
    return driver.execute_script("return !!document.createElement('canvas').getContext('webgl2')")


def _canvas_image(driver):
    from PIL import Image

    driver.execute_script("nonogenPlay.render()")
    return np.asarray(Image.open(io.BytesIO(_canvas(driver).screenshot_as_png)).convert("RGB")).astype(int)


def test_3d_solved_by_clicks(driver, open_page):
    cells = _level_cells()
    colors = np.zeros(cells.shape + (3,), dtype=np.uint8)
    colors[...] = (60, 160, 90)  # green floor
    colors[0, :2, 0] = (200, 50, 40)  # red post
    open_page("level", page_3d(puzzle3d_from_cells(cells), cells, colors, title="3D test"))
    assert _webgl_works(driver), "WebGL is not available in headless Chromium (SwiftShader flags?)"
    _shot(driver, "3d-start")
    todo = sorted((tuple(map(int, c)) for c in np.argwhere(~cells)), key=lambda c: (c[2], c[1], -c[0]))
    for x, y, z in todo:  # front to back
        _click_cube(driver, x, y, z)
        assert _cube(driver, x, y, z) == "broken", (x, y, z)
    assert "Solved" in _status(driver)
    assert driver.find_element(By.ID, "strikes").text == "0 / 5"
    image = _canvas_image(driver)
    red = (image[..., 0] > 150) & (image[..., 1] < 90) & (image[..., 2] < 90)
    green = (image[..., 1] > 110) & (image[..., 0] < 110) & (image[..., 2] < 130)
    assert red.sum() > 500 and green.sum() > 500, "the solved model is not drawn in its colours"
    assert np.nonzero(red)[0].mean() < np.nonzero(green)[0].mean(), "the red post should stand on the green floor"
    _shot(driver, "3d-solved")


def test_3d_strikes_paint_and_givens(driver, open_page):
    cells = _level_cells()
    level = puzzle3d_from_cells(cells).replace(givens=[(1, 2, 0, 1), (2, 0, 0, 0)])
    open_page("level-strikes", page_3d(level, cells))
    assert _cube(driver, 1, 2, 0) == "painted" and _cube(driver, 2, 0, 0) == "broken"
    _click_cube(driver, 0, 0, 0)  # part of the shape: a strike, the cube stays
    assert driver.find_element(By.ID, "strikes").text == "1 / 5"
    assert _cube(driver, 0, 0, 0) == "intact" and "Strike" in _status(driver)
    _shot(driver, "3d-strike")
    driver.find_element(By.ID, "mode-paint").click()
    _click_cube(driver, 1, 0, 0)  # not part of the shape, painted by mistake
    assert _cube(driver, 1, 0, 0) == "painted"
    driver.find_element(By.ID, "mode-break").click()
    _click_cube(driver, 1, 0, 0)  # painted cubes cannot be broken
    assert _cube(driver, 1, 0, 0) == "painted"
    _click_cube(driver, 1, 1, 0, button="right")  # right-click paints in any mode
    assert _cube(driver, 1, 1, 0) == "painted"
    # an inner cube: no face of it shows until the front layer is sliced away
    assert driver.execute_script("return nonogenPlay.screenPoint(1, 1, 1)") is None
    _set_slider(driver, "z", 1)
    _shot(driver, "3d-sliced")
    _click_cube(driver, 1, 1, 1)
    assert _cube(driver, 1, 1, 1) == "broken"
    driver.find_element(By.ID, "check").click()
    assert "2 painted cubes are not part" in _status(driver)
    _shot(driver, "3d-check")
    reload(driver)
    assert driver.find_element(By.ID, "strikes").text == "1 / 5" and _cube(driver, 1, 0, 0) == "painted"


def test_3d_is_upright_and_not_mirrored(driver, open_page):
    """A single cube at nonogen's (0, 0, 0) shows at the top left, in front."""
    cells = np.zeros((3, 3, 3), dtype=bool)
    cells[0, 0, 0] = True
    open_page("level-corner", page_3d(puzzle3d_from_cells(cells), cells))
    project = "return nonogenPlay.project(...arguments)"
    corner, far = (driver.execute_script(project, *c) for c in ((0, 0, 0), (2, 2, 2)))
    assert corner["x"] < far["x"] and corner["y"] < far["y"] and corner["depth"] < far["depth"]
    assert driver.execute_script("return nonogenPlay.worldPosition(0, 0, 0)") == [-1, 1, 1]
    for x, y, z in zip(*np.nonzero(~cells), strict=True):
        driver.execute_script("nonogenPlay.breakCube(...arguments)", int(x), int(y), int(z))
    assert "Solved" in _status(driver)
    image = _canvas_image(driver)
    orange = (image[..., 0] > 180) & (image[..., 1] > 90) & (image[..., 1] < 180) & (image[..., 2] < 110)
    rows, cols = np.nonzero(orange)
    assert rows.size > 200, "the solved cube is not drawn"
    h, w = orange.shape
    # the box is centred on the canvas: its top-left-front corner cube lies left of and above the centre
    assert cols.mean() < w / 2 and rows.mean() < h / 2
    _shot(driver, "3d-corner-solved")


# --- keyboard, hint, timer, crossed-off clues, phones ------------------------------------------------------------


def _wait(driver, condition, timeout: float = 10):
    """Wait until ``condition(driver)`` holds (never a fixed sleep)."""
    return WebDriverWait(driver, timeout).until(condition)


def _state(driver) -> dict:
    return driver.execute_script("return nonogenPlay.state()")


def test_keyboard_solves_the_grid_with_a_visible_cursor(driver, open_page):
    """The page worked by mouse only: no cell cursor, no arrows, no space/x."""
    puzzle, grid = _bw_puzzle()
    open_page("bw-keys", page_2d(puzzle, grid))
    board = driver.find_element(By.ID, "board")
    board.send_keys(Keys.ARROW_RIGHT)  # send_keys focuses the grid first, as Tab would
    assert driver.execute_script("return document.activeElement.id") == "board"
    assert _state(driver)["cursor"] == [0, 1]
    cursor = _cell(driver, 0, 1)
    assert "cursor" in cursor.get_attribute("class") and cursor.value_of_css_property("box-shadow") != "none"
    _shot(driver, "2d-keyboard-cursor")
    board.send_keys("x")  # (0, 1) is given empty: it stays
    assert _cells(driver)[0, 1] == 0 and "given" in _status(driver) and not _state(driver)["markMode"]
    board.send_keys(Keys.ARROW_LEFT, Keys.SPACE, Keys.SPACE)  # fill, then the same key clears
    assert _cells(driver)[0, 0] == -1
    board.send_keys(Keys.SPACE, Keys.ARROW_DOWN, Keys.ARROW_DOWN, "x", Keys.DELETE, "x")
    assert _cells(driver)[0, 0] == 1 and _cells(driver)[2, 0] == 0
    keys = []
    for r in range(5):  # walk the grid row by row from the top-left corner: fill, or mark empty
        for c in range(5):
            keys.append(Keys.SPACE if grid[r, c] and (r, c) not in ((0, 0), (4, 2)) else "")
            keys.append(Keys.ARROW_RIGHT if c < 4 else "")
        keys += [Keys.ARROW_DOWN] + [Keys.ARROW_LEFT] * 4
    board.send_keys(Keys.ARROW_UP, Keys.ARROW_UP, *[k for k in keys if k])
    _wait(driver, lambda d: d.execute_script("return nonogenPlay.solved()"))
    assert "Solved" in _status(driver) and ((_cells(driver) > 0) == (grid > 0)).all()
    _shot(driver, "2d-keyboard-solved")


def _best_line(puzzle, cells: np.ndarray) -> tuple[str, int, int]:
    """What the page's hint must pick, from the engine's own line solver: the line settling most cells."""
    from nonogen.solve.line import LineAutomaton, solve_line

    full = (1 << len(puzzle.palette)) - 1
    best = None
    for kind, clues, lines in (("row", puzzle.rows, cells), ("col", puzzle.cols, cells.T)):
        for k, (clue, line) in enumerate(zip(clues, lines, strict=True)):
            masks = solve_line(LineAutomaton(clue), [full if v < 0 else 1 << int(v) for v in line])
            assert masks is not None
            settled = sum(1 for v, m in zip(line, masks, strict=True) if v < 0 and m & (m - 1) == 0)
            if settled and (best is None or settled > best[2]):
                best = (kind, k, settled)
    return best


def test_hint_highlights_the_line_that_line_logic_advances(driver, open_page):
    """A hint is the next line the engine's line logic advances on the player's marks, shown highlighted."""
    puzzle, grid = _color_puzzle()
    open_page("color-hint", page_2d(puzzle, grid))
    driver.find_element(By.ID, "board").send_keys("h")
    _wait(driver, lambda d: d.execute_script("return nonogenPlay.state().hint !== null"))
    hint = _state(driver)["hint"]
    kind, index, settled = _best_line(puzzle, np.full(grid.shape, -1))
    assert (hint["kind"], hint["index"], len(hint["cells"])) == (kind, index, settled)
    clue = driver.find_element(By.CSS_SELECTOR, f'td.{kind}-clue[data-{kind}="{index}"]')
    assert "hint" in clue.get_attribute("class")
    lit = driver.find_elements(By.CSS_SELECTOR, "td.cell.hint")
    assert len(lit) == (puzzle.width if kind == "row" else puzzle.height)
    assert f"{'Row' if kind == 'row' else 'Column'} {index + 1}" in _status(driver)
    _shot(driver, "2d-hint")
    # the player follows the hint: the settled cells take the solution's values; the next hint moves on
    for t in hint["cells"]:
        r, c = (index, t) if kind == "row" else (t, index)
        driver.find_element(By.CSS_SELECTOR, f'#palette .swatch[data-color="{max(1, grid[r, c])}"]').click()
        if grid[r, c]:
            _cell(driver, r, c).click()
        else:
            ActionChains(driver).context_click(_cell(driver, r, c)).perform()
    assert _state(driver)["hint"] is None  # a change clears the old hint
    driver.find_element(By.ID, "hint").click()
    _wait(driver, lambda d: d.execute_script("return nonogenPlay.state().hint !== null"))
    second = _state(driver)["hint"]
    want = _best_line(puzzle, np.array(_cells(driver)))
    assert (second["kind"], second["index"], len(second["cells"])) == want
    # a mark that breaks a clue: the hint names that line instead
    driver.find_element(By.CSS_SELECTOR, '#palette .swatch[data-color="1"]').click()
    wrong_cell = next((r, c) for r, c in zip(*np.nonzero(grid == 0), strict=True) if _cells(driver)[r, c] == -1)
    _cell(driver, *wrong_cell).click()
    driver.find_element(By.ID, "hint").click()
    _wait(driver, lambda d: "cannot meet its clue" in d.find_element(By.ID, "status").text)
    assert _state(driver)["hint"]["contradiction"]


def test_page_line_solver_matches_the_engine_on_random_lines(driver, open_page):
    """The hint's JavaScript line logic gives every cell exactly the colours nonogen's solver does."""
    from nonogen.clues import line_clue
    from nonogen.solve.line import LineAutomaton, solve_line

    puzzle, grid = _color_puzzle()
    open_page("color-lines", page_2d(puzzle, grid))
    rng = np.random.default_rng(3)
    cases = []
    for _ in range(400):
        n, colours = int(rng.integers(1, 13)), int(rng.integers(2, 5))
        line = rng.integers(0, colours, size=n) * (rng.random(n) < 0.6)
        clue = [list(item) for item in line_clue(line)]
        full = (1 << colours) - 1
        domain = [int(1 << v) if rng.random() < 0.3 else full for v in (line if rng.random() < 0.8 else
                  rng.integers(0, colours, size=n))]
        cases.append((clue, domain))
    got = driver.execute_script("return arguments[0].map(([c, d]) => nonogenPlay.solveLine(c, d))", cases)
    for (clue, domain), answer in zip(cases, got, strict=True):
        want = solve_line(LineAutomaton(tuple(map(tuple, clue))), domain)
        assert answer == (None if want is None else list(want)), (clue, domain)
    assert sum(a is None for a in got) > 10 and sum(a is not None for a in got) > 100  # both kinds met


def test_clue_numbers_cross_off_by_hand_and_the_timer_keeps_time(driver, open_page):
    puzzle, grid = _bw_puzzle()
    open_page("bw-cross", page_2d(puzzle, grid))
    timer = _state(driver)["timer"]
    assert timer["running"] and re.fullmatch(r"\d+:\d\d", timer["text"])
    number = driver.find_element(By.CSS_SELECTOR, 'td.row-clue[data-row="0"] .num[data-cross="row:0:1"]')
    number.click()
    assert "crossed" in number.get_attribute("class") and _state(driver)["crossed"] == ["row:0:1"]
    assert "line-through" in number.value_of_css_property("text-decoration")
    _shot(driver, "2d-crossed-clue")
    driver.find_element(By.CSS_SELECTOR, '.num[data-cross="col:2:0"]').click()
    driver.find_element(By.CSS_SELECTOR, '.num[data-cross="row:0:1"]').click()  # again: back
    assert _state(driver)["crossed"] == ["col:2:0"]
    played = _state(driver)["timer"]["ms"]
    reload(driver)
    assert _state(driver)["crossed"] == ["col:2:0"] and _state(driver)["timer"]["ms"] >= played
    driver.find_element(By.ID, "reveal").click()
    driver.switch_to.alert.accept()
    _wait(driver, lambda d: d.execute_script("return nonogenPlay.solved()"))
    stopped = _state(driver)["timer"]
    assert not stopped["running"] and _state(driver)["timer"]["ms"] == stopped["ms"]


SIX = (Color("white", "#ffffff", "."), Color("1", "#d62828", "a"), Color("2", "#c81e3c", "b"),  # two reds
       Color("3", "#2a7de1", "c"), Color("4", "#2bb24c", "d"), Color("5", "#f6d743", "e"), Color("6", "#7a4bc2", "f"))


def test_six_colour_swatches_are_labelled_on_a_phone(driver, open_page):
    """On a phone the swatches of a 6-colour puzzle were bare squares, and two reds looked alike."""
    grid = np.arange(36).reshape(6, 6) % 7
    puzzle = puzzle_from_grid(grid.astype(np.uint8), palette=SIX)
    driver.set_window_size(390, 844)
    try:
        open_page("six-phone", page_2d(puzzle, grid))
        swatches = driver.find_elements(By.CSS_SELECTOR, "#palette .swatch")
        labels = [s.text.split("\n") for s in swatches]
        assert [label[0] for label in labels] == ["1", "2", "3", "4", "5", "6"]
        names = [label[1] for label in labels]
        assert len(set(names)) == 6 and names[0] != names[1] and all(names)
        for s in swatches:
            assert s.is_displayed() and s.size["width"] >= 40 and s.size["height"] >= 40  # a finger's target
        _shot(driver, "2d-six-colours-phone")
    finally:
        driver.set_window_size(1100, 900)


def test_3d_undo_strike_limit_and_the_model_named_when_solved(driver, open_page):
    """The 3D page had no undo, no strike limit, and never named the model."""
    cells = _level_cells()
    level = puzzle3d_from_cells(cells, title="Level 3x3x2", source="tiny_chair.stl")
    open_page("level-undo", page_3d(level, cells))
    heading = driver.find_element(By.TAG_NAME, "h1")
    assert heading.text == "Picross 3D 3x3x2"  # the name would give the answer away
    _click_cube(driver, 2, 0, 0)
    assert _cube(driver, 2, 0, 0) == "broken"
    driver.find_element(By.ID, "undo").click()
    assert _cube(driver, 2, 0, 0) == "intact"
    driver.execute_script("nonogenPlay.breakCube(2, 0, 0)")
    ActionChains(driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    assert _cube(driver, 2, 0, 0) == "intact" and _state(driver)["undo"] == 0
    limit = _state(driver)["strikeLimit"]
    assert limit == 5 and driver.find_element(By.ID, "strikes").text == "0 / 5"
    for _ in range(limit):
        assert driver.execute_script("return nonogenPlay.breakCube(0, 0, 0)") == "strike"
    assert "Out of strikes" in _status(driver) and driver.find_element(By.ID, "strikes").text == "5 / 5"
    assert driver.execute_script("return nonogenPlay.breakCube(2, 0, 0)") == "over"
    assert _cube(driver, 2, 0, 0) == "intact"
    _shot(driver, "3d-out-of-strikes")
    driver.find_element(By.ID, "reset").click()
    driver.switch_to.alert.accept()
    assert _state(driver)["strikes"] == 0
    for x, y, z in zip(*np.nonzero(~cells), strict=True):
        driver.execute_script("nonogenPlay.breakCube(...arguments)", int(x), int(y), int(z))
    _wait(driver, lambda d: d.execute_script("return nonogenPlay.solved()"))
    assert "It is: Tiny chair." in _status(driver) and heading.text == "Tiny chair"
    _shot(driver, "3d-named")
