"""The gallery of a collection folder: its page played in a real headless Chromium, its contact sheet, its command.

The collection is made the way a user without a many-source run makes one: one ``nonogen.save`` per source
into OUT/<name>, plus a hand-written ``collection.jsonl`` (COLLECTION.md's records) that adds a failed and a
duplicate source with hostile text. The page is loaded from ``file://``, filtered, sorted, three puzzles are
ticked and the download button's ``selection.json`` is read back from Chromium's download folder.
Screenshots go to ``tests/artifacts/``.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest
from PIL import Image

import nonogen
from nonogen.errors import FormatError, InputError
from made_collection import SAMPLES, make_collection
from nonogen.output.collection import open_published, read_collection, read_selection, warning_kind

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
WAIT = 120


@pytest.fixture(scope="module")
def collection(tmp_path_factory) -> Path:
    out = make_collection(tmp_path_factory.mktemp("gallery") / "out")
    nonogen.gallery(out)
    return out


def nonogen_cli(*argv, cwd=REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nonogen", *map(str, argv)], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


# --- without a browser ------------------------------------------------------------------------------------------


def test_reader_takes_records_when_present_and_reports_alone_otherwise(collection, tmp_path):
    read = read_collection(collection)
    assert read.has_records and [m.status for m in read.members].count("made") == 5
    assert {m.status for m in read.members} == {"made", "failed", "duplicate"}
    assert {m.name for m in read.made} == {"icon-heart", "icon-gear", "heart-pixelart-x10", "flat-fish", "mug"}
    assert next(m for m in read.made if m.name == "mug").is_level
    bare = tmp_path / "bare"
    for name in ("icon-heart", "mug"):
        shutil.copytree(collection / name, bare / name)
    alone = read_collection(bare)
    assert not alone.has_records and [m.name for m in alone.members] == ["icon-heart", "mug"]
    assert alone.members[0].grade == read.named(["icon-heart"], "x")[0].grade
    assert len(alone.members[1].size) == 3 and alone.members[1].is_level


def test_page_escapes_every_text_and_lists_what_was_not_made(collection):
    page = (collection / "gallery.html").read_text(encoding="utf-8")
    assert page.count("<script") == 2 and "onerror=" not in page.replace("onerror=&quot;", "")
    assert "&lt;script&gt;window.pwned=2&lt;/script&gt;" in page
    assert "same clues as icon-heart" in page and "Not made (2)" in page
    assert 'src="icon-heart/puzzle.png"' in page and 'src="gallery.thumbs/icon-heart.png"' in page
    assert 'src="mug/solution.png"' in page  # a model has no picture: its preview stands for it
    assert warning_kind("puzzle.non not written: it cannot hold givens") == "file left out"


def test_small_pictures_are_enlarged_by_whole_pixels(collection):
    """A 64-pixel icon's thumbnail stayed 64 pixels (a 16-pixel sprite 16): too small to see on the page."""
    with Image.open(SAMPLES / "images" / "icon-heart.png") as source:
        pixels = np.asarray(source.convert("RGBA"))
    with Image.open(collection / "gallery.thumbs" / "icon-heart.png") as thumb:
        shown = np.asarray(thumb.convert("RGBA"))
    assert shown.shape[:2] == (192, 192)  # three times 64: the largest whole factor within 240
    assert np.array_equal(shown[::3, ::3], pixels) and np.array_equal(shown[2::3, 2::3], pixels)  # square blocks
    with Image.open(collection / "gallery.thumbs" / "flat-fish.png") as large:
        assert max(large.size) == 240  # a large picture is only shrunk


def test_contact_sheet_shows_every_solution_with_a_label(collection):
    sheet = Image.open(collection / "contact-sheet.png").convert("L")
    ink = np.asarray(sheet) < 200
    assert sheet.width > 5 * 180 and sheet.height < 400  # five tiles fit one row
    columns = ink[60:240].any(axis=0)  # the pictures' band: ink under each of the five tiles
    starts = [x for x in range(1, len(columns)) if columns[x] and not columns[x - 1]]
    assert len(starts) >= 5


def test_command_refuses_to_replace_a_gallery_and_says_what_it_wrote(collection, tmp_path):
    again = nonogen_cli("gallery", collection)
    assert again.returncode == 2 and again.stderr.strip().endswith("file exists (use --force to replace it)")
    assert len(again.stderr.strip().splitlines()) == 1
    done = nonogen_cli("gallery", collection, "--force", "--json", "--title", "Spring picks")
    assert done.returncode == 0, done.stderr
    written = json.loads(done.stdout)
    assert written["puzzles"] == 5 and written["not_made"] == 2 and written["thumbnails"] == 4
    assert "<title>Spring picks</title>" in (collection / "gallery.html").read_text(encoding="utf-8")
    empty = tmp_path / "empty"
    empty.mkdir()
    nothing = nonogen_cli("gallery", empty)
    assert nothing.returncode == 2 and "no collection here" in nothing.stderr
    assert len(nothing.stderr.strip().splitlines()) == 1


def test_bad_records_and_selections_are_one_line_errors_naming_the_line(collection, tmp_path):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "collection.jsonl").write_text('{"source": "a.png", "status": "made", "name": "a"}\n'
                                          '{"source": "b.png", "status": "made", "name": "../etc"}\n')
    done = nonogen_cli("gallery", bad)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert f"{bad / 'collection.jsonl'}:2:" in done.stderr and "folder name" in done.stderr
    (bad / "collection.jsonl").write_text("{not json\n")
    assert "collection.jsonl:1: not JSON" in nonogen_cli("gallery", bad).stderr
    relative = collection.parent / "picks.json"  # a relative collection path is read from the file's folder
    relative.write_text(json.dumps({"collection": collection.name, "names": ["icon-gear"]}))
    assert [m.name for m in read_selection(relative)[1]] == ["icon-gear"]
    twice = tmp_path / "twice.json"
    twice.write_text(json.dumps({"collection": str(collection), "names": ["mug", "mug"]}))
    with pytest.raises(FormatError, match="listed twice"):
        read_selection(twice)


def test_gallery_of_folders_made_by_separate_calls(collection, tmp_path):
    bare = tmp_path / "bare"
    for name in ("icon-heart", "icon-gear"):
        shutil.copytree(collection / name, bare / name, ignore=shutil.ignore_patterns("gallery*"))
    done = nonogen_cli("gallery", bare, "--json")  # no records: the reports name the source pictures
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["thumbnails"] == 2 and json.loads(done.stdout)["not_made"] == 0
    assert sorted(p.name for p in (bare / "gallery.thumbs").iterdir()) == ["icon-gear.png", "icon-heart.png"]
    assert "Not made" not in (bare / "gallery.html").read_text(encoding="utf-8")


# --- the browser ------------------------------------------------------------------------------------------------

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium missing")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from browsers import chromium  # noqa: E402


@pytest.fixture(scope="module")
def browser() -> Iterator[tuple["webdriver.Chrome", Path]]:
    """Chromium with its download folder in a fresh temporary folder."""
    downloads = Path(tempfile.mkdtemp(prefix="nonogen-dl-"))
    try:
        with chromium(window=(1400, 1000), downloads=downloads) as driver:
            yield driver, downloads
    finally:
        shutil.rmtree(downloads, ignore_errors=True)


def _until(driver, condition, what: str):
    """Wait for ``condition(driver)``, never for a fixed time."""
    return WebDriverWait(driver, WAIT).until(condition, f"waited {WAIT} s for {what}")


def _shown(driver) -> list[str]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#puzzles tbody tr')).filter(r => !r.hidden)"
        ".map(r => r.dataset.name)")


def _requested(driver) -> list[str]:
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def _downloaded(path: Path):
    """The selection file once Chromium has finished writing it (it writes a .crdownload first), else False."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return False


def test_page_filters_sorts_and_downloads_the_selection(browser, collection):
    driver, downloads = browser
    driver.get_log("performance")
    driver.get((collection / "gallery.html").as_uri())
    _until(driver, lambda d: d.execute_script("return !!window.nonogenGallery"), "the page's script to start")
    _until(driver, lambda d: d.execute_script(
        "return Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)"), "every picture to load")
    assert driver.execute_script("return window.pwned") is None
    members = {m.name: m for m in read_collection(collection).made}
    by_grade = sorted(members, key=lambda n: (members[n].grade, n))
    assert _shown(driver) == by_grade  # grade, easiest first, is the first order
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / "gallery-all.png"))

    Select(driver.find_element(By.ID, "grade")).select_by_value("1")
    assert _shown(driver) == [n for n in by_grade if members[n].grade == 1]
    Select(driver.find_element(By.ID, "warning")).select_by_value("some")
    assert _shown(driver) == [n for n in by_grade if members[n].grade == 1 and members[n].warnings]
    Select(driver.find_element(By.ID, "grade")).select_by_value("")
    Select(driver.find_element(By.ID, "warning")).select_by_value("kind:file left out")
    assert _shown(driver) == [n for n in by_grade if any(" not written:" in w for w in members[n].warnings)]
    assert _shown(driver)  # icon-heart's puzzle.non cannot hold its givens
    Select(driver.find_element(By.ID, "warning")).select_by_value("none")
    assert _shown(driver) == [n for n in by_grade if not members[n].warnings]
    Select(driver.find_element(By.ID, "warning")).select_by_value("")
    Select(driver.find_element(By.ID, "sort")).select_by_value("name")
    assert _shown(driver) == sorted(members)
    Select(driver.find_element(By.ID, "sort")).select_by_value("recog")
    graded = [n for n in _shown(driver) if members[n].recognisability is not None]
    assert graded == sorted(graded, key=lambda n: -members[n].recognisability) and _shown(driver)[-1] == "mug"
    Select(driver.find_element(By.ID, "sort")).select_by_value("size")
    assert [members[n].cells for n in _shown(driver)] == sorted(m.cells for m in members.values())

    picks = ["mug", "icon-gear", "flat-fish"]
    button = driver.find_element(By.ID, "download")
    assert not button.is_enabled()
    for name in picks:
        driver.find_element(By.CSS_SELECTOR, f'input.pick[value="{name}"]').click()
    assert driver.find_element(By.ID, "count").text == "3 selected"
    button.click()
    target = downloads / "selection.json"
    selection = _until(driver, lambda d: _downloaded(target), "selection.json in the download folder")
    order = [n for n in _shown(driver) if n in picks]
    assert selection == {"collection": ".", "names": order}  # the folder it is saved in: no path of the maker's disk
    assert json.loads(driver.find_element(By.ID, "selection").text) == selection
    driver.save_screenshot(str(ARTIFACTS / "gallery-selected.png"))
    with pytest.raises(InputError, match="save the selection file in the collection folder"):
        read_selection(target)  # still in the download folder
    placed = collection / "selection.json"
    placed.write_bytes(target.read_bytes())
    chosen = read_selection(placed)[1]
    assert [m.name for m in chosen] == order and open_published(placed)[1] == chosen
    urls = _requested(driver)
    assert any(u.startswith("file:") for u in urls)
    assert not [u for u in urls if not u.startswith(("file:", "data:", "blob:"))]
