"""The web site of a collection (``nonogen site``): its files, its command, and its pages played in a real headless
Chromium — from ``file://`` with the network off, and from a local ``http.server``, where the service worker keeps
the site for offline play.

The small collection is made here from a few generated pictures, a sample at grade 2 and one mesh; the demo
collection from every ``samples/images/*.png`` at 10x10. Cells are clicked as a person clicks them. Every wait
waits for a condition, never for a time. Screenshots of the index (desktop, and a 412 px phone) go to
``tests/artifacts/``.
"""
from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest
from PIL import Image

import nonogen
from nonogen.errors import InputError, OutputExistsError
from nonogen.output.collection import by_grade, read_collection

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
WAIT = 120
"""Seconds a wait on a condition may take: a safety net a loaded machine never reaches, costing nothing otherwise."""

PIXELS = {  # black-and-white pixel art, one cell a pixel
    "arrow": ("..#...", ".###..", "#####.", "..#...", "..#...", "..#..."),
    "ring": (".###.", "#...#", "#...#", "#...#", ".###."),
    "tree": ("...#...", "..###..", ".#####.", "#######", "...#...", "...#...", "..###.."),
}


def _drawn(path: Path, rows: tuple[str, ...]) -> Path:
    img = Image.new("RGB", (len(rows[0]), len(rows)), "white")
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch == "#":
                img.putpixel((x, y), (20, 20, 20))
    img.save(path)
    return path


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    """Three B&W pictures, a colour one, a grade-2 fish (its name sorts first) and a mug level, one save each."""
    base = tmp_path_factory.mktemp("site")
    out = base / "small"
    for name, rows in PIXELS.items():
        nonogen.save(nonogen.from_image(_drawn(base / f"{name}.png", rows)), out / name)
    flag = Image.new("RGB", (8, 6), "white")
    for y in range(6):
        for x in range(8):
            flag.putpixel((x, y), (200, 30, 30) if (x // 2 + y // 2) % 2 else (30, 60, 200) if x > 5 else (255,) * 3)
    flag.save(base / "flag.png")
    nonogen.save(nonogen.from_image(base / "flag.png"), out / "flag")
    nonogen.save(nonogen.from_image(SAMPLES / "images" / "flat-fish.png", grade=2, size=(10, 10)), out / "a-fish")
    nonogen.save(nonogen.from_mesh(SAMPLES / "meshes" / "mug.glb", size=6), out / "mug")
    return out


@pytest.fixture(scope="module")
def built(small) -> tuple[Path, dict]:
    site = small.parent / "site"
    return site, nonogen.site(small, site)


def nonogen_cli(*argv, cwd=REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nonogen", *map(str, argv)], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def _site_files(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())


# --- without a browser ------------------------------------------------------------------------------------------


def test_site_holds_an_index_a_page_each_and_what_installs_it(built, small):
    site, written = built
    pages = [written["pages"][m.name] for m in by_grade(read_collection(small).made)]
    assert pages[-1] == written["pages"]["a-fish"] and written["levels"] == ["mug"]  # grade 2 last, whatever its name
    assert _site_files(site) == sorted([*pages, "index.html", "manifest.webmanifest", "sw.js", "icons/icon-192.png",
                                        "icons/icon-512.png", "icons/icon-maskable-512.png",
                                        "icons/apple-touch-icon.png"])
    assert [p.name for p in site.parent.iterdir() if p.name.startswith(".")] == []  # no building folder left
    index = (site / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'<li class="tile"[^>]*><a href="([^"]+)"', index) == pages
    assert "<img" not in index and "solution" not in index  # no picture of any answer, nor a link to one
    manifest = json.loads((site / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["start_url"] == "index.html" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        with Image.open(site / icon["src"]) as picture:
            assert picture.format == "PNG" and f"{picture.width}x{picture.height}" == icon["sizes"]
    worker = (site / "sw.js").read_text(encoding="utf-8")
    listed = json.loads(re.search(r"const FILES = (\[.*?\]);", worker).group(1))
    assert sorted(listed) == [f for f in _site_files(site) if f != "sw.js"]
    ring = (site / written["pages"]["ring"]).read_text(encoding="utf-8")
    assert '<a id="nav-index" href="../index.html">' in ring and 'rel="next"' in ring
    heading = re.search(r"<title>(.*?)</title>", ring).group(1)  # a number: nothing tells the answer
    assert re.fullmatch(r"Puzzle \d", heading) and f"<h1>{heading}</h1>" in ring and f'"title":"{heading}"' in ring


def test_no_file_of_the_site_names_a_path_of_the_machine(built, small):
    site, _ = built
    places = {str(small.parent), str(REPO), str(SAMPLES), small.parent.as_uri()}
    places |= {str(Path.home())} if len(Path.home().parts) > 2 else set()
    for path in site.rglob("*"):
        if path.is_file():
            text = path.read_bytes().decode("utf-8", errors="replace")
            found = [p for p in places if p in text]
            assert not found, f"{path.name} names {found}"


def test_command_takes_selections_kinds_and_grades_and_refuses_to_replace_unasked(built, small, tmp_path):
    done = nonogen_cli("site", small, "-o", tmp_path / "s", "--json", "--title", "Spring <picks>")
    assert done.returncode == 0, done.stderr
    written = json.loads(done.stdout)
    assert len(written["puzzles"]) == 5 and written["levels"] == ["mug"] and written["title"] == "Spring <picks>"
    assert "<title>Spring &lt;picks&gt;</title>" in (tmp_path / "s" / "index.html").read_text(encoding="utf-8")
    again = nonogen_cli("site", small, "-o", tmp_path / "s")
    assert again.returncode == 2 and len(again.stderr.strip().splitlines()) == 1
    assert again.stderr.strip().endswith("folder exists and is not empty (use --force to replace it)")
    assert nonogen_cli("site", small, "-o", tmp_path / "s", "--force", "--kind", "3d").returncode == 0
    assert _site_files(tmp_path / "s")[0:2] == ["icons/apple-touch-icon.png", "icons/icon-192.png"]
    assert [f for f in _site_files(tmp_path / "s") if f.endswith(".html")] == ["index.html", "levels/01.html"]
    graded = nonogen.site(small, tmp_path / "g", grades=(2, 2), kind="2d")
    assert graded["puzzles"] == ["a-fish"] and set(graded["left_out"]) == {"arrow", "ring", "tree", "flag"}
    selection = small / "selection.json"
    selection.write_text(json.dumps({"collection": ".", "names": ["mug", "ring"]}))
    try:
        picked = nonogen.site(selection, tmp_path / "picked")
    finally:
        selection.unlink()
    assert picked["puzzles"] == ["ring"] and picked["levels"] == ["mug"] and picked["title"] == "small"
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me")
    refused = nonogen_cli("site", small, "-o", mine, "--force")
    assert refused.returncode == 2 and "not a site" in refused.stderr and (mine / "notes.txt").exists()
    none = nonogen_cli("site", small, "-o", tmp_path / "n", "--grade", "5")
    assert none.returncode == 2 and "no puzzle of grade 5" in none.stderr and not (tmp_path / "n").exists()


def test_a_failed_run_leaves_no_half_site_and_the_old_one_as_it_was(built, small, tmp_path):
    def stop_halfway(done: int, total: int) -> None:
        if done > total * 3 // 4:
            raise RuntimeError("stopped")

    with pytest.raises(RuntimeError):
        nonogen.site(small, tmp_path / "half", on_progress=stop_halfway)
    assert list(tmp_path.iterdir()) == []
    nonogen.site(small, tmp_path / "whole", kind="3d")
    before = {f: (tmp_path / "whole" / f).read_bytes() for f in _site_files(tmp_path / "whole")}
    with pytest.raises(RuntimeError):
        nonogen.site(small, tmp_path / "whole", force=True, on_progress=stop_halfway)
    assert {f: (tmp_path / "whole" / f).read_bytes() for f in _site_files(tmp_path / "whole")} == before
    assert [p.name for p in tmp_path.iterdir()] == ["whole"]


def test_members_are_read_warily_and_no_link_is_written_through(small, tmp_path):
    coll = tmp_path / "coll"
    shutil.copytree(small, coll)
    secret = tmp_path / "secret.json"
    secret.write_text((coll / "ring" / "puzzle.json").read_text().replace('"title"', '"secret": "PRIVATE", "title"'))
    (coll / "ring" / "puzzle.json").unlink()
    (coll / "ring" / "puzzle.json").symlink_to(secret)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "out").symlink_to(elsewhere)
    with pytest.raises(OutputExistsError):
        nonogen.site(coll, tmp_path / "out")
    written = nonogen.site(coll, tmp_path / "out", force=True)  # the link itself is replaced, never followed
    assert not (tmp_path / "out").is_symlink() and list(elsewhere.iterdir()) == []
    assert "ring" in written["left_out"] and "ring" not in written["puzzles"]
    assert len(written["warnings"]) == 1 and "leads out of the collection" in written["warnings"][0]
    assert str(tmp_path) not in written["warnings"][0]  # the folders of a path are cut off
    assert not any(b"PRIVATE" in (tmp_path / "out" / f).read_bytes() for f in _site_files(tmp_path / "out"))
    shutil.copytree(coll / "mug", tmp_path / "levels-only" / "mug")
    with pytest.raises(InputError, match="no 2D puzzles"):
        nonogen.site(tmp_path / "levels-only", tmp_path / "none", kind="2d")


# --- the browser ------------------------------------------------------------------------------------------------

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium missing")
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from browsers import chromium  # noqa: E402


@pytest.fixture
def browser() -> Iterator["webdriver.Chrome"]:
    """A browser of its own for each test: nothing kept from the test before (see tests/browsers.py)."""
    with chromium(window=(1200, 900), webgl=True, logs=("performance", "browser")) as driver:
        yield driver


def _until(driver, condition, what: str):
    """Wait for ``condition(driver)``, never for a fixed time."""
    return WebDriverWait(driver, WAIT).until(condition, f"waited {WAIT} s for {what}")


def _open(driver, url: str) -> None:
    """Open a page of the site and wait for its script: the index's, or a play page's game."""
    driver.get(url)
    _until(driver, lambda d: d.execute_script("return !!(window.nonogenSite || window.nonogenPlay)"), f"{url} to start")


def _tiles(driver) -> list[dict]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('li.tile')).filter(t => !t.hidden).map(t => ({href: "
        "t.querySelector('a').getAttribute('href'), state: t.dataset.state, told: t.querySelector('.told').textContent,"
        " drawn: !t.querySelector('canvas') || !t.querySelector('canvas').hidden}))")


def _tile(driver, href: str) -> dict:
    return next(t for t in _tiles(driver) if t["href"] == href)


def _requested(driver) -> list[str]:
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            if not message["params"].get("documentURL", "").startswith(("chrome:", "chrome-untrusted:")):
                urls.append(message["params"]["request"]["url"])
    return urls


def _fresh_index(driver, index: str) -> None:
    """Open the index of a browser that has kept nothing: no progress, no filter on."""
    _open(driver, index)
    assert driver.execute_script("return localStorage.length === 0 && sessionStorage.length === 0"
                                 " && !document.querySelector('li.tile[hidden]')")


def _seen_from_a_new_tab(driver, index: str, condition, what: str) -> None:
    """Wait, with the page that wrote its progress still open, until the index opened afresh in another tab sees
    it: a page's storage writes reach other documents only eventually, and a page left at once might take its
    last one with it."""
    page = driver.current_window_handle
    driver.switch_to.new_window("tab")
    try:
        _open(driver, index)
        _on_index_until(driver, index, condition, what)
    finally:
        driver.close()
        driver.switch_to.window(page)


def _fill(driver) -> None:
    """Solve the open 2D page by clicking each cell of its answer that is not given (black and white pages)."""
    answer = driver.execute_script("return nonogenPage.puzzle.solution")
    for r, row in enumerate(answer):
        for c, value in enumerate(row):
            cell = driver.find_element(By.CSS_SELECTOR, f'td.cell[data-row="{r}"][data-col="{c}"]')
            if value and "given" not in (cell.get_attribute("class") or ""):
                cell.click()


def _on_index_until(driver, index: str, condition, what: str):
    """Wait on the index for ``condition``; opened again while it fails (storage may reach it a moment late)."""
    def holds(d):
        if condition(d):
            return True
        _open(d, index)
        return False
    return _until(driver, holds, what)


def test_index_in_grade_order_and_its_links_lead_through_every_page(browser, built, small):
    driver, (site, written) = browser, built
    index = (site / "index.html").as_uri()
    _fresh_index(driver, index)
    pages = [written["pages"][m.name] for m in by_grade(read_collection(small).made)]
    assert [t["href"] for t in _tiles(driver)] == pages
    shown = driver.find_element(By.TAG_NAME, "body").text.lower()
    assert not driver.find_elements(By.TAG_NAME, "img") and not any(name in shown for name in ("arrow", "ring", "mug"))
    assert driver.find_element(By.ID, "continue").text == "Start: Puzzle 1"
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / "site-index.png"))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 412, "height": 915, "deviceScaleFactor": 1, "mobile": True})
    try:
        _open(driver, index)
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 412  # no sideways scrolling
        driver.save_screenshot(str(ARTIFACTS / "site-index-mobile.png"))
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    driver.find_element(By.CSS_SELECTOR, "li.tile a").click()
    for k, url in enumerate((site / page).as_uri() for page in pages):
        _until(driver, lambda d, url=url: d.current_url == url, f"{url} to open")
        _until(driver, lambda d: d.execute_script("return !!window.nonogenPlay"), f"{url} to start")
        if k + 1 < len(pages):
            driver.find_element(By.ID, "nav-next").click()
    assert driver.find_element(By.ID, "nav-next").tag_name == "span"  # the last page leads nowhere further
    driver.find_element(By.ID, "nav-index").click()
    _until(driver, lambda d: d.current_url == index and d.execute_script("return !!window.nonogenSite"), "the index")
    Select(driver.find_element(By.ID, "f-kind")).select_by_value("3d")
    assert [t["href"] for t in _tiles(driver)] == [written["pages"]["mug"]]


def test_a_solved_puzzle_is_marked_on_the_index_and_stays_so(browser, built):
    driver, (site, written) = browser, built
    index = (site / "index.html").as_uri()
    _fresh_index(driver, index)
    ring = written["pages"]["ring"]
    link = driver.find_element(By.CSS_SELECTOR, f'li.tile a[href="{ring}"]')
    _until(driver, lambda d: link.is_displayed(), "the ring's tile to show")
    link.click()
    _until(driver, lambda d: d.execute_script("return !!window.nonogenPlay"), "the ring to start")
    ActionChains(driver).send_keys(Keys.TAB).perform()  # the bar is last in the page: one Tab still reaches the grid
    assert driver.execute_script("return document.activeElement.id") == "board"
    _fill(driver)
    _until(driver, lambda d: d.execute_script("return nonogenPlay.solved()"), "the puzzle to be solved")
    _seen_from_a_new_tab(driver, index, lambda d: _tile(d, ring)["state"] == "solved", "the solved ring to be kept")
    driver.find_element(By.ID, "nav-index").click()
    _on_index_until(driver, index, lambda d: _tile(d, ring)["state"] == "solved", "the ring to show as solved")
    tile = _tile(driver, ring)
    assert tile["told"] == "Ring" and tile["drawn"]  # its name, and the player's own picture
    assert "1 solved" in driver.find_element(By.ID, "tally").text
    driver.refresh()
    _until(driver, lambda d: d.execute_script("return !!window.nonogenSite"), "the index again")
    assert _tile(driver, ring)["state"] == "solved"
    Select(driver.find_element(By.ID, "f-state")).select_by_value("solved")
    assert [t["href"] for t in _tiles(driver)] == [ring]
    driver.save_screenshot(str(ARTIFACTS / "site-index-solved.png"))


def test_continue_opens_the_started_puzzle(browser, built):
    driver, (site, written) = browser, built
    index = (site / "index.html").as_uri()
    _fresh_index(driver, index)
    tree, arrow = written["pages"]["tree"], written["pages"]["arrow"]
    _open(driver, (site / tree).as_uri())
    driver.find_element(By.CSS_SELECTOR, 'td.cell[data-row="0"][data-col="3"]').click()  # one cell: started
    _seen_from_a_new_tab(driver, index, lambda d: _tile(d, tree)["state"] == "started", "the started tree to be kept")
    _open(driver, (site / arrow).as_uri())  # opened last, but not started
    driver.find_element(By.ID, "nav-index").click()
    _on_index_until(driver, index, lambda d: _tile(d, tree)["state"] == "started", "the tree to show as started")
    button = driver.find_element(By.ID, "continue")
    assert button.get_attribute("href") == (site / tree).as_uri() and button.text.startswith("Continue: Puzzle ")
    button.click()
    _until(driver, lambda d: d.current_url == (site / tree).as_uri(), "Continue to open the started puzzle")


def test_site_plays_from_file_with_the_network_off(browser, built):
    driver, (site, written) = browser, built
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        driver.get_log("performance")
        for page in ["index.html", *written["pages"].values()]:
            _open(driver, (site / page).as_uri())
        assert not driver.execute_script("return document.querySelector('link[rel=manifest]')")  # not from file://
        urls = _requested(driver)
        assert any(u.startswith("file:") for u in urls)
        assert not [u for u in urls if not u.startswith(("file:", "data:", "blob:"))]
    finally:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                               {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@contextmanager
def _served(folder: Path) -> Iterator[str]:
    """``folder`` over http on a free local port, in a thread, until the block ends."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_served_site_registers_its_worker_and_plays_offline_after_the_first_visit(browser, built):
    driver, (site, written) = browser, built
    with _served(site.parent) as base:  # the site in a sub-folder of the host: every link is relative
        root = base + site.name + "/"
        _open(driver, root + "index.html")
        scope = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "navigator.serviceWorker.ready.then((r) => done(r.scope), (e) => done(String(e)));")
        assert scope == root
        assert driver.execute_script("return document.querySelector('link[rel=manifest]').href") == \
            root + "manifest.webmanifest"
        cached = driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "caches.keys().then((names) => Promise.all(names.map((n) => caches.open(n).then((c) => c.keys()))))"
            ".then((lists) => done(lists.flat().map((r) => r.url)), (e) => done([String(e)]));")
        assert sorted(cached) == sorted(root + f for f in _site_files(site) if f != "sw.js")
    for page in ["", "index.html", written["pages"]["ring"], written["pages"]["mug"]]:  # the server is gone
        _open(driver, root + page)
        assert driver.execute_script("return document.title")
    driver.find_element(By.ID, "nav-index").click()
    _until(driver, lambda d: d.execute_script("return !!window.nonogenSite"), "the index, offline")
    assert len(_tiles(driver)) == len(written["pages"])


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    """The demo collection, small: every sample PNG at 10x10, and its site."""
    out = tmp_path_factory.mktemp("demo") / "demo"
    records = list(nonogen.make_many(sorted((SAMPLES / "images").glob("*.png")), out, kind="image", size=(10, 10)))
    assert records and all(r["status"] == "made" for r in records)
    nonogen.site(out, out.parent / "site")
    return out.parent / "site"


def test_every_page_of_the_demo_site_loads_without_a_console_error(browser, demo):
    driver = browser
    pages = ["index.html", *(f for f in _site_files(demo) if f.startswith("puzzles/"))]
    assert len(pages) == 1 + len(list((SAMPLES / "images").glob("*.png")))
    driver.get_log("browser")  # what earlier tests left
    for page in pages:
        _open(driver, (demo / page).as_uri())
        errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, f"{page}: {errors}"
