"""Making a collection in other processes: killed twice and resumed, and on a real local Dask cluster."""
from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nonogen import make_many
from test_batch import alive, children_of, nonogen_cmd, wait_until
from test_make_many import no_seconds, pictures

REPO = Path(__file__).resolve().parents[1]


def folder_contents(out: Path) -> dict[str, dict[str, bytes]]:
    """Every made folder's files (the report without its timings, which differ from run to run)."""
    got = {}
    for folder in sorted(p for p in out.iterdir() if p.is_dir()):
        files = {}
        for path in sorted(folder.iterdir()):
            data = path.read_bytes()
            if path.name == "report.json":
                report = json.loads(data)
                report.pop("seconds"), report.pop("timings", None)
                data = json.dumps(report, sort_keys=True).encode()
            files[path.name] = data
        got[folder.name] = files
    return got


def kill_after(argv: list, records: int) -> None:
    """Start a collection run, read ``records`` of its JSON lines, then SIGKILL it and wait for its workers to go.

    The run's stdout is a pipe of one page that nobody reads beyond those
    lines: the run blocks a few records later, so it is always killed in
    the middle, however fast or slow the machine is.
    """
    proc = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    fcntl.fcntl(proc.stdout.fileno(), fcntl.F_SETPIPE_SZ, 4096)
    for _ in range(records):
        line = proc.stdout.readline()
        assert line.endswith(b"\n"), f"the run ended before {records} records (exit {proc.wait()})"
    workers = children_of(proc.pid)
    proc.kill()  # as hard as a crash or a power cut: no clean-up runs
    proc.wait()
    proc.stdout.close()
    wait_until(lambda: not [pid for pid in workers if alive(pid)], "the workers to die with the run")


def test_a_run_killed_twice_and_resumed_ends_as_an_uninterrupted_one(tmp_path):
    folder = pictures(tmp_path / "in", 30)
    (folder / "broken.png").write_bytes(b"not a picture")
    whole = tmp_path / "whole"
    expected = list(make_many([folder], whole, executor="serial", dedupe=True))
    assert len(expected) == 31
    out = tmp_path / "out"
    argv = nonogen_cmd("image", folder, "-o", out, "--jobs", "2", "--json", "--dedupe")
    kill_after(argv, 4)
    first = (out / "collection.jsonl").read_text().count("\n")
    assert 4 <= first < 31
    kill_after([*argv, "--resume"], 4)
    second = (out / "collection.jsonl").read_text().count("\n")
    assert first + 4 <= second < 31  # the second run went on from the first and was stopped too
    done = subprocess.run([*argv, "--resume"], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 2, done.stderr  # 2: the broken picture failed
    assert f"{second} from the resumed run" in done.stderr and "31 sources: 30 made, 1 failed" in done.stderr
    lines = (out / "collection.jsonl").read_text().splitlines()
    assert no_seconds(map(json.loads, lines)) == no_seconds(expected) == no_seconds(
        map(json.loads, (whole / "collection.jsonl").read_text().splitlines()))
    assert folder_contents(out) == folder_contents(whole) and len(folder_contents(out)) == 30
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in whole.iterdir())
    again = subprocess.run([*argv, "--resume"], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert again.stdout == "" and "nothing to make" in again.stderr
    assert (out / "collection.jsonl").read_text().splitlines() == lines


DASK_VS_LOCAL = """
import json, sys
from nonogen import make_many
from nonogen.executors import DaskExecutor
folder, out = sys.argv[1], sys.argv[2]
local = list(make_many([folder], out + "/local", jobs=2, executor="local"))
dask = list(make_many([folder], out + "/dask", executor=DaskExecutor(workers=2)))
print(json.dumps({"local": local, "dask": dask}))
"""


def test_a_dask_cluster_makes_the_collection_of_the_local_pool(tmp_path):
    """In a child process, as verify's Dask test does: Dask leaves threads behind."""
    pytest.importorskip("distributed")
    folder = pictures(tmp_path / "in", 6)
    (folder / "broken.png").write_bytes(b"not a picture")
    done = subprocess.run([sys.executable, "-c", DASK_VS_LOCAL, folder, tmp_path], capture_output=True, text=True,
                          timeout=600, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    got = json.loads(done.stdout)
    by_source = {kind: sorted(no_seconds(got[kind]), key=lambda r: r["source"]) for kind in ("local", "dask")}
    assert by_source["local"] == by_source["dask"] and len(by_source["dask"]) == 7
    assert [r["status"] for r in by_source["dask"]].count("made") == 6
    assert folder_contents(tmp_path / "dask") == folder_contents(tmp_path / "local")


def test_the_cli_runs_on_a_dask_cluster(tmp_path):
    pytest.importorskip("distributed")
    folder = pictures(tmp_path / "in", 3)
    done = subprocess.run(nonogen_cmd("image", folder, "-o", tmp_path / "out", "--executor", "dask", "--jobs", "2",
                                      "--json"), cwd=REPO, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert [json.loads(line)["status"] for line in done.stdout.splitlines()] == ["made"] * 3
