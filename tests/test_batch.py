"""Verifying collections: skipped files, bundle members, exit flags, outputs, stdin/stdout, resume, crashes,
interrupts, Dask."""
from __future__ import annotations

import csv
import fcntl
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from nonogen import formats, puzzle_from_grid
from nonogen.batch import Source, verify_paths
from nonogen.cli import main
from nonogen.cli.common import combined_exit_code
from nonogen.executors import LocalPool
from nonogen.linefile import LineFile

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples" / "puzzles"
OK = "width 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\n"
TWO = "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n"
BAD = "width 2\nheight x\n"
X_TAAI = "1\t1\n1\n1\t1\n1\t1\n1\n1\t1\n"  # a 3x3 X: three column clues, then three row clues


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def records(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def no_seconds(recs) -> dict:
    """Records by file, without the one field that differs between runs (time)."""
    return {r["file"]: {k: v for k, v in r.items() if k != "seconds"} for r in recs}


def random_puzzles(folder: Path, count: int, size: int = 20, seed: int = 1) -> Path:
    """Random pictures as .non files: each needs search, so a batch of them takes a few seconds."""
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        grid = (rng.random((size, size)) < 0.55).astype(np.uint8)
        (folder / f"r{i:03d}.non").write_text(formats.dumps(puzzle_from_grid(grid), "non"))
    return folder


def children_of(pid: int) -> list[int]:
    psutil = pytest.importorskip("psutil")
    try:
        return [c.pid for c in psutil.Process(pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its parent to read its exit counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def nonogen_cmd(*argv) -> list[str]:
    return [sys.executable, "-m", "nonogen", *map(str, argv)]


def wait_until(condition, what: str, limit: float = 120) -> None:
    """Wait for ``condition()`` to hold, polling; ``limit`` is a safety net a loaded machine never reaches."""
    end = time.monotonic() + limit
    while not condition():
        if time.monotonic() > end:
            pytest.fail(f"waited {limit:g} s for {what}")
        time.sleep(0.05)


def wait_for_lines(path: Path, count: int, proc: subprocess.Popen, limit: float = 120) -> None:
    end = time.monotonic() + limit
    while time.monotonic() < end and proc.poll() is None:
        if path.exists() and path.read_text().count("\n") >= count:
            return
        time.sleep(0.05)
    pytest.fail(f"{path} did not reach {count} lines (exit {proc.poll()})")


# --- what a batch reads --------------------------------------------------------------------------


def test_a_folder_scan_skips_files_it_does_not_recognise(tmp_path, capsys):
    """`nonogen verify outputs` counted report.json and the solution files as errors (43 of 71)."""
    (tmp_path / "ok.non").write_text(OK)
    (tmp_path / "report.json").write_text(json.dumps({"status": "unique", "seconds": 0.1}))
    (tmp_path / "notes.txt").write_text("just some words\n")
    assert run(capsys, "verify", tmp_path, "--solutions-dir", tmp_path / "sol")[0] == 0
    code, out, err = run(capsys, "verify", tmp_path, "--json")
    by_status = {}
    for r in records(out):
        by_status.setdefault(r["status"], []).append(Path(r["file"]).name)
    assert code == 0
    assert by_status["unique"] == ["ok.non"] and set(by_status) == {"unique", "skipped"}
    assert sorted(by_status["skipped"]) == ["notes.txt", "ok.non.solution.txt", "report.json"]
    assert "4 puzzles: 1 unique, 0 multiple, 0 unsolvable, 0 timeout, 0 error, 3 skipped" in err


def test_a_file_named_directly_must_be_a_puzzle(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("just some words\n")
    code, out, err = run(capsys, "verify", tmp_path / "notes.txt")
    assert code == 2 and "error" in out and "unrecognised" in out


def test_a_fifo_is_skipped_not_waited_for(tmp_path, capsys):
    fifo = tmp_path / "pipe.non"
    os.mkfifo(fifo)
    (tmp_path / "ok.non").write_text(OK)
    code, out, _ = run(capsys, "verify", fifo, tmp_path / "ok.non", "--json")
    recs = {Path(r["file"]).name: r for r in records(out)}
    assert code == 0 and recs["pipe.non"]["status"] == "skipped" and "FIFO" in recs["pipe.non"]["message"]
    assert recs["ok.non"]["status"] == "unique"


@pytest.mark.parametrize("fmt,text,bad_line", [
    ("non", OK + "====\n" + BAD + "====\n" + TWO, 11),
    ("taai", "$1\n" + X_TAAI + "$2\n" + X_TAAI.replace("1\n", "x\n", 1) + "$3\n" + X_TAAI, 9),
    ("webpbn", None, None),
    ("bracket", ("GRID a\nROWS\n[2]\n[1]\nCOLUMNS\n[2]\n[1]\nGRID b\nROWS\n[2]\n[x]\nCOLUMNS\n[2]\n[1]\n"
                 "GRID c\nROWS\n[1]\n[1]\nCOLUMNS\n[1]\n[1]\n"), 11),
])
def test_one_bad_member_costs_only_itself(tmp_path, capsys, fmt, text, bad_line):
    """A bundle with one bad member lost its good members too."""
    if fmt == "webpbn":
        good = formats.dumps(formats.loads(OK, "non"), "webpbn")
        body = good.split("<puzzleset>")[1].split("</puzzleset>")[0]
        text = "<?xml version='1.0'?>\n<puzzleset>" + body + body.replace("<count>2</count>", "<count>two</count>", 1) \
            + body + "</puzzleset>\n"
        bad_line = 1 + text[: text.index("<count>two")].count("\n")
    path = tmp_path / ("bundle.xml" if fmt == "webpbn" else "bundle.non" if fmt == "non" else "bundle.txt")
    path.write_text(text)
    code, out, _ = run(capsys, "verify", path, "--json")
    recs = sorted(records(out), key=lambda r: r["member"])  # completion order: the error needed no work
    assert [r["status"] for r in recs][1] == "error" and len(recs) == 3
    assert [r.get("member") for r in recs] == [1, 2, 3] and {r["members"] for r in recs} == {3}
    assert {recs[0]["status"], recs[2]["status"]} <= {"unique", "multiple"}
    assert f"{path}:{bad_line}:" in recs[1]["message"], recs[1]["message"]
    assert code == 2


def test_records_carry_format_metadata_and_a_clue_hash_shared_across_formats(tmp_path, capsys):
    source = formats.load(SAMPLES / "heart.non")
    for fmt, name in (("non", "a/heart.non"), ("webpbn", "b/heart.xml"), ("nonogen", "c/heart.json"),
                      ("nin", "d/h.nin")):
        (tmp_path / name).parent.mkdir()
        (tmp_path / name).write_text(formats.dumps(source, fmt))
    code, out, _ = run(capsys, "verify", tmp_path, "--json")
    recs = {Path(r["file"]).parent.name: r for r in records(out)}
    assert recs["a"]["format"] == "non" and recs["b"]["format"] == "webpbn" and recs["d"]["format"] == "nin"
    assert recs["a"]["title"] == "Heart" and recs["a"]["author"] == "nonogen project" and recs["a"]["license"]
    assert "title" not in recs["d"]  # .nin holds no metadata
    assert len({r["clue_hash"] for r in recs.values()}) == 1 == len({source.clue_hash()} | {recs["a"]["clue_hash"]})
    code, out, err = run(capsys, "verify", tmp_path, "--json", "--dedupe")
    recs = records(out)
    assert [r["status"] for r in recs].count("unique") == 1
    dupes = [r for r in recs if r["status"] == "skipped"]
    assert len(dupes) == 3 and all(r["duplicate_of"].endswith("a/heart.non") for r in dupes)
    assert code == 0 and "3 skipped" in err


def test_colours_are_numbered_by_appearance_in_the_hash():
    red_blue = "width 2\nheight 1\ncolor a #ff0000\ncolor b #0000ff\nrows\n1a,1b\ncolumns\n1a\n1b\n"
    renamed = red_blue.replace("#ff0000", "#00ff00").replace("a", "c").replace("colc", "cola")
    swapped = "width 2\nheight 1\ncolor a #ff0000\ncolor b #0000ff\nrows\n1b,1a\ncolumns\n1b\n1a\n"
    bw = "width 2\nheight 1\nrows\n1,1\ncolumns\n1\n1\n"
    hashes = [formats.loads(t, "non").clue_hash() for t in (red_blue, renamed, swapped, bw)]
    assert hashes[0] == hashes[1] == hashes[2] != hashes[3]


# --- exit codes, outputs ---------------------------------------------------------------------------


def test_errors_and_timeouts_both_show_in_the_exit_code(tmp_path, capsys):
    (tmp_path / "bad.non").write_text(BAD)
    random_puzzles(tmp_path, 2, size=30)
    code, out, err = run(capsys, "verify", tmp_path, "--json", "--timeout", "0.0005")
    statuses = {r["status"] for r in records(out)}
    assert {"error", "timeout"} <= statuses
    assert code == combined_exit_code(records(out)) == 4
    assert "exit status" in subprocess.run(nonogen_cmd("verify", "--help"), capture_output=True, text=True).stdout


def test_a_crash_inside_one_puzzle_is_an_internal_error_of_that_puzzle(tmp_path, monkeypatch):
    import nonogen.batch as batch

    real = batch.Session.verify

    def verify(self, **kw):
        if self.puzzle.width == 3:
            raise ZeroDivisionError("boom")
        return real(self, **kw)

    monkeypatch.setattr(batch.Session, "verify", verify)  # the batch's sessions come from solve.verify.timed_session
    (tmp_path / "a.non").write_text(OK)
    (tmp_path / "b.non").write_text("width 3\nheight 1\nrows\n3\ncolumns\n1\n1\n1\n")
    recs = {Path(r["file"]).name: r for r in verify_paths([tmp_path], executor="serial")}
    assert recs["a.non"]["status"] == "unique"
    assert recs["b.non"]["status"] == "error" and recs["b.non"]["error_kind"] == "internal"
    assert "ZeroDivisionError: boom" in recs["b.non"]["message"]
    assert combined_exit_code(recs.values()) == 5


CRASHER = """
import ctypes, sys
import nonogen.batch as batch
real = batch.Session.verify
def verify(self, **kw):
    if self.puzzle.meta.get("title") == "crash":
        ctypes.string_at(0)  # a segfault, as a bug in a C extension would cause
    return real(self, **kw)
batch.Session.verify = verify
from nonogen.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_segfaulting_worker_costs_one_puzzle(tmp_path):
    """One crashing file killed whole batches (8 of 72 fuzzed batches lost every verdict) and exited 1."""
    for i in range(6):
        (tmp_path / f"p{i}.non").write_text(('title "crash"\n' if i == 2 else "") + OK)
    done = subprocess.run([sys.executable, "-c", CRASHER, "verify", tmp_path, "--jobs", "2", "--json"],
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    recs = {Path(r["file"]).name: r for r in records(done.stdout)}
    assert len(recs) == 6
    assert recs["p2.non"]["status"] == "error" and "SIGSEGV" in recs["p2.non"]["message"]
    assert all(r["status"] == "unique" for name, r in recs.items() if name != "p2.non")
    assert done.returncode == 5


def test_a_reader_that_stops_early_ends_the_run_quietly(tmp_path):
    """`nonogen verify ... | head -1`: the reader going away is not an error (exit 0, no traceback). Another broken
    pipe, to a worker that just died, once passed for this and ended a batch after its first record with exit 0."""
    for i in range(40):
        (tmp_path / f"p{i:02}.non").write_text(OK)
    run = subprocess.Popen([sys.executable, "-m", "nonogen", "verify", str(tmp_path), "--json", "--jobs", "2"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO)
    assert json.loads(run.stdout.readline())["status"] == "unique"
    run.stdout.close()
    _, err = run.communicate(timeout=120)
    assert run.returncode == 0 and b"Traceback" not in err


def _sleep_for(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


@pytest.mark.alone  # forks its workers, or counts the threads
def test_the_pool_stops_a_task_that_ignores_its_deadline():
    pool = LocalPool(1, limit=0.5)
    fail = lambda task, message, status: (status, task)  # noqa: E731
    out = list(pool.run(_sleep_for, [0.01, 30, 0.02], fail))
    # a task that ran to its end would give 30; ("timeout", 30) is the pool stopping it at its limit
    assert sorted(map(str, out)) == sorted(map(str, [0.01, ("timeout", 30), 0.02]))


def test_csv_summary_json_and_the_summary_line(tmp_path, capsys):
    for name, text in (("a.non", OK), ("b.non", TWO), ("c.non", BAD)):
        (tmp_path / name).write_text(text)
    table = tmp_path / "out.csv"
    code, out, err = run(capsys, "verify", tmp_path, "--csv", table, "--summary-json", tmp_path / "sum.json")
    assert code == 2 and "a.non" in out  # the table on stdout
    assert err.strip().splitlines()[-1].startswith("3 puzzles: 1 unique, 1 multiple, 0 unsolvable, 0 timeout, 1 error")
    rows = sorted(csv.DictReader(table.open()), key=lambda r: r["file"])
    assert [Path(r["file"]).name for r in rows] == ["a.non", "b.non", "c.non"]
    assert rows[1]["ambiguous_cells"] == "4" and rows[2]["status"] == "error" and rows[0]["clue_hash"]
    summary = json.loads((tmp_path / "sum.json").read_text())
    assert summary["puzzles"] == 3 and summary["error"] == 1 and summary["multiple"] == 1
    for mode in (["--json"], ["--csv", "-"]):
        _, out, err = run(capsys, "verify", tmp_path / "a.non", *mode)
        assert err.strip().splitlines()[-1].startswith("1 puzzle: 1 unique") and out
    assert run(capsys, "verify", tmp_path, "--csv", table)[0] == 2  # exists: needs --force


def test_solution_files_of_puzzles_with_the_same_name_stay_apart(tmp_path, capsys):
    """--solutions-dir stopped the batch when two folders held x.non, and --force overwrote the first."""
    for folder, text in (("a", OK), ("b", "width 2\nheight 2\nrows\n1\n2\ncolumns\n1\n2\n")):
        (tmp_path / "in" / folder).mkdir(parents=True)
        (tmp_path / "in" / folder / "x.non").write_text(text)
    sol = tmp_path / "sol"
    assert run(capsys, "verify", tmp_path / "in", "--solutions-dir", sol)[0] == 0
    assert (sol / "a" / "x.non.solution.txt").read_text() == "##\n#.\n"
    assert (sol / "b" / "x.non.solution.txt").read_text() == ".#\n##\n"
    code, out, err = run(capsys, "verify", tmp_path / "in", "--solutions-dir", sol)
    assert code == 2 and out == "" and "earlier run" in err  # refused before any work
    assert run(capsys, "verify", tmp_path / "in", "--solutions-dir", sol, "--force")[0] == 0


# --- standard input and output ---------------------------------------------------------------------


def feed_stdin(monkeypatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))


def test_dash_reads_stdin_and_writes_stdout(tmp_path, capsys, monkeypatch):
    feed_stdin(monkeypatch, OK)
    code, out, _ = run(capsys, "verify", "-", "--json")
    assert code == 0 and records(out)[0]["file"] == "-" and records(out)[0]["format"] == "non"
    feed_stdin(monkeypatch, OK)
    assert run(capsys, "solve", "-")[1] == "##\n#.\n"
    feed_stdin(monkeypatch, ".#\n##\n")
    code, out, _ = run(capsys, "clues", "-")
    assert code == 0 and formats.loads(out, "non").rows == (((1, 1),), ((2, 1),))
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "convert", SAMPLES / "heart.non", "-")
    assert code == 0 and not Path("-").exists()
    assert formats.loads(out, "non").same_clues(formats.load(SAMPLES / "heart.non"))
    feed_stdin(monkeypatch, OK)
    code, out, _ = run(capsys, "convert", "-", "-", "--to", "nin")
    assert code == 0 and out.startswith("2 2")
    feed_stdin(monkeypatch, OK)
    assert run(capsys, "convert", "-", "out.xml")[0] == 0
    assert formats.load("out.xml").same_clues(formats.loads(OK, "non"))


def test_stdin_is_checked_as_a_file_is(capsys, monkeypatch):
    """Standard input had its own size limit and let control bytes through: one reader now checks both."""
    for text, expected in (("\x01\x02 junk\n", "<stdin>: is not text (binary data)"), ("  \n", "<stdin>: is empty"),
                           ("x" * (formats.MAX_FILE_BYTES + 1), "<stdin>: is larger than 16 MB")):
        feed_stdin(monkeypatch, text)
        code, out, err = run(capsys, "convert", "-", "-", "--to", "nin")
        assert code == 2 and not out and expected in err and len(err.strip().splitlines()) == 1, err


def test_clues_warns_about_colours_and_refuses_puzzle_files(tmp_path, capsys):
    """`nonogen clues` turned any text file into a colour puzzle without a word."""
    drawing = tmp_path / "d.txt"
    drawing.write_text("ab\nba\n")
    code, _, err = run(capsys, "clues", drawing)
    assert code == 0 and "warning" in err and "a b" in err
    drawing.write_text(".#\n##\n")
    assert run(capsys, "clues", drawing)[2] == ""
    code, out, err = run(capsys, "clues", SAMPLES / "heart.non")
    assert code == 2 and out == "" and "puzzle file (non)" in err


NUMBER_LOOM_HEART = "⬜⬛⬛⬜⬜\n⬛🟥🟥⬛⬜\n⬛🟥🟥⬛⬛\n⬜⬛⬛⬜⬛\n"  # number-loom's char-grid: emoji squares


def test_number_loom_char_grids_are_read_with_white_as_background(tmp_path, capsys):
    """`verify` called number-loom's char-grid puzzles unrecognised, and `clues` made their white square red."""
    heart = tmp_path / "heart.txt"
    heart.write_text(NUMBER_LOOM_HEART)
    code, out, _ = run(capsys, "verify", heart, "--json")
    rec = json.loads(out)
    assert code == 0 and rec["format"] == "char-grid" and rec["status"] == "unique", rec
    assert (rec["width"], rec["height"], rec["colors"]) == (5, 4, 2) and rec["solution"][0] == ".##.."
    puzzle = formats.load(heart)
    assert [(c.name, c.rgb) for c in puzzle.palette] == [("white", "#ffffff"), ("black", "#000000"), ("red", "#ff0000")]
    assert puzzle.rows[1] == ((1, 1), (2, 2), (1, 1)) and puzzle.cols[4] == ((2, 1),)
    code, out, err = run(capsys, "clues", heart)
    assert code == 0 and err == "" and formats.loads(out, "non").same_clues(puzzle)  # no colour for the white square
    letters = tmp_path / "letters.txt"  # number-loom also draws colours as letters on '.'
    letters.write_text("..r.\n.#r.\n#rr#\n")
    assert formats.load(letters).rows[2] == ((1, 2), (2, 1), (1, 2))  # r is colour 1: drawn first
    for note in ("hello\nworld\n", "a short note\nof two lines\n", "w.w\n...\n", "#..\n#\n"):
        heart.write_text(note)  # words, or nothing drawn, or rows of different lengths: not a grid
        code, out, _ = run(capsys, "verify", heart, "--json")
        assert code == 2 and "unrecognised puzzle format" in json.loads(out)["message"], note


# --- resume, interrupts -----------------------------------------------------------------------------


def test_line_file_appends_after_cutting_a_torn_line(tmp_path):
    path = tmp_path / "v.jsonl"
    path.write_text('{"a": 1}\n{"b": ')
    with LineFile(path, append=True) as out:
        out.write('{"c": 3}')
    assert path.read_text() == '{"a": 1}\n{"c": 3}\n'
    with LineFile(tmp_path / "new.csv") as out:
        out.write("x")
        assert not (tmp_path / "new.csv").exists()  # renamed into place only when closed
    assert (tmp_path / "new.csv").read_text() == "x\n"


def test_a_killed_run_resumed_gives_the_records_of_an_uninterrupted_one(tmp_path, capsys):
    """Failed once under load: it gave the killed run's workers 0.5 s to die; it now waits for them to be gone.

    The run cannot finish before it is killed, whatever the machine's speed: its --json records also go to a
    pipe of one page that this test stops reading after 12 of them (a faster engine once finished the 44
    puzzles between the 12th record and the kill)."""
    folder = random_puzzles(tmp_path / "in", 40)
    (folder / "bundle.non").write_text(OK + "====\n" + BAD + "====\n" + TWO)
    (folder / "skip.txt").write_text("words\n")
    whole = no_seconds(verify_paths([folder], executor="serial", timeout=60))
    resume = tmp_path / "v.jsonl"
    proc = subprocess.Popen(nonogen_cmd("verify", folder, "--resume", resume, "--jobs", "2", "--json"), cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
    fcntl.fcntl(proc.stdout.fileno(), fcntl.F_SETPIPE_SZ, 4096)
    first = b""
    while first.count(b"\n") < 12:  # the rest, over a page, waits in the batch for room in the pipe
        byte = os.read(proc.stdout.fileno(), 1)
        assert byte, f"the batch ended before its 12th record (exit {proc.wait()})"
        first += byte
    wait_for_lines(resume, 12, proc)  # records are flushed as they finish
    workers = children_of(proc.pid)
    assert proc.poll() is None
    proc.kill()  # as hard as a crash or a power cut: no clean-up runs
    proc.wait()
    proc.stdout.close()
    wait_until(lambda: not [pid for pid in workers if alive(pid)], "the workers to die with the batch process")
    assert 12 <= resume.read_text().count("\n") < len(whole)
    done = subprocess.run(nonogen_cmd("verify", folder, "--resume", resume, "--jobs", "2"), cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    lines = resume.read_text().splitlines()
    assert no_seconds(map(json.loads, lines)) == whole and len(lines) == len(whole)
    assert done.returncode == 2 and "from the resumed run" in done.stderr
    reads = []
    real_read = formats.read_text
    formats.read_text = lambda path: reads.append(path) or real_read(path)
    try:
        code, out, _ = run(capsys, "verify", folder, "--resume", resume, "--json")
    finally:
        formats.read_text = real_read
    assert out == "" and resume.read_text().splitlines() == lines and code == 2
    assert reads == []  # a file whose every puzzle is in the resume file is not even read


def test_resume_ignores_nothing_but_records(tmp_path, capsys):
    junk = tmp_path / "v.jsonl"
    junk.write_text("hello\n")
    (tmp_path / "a.non").write_text(OK)
    code, _, err = run(capsys, "verify", tmp_path / "a.non", "--resume", junk)
    assert code == 2 and "v.jsonl:1" in err and junk.read_text() == "hello\n"


@pytest.mark.parametrize("sig,code,resume", [(signal.SIGINT, 130, False), (signal.SIGTERM, 143, True)])
def test_an_interrupted_batch_stops_at_once_and_leaves_no_worker(tmp_path, sig, code, resume):
    """Ctrl-C took 20-28 s to act and could leave half a line behind; then the CSV it left blocked the rerun.

    The batch cannot end before the signal, whatever the machine's speed: its records go to a pipe of
    one page that this test stops reading after three lines, so the run stalls on its own output (as
    behind a slow ``| less``) until the signal has been sent. The batch's size used to decide that, and
    once verifying got fast enough the run sometimes finished first. The interrupted run leaves no CSV,
    summary or (without --resume) solution files, so the very same command runs again and completes.
    """
    folder = random_puzzles(tmp_path / "in", 100, size=12)  # 100 records are far more than one page
    table, totals, solutions = tmp_path / "out.csv", tmp_path / "summary.json", tmp_path / "solutions"
    argv = ["verify", folder, "--jobs", "2", "--json", "--csv", table, "--summary-json", totals,
            "--solutions-dir", solutions] + (["--resume", tmp_path / "v.jsonl"] if resume else [])
    proc = subprocess.Popen(nonogen_cmd(*argv), cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    fcntl.fcntl(proc.stdout.fileno(), fcntl.F_SETPIPE_SZ, 4096)
    first = b""
    while first.count(b"\n") < 3:  # unbuffered, byte by byte: communicate() below reads the rest from the pipe
        byte = os.read(proc.stdout.fileno(), 1)
        assert byte, f"the batch ended before its third record (exit {proc.wait()})"
        first += byte
    workers = children_of(proc.pid)
    assert workers and proc.poll() is None
    proc.send_signal(sig)
    rest, err = proc.communicate(timeout=60)  # a bound for a hung run, not a speed claim (bench_batch times it)
    err = err.decode()
    assert proc.returncode == code, err
    assert not [pid for pid in workers if alive(pid)]
    text = (first + rest).decode()
    assert len(text.splitlines()) < 100 and "interrupted" in err  # it stopped, it did not finish the batch
    assert text.endswith("\n") and all(json.loads(line)["status"] for line in text.splitlines())
    assert f"{len(text.splitlines())} puzzle{'s' if len(text.splitlines()) != 1 else ''}:" in err
    assert not table.exists() and not totals.exists() and "not written" in err and str(table) in err
    kept = sorted(solutions.rglob("*.solution.txt"))
    assert bool(kept) == resume  # a resumed run keeps them: its next run continues them
    done = subprocess.run(nonogen_cmd(*argv), cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and "100 puzzles" in done.stderr, done.stderr  # 1: some are not unique
    # (the same command again: nothing the first run left is in the way)
    rows = list(csv.DictReader(table.open()))
    assert len(rows) == 100 and all(r["clue_hash"] for r in rows) and json.loads(totals.read_text())["puzzles"] == 100
    assert len(list(solutions.rglob("*.solution.txt"))) == 100
    assert ("from the resumed run" in done.stderr) == resume


# --- Dask ---------------------------------------------------------------------------------------------


DASK_VS_LOCAL = """
import json, sys
from nonogen.batch import verify_paths
from nonogen.executors import DaskExecutor
folder = sys.argv[1]
local = list(verify_paths([folder], jobs=2, executor="local", timeout=30))
half = local[: len(local) // 2]
dask = list(verify_paths([folder], executor=DaskExecutor(workers=2), timeout=30, resume=half))
print(json.dumps({"local": local, "half": half, "dask": dask}))
"""


def test_a_dask_cluster_gives_the_records_of_the_local_pool(tmp_path):
    """Same folder, same records; the Dask run resumes where half the local records stop.

    In a child process: Dask leaves threads behind, and this test process
    should go on starting its worker pools by a plain fork.
    """
    pytest.importorskip("distributed")
    folder = tmp_path / "in"
    shutil.copytree(SAMPLES, folder)
    (folder / "bundle.non").write_text(OK + "====\n" + BAD + "====\n" + TWO)
    done = subprocess.run([sys.executable, "-c", DASK_VS_LOCAL, folder], capture_output=True, text=True,
                          timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr[-2000:]
    got = json.loads(done.stdout)
    local, half, dask = got["local"], got["half"], got["dask"]
    assert no_seconds(half + dask) == no_seconds(local) and len(half) + len(dask) == len(local) == 27 + 3
    assert {r["status"] for r in local} == {"unique", "unsolvable", "multiple", "error"}


def test_an_unreachable_scheduler_is_a_one_line_error(tmp_path):
    """A wrong --scheduler address ended in a traceback and 'internal error' (exit 5)."""
    pytest.importorskip("distributed")
    (tmp_path / "ok.non").write_text(OK)
    argv = [sys.executable, "-m", "nonogen", "verify", tmp_path / "ok.non", "--scheduler", "nowhere:port"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("nonogen: error: cannot reach the Dask scheduler at nowhere:port")


def test_verify_paths_takes_sources():
    recs = list(verify_paths([Source("mine", OK)]))
    assert recs[0]["file"] == "mine" and recs[0]["status"] == "unique"


@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupted_small_batch_in_this_process_stops_at_once(tmp_path, sig, code):
    """A few small files are verified in the nonogen process itself (no worker): an interrupt still ends the run
    at once with whole lines, the count of what finished, and no CSV left behind. As above, the records go to a
    pipe of one page that is not read after the third line, so the run cannot finish before the signal."""
    folder = random_puzzles(tmp_path / "in", 100, size=12)
    files = sorted(str(p) for p in folder.iterdir())
    table = tmp_path / "out.csv"
    proc = subprocess.Popen(nonogen_cmd("verify", *files, "--json", "--csv", table), cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    fcntl.fcntl(proc.stdout.fileno(), fcntl.F_SETPIPE_SZ, 4096)
    first = b""
    while first.count(b"\n") < 3:
        byte = os.read(proc.stdout.fileno(), 1)
        assert byte, f"the batch ended before its third record (exit {proc.wait()})"
        first += byte
    assert not children_of(proc.pid) and proc.poll() is None  # no worker: the puzzles are proved here
    proc.send_signal(sig)
    rest, err = proc.communicate(timeout=60)  # a bound for a hung run, not a speed claim
    err = err.decode()
    assert proc.returncode == code, err
    text = (first + rest).decode()
    assert len(text.splitlines()) < 100 and "interrupted" in err
    assert text.endswith("\n") and all(json.loads(line)["status"] for line in text.splitlines())
    assert not table.exists() and "not written" in err
