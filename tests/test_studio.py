"""``nonogen studio``, end to end: the real server (``nonogen studio FOLDER --port 0``) driven by headless Chromium.

The browser comes from tests/test_play_browser.py's fixture (Debian's chromium and chromedriver; the tests skip
without them). Pictures are dropped the way a browser delivers a drop (a DataTransfer holding a File), cells
are clicked with WebDriver pointer actions, and every wait is for a condition in the page, never for a time.
Screenshots go to ``tests/artifacts/``. What the studio refuses (other users, endless bodies, bad names) is
tests/test_studio_security.py; the server helper is tests/studio_server.py.
"""
from __future__ import annotations

import asyncio
import base64
import io
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path
from typing import Iterator

import numpy as np
import pytest
from PIL import Image

from nonogen.cli.common import EXIT_TERMINATED
from nonogen.studio.inputs import checked
from nonogen.studio.folder import Folder
from nonogen.studio.worker import CANCELLED, Engine
from studio_server import DOC, WAIT, Studio

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


def _picture_png(cell_px: int = 8) -> bytes:
    """A 10x10 black-and-white picture: a 4x4 block near the bottom-right corner, the rest empty (unique)."""
    grid = np.zeros((10, 10), dtype=np.uint8)
    grid[5:9, 5:9] = 1
    pixels = np.kron(1 - grid, np.ones((cell_px, cell_px), dtype=np.uint8)) * 255
    out = io.BytesIO()
    Image.fromarray(pixels.astype(np.uint8), "L").convert("RGB").save(out, "PNG")
    return out.getvalue()


@pytest.fixture
def studio(tmp_path) -> Iterator[Studio]:
    """``nonogen studio`` serving a fresh folder (with heart.non in it); stopped by SIGTERM, with no traceback."""
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "heart.non").write_bytes((SAMPLES / "puzzles" / "heart.non").read_bytes())
    server = Studio(folder, token=None)  # a fresh token, as a user gets it
    try:
        yield server
    finally:
        code, errors = server.stop()
        assert code == EXIT_TERMINATED and "Traceback" not in errors, errors


# --- no browser: the folder is the only place the app reads and writes ------------------------------------------


def test_folder_path_refuses_every_way_out(tmp_path):
    root = tmp_path / "work"
    root.mkdir()
    (tmp_path / "secret.non").write_text("secret")
    os.symlink(tmp_path / "secret.non", root / "link.non")
    folder = Folder(root)
    assert folder.path("heart.non") == root.resolve() / "heart.non"
    for name in ("../secret.non", "/etc/passwd", "sub/x.non", "..", ".", ".hidden", "", "a\0b", "link.non",
                 "..\\secret.non"):
        with pytest.raises(Exception, match="name|outside"):
            folder.path(name)


def test_studio_api_keeps_to_its_folder(studio, tmp_path):
    folder = studio.folder
    (tmp_path / "outside.non").write_bytes((SAMPLES / "puzzles" / "heart.non").read_bytes())
    os.symlink(tmp_path / "outside.non", folder / "link.non")
    for name in ("../outside.non", str(tmp_path / "outside.non"), "link.non", "../work/heart.non"):
        status, answer = studio.api("/api/open", {"name": name})
        assert status == 400 and "error" in answer, name
        status, answer = studio.api("/api/save", {"doc": DOC, "name": name, "format": "non"})
        assert status == 400 and "error" in answer, name
    assert (tmp_path / "outside.non").read_bytes() == (SAMPLES / "puzzles" / "heart.non").read_bytes()
    assert not (tmp_path / "outside.non.tmp").exists()
    assert sorted(p.name for p in folder.iterdir()) == ["heart.non", "link.non"]
    # a request without the run's token (another site's form, say) is refused; so is a foreign Host name
    assert studio.api("/api/save", {"doc": DOC, "name": "x.non", "format": "non"}, token=None)[0] == 403
    with pytest.raises(urllib.error.HTTPError, match="400"):
        urllib.request.urlopen(urllib.request.Request(studio.page, headers={"Host": "evil.example"}), timeout=WAIT)
    assert not (folder / "x.non").exists()
    # saving twice: the second is refused until the author says overwrite
    assert studio.api("/api/save", {"doc": DOC, "name": "x.non", "format": "non"})[0] == 200
    assert studio.api("/api/save", {"doc": DOC, "name": "x.non", "format": "non"})[0] == 409
    assert studio.api("/api/save", {"doc": DOC, "name": "x.non", "format": "non", "overwrite": True})[0] == 200


def test_studio_api_refuses_bad_input_and_keeps_serving(studio):
    status, answer = studio.api("/api/picture", b"not a picture", {"X-File-Name": "notes.png"}, raw=True)
    assert status == 422 and answer["error"].startswith("notes.png: not a picture")
    status, answer = studio.api("/api/picture", bytes(21_000_000), {"X-File-Name": "big.png"}, raw=True)
    assert status == 413 and "up to 20 MB" in answer["error"]
    status, answer = studio.api("/api/check", {"doc": {"grid": [[7]], "palette": DOC["palette"]}})
    assert status == 400 and "colour indices" in answer["error"]
    status, answer = studio.api("/api/check", b"{", raw=True)
    assert status == 400 and "not JSON" in answer["error"]
    status, answer = studio.api("/api/mesh", b"solid broken\nfacet nonsense", {"X-File-Name": "broken.stl"}, raw=True)
    assert status == 422 and answer["error"].startswith("broken.stl: "), answer
    status, answer = studio.api("/api/check", {"doc": DOC})
    assert status == 200 and answer["grade"] == 1  # still serving


def test_studio_reimport_follows_the_options(studio):
    """The picture options re-read the uploaded picture: size, threshold, colours; a bad option is a message."""
    data = (SAMPLES / "images" / "landscape.jpg").read_bytes()
    status, first = studio.api("/api/picture?options=" + urllib.request.quote('{"width": 20, "mode": "bw"}'), data,
                         {"X-File-Name": "landscape.jpg"}, raw=True)
    assert status == 200 and len(first["grid"][0]) == 20 and first["quality"]["fill_share"] > 0
    fills = []
    for threshold in (60, 200):
        status, again = studio.api("/api/import", {"picture_id": first["picture_id"],
                                                  "options": {"width": 20, "mode": "bw", "threshold": threshold}})
        assert status == 200 and len(again["grid"][0]) == 20
        fills.append(again["quality"]["fill_share"])
    assert fills[0] != fills[1]
    status, colour = studio.api("/api/import",
                                {"picture_id": first["picture_id"], "options": {"width": 12, "colors": 3}})
    assert status == 200 and len(colour["palette"]) == 4 and len(colour["grid"][0]) == 12
    status, answer = studio.api("/api/import", {"picture_id": first["picture_id"], "options": {"width": 999}})
    assert status == 400 and answer["error"] == "width 999: expected 1 to 100 cells"
    status, answer = studio.api("/api/import", {"picture_id": "gone", "options": {}})
    assert status == 400 and "drop it again" in answer["error"]


def test_studio_suggestions_reach_their_goal(studio):
    """Each suggestion, applied as the page applies it, gives what it promised (checked by nonogen.verify)."""
    import nonogen
    from nonogen.studio.document import puzzle_of

    grid = np.zeros((8, 8), dtype=int)
    grid[0, 0] = grid[1, 1] = grid[5, 3] = grid[6, 4] = 1  # two diagonal pairs: four solutions
    grid[3, 5:8] = 1
    doc = {"grid": grid.tolist(), "palette": DOC["palette"], "givens": []}
    for goal in ("unique", "line", "edit", "grade"):
        status, s = studio.api("/api/suggest", {"doc": doc, "goal": goal, "grade": 1})
        assert status == 200 and s["status"] == "unique", (goal, s)
        edited = np.array(doc["grid"])
        for r, c, v in s["edits"]:
            edited[r, c] = v
        puzzle, target = puzzle_of({**doc, "grid": edited.tolist(), "givens": s["givens"]})
        result = nonogen.verify(puzzle, target=target, timeout=30)
        assert result.status == "unique", goal
        if goal in ("line", "grade"):
            assert result.difficulty == "line", goal
        if goal == "edit":
            assert s["edits"] and not s["givens"]
        else:
            assert s["givens"] and not s["edits"]
    status, answer = studio.api("/api/suggest", {"doc": doc, "goal": "prettier"})
    assert status == 422 and "goal" in answer["error"]


def test_studio_command_refuses_a_missing_folder_and_a_taken_port(tmp_path):
    result = subprocess.run([sys.executable, "-m", "nonogen", "studio", str(tmp_path / "nowhere"), "--no-browser"],
                            capture_output=True, text=True, timeout=WAIT)
    assert result.returncode == 2 and result.stderr.strip() == f"nonogen: error: {tmp_path / 'nowhere'}: not a folder"
    from nonogen.studio import open_socket

    with open_socket() as taken:
        port = str(taken.getsockname()[1])
        argv = [sys.executable, "-m", "nonogen", "studio", str(tmp_path), "--port", port, "--no-browser"]
        result = subprocess.run(argv, capture_output=True, text=True, timeout=WAIT)
    assert result.returncode == 2 and f"port {port}:" in result.stderr and "--port" in result.stderr
    assert "Traceback" not in result.stderr


def test_engine_answers_only_the_newest_job_of_a_lane():
    """A newer job of a lane stops the running one and answers the queued ones CANCELLED without touching a
    worker (a paint stroke forked a process per edit); another lane's job is left alone."""
    rng = np.random.default_rng(1)
    hard = checked({"grid": rng.integers(0, 2, (60, 60)).tolist(), "palette": DOC["palette"], "givens": []})

    async def scenario():
        engine = Engine(size=3, spare=0)
        try:
            async def collect(job, lane):
                return [m async for m in engine.run(job, lane=lane, seconds=60)]

            other = asyncio.ensure_future(collect({"kind": "suggest", "doc": hard, "goal": "edit"}, "other tab"))
            first = asyncio.ensure_future(collect({"kind": "suggest", "doc": hard, "goal": "edit"}, "tab"))
            deadline = asyncio.get_running_loop().time() + WAIT
            while len(engine._workers) < 2 or any(w.job is None for w in engine._workers):
                assert asyncio.get_running_loop().time() < deadline, engine._broken or "the suggestions never ran"
                await asyncio.sleep(0.01)  # both run, each on its worker: all the workers suggestions may take
            queued = [asyncio.ensure_future(collect({"kind": "check", "doc": checked(DOC)}, "tab")) for _ in range(5)]
            newest = await queued[-1]
            started = engine.started
            return await first, [await q for q in queued[:-1]], newest, other.done(), started, engine
        finally:
            engine.close()

    first, older, newest, other_done, started, engine = asyncio.run(scenario())
    assert first == [CANCELLED] and older == [[CANCELLED]] * 4
    assert newest[0]["verdict"] == "unique" and newest[-1]["grade"] == 1
    assert not other_done and started == 3  # two, then one for the newest check: none for the four dropped ones


def test_the_forkserver_preload_runs_its_jobs_without_an_error():
    """The preload swallows every error (a broken engine must not take the forkserver down): given a document the
    jobs no longer took (the page's, not the checked one), it failed at once and every worker started cold, silently."""
    from nonogen.studio import _preload
    from nonogen.studio.jobs import run

    for kind in ("check", "suggest"):
        messages = list(run({"kind": kind, "doc": _preload._TINY, "goal": "unique"}))
        assert messages and not [m for m in messages if "error" in m], messages


def test_the_map_never_calls_a_proof_that_ran_out_of_time_complete(monkeypatch):
    """A grid whose proof ran out of time got the map {"before": 0}, {"done": true, "complete": true}: "nothing
    ambiguous, every cell tried", where nothing was proved. The engine's verdict is "timeout" here by fiat, as a
    100x100 grid gives it after the map's 20 s."""
    from types import SimpleNamespace

    from nonogen.solve.session import Session
    from nonogen.studio.ambiguity import ambiguity_map

    monkeypatch.setattr(Session, "verify", lambda self, grid, **kw: SimpleNamespace(status="timeout"))
    assert list(ambiguity_map({"doc": checked(DOC)})) == [{"verdict": "timeout"},
                                                {"done": True, "complete": False, "timeout": True}]
    monkeypatch.undo()
    # a map cut short by its deadline says so too: here the search for the ambiguous cells runs out of time
    monkeypatch.setattr(Session, "ambiguous_cells", lambda self, grid, **kw: ([(0, 0), (0, 1)], False))
    messages = list(ambiguity_map({"doc": checked({**DOC, "grid": [[1, 0], [0, 1]], "givens": []})}))
    assert messages[0] == {"verdict": "multiple", "before": 2, "ambiguous": [[0, 0], [0, 1]]}
    assert messages[-1] == {"done": True, "complete": False, "timeout": True}
    monkeypatch.undo()
    assert list(ambiguity_map({"doc": checked(DOC)})) == [{"verdict": "unique", "before": 0, "ambiguous": []},
                                                {"done": True, "complete": True, "timeout": False}]


def test_engine_stops_a_running_check_and_keeps_its_worker():
    """Every edit of a paint stroke killed the check worker and forked a new one; a stopped check now ends at
    its next message and its worker takes the newer edit.

    Which message is next is the worker's race with the claim: on a loaded machine the reader may already hold
    the check's next message (or, rarely, all of them) when the newer edit claims the lane (clean-clone run 2 of
    issue 46: ``[ambiguous, CANCELLED]``). So each try asserts only what holds in every order (the check's own
    messages in order, then CANCELLED or its end), and the edit is tried again until one stop lands mid-check."""
    rng = np.random.default_rng(7)
    grid = (rng.random((30, 30)) < 0.5).astype(int).tolist()  # a grid with many solutions: the ambiguity takes a while
    own = ("ambiguous", "grade")  # the keys of the check's messages after its verdict, in order

    async def scenario():
        engine = Engine(size=1, spare=0, stop_grace=WAIT)  # stopped, never killed
        tries = []
        try:
            while len(tries) < 20 and not (tries and tries[-1][2][-1:] == [CANCELLED]):
                first = engine.run({"kind": "check", "doc": checked({**DOC, "grid": grid, "givens": []})}, lane="tab")
                verdict = await first.__anext__()  # it runs: its verdict came
                newest = [m async for m in engine.run({"kind": "check", "doc": checked(DOC)}, lane="tab")]
                tries.append((verdict, newest, [m async for m in first]))
            return tries, engine.started
        finally:
            engine.close()

    tries, started = asyncio.run(scenario())
    for verdict, newest, rest in tries:
        assert verdict["verdict"] == "multiple" and newest[0]["verdict"] == "unique" and newest[-1]["grade"] == 1
        body = rest[:-1] if rest[-1:] == [CANCELLED] else rest
        assert [next(k for k in own if k in m) for m in body] == list(own[:len(body)]), rest
    assert tries[-1][2][-1] == CANCELLED, f"no check was stopped in {len(tries)} tries"
    assert started == 1  # one worker did every check: none was killed


def test_engine_never_runs_an_older_claim_last():
    """Edits that overtook each other while their bodies were read ran the older one last: it stopped the
    newer edit's check, and the page waited for a verdict that never came."""

    async def scenario():
        engine = Engine(size=1, spare=0)
        try:
            older, newer = engine.claim("tab"), engine.claim("tab")
            newest = [m async for m in engine.run({"kind": "check", "doc": checked(DOC)}, lane="tab", claim=newer)]
            late = [m async for m in engine.run({"kind": "check", "doc": checked(DOC)}, lane="tab", claim=older)]
            return newest, late
        finally:
            engine.close()

    newest, late = asyncio.run(scenario())
    assert newest[0]["verdict"] == "unique" and late == [CANCELLED]


def test_engine_stops_a_job_past_its_time_limit():
    """A job that overruns its limit gets a one-line error, its worker is killed, and the next job runs."""
    rng = np.random.default_rng(2)
    hard = checked({"grid": rng.integers(0, 2, (60, 60)).tolist(), "palette": DOC["palette"], "givens": []})

    async def scenario():
        engine = Engine(size=1, spare=0)
        try:
            late = [m async for m in engine.run({"kind": "suggest", "doc": hard, "goal": "edit"}, seconds=0.5)]
            after = [m async for m in engine.run({"kind": "check", "doc": checked(DOC)}, seconds=60)]
            return late, after
        finally:
            engine.close()

    late, after = asyncio.run(scenario())
    assert late == [{"error": "no answer within 0.5 s; the engine's worker was stopped"}]
    assert after[0]["verdict"] == "unique"


# --- the browser ------------------------------------------------------------------------------------------------

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium missing")
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from test_play_browser import browser  # noqa: E402,F401  (the shared headless Chromium)


def _until(driver, condition, message: str = ""):
    return WebDriverWait(driver, WAIT).until(lambda d: condition(), message)


def _drop(driver, name: str, data: bytes) -> None:
    """Drop a file on the drop zone as a browser does: a drop event whose DataTransfer holds the File."""
    driver.execute_script("""
        const bytes = Uint8Array.from(atob(arguments[1]), (c) => c.charCodeAt(0));
        const transfer = new DataTransfer();
        transfer.items.add(new File([bytes], arguments[0]));
        document.getElementById('drop').dispatchEvent(new DragEvent('drop', {dataTransfer: transfer, bubbles: true}));
    """, name, base64.b64encode(data).decode())


def _cell(driver, r: int, c: int):
    return driver.find_element(By.CSS_SELECTOR, f'#board td.cell[data-r="{r}"][data-c="{c}"]')


def _verdict(driver) -> str:
    return driver.find_element(By.ID, "verdict").get_attribute("data-status")


def _ambiguous(driver) -> set:
    return {(int(e.get_attribute("data-r")), int(e.get_attribute("data-c")))
            for e in driver.find_elements(By.CSS_SELECTOR, "#board td.cell.amb")}


def _width(driver) -> int:
    return len(driver.find_elements(By.CSS_SELECTOR, "#board td.col-clue"))


def _shot(driver, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))


@pytest.fixture
def page(browser, studio):  # noqa: F811
    browser.set_window_size(1280, 900)
    browser.get(studio.page)
    _until(browser, lambda: len(browser.find_elements(By.CSS_SELECTOR, "#folder-files option")) > 1)
    return browser, studio.url, studio.folder


def test_studio_picture_edit_suggest_save(page):
    driver, url, folder = page
    _drop(driver, "block.png", _picture_png())
    _until(driver, lambda: _verdict(driver) == "unique" and _width(driver) == 10, "the picture became no 10x10 puzzle")
    # a new size: the picture is read again
    driver.find_element(By.ID, "opt-width").send_keys(Keys.CONTROL, "a", Keys.NULL, "20\n")
    _until(driver, lambda: _width(driver) == 20 and _verdict(driver) == "unique", "no 20-wide puzzle")
    assert len(driver.find_elements(By.CSS_SELECTOR, "#board td.row-clue")) == 20
    # one cell filled by hand: still unique; a second on the diagonal: two solutions, four ambiguous cells
    _cell(driver, 0, 0).click()
    _until(driver, lambda: _verdict(driver) == "unique" and driver.find_element(By.ID, "grade").text[:1].isdigit())
    assert driver.find_element(By.CSS_SELECTOR, '#board td.row-clue[data-row="0"]').text == "1"
    ActionChains(driver).click(_cell(driver, 1, 1)).perform()
    _until(driver, lambda: _verdict(driver) == "multiple" and len(_ambiguous(driver)) == 4, "no ambiguity shown")
    assert _ambiguous(driver) == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert driver.find_element(By.ID, "ambiguous-count").text == "4"
    _shot(driver, "studio-ambiguous")
    # a drag paints three cells of the last row at once: its clue follows, the diagonal pair stays ambiguous
    ActionChains(driver).click_and_hold(_cell(driver, 19, 0)).move_to_element(_cell(driver, 19, 1)) \
        .move_to_element(_cell(driver, 19, 2)).release().perform()
    _until(driver, lambda: driver.find_element(By.CSS_SELECTOR, '#board td.row-clue[data-row="19"]').text == "3")
    _until(driver, lambda: _verdict(driver) == "multiple" and _ambiguous(driver) == {(0, 0), (0, 1), (1, 0), (1, 1)})
    # ask for givens that make it unique, and apply them
    driver.find_element(By.CSS_SELECTOR, '#suggest button[data-goal="unique"]').click()
    _until(driver, lambda: driver.find_element(By.ID, "apply").is_displayed(), "no suggestion")
    assert "unique" in driver.find_element(By.ID, "suggestion").text
    assert driver.find_elements(By.CSS_SELECTOR, "#board td.cell.suggested")
    driver.find_element(By.ID, "apply").click()
    _until(driver, lambda: _verdict(driver) == "unique" and not _ambiguous(driver), "the suggestion did not help")
    assert driver.find_elements(By.CSS_SELECTOR, "#board td.cell.given")
    # the line-logic replay: at step 0 only givens stand
    replay = driver.find_element(By.ID, "replay")
    assert int(replay.get_attribute("max")) >= 1
    _shot(driver, "studio-unique")
    # save as nonogen JSON (keeps the givens), then once more: the page asks before overwriting
    Select(driver.find_element(By.ID, "save-format")).select_by_value("nonogen")
    name = driver.find_element(By.ID, "save-name")
    name.send_keys(Keys.CONTROL, "a", Keys.NULL, "mine.json")
    driver.find_element(By.ID, "save-button").click()
    _until(driver, lambda: driver.find_element(By.ID, "save-status").get_attribute("data-saved") == "mine.json")
    saved = (folder / "mine.json").read_bytes()
    result = subprocess.run([sys.executable, "-m", "nonogen", "verify", str(folder / "mine.json"), "--json"],
                            capture_output=True, text=True)
    assert result.returncode == 0 and json.loads(result.stdout)["status"] == "unique", result.stdout + result.stderr
    _cell(driver, 9, 0).click()
    driver.find_element(By.ID, "save-button").click()
    _until(driver, lambda: driver.find_element(By.ID, "save-confirm").is_displayed())
    assert (folder / "mine.json").read_bytes() == saved  # not touched before the author says so
    driver.find_element(By.ID, "overwrite").click()
    _until(driver, lambda: (folder / "mine.json").read_bytes() != saved)
    # the PDF sheet and the play page go into the folder too
    for kind, file in (("pdf", "mine.pdf"), ("html", "mine.html")):
        Select(driver.find_element(By.ID, "save-format")).select_by_value(kind)
        name.send_keys(Keys.CONTROL, "a", Keys.NULL, file)
        driver.find_element(By.ID, "save-button").click()
        _until(driver, lambda file=file: driver.find_element(By.ID, "save-status").get_attribute("data-saved") == file)
    assert (folder / "mine.pdf").read_bytes().startswith(b"%PDF") and "<html" in (folder / "mine.html").read_text()


def test_studio_opens_a_puzzle_and_edits_colours(page):
    driver, url, folder = page
    Select(driver.find_element(By.ID, "folder-files")).select_by_value("heart.non")
    driver.find_element(By.ID, "open").click()
    _until(driver, lambda: _verdict(driver) == "unique" and _width(driver) == 7)
    # a second colour: painted cells get coloured clues, the verdict follows
    driver.find_element(By.ID, "add-color").click()
    _until(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, "#palette .swatch")) == 3)
    _cell(driver, 1, 3).click()
    _until(driver, lambda: _verdict(driver) in ("unique", "multiple")
           and driver.find_element(By.ID, "grade").text not in ("...", "-"))
    numbers = driver.find_elements(By.CSS_SELECTOR, '#board td.row-clue[data-row="1"] .num')
    assert [n.text for n in numbers] == ["3", "1", "3"]
    assert numbers[1].value_of_css_property("background-color") != numbers[0].value_of_css_property("background-color")


def test_studio_bad_files_get_a_message(page):
    driver, url, folder = page
    _drop(driver, "notes.png", b"these are notes, not a picture")
    _until(driver, lambda: "not a picture" in driver.find_element(By.ID, "message").text)
    _drop(driver, "huge.png", bytes(21_000_000))
    _until(driver, lambda: "up to 20 MB" in driver.find_element(By.ID, "message").text)
    big = io.BytesIO()
    Image.new("1", (8000, 6000)).save(big, "PNG")  # 48 million pixels in a small file
    _drop(driver, "huge-pixels.png", big.getvalue())
    _until(driver, lambda: "pixels" in driver.find_element(By.ID, "message").text)
    _drop(driver, "broken.stl", b"solid x\nthis is no mesh\n")
    _until(driver, lambda: "broken.stl" in driver.find_element(By.ID, "message").text)
    _shot(driver, "studio-bad-input")
    _drop(driver, "block.png", _picture_png())  # the server kept running
    _until(driver, lambda: _verdict(driver) == "unique" and not driver.find_element(By.ID, "message").is_displayed())


def test_studio_makes_a_level_from_a_model(page):
    """A dropped model becomes a level in the 3D editor, its verdict proved, beside the picture of the model as made
    and why it was turned so; Test-play shows the play page; the level folder is saved as `nonogen mesh` writes it."""
    driver, url, folder = page
    size = driver.find_element(By.ID, "mesh-size")
    driver.execute_script("arguments[0].value = '6'", size)
    _drop(driver, "chair.off", (SAMPLES / "meshes" / "chair.off").read_bytes())
    verdict = driver.find_element(By.ID, "level-verdict")
    _until(driver, lambda: verdict.get_attribute("data-status") == "unique"
           and verdict.get_attribute("data-done") == verdict.get_attribute("data-seq"))
    assert "up z" in driver.find_element(By.ID, "mesh-why").text
    driver.switch_to.frame(driver.find_element(By.ID, "edit3d-frame"))
    _until(driver, lambda: driver.execute_script("return !!window.levelView"), "the 3D editor did not start")
    size = driver.execute_script("return levelView.state().size")
    driver.switch_to.default_content()
    assert max(size) == 6 and f"{size[0]}x{size[1]}x{size[2]}" in driver.find_element(By.ID, "mesh-notes").text
    _shot(driver, "studio-level")
    driver.find_element(By.ID, "level-test-play").click()
    frame = driver.find_element(By.ID, "level-frame")
    _until(driver, lambda: frame.is_displayed() and "level.html" in frame.get_attribute("src"))
    driver.switch_to.frame(frame)
    _until(driver, lambda: driver.execute_script("return !!window.nonogenPlay"), "the play page did not start")
    assert driver.execute_script("return nonogenPlay.state().size") == size
    driver.switch_to.default_content()
    driver.find_element(By.ID, "level-back").click()
    Select(driver.find_element(By.ID, "level-format")).select_by_value("folder")
    assert driver.find_element(By.ID, "level-name").get_attribute("value") == "chair-level"
    driver.find_element(By.ID, "level-save-button").click()
    _until(driver, lambda: driver.find_element(By.ID, "level-save-status").get_attribute("data-saved") == "chair-level")
    saved = folder / "chair-level"
    assert (saved / "level.json").is_file() and (saved / "level.html").is_file()
    driver.find_element(By.ID, "level-save-button").click()
    _until(driver, lambda: driver.find_element(By.ID, "level-save-confirm").is_displayed())
