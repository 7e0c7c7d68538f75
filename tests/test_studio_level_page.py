"""The 3D editor in headless Chromium through the real server: cubes added on faces and the floor, a box dragged and
filled, painted, removed, by the mouse, the keyboard and a finger; undo and redo; the proof after every edit; an
ambiguous shape's cubes shown and the suggested edit applied; saving in each 3D format, read back unique; a model's
up axis and turn as the command line makes them.

Clicks and drags are WebDriver pointer actions on the editor's canvas, at the points where the view's own picking
says a face of a cube (or a cell of the floor) is under the pointer (``levelView.facePoint``, ``floorPoint``); a
finger is a touch event sent through the DevTools protocol. Every wait is for a condition in the page: a verdict
counts once the page marks the answer to its newest edit done. One server and one browser serve the module;
screenshots go to ``tests/artifacts/``.
"""
from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium missing")
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

import nonogen  # noqa: E402
from nonogen import formats  # noqa: E402
from studio_server import Studio  # noqa: E402
from test_play_browser import browser  # noqa: E402,F401  (the shared headless Chromium)
from test_studio import _drop, _shot, _until  # noqa: E402

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
UP, FRONT, RIGHT = 2, 4, 0  # face indices in the view's FACES order (+x, -x, +y up, -y, +z front, -z)


@pytest.fixture(scope="module")
def editor(browser, tmp_path_factory) -> Iterator[tuple]:  # noqa: F811
    folder = tmp_path_factory.mktemp("editor")
    shutil.copy(SAMPLES / "meshes" / "chair.off", folder)
    server = Studio(folder, token=None)
    try:
        browser.set_window_size(1280, 900)
        browser.get(server.page)
        _until(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#folder-files option")) > 1)
        yield browser, server
    finally:
        code, errors = server.stop()
        assert "Traceback" not in errors, errors


# --- the page ------------------------------------------------------------------------------------------------------

def verdict(driver) -> str:
    """The verdict of the newest edit, once its proof has answered."""
    box = driver.find_element(By.ID, "level-verdict")
    _until(driver, lambda: box.get_attribute("data-done") == box.get_attribute("data-seq"))
    return box.get_attribute("data-status")


def cells(driver) -> str:
    return driver.execute_script("return nonogenStudio.level.doc.cells")


def cube(driver, x: int, y: int, z: int) -> str:
    size = driver.execute_script("return nonogenStudio.level.doc.size")
    return cells(driver)[(x * size[1] + y) * size[2] + z]


def new_box(driver, x: int, y: int, z: int, full: bool = False) -> None:
    for field, value in (("box-x", x), ("box-y", y), ("box-z", z)):
        driver.execute_script("arguments[0].value = arguments[1]", driver.find_element(By.ID, field), str(value))
    if driver.find_element(By.ID, "box-full").is_selected() != full:
        driver.find_element(By.ID, "box-full").click()
    driver.find_element(By.ID, "new-box").click()
    with view(driver):
        _until(driver, lambda: driver.execute_script("return !!window.levelView && levelView.state().size")
               == [x, y, z])
    assert verdict(driver) == "unique"


@contextlib.contextmanager
def view(driver) -> Iterator[None]:
    """Inside the editor's frame (its canvas, its levelView) for the block."""
    driver.switch_to.frame(driver.find_element(By.ID, "edit3d-frame"))
    try:
        yield
    finally:
        driver.switch_to.default_content()


def point(driver, where: tuple) -> dict:
    """Canvas point of a cube's face ``(x, y, z, face)`` or of a floor cell ``(x, z)`` (in the frame)."""
    script = f"return levelView.{'facePoint' if len(where) == 4 else 'floorPoint'}(...arguments)"
    found = driver.execute_script(script, *where)
    assert found, f"{where} cannot be clicked from this view"
    return found


def offset(driver, at: dict) -> tuple[float, float]:
    """WebDriver's offset from the canvas's middle of a canvas point."""
    width, height = driver.execute_script("const r = view.getBoundingClientRect(); return [r.width, r.height]")
    return at["x"] - width / 2, at["y"] - height / 2


def click(driver, where: tuple, button: str = "left") -> None:
    """A click (or a right-click) on a face or the floor, as a person makes it."""
    with view(driver):
        canvas = driver.find_element(By.ID, "view")
        actions = ActionChains(driver).move_to_element_with_offset(canvas, *offset(driver, point(driver, where)))
        (actions.context_click() if button == "right" else actions.click()).perform()


def keys(driver, *pressed, control: bool = False) -> None:
    """Keys pressed on the editor's view (focused first, as Tab would), with Ctrl held when ``control``."""
    with view(driver):
        driver.execute_script("document.getElementById('view').focus()")
        chain = ActionChains(driver)
        if control:
            chain.key_down(Keys.CONTROL)
        chain.send_keys(*pressed)
        if control:
            chain.key_up(Keys.CONTROL)
        chain.perform()


def put_corner(driver) -> None:
    """Four cubes of the box's bottom front left 2x2x2 corner, no two in a line, put in with the cube cursor (which
    starts at (0, 3, 0)) and Insert or Space: the shape has two solutions once the fourth is in."""
    keys(driver, Keys.ARROW_UP, Keys.INSERT)  # (0, 2, 0)
    _until(driver, lambda: cube(driver, 0, 2, 0) == "1")
    keys(driver, Keys.ARROW_RIGHT, Keys.ARROW_DOWN, Keys.INSERT)  # (1, 3, 0)
    _until(driver, lambda: cube(driver, 1, 3, 0) == "1")
    keys(driver, Keys.ARROW_UP, Keys.PAGE_DOWN, Keys.SPACE)  # (1, 2, 1): Space uses the tool, Add
    _until(driver, lambda: cube(driver, 1, 2, 1) == "1")
    assert verdict(driver) == "unique"
    keys(driver, Keys.ARROW_LEFT, Keys.ARROW_DOWN, Keys.INSERT)  # (0, 3, 1)
    _until(driver, lambda: cube(driver, 0, 3, 1) == "1")


# --- the tests ---------------------------------------------------------------------------------------------------

def test_mouse_edits_with_the_proof_after_each_and_undo(editor):
    driver, server = editor
    new_box(driver, 4, 4, 4)
    click(driver, (1, 1))  # the floor: a cube on the bottom layer (y = 3)
    _until(driver, lambda: cube(driver, 1, 3, 1) == "1")
    assert verdict(driver) == "unique"
    with view(driver):  # the mouse over its top face marks where Add puts a cube, before any click
        canvas = driver.find_element(By.ID, "view")
        top = offset(driver, point(driver, (1, 3, 1, UP)))
        ActionChains(driver).move_to_element_with_offset(canvas, *top).perform()
        _until(driver, lambda: driver.execute_script("return levelView.state().hover") == [1, 2, 1])
    keys(driver, "e")  # Remove (the mouse stays): the cube itself is marked
    with view(driver):
        _until(driver, lambda: driver.execute_script("return levelView.state().hover") == [1, 3, 1])
    _shot(driver, "studio-level-hover")
    keys(driver, "a")
    click(driver, (1, 3, 1, UP))  # its top face: a cube on it
    _until(driver, lambda: cube(driver, 1, 2, 1) == "1")
    assert verdict(driver) == "unique"
    assert driver.find_element(By.ID, "level-hidden").text.split()[1:2] == ["of"]
    driver.find_element(By.ID, "level-tool-paint").click()
    driver.find_element(By.CSS_SELECTOR, '#level-palette .swatch:nth-child(2) button').click()
    click(driver, (1, 2, 1, RIGHT))
    _until(driver, lambda: cube(driver, 1, 2, 1) == "2")
    assert verdict(driver) == "unique"  # a colour changes no clue
    click(driver, (1, 2, 1, FRONT), "right")  # the right button removes
    _until(driver, lambda: cube(driver, 1, 2, 1) == "0")
    assert verdict(driver) == "unique"
    # Box: a drag selects a box of the floor, shown while dragging; the Add tool fills it on release
    driver.find_element(By.ID, "level-tool-add").click()
    driver.find_element(By.ID, "level-box").click()
    before = cells(driver)
    with view(driver):
        canvas = driver.find_element(By.ID, "view")
        start, end = point(driver, (0, 0)), point(driver, (2, 2))
        ActionChains(driver).move_to_element_with_offset(canvas, *offset(driver, start)).click_and_hold() \
            .move_to_element_with_offset(canvas, *offset(driver, end)).perform()
        box = driver.execute_script("return levelView.state().box")
        assert box == {"from": [0, 3, 0], "to": [2, 3, 2]}
        ActionChains(driver).release().perform()
    _until(driver, lambda: all(cube(driver, x, 3, z) != "0" for x in range(3) for z in range(3)))
    assert verdict(driver) == "unique" and cube(driver, 1, 3, 1) == "1" and cube(driver, 3, 3, 3) == "0"
    assert cube(driver, 0, 3, 0) == "2"  # new cubes take the colour chosen, old ones keep theirs
    _shot(driver, "studio-level-box")
    driver.find_element(By.ID, "level-box").click()
    driver.find_element(By.ID, "level-undo").click()
    _until(driver, lambda: cells(driver) == before)
    assert verdict(driver) == "unique"
    driver.find_element(By.ID, "level-redo").click()
    _until(driver, lambda: cells(driver) != before and cube(driver, 2, 3, 2) == "2")  # colour 2, the one chosen
    assert verdict(driver) == "unique"


def test_keyboard_edits_an_ambiguous_shape_then_the_suggestion_settles_it(editor):
    """Four cubes of a 2x2x2 corner put in with the cube cursor and Insert: two solutions; the corner's eight cubes
    are marked in the view, the suggested edit is applied and the level is unique; Ctrl+Z and Ctrl+Y undo and redo."""
    driver, server = editor
    new_box(driver, 4, 4, 4)
    put_corner(driver)
    assert verdict(driver) == "multiple"
    _until(driver, lambda: driver.find_element(By.ID, "level-apply").is_displayed())
    assert driver.find_element(By.ID, "level-ambiguous").text == "8"
    assert driver.find_element(By.ID, "level-grade").text == "none: not unique"
    suggested = driver.execute_script("return nonogenStudio.level.suggestion.edits")
    assert len(suggested) == 1 and suggested[0][0] in (0, 1) and suggested[0][1] in (2, 3) and suggested[0][2] in (0, 1)
    with view(driver):
        assert driver.execute_script("return levelView.state().marks") == {"ambiguous": 8, "edits": 1}
    Select(driver.find_element(By.ID, "level-look")).select_by_value("clues")
    _shot(driver, "studio-level-ambiguous")
    driver.find_element(By.ID, "level-apply").click()
    assert verdict(driver) == "unique"
    with view(driver):
        assert driver.execute_script("return levelView.state().marks") == {"ambiguous": 0, "edits": 0}
    settled = cells(driver)
    keys(driver, "z", control=True)
    assert verdict(driver) == "multiple" and cells(driver) != settled
    keys(driver, "y", control=True)
    assert verdict(driver) == "unique" and cells(driver) == settled
    keys(driver, Keys.DELETE)  # the cursor's cube (0, 3, 1) goes
    _until(driver, lambda: cube(driver, 0, 3, 1) == "0")
    assert verdict(driver) in ("unique", "multiple")
    Select(driver.find_element(By.ID, "level-look")).select_by_value("colours")


def test_saves_in_every_3d_format_read_back_unique(editor):
    """An ambiguous level saved asks first and offers cubes to reveal; applied, it saves unique. Then each kind of
    file the editor writes, read back with nonogen: unique, with the editor's clues."""
    driver, server = editor
    new_box(driver, 4, 4, 4)
    put_corner(driver)
    assert verdict(driver) == "multiple"
    Select(driver.find_element(By.ID, "level-format")).select_by_value("nonogen-3d")
    driver.find_element(By.ID, "level-name").clear()
    driver.find_element(By.ID, "level-name").send_keys("corner.json")
    driver.find_element(By.ID, "level-save-button").click()
    _until(driver, lambda: driver.find_element(By.ID, "level-unique-confirm").is_displayed())
    assert "not unique" in driver.find_element(By.ID, "level-unique-question").text
    assert not (server.folder / "corner.json").exists()
    driver.find_element(By.ID, "level-fix-and-save").click()
    _until(driver, lambda: driver.find_element(By.ID, "level-save-status").get_attribute("data-saved") == "corner.json")
    saved = formats.load(server.folder / "corner.json")
    assert saved.givens and nonogen.verify(saved).status == "unique"
    assert verdict(driver) == "unique"
    for kind in ("folder", "nonogen-3d", "picross3d-nathsou", "picross3d-ytakata", "html"):
        Select(driver.find_element(By.ID, "level-format")).select_by_value(kind)
        name = driver.find_element(By.ID, "level-name")
        wanted = {"folder": "t-level", "nonogen-3d": "t.json", "picross3d-nathsou": "t-game.json",
                  "picross3d-ytakata": "t.txt", "html": "t.html"}[kind]
        name.clear()
        name.send_keys(wanted)
        driver.find_element(By.ID, "level-save-button").click()
        status = driver.find_element(By.ID, "level-save-status")
        _until(driver, lambda status=status, wanted=wanted: status.get_attribute("data-saved") == wanted
               or driver.find_element(By.ID, "level-unique-confirm").is_displayed())
        if driver.find_element(By.ID, "level-unique-confirm").is_displayed():  # a game's format drops revealed cubes
            assert kind.startswith("picross3d")
            driver.find_element(By.ID, "level-fix-and-save").click()
            _until(driver, lambda status=status, wanted=wanted: status.get_attribute("data-saved") == wanted)
        assert "proved unique as saved" in status.text
    hidden = driver.execute_script("return nonogenStudio.level.doc.hidden")
    for name in ("t-level/level.json", "t.json", "t-game.json", "t.txt"):
        read = formats.load(server.folder / name)
        assert nonogen.verify(read).status == "unique", name
    page = (server.folder / "t.html").read_text()
    data = json.loads(page.split('id="puzzle">', 1)[1].split("</script>", 1)[0])
    assert sum(c is None for axis in "xyz" for row in data["clues"][axis] for c in row) == len(hidden)


def _touch(driver, kind: str, *points: tuple[float, float]) -> None:
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
        {"x": x, "y": y, "id": n} for n, (x, y) in enumerate(points)]})


def _on_page(driver, where: tuple) -> tuple[float, float]:
    """The page's viewport point (where a finger lands) of a face or floor cell of the frame's view."""
    with view(driver):
        at = point(driver, where)
    left, top = driver.execute_script(
        "const f = document.getElementById('edit3d-frame'), r = f.getBoundingClientRect();"
        "return [r.left + f.clientLeft, r.top + f.clientTop]")
    return left + at["x"], top + at["y"]


def test_a_finger_adds_a_cube_and_drags_a_box(editor):
    driver, server = editor
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    try:
        new_box(driver, 3, 3, 3)
        tap = _on_page(driver, (0, 0))
        _touch(driver, "touchStart", tap)
        _touch(driver, "touchEnd")
        _until(driver, lambda: cube(driver, 0, 2, 0) == "1")
        assert verdict(driver) == "unique"
        driver.find_element(By.ID, "level-box").click()
        start, end = _on_page(driver, (2, 2)), _on_page(driver, (1, 1))
        _touch(driver, "touchStart", start)
        for k in range(1, 6):
            _touch(driver, "touchMove",
                   (start[0] + (end[0] - start[0]) * k / 5, start[1] + (end[1] - start[1]) * k / 5))
        _touch(driver, "touchEnd")
        _until(driver, lambda: all(cube(driver, x, 2, z) == "1" for x in (1, 2) for z in (1, 2)))
        assert verdict(driver) == "unique" and cube(driver, 2, 2, 0) == "0" and cube(driver, 0, 2, 2) == "0"
    finally:
        driver.find_element(By.ID, "level-box").click()
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})


def _view_angles(driver) -> dict:
    with view(driver):
        return driver.execute_script("return levelView.state().view")


def test_two_fingers_moved_together_turn_the_view_and_spread_zoom_it(editor):
    """Two fingers moved the same way turn the view (a box drag leaves one finger for boxes), moved apart they zoom;
    neither changes a cube."""
    driver, server = editor
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    try:
        new_box(driver, 3, 3, 3)
        before, cubes = _view_angles(driver), cells(driver)
        cx, cy = _on_page(driver, (1, 1))
        _touch(driver, "touchStart", (cx - 40, cy), (cx + 40, cy))
        for k in range(1, 9):  # both 80 px to the left, 20 px down
            _touch(driver, "touchMove", (cx - 40 - 10 * k, cy + 2.5 * k), (cx + 40 - 10 * k, cy + 2.5 * k))
        _touch(driver, "touchEnd")
        _until(driver, lambda: _view_angles(driver)["theta"] != before["theta"])
        turned = _view_angles(driver)
        assert turned["theta"] > before["theta"] and turned["phi"] < before["phi"]  # as one finger dragged so
        assert abs(turned["distance"] - before["distance"]) < 1e-6 * before["distance"]  # no pinch: no zoom
        _touch(driver, "touchStart", (cx - 40, cy), (cx + 40, cy))
        for k in range(1, 7):  # apart, symmetric: the midpoint stays, the view does not turn
            _touch(driver, "touchMove", (cx - 40 - 8 * k, cy), (cx + 40 + 8 * k, cy))
        _touch(driver, "touchEnd")
        _until(driver, lambda: _view_angles(driver)["distance"] < turned["distance"])
        assert abs(_view_angles(driver)["theta"] - turned["theta"]) < 1e-6 and cells(driver) == cubes
    finally:
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})


def test_the_verdict_line_and_its_timing_fit_a_1280_px_window(editor):
    """At 1280x800 the answer's timing is on screen whole, beside how it was found; the help is two lines, the keys
    behind a "More" that opens."""
    driver, server = editor
    driver.set_window_size(1280, 800)
    try:
        new_box(driver, 6, 6, 6)
        latency = driver.find_element(By.ID, "level-latency")
        _until(driver, lambda: latency.text.startswith("answered in"))
        box = driver.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.left, r.right, "
                                    "arguments[0].scrollWidth, arguments[0].clientWidth, window.innerWidth]", latency)
        assert box[1] <= box[4] and box[2] <= box[3], box  # inside the window, nothing of it cut
        more = driver.find_element(By.CSS_SELECTOR, "#level-tools details.help")
        height = lambda: driver.execute_script("return arguments[0].getBoundingClientRect().height", more)  # noqa: E731
        shut = height()
        assert not driver.execute_script("return arguments[0].open", more) and shut < 20
        more.find_element(By.TAG_NAME, "summary").click()
        _until(driver, lambda: driver.execute_script("return arguments[0].open", more) and height() > 3 * shut)
        _shot(driver, "studio-level-1280")
    finally:
        driver.set_window_size(1280, 900)


def test_a_models_up_axis_and_turn_make_the_level_as_the_command_line(editor, tmp_path):
    """A model at size 4 is a slab: the warning shows beside the picture of it, with why it was turned so. Up y and
    Turn 90 make the level again: the cubes `nonogen mesh --up y --turn 90` makes."""
    driver, server = editor
    driver.execute_script("arguments[0].value = '4'", driver.find_element(By.ID, "mesh-size"))
    _drop(driver, "chair.off", (server.folder / "chair.off").read_bytes())
    _until(driver, lambda: "a slab" in driver.find_element(By.ID, "mesh-warnings").text)
    assert driver.find_element(By.ID, "mesh-why").text.startswith("up z, turned 0°: up z: OFF files are usually z-up")
    assert verdict(driver) == "unique"
    _shot(driver, "studio-level-model")
    Select(driver.find_element(By.ID, "mesh-up")).select_by_value("y")
    Select(driver.find_element(By.ID, "mesh-turn")).select_by_value("90")
    driver.find_element(By.ID, "remesh").click()
    why = driver.find_element(By.ID, "mesh-why")
    _until(driver, lambda: (why.get_attribute("data-up"), why.get_attribute("data-turn")) == ("y", "90"))
    assert verdict(driver) == "unique"
    out = tmp_path / "cli"
    subprocess.run([sys.executable, "-m", "nonogen", "mesh", str(server.folder / "chair.off"), "--size", "4",
                    "--up", "y", "--turn", "90", "-o", str(out)], check=True, capture_output=True)
    made = formats.load(out / "level.json")
    doc = driver.execute_script("return nonogenStudio.level.doc")
    assert tuple(doc["size"]) == made.size
    goal = np.array([c != "0" for c in doc["cells"]]).reshape(made.size)
    assert np.array_equal(goal, made.goal)
