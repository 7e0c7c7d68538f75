"""SVG drawings as pictures (nonogen/importers/svg_file.py): rendered at the grid's resolution, refused safely."""
from __future__ import annotations

import base64
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from nonogen.errors import InputError, LimitError
from nonogen.importers import svg_file
from nonogen.importers.picture_file import load_image
from nonogen.make.picture import from_image
from test_image import _png_header_only

REPO = Path(__file__).resolve().parents[1]
SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}">{body}</svg>'
RING = SVG.format(w=100, h=100, body='<circle cx="50" cy="50" r="40" fill="none" stroke="#000" stroke-width="3"/>')


def test_an_svg_becomes_a_puzzle_drawn_at_the_grids_resolution(tmp_path):
    """A ring whose line is 3 units of 100 wide: 1.2 cells at 40 cells. At 72 pixels it would be 2 pixels wide;
    rendered at the working resolution it comes out as one closed ring, unique."""
    drawing = tmp_path / "ring.svg"
    drawing.write_text(RING)
    made = from_image(str(drawing), timeout=None)
    grid = np.asarray(made.puzzle.goal)
    assert made.report["status"] == "unique" and grid.shape == (40, 40)
    assert grid[20, 20] == 0 and grid[20, 3:8].any() and grid[20, 32:37].any() and grid[3:8, 20].any()
    assert not grid[0].any() and not grid[:, 0].any()  # nothing drawn outside the ring


def test_the_long_side_follows_the_drawings_own_shape(tmp_path):
    wide = load_image(SVG.format(w=200, h=100, body='<rect width="200" height="100"/>').encode(), reduce_for=(640, 640))
    tall = load_image(b'<svg xmlns="http://www.w3.org/2000/svg" width="10mm" height="40mm"><rect width="9" height="9"/>'
                      b'</svg>', reduce_for=(640, 640))
    assert wide.size == (640, 320) and wide.mode == "RGBA"
    assert tall.height == 640 and abs(tall.width - 160) <= 3  # millimetres in CSS pixels, each side rounded


@pytest.mark.parametrize("body, message, error", [
    ('<image href="/etc/hostname" width="9" height="9"/>', "refers to another file (/etc/hostname)", InputError),
    ('<use xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="b.svg#a"/>', "refers to another file", InputError),
    ('<image href="data:image/svg+xml;base64,PHN2Zy8+"/>', "embeds another SVG", InputError),
    ('<image href="data:image/png;base64,bm90IGEgcGljdHVyZQ=="/>', "embeds a picture that cannot be read", InputError),
    ("<rect", "line 1: not well-formed XML", InputError),
])
def test_what_must_not_reach_the_renderer_is_refused_in_one_line(body, message, error):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_image(SVG.format(w=10, h=10, body=body).encode())


def test_a_file_over_the_limit_is_refused_without_being_read_whole(tmp_path):
    huge = tmp_path / "huge.svg"
    huge.write_text(SVG.format(w=9, h=9, body=" " * (svg_file.MAX_BYTES + 10)))
    with pytest.raises(LimitError, match="huge.svg: SVG of more than nonogen's limit"):
        load_image(huge)


def test_entities_and_an_embedded_bomb_are_refused(tmp_path):
    laughs = ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
              '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><text>&b;</text></svg>')
    with pytest.raises(InputError, match="declares XML entities"):
        load_image(laughs.encode())
    header = tmp_path / "huge.png"
    _png_header_only(header, 30000, 30000)
    embedded = base64.b64encode(header.read_bytes()).decode()
    with pytest.raises(LimitError, match="embeds a picture of more than"):
        load_image(SVG.format(w=9, h=9, body=f'<image href="data:image/png;base64,{embedded}"/>').encode())


def test_a_drawing_that_crashes_or_keeps_the_renderer_busy_costs_its_worker_only(monkeypatch):
    """Nesting 50,000 groups deep overflows resvg's stack (a segfault, in the worker); a blur over many shapes
    kept it busy for half a minute and more: the worker is stopped at the time limit."""
    deep = SVG.format(w=9, h=9, body="<g>" * 50_000 + "</g>" * 50_000)
    with pytest.raises(InputError, match="the SVG renderer"):  # resvg 0.45 crashes; a later one may refuse it
        load_image(deep.encode())
    monkeypatch.setattr(svg_file, "RENDER_SECONDS", 0.5)
    blur = SVG.format(w=100, h=100, body='<filter id="f"><feGaussianBlur stdDeviation="1000000"/></filter>'
                      + '<rect width="100" height="100" filter="url(#f)"/>' * 2000)
    with pytest.raises(LimitError, match="not rendered within 0.5 s"):
        load_image(blur.encode(), reduce_for=(2000, 2000))


def test_the_command_takes_an_svg_and_a_folder_of_them(tmp_path):
    folder = tmp_path / "icons"
    folder.mkdir()
    (folder / "ring.svg").write_text(RING)
    (folder / "bad.svg").write_text(SVG.format(w=9, h=9, body='<image href="secret.png"/>'))
    done = subprocess.run([sys.executable, "-m", "nonogen", "image", str(folder), "-o", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, cwd=REPO)
    assert (tmp_path / "out" / "ring" / "puzzle.non").is_file(), done.stderr
    assert "bad.svg: SVG refers to another file (secret.png)" in done.stdout and "Traceback" not in done.stderr
    assert done.returncode == 2


def test_the_studio_imports_a_dropped_svg_and_refuses_a_hostile_one(tmp_path):
    """A drop goes through the studio's worker, which renders in a worker of its own: the drawing's grid comes back,
    and a drawing that reads a file of the server is a one-line 422 that leaves no traceback in the log. An SVG in
    the folder is listed as a picture and opens as one (``nonogen studio FOLDER --open logo.svg``)."""
    from studio_server import Studio

    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "logo.svg").write_text(RING)
    server = Studio(folder)
    try:
        assert {"name": "logo.svg", "kind": "picture"} in server.api("/api/files")[1]["files"]
        status, answer = server.api("/api/open", {"name": "logo.svg"}, tab="t")
        assert status == 200 and len(answer["grid"]) == 40, answer
        status, answer = server.api("/api/picture", RING.encode(), {"X-File-Name": "ring.svg"}, raw=True, tab="t")
        assert status == 200 and len(answer["grid"]) == 40, answer
        reads = SVG.format(w=9, h=9, body=f'<image href="{folder}/secret.png"/>').encode()
        status, answer = server.api("/api/picture", reads, {"X-File-Name": "x.svg"}, raw=True, tab="t")
        assert status == 422 and answer["error"].startswith("x.svg: SVG refers to another file"), answer
    finally:
        code, errors = server.stop()
        assert "Traceback" not in errors, errors


def test_a_gzipped_svg_is_read_and_a_gzip_bomb_is_refused(tmp_path):
    import gzip

    packed = tmp_path / "ring.svgz"
    packed.write_bytes(gzip.compress(RING.encode()))
    assert load_image(packed, reduce_for=(320, 320)).size == (320, 320)
    bomb = tmp_path / "bomb.svgz"
    bomb.write_bytes(gzip.compress(b"<svg>" + b" " * (svg_file.MAX_BYTES + 10)))  # a few kilobytes on disk
    with pytest.raises(LimitError, match="unpacks to more than"):
        load_image(bomb)


DAEMON = '''
import multiprocessing
import threading

def job(queue, drawing):
    threading.Thread(target=threading.Event().wait, daemon=True).start()  # a thread: workers from a forkserver
    from nonogen.importers.picture_file import load_image
    queue.put(load_image(drawing, reduce_for=(64, 64)).size)

if __name__ == "__main__":
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    child = ctx.Process(target=job, args=(queue, DRAWING), daemon=True)
    child.start()
    print(queue.get(timeout=60))
    child.join()
'''


def test_a_daemonic_process_with_threads_renders_in_itself(tmp_path):
    """The studio's worker, a daemonic process, sometimes had a thread when a drop came, so the SVG's own worker was
    asked of a forkserver, and multiprocessing refused: "daemonic processes are not allowed to have children" (seen
    once in CI under load). A process that is already a worker, or daemonic, renders the drawing itself."""
    script = tmp_path / "daemon.py"
    script.write_text(f"DRAWING = {RING.encode()!r}\n" + DAEMON)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.stdout.strip() == "(64, 64)", done.stderr
