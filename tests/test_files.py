"""The safe writer (nonogen.files) against targets that are not plain files, full disks, signals and OS errors.

Device nodes and FIFOs are made in a temporary folder (``os.mknod``, ``os.mkfifo``), never under /dev.
"""
from __future__ import annotations

import errno
import os
import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from nonogen.errors import InputError, OutputExistsError
from nonogen.files import write_file
from nonogen.linefile import LineFile

REPO = Path(__file__).resolve().parents[1]
OK = "width 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\n"
LIMIT = 120  # seconds: a safety net for waits on conditions, never reached when things work


def _mknod(path: Path, kind: int, major: int, minor: int) -> Path:
    try:
        os.mknod(path, kind | 0o666, os.makedev(major, minor))
    except PermissionError:
        pytest.skip("making device nodes needs CAP_MKNOD")
    return path


class _Reader:
    """The reading end of a FIFO, opened before the writer comes (small writes wait in the pipe's buffer)."""

    def __init__(self, path: Path):
        self.path = path
        self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)

    def finish(self) -> bytes:
        """Everything written, once the writer is done (a pipe that lost its name gets nothing)."""
        data = b""
        try:
            while chunk := os.read(self.fd, 65536):
                data += chunk
        except BlockingIOError:  # a writer still holds it open: a failure the assertions will show
            pass
        finally:
            os.close(self.fd)
        return data


def nonogen(*argv, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nonogen", *map(str, argv)], cwd=REPO, capture_output=True,
                          text=True, timeout=LIMIT, **kw)


# --- item 1: non-regular targets are written in place, never replaced ---------------------------------


def test_write_file_writes_a_fifo_in_place(tmp_path):
    """--force turned a FIFO into a regular file (and the reader waiting on it never got the data)."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = _Reader(fifo)
    write_file(fifo, "hello\n", force=True)
    assert reader.finish() == b"hello\n"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_write_file_refuses_a_fifo_nobody_reads(tmp_path):
    """Opening a FIFO without a reader would wait forever: it is refused at once."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="no reader"):
        write_file(fifo, "x")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_write_file_writes_a_character_device_in_place(tmp_path):
    """`--csv /dev/null --force` replaced the device node with a regular file (as root: a system device)."""
    null = _mknod(tmp_path / "null", stat.S_IFCHR, 1, 3)
    write_file(null, "data", force=True)
    write_file(null, "data")  # nothing is replaced, so no --force is needed
    assert stat.S_ISCHR(os.lstat(null).st_mode) and os.lstat(null).st_rdev == os.makedev(1, 3)


def test_write_file_refuses_block_devices_and_sockets(tmp_path):
    """A block device (a disk) is never written, in place or replaced; nor is a socket."""
    import socket

    block = _mknod(tmp_path / "disk", stat.S_IFBLK, 254, 254)  # a number no driver has: never a real disk
    with pytest.raises(InputError, match="block device"):
        write_file(block, "x", force=True)
    assert stat.S_ISBLK(os.lstat(block).st_mode)
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tmp_path / "sock"))
    try:
        with pytest.raises(InputError, match="socket"):
            write_file(tmp_path / "sock", "x", force=True)
    finally:
        sock.close()
    assert stat.S_ISSOCK(os.lstat(tmp_path / "sock").st_mode)


def test_write_file_writes_through_a_symlink(tmp_path):
    """--force replaced a symlink with a regular file; the file it points at is what gets replaced."""
    target = tmp_path / "real.non"
    target.write_text("old")
    link = tmp_path / "link.non"
    link.symlink_to(target)
    with pytest.raises(OutputExistsError):
        write_file(link, "new")
    write_file(link, "new", force=True)
    assert link.is_symlink() and target.read_text() == "new"
    dangling = tmp_path / "to-new.non"
    dangling.symlink_to(tmp_path / "made.non")
    write_file(dangling, "made")
    assert dangling.is_symlink() and (tmp_path / "made.non").read_text() == "made"


def test_write_file_keeps_the_mode_of_the_file_it_replaces(tmp_path, monkeypatch):
    """Replacing a 0600 file left it 0644 (the rename put a new file with the umask's mode in its place)."""
    import nonogen.files as files

    secret = tmp_path / "notes.non"
    secret.write_text("mine")
    secret.chmod(0o600)
    write_file(secret, OK, force=True)
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600 and secret.read_text() == OK
    shared = tmp_path / "shared.non"
    shared.write_text("x")
    shared.chmod(0o664)
    LineFile(shared, force=True).close()
    assert stat.S_IMODE(shared.stat().st_mode) == 0o664
    (tmp_path / "new.non").unlink(missing_ok=True)
    write_file(tmp_path / "new.non", OK)  # a new file: the umask decides, as for open()
    assert stat.S_IMODE((tmp_path / "new.non").stat().st_mode) == 0o666 & ~files._umask()
    monkeypatch.setattr(files, "_O_TMPFILE", 0)  # the named-temporary path keeps it too
    write_file(secret, "again", force=True)
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600 and sorted(p.name for p in tmp_path.iterdir()) == [
        "new.non", "notes.non", "shared.non"]
    if os.geteuid() == 0:  # root replacing another user's file leaves it that user's
        os.chown(secret, 65534, 65534)
        write_file(secret, "root wrote", force=True)
        assert (secret.stat().st_uid, secret.stat().st_gid) == (65534, 65534)
        assert stat.S_IMODE(secret.stat().st_mode) == 0o600


def test_line_file_writes_a_fifo_in_place(tmp_path):
    """`verify --csv FIFO --force` (like `--csv >(cmd)`) replaced the pipe instead of writing into it."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = _Reader(fifo)
    with LineFile(fifo, force=True) as out:
        out.write("a,b")
    assert reader.finish() == b"a,b\n" and stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_verify_csv_and_convert_write_into_a_fifo(tmp_path):
    """The CLI side of item 1: `verify --csv FIFO` and `convert x FIFO` feed the pipe and leave it a pipe."""
    (tmp_path / "a.non").write_text(OK)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for argv in (("verify", tmp_path / "a.non", "--csv", fifo, "--force"),
                 ("convert", tmp_path / "a.non", fifo, "--to", "nin", "--force")):
        reader = _Reader(fifo)
        done = nonogen(*argv)
        data = reader.finish().decode()
        assert done.returncode == 0, done.stderr
        assert ("clue_hash" in data) if argv[0] == "verify" else data.startswith("2 2\n")
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


# --- item 6: OS errors are input errors; no temp file is left behind ----------------------------------------


def _limit_file_size(size: int):
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))  # writes past it fail (EFBIG), as on a full disk
    return limit


def test_a_full_disk_is_one_error_line_and_leaves_no_temp_file(tmp_path):
    """Disk full on --csv, --resume, convert: a traceback, exit 5 ("a bug in nonogen") and a temp file left."""
    folder = tmp_path / "in"
    folder.mkdir()
    for i in range(40):
        (folder / f"p{i:02d}.non").write_text(f'title "{"long title " * (300 if i == 0 else 20)}{i}"\n' + OK)
    out = tmp_path / "out"
    out.mkdir()
    full = _mknod(tmp_path / "full", stat.S_IFCHR, 1, 7)  # like /dev/full: every write is ENOSPC
    cases = [
        ("verify", folder, "--csv", out / "t.csv"),
        ("verify", folder, "--resume", out / "r.jsonl"),
        ("convert", folder / "p00.non", out / "big.json"),
        ("verify", folder, "--csv", full),
    ]
    for argv in cases:
        done = nonogen(*argv, preexec_fn=_limit_file_size(2000))
        assert done.returncode == 2, (argv, done.stderr)
        last = done.stderr.strip().splitlines()[-1]
        assert "Traceback" not in done.stderr and last.startswith("nonogen: error: "), (argv, done.stderr)
        assert str(argv[-1]) in last and ("too large" in last or "No space" in last), last
    assert not [p.name for p in out.iterdir() if p.name.startswith(".")]
    assert not (out / "t.csv").exists() and not (out / "big.json").exists()  # a failed run leaves no half file
    picture = REPO / "samples" / "images" / "icon-heart.png"
    done = nonogen("image", picture, "-o", out / "made", preexec_fn=_limit_file_size(20000))
    last = done.stderr.strip().splitlines()[-1]  # warnings about the puzzle may come first
    assert done.returncode == 2 and last.startswith(f"nonogen: error: {out / 'made'}/"), done.stderr
    assert not (out / "made").exists()  # not even an empty folder


LINES_TO_THE_LIMIT = """
import resource, sys
from nonogen.linefile import LineFile
resource.setrlimit(resource.RLIMIT_FSIZE, (1000, resource.RLIM_INFINITY))
lines = LineFile(sys.argv[1], append=True)
try:
    for _ in range(10):
        lines.write("x" * 299)  # 300 bytes a line: the fourth gets 100 bytes in, then EFBIG
except OSError as exc:
    print(exc.errno)
lines.close()
"""


def test_a_line_that_hits_a_full_disk_is_taken_back_whole(tmp_path):
    """A full disk let half a record into collection.jsonl (and a --resume file): a torn line that stayed."""
    path = tmp_path / "r.jsonl"
    done = subprocess.run([sys.executable, "-c", LINES_TO_THE_LIMIT, str(path)], cwd=REPO, capture_output=True,
                          text=True, timeout=LIMIT)
    assert done.returncode == 0 and done.stdout.strip() == str(errno.EFBIG), done.stderr
    assert path.read_text() == ("x" * 299 + "\n") * 3


def test_os_errors_name_the_path_and_exit_2(tmp_path):
    """Permission errors, a folder or a file where a folder should be: tracebacks and exit 5."""
    (tmp_path / "a.non").write_text(OK)
    (tmp_path / "plain").write_text("x")
    puzzle = tmp_path / "a.non"
    for argv, path in (
        (("verify", puzzle, "--csv", tmp_path / "plain" / "t.csv"), tmp_path / "plain"),
        (("convert", puzzle, tmp_path / "plain" / "a.json"), tmp_path / "plain"),
        (("verify", puzzle, "--summary-json", tmp_path), tmp_path),
        (("convert", puzzle, tmp_path), tmp_path),
        (("verify", puzzle, "--resume", tmp_path), tmp_path),
    ):
        done = nonogen(*argv)
        assert done.returncode == 2 and "Traceback" not in done.stderr, (argv, done.stderr)
        assert done.stderr.strip().splitlines()[-1].startswith(f"nonogen: error: {path}"), (argv, done.stderr)


def test_sighup_stops_a_batch_like_sigterm_and_kill_leaves_no_temp_file(tmp_path, hangup_heard):
    """SIGHUP (the terminal closed) killed the run with a temp file left; so did SIGKILL."""
    sys.path.insert(0, str(REPO / "tests"))
    from test_batch import random_puzzles, wait_for_lines

    folder = random_puzzles(tmp_path / "in", 300, size=25)
    for sig, code in ((signal.SIGHUP, 129), (signal.SIGKILL, -9)):
        out = tmp_path / f"out-{sig}"
        out.mkdir()
        lines = out / "records.jsonl"
        proc = subprocess.Popen([sys.executable, "-m", "nonogen", "verify", str(folder), "--json", "--csv",
                                 str(out / "t.csv"), "--jobs", "2"], cwd=REPO, stdout=lines.open("w"),
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        wait_for_lines(lines, 2, proc, limit=LIMIT)
        os.killpg(proc.pid, sig)  # to the whole group, workers too, as a closing terminal does
        _, err = proc.communicate(timeout=LIMIT)
        assert proc.returncode == code, err
        left = sorted(p.name for p in out.iterdir())
        if sig == signal.SIGHUP:
            assert "hung up" in err and "SIGHUP" not in lines.read_text()  # no worker died of it
        # no temporary file, and no CSV of a run that did not finish (it would block the same command again)
        assert left == ["records.jsonl"]


# --- item 3: one writer per --resume file; duplicates are read once ----------------------------------------


def test_line_file_append_locks_out_a_second_run(tmp_path):
    """Two runs on one --resume file both appended, leaving every record twice, forever."""
    sys.path.insert(0, str(REPO / "tests"))
    from test_batch import random_puzzles, wait_for_lines

    folder = random_puzzles(tmp_path / "in", 300, size=25)
    resume = tmp_path / "r.jsonl"
    first = subprocess.Popen([sys.executable, "-m", "nonogen", "verify", str(folder), "--resume", str(resume)],
                             cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_lines(resume, 1, first, limit=LIMIT)
        second = nonogen("verify", folder, "--resume", resume)
        assert second.returncode == 2 and "another nonogen run is writing this file" in second.stderr, second.stderr
    finally:
        first.kill()
        first.wait()
    with LineFile(resume, append=True):  # the lock went with the killed process
        with pytest.raises(InputError, match="another nonogen run"):
            LineFile(resume, append=True)


def test_read_resume_keeps_one_record_per_file(tmp_path, capsys):
    """A resume file holding a record twice made the summary count it twice."""
    from nonogen.cli import main

    (tmp_path / "a.non").write_text(OK)
    swapped = OK.replace("2\n1\ncolumns", "1\n2\ncolumns").replace("columns\n2\n1", "columns\n1\n2")
    (tmp_path / "b.non").write_text(swapped)
    resume = tmp_path / "r.jsonl"
    assert main(["verify", str(tmp_path / "a.non"), "--resume", str(resume)]) == 0
    line = resume.read_text()
    resume.write_text(line * 3)  # as two unlocked runs left it
    capsys.readouterr()
    assert main(["verify", str(tmp_path / "a.non"), str(tmp_path / "b.non"), "--resume", str(resume),
                 "--summary-json", str(tmp_path / "s.json")]) == 0
    summary = __import__("json").loads((tmp_path / "s.json").read_text())
    assert summary["resumed"] == 1 and summary["puzzles"] == 2, summary


def test_write_file_appends_to_a_redirected_stdout(tmp_path):
    """`convert x /dev/stdout --force >> log` replaced the log by a rename (losing what it had) and needed --force."""
    (tmp_path / "a.non").write_text(OK)
    log = tmp_path / "log.txt"
    log.write_text("kept\n")
    with log.open("a") as out:
        done = subprocess.run([sys.executable, "-m", "nonogen", "convert", str(tmp_path / "a.non"), "/dev/stdout",
                               "--to", "nin"], cwd=REPO, stdout=out, stderr=subprocess.PIPE, text=True, timeout=LIMIT)
    assert done.returncode == 0, done.stderr
    assert log.read_text() == "kept\n2 2\n2\n1\n2\n1\n"
