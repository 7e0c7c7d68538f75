"""The studio's proof in the editor, in headless Chromium through the real server: a grid that is not unique says
so before any grade; saving never writes a file that is not unique unless the author confirms, and the question
offers the fix; test-solving plays the puzzle on the play page; the ambiguity map scores cells as the engine
proves them.

One server and one browser serve the whole module (the helpers are tests/test_studio_editor.py's).
"""
from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from typing import Iterator

import pytest

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium missing")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

from nonogen.cli.common import EXIT_TERMINATED  # noqa: E402
from studio_server import DOC, WAIT, Studio  # noqa: E402
from test_play_browser import browser  # noqa: E402,F401  (the shared headless Chromium)
from test_studio import _ambiguous, _cell, _shot, _until, _verdict  # noqa: E402
from test_studio_editor import checked, depth, doc, drag, new_grid, set_field, tool, viewport  # noqa: E402

PAIRS = [(0, 0), (1, 1), (5, 3), (6, 4), (3, 5), (3, 6), (3, 7)]
"""Cells of an 8x8 grid with two diagonal pairs (each can flip) and a bar: not unique, 28 ambiguous cells."""


@pytest.fixture(scope="module")
def proof(browser, tmp_path_factory) -> Iterator[tuple]:  # noqa: F811
    folder = tmp_path_factory.mktemp("proof")
    server = Studio(folder, token=None)
    try:
        viewport(browser)
        browser.get(server.page)
        _until(browser, lambda: browser.find_element(By.ID, "folder-name").text)
        yield browser, folder, server
    finally:
        code, errors = server.stop()
        assert code == EXIT_TERMINATED and "Traceback" not in errors, errors


def text(driver, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text


def draw_pairs(driver) -> None:
    new_grid(driver, 8, 8)
    tool(driver, "paint")
    for r, c in PAIRS:
        _cell(driver, r, c).click()
    _until(driver, lambda: depth(driver) == len(PAIRS) and checked(driver))


def verify(path) -> str:
    result = subprocess.run([sys.executable, "-m", "nonogen", "verify", str(path), "--json"],
                            capture_output=True, text=True)
    return json.loads(result.stdout)["status"]


def save_as(driver, kind: str, name: str) -> None:
    Select(driver.find_element(By.ID, "save-format")).select_by_value(kind)
    set_field(driver, "save-name", name)
    driver.find_element(By.ID, "save-button").click()


def saved(driver, name: str) -> bool:
    return driver.find_element(By.ID, "save-status").get_attribute("data-saved") == name


def test_not_unique_comes_first_and_is_never_graded(proof):
    driver, folder, server = proof
    draw_pairs(driver)
    assert _verdict(driver) == "multiple" and text(driver, "verdict") == "not unique"
    assert text(driver, "difficulty") == "28 cells can go either way (striped red)"
    assert text(driver, "grade") == "none: not unique" and "search" not in driver.find_element(By.TAG_NAME, "main").text
    assert len(_ambiguous(driver)) == 28


def test_saving_asks_before_a_file_that_is_not_unique(proof):
    """Nothing is written before the author answers; the question names the problem and offers the fix, which
    for a format without givens is changed cells; "Save anyway" writes what the author chose."""
    driver, folder, server = proof
    draw_pairs(driver)
    save_as(driver, "non", "pairs.non")
    _until(driver, lambda: driver.find_element(By.ID, "unique-confirm").is_displayed())
    question = text(driver, "unique-question")
    assert question.startswith("Not saved: the puzzle is not unique: 28 cells can go either way"), question
    assert "cannot hold givens" in question and "change " in question and not (folder / "pairs.non").exists()
    assert driver.find_elements(By.CSS_SELECTOR, "#board td.cell.suggested")  # the fix is outlined
    _shot(driver, "studio-confirm-not-unique")
    driver.find_element(By.ID, "fix-and-save").click()
    _until(driver, lambda: saved(driver, "pairs.non"))
    assert verify(folder / "pairs.non") == "unique" and depth(driver) == len(PAIRS) + 1  # the fix is one edit
    _until(driver, lambda: checked(driver) and _verdict(driver) == "unique")
    # a given makes it unique where givens are kept; .non drops it, and the question says so
    draw_pairs(driver)
    driver.find_element(By.CSS_SELECTOR, '#suggest button[data-goal="unique"]').click()
    _until(driver, lambda: driver.find_element(By.ID, "apply").is_displayed())
    driver.find_element(By.ID, "apply").click()
    _until(driver, lambda: checked(driver) and _verdict(driver) == "unique" and doc(driver)["givens"])
    givens = len(doc(driver)["givens"])
    save_as(driver, "nonogen", "pairs.json")
    _until(driver, lambda: saved(driver, "pairs.json"))  # JSON keeps the givens: unique, no question
    assert verify(folder / "pairs.json") == "unique"
    save_as(driver, "non", "given.non")
    _until(driver, lambda: driver.find_element(By.ID, "unique-confirm").is_displayed())
    assert text(driver, "unique-question").startswith(
        f"Not saved: the non format cannot hold givens, and without its {givens} given cell")
    driver.find_element(By.ID, "save-anyway").click()
    _until(driver, lambda: saved(driver, "given.non"))
    assert verify(folder / "given.non") == "multiple"  # what the author confirmed, knowingly
    # an overwrite and a confirmation: both questions, in turn, and the answers kept
    save_as(driver, "non", "given.non")
    _until(driver, lambda: driver.find_element(By.ID, "unique-confirm").is_displayed())
    driver.find_element(By.ID, "save-anyway").click()
    _until(driver, lambda: driver.find_element(By.ID, "save-confirm").is_displayed())
    driver.find_element(By.ID, "overwrite").click()
    _until(driver, lambda: text(driver, "save-status").startswith("saved given.non"))


def test_the_save_api_refuses_a_file_that_is_not_unique_unasked(proof):
    driver, folder, server = proof
    pairs = {**DOC, "grid": [[1, 0], [0, 1]], "givens": [[0, 0]]}
    status, answer = server.api("/api/save", {"doc": pairs, "name": "p.non", "format": "non"})
    assert status == 200 and answer["confirm"]["dropped_givens"] == 1 and not (folder / "p.non").exists()
    assert answer["confirm"]["fix"]["edits"] and not answer["confirm"]["fix"]["givens"]
    status, answer = server.api("/api/save", {"doc": pairs, "name": "p.json", "format": "nonogen"})
    assert status == 200 and answer["saved"] == "p.json"  # givens kept: unique
    status, answer = server.api("/api/save", {"doc": {**pairs, "givens": []}, "name": "q.json", "format": "nonogen"})
    assert answer["confirm"]["fix"]["givens"] and not (folder / "q.json").exists()
    status, answer = server.api("/api/save", {"doc": pairs, "name": "p.non", "format": "non", "accept": True})
    assert status == 200 and answer["saved"] == "p.non" and (folder / "p.non").exists()


def test_the_play_page_is_the_tabs_own(proof):
    """The test-solve page is kept per tab, and like the level page it needs the run's token."""
    driver, folder, server = proof
    assert server.api("/api/play", DOC, tab="tab-a")[0] == 400  # not a {"doc": ...} body
    assert server.api("/api/play", {"doc": DOC}, tab="tab-a") == (200, {"ready": True})
    page = f"{server.url}play.html?tab=%s&token={server.token}"
    with urllib.request.urlopen(page % "tab-a", timeout=WAIT) as answer:
        assert "nonogenPlay" in answer.read().decode()
    with urllib.request.urlopen(page % "tab-b", timeout=WAIT) as answer:
        assert "No puzzle to play yet" in answer.read().decode()
    with pytest.raises(urllib.error.HTTPError, match="403"):
        urllib.request.urlopen(f"{server.url}play.html?tab=tab-a", timeout=WAIT)


def test_test_solve_plays_the_puzzle_then_edits_again(proof):
    driver, folder, server = proof
    new_grid(driver, 6, 5)
    tool(driver, "rect")
    drag(driver, (0, 1), (4, 4))
    tool(driver, "paint")
    _cell(driver, 2, 2).click()
    _until(driver, lambda: depth(driver) == 2 and checked(driver) and _verdict(driver) == "unique")
    grid = doc(driver)["grid"]
    driver.find_element(By.ID, "test-solve").click()
    _until(driver, lambda: driver.find_element(By.ID, "solve-frame").is_displayed())
    assert not driver.find_element(By.ID, "board").is_displayed()
    driver.switch_to.frame(driver.find_element(By.ID, "solve-frame"))
    try:
        _until(driver, lambda: driver.execute_script("return !!window.nonogenPlay"), "the play page did not start")
        assert driver.execute_script("return [nonogenPlay.state().width, nonogenPlay.state().height]") == [6, 5]
        for r, row in enumerate(grid):
            for c, value in enumerate(row):
                if value:
                    driver.find_element(By.CSS_SELECTOR, f'#board td.cell[data-row="{r}"][data-col="{c}"]').click()
        _until(driver, lambda: driver.execute_script("return nonogenPlay.solved()"))
        assert "Solved" in driver.find_element(By.ID, "status").text
    finally:
        driver.switch_to.default_content()
    _shot(driver, "studio-test-solve")
    driver.find_element(By.ID, "back-to-edit").click()
    _until(driver, lambda: driver.find_element(By.ID, "board").is_displayed())
    assert doc(driver)["grid"] == grid and not driver.find_element(By.ID, "solve-frame").is_displayed()


def test_the_ambiguity_map_scores_what_settles_it(proof):
    """Each cell's number is what the engine then proves: the best given leaves that many fewer ambiguous
    cells, and so does the best one-cell change."""
    driver, folder, server = proof
    draw_pairs(driver)
    Select(driver.find_element(By.ID, "map-mode")).select_by_value("given")
    _until(driver, lambda: driver.find_element(By.ID, "map-status").get_attribute("data-done") == "1")
    scores = {(int(e.get_attribute("data-r")), int(e.get_attribute("data-c"))): int(e.get_attribute("data-settles"))
              for e in driver.find_elements(By.CSS_SELECTOR, "#board td.cell.heat")}
    assert set(scores) == _ambiguous(driver) and len(scores) == 28  # a given settles at least its own cell
    (r, c), best = max(scores.items(), key=lambda item: item[1])
    assert f"settles {best} of the 28 ambiguous cells" in text(driver, "map-status")
    _shot(driver, "studio-ambiguity-map")
    tool(driver, "given")
    _cell(driver, r, c).click()
    _until(driver, lambda: checked(driver) and driver.find_element(By.ID, "ambiguous-count").text == str(28 - best))
    driver.find_element(By.ID, "undo").click()
    _until(driver, lambda: checked(driver) and driver.find_element(By.ID, "ambiguous-count").text == "28")
    Select(driver.find_element(By.ID, "map-mode")).select_by_value("change")
    _until(driver, lambda: driver.find_element(By.ID, "map-status").get_attribute("data-done") == "1")
    heat = driver.find_elements(By.CSS_SELECTOR, "#board td.cell.heat")
    changes = {(int(e.get_attribute("data-r")), int(e.get_attribute("data-c"))): int(e.get_attribute("data-settles"))
               for e in heat}
    (r, c), best = max(changes.items(), key=lambda item: item[1])
    _shot(driver, "studio-ambiguity-map-changes")
    tool(driver, "paint")
    _cell(driver, r, c).click()  # black and white: the change is the other colour
    _until(driver, lambda: checked(driver) and _verdict(driver) in ("unique", "multiple"))
    left = 0 if _verdict(driver) == "unique" else int(driver.find_element(By.ID, "ambiguous-count").text)
    assert left == 28 - best


def test_a_map_that_ran_out_of_time_says_so(proof, monkeypatch):
    """The map of a grid whose proof ran out of time answered "complete, 0 ambiguous", and the page said "A given in
    the brightest cell settles 0 of the 0 ambiguous cells." (a 100x100 grid the check had proved not unique
    within its 30 s, the map's own proof not within its 20 s). The map's answer here is ambiguity_map's own, with
    the engine's verdict "timeout" by fiat, sent to the page in place of /api/map's."""
    from types import SimpleNamespace

    from nonogen.solve.session import Session
    from nonogen.studio.ambiguity import ambiguity_map
    from nonogen.studio.inputs import checked

    driver, folder, server = proof
    monkeypatch.setattr(Session, "verify", lambda self, grid, **kw: SimpleNamespace(status="timeout"))
    answer = "".join(json.dumps(message) + "\n" for message in ambiguity_map({"doc": checked(DOC)}))
    monkeypatch.undo()
    Select(driver.find_element(By.ID, "map-mode")).select_by_value("off")  # no map before the page has this answer
    draw_pairs(driver)
    driver.execute_script("""
        const answer = arguments[0];
        window.realFetch = window.fetch;
        window.fetch = (path, init) => path === "/api/map" ? Promise.resolve(new Response(answer))
          : window.realFetch(path, init);
    """, answer)
    try:
        Select(driver.find_element(By.ID, "map-mode")).select_by_value("given")
        status = driver.find_element(By.ID, "map-status")
        _until(driver, lambda: status.get_attribute("data-done") == "1")
        assert status.text == ("The map ran out of time before the engine could prove which cells are ambiguous: "
                               "nothing is mapped.")
        assert status.get_attribute("data-complete") == ""
        assert not driver.find_elements(By.CSS_SELECTOR, "#board td.cell.heat")
        assert len(_ambiguous(driver)) == 28  # the check's own proof still shows its cells
    finally:
        driver.execute_script("window.fetch = window.realFetch;")
        Select(driver.find_element(By.ID, "map-mode")).select_by_value("off")
