"""The Picross 3D page on a phone and for a screen reader, in headless Chromium with mobile emulation.

The browser is a phone (412 x 915 CSS pixels, touch): fingers are real touch events sent through the DevTools
protocol (``Input.dispatchTouchEvent``), which Chromium turns into the pointer and click events a phone sends.
A cube is touched where the page's own picking says a face of it shows (``nonogenPlay.screenPoint``), so the
test knows which cube is under the finger. Keys are pressed as a person presses them (WebDriver key events).
Every test checks from Chrome's network log that the page asked for nothing but local URLs (test_play_browser's
``_requested_urls``); screenshots go to ``tests/artifacts/3d-phone-*.png``.
"""
from __future__ import annotations

import json
from typing import Iterator

import numpy as np
import pytest

from nonogen.clues3d import puzzle3d_from_cells
from nonogen.export.html import page_3d

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium missing")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from test_play_browser import (  # noqa: E402
    _level_cells, _only_local, _shot, _state, _status, _until, reload,
)

from browsers import chromium  # noqa: E402

PHONE = {"width": 412, "height": 915, "pixelRatio": 2, "touch": True}
FINGER = 40  # CSS pixels: the smallest target a finger is given


@pytest.fixture
def phone() -> Iterator["webdriver.Chrome"]:
    """A phone of its own for the test (nothing stored from before: see tests/browsers.py); after the test, every
    URL it requested must be local (file:, data:, blob:)."""
    with chromium(phone=PHONE, webgl=True) as driver:
        yield driver
        _only_local(driver)


@pytest.fixture
def open_level(phone, tmp_path):
    """Open a level's page from a file (the test's own phone: nothing stored from before); the stage in view."""

    def go(name: str, cells: np.ndarray, level=None):
        path = tmp_path / f"{name}.html"
        path.write_text(page_3d(level or puzzle3d_from_cells(cells), cells), encoding="utf-8")
        phone.get(path.as_uri())
        reload(phone)
        assert phone.execute_script("return innerWidth") == PHONE["width"]
        _show_stage(phone)

    return go


def _show_stage(driver) -> None:
    driver.execute_script("document.getElementById('stage').scrollIntoView({block: 'center'})")


# --- fingers ---------------------------------------------------------------------------------------------------


def _touch(driver, kind: str, *points: tuple[float, float]) -> None:
    """One touch event: ``kind`` is touchStart, touchMove or touchEnd; points in CSS pixels of the viewport."""
    touch_points = [{"x": x, "y": y, "id": n} for n, (x, y) in enumerate(points)]
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": touch_points})


def _tap(driver, x: float, y: float) -> None:
    _touch(driver, "touchStart", (x, y))
    _touch(driver, "touchEnd")


def _tap_element(driver, element) -> None:
    """Tap the middle of an element, scrolled into view first (touches land on the viewport)."""
    x, y = driver.execute_script(
        "arguments[0].scrollIntoView({block: 'center'}); const r = arguments[0].getBoundingClientRect();"
        "return [r.left + r.width / 2, r.top + r.height / 2]", element)
    _tap(driver, x, y)


def _tap_id(driver, element_id: str) -> None:
    _tap_element(driver, driver.find_element(By.ID, element_id))


def _cube_on_screen(driver, x: int, y: int, z: int):
    """Viewport point of a face of cube (x, y, z) that the camera sees, by the page's own picking; or None."""
    point = driver.execute_script("return nonogenPlay.screenPoint(...arguments)", x, y, z)
    if point is None:
        return None
    rect = driver.find_element(By.ID, "view").rect
    scroll = driver.execute_script("return [scrollX, scrollY]")
    return rect["x"] - scroll[0] + point["x"], rect["y"] - scroll[1] + point["y"]


def _slice_by_touch(driver, axis: str, k: int) -> None:
    """Tap the slicer's - or + button until ``k`` layers along ``axis`` are hidden."""
    while (now := _state(driver)["slice"][axis]) != k:
        sign = 1 if k > now else -1
        button = f'.slicer .step[data-axis="{axis}"][data-step="{sign}"]'
        _tap_element(driver, driver.find_element(By.CSS_SELECTOR, button))
        _until(driver, lambda d, want=now + sign: _state(d)["slice"][axis] == want, f"the {axis} slicer to step")
    _show_stage(driver)


def _tap_cube(driver, x: int, y: int, z: int) -> None:
    """Tap cube (x, y, z), hiding layers by touch first where no face of it shows, and show them all again."""
    X = _state(driver)["size"][0]
    point = _cube_on_screen(driver, x, y, z)
    for axis, k in (("z", z), ("y", y), ("x", X - 1 - x)):
        if point:
            break
        _slice_by_touch(driver, axis, k)
        point = _cube_on_screen(driver, x, y, z)
    assert point, f"cube {(x, y, z)} cannot be reached"
    _tap(driver, *point)


def _cube(driver, x: int, y: int, z: int) -> str:
    return _state(driver)["cubes"][x][y][z]


def _record(driver) -> dict:
    """What the page keeps in localStorage for this level (play.js saveProgress)."""
    return json.loads(driver.execute_script(
        "return localStorage.getItem(JSON.parse(document.getElementById('puzzle').textContent).key)") or "null")


# --- touch -------------------------------------------------------------------------------------------------------


def test_one_finger_drag_turns_and_two_fingers_pinch_zoom(phone, open_level):
    open_level("phone-turn", _level_cells())
    before = _state(phone)["view"]
    corner = phone.execute_script("return nonogenPlay.project(0, 0, 0)")
    cx, cy = phone.execute_script(
        "const r = view.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]")
    _touch(phone, "touchStart", (cx, cy))
    for step in range(1, 13):  # 120 px to the left, 30 px down, in small moves as a finger makes them
        _touch(phone, "touchMove", (cx - 10 * step, cy + 2.5 * step))
    _touch(phone, "touchEnd")
    _until(phone, lambda d: _state(d)["view"]["theta"] != before["theta"], "the drag to turn the view")
    turned = _state(phone)["view"]
    assert turned["theta"] > before["theta"] and turned["phi"] < before["phi"]  # dragged left and down
    assert phone.execute_script("return nonogenPlay.project(0, 0, 0)")["x"] != corner["x"]
    state = _state(phone)
    assert state["undo"] == 0 and state["strikes"] == 0, "a drag must not break a cube"
    _shot(phone, "3d-phone-turned")
    _touch(phone, "touchStart", (cx - 50, cy), (cx + 50, cy))  # two fingers spread apart: zoom in
    for step in range(1, 7):
        _touch(phone, "touchMove", (cx - 50 - 10 * step, cy), (cx + 50 + 10 * step, cy))
    _touch(phone, "touchEnd")
    _until(phone, lambda d: _state(d)["view"]["distance"] < turned["distance"], "the pinch to zoom in")
    assert _state(phone)["undo"] == 0
    _shot(phone, "3d-phone-pinched")


def test_tap_breaks_paint_mode_paints_undo_and_layer_buttons(phone, open_level):
    """On a phone: tap a cube to break it, the Paint button makes a tap paint, Undo, and - / + hide layers."""
    open_level("phone-tap", _level_cells())
    _tap(phone, *_cube_on_screen(phone, 2, 0, 0))  # not part of the shape
    _until(phone, lambda d: _cube(d, 2, 0, 0) == "broken", "a tap to break the cube under the finger")
    assert _state(phone)["strikes"] == 0
    _tap_id(phone, "mode-paint")
    _until(phone, lambda d: _state(d)["mode"] == "paint", "the Paint button to switch the mode")
    _show_stage(phone)
    _tap(phone, *_cube_on_screen(phone, 0, 0, 0))
    _until(phone, lambda d: _cube(d, 0, 0, 0) == "painted", "a tap in Paint mode to paint the cube")
    _tap_id(phone, "undo")
    _until(phone, lambda d: _cube(d, 0, 0, 0) == "intact", "Undo to take the paint back")
    assert _cube(phone, 2, 0, 0) == "broken"
    assert _cube_on_screen(phone, 1, 1, 1) is None  # an inner cube: no face of it shows...
    _slice_by_touch(phone, "z", 1)  # ...until + hides the front layer
    assert _cube_on_screen(phone, 0, 0, 0) is None and _cube_on_screen(phone, 1, 1, 1) is not None
    _shot(phone, "3d-phone-sliced")
    _tap_id(phone, "mode-break")
    _show_stage(phone)
    _tap(phone, *_cube_on_screen(phone, 1, 1, 1))
    _until(phone, lambda d: _cube(d, 1, 1, 1) == "broken", "a tap to break the inner cube")
    _slice_by_touch(phone, "z", 0)  # - shows the layer again
    assert _cube_on_screen(phone, 0, 0, 0) is not None
    targets = phone.find_elements(By.CSS_SELECTOR, "#toolbar button, .slicer .step, .slicer input")
    assert len(targets) == 7 + 9
    for target in targets:
        size = target.size
        assert size["width"] >= FINGER and size["height"] >= FINGER, (target.get_attribute("outerHTML")[:80], size)


def test_a_level_solved_by_touch_is_kept_as_started_then_solved(phone, open_level):
    """The saved record says `started` after the first break and `solved` at the end, for a site's index."""
    cells = _level_cells()
    open_level("phone-solve", cells)
    assert _record(phone) is None  # nothing is stored for a level only looked at
    todo = sorted((tuple(map(int, c)) for c in np.argwhere(~cells)), key=lambda c: (c[2], c[1], -c[0]))
    for n, (x, y, z) in enumerate(todo):  # front to back
        _tap_cube(phone, x, y, z)
        _until(phone, lambda d, cube=(x, y, z): _cube(d, *cube) == "broken", f"a tap to break {(x, y, z)}")
        for axis in "xyz":
            _slice_by_touch(phone, axis, 0)
        if n == 0:
            record = _record(phone)
            assert record["started"] is True and record["solved"] is False and record["version"] == 1
    _until(phone, lambda d: _state(d)["solved"], "the level to be solved")
    assert "Solved" in _status(phone) and _state(phone)["strikes"] == 0
    assert _record(phone)["solved"] is True and _record(phone)["started"] is True
    _shot(phone, "3d-phone-solved")


def test_a_record_saved_before_started_and_solved_existed_still_loads(phone, open_level):
    cells = _level_cells()
    open_level("phone-old-record", cells)
    old = [0] * cells.size
    old[(2 * 3 + 0) * 2 + 0] = 1  # cube (2, 0, 0) broken, as the page saved it before the two fields existed
    phone.execute_script(
        "localStorage.setItem(JSON.parse(document.getElementById('puzzle').textContent).key, arguments[0])",
        json.dumps({"version": 1, "state": old, "strikes": 1}))
    reload(phone)
    assert _cube(phone, 2, 0, 0) == "broken" and _state(phone)["strikes"] == 1
    assert "Progress restored" in _status(phone)
    for x, y, z in np.argwhere(~cells).tolist():  # solved from that record: the record says so now
        phone.execute_script("nonogenPlay.breakCube(...arguments)", x, y, z)
    _until(phone, lambda d: (_record(d) or {}).get("solved") is True, "the record to say solved")


# --- screen reader and keys ----------------------------------------------------------------------------------------


def _said(driver) -> str:
    return driver.find_element(By.ID, "cursor-say").get_attribute("textContent")


def _clue_words(level, axis: str, x: int, y: int, z: int) -> str:
    at = {"x": (y, z), "y": (x, z), "z": (x, y)}[axis]
    clue = level.clues[axis][at[0]][at[1]]
    if clue is None:
        return "no clue"
    count, groups = clue
    return f"{count}" + {1: "", 2: " in a circle"}.get(groups, " in a square")


def test_the_cursor_position_is_announced_to_a_screen_reader(phone, open_level):
    cells = _level_cells()
    full = puzzle3d_from_cells(cells)
    hidden = [[None if (x, y) == (1, 0) else c for y, c in enumerate(row)] for x, row in enumerate(full.clues["z"])]
    level = full.replace(clues={**full.clues, "z": hidden}, givens=[(2, 2, 1, 1)])  # a hidden clue, a given cube
    open_level("phone-say", cells, level)
    region = phone.find_element(By.ID, "cursor-say")
    assert region.get_attribute("aria-live") == "polite" and region.get_attribute("aria-atomic") == "true"
    view = phone.find_element(By.ID, "view")
    view.send_keys(Keys.ARROW_RIGHT)

    def words(x, y, z, what):
        clues = ", ".join(f"{name} {_clue_words(level, axis, x, y, z)}" for axis, name in
                          (("x", "left-to-right"), ("y", "top-to-bottom"), ("z", "front-to-back")))
        return f"x {x + 1}, y {y + 1}, z {z + 1}: {what}. Clues: {clues}."

    _until(phone, lambda d: _said(d) == words(1, 0, 0, "unknown"), "the cursor's new place to be said")
    assert "front-to-back no clue" in _said(phone)  # the hidden clue of its line along z
    view.send_keys(Keys.SPACE)  # Break mode: breaks (1, 0, 0), which is not part of the shape
    _until(phone, lambda d: _said(d) == words(1, 0, 0, "broken"), "the broken cube to be said")
    view.send_keys(Keys.ARROW_LEFT, "f")
    _until(phone, lambda d: _said(d) == words(0, 0, 0, "painted"), "the painted cube to be said")
    view.send_keys(Keys.ARROW_LEFT)
    _until(phone, lambda d: _said(d) == "Edge. " + words(0, 0, 0, "painted"), "the edge of the box to be said")
    view.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.PAGE_DOWN)
    _until(phone, lambda d: _said(d) == words(2, 2, 1, "painted (given)"), "a given cube to be said")
    assert region.size["width"] <= 1 and region.size["height"] <= 1  # for the screen reader, not drawn...
    found = phone.execute_cdp_cmd("Runtime.evaluate", {"expression": "document.getElementById('cursor-say')"})
    node = phone.execute_cdp_cmd("Accessibility.getPartialAXTree",
                                 {"objectId": found["result"]["objectId"], "fetchRelatives": False})["nodes"][0]
    assert not node["ignored"]  # ...but in the accessibility tree, as a polite live region
    assert {p["name"]: p["value"]["value"] for p in node["properties"]}["live"] == "polite"


def _keys_stored(driver) -> dict:
    return json.loads(driver.execute_script("return localStorage.getItem('nonogen-keys-3d')") or "null")


def test_remapped_keys_work_and_survive_a_reload(phone, open_level):
    """As in nathsou/Picross3D: an AZERTY layout at one press, one action's key by pressing it; kept."""
    open_level("phone-keys", _level_cells())
    phone.find_element(By.CSS_SELECTOR, "#keymap summary").click()
    phone.find_element(By.CSS_SELECTOR, '#key-layouts [data-layout="azerty"]').click()
    _until(phone, lambda d: (_keys_stored(d) or {}).get("keys", {}).get("left") == "q", "the AZERTY layout to be kept")
    phone.find_element(By.ID, "key-break").click()
    _until(phone, lambda d: d.find_element(By.ID, "key-break").text == "press a key…", "the button to wait for a key")
    phone.switch_to.active_element.send_keys("k")
    _until(phone, lambda d: d.find_element(By.ID, "key-break").text == "K", "K to become the break key")
    assert _keys_stored(phone) == {"version": 1, "keys": {
        "left": "q", "right": "d", "up": "z", "down": "s", "front": "a", "deeper": "e", "turnLeft": "",
        "turnRight": "", "break": "k", "paint": "f", "breakMode": "b", "paintMode": "p", "hint": "h"}}
    _shot(phone, "3d-phone-keys")
    reload(phone)
    assert phone.find_element(By.CSS_SELECTOR, '#keys kbd[data-action="break"]').get_attribute("textContent") == "K"
    view = phone.find_element(By.ID, "view")
    view.send_keys("d")  # AZERTY: D moves right
    _until(phone, lambda d: _state(d)["cursor"] == [1, 0, 0], "D to move the cursor right")
    view.send_keys("x")  # X breaks no more...
    view.send_keys("k")  # ...K does
    _until(phone, lambda d: _cube(d, 1, 0, 0) == "broken", "K to break the cube")
    assert _state(phone)["strikes"] == 0 and _state(phone)["undo"] == 1  # X did nothing
    view.send_keys(Keys.ARROW_RIGHT, "e")  # the fixed keys still work; E goes a layer deeper
    _until(phone, lambda d: _state(d)["cursor"] == [2, 0, 1], "the arrow and E to move the cursor")


def test_no_sideways_scrolling_at_412_and_360_px(phone, open_level):
    open_level("phone-width", _level_cells())
    phone.find_element(By.CSS_SELECTOR, "#keymap summary").click()  # the key list open too
    overflow = "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    assert phone.execute_script(overflow) == 0
    _shot(phone, "3d-phone-412")
    phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                          {"width": 360, "height": 780, "deviceScaleFactor": 2, "mobile": True})
    try:
        _until(phone, lambda d: d.execute_script("return innerWidth") == 360, "the page to be 360 px wide")
        assert phone.execute_script(overflow) == 0
        phone.execute_script("scrollTo(0, 0)")
        _shot(phone, "3d-phone-360")
    finally:
        phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": PHONE["width"], "height": PHONE["height"], "deviceScaleFactor": PHONE["pixelRatio"],
            "mobile": True})
