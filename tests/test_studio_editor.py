"""The studio as an editor, in headless Chromium through the real server: undo and redo over every kind of edit,
the line, rectangle and fill tools, a blank grid, a resize from any side, the title, author and licence fields in
the saved files, and cells sized to the window.

One server and one browser serve the whole module; every test starts from a new blank grid (which starts a new
history), and every wait is for a condition in the page. The browser helpers are tests/test_studio.py's.
"""
from __future__ import annotations

import json
from typing import Iterator

import pytest

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium missing")
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

from nonogen import formats  # noqa: E402
from nonogen.cli.common import EXIT_TERMINATED  # noqa: E402
from studio_server import Studio  # noqa: E402
from test_play_browser import browser  # noqa: E402,F401  (the shared headless Chromium)
from test_studio import SAMPLES, _cell, _shot, _until, _verdict, _width  # noqa: E402


def viewport(driver, width: int = 1280, height: int = 800) -> None:
    """The page's own area at ``width`` x ``height`` (the window is larger by the browser's frame)."""
    driver.set_window_size(width, height)
    extra = driver.execute_script(
        "return [window.outerWidth - window.innerWidth, window.outerHeight - window.innerHeight]")
    driver.set_window_size(width + extra[0], height + extra[1])


@pytest.fixture(scope="module")
def editor(browser, tmp_path_factory) -> Iterator[tuple]:  # noqa: F811
    folder = tmp_path_factory.mktemp("editor")
    (folder / "heart.non").write_bytes((SAMPLES / "puzzles" / "heart.non").read_bytes())
    server = Studio(folder, token=None)
    try:
        viewport(browser)
        browser.get(server.page)
        _until(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#folder-files option")) > 1)
        yield browser, folder
    finally:
        code, errors = server.stop()
        assert code == EXIT_TERMINATED and "Traceback" not in errors, errors


def doc(driver) -> dict:
    """The document on screen, without the picture's reference (what undo and redo restore)."""
    return driver.execute_script(
        "const d = nonogenStudio.state.doc; return JSON.parse(JSON.stringify({...d, reference: null}))")


def depth(driver) -> int:
    return int(driver.find_element(By.ID, "undo").get_attribute("data-depth"))


def checked(driver) -> bool:
    """The verdict and grade of the grid on screen have come."""
    verdict = driver.find_element(By.ID, "verdict")
    return verdict.get_attribute("data-status") != "checking" and verdict.get_attribute("data-done") == \
        str(driver.execute_script("return nonogenStudio.state.checkSeq"))


def set_field(driver, element_id: str, value: str) -> None:
    field = driver.find_element(By.ID, element_id)
    field.send_keys(Keys.CONTROL, "a", Keys.NULL, value, Keys.TAB)


def new_grid(driver, width: int, height: int, colours: int = 1) -> None:
    for element_id, value in (("new-width", width), ("new-height", height), ("new-colors", colours)):
        set_field(driver, element_id, str(value))
    driver.find_element(By.ID, "new-grid").click()
    _until(driver, lambda: doc(driver)["grid"] == [[0] * width] * height and depth(driver) == 0 and checked(driver))


def tool(driver, name: str) -> None:
    driver.find_element(By.ID, "tool-" + name).click()


def drag(driver, start: tuple[int, int], end: tuple[int, int]) -> None:
    ActionChains(driver).click_and_hold(_cell(driver, *start)).move_to_element(_cell(driver, *end)).release().perform()


def ctrl(driver, key: str, shift: bool = False) -> None:
    """Ctrl+key (Ctrl+Shift+key) pressed on the page, not in a field."""
    driver.execute_script("document.activeElement.blur()")
    chain = ActionChains(driver).key_down(Keys.CONTROL)
    chain = chain.key_down(Keys.SHIFT) if shift else chain
    chain = chain.send_keys(key)
    chain = chain.key_up(Keys.SHIFT) if shift else chain
    chain.key_up(Keys.CONTROL).perform()


def recolour(driver, index: int, rgb: str) -> None:
    """Pick ``rgb`` for palette entry ``index`` as the colour dialog does: the value changes, then "input", "change"."""
    driver.execute_script("""
        const pick = document.querySelector(`#palette .swatch[data-color="${arguments[0]}"] input[type=color]`);
        pick.value = arguments[1];
        pick.dispatchEvent(new Event("input"));
        pick.dispatchEvent(new Event("change"));""", index, rgb)


def row_clue(driver, r: int) -> str:
    return " ".join(n.text for n in driver.find_elements(By.CSS_SELECTOR, f'#board td.row-clue[data-row="{r}"] .num'))


def test_undo_and_redo_cover_every_kind_of_edit(editor):
    """Cells, a drawn line, a colour added, recoloured, painted and removed, a given, a resize and the title: each
    one undo step, undone by Ctrl+Z
    and the button, redone by Ctrl+Y, Ctrl+Shift+Z and the button; an edit after an undo ends the redo branch;
    a puzzle opened starts a new history."""
    driver, folder = editor
    new_grid(driver, 5, 5)
    states = [doc(driver)]

    def step(action, condition):
        action()
        _until(driver, lambda: depth(driver) == len(states) and condition())
        states.append(doc(driver))

    step(lambda: _cell(driver, 0, 0).click(), lambda: row_clue(driver, 0) == "1")
    step(lambda: (tool(driver, "line"), drag(driver, (2, 0), (2, 4))), lambda: row_clue(driver, 2) == "5")
    tool(driver, "paint")
    step(lambda: driver.find_element(By.ID, "add-color").click(),
         lambda: len(driver.find_elements(By.CSS_SELECTOR, "#palette .swatch")) == 3)
    step(lambda: recolour(driver, 2, "#00aa00"), lambda: doc(driver)["palette"][2]["rgb"] == "#00aa00")
    step(lambda: (driver.find_element(By.CSS_SELECTOR, '#palette .swatch[data-color="2"] .use').click(),
                  _cell(driver, 4, 0).click()), lambda: doc(driver)["grid"][4][0] == 2)
    step(lambda: driver.find_element(By.CSS_SELECTOR, '#palette .swatch[data-color="2"] .drop-color').click(),
         lambda: len(driver.find_elements(By.CSS_SELECTOR, "#palette .swatch")) == 2)
    step(lambda: (tool(driver, "given"), _cell(driver, 2, 2).click()),
         lambda: driver.find_element(By.ID, "givens-count").text == "1")
    step(lambda: driver.find_element(By.CSS_SELECTOR, '#resize button[data-side="right"][data-delta="1"]').click(),
         lambda: _width(driver) == 6)
    step(lambda: set_field(driver, "doc-title", "Boat"), lambda: True)
    assert states[-1]["title"] == "Boat" and states[-1]["givens"] == [[2, 2]] and len(states[-1]["grid"][0]) == 6
    assert driver.find_element(By.ID, "redo").get_property("disabled")
    for k in reversed(range(len(states) - 1)):  # back to the blank grid: the keyboard and the button in turn
        if k % 2:
            ctrl(driver, "z")
        else:
            driver.find_element(By.ID, "undo").click()
        _until(driver, lambda k=k: doc(driver) == states[k] and depth(driver) == k, f"undo to step {k}")
    assert _width(driver) == 5 and driver.find_element(By.ID, "undo").get_property("disabled")
    assert driver.find_element(By.ID, "doc-title").get_attribute("value") == ""
    for k in range(1, len(states)):
        [lambda: ctrl(driver, "y"), lambda: ctrl(driver, "z", shift=True),
         lambda: driver.find_element(By.ID, "redo").click()][k % 3]()
        _until(driver, lambda k=k: doc(driver) == states[k] and depth(driver) == k, f"redo to step {k}")
    assert driver.find_element(By.ID, "doc-title").get_attribute("value") == "Boat" and _width(driver) == 6
    _until(driver, lambda: checked(driver) and _verdict(driver) in ("unique", "multiple"))
    ctrl(driver, "z")
    ctrl(driver, "z")
    _until(driver, lambda: depth(driver) == len(states) - 3)
    tool(driver, "paint")
    _cell(driver, 4, 4).click()
    _until(driver, lambda: depth(driver) == len(states) - 2 and doc(driver)["grid"][4][4] == 1)
    assert driver.find_element(By.ID, "redo").get_property("disabled")
    Select(driver.find_element(By.ID, "folder-files")).select_by_value("heart.non")
    driver.find_element(By.ID, "open").click()
    _until(driver, lambda: _width(driver) == 7 and depth(driver) == 0)
    assert driver.find_element(By.ID, "undo").get_property("disabled")
    ctrl(driver, "z")  # nothing to undo: the opened puzzle stays
    assert _width(driver) == 7 and depth(driver) == 0


def test_line_rectangle_and_fill(editor):
    driver, folder = editor
    new_grid(driver, 8, 8)
    tool(driver, "rect")
    drag(driver, (1, 1), (5, 6))
    outline = [[int(1 <= r <= 5 and 1 <= c <= 6 and (r in (1, 5) or c in (1, 6))) for c in range(8)] for r in range(8)]
    _until(driver, lambda: doc(driver)["grid"] == outline and depth(driver) == 1)
    assert row_clue(driver, 1) == "6" and row_clue(driver, 3) == "1 1"
    tool(driver, "fill")
    _cell(driver, 3, 3).click()  # the inside of the rectangle
    block = [[int(1 <= r <= 5 and 1 <= c <= 6) for c in range(8)] for r in range(8)]
    _until(driver, lambda: doc(driver)["grid"] == block and depth(driver) == 2)
    ActionChains(driver).context_click(_cell(driver, 2, 2)).perform()  # the right button fills with background
    _until(driver, lambda: doc(driver)["grid"] == [[0] * 8] * 8 and depth(driver) == 3)
    ctrl(driver, "z")
    _until(driver, lambda: doc(driver)["grid"] == block)
    driver.execute_script("document.activeElement.blur()")
    ActionChains(driver).send_keys("l").perform()  # L: the line tool
    _until(driver, lambda: driver.find_element(By.ID, "tool-line").get_attribute("aria-pressed") == "true")
    drag(driver, (0, 7), (7, 0))  # the other diagonal, over the block
    _until(driver, lambda: all(doc(driver)["grid"][r][7 - r] == 1 for r in range(8)) and depth(driver) == 3)
    assert doc(driver)["grid"][0][0] == 0 and row_clue(driver, 0) == "1" and row_clue(driver, 7) == "1"
    _until(driver, lambda: checked(driver))
    _shot(driver, "studio-editor-tools")


def test_new_grid_resize_and_fields_reach_the_files(editor):
    """A blank grid filled, then a row and a column added and removed on each side (the cells stay where they
    were drawn); the title, author and licence go into every format that holds them, and the rest say so."""
    driver, folder = editor
    new_grid(driver, 4, 3)
    tool(driver, "fill")
    _cell(driver, 0, 0).click()
    _until(driver, lambda: doc(driver)["grid"] == [[1] * 4] * 3)
    for side, delta in (("top", 1), ("left", -1), ("right", 1), ("bottom", -1), ("bottom", 1), ("top", -1)):
        driver.find_element(By.CSS_SELECTOR, f'#resize button[data-side="{side}"][data-delta="{delta}"]').click()
    _until(driver, lambda: doc(driver)["grid"] == [[1, 1, 1, 0], [1, 1, 1, 0], [0, 0, 0, 0]] and depth(driver) == 7)
    assert driver.find_element(By.ID, "size").text == "4 x 3"
    meta = {"title": "Little boat", "author": "Ada Lovelace", "license": "CC-BY-4.0"}
    for key, value in meta.items():
        set_field(driver, "doc-" + key, value)
    _until(driver, lambda: {k: doc(driver)[k] for k in meta} == meta and checked(driver)
           and _verdict(driver) == "unique")
    saved = {}
    for kind, name in (("nonogen", "boat.json"), ("non", "boat.non"), ("webpbn", "boat.xml"), ("cnon", "boat.cnon")):
        Select(driver.find_element(By.ID, "save-format")).select_by_value(kind)
        set_field(driver, "save-name", name)
        driver.find_element(By.ID, "save-button").click()
        _until(driver, lambda name=name: driver.find_element(By.ID, "save-status").get_attribute("data-saved") == name)
        saved[kind] = driver.find_element(By.ID, "save-status").text
    for name in ("boat.json", "boat.non", "boat.xml"):
        puzzle = formats.load(folder / name)
        assert {k: puzzle.meta.get(k) for k in meta} == meta, name
        assert puzzle.goal is None or [list(r) for r in puzzle.goal] == [[1, 1, 1, 0], [1, 1, 1, 0], [0, 0, 0, 0]]
    assert "drops" not in saved["non"] and "drops" not in saved["webpbn"]
    assert "metadata title, author, license" in saved["cnon"]  # .cnon holds clues only: the page says what went
    assert json.loads((folder / "boat.json").read_text())["author"] == "Ada Lovelace"


@pytest.mark.parametrize("size", [10, 30])
def test_cells_fill_the_window(editor, size):
    """The grid uses the window: at 1280x800 a 10x10 grid gets large cells, a 30x30 one still at least 24 px,
    and neither runs wider than the page."""
    driver, folder = editor
    new_grid(driver, size, size)
    tool(driver, "rect")
    drag(driver, (1, 1), (size - 2, size // 2))
    tool(driver, "line")
    drag(driver, (size - 1, 0), (0, size - 1))
    _until(driver, lambda: depth(driver) == 2 and checked(driver))
    box = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height]",
                                _cell(driver, 0, 0))
    board = driver.execute_script("return document.getElementById('board').getBoundingClientRect().right")
    assert min(box) >= (32 if size == 10 else 24), box
    assert board <= driver.execute_script("return document.documentElement.clientWidth"), board
    _shot(driver, f"studio-editor-{size}x{size}")
