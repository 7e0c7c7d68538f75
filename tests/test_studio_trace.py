"""Tracing a photo in the studio: the picture beside and under the grid, and the tools that draw from it.

The tools' answers are checked cell for cell on a picture made here (a dark disc and a square on a light ground,
with noise), whose cells are known from its geometry: through the API (a real server and its workers), then in
headless Chromium as an author uses them, each one an undo step followed by the engine's verdict. Where the picture
lies under the grid is checked against the importer's own reference in every fit. Every wait is for a condition.
"""
from __future__ import annotations

import io
from typing import Iterator

import numpy as np
import pytest
from PIL import Image

from nonogen.cli.common import EXIT_TERMINATED
from nonogen.importers.frame import luma
from nonogen.importers.image import ImageOptions, image_to_grid
from nonogen.studio.trace import cutout, frame_box, lay, region
from studio_server import Studio

ROWS, COLS = 16, 24  # the picture is 240 x 160: 10 pixels a cell at this size
DISC = (60, 80, 40)  # centre x, y and radius in pixels: every cell is under 35 % or over 65 % disc
SQUARE = (140, 40, 210, 120)  # left, top, right, bottom in pixels: cells 14-20 across, 4-11 down
OPTIONS = {"width": COLS, "mode": "bw", "fit": "pad"}  # the whole picture on the grid, no subject framing


def photo() -> Image.Image:
    """The test photo: a dark disc and a dark square on a light ground, with sensor-like noise."""
    rng = np.random.default_rng(7)
    y, x = np.mgrid[0:160, 0:240] + 0.5
    pixels = np.full((160, 240, 3), 225.0)
    pixels[(x - DISC[0]) ** 2 + (y - DISC[1]) ** 2 <= DISC[2] ** 2] = (40, 40, 60)
    pixels[(x >= SQUARE[0]) & (x < SQUARE[2]) & (y >= SQUARE[1]) & (y < SQUARE[3])] = (70, 50, 40)
    pixels += rng.normal(0, 8, pixels.shape)
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), "RGB")


def photo_png() -> bytes:
    out = io.BytesIO()
    photo().save(out, "PNG")
    return out.getvalue()


def disc_cells() -> np.ndarray:
    """The cells the disc covers by at least half (ROWS x COLS bool), from its geometry (8 samples a pixel side)."""
    y, x = (np.mgrid[0:160 * 8, 0:240 * 8] + 0.5) / 8
    share = ((x - DISC[0]) ** 2 + (y - DISC[1]) ** 2 <= DISC[2] ** 2).reshape(ROWS, 80, COLS, 80).mean(axis=(1, 3))
    assert not np.any((share > 0.35) & (share < 0.65)), "a cell half under the disc: the test picture is ambiguous"
    return share >= 0.5


def square_cells() -> np.ndarray:
    cells = np.zeros((ROWS, COLS), bool)
    cells[SQUARE[1] // 10:SQUARE[3] // 10, SQUARE[0] // 10:SQUARE[2] // 10] = True
    return cells


def boundary(cells: np.ndarray) -> np.ndarray:
    """Covered cells with an uncovered one (or the grid's edge) among their eight neighbours."""
    padded = np.pad(cells, 1)
    inner = np.all([padded[1 + dr:ROWS + 1 + dr, 1 + dc:COLS + 1 + dc] for dr in (-1, 0, 1) for dc in (-1, 0, 1)], 0)
    return cells & ~inner


def as_cells(pairs: list) -> np.ndarray:
    cells = np.zeros((ROWS, COLS), bool)
    for r, c in pairs:
        cells[r, c] = True
    return cells


# --- where the picture lies --------------------------------------------------------------------------------


@pytest.mark.parametrize("options", [
    {"width": 30}, {"width": 30, "mode": "bw"}, {"width": 24, "mode": "bw", "fit": "pad"},
    {"width": 24, "height": 24, "fit": "crop"},
    {"width": 24, "height": 12, "fit": "pad"}, {"width": 30, "height": 10, "fit": "crop"},
    {"width": 20, "height": 20, "fit": "stretch"}, {"width": 20, "crop": True, "fit": "pad"},
    {"width": 10, "height": 30, "fit": "crop", "crop": True}])
def test_the_frame_is_where_the_import_laid_the_picture(options):
    """The picture's part under each cell (:func:`frame_box`, laid at the tools' resolution) has the luma the
    importer measured for that cell, in every fit (a subject framed, padded, cropped to a window, stretched,
    cropped to the content first); shifted by one cell any way, it matches worse. The framed cases are 30 wide,
    7 pixels a cell: at the default size (60 wide, 3.5 pixels) the importer's whole pixels a cell put the disc's
    edge half a pixel off the laid frame's, and that alone is the 4-point tolerance."""
    image = photo()
    imported = image_to_grid(image, ImageOptions(**options, max_side=100), advise=False)
    rows, cols = imported.grid.shape
    box = frame_box(image, ImageOptions(**options, max_side=100), imported.info, rows, cols)

    def error(box: list[float]) -> float:
        laid = lay(image, box, rows, cols)
        return float(np.abs(laid.cells(luma(laid.rgb.astype(np.float32))) - imported.reference).mean())

    assert error(box) < 4.0, (box, imported.info)
    dx, dy = (box[2] - box[0]) / cols, (box[3] - box[1]) / rows
    for x, y in ((dx, 0), (-dx, 0), (0, dy), (0, -dy)):
        assert error([box[0] + x, box[1] + y, box[2] + x, box[3] + y]) > error(box), (x, y)


# --- the API ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Studio]:
    folder = tmp_path_factory.mktemp("trace")
    (folder / "photo.png").write_bytes(photo_png())
    studio = Studio(folder, token=None, args=("--open", "photo.png"))
    try:
        yield studio
    finally:
        code, errors = studio.stop()
        assert code == EXIT_TERMINATED and "Traceback" not in errors, errors


def test_the_tools_answer_in_cells(server):
    """Region, outline, threshold and specks through the server and its workers, cell for cell; the picture the
    page shows is the one the importer decoded; every bad field is a one-line 400 naming it."""
    status, made = server.api("/api/open", {"name": "photo.png", "options": OPTIONS}, tab="api")
    assert status == 200 and made["frame"] == [0.0, 0.0, 1.0, 1.0] and len(made["grid"]) == ROWS, made
    base = {"picture_id": made["picture_id"], "size": [ROWS, COLS], "box": made["frame"]}
    status, region = server.api("/api/trace", {**base, "op": "region", "point": [0.25, 0.5], "tolerance": 15},
                                tab="api")
    assert status == 200 and (as_cells(region["cells"]) == disc_cells()).all(), region
    assert (as_cells(region["outline"]) == boundary(disc_cells())).all()
    status, square = server.api("/api/trace", {**base, "op": "region", "point": [0.7, 0.5], "tolerance": 15},
                                tab="api")
    assert (as_cells(square["cells"]) == square_cells()).all()
    status, cut = server.api("/api/trace", {**base, "op": "cutout", "area": [2, 1, 13, 10]}, tab="api")
    assert status == 200 and (as_cells(cut["cells"]) == disc_cells()).all(), cut
    status, answer = server.api("/api/trace", {**base, "op": "cutout", "area": [0, 0, ROWS - 1, COLS - 1]}, tab="api")
    assert status == 422 and answer["error"].startswith("area: the box covers the whole picture"), answer
    status, ink = server.api("/api/trace", {**base, "op": "threshold", "offset": 8}, tab="api")
    assert status == 200 and (np.array(ink["ink"], bool) == (disc_cells() | square_cells())).all(), ink
    status, none = server.api("/api/trace", {**base, "op": "threshold", "offset": 250}, tab="api")
    assert not np.any(none["ink"])
    status, shown = server.api("/api/trace", {**base, "op": "picture"}, tab="api")
    assert status == 200 and shown["size"] == [240, 160] and shown["image"].startswith("data:image/jpeg;base64,")
    grid = np.zeros((6, 8), int)
    grid[1, 1] = 1  # an isolated cell
    grid[2:5, 4:7] = 1
    grid[3, 5] = 0  # a one-cell hole
    doc = {"grid": grid.tolist(), "palette": [{"rgb": "#ffffff"}, {"rgb": "#000000"}], "givens": []}
    status, cleaned = server.api("/api/trace", {"op": "specks", "doc": doc, "min_part": 3}, tab="api")
    assert status == 200 and sorted(cleaned["changes"]) == [[1, 1, 0], [3, 5, 1]]
    status, cleaned = server.api("/api/trace", {"op": "specks", "doc": doc, "min_part": 3, "area": [2, 2, 5, 7]},
                                 tab="api")
    assert cleaned["changes"] == [[3, 5, 1]]  # the isolated cell is outside the area
    for bad, field in (({**base, "op": "region", "point": [0.25, 1.5], "tolerance": 15}, "point"),
                       ({**base, "op": "region", "point": [0.25, 0.5], "tolerance": 999}, "tolerance"),
                       ({**base, "op": "region", "size": [16, 2.5], "point": [0.2, 0.5], "tolerance": 9}, "size"),
                       ({**base, "op": "threshold", "box": [1, 0, 0, 1], "offset": 0}, "box"),
                       ({**base, "op": "threshold", "offset": "dark"}, "offset"),
                       ({"op": "erase"}, "op"), ({"op": "specks", "doc": doc, "min_part": 1}, "min_part"),
                       ({"op": "specks", "doc": doc, "min_part": 3, "area": [0, 0, 9, 9]}, "area"),
                       ({**base, "op": "cutout", "area": [2, 1, ROWS, 10]}, "area"),
                       ({**base, "op": "cutout", "area": [5, 5, 2, 2]}, "area")):
        status, answer = server.api("/api/trace", bad, tab="api")
        assert status == 400 and answer["error"].startswith(field + " ") and "\n" not in answer["error"], answer
    status, answer = server.api("/api/trace", {**base, "op": "threshold", "offset": 0}, tab="another-tab")
    assert status == 400 and "drop it again" in answer["error"]
    status, answer = server.api("/api/trace", {**base, "op": "region", "point": [0.5, 0.5], "box": [0, 0, 0.25, 1],
                                               "tolerance": 9}, tab="api")
    assert status == 422 and answer["error"] == "point: that part of the picture is not under the grid"


def test_a_photo_can_be_opened_only_from_the_folder(tmp_path):
    """``--open`` names a file of the folder (by its name or a path to it); anything else stops the command before
    it serves, with a one-line message."""
    import subprocess
    import sys

    (tmp_path / "photo.png").write_bytes(photo_png())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for folder, given, wanted in ((tmp_path, "nothing.png", "nothing.png: no such file in the studio's folder"),
                                  (elsewhere, str(tmp_path / "photo.png"), "not in the studio's folder")):
        result = subprocess.run([sys.executable, "-m", "nonogen", "studio", str(folder), "--open", given,
                                 "--no-browser", "--port", "0"], capture_output=True, text=True, timeout=60)
        assert result.returncode == 2 and wanted in result.stderr and len(result.stderr.splitlines()) == 1, \
            result.stderr


# --- the page -----------------------------------------------------------------------------------------------

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium missing")
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

from test_play_browser import browser  # noqa: E402,F401  (the shared headless Chromium)
def test_a_cut_out_takes_a_thing_of_many_colours_whole():
    """A red and blue ball on a green lawn of the ball's own lightness: a click's region takes the half clicked,
    the cut-out of a box around the ball takes all of it and none of the lawn (eight of ten photos two authors
    traced had a subject of many colours, and the region tool left them drawing by hand)."""
    rng = np.random.default_rng(3)
    y, x = np.mgrid[0:160, 0:240] + 0.5
    pixels = np.empty((160, 240, 3))
    pixels[...] = (70, 140, 60)
    ball = (x - DISC[0]) ** 2 + (y - DISC[1]) ** 2 <= DISC[2] ** 2
    pixels[ball & (y < DISC[1])] = (200, 40, 40)
    pixels[ball & (y >= DISC[1])] = (40, 60, 200)
    pixels += rng.normal(0, 10, pixels.shape)
    laid = lay(Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), "RGB"), [0, 0, 1, 1], ROWS, COLS)
    half = as_cells(region(laid, [DISC[0] / 240, (DISC[1] - 20) / 160], 15)["cells"])
    assert half.sum() < 0.7 * disc_cells().sum() and not (half & ~disc_cells()).any()
    assert (as_cells(cutout(laid, [2, 1, 13, 10])["cells"]) == disc_cells()).all()


from test_studio import _cell, _shot, _until  # noqa: E402
from test_studio_editor import checked, ctrl, depth, doc, set_field, viewport  # noqa: E402


def key(driver, letter: str) -> None:
    driver.execute_script("document.activeElement.blur()")
    ActionChains(driver).send_keys(letter).perform()


def beside(driver, x: float, y: float) -> None:
    """A click on the picture beside the grid at (x, y), fractions of the picture."""
    canvas = driver.find_element(By.ID, "trace-picture")
    width, height = canvas.size["width"], canvas.size["height"]
    ActionChains(driver).move_to_element_with_offset(canvas, round((x - 0.5) * width), round((y - 0.5) * height)) \
        .click().perform()


def traced(driver) -> int:
    return int(driver.find_element(By.ID, "board").get_attribute("data-traced") or 0)


def grid(driver) -> np.ndarray:
    return np.array(doc(driver)["grid"])


def slide(driver, element_id: str, value: int) -> None:
    driver.execute_script("const s = document.getElementById(arguments[0]); s.value = arguments[1];"
                          "s.dispatchEvent(new Event('input')); s.dispatchEvent(new Event('change'));",
                          element_id, value)


def background_alpha(driver, r: int, c: int) -> float:
    colour = _cell(driver, r, c).value_of_css_property("background-color")
    return float(colour.split(",")[3].rstrip(")")) if colour.startswith("rgba") else 1.0


def under_luma(driver, r: int, c: int) -> float:
    """The luma the picture under the grid shows at the middle of cell (r, c) (read from its canvas)."""
    return driver.execute_script("""
        const canvas = document.getElementById('trace-under'), cell = arguments[0].getBoundingClientRect();
        const box = canvas.getBoundingClientRect(), k = canvas.width / box.width;
        const x = (cell.left + cell.width / 2 - box.left) * k, y = (cell.top + cell.height / 2 - box.top) * k;
        const [r, g, b] = canvas.getContext('2d').getImageData(Math.floor(x), Math.floor(y), 1, 1).data;
        return 0.299 * r + 0.587 * g + 0.114 * b;""", _cell(driver, r, c))


@pytest.fixture(scope="module")
def traced_page(browser, server):  # noqa: F811
    """The page of ``nonogen studio FOLDER --open photo.png``: the photo opens at once; then read at 24 x 16 in
    black and white, the whole picture on the grid."""
    viewport(browser, 1400, 900)
    browser.get(server.page)
    _until(browser, lambda: browser.execute_script("return Boolean(nonogenStudio.state.trace)"))
    Select(browser.find_element(By.ID, "opt-fit")).select_by_visible_text("pad")
    Select(browser.find_element(By.ID, "opt-mode")).select_by_value("bw")
    set_field(browser, "opt-width", str(COLS))
    _until(browser, lambda: browser.execute_script(
        "const t = nonogenStudio.state.trace; return t && t.size.join() === '16,24' && t.box.join() === '0,0,1,1'")
        and browser.find_element(By.ID, "trace-beside").get_attribute("data-ready") and checked(browser))
    return browser


def step(driver, action, before: int, condition) -> None:
    """One tracing edit: it lands as one undo step, the engine answers, and undo and redo take it back and again."""
    count = traced(driver)
    action()
    try:
        _until(driver, lambda: traced(driver) > count and depth(driver) == before + 1 and condition(grid(driver))
               and checked(driver))
    except Exception:  # what the page said, for the failure
        status = driver.find_element(By.ID, "trace-status").text
        raise AssertionError(f"at depth {depth(driver)} after {before}: {status}\n{grid(driver)}") from None
    after = doc(driver)
    ctrl(driver, "z")
    _until(driver, lambda: depth(driver) == before and checked(driver))
    ctrl(driver, "y")
    _until(driver, lambda: depth(driver) == before + 1 and doc(driver) == after and checked(driver))


def test_tracing_a_photo_in_the_page(traced_page, server):
    """The picture beside the grid and under it (the opacity slider changes what the cells let through), then each
    tool on the picture: the disc filled by region, the square by the brush, the disc outlined in a second colour
    (clicked on the picture beside the grid),
    specks removed in a selection and then everywhere, an area redrawn as the import made it, the disc cut out of a
    box around it, and after rows and
    columns are added the picture and the tools follow the cells; each one undo step, each followed by the verdict.
    The server loaded no numpy for any of it."""
    driver = traced_page
    imported = np.array(driver.execute_script("return nonogenStudio.state.trace.grid"))
    assert driver.find_element(By.ID, "trace-under").get_attribute("hidden")
    key(driver, "v")
    _until(driver, lambda: not driver.find_element(By.ID, "trace-under").get_attribute("hidden"))
    assert background_alpha(driver, 0, 0) == pytest.approx(0.5)
    assert under_luma(driver, 8, 6) < 110 and under_luma(driver, 1, 12) > 190  # the disc, the light ground
    slide(driver, "trace-opacity", 80)
    _until(driver, lambda: background_alpha(driver, 0, 0) == pytest.approx(0.2))
    assert background_alpha(driver, 8, 6) == pytest.approx(0.6) or grid(driver)[8, 6] == 0
    _shot(driver, "studio-trace-under")

    key(driver, "f")  # the grid cleared by hand first: the disc and the square, right button, one fill each
    for r, c in ((8, 6), (8, 17)):
        before = depth(driver)
        ActionChains(driver).context_click(_cell(driver, r, c)).perform()
        _until(driver, lambda before=before, r=r, c=c: depth(driver) == before + 1 and grid(driver)[r, c] == 0)
    start = depth(driver)
    assert not grid(driver)[disc_cells() | square_cells()].any()

    key(driver, "a")  # region: a click on the disc fills the cells under it, not the square's
    step(driver, lambda: _cell(driver, 8, 6).click(), start,
         lambda g: (g[disc_cells()] == 1).all() and not g[square_cells()].any())

    key(driver, "b")  # the threshold brush, 9 cells wide, along the square's middle row
    _until(driver, lambda: driver.find_element(By.ID, "tool-brush").get_attribute("data-ready"))
    set_field(driver, "trace-brush", "9")
    step(driver, lambda: ActionChains(driver).click_and_hold(_cell(driver, 7, 14)).move_to_element(
        _cell(driver, 7, 18)).move_to_element(_cell(driver, 7, 20)).release().perform(), start + 1,
        lambda g: (g[square_cells()] == 1).all() and not g[3:12, 10:14].any() and (g[disc_cells()] == 1).all())

    driver.find_element(By.ID, "add-color").click()  # colour 2, the current one: the outline shows apart
    _until(driver, lambda: depth(driver) == start + 3)
    key(driver, "o")  # on the picture beside the grid, this time
    edge, disc = boundary(disc_cells()), disc_cells()
    step(driver, lambda: beside(driver, DISC[0] / 240, DISC[1] / 160), start + 3,
         lambda g: ((g == 2) == edge).all() and (g[disc & ~edge] == 1).all())

    key(driver, "p")  # two specks by hand; one is selected and removed, then the other with the whole grid
    for r, c in ((14, 12), (1, 22)):
        before = depth(driver)
        _cell(driver, r, c).click()
        _until(driver, lambda before=before: depth(driver) == before + 1)
    marked = depth(driver)
    key(driver, "s")
    ActionChains(driver).click_and_hold(_cell(driver, 13, 11)).move_to_element(_cell(driver, 15, 13)).release() \
        .perform()
    _until(driver, lambda: driver.find_element(By.ID, "specks").get_attribute("data-scope") == "13,11,15,13")
    step(driver, lambda: driver.find_element(By.ID, "specks").click(), marked,
         lambda g: g[14, 12] == 0 and g[1, 22] == 2)
    key(driver, "\ue00c")  # Escape: no selection, the whole grid
    _until(driver, lambda: driver.find_element(By.ID, "specks").get_attribute("data-scope") == "")
    step(driver, lambda: driver.find_element(By.ID, "specks").click(), marked + 1, lambda g: g[1, 22] == 0)

    key(driver, "f")  # the square cleared by hand, then its area redrawn as the import made it
    ActionChains(driver).context_click(_cell(driver, 7, 17)).perform()
    _until(driver, lambda: depth(driver) == marked + 3 and not grid(driver)[square_cells()].any())
    key(driver, "d")
    step(driver, lambda: ActionChains(driver).click_and_hold(_cell(driver, 3, 12)).move_to_element(
        _cell(driver, 12, 22)).release().perform(), marked + 3,
        lambda g: (g[3:13, 12:23] == imported[3:13, 12:23]).all() and (g[disc_cells()] >= 1).all())
    key(driver, "c")  # a box around the disc: all of it takes the current colour, the square stays
    step(driver, lambda: ActionChains(driver).click_and_hold(_cell(driver, 2, 1)).move_to_element(
        _cell(driver, 13, 10)).release().perform(), marked + 4,
        lambda g: (g[disc_cells()] == 2).all() and (g[square_cells()] >= 1).all() and g.max() == 2)
    _shot(driver, "studio-trace-tools")

    # a row on top and a column on the left: the picture and the tools follow the cells; undo brings them back
    for side in ("top", "left"):
        before = depth(driver)
        driver.find_element(By.CSS_SELECTOR, f'#resize button[data-side="{side}"][data-delta="1"]').click()
        _until(driver, lambda before=before: depth(driver) == before + 1)
    _until(driver, lambda: grid(driver).shape == (ROWS + 1, COLS + 1) and under_luma(driver, 9, 7) < 110)
    assert under_luma(driver, 1, 1) > 190
    key(driver, "a")
    step(driver, lambda: ActionChains(driver).context_click(_cell(driver, 9, 7)).perform(), marked + 7,
         lambda g: not g[1:, 1:][disc_cells()].any() and (g[1:, 1:][square_cells()] == 1).all())
    ctrl(driver, "z")
    ctrl(driver, "z")
    ctrl(driver, "z")
    _until(driver, lambda: grid(driver).shape == (ROWS, COLS) and under_luma(driver, 8, 6) < 110 and checked(driver))
    import psutil

    heavy = [m.path for m in psutil.Process(server.process.pid).memory_maps() if "/numpy" in m.path or "/PIL" in m.path]
    assert heavy == []
