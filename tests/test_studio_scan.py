"""The studio's clue mode for scanned puzzle pages, through the real server and headless Chromium.

A sheet drawn by ``nonogen render`` with one digit half painted over (so the reader gets it wrong) is opened: the
page shows beside the clues, the damaged clue is flagged, a person types the right numbers, sees "unique" and the
solution, saves, and the file reads back as the puzzle printed. A PDF from the folder and a page of two puzzles
(the chooser) are opened too; the routes answer bad input with one line. Helpers: tests/test_studio.py's.
"""
from __future__ import annotations

import base64
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest
from PIL import Image, ImageDraw

from nonogen import formats, scan
from nonogen.cli.common import EXIT_TERMINATED
from studio_server import Studio

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium missing")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

from test_play_browser import browser  # noqa: E402,F401  (the shared headless Chromium)
from test_studio import SAMPLES, _drop, _shot, _until  # noqa: E402

PUZZLE = SAMPLES / "puzzles" / "webpbn-00023.non"
DAMAGED_LINE = 3  # row 3 (from 1): its "1" loses its lower half and reads as something else


def _render(source: Path, out: Path) -> None:
    subprocess.run([sys.executable, "-m", "nonogen", "render", str(source), "-o", str(out), "--force"], check=True,
                   capture_output=True)


def _damaged_sheet(folder: Path) -> bytes:
    """The puzzle's sheet as a PNG with row 3's clue digit painted over below its middle (white, as a stain)."""
    clean = folder / "clean.png"
    _render(PUZZLE, clean)
    found = scan(clean, verify=False, layout=True)[0]
    x0, y0, x1, y1 = found.extra["found"].rows[DAMAGED_LINE - 1][0].box
    picture = Image.open(clean).convert("RGB")
    ImageDraw.Draw(picture).rectangle((x0 - 1, (y0 + y1) / 2, x1 + 1, y1 + 1), fill="white")
    clean.unlink()
    out = io.BytesIO()
    picture.save(out, "PNG")
    return out.getvalue()


def _two_puzzles(folder: Path) -> Path:
    """One page holding two sheets side by side (heart, then webpbn-00023)."""
    sheets = []
    for name in ("heart.non", "webpbn-00023.non"):
        _render(SAMPLES / "puzzles" / name, folder / "part.png")
        sheets.append(Image.open(folder / "part.png").convert("L"))
    (folder / "part.png").unlink()
    page = Image.new("L", (sum(s.width for s in sheets) + 60, max(s.height for s in sheets) + 40), 255)
    page.paste(sheets[0], (20, 20))
    page.paste(sheets[1], (sheets[0].width + 40, 20))
    page.save(folder / "two.png")
    return folder / "two.png"


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("scan")
    (folder / "damaged.png").write_bytes(_damaged_sheet(folder))
    _render(PUZZLE, folder / "sheet.pdf")
    _two_puzzles(folder)
    _render(SAMPLES / "puzzles" / "yoshi.cnon", folder / "yoshi.png")
    _render(SAMPLES / "puzzles" / "key-givens.json", folder / "key.png")
    return folder


@pytest.fixture(scope="module")
def server(folder) -> Iterator[Studio]:
    studio = Studio(folder, token=None)
    try:
        yield studio
    finally:
        code, errors = studio.stop()
        assert code == EXIT_TERMINATED and "Traceback" not in errors, errors


@pytest.fixture
def page(browser, server):  # noqa: F811
    browser.set_window_size(1280, 900)
    browser.get(server.page)
    _until(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#folder-files option")) > 1)
    return browser


def _clue(driver, line: str):
    return driver.find_element(By.CSS_SELECTOR, f'#scan-board td.clue[data-line="{line}"]')


def _proved(driver) -> str:
    """The verdict of the clues on screen once their whole proof has come ("" while it is on its way)."""
    verdict = driver.find_element(By.ID, "scan-verdict")
    done = verdict.get_attribute("data-done") == str(driver.execute_script("return scan.seq"))
    return verdict.get_attribute("data-status") if done else ""


def _editing(driver) -> str:
    return driver.execute_script("return scan.editing ? `${scan.editing.kind} ${scan.editing.i + 1}` : ''")


def _save(driver, kind: str, name: str) -> None:
    Select(driver.find_element(By.ID, "save-format")).select_by_value(kind)
    field = driver.find_element(By.ID, "save-name")
    field.clear()
    field.send_keys(name)
    driver.find_element(By.ID, "save-button").click()


def test_the_damaged_digit_is_a_suspect_when_scanned(folder):
    """The premise of the page's test: the painted-over digit misreads, and the scan names its line."""
    found = scan(folder / "damaged.png")[0]
    assert found.puzzle.rows[DAMAGED_LINE - 1] != formats.load(PUZZLE).rows[DAMAGED_LINE - 1]
    assert f"row {DAMAGED_LINE}" in [s["line"] for s in found.suspects]
    assert found.result.status != "unique"


def test_a_scanned_page_is_corrected_proved_and_saved(page, folder):
    driver = page
    driver.find_element(By.ID, "scan-pictures").click()  # pictures are puzzle pages now
    driver.execute_script("""
        window.said = [];
        new MutationObserver(() => said.push(scan_status.textContent)).observe(
            window.scan_status = document.getElementById('scan-status'), {childList: true, characterData: true});
    """)
    _drop(driver, "damaged.png", (folder / "damaged.png").read_bytes())
    _until(driver, lambda: driver.find_element(By.ID, "scan-view").get_attribute("data-read") == "damaged.png#0")
    _until(driver, lambda: driver.find_element(By.ID, "scan-page").get_attribute("data-ready") == "0")
    _until(driver, lambda: _proved(driver) == "unsolvable")
    assert driver.execute_script("return said")[0].startswith("reading damaged.png... ")  # the wait was shown
    line = f"row {DAMAGED_LINE}"
    assert "suspect" in _clue(driver, line).get_attribute("class")
    assert line in [li.get_attribute("data-line") for li in driver.find_elements(By.CSS_SELECTOR, "#scan-suspects li")]
    assert "confidence" in _clue(driver, line).get_attribute("title")
    assert not driver.find_element(By.ID, "save").get_attribute("hidden")  # the save panel serves the clues too
    _until(driver, lambda: _editing(driver) == line)  # the first suspect is open for typing
    assert driver.find_element(By.ID, "scan-zoom").is_displayed()  # and shown as printed, enlarged
    _shot(driver, "studio-scan-suspect")

    # Escape leaves it; a click on the clue's place on the page opens it again
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    _until(driver, lambda: _editing(driver) == "")
    box = driver.execute_script(f"return scan.p.view.rows[{DAMAGED_LINE - 1}][0]")
    scale = driver.execute_script("return scan.scale")
    canvas = driver.find_element(By.ID, "scan-image")
    x, y = (box[0] + box[2]) / 2 * scale, (box[1] + box[3]) / 2 * scale
    driver.execute_script("""
        const c = arguments[0], r = c.getBoundingClientRect();
        c.dispatchEvent(new MouseEvent('click', {clientX: r.left + arguments[1], clientY: r.top + arguments[2],
                                                 bubbles: true}));
    """, canvas, x, y)
    _until(driver, lambda: _editing(driver) == line)

    # the right numbers, Enter: proved unique at once, the solution drawn, no suspect left
    right = [n for n, _ in formats.load(PUZZLE).rows[DAMAGED_LINE - 1]]
    field = driver.switch_to.active_element
    field.send_keys(Keys.CONTROL, "a", Keys.NULL, " ".join(map(str, right)), Keys.ENTER)
    _until(driver, lambda: _proved(driver) == "unique")
    assert "set" in _clue(driver, line).get_attribute("class")
    assert driver.find_element(By.ID, "scan-suspect-count").text == "0"
    assert _editing(driver) == ""  # no suspect left to go to
    inked = len(driver.find_elements(By.CSS_SELECTOR, "#scan-board td.cell.ink"))
    assert inked == sum(n for clue in formats.load(PUZZLE).rows for n, _ in clue)
    _shot(driver, "studio-scan-corrected")

    # saved as a .non: proved as written, and it reads back as the puzzle printed
    _save(driver, "non", "damaged.non")
    _until(driver, lambda: driver.find_element(By.ID, "save-status").get_attribute("data-saved") == "damaged.non")
    back, printed = formats.load(folder / "damaged.non"), formats.load(PUZZLE)
    assert (back.rows, back.cols) == (printed.rows, printed.cols)
    saved = (folder / "damaged.non").read_bytes()
    _save(driver, "non", "damaged.non")  # never over a file unasked
    _until(driver, lambda: driver.find_element(By.ID, "save-confirm").is_displayed())
    assert (folder / "damaged.non").read_bytes() == saved


def test_a_photo_read_unsurely_throughout_says_so_and_every_line_stays_a_suspect_until_confirmed(page, tmp_path):
    """A hard photo of the photo bench whose digits are six pixels high (seed 67, page 11): the studio says the
    photo reads unsurely throughout and names all 67 lines; a line confirmed with Enter is no longer one."""
    if shutil.which("pdftoppm") is None:
        pytest.skip("the bench's photos are made from the PDF sheet drawn by pdftoppm")
    from test_scan_photo_bench import _bench_page

    from nonogen.scanning import ILLEGIBLE

    _, photo = _bench_page(67, 11, tmp_path)
    driver = page
    driver.find_element(By.ID, "scan-pictures").click()
    _drop(driver, "small.jpg", photo.read_bytes())
    _until(driver, lambda: driver.find_element(By.ID, "scan-view").get_attribute("data-read") == "small.jpg#0")
    _until(driver, lambda: _proved(driver) != "")
    assert driver.find_element(By.ID, "scan-unsure").is_displayed()
    assert driver.find_element(By.ID, "scan-suspect-count").text == "67"
    unsure = next(li for li in driver.find_elements(By.CSS_SELECTOR, "#scan-suspects li")
                  if ILLEGIBLE in li.text)  # named only for the page (a clue too long for its line stays named)
    line = unsure.get_attribute("data-line")
    unsure.find_element(By.TAG_NAME, "button").click()
    _until(driver, lambda: _editing(driver) == line)
    driver.switch_to.active_element.send_keys(Keys.ENTER)  # confirmed as read
    _until(driver, lambda: _proved(driver) != "" and driver.find_element(By.ID, "scan-set").text == "1")
    named = [li.get_attribute("data-line") for li in driver.find_elements(By.CSS_SELECTOR, "#scan-suspects li")]
    assert line not in named and len(named) == 66
    driver.execute_script("document.getElementById('scan-unsure').scrollIntoView()")
    _shot(driver, "studio-scan-unsure")


def test_tab_and_enter_move_between_suspects_and_saving_asks_when_not_unique(page, folder):
    driver = page
    driver.find_element(By.ID, "scan-pictures").click()
    _drop(driver, "damaged.png", (folder / "damaged.png").read_bytes())
    _until(driver, lambda: _proved(driver) == "unsolvable" and _editing(driver) != "")
    suspects = [li.get_attribute("data-line") for li in driver.find_elements(By.CSS_SELECTOR, "#scan-suspects li")]
    assert len(suspects) >= 2 and _editing(driver) == suspects[0]
    driver.switch_to.active_element.send_keys(Keys.TAB)
    _until(driver, lambda: _editing(driver) == suspects[1])
    driver.switch_to.active_element.send_keys(Keys.SHIFT, Keys.TAB)
    _until(driver, lambda: _editing(driver) == suspects[0])
    driver.switch_to.active_element.send_keys(Keys.CONTROL, "a", Keys.NULL, "1 x", Keys.ENTER)  # no clue: it stays
    _until(driver, lambda: "whole numbers" in driver.find_element(By.ID, "scan-status").text)
    assert _editing(driver) == suspects[0]
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    _save(driver, "nonogen", "misread.json")  # as read: no solution, so the page asks first
    _until(driver, lambda: driver.find_element(By.ID, "unique-confirm").is_displayed())
    assert "no solution" in driver.find_element(By.ID, "unique-question").text
    assert not (folder / "misread.json").exists()
    driver.find_element(By.ID, "save-anyway").click()
    _until(driver, lambda: driver.find_element(By.ID, "save-status").get_attribute("data-saved") == "misread.json")
    assert formats.load(folder / "misread.json").rows[DAMAGED_LINE - 1] != formats.load(PUZZLE).rows[DAMAGED_LINE - 1]


def test_a_pdf_of_the_folder_and_a_page_of_two_puzzles(page, folder):
    driver = page
    Select(driver.find_element(By.ID, "folder-files")).select_by_value("sheet.pdf")
    assert "page" in driver.find_element(By.CSS_SELECTOR, '#folder-files option[value="sheet.pdf"]').text
    driver.find_element(By.ID, "open").click()
    _until(driver, lambda: driver.find_element(By.ID, "scan-view").get_attribute("data-read") == "sheet.pdf#0")
    _until(driver, lambda: _proved(driver) == "unique")
    assert "text" in driver.find_element(By.ID, "scan-where").text  # read exactly, from the PDF's text layer
    assert driver.find_element(By.ID, "scan-suspect-count").text == "0"
    assert not driver.find_element(By.ID, "scan-choose").is_displayed()

    driver.find_element(By.ID, "scan-pictures").click()
    Select(driver.find_element(By.ID, "folder-files")).select_by_value("two.png")
    driver.find_element(By.ID, "open").click()
    _until(driver, lambda: driver.find_element(By.ID, "scan-view").get_attribute("data-read") == "two.png#0")
    which = Select(driver.find_element(By.ID, "scan-which"))
    assert len(which.options) == 2 and driver.find_element(By.ID, "scan-choose").is_displayed()
    _until(driver, lambda: _proved(driver) == "unique")
    assert len(driver.find_elements(By.CSS_SELECTOR, "#scan-board td.row-clue")) == 6  # the heart, on the left
    which.select_by_index(1)
    _until(driver, lambda: driver.find_element(By.ID, "scan-view").get_attribute("data-read") == "two.png#1")
    _until(driver, lambda: _proved(driver) == "unique")
    assert len(driver.find_elements(By.CSS_SELECTOR, "#scan-board td.row-clue")) == 11
    assert driver.find_element(By.ID, "save-name").get_attribute("value") == "two-2.json"


def test_a_colour_page_and_a_page_with_givens_are_proved_as_printed(page, folder):
    """Yoshi's clues keep their five colours (read in black and white they are another puzzle) and its solution
    shows in them; the key's three givens (without them: several solutions) are marked in the grid."""
    driver = page
    driver.find_element(By.ID, "scan-pictures").click()
    Select(driver.find_element(By.ID, "folder-files")).select_by_value("yoshi.png")
    driver.find_element(By.ID, "open").click()
    _until(driver, lambda: driver.find_element(By.ID, "scan-view").get_attribute("data-read") == "yoshi.png#0")
    _until(driver, lambda: _proved(driver) == "unique")
    boxes = driver.find_elements(By.CSS_SELECTOR, "#scan-board td.clue .num.boxed")
    assert boxes and len({b.value_of_css_property("background-color") for b in boxes}) == 5
    _until(driver, lambda: driver.execute_script(
        "return [...document.querySelectorAll('#scan-board td.cell')].filter((td) => td.style.background).length")
        == sum(n for line in formats.load(SAMPLES / "puzzles" / "yoshi.cnon").rows for n, _ in line))
    letters = driver.execute_script("return scan.p.palette.slice(1).map((c) => c.char)")
    assert driver.find_element(By.ID, "scan-colours").is_displayed()
    _clue(driver, "row 1").click()  # the clue as typed: each number with its colour's letter
    field = driver.find_element(By.CSS_SELECTOR, "#scan-board .clue-input")
    shown = field.get_attribute("value")
    number, letter = shown[:-1], shown[-1]
    assert " " not in shown and letter in letters
    other = next(c for c in letters if c != letter)
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(f"{number}{other}", Keys.ENTER)  # another colour: the clues are another puzzle now
    _until(driver, lambda: _proved(driver) in ("multiple", "unsolvable"))
    assert driver.execute_script("return scan.p.rowColours[0]") == [letters.index(other) + 1]
    _clue(driver, "row 1").click()
    field = driver.find_element(By.CSS_SELECTOR, "#scan-board .clue-input")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(f"{number}z", Keys.ENTER)  # no colour of the puzzle's: not a clue, the editor stays
    assert "colour's letter" in driver.find_element(By.ID, "scan-status").text
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(f"{number}{letter.upper()}", Keys.ENTER)
    _until(driver, lambda: _proved(driver) == "unique")
    _shot(driver, "studio-scan-colour")

    Select(driver.find_element(By.ID, "folder-files")).select_by_value("key.png")
    driver.find_element(By.ID, "open").click()
    _until(driver, lambda: driver.find_element(By.ID, "scan-view").get_attribute("data-read") == "key.png#0")
    _until(driver, lambda: _proved(driver) == "unique")
    given = driver.find_elements(By.CSS_SELECTOR, "#scan-board td.cell.given")
    assert len(given) == len(formats.load(SAMPLES / "puzzles" / "key-givens.json").givens) == 3


def test_a_bad_page_gets_one_line_and_the_view_before_comes_back(page, folder):
    driver = page
    Select(driver.find_element(By.ID, "folder-files")).select_by_value("sheet.pdf")
    driver.find_element(By.ID, "open").click()
    _until(driver, lambda: _proved(driver) == "unique")
    _drop(driver, "notes.pdf", b"%PDF-1.4 these are notes, not a PDF")
    _until(driver, lambda: driver.find_element(By.ID, "scan-view").get_attribute("data-read") == "error")
    message = driver.find_element(By.ID, "message").text
    assert message.startswith("notes.pdf: ") and "\n" not in message and "/tmp" not in message
    assert driver.find_element(By.ID, "scan-view").is_displayed()  # the page before stays on screen


# --- the routes ------------------------------------------------------------------------------------------


def test_scan_routes_answer_bad_input_with_one_line(server):
    def upload(name: str, data: bytes) -> tuple[int, dict]:
        return server.api("/api/scan", data, raw=True, headers={"X-File-Name": name})

    status, answer = upload("notes.png", b"these are notes, not a picture")
    assert status == 422 and answer["error"].startswith("notes.png: not a picture") and "\n" not in answer["error"]
    blank = io.BytesIO()
    Image.new("L", (200, 150), 255).save(blank, "PNG")
    status, answer = upload("blank.png", blank.getvalue())
    assert status == 422 and answer["error"].startswith("blank.png: no puzzle grid found")
    status, answer = upload("tiny.png", _png(Image.new("L", (10, 10), 255)))
    assert status == 422 and "too small" in answer["error"]
    assert server.api("/api/scan/open", {"name": "../etc/passwd"})[0] == 400
    missing = server.api("/api/scan/open", {"name": "missing.pdf"})
    assert missing == (400, {"error": "missing.pdf: no such file in the studio's folder"})
    for clues, said in (({"rows": [[1]]}, "cols"), ({"rows": [["a"]], "cols": [[1]]}, "whole numbers"),
                        ({"rows": [[1]] * 101, "cols": [[1]]}, "1 to 100"), ("rows", "expected clues")):
        status, answer = server.api("/api/scan/check", {"clues": clues})
        assert status == 400 and said in answer["error"], answer
    status, answer = server.api("/api/files")
    assert {"name": "sheet.pdf", "kind": "page"} in answer["files"]


def test_the_clue_proof_and_save_routes(server, folder):
    status, answer = server.api("/api/scan/open", {"name": "damaged.png"})
    assert status == 200 and answer["file"] == "damaged.png"
    read = answer["puzzles"][0]
    assert read["view"]["image"].startswith("data:image/png;base64,") and len(read["view"]["rows"]) == 11
    clues = {key: read[key] for key in ("rows", "cols", "row_confidence", "col_confidence")}
    clues["rows"][DAMAGED_LINE - 1] = [n for n, _ in formats.load(PUZZLE).rows[DAMAGED_LINE - 1]]
    clues["row_confidence"][DAMAGED_LINE - 1] = 1
    status, last = server.api("/api/scan/check", {"clues": clues})
    assert status == 200 and last["grade"] is not None
    body = {"clues": {**clues, "title": "Mended"}, "name": "mended.json", "format": "nonogen"}
    status, answer = server.api("/api/save", body)
    assert (status, answer["saved"]) == (200, "mended.json")
    saved = formats.load(folder / "mended.json")
    assert saved.meta["title"] == "Mended" and saved.goal is not None  # its solution goes with it
    ambiguous = {"rows": [[1], [1]], "cols": [[1], [1]]}
    status, answer = server.api("/api/save", {"clues": ambiguous, "name": "two-ways.non", "format": "non"})
    assert answer["confirm"]["status"] == "multiple" and answer["confirm"]["fix"] is None
    assert not (folder / "two-ways.non").exists()
    status, answer = server.api("/api/save", {"clues": ambiguous, "name": "two-ways.non", "format": "non",
                                              "accept": True})
    assert answer["saved"] == "two-ways.non"
    assert json.loads(json.dumps(formats.load(folder / "two-ways.non").rows)) == [[[1, 1]], [[1, 1]]]


def test_a_colour_scans_clues_and_givens_go_through_the_proof_and_the_save(server, folder):
    for name, source in (("yoshi.png", "yoshi.cnon"), ("key.png", "key-givens.json")):
        printed = formats.load(SAMPLES / "puzzles" / source)
        read = server.api("/api/scan/open", {"name": name})[1]["puzzles"][0]
        view = Image.open(io.BytesIO(base64.b64decode(read["view"]["image"].split(",", 1)[1]))).convert("RGB")
        spread = np.asarray(view, np.int16).max(axis=2) - np.asarray(view, np.int16).min(axis=2)
        assert (spread.max() > 100) == printed.is_color  # the page shown in colour when it has any
        clues = {key: read[key] for key in ("rows", "cols", "palette", "row_colours", "col_colours", "givens")}
        status, last = server.api("/api/scan/check", {"clues": clues})
        assert status == 200 and last["grade"] is not None
        if printed.givens:  # without them the key's clues have several solutions: saving asks first
            bare = {"rows": read["rows"], "cols": read["cols"]}
            answer = server.api("/api/save", {"clues": bare, "name": "bare.json", "format": "nonogen"})[1]
            assert answer["confirm"]["status"] == "multiple"
        status, answer = server.api("/api/save", {"clues": {**clues, "title": ""}, "name": f"{name}.json",
                                                  "format": "nonogen"})  # unique: saved without asking
        saved = formats.load(folder / f"{name}.json")
        assert status == 200 and saved.clue_hash() == printed.clue_hash() and saved.givens == printed.givens
    wrong = {**clues, "row_colours": [[7] * len(line) for line in clues["rows"]]}
    status, answer = server.api("/api/scan/check", {"clues": wrong})
    assert status == 400 and answer["error"] == "rows: a number's colour is a palette entry, 1 to 1"
    status, answer = server.api("/api/scan/check", {"clues": {**clues, "givens": [[99, 0, 1]]}})
    assert status == 400 and "outside the 10x10 grid" in answer["error"]


def _png(picture: Image.Image) -> bytes:
    out = io.BytesIO()
    picture.save(out, "PNG")
    return out.getvalue()
