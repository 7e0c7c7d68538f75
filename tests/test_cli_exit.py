"""How the program ``nonogen`` ends: a plain verify leaves without tearing the interpreter down (cli: leave),
and says and returns exactly what the usual exit does."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

OK = "width 5\nheight 5\nrows\n1\n3\n5\n3\n1\ncolumns\n1\n3\n5\n3\n1\n"
TWO = "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n"

USUAL = "import sys; from nonogen.cli import main; sys.exit(main())"
"""The program before it learned to leave early: main, then the interpreter's own exit."""



def torn_down(before: str = "") -> str:
    """The program with an object whose finaliser runs only when the interpreter is torn down (``before`` runs
    first)."""
    return ("import sys\nclass Last:\n    def __del__(self):\n        print('torn down', file=sys.stderr)\n"
            f"{before}\nlast = Last()\nfrom nonogen.cli import console\nconsole()\n")


def _run(program: str, argv: list[str], cwd) -> tuple[int, object, str]:
    """Exit code, records by file (or the table, its seconds column blanked) and stderr (the summary's seconds
    blanked): how long a puzzle took, and so which of two workers finishes first, are what two runs may not share."""
    done = subprocess.run([sys.executable, "-c", program, *argv], capture_output=True, text=True, cwd=cwd, timeout=120)
    records = sorted(({k: v for k, v in json.loads(line).items() if k != "seconds"} for line in done.stdout.splitlines()
                      if line.startswith("{")), key=lambda rec: rec["file"])  # --jobs 2: in the order they finish
    table = re.sub(r"\b\d+\.\d+s\b", "Ts", done.stdout)
    return done.returncode, records or table, re.sub(r"\(\d+\.\d+ s", "(T s", done.stderr)


@pytest.mark.parametrize("argv", [
    ["verify", "--json", "ok.non"],
    ["verify", "two.non", "--no-ambiguity"],
    ["verify", "--json", "ok.non", "two.non", "missing.non"],
    ["verify", "--json", "--jobs", "2", "ok.non", "two.non"],
    ["verify", "--timeout", "0", "ok.non"],
    ["verify", "nowhere"],
])
def test_a_plain_verify_ends_as_the_usual_exit_does(tmp_path, argv):
    """Same exit code, records and messages as main followed by sys.exit; the teardown is skipped where the plain
    reader takes the command line (a bad value goes to argparse, and exits the usual way)."""
    from nonogen.cli.plain_verify import verify_args

    (tmp_path / "ok.non").write_text(OK)
    (tmp_path / "two.non").write_text(TWO)
    usual = _run(USUAL, argv, tmp_path)
    code, out, err = _run(torn_down(), argv, tmp_path)
    assert usual == (code, out, err.replace("torn down\n", ""))
    assert ("torn down" in err) == (verify_args(argv) is None)
    assert code in (0, 1, 2) and (out or err)


def test_other_commands_and_pending_work_exit_the_usual_way(tmp_path):
    """An exit handler (a pool, Dask, logging register one) or another command gets the interpreter's full exit."""
    (tmp_path / "ok.non").write_text(OK)
    pending = torn_down("import atexit\natexit.register(print, 'handler ran')")
    code, out, err = _run(pending, ["verify", "ok.non"], tmp_path)
    assert code == 0 and "handler ran" in out and "torn down" in err
    code, out, err = _run(torn_down(), ["solve", "ok.non"], tmp_path)
    assert code == 0 and "torn down" in err
    code, out, err = _run(torn_down(), ["verify", "ok.non"], tmp_path)
    assert code == 0 and "torn down" not in err
