"""The peer benchmark's own parts: how it reads each solver's verdict, how a row passes, its seeded puzzles,
and the peer build script's refusal of incomplete sources. With the peers built, one real row end to end."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from nonogen import formats

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"
PEERS = next((f for f in (ROOT / "peers" / "bin", ROOT.parent / "peers" / "bin") if (f / "pbnsolve").is_file()), None)


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(SCRIPTS))  # bench_peers imports the shared scripts/_bench.py by name
    try:
        import bench_peers
    finally:
        sys.path.remove(str(SCRIPTS))
    return bench_peers


def test_each_solver_s_verdict_is_read_from_what_it_prints(bench):
    assert bench.nonosolve_one("/tmp/a.non 5x5 UNIQUE time=0.0185 nodes=0 probes=0 sat=0\n") == "unique"
    assert bench.nonosolve_one("a.non 65x45 MULTIPLE time=0.13\nsolutions 1 and 2 differ in 4 cells\n") == "multiple"
    assert bench.nonosolve_one("a.non 5x5 NONE time=0.01\n") == "unsolvable"
    assert bench.pbnsolve_one("webpbn.com #1: Demo Puzzle from Front Page\nunique logical\n") == "unique"
    assert bench.pbnsolve_one("Atrus\ntrivial unique depth-2\n") == "unique"
    assert bench.pbnsolve_one("x\nmultiple\n") == "multiple"
    assert bench.pbnsolve_one("x\ncontradiction\n") == "unsolvable"
    assert bench.pbnsolve_one("timeout") == "timeout"
    record = {"file": "/t/taai.txt#3", "status": "unique", "member": 3, "members": 9}
    assert bench.nonogen_records(json.dumps(record) + "\n") == {"taai.txt#3": "unique"}
    assert bench.nonogen_one("error: exit 2: nonogen: no such file") == "error: exit 2: nonogen: no such file"


def test_a_row_passes_only_under_its_target_with_every_verdict_agreeing(bench):
    Row, Side = bench.Row, bench.Side
    ours = Side("nonogen", 6.0, {"a": "unique", "b": "multiple", "c": "timeout"})
    row = Row("r", 3, 0.7, "nonosolve", [ours, Side("nonosolve", 9.0, {"a": "unique", "b": "multiple"}),
                                          Side("nonosolve --cache-bits 16", 10.0, {"a": "unique", "b": "multiple"})])
    assert row.opponent().name == "nonosolve" and row.ratio() == pytest.approx(6 / 9)
    assert row.undecided() == 1 and row.result() == "MISS"  # nonogen left one puzzle undecided
    ours.verdicts["c"] = "unique"
    assert row.result() == "PASS"
    row.sides[1].verdicts["b"] = "unique"
    assert row.differing() == {"nonosolve": 1, "nonosolve --cache-bits 16": 0} and row.result() == "MISS"
    row.sides[1].verdicts["b"] = "timeout"  # undecided on the peer's side is not a differing verdict
    assert row.differing()["nonosolve"] == 0 and row.result() == "PASS"
    ours.cpu = 7.0
    assert row.result() == "MISS"
    assert Row("r", 1, 0.7, "pbnsolve", [ours], skipped="pbnsolve not found").result() == "skipped"


def test_the_random_grids_are_seeded_blind_and_readable(bench, tmp_path):
    first = bench.random_grids(3, 20, 3, 5, tmp_path / "a")
    again = bench.random_grids(3, 20, 3, 5, tmp_path / "b")
    assert [p.read_text() for p in first] == [p.read_text() for p in again]
    puzzle = formats.load(first[0])
    assert (puzzle.width, puzzle.height, len(puzzle.palette), puzzle.goal) == (20, 20, 4, None)
    black_white = formats.load(bench.random_grids(1, 30, 0, 5, tmp_path / "c")[0])
    assert (black_white.width, len(black_white.palette), black_white.goal) == (30, 2, None)


def _build(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPTS / "build_peers.py"), *args], capture_output=True, text=True,
                          timeout=60)


def test_the_build_says_in_one_line_which_sources_are_missing(tmp_path):
    (tmp_path / "nonosolve" / "src").mkdir(parents=True)
    (tmp_path / "nonosolve" / "Makefile").write_text("all:\n")
    done = _build("--nonosolve", str(tmp_path / "nonosolve"), "--kissat", str(tmp_path / "nowhere"),
                  "--into", str(tmp_path / "out"))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "--cadical (nonosolve needs it)" in done.stderr and "nowhere is not a folder" in done.stderr
    assert "lacks deps/kissat_rename_dups.h, src/main.cpp" in done.stderr
    assert not (tmp_path / "out").exists()
    nothing = _build()
    assert nothing.returncode == 2 and "nothing to build" in nothing.stderr


@pytest.mark.skipif(PEERS is None, reason="pbnsolve is not built (scripts/build_peers.py)")
def test_a_colour_row_end_to_end_beside_pbnsolve(tmp_path):
    out = tmp_path / "rows.json"
    done = subprocess.run([sys.executable, str(SCRIPTS / "bench_peers.py"), "--quick", "--only", "colour",
                           "--previous", "none", "--peers", str(PEERS), "--json", str(out)],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    rows = json.loads(out.read_text())
    assert [r["puzzles"] for r in rows] == [20, 10]
    for row in rows:
        names = [s["name"] for s in row["sides"]]
        assert names == ["nonogen", "pbnsolve"] and row["differing"] == {"pbnsolve": 0}
        assert len(row["sides"][0]["verdicts"]) == len(row["sides"][1]["verdicts"]) == row["puzzles"]
    assert "| 20 random 3-colour 20x20 grids" in done.stdout
