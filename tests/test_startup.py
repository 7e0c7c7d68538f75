"""What a plain ``nonogen verify`` of a small puzzle loads: the start-up of the real entry points.

Start-up is paid by every run and, on a small puzzle, is nearly all of it; the speed itself is
measured by ``scripts/bench_verify.py --only startup``. These tests keep out what that path does
not need, checked with ``python -X importtime`` (every module a process imports, nested ones too)
on the console script pip wrote and on ``python -m nonogen``.
"""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

SMALL = "width 5\nheight 5\nrows\n1\n3\n5\n3\n1\ncolumns\n1\n3\n5\n3\n1\n"
"""The start-up puzzle of the benchmarks (``scripts/_bench.py``): line logic alone solves it."""

NOT_AT_START_UP = {
    "pysat": "SAT search: line logic decides a small puzzle",
    "numpy": "the 3D half and arrays for users: a 2D verify works on rows",
    "multiprocessing": "a pool of workers: one file is verified in this process",
    "concurrent": "a pool of workers",
    "ctypes": "only workers ask Linux to stop them with their parent",
    "resource": "only a puzzle bound for SAT checks the memory its encoding may take",
    "subprocess": "nothing is started",
    "dataclasses": "loads inspect",
    "inspect": "loads the tokenizer and the ast module",
    "traceback": "only a bug prints a traceback (it loads the tokenizer)",
    "tokenize": "loaded by traceback and inspect",
    "json": "--json lines are spelled by cli/common.py: one_line_json; json reads --resume files",
    "csv": "only --csv",
    "html": "only .non strings with escapes (a table of 2,000 entities)",
    "typing": "annotations are strings and their names are imported for type checkers only",
    "shutil": "argparse imports it to size help text; the CLI sizes it (cli/common.py: sized)",
    "pathlib": "names are text spelled as str(Path(name)) (collect.py: path_text), walked with os.walk",
    "urllib": "loaded by pathlib",
    "glob": "only a pattern among the names (it loads fnmatch)",
    "colorsys": "only palettes longer than the base colours",
    "argparse": "the plain forms of verify are read by cli/plain_verify.py (argparse and its parser: 5 ms)",
    "gettext": "loaded by argparse",
    "locale": "loaded by gettext when argparse translates its messages",
}
"""Top-level modules a plain 5x5 verify must not import, and why it does not need them."""
NOT_FOR_LINE_LOGIC = ("nonogen.solve.cnf", "nonogen.solve.search", "nonogen.solve.shortcut", "nonogen.solve.line")
"""nonogen's own modules of the roads past line logic (SAT, the guesses) and the Python line solver (the C module's
fallback): a puzzle line logic solves with the C module built needs none."""
if importlib.util.find_spec("_sha256"):  # Pythons without it (3.12 and later) take sha256 from hashlib
    NOT_AT_START_UP["hashlib"] = "the clue hash uses CPython's built-in sha256 (hashlib loads OpenSSL)"


def _imported(command: list[str], cwd: Path, unique: int = 1) -> set[str]:
    """Every module ``command`` (a Python program and its arguments) imports, from ``-X importtime``.

    A module loaded by ``importlib.import_module`` (the command's own module, a format reader) is not
    listed itself, but everything it imports is.
    """
    done = subprocess.run([sys.executable, "-X", "importtime", *command], capture_output=True, text=True, cwd=cwd)
    assert done.returncode == 0, done.stderr
    assert f"{unique} unique" in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("import time:")]
    assert lines, done.stderr
    return {line.rsplit("|", 1)[1].strip() for line in lines[1:]}  # the first line is the header


def _entry_points() -> dict[str, list[str]]:
    entry = {"python -m nonogen": ["-m", "nonogen"]}
    script = Path(sys.executable).with_name("nonogen")  # what `pip install` wrote beside this interpreter
    if script.exists():
        entry["console script"] = [str(script)]
    return entry


@pytest.mark.parametrize("entry", sorted(_entry_points()))
def test_a_small_verify_imports_nothing_it_does_not_need(tmp_path, entry):
    """Each module here once cost a 5x5 verify a millisecond or more before the puzzle was read."""
    small = tmp_path / "small.non"
    small.write_text(SMALL)
    modules = _imported([*_entry_points()[entry], "verify", "--json", str(small)], tmp_path)
    assert {"nonogen.batch", "nonogen.solve._linelogic"} <= modules  # the probe sees the real path
    loaded = sorted({m.split(".")[0] for m in modules} & set(NOT_AT_START_UP))
    assert not loaded, {name: NOT_AT_START_UP[name] for name in loaded}
    assert not modules & set(NOT_FOR_LINE_LOGIC)


NOT_FOR_COLOUR_FILES = {
    "re": "the webpbn XML and .g readers cut text with str methods (the tree reading, member cutting and sniffing "
          "import re)",
    "enum": "loaded by re and signal",
    "signal": "nonogen/signals.py: the C module _signal",
    "threading": "nonogen/signals.py: _thread counts the threads (a SAT search imports threading for its timer)",
    "xml.etree": "the plain XML reading builds its own small nodes",
    "nonogen.executors": "a batch in this process runs its tasks itself (batch.py); the pool's module is not loaded",
}
"""Modules a plain verify of a few colour files (webpbn XML, Olsak .g: the shared collections) must not import."""
COLOUR_G = "Hat\n#d\n  r:& red\n  b:b blue\n: rows\n1r 1b\n2r\n: columns\n2r\n1b 1r\n: end\n"


def test_a_colour_batch_imports_no_regular_expressions(tmp_path):
    """36 colour puzzles in one process took 45 ms, a tenth of it importing these; pbnsolve takes 70 ms for them."""
    from nonogen import Color, formats, puzzle_from_grid

    palette = (Color("white", "#ffffff", "."), Color("red", "#ff0000", "a"), Color("blue", "#0000ff", "b"))
    puzzle = puzzle_from_grid([[1, 2, 0], [1, 1, 2], [0, 2, 2]], palette, title="T\u00e9 for two\nlines")
    (tmp_path / "a.xml").write_text(formats.dumps(puzzle, "webpbn"))
    (tmp_path / "hat.g").write_text(COLOUR_G)
    modules = _imported(["-m", "nonogen", "verify", "--json", "a.xml", "hat.g"], tmp_path, unique=2)
    assert {"nonogen.formats._webpbn_plain", "nonogen.batch"} <= modules  # the probe sees the real path
    loaded = sorted(name for name in NOT_FOR_COLOUR_FILES if name in modules)
    assert not loaded, {name: NOT_FOR_COLOUR_FILES[name] for name in loaded}


def test_the_probe_sees_what_a_run_needs(tmp_path):
    """The same probe finds json and csv when the run asks for them: it would catch them at start-up too."""
    small = tmp_path / "small.non"
    small.write_text(SMALL)
    (tmp_path / "earlier.jsonl").write_text("")
    modules = _imported(["-m", "nonogen", "verify", "--resume", "earlier.jsonl", "--csv", str(tmp_path / "out.csv"),
                         str(small)], tmp_path)
    assert {"json", "csv"} <= modules


PLAIN_WORDS = ["verify", "a.non", "b", "-", "", "--json", "--no-probe", "--no-grade", "--no-ambiguity", "--dedupe",
               "--timeout", "5", "0", "-1", "inf", "nan", "soon", "--format", "non", "--jobs", "2", "2.5", "--js",
               "--timeout=3", "--", "-5", "--csv", "out.csv", "--force", "--executor", "local", "-x", "solve"]
"""Words of command lines that the plain reader takes, refuses, or that look like them."""


@given(st.lists(st.sampled_from(PLAIN_WORDS), max_size=9).map(lambda words: ["verify", *words])
       | st.lists(st.sampled_from(PLAIN_WORDS), max_size=9))
def test_the_plain_reader_agrees_with_argparse(argv):
    """Wherever cli/plain_verify.py reads a command line, argparse reads it without error into the same namespace."""
    import contextlib
    import io

    from nonogen.cli import build_parser
    from nonogen.cli.plain_verify import verify_args

    plain = verify_args(argv)
    if plain is None:
        return
    with contextlib.redirect_stderr(io.StringIO()) as err, contextlib.redirect_stdout(io.StringIO()):
        try:
            parsed = build_parser(argv).parse_args(argv)
        except SystemExit:
            pytest.fail(f"argparse refuses {argv}: {err.getvalue()}")
    assert vars(plain) == vars(parsed)


@pytest.mark.parametrize("argv", [["verify", "a.non"],
                                  ["verify", "--json", "--no-ambiguity", "--timeout", "60", "a", "b"],
                                  ["verify", "-", "--jobs", "2", "--format", "non", "--no-grade"]])
def test_the_plain_reader_reads_the_plain_forms(argv):
    """The common command lines do take the plain path (the agreement above would hold if it took none)."""
    from nonogen.cli.plain_verify import verify_args

    assert verify_args(argv) is not None


PLAIN_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.lists(inner, max_size=3).map(tuple)
    | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20)


@given(PLAIN_JSON | st.dictionaries(st.integers(), st.integers(), min_size=1) | st.sets(st.integers(), min_size=1))
@example({"n": [float("nan"), float("inf"), -float("inf"), -0.0, 1e300, 10**30], "t": "\ud800\x00\u00e9\"\\"})
def test_records_are_spelled_as_json_spells_them(value):
    """A --json line is json.dumps(record, ensure_ascii=False) to the byte, NaN and lone surrogates included;
    what json refuses (a set) it still refuses."""
    import json

    from nonogen.cli.common import one_line_json

    try:
        expected = json.dumps(value, ensure_ascii=False)
    except TypeError:
        with pytest.raises(TypeError):
            one_line_json(value)
        return
    assert one_line_json(value) == expected


def test_a_record_line_is_spelled_once_and_reads_as_its_plain_form():
    """json_line spells a plain record at once and converts anything else first: both must read as
    json.dumps(to_jsonable(record)) does, numpy values, paths and tuples included."""
    import json
    import pathlib

    import numpy as np

    from nonogen.cli.common import json_line
    from nonogen.plain import to_jsonable

    plain = {"file": "a\u00e9.non", "status": "unique", "cells": [(1, 2), (3, 4)], "score": 2.5, "grade": None}
    mixed = {**plain, "n": np.int64(3), "ok": np.bool_(True), "at": pathlib.Path("x/y.non"), "grid": np.arange(3),
             "f": np.float64(0.1), 7: "seven"}
    for record in (plain, mixed):
        assert json_line(record) == json.dumps(to_jsonable(record), ensure_ascii=False)


@pytest.mark.parametrize("columns", ["24", "79", "200", "", "0", "-5", "wide"])
def test_help_is_wrapped_as_argparse_wraps_it(monkeypatch, columns):
    """The parsers of a plain verify size their help without shutil: the text is argparse's own at any width."""
    import argparse
    import shutil

    from nonogen.cli import build_parser
    from nonogen.cli.common import terminal_columns

    monkeypatch.setenv("COLUMNS", columns)
    assert terminal_columns() == shutil.get_terminal_size().columns
    parser = build_parser(["verify"])
    verify = parser._subparsers._group_actions[0].choices["verify"]  # argparse has no public way to it
    for each, plain in ((parser, argparse.HelpFormatter), (verify, argparse.RawDescriptionHelpFormatter)):
        sized_help, sized_usage = each.format_help(), each.format_usage()
        each.formatter_class = plain
        assert (sized_help, sized_usage) == (each.format_help(), each.format_usage())


@given(st.text(alphabet="/.ab", max_size=12))
def test_names_are_spelled_as_pathlib_spells_them(text):
    """Records name files as str(Path(name)) did when the batch walked Path objects: './a.non' is 'a.non'."""
    from pathlib import PurePosixPath

    from nonogen.collect import path_text, suffix_of

    assert path_text(text) == str(PurePosixPath(text))
    assert suffix_of(text) == PurePosixPath(text).suffix


def test_a_folder_is_walked_as_path_rglob_walked_it(tmp_path, monkeypatch):
    """Same files in the same order as ``sorted(Path.rglob("*"))``: part by part, hidden files in, links not entered."""
    from nonogen import formats
    from nonogen.batch import puzzle_files
    from nonogen.collect import found_names

    for name in ("d/b/x.non", "d/b-c/y.non", "d/.hid/z.non", "d/.top.non", "d/a.solution.txt", "d/j.txt",
                 "real/r.non", "d/we ird.cnon"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(SMALL)
    (tmp_path / "d/link").symlink_to(tmp_path / "real")
    (tmp_path / "d/l.non").symlink_to(tmp_path / "real/r.non")
    (tmp_path / "d/broken.non").symlink_to(tmp_path / "nowhere")
    monkeypatch.chdir(tmp_path)
    for arg in ("d", "./d/", "d//b", "d/**", "d/*.non", str(tmp_path / "d"), "d/b/x.non", "./d/../d/j.txt", "missing"):
        walked = [(str(p), named) for p, named in puzzle_files([arg])]
        before = [str(p) for p in sorted(p for p in Path(arg).rglob("*") if not p.is_dir())]
        if Path(arg).is_dir():
            assert walked == [(name, False) for name in before if Path(name).suffix.lower() in formats.SUFFIXES]
        assert walked == [(name, named) for name, named in found_names([arg], formats.SUFFIXES)]
    names = [name for name, _ in found_names(["d"], formats.SUFFIXES)]
    assert names.index("d/b/x.non") < names.index("d/b-c/y.non") and "d/.top.non" in names and "d/l.non" in names
    assert not any(name.startswith("d/link/") for name in names)
