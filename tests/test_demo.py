"""`make demo` writes the committed outputs/ byte for byte: running it leaves the tracked tree unchanged.

Every run rewrote some twenty tracked files with new timings (report.json, verify.jsonl) and a new date in
book.pdf. The demo runs here once into a scratch folder and every file it writes must be the committed one,
byte for byte (no file holds the folder's path): so a run changes nothing, and a change to what nonogen makes
fails here until `make demo` is run and its outputs committed. It is the whole demo, a quarter of a minute on
an idle machine: the Makefile's own recipes are what is tested, not a copy of them.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def _demo(out: Path) -> None:
    venv = Path(sys.prefix)
    if not (venv / "bin" / "nonogen").exists():
        pytest.skip(f"{venv} has no nonogen command: the demo runs it from the environment `make` set up")
    # -o: the environment running this test is the one the demo should use, whatever its stamp's age
    argv = ["make", "-s", "-j2", "-o", str(venv / ".installed"), "demo", f"VENV={venv}", f"OUT={out}"]
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_demo_writes_the_committed_outputs(tmp_path):
    out = tmp_path / "outputs"
    _demo(out)
    made = _files(out)
    committed = _files(REPO / "outputs")
    assert len(made) > 100 and "book.pdf" in made and "images/sword/report.json" in made
    missing = sorted(set(made) - set(committed))
    assert not missing, f"`make demo` writes files outputs/ does not hold: {missing[:10]}"
    changed = [name for name in made if made[name] != committed[name]]
    assert not changed, (f"`make demo` rewrites {len(changed)} committed files differently (run it and commit): "
                         f"{changed[:10]}")
    report = json.loads(made["images/fish-grade2/report.json"])
    assert report["status"] == "unique" and "seconds" not in report and "timings" not in report
    assert all('"seconds"' not in line for line in made["verify.jsonl"].decode().splitlines())
