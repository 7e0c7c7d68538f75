"""`make demo` twice writes the same bytes: a second run leaves the committed outputs/ unchanged.

Every run rewrote some twenty tracked files with new timings (report.json, verify.jsonl) and a new date in
book.pdf. The demo runs here twice into the same scratch folder (moved aside in between), so no path can
differ, and every file must come out byte for byte the same. It is the whole demo, about half a minute a
run on an idle machine: the Makefile's own recipes are what is tested, not a copy of them.
"""
from __future__ import annotations

import json
import shutil
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


def test_two_demo_runs_write_the_same_files(tmp_path):
    out = tmp_path / "outputs"
    _demo(out)
    first = _files(out)
    shutil.rmtree(out)
    _demo(out)
    second = _files(out)
    assert len(first) > 100 and "book.pdf" in first and "images/sword/report.json" in first
    assert sorted(first) == sorted(second)
    changed = [name for name in first if first[name] != second[name]]
    assert not changed, f"a second `make demo` rewrote {len(changed)} files differently: {changed[:10]}"
    report = json.loads(first["images/fish-grade2/report.json"])
    assert report["status"] == "unique" and "seconds" not in report and "timings" not in report
    assert all('"seconds"' not in line for line in first["verify.jsonl"].decode().splitlines())
