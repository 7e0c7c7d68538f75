"""What ``nonogen studio`` refuses and survives: other users and sites, hostile names and files, bad options, other
tabs.

Each test starts a real studio (tests/studio_server.py) and breaks it the way a hostile tester did; each
docstring says what broke. Connections, bodies and signals are tests/test_studio_limits.py.
"""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import urllib.error
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest

from studio_server import DOC, TOKEN, WAIT, Studio, photo_png

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
LEVEL = {"size": [1, 1, 2], "cells": "10", "palette": [{"rgb": "#ffffff"}, {"rgb": "#e8913a"}], "hidden": None}
CLUES = {"rows": [[1], []], "cols": [[1], []]}
"""A scanned puzzle's clues, as the clue mode sends them."""
"""A level of one cube in a box of two: the 3D editor's routes answer it (when the token is right)."""


@pytest.fixture
def studio(tmp_path) -> Iterator[Studio]:
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "heart.non").write_bytes((SAMPLES / "puzzles" / "heart.non").read_bytes())
    server = Studio(folder)
    try:
        yield server
    finally:
        code, errors = server.stop()
        assert "Traceback" not in errors, errors


def _get(url: str, headers: dict = {}) -> tuple[int, str, dict]:  # noqa: B006 - read only
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=WAIT) as answer:
            return answer.status, answer.read().decode(), dict(answer.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(), dict(exc.headers)


# --- the token ------------------------------------------------------------------------------------------


def test_every_api_request_needs_the_run_token(studio):
    """The only gate was a constant header (X-Nonogen-Studio: 1) that any local program could send."""
    for token in (None, "X" * len(TOKEN), TOKEN[:-1], TOKEN + "x", "1"):
        for path, body in (("/api/files", None), ("/api/save", {"doc": DOC, "name": "x.non", "format": "non"}),
                           ("/api/check", {"doc": DOC}), ("/api/level/check", {"doc": LEVEL}),
                           ("/api/level/save", {"doc": LEVEL, "name": "x.json", "format": "nonogen-3d"}),
                           ("/api/level/play", {"doc": LEVEL}), ("/api/remesh", {"options": {}}),
                           ("/api/scan/open", {"name": "heart.non"}), ("/api/scan/check", {"clues": CLUES}),
                           ("/api/save", {"clues": CLUES, "name": "x.non", "format": "non"})):
            status, answer = studio.api(path, body, token=token, headers={"X-Nonogen-Studio": "1"})
            assert status == 403 and "token" in answer["error"], (token, path)
    assert not (studio.folder / "x.non").exists() and not (studio.folder / "x.json").exists()
    assert studio.api("/api/files")[0] == 200
    # the page: with the token in its URL; else a short note (whose script takes a reload back in: the browser tests)
    status, text, headers = _get(studio.url)
    assert status == 403 and "Open the URL printed by <code>nonogen studio</code>" in text
    assert '<script src="/static/unlock.js"></script>' in text
    status, text, headers = _get(studio.page)
    assert status == 200 and f'<meta name="nonogen-token" content="{TOKEN}">' in text
    assert "frame-ancestors 'self'" in headers["content-security-policy"]
    assert _get(studio.url + "level.html")[0] == 403 and _get(studio.url + "play.html?tab=x")[0] == 403
    assert _get(studio.url + "static/studio.js")[0] == 200  # the page's own scripts hold no secret
    for path in ("/api/files", "api/../api/files", "nothing-here"):  # anything else: 403
        assert _get(studio.url + path)[0] == 403, path


def test_no_cookie_ever_carries_the_token(studio):
    """The page set a cookie holding the token; a browser sends a cookie of 127.0.0.1 to every port of it, so any
    other local web server the author's browser visited got the token, and the folder through the API with it."""
    status, text, headers = _get(studio.page)
    assert status == 200 and "set-cookie" not in {key.lower() for key in headers}
    stolen = f"nonogen-studio-{studio.port}={TOKEN}"
    for path in ("", "level.html", "play.html?tab=x"):  # a cookie lets nothing in, whatever it holds
        assert _get(studio.url + path, {"Cookie": stolen})[0] == 403, path
    assert studio.api("/api/files", token=None, headers={"Cookie": stolen})[0] == 403
    # a browser still holding the cookie of an older studio has it expired by the page
    status, text, headers = _get(studio.page, {"Cookie": f"{stolen}; other=1"})
    assert status == 200 and headers["set-cookie"].startswith(f'nonogen-studio-{studio.port}=""; ')
    assert "Max-Age=0" in headers["set-cookie"] and TOKEN not in headers["set-cookie"]


def test_the_command_prints_a_fresh_token_and_refuses_a_bad_one(tmp_path):
    first, second = Studio(tmp_path, token=None), Studio(tmp_path, token=None)
    try:
        assert len(first.token) >= 40 and first.token != second.token
        assert first.api("/api/files")[0] == 200 and first.api("/api/files", token=second.token)[0] == 403
    finally:
        first.stop(), second.stop()
    result = subprocess.run([*_nonogen(), "studio", str(tmp_path), "--port", "0", "--no-browser", "--token", "a b"],
                            capture_output=True, text=True, timeout=WAIT)
    assert result.returncode == 2 and result.stderr.strip().endswith(
        "token: expected 8 to 200 letters, digits or -._~"), result.stderr
    assert "--token" in subprocess.run([*_nonogen(), "studio", "--help"], capture_output=True, text=True).stdout


def test_the_browser_is_opened_through_a_file_only_its_user_can_read(tmp_path, monkeypatch):
    """A browser's command line is visible to every local user: the token must not be on it."""
    import webbrowser
    from urllib.parse import urlparse

    from nonogen.cli.studio import _open_browser

    opened: list = []
    monkeypatch.setattr(webbrowser, "open", opened.append)
    _open_browser("http://127.0.0.1:8737/?token=s3cret-token", tmp_path)
    page = Path(urlparse(opened[0]).path)
    assert "s3cret" not in opened[0] and stat.S_IMODE(page.stat().st_mode) == 0o600
    assert 'url=http://127.0.0.1:8737/?token=s3cret-token"' in page.read_text()


def _nonogen() -> list[str]:
    import sys

    return [sys.executable, "-m", "nonogen"]


CLIENT = r"""
import json, sys, urllib.request, urllib.error
url, pid, folder = sys.argv[1], sys.argv[2], sys.argv[3]
seen = {}
try:
    seen["cmdline"] = open(f"/proc/{pid}/cmdline", "rb").read().decode(errors="replace")
except OSError as exc:
    seen["cmdline"] = str(exc)
try:
    open(f"/proc/{pid}/environ", "rb").read()
    seen["environ"] = "read"
except OSError:
    seen["environ"] = "refused"
def call(path, body=None, headers={}):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, headers={"X-Nonogen-Studio": "1", **headers})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status
    except urllib.error.HTTPError as exc:
        return exc.code
seen["files"] = call("api/files")
seen["save"] = call("api/save", {"format": "non", "name": "notes.non", "overwrite": True, "doc": {
    "title": "written by nobody", "grid": [[1]], "palette": [{"rgb": "#ffffff"}, {"rgb": "#000000"}]}})
seen["page"] = call("")
seen["guess"] = call("api/files", headers={"X-Nonogen-Token": "0" * 43})
print(json.dumps(seen))
"""


@pytest.mark.skipif(os.geteuid() != 0 or not Path("/usr/bin/python3").exists(),
                    reason="running a client as another user (nobody) needs root and /usr/bin/python3")
def test_another_local_user_is_refused(tmp_path):
    """User nobody listed the folder and replaced a root-owned 0600 file through the API (and it came back 0644)."""
    import json

    folder = tmp_path / "work"
    folder.mkdir()
    os.chmod(tmp_path, 0o755)
    os.chmod(folder, 0o755)
    notes = folder / "notes.non"
    notes.write_text("my notes")
    notes.chmod(0o600)
    server = Studio(folder, token=None)
    try:
        def become_nobody() -> None:
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)

        result = subprocess.run(["/usr/bin/python3", "-c", CLIENT, server.url, str(server.process.pid), str(folder)],
                                capture_output=True, text=True, timeout=WAIT, preexec_fn=become_nobody, cwd="/")
        seen = json.loads(result.stdout)
        assert server.token not in seen["cmdline"] and seen["environ"] == "refused"
        assert (seen["files"], seen["save"], seen["page"], seen["guess"]) == (403, 403, 403, 403), seen
        assert notes.read_text() == "my notes" and stat.S_IMODE(notes.stat().st_mode) == 0o600
    finally:
        server.stop()


# --- files and names ------------------------------------------------------------------------------------


def test_saving_over_a_file_keeps_its_mode(studio):
    """Replacing a 0600 file through the studio left it 0644, readable by every local user."""
    secret = studio.folder / "mine.non"
    secret.write_text("old")
    secret.chmod(0o600)
    assert studio.api("/api/save", {"doc": DOC, "name": "mine.non", "format": "non", "overwrite": True})[0] == 200
    assert secret.read_text().startswith("title") or "width 2" in secret.read_text()
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600


def test_a_fifo_in_the_folder_is_refused_not_waited_on(studio):
    """/api/open of a FIFO named x.non blocked the server's event loop for good; SIGTERM did not stop it."""
    os.mkfifo(studio.folder / "pipe.non")
    status, answer = studio.api("/api/open", {"name": "pipe.non"})
    assert (status, answer) == (400, {"error": "pipe.non: not a regular file"})
    status, answer = studio.api("/api/files")
    assert status == 200 and [f["name"] for f in answer["files"]] == ["heart.non"]


def test_a_slow_file_never_stalls_other_requests(studio):
    """/api/open of a 16 MB .non read it on the server's event loop: every other request waited about 25 s."""
    import json
    import socket

    body = "width 5\nheight 5\n\nrows\n0\n2\n4\n3\n1,1\n\ncolumns\n0\n4\n3\n3\n1\n"
    (studio.folder / "slow.non").write_text(body.replace("rows", "\n" * (16 * 1024 * 1024 - 400) + "rows"))
    request = json.dumps({"name": "slow.non"}).encode()
    opening = socket.create_connection(("127.0.0.1", studio.port), timeout=WAIT)
    opening.sendall(b"POST /api/open HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Nonogen-Token: %s\r\nContent-Length: %d\r\n\r\n"
                    % (studio.token.encode(), len(request)) + request)
    status, answer = studio.api("/api/files")  # sent after the open, answered while the file is still being read
    assert status == 200 and {"name": "slow.non", "kind": "puzzle"} in answer["files"]
    opening.setblocking(False)
    with pytest.raises(BlockingIOError):  # the open has no answer yet
        opening.recv(1)
    opening.close()


def test_a_symlink_loop_does_not_hide_the_folder(studio):
    """Two symlinks pointing at each other made /api/files fail (ELOOP) for the whole folder."""
    os.symlink("b.non", studio.folder / "a.non")
    os.symlink("a.non", studio.folder / "b.non")
    os.symlink("nowhere.non", studio.folder / "dangling.non")
    status, answer = studio.api("/api/files")
    assert status == 200 and answer["files"] == [{"name": "heart.non", "kind": "puzzle"}]
    status, answer = studio.api("/api/open", {"name": "a.non"})
    assert status == 400 and "\n" not in answer["error"]


def test_names_and_titles_that_are_not_unicode(studio):
    """A lone surrogate in a name or title gave a 500 and a traceback."""
    status, answer = studio.api("/api/open", {"name": "\ud800.non"})
    assert status == 400 and answer["error"] == "\\ud800.non: not a file name (it holds a lone surrogate)"
    status, answer = studio.api("/api/save", {"doc": {**DOC, "title": "T\ud800"}, "name": "t.non", "format": "non"})
    assert status == 200 and 'title "T\ufffd"' in (studio.folder / "t.non").read_text()
    # a file name that is not UTF-8 is listed as the CLI prints it (\udcff) and opens by that name
    shutil.copy(studio.folder / "heart.non", os.path.join(os.fsencode(studio.folder), b"h\xffart.non"))
    status, answer = studio.api("/api/files")
    assert {"name": "h\udcffart.non", "kind": "puzzle"} in answer["files"]
    status, answer = studio.api("/api/open", {"name": "h\udcffart.non"})
    assert status == 200 and answer["title"] == "Heart"
    status, answer = studio.api("/api/save", {"doc": DOC, "name": "n\udcffw.non", "format": "non"})
    assert status == 200 and os.path.exists(os.path.join(os.fsencode(studio.folder), b"n\xffw.non"))


def test_every_bad_option_is_a_one_line_400_naming_it(studio):
    """size "abc" for a model said "internal error: ValueError"; a bad picture option was a 422."""
    png = photo_png(30, 300)
    cases = [
        ("/api/mesh?options=" + urllib.request.quote('{"size": "abc"}'), "size 'abc': expected a whole number"),
        ("/api/mesh?options=" + urllib.request.quote('{"size": 500}'), "size 500: expected 2 to 40 cubes"),
        ("/api/mesh?options=" + urllib.request.quote('{"hide": "most"}'), "hide 'most': expected a number"),
        ("/api/mesh?options=" + urllib.request.quote('{"hide": 3}'), "hide 3.0: expected a share between 0 and 1"),
        ("/api/mesh?options=" + urllib.request.quote('{"sise": 5}'),
         "sise : expected one of size, hide, line_solvable, up, turn"),
        ("/api/mesh?options=" + urllib.request.quote('[1]'), "options list: expected a JSON object"),
    ]
    for path, error in cases:
        status, answer = studio.api(path, (SAMPLES / "meshes" / "chair.off").read_bytes(),
                                    {"X-File-Name": "chair.off"}, raw=True)
        assert (status, answer) == (400, {"error": error}), path
    for options, error in (({"width": "wide"}, "width 'wide': expected a whole number"),
                           ({"width": 2.5}, "width 2.5: expected a whole number"),
                           ({"colors": 99}, "colors 99: expected 1 to 20 colours"),
                           ({"invert": "yes"}, "invert 'yes': expected true or false"),
                           ({"mode": "sepia"}, "mode sepia: expected auto or bw or silhouette"),
                           ({"width": 150}, "width 150: expected 1 to 100 cells")):
        status, answer = studio.api("/api/picture?options=" + urllib.request.quote(_json(options)), png,
                                    {"X-File-Name": "p.png"}, raw=True)
        assert (status, answer) == (400, {"error": error}), options


BAD_GRIDS = [
    ([[[0, 1]], [[1, 0]]], "grid: expected rows of whole numbers (colour indices)"),  # one level too deep
    ([[[]]], "grid: expected rows of whole numbers (colour indices)"),
    ([[True, 0]], "grid: expected rows of whole numbers (colour indices)"),  # read as 1
    ([[1.5, 0]], "grid: expected rows of whole numbers (colour indices)"),  # read as 1
    ([["1", 0]], "grid: expected rows of whole numbers (colour indices)"),
    ([[None, 0]], "grid: expected rows of whole numbers (colour indices)"),
    ([[2 ** 70, 0]], "grid: colour indices must be 0 to 1 (the palette's size)"),
    ([[1, 0], [0]], "grid: expected equal rows, 1 to 100 cells a side"),
]


@pytest.mark.parametrize("grid, error", BAD_GRIDS, ids=range(len(BAD_GRIDS)))
def test_a_document_is_checked_where_it_is_read(grid, error):
    """[[[0, 1]], [[1, 0]]] passed puzzle_of's checks (rows, numbers) and failed in the clues with a ValueError;
    true and 1.5 were read as 1. The server checks each document once, here, before a worker builds its puzzle."""
    from nonogen.errors import InputError
    from nonogen.studio.inputs import checked

    with pytest.raises(InputError) as caught:
        checked({**DOC, "grid": grid, "givens": []})
    assert str(caught.value) == error


def test_a_grid_nested_too_deep_is_a_400_on_every_route(studio):
    """A grid nested one level too deep was a 500 "Internal Server Error" with a traceback in the server's log on
    /api/check, /api/suggest, /api/map, /api/play and /api/save (the fixture checks the log)."""
    doc = {**DOC, "grid": [[[0, 1]], [[1, 0]]], "givens": []}
    for path in ("/api/check", "/api/suggest", "/api/map", "/api/play", "/api/save"):
        status, answer = studio.api(path, {"doc": doc, "name": "x.non", "format": "non", "goal": "unique"})
        assert (status, answer) == (400, {"error": "grid: expected rows of whole numbers (colour indices)"}), path
    assert not (studio.folder / "x.non").exists()


def test_an_upload_that_fails_leaves_nothing(tmp_path):
    """Every model upload that was no model (422) stayed in the studio's temporary folder until it stopped (9 MB
    each, without bound); a picture that was no picture stayed too, and took the tab's good picture's place."""
    folder, temp = tmp_path / "work", tmp_path / "tmp"
    folder.mkdir()
    temp.mkdir()
    server = Studio(folder, env={"TMPDIR": str(temp)})

    def kept() -> list[str]:
        """The uploads on the server: its temporary folder holds each in a folder of its own."""
        return sorted(path.name for path in temp.glob("nonogen-studio-*/*/*"))

    def upload(path: str, data: bytes, name: str, tab: str = "t") -> tuple[int, dict]:
        return server.api(path, data, {"X-File-Name": name}, raw=True, tab=tab)

    try:
        junk = b"solid x\n" + os.urandom(100_000)
        for _ in range(3):
            status, answer = upload("/api/mesh", junk, "bad.stl")
            assert status == 422 and answer["error"].startswith("bad.stl: "), answer
        assert kept() == []
        assert upload("/api/mesh?options=%7B%22size%22%3A4%7D", (SAMPLES / "meshes" / "chair.off").read_bytes(),
                      "chair.off")[0] == 200
        assert upload("/api/mesh", junk, "bad.stl")[0] == 422 and kept() == ["chair.off"]
        assert server.api("/api/remesh", {"options": {"size": 4}}, tab="t")[0] == 200  # the level's model stays
        status, first = upload("/api/picture", photo_png(20, 20), "p.png")
        assert status == 200 and kept() == ["picture"]  # a tab keeps its newest upload only
        status, answer = upload("/api/picture", b"no picture at all", "q.png")
        assert status == 422 and answer["error"].startswith("q.png: not a picture")
        assert kept() == ["picture"]  # the good one, not the one that failed
        again = {"picture_id": first["picture_id"], "options": {"width": 10}}
        assert server.api("/api/import", again, tab="t")[0] == 200
        assert upload("/api/mesh?options=%7B%22size%22%3A4%7D", (SAMPLES / "meshes" / "snowman.obj").read_bytes(),
                      "snowman.obj")[0] == 200
        assert kept() == ["snowman.obj"]
        assert server.api("/api/import", again, tab="t") == (400, {"error": "the picture is no longer on the server; "
                                                                            "drop it again"})
    finally:
        code, errors = server.stop()
        assert "Traceback" not in errors, errors


def test_a_picture_always_imports_at_a_size_the_studio_can_check(studio):
    """A picture imported at width 150 (101 to 256 were accepted) could never be checked: the studio edits 100."""
    status, doc = studio.api("/api/picture?options=" + urllib.request.quote('{"width": 100}'), photo_png(60, 600),
                             {"X-File-Name": "tall.png"}, raw=True)
    assert status == 200
    height, width = len(doc["grid"]), len(doc["grid"][0])
    assert height == 100 and width == 10  # the derived side shrank both, keeping the aspect
    status, answer = studio.api("/api/check", {"doc": doc})
    assert status == 200 and "grade" in answer


# --- tabs -----------------------------------------------------------------------------------------------


def test_two_tabs_never_see_each_others_state(studio):
    """Tab A's "Save level" wrote tab B's model (the server kept one last level); a picture id worked anywhere. A level
    is the page's document now: each tab saves its own, remakes its own model and test-plays its own level."""
    levels = {}
    for tab, model in (("tab-a", "chair.off"), ("tab-b", "snowman.obj")):
        status, answer = studio.api("/api/mesh?options=" + urllib.request.quote('{"size": 5}'),
                                    (SAMPLES / "meshes" / model).read_bytes(), {"X-File-Name": model}, raw=True,
                                    tab=tab)
        assert status == 200 and answer["report"]["model"] == model and answer["level"]["source"] == model
        levels[tab] = answer["level"]
    for tab, model in (("tab-a", "chair.off"), ("tab-b", "snowman.obj")):
        status, answer = studio.api("/api/level/save", {"doc": levels[tab], "format": "folder", "name": f"{tab}-level"},
                                    tab=tab)
        assert status == 200
        report = (studio.folder / f"{tab}-level" / "report.json").read_text()
        assert f'"model": "{model}"' in report, report
        status, answer = studio.api("/api/remesh", {"options": {"size": 4}}, tab=tab)
        assert status == 200 and answer["report"]["model"] == model
        assert studio.api("/api/level/play", {"doc": levels[tab]}, tab=tab) == (200, {"ready": True})
    pages = [_get(f"{studio.url}level.html?tab={tab}&token={studio.token}")[1] for tab in ("tab-a", "tab-b", "tab-c")]
    assert "nonogenPlay" in pages[0] and "nonogenPlay" in pages[1] and pages[0] != pages[1]
    assert "No level to play yet" in pages[2]
    assert studio.api("/api/remesh", {"options": {"size": 4}}, tab="tab-c") == (400, {"error": "no model loaded yet"})
    status, first = studio.api("/api/picture", photo_png(20, 20), {"X-File-Name": "p.png"}, raw=True, tab="tab-a")
    assert status == 200
    again = {"picture_id": first["picture_id"], "options": {"width": 10}}
    assert studio.api("/api/import", again, tab="tab-a")[0] == 200
    assert studio.api("/api/import", again, tab="tab-b")[0] == 400
    refused = {"error": "X-Nonogen-Tab: expected 1 to 64 letters, digits, '-' or '_'"}
    assert studio.api("/api/check", {"doc": DOC}, tab="../../etc") == (400, refused)


def _json(value) -> str:
    import json

    return json.dumps(value)
