"""A collection against a hostile machine and hostile names (the tester's C1, C2, C3 and the collection side of O1).

A full disk is a real one: a tiny tmpfs mounted in a mount namespace of its own (``unshare``; a user namespace
when not root), which vanishes with the namespace. A file size limit (``RLIMIT_FSIZE``, EFBIG) is the same kind of
failure without any privilege. FIFOs, link loops and odd names are made in ``tmp_path``.
"""
from __future__ import annotations

import errno
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from nonogen import make_many
from nonogen.errors import InputError
from nonogen.make.many import MakeTask
from test_make_many import no_seconds, pictures, tiny_png
from test_make_many_runs import folder_contents

REPO = Path(__file__).resolve().parents[1]
LIMIT = 600  # seconds: a safety net, never reached when things work


def nonogen(*argv, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nonogen", *map(str, argv)], cwd=REPO, capture_output=True,
                          text=True, timeout=LIMIT, **kw)


def lines_of(path: Path) -> list[dict]:
    """Every line of a records file as JSON; fails on a torn or broken line."""
    text = path.read_text(encoding="utf-8")
    assert text == "" or text.endswith("\n"), f"a torn last line: {text[-80:]!r}"
    return [json.loads(line) for line in text.splitlines()]


def whole_run(src: Path, out: Path) -> list[dict]:
    return list(make_many([src], out, executor="serial"))


def assert_same_collection(out: Path, whole: Path) -> None:
    assert no_seconds(lines_of(out / "collection.jsonl")) == no_seconds(lines_of(whole / "collection.jsonl"))
    assert folder_contents(out) == folder_contents(whole)
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in whole.iterdir())


# --- C1: the machine fails: the run stops, records nothing it did not finish, and --resume finishes it ----------

FULL_DISK = """
set -u
mount -t tmpfs -o size=400k tmpfs "$DISK" || exit 77
"$PY" -m nonogen image "$SRC" -o "$DISK/out" --jobs 2 --json >"$T/first.out" 2>"$T/first.err"; echo $? >"$T/first.rc"
cp -a "$DISK/out" "$T/first"
mount -o remount,size=64m "$DISK"
"$PY" -m nonogen image "$SRC" -o "$DISK/out" --jobs 2 --resume --json >"$T/second.out" 2>"$T/second.err"
echo $? >"$T/second.rc"
cp -a "$DISK/out" "$T/final"
"""


def test_a_full_disk_stops_the_run_and_resume_finishes_it(tmp_path):
    """A full disk made "internal" failures and a torn line, and --resume never made those sources (exit 5)."""
    if not shutil.which("unshare"):
        pytest.skip("needs unshare (util-linux) for a tmpfs of its own")
    src = pictures(tmp_path / "src", 12)
    whole_run(src, tmp_path / "whole")
    (tmp_path / "disk").mkdir()
    namespace = ["unshare", "--mount"] if os.geteuid() == 0 else ["unshare", "--user", "--map-root-user", "--mount"]
    env = {**os.environ, "DISK": str(tmp_path / "disk"), "SRC": str(src), "T": str(tmp_path), "PY": sys.executable}
    done = subprocess.run([*namespace, "sh", "-c", FULL_DISK], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=LIMIT)
    if done.returncode == 77 or not (tmp_path / "first.rc").exists():
        pytest.skip(f"cannot mount a tmpfs in a namespace here: {done.stderr.strip()[-200:]}")
    first_err = (tmp_path / "first.err").read_text()
    assert (tmp_path / "first.rc").read_text().strip() == "2", first_err
    assert first_err.splitlines()[-1].startswith("nonogen: error: ") and "No space left on device" in first_err
    assert "Traceback" not in first_err and "internal" not in first_err
    first = lines_of(tmp_path / "first" / "collection.jsonl")
    assert 0 < len(first) < 12 and {r["status"] for r in first} == {"made"}, first  # no failure it did not have
    assert all((tmp_path / "first" / r["name"] / "report.json").is_file() for r in first)
    second_err = (tmp_path / "second.err").read_text()
    assert (tmp_path / "second.rc").read_text().strip() == "0", second_err
    assert "12 sources: 12 made, 0 failed, 0 duplicates" in second_err, second_err
    assert f"{len(first)} from the resumed run" in second_err
    assert_same_collection(tmp_path / "final", tmp_path / "whole")


def _file_size_limit(size: int):
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, resource.RLIM_INFINITY))  # past it: EFBIG, like a full disk
    return limit


def test_a_file_size_limit_stops_the_run_and_resume_finishes_it(tmp_path):
    """EFBIG, the full disk of a process: every source after it would fail too, so none is recorded failed."""
    src = pictures(tmp_path / "src", 6)
    tiny_png(src / "p03.png", 99, side=24)  # a bigger picture: its sheets are the largest files of the collection
    whole_run(src, tmp_path / "whole")
    def largest_file(name: str) -> int:
        return max(f.stat().st_size for f in (tmp_path / "whole" / name).iterdir())

    big, others = largest_file("p03"), max(largest_file(f"p0{k}") for k in (0, 1, 2))
    assert big > others  # the limit falls between, whatever size the pages grow to
    out = tmp_path / "out"
    limit = (big + others) // 2
    first = nonogen("image", src, "-o", out, "--jobs", "1", preexec_fn=_file_size_limit(limit))
    assert first.returncode == 2, first.stderr
    assert first.stderr.splitlines()[-1].startswith(f"nonogen: error: {out / 'p03'}/")
    assert "File too large" in first.stderr and "stopped by the error below" in first.stderr
    recs = lines_of(out / "collection.jsonl")
    assert [Path(r["source"]).name for r in recs] == ["p00.png", "p01.png", "p02.png"]
    assert {r["status"] for r in recs} == {"made"} and not (out / "p03").exists()
    again = nonogen("image", src, "-o", out, "--jobs", "1", "--resume")
    assert again.returncode == 0 and "6 sources: 6 made, 0 failed" in again.stderr, again.stderr
    assert_same_collection(out, tmp_path / "whole")


def test_resume_makes_again_what_was_not_the_sources_fault(tmp_path, capsys):
    """An earlier version recorded a full disk or a read-only folder as "internal": --resume kept those failures
    for good (33 of 40 made, exit 5). Half a line appended (a killed run) is left out by every reader."""
    from nonogen.cli import main

    src = pictures(tmp_path / "src", 4)
    whole_run(src, tmp_path / "whole")
    out = tmp_path / "out"
    shutil.copytree(tmp_path / "whole", out)
    recs = lines_of(out / "collection.jsonl")
    for rec, kind in ((recs[1], "internal"), (recs[2], "input")):  # an OS error of old, and a verdict that stands
        rec.update(status="failed", name=None, error_kind=kind, clue_hash=None,
                   error=f"{rec['source']}: internal error: OSError: [Errno 28] No space left on device")
    shutil.rmtree(out / "p01")
    (out / "collection.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs) + '{"source": "/x/p09.png", "st')
    code = main(["image", str(src), "-o", str(out), "--resume", "--json"])
    printed, err = capsys.readouterr()
    assert code == 2, err  # p02's recorded input failure stands (exit 2), the internal one is gone
    assert [Path(json.loads(line)["source"]).name for line in printed.splitlines()] == ["p01.png"]
    assert "4 sources: 3 made, 1 failed, 0 duplicates" in err and "3 from the resumed run" in err
    final = lines_of(out / "collection.jsonl")
    assert [r["status"] for r in final] == ["made", "made", "failed", "made"]
    assert no_seconds([final[1]]) == no_seconds([lines_of(tmp_path / "whole" / "collection.jsonl")[1]])
    assert folder_contents(out)["p01"] == folder_contents(tmp_path / "whole")["p01"]


@pytest.mark.parametrize("exc,saving,kind", [
    (PermissionError(errno.EACCES, "Permission denied", "/o/p1"), True, "output"),
    (NotADirectoryError(errno.ENOTDIR, "Not a directory", "/o/p1"), True, "output"),
    (InputError("/o/p1: is a symbolic link"), True, "output"),
    (PermissionError(errno.EACCES, "Permission denied", "/in/p1.png"), False, "input"),
    (OSError(errno.ENOSPC, "No space left on device", "/o/p1/puzzle.svg"), True, None),
    (OSError(errno.EFBIG, "File too large", "/o/p1/puzzle.svg"), True, None),
    (OSError(errno.EIO, "Input/output error", "/o/p1"), True, None),
    (OSError(errno.EMFILE, "Too many open files"), False, None),
    (KeyError("a bug"), True, "internal"),
])
def test_which_os_errors_stop_the_run_and_which_are_one_sources(exc, saving, kind):
    """A permission error on one folder was "internal" (exit 5, "a bug in nonogen"); a full disk was a failure
    of each source in turn. None means: not a record, the run stops with this error."""
    from nonogen.make.many import failure_record, is_final, stop_error  # here: before the fix, only this test fails

    task = MakeTask("/in/p1.png", "p1", "image", "/o/p1", {}, {}, False)
    rec = failure_record(task, exc, saving, 0.1)
    if kind is None:
        stop = stop_error(rec)
        assert isinstance(stop, OSError) and stop.errno == exc.errno and stop.filename == exc.filename
        return
    assert stop_error(rec) is None and rec["status"] == "failed" and rec["error_kind"] == kind
    assert "\n" not in rec["error"] and ("/o/p1" in rec["error"] or "/in/p1.png" in rec["error"])
    assert is_final(rec) == (kind == "input")  # --resume makes again what was not the source's fault


# --- C2: a folder nonogen may not write is that source's failure, exit 2, and --resume makes it ---------------


def _nobody() -> tuple[int, list[str]]:
    """``(uid, prefix)``: when the tests run as root (who may write a read-only folder), the run is started as
    user nobody through ``setpriv`` (which looks the program up before it drops root: Python may live under /root)."""
    if os.geteuid() != 0:
        return -1, []
    import pwd

    if not shutil.which("setpriv"):
        pytest.skip("running as root without setpriv to drop to user nobody")
    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("running as root and there is no user nobody to drop to")
    return nobody.pw_uid, ["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups", "--"]


def test_a_read_only_output_folder_is_that_sources_failure(tmp_path):
    """A permission error saving one source was recorded "internal" and the run exited 5."""
    uid, prefix = _nobody()
    work = Path(tempfile.mkdtemp()) if prefix else tmp_path  # pytest's own folders are closed to nobody
    try:
        os.chmod(work, 0o755)
        src = pictures(work / "src", 2)
        (work / "out" / "p00").mkdir(parents=True)
        for path in (work / "out", work / "out" / "p00"):
            os.chown(path, uid, -1)
        os.chmod(work / "out" / "p00", 0o555)
        argv = [*prefix, sys.executable, "-m", "nonogen", "image", src, "-o", work / "out", "--json"]
        done = subprocess.run(list(map(str, argv)), cwd=REPO, capture_output=True, text=True, timeout=LIMIT)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        recs = {Path(r["source"]).name: r for r in map(json.loads, done.stdout.splitlines())}
        assert recs["p01.png"]["status"] == "made" and recs["p00.png"]["error_kind"] == "output"
        assert recs["p00.png"]["error"] == f"{work / 'out' / 'p00'}: Permission denied"
        assert "2 sources: 1 made, 1 failed" in done.stderr
        os.chmod(work / "out" / "p00", 0o755)
        again = subprocess.run(list(map(str, argv + ["--resume"])), cwd=REPO, capture_output=True, text=True,
                               timeout=LIMIT)
        assert again.returncode == 0 and "2 sources: 2 made, 0 failed" in again.stderr, again.stderr
        assert [r["status"] for r in lines_of(work / "out" / "collection.jsonl")] == ["made", "made"]
        assert (work / "out" / "p00" / "report.json").is_file()
    finally:
        if prefix:
            shutil.rmtree(work, ignore_errors=True)


# --- C3: odd names: one line per source, and the reason verify gives ------------------------------------------


def test_odd_names_a_fifo_and_a_link_loop_each_get_their_own_one_line_reason(tmp_path, capsys):
    """A newline in a name split its stdout line in three and cut the record's reason to the path's first half;
    a FIFO and a symbolic link loop were both "no such file"."""
    from nonogen.cli import main

    src = tmp_path / "src"
    tiny_png(src / "good.png", 1)
    (src / "bad\nname.png").write_bytes(b"not a picture")
    (src / "esc\x1b[31m.png").write_bytes(b"not a picture")
    os.mkfifo(src / "pipe.png")
    os.symlink("loop2.png", src / "loop1.png")
    os.symlink("loop1.png", src / "loop2.png")
    code = main(["image", str(src), "-o", str(tmp_path / "out")])
    table, _ = capsys.readouterr()
    assert code == 2 and len(table.splitlines()) == 6, table
    assert "\x1b" not in table and "esc\\x1b[31m.png" in table
    recs = {Path(r["source"]).name: r for r in lines_of(tmp_path / "out" / "collection.jsonl")}
    assert set(recs) == {"good.png", "bad\nname.png", "esc\x1b[31m.png", "pipe.png", "loop1.png", "loop2.png"}
    assert recs["pipe.png"]["error"] == f"{src / 'pipe.png'}: not a regular file (a named pipe)"
    assert recs["loop1.png"]["error"] == f"{src / 'loop1.png'}: a symbolic link loop"
    bad = recs["bad\nname.png"]["error"]
    assert bad.startswith(repr(str(src / "bad\nname.png")) + ": not a readable picture") and "\n" not in bad
    for name in ("pipe.png", "loop1.png"):  # verify says the same of the same files
        (tmp_path / "v").mkdir(exist_ok=True)
        os.symlink(src / name, tmp_path / "v" / (name[:-4] + ".non"))
    main(["verify", str(tmp_path / "v"), "--json"])
    said = {Path(r["file"]).name: r["message"] for r in map(json.loads, capsys.readouterr()[0].splitlines())}
    assert "not a regular file (a named pipe)" in said["pipe.non"]
    assert said["loop1.non"].endswith("a symbolic link loop")


def test_resume_refuses_records_of_the_wrong_kind_and_a_pipe_in_one_line(tmp_path, capsys):
    """``"source": 12`` in collection.jsonl ended --resume with a traceback and exit 5; a FIFO there hung it.
    Both are now said in the words every reader of the file uses (nonogen.record.read_records)."""
    from nonogen.cli import main

    src = pictures(tmp_path / "src", 2)
    out = tmp_path / "out"
    whole_run(src, out)
    recs = lines_of(out / "collection.jsonl")
    recs[0]["source"] = 12
    (out / "collection.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    code = main(["image", str(src), "-o", str(out), "--resume"])
    _, err = capsys.readouterr()
    assert code == 2 and err == f'nonogen: error: {out / "collection.jsonl"}:1: "source": expected text, not 12\n'
    (out / "collection.jsonl").unlink()
    os.mkfifo(out / "collection.jsonl")
    code = main(["image", str(src), "-o", str(out), "--resume"])
    assert code == 2 and "collection.jsonl: is a named pipe, not a regular file" in capsys.readouterr()[1]


# --- O1, the collection side: nothing is written through a link in the collection folder -----------------------


def test_links_planted_in_the_collection_folder_are_never_written_through(tmp_path, capsys):
    """`image src -o a --force` wrote the records through a planted a/collection.jsonl link, and into the outside
    folder a planted OUT/<name> link named."""
    from nonogen.cli import main

    src = pictures(tmp_path / "src", 2)
    victim = tmp_path / "victim.txt"
    victim.write_text("victim\n")
    (tmp_path / "a").mkdir()
    os.symlink(victim, tmp_path / "a" / "collection.jsonl")
    for extra in (["--force"], ["--resume"], []):
        code = main(["image", str(src), "-o", str(tmp_path / "a"), *extra])
        err = capsys.readouterr()[1]
        assert code == 2 and "collection.jsonl: is a symbolic link" in err, (extra, err)
    assert victim.read_text() == "victim\n" and sorted(os.listdir(tmp_path / "a")) == ["collection.jsonl"]
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "puzzle.json").write_text("mine\n")
    (tmp_path / "d").mkdir()
    os.symlink(outside, tmp_path / "d" / "p00")
    code = main(["image", str(src), "-o", str(tmp_path / "d"), "--force"])
    assert code == 2 and f"{tmp_path / 'd' / 'p00'}: is a symbolic link" in capsys.readouterr()[1]
    assert os.listdir(outside) == ["puzzle.json"] and (outside / "puzzle.json").read_text() == "mine\n"
    assert sorted(os.listdir(tmp_path / "d")) == ["p00"]  # a refusal before any work leaves no records file
