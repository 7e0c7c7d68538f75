"""Every puzzle format: real files load and agree with their goals, writers round-trip, bad input fails cleanly."""
from __future__ import annotations

import json
import os
import string
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nonogen.cli as cli
from nonogen import formats
from nonogen.clues import derive_clues, puzzle_from_grid, satisfies
from nonogen.clues3d import puzzle3d_from_cells
from nonogen.errors import FormatError, LimitError
from nonogen.formats import taai
from nonogen.model import BW_PALETTE, Color, Puzzle
from nonogen.model3d import Puzzle3D
from nonogen.solve import verify
from conftest import SHARED_DATA, needs_shared

# --- real files -------------------------------------------------------------------------------

REAL = [
    "seed-examples/*.txt", "seed-examples/*.json", "cnon/*.cnon", "puzzles/**/*.non", "puzzles/**/*.xml",
    "puzzles/**/*.g", "puzzles/**/*.nin", "puzzles/stress/**/*.txt", "picross3d/*.json",
]
# Files nonogen refuses on purpose: triangular cells (triddlers, triangle colours).
UNSUPPORTED = {"cut_and_polished.xml": "triddler", "wake_up.xml": "triddler", "alladin.g": "triangle"}


def _real_files(root: Path) -> list[Path]:
    files = [p for pat in REAL for p in root.glob(pat) if not p.name.endswith("solution.txt")]
    return sorted(set(files))


def test_every_real_sample_loads_and_matches_its_goal(shared_data):
    files = _real_files(shared_data)
    assert len(files) > 1000
    with_goal = 0
    for path in files:
        if path.name in UNSUPPORTED:
            with pytest.raises(FormatError, match=UNSUPPORTED[path.name]):
                formats.load_all(path)
            continue
        for p in formats.load_all(path):
            if isinstance(p, Puzzle):
                if p.goal is not None:
                    with_goal += 1
                    assert derive_clues(p.goal) == (p.rows, p.cols), path
                # Per colour, row totals equal column totals on every real puzzle.
                for c in range(1, p.n_colors + 1):
                    assert sum(n for ln in p.rows for n, k in ln if k == c) == sum(
                        n for ln in p.cols for n, k in ln if k == c
                    ), path
    assert with_goal > 950


def test_known_facts_of_samples(shared_data):
    lam = formats.load(shared_data / "seed-examples/lambda.txt")
    assert (lam.height, lam.width) == (12, 10)
    solution = (shared_data / "seed-examples/lambda.solution.txt").read_text().split()
    grid = np.array([[ch == "X" for ch in row] for row in solution], dtype=np.uint8)
    assert satisfies(lam, grid)
    yoshi = formats.load(shared_data / "cnon/yoshi.cnon")
    assert (yoshi.width, yoshi.height, yoshi.n_colors) == (13, 17, 5)
    shuttle = formats.load(shared_data / "puzzles/colored/pbnsolve-examples/spaceShuttle.g")
    assert [c.name for c in shuttle.palette] == ["white", "red", "black"]
    take_two = formats.load(shared_data / "puzzles/colored/number-loom-xml/take_two.xml")
    assert take_two.n_colors == 2 and take_two.palette[0].name == "white"
    assert take_two.meta["title"] == "Take two"
    dancer = formats.load(shared_data / "puzzles/webpbn/survey-sample-non/webpbn-00001.non")
    assert dancer.meta["author"] == "Jan Wolter" and dancer.meta["copyright"].startswith("©")
    cauldron = formats.load(shared_data / "puzzles/stress/cauldron.non")
    assert (cauldron.width, cauldron.height) == (512, 512)
    cake = formats.load(shared_data / "puzzles/stress/picross_ds/Picross-Free-01-J-Cake.txt")
    assert cake.rows[0] == () and cake.meta["title"] == "Cake"
    level = formats.load(shared_data / "picross3d/kusano2010.json")
    assert isinstance(level, Puzzle3D) and level.size == (3, 5, 4) and level.n_clues == 29


def test_latin1_titles_of_old_exports_still_load(shared_data):
    """Four hardtests files carry Latin-1 titles; a strict UTF-8 reader rejected puzzles people have."""
    p = formats.load(shared_data / "puzzles/webpbn/griddler-hardtests-non/21613.non")
    assert p.meta["title"] == "5¢"


def test_taai_solutions_satisfy_their_puzzles(shared_data):
    for name in ("taai2011.txt", "tcga2016.txt", "icga2017.txt"):
        puzzles = formats.load_all(shared_data / "puzzles/taai/question" / name)
        text = formats.read_text(shared_data / "puzzles/taai/solution" / name)
        solved = taai.attach_solutions(puzzles, taai.loads_solutions(text))
        assert len(solved) == 1000 and all(p.goal is not None for p in solved)
        for p in solved[::25]:
            assert satisfies(p, p.goal), p.meta
        # The solution file read as puzzles derives clues from the grids: they must be the questions.
        as_puzzles = formats.load_all(shared_data / "puzzles/taai/solution" / name)
        assert all(a.same_clues(b) for a, b in zip(puzzles, as_puzzles, strict=True))


def test_taai_files_round_trip_byte_for_byte(shared_data, tmp_path):
    src = shared_data / "puzzles/taai/question/icga2017.txt"
    puzzles = formats.load_all(src)
    assert formats.dumps_all(puzzles, "taai") == src.read_text()


# --- round trips of random puzzles ------------------------------------------------------------

SAFE_CHARS = string.ascii_letters + string.digits + "#.%&*+=@$!?~^-_:;,/ "
meta_text = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=12)


@st.composite
def palettes(draw, max_colors=3):
    n = draw(st.integers(1, max_colors))
    if n == 1 and draw(st.booleans()):
        return BW_PALETTE
    chars = draw(st.lists(st.sampled_from(SAFE_CHARS), min_size=n + 1, max_size=n + 1, unique=True))
    names = draw(st.lists(st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=6),
                          min_size=n + 1, max_size=n + 1, unique=True))
    rgbs = draw(st.lists(st.integers(0, 0xFFFFFF), min_size=n + 1, max_size=n + 1))
    return tuple(Color(nm, f"#{v:06x}", ch) for nm, v, ch in zip(names, rgbs, chars, strict=True))


@st.composite
def puzzles(draw, bw=False, square=False):
    palette = BW_PALETTE if bw else draw(palettes())
    h = draw(st.integers(1, 7))
    w = h if square else draw(st.integers(1, 7))
    cells = draw(st.lists(st.integers(0, len(palette) - 1), min_size=h * w, max_size=h * w))
    grid = np.array(cells, dtype=np.uint8).reshape(h, w)
    p = puzzle_from_grid(grid, palette)
    meta = draw(st.dictionaries(st.sampled_from(["title", "author", "copyright", "license", "catalogue",
                                                 "source", "description", "x-extra"]), meta_text, max_size=4))
    givens = draw(st.lists(st.tuples(st.integers(0, h - 1), st.integers(0, w - 1)), max_size=3))
    keep_goal = draw(st.booleans())
    return p.replace(meta=meta, givens=[(r, c, int(grid[r, c])) for r, c in givens],
                     goal=grid if keep_goal else None)


WRITABLE_2D = [name for name in formats.FORMATS if formats.writable(name) and name not in formats.FORMATS_3D]
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _round_trip(p: Puzzle, name: str):
    """Write and read back; None when the format refuses the puzzle with a clear error."""
    if name == "taai-solution" and p.goal is None:
        return None
    try:
        text = formats.dumps(p, name)
    except (FormatError, ValueError) as exc:
        assert str(exc)  # refusals are explained
        return None
    return formats.loads(text, name)


@pytest.mark.parametrize("name", WRITABLE_2D)
@FAST
@given(p=puzzles())
def test_nothing_reported_dropped_means_exact_round_trip(name, p):
    back = _round_trip(p, name)
    if back is None:
        return
    assert (back.rows, back.cols) == (p.rows, p.cols)
    lost = formats.dropped(p, name)
    if name.startswith("taai"):  # tournament files number every puzzle: the reader adds the number
        assert all(back.meta[k] == v for k, v in p.meta.items() if not lost)
        back = back.replace(meta=p.meta)
    if not lost:
        assert back == p, name
    if p.goal is not None and not any("goal" in item for item in lost):
        assert np.array_equal(back.goal, p.goal)


@FAST
@given(p=puzzles())
def test_nonogen_json_keeps_everything(p):
    assert formats.dropped(p, "nonogen") == []
    assert formats.loads(formats.dumps(p, "nonogen"), "nonogen") == p


@FAST
@given(p=puzzles(bw=True, square=True))
def test_black_and_white_square_puzzles_survive_every_format(p):
    for name in WRITABLE_2D:
        back = _round_trip(p, name)
        if name != "taai-solution" or p.goal is not None:
            assert back is not None and back.same_clues(p), name


@FAST
@given(p=puzzles())
def test_non_and_xml_keep_goal_and_standard_metadata(p):
    p = p.replace(givens=(), meta={k: v for k, v in p.meta.items() if k != "x-extra"})
    xml = formats.loads(formats.dumps(p, "webpbn"), "webpbn")
    assert xml == p
    non = formats.loads(formats.dumps(p, "non"), "non")
    assert non.meta == p.meta and non.same_clues(p)
    assert (non.goal is None) == (p.goal is None) and (p.goal is None or np.array_equal(non.goal, p.goal))


@st.composite
def levels(draw):
    size = tuple(draw(st.integers(1, 4)) for _ in range(3))
    n = size[0] * size[1] * size[2]
    cells = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n))).reshape(size)
    level = puzzle3d_from_cells(cells, title=draw(meta_text))
    hide = draw(st.lists(st.booleans(), min_size=3, max_size=3))
    clues = {a: [[None if h and (i + j) % 2 else c for j, c in enumerate(r)] for i, r in enumerate(level.clues[a])]
             for a, h in zip("xyz", hide, strict=True)}
    return Puzzle3D(size, clues, goal=cells if draw(st.booleans()) else None,
                    givens=[(0, 0, 0, int(cells[0, 0, 0]))], meta=level.meta)


@FAST
@given(level=levels())
def test_nonogen_3d_round_trips(level):
    back = formats.loads(formats.dumps(level, "nonogen-3d"), "nonogen-3d")
    # Puzzle3D has no __eq__ (identity only), so compare field by field.
    assert (back.size, back.clues, back.givens, back.meta) == (level.size, level.clues, level.givens, level.meta)
    assert (back.goal is None and level.goal is None) or np.array_equal(back.goal, level.goal)


def test_3d_tokens_follow_the_contract():
    from nonogen.formats.nonogen3d import format_token, parse_token

    assert [format_token(c) for c in [(0, 1), (4, 1), (3, 2), (5, 3), None]] == ["0", "4", "3o", "5s", None]
    assert parse_token("12s", "x") == (12, 3)


def test_bundles_hold_many_puzzles():
    a = puzzle_from_grid(np.eye(3, dtype=np.uint8), title="one")
    b = puzzle_from_grid(np.ones((2, 4), dtype=np.uint8), title="two")
    text = formats.dumps_all([a, b], "non")
    assert text.count("====") == 1
    assert formats.loads_all(text, "non") == [a, b]
    with pytest.raises(FormatError, match="holds 2 puzzles"):
        formats.loads(text, "non")
    with pytest.raises(FormatError, match="one puzzle per file"):
        formats.dumps_all([a, b], "cnon")


# --- the registry: suffixes and sniffing ------------------------------------------------------


def test_every_format_is_recognised_by_content():
    p = puzzle_from_grid(np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1]], dtype=np.uint8), title="t")
    for name in WRITABLE_2D:
        text = formats.dumps(p, name)
        assert formats.sniff(text) == name, text
    g = "Tiny\n#d\n  1:# black\n: rows\n1\n1\n: columns\n2\n: end\n"
    assert formats.sniff(g) == "g"


def test_suffix_decides_and_shared_suffixes_fall_back_to_content(tmp_path):
    assert formats.format_for("a.NON") == "non" and formats.format_for("b.pbn") == "webpbn"
    path = tmp_path / "x.txt"
    path.write_text("$7\n1\n1\n")
    p = formats.load(path)
    assert p.meta == {"catalogue": "7"} and p.width == 1
    with pytest.raises(FormatError, match="suffix"):
        formats.format_for("x.weird")


# --- malformed input --------------------------------------------------------------------------

GOOD = {
    "non": "width 2\nheight 2\nrows\n1\n1\ncolumns\n2\n0\n",
    "cnon": "1 2 2\nR #ff0000\n1:R\n1:R\n2:R\n0\n",
    "nin": "2 2\n1\n1\n2\n0\n",
    "counts": "2\n2\n1\n1\n2\n0\n",
    "taai": "$1\n2\n0\n1\n1\n",
    "rowscols": '{"rows": [[1], [1]], "cols": [[2], []]}',
    "g": ": rows\n1\n1\n: columns\n2\n0\n: end\n",
    "bracket": "GRID a\nROWS\n[ 1 ]\n[ 1 ]\nCOLUMNS\n[ 2 ]\n[ ]\n",
    "webpbn": '<puzzleset><puzzle><clues type="rows"><line><count>1</count></line><line><count>1</count></line>'
              '</clues><clues type="columns"><line><count>2</count></line><line/></clues></puzzle></puzzleset>',
}

# (format, broken text, words the one-line message must contain)
BAD = [
    ("non", "width 2\nheight 2\nrows\n1\nx\ncolumns\n2\n0\n", "line 5"),
    ("non", "width 2\nheight 2\nrows\n1\n1\ncolumns\n2\n", "line 7"),  # truncated
    ("non", "width 2\nheight 2\nrows\n1\n1,0\ncolumns\n2\n0\n", "line 5"),  # zero length
    ("non", "width 2\nheight 2\nrows\n1\n1\ncolumns\n2\n0\ngoal \"0110\"\n", "line 9"),  # goal vs clues
    ("non", "height 2\nrows\n1\n1\n", "width"),
    ("non", "width two\nheight 2\n", "line 1"),
    ("cnon", "1 2 2\nR #ff0000\n1:R\n1:G\n2:R\n0\n", "line 4"),  # unknown colour
    ("cnon", "1 2 2\nR #ff0000\n1:R\n1:R\n", "line"),  # truncated
    ("cnon", "1 2 2\nR #ff00\n1:R\n1:R\n2:R\n0\n", "line 2"),
    ("cnon", "1 2 x\n", "line 1"),
    ("nin", "2 2\n1\nA\n2\n0\n", "line 3"),
    ("nin", "2 2\n1\n1\n2\n", "line"),
    ("counts", "2\n2\n1\n1\n2 0\n0\n", "line 5"),
    ("taai", "$1\n2\n0\nb\n1\n", "line 4"),
    ("taai", "$1\n2\n0\n1\n", "line"),
    ("taai", "2\n$1\n", "line 1"),
    ("rowscols", '{"rows": [[1], ["a"]], "cols": [[2], []]}', "row 2"),
    ("rowscols", '{"rows": [[1], [1]], "cols": [[2], []]', "line 1"),
    ("rowscols", '{"rows": [[1], [1]], "cols": [[2], [0, 1]]}', "column 2"),
    ("g", ": rows\n1\n1z\n: columns\n2\n0\n: end\n", "line 3"),
    ("g", ": rows\n1\n1\n: columns\n1\n1 1z\n: end\n", "line 6: column 2"),  # items known from other lines
    ("g", ": rows\n1\n", "line"),
    ("bracket", "GRID a\nROWS\n[ 1 ]\n[ x ]\n", "line 4"),
    ("webpbn", ('<puzzleset><puzzle>\n<clues type="rows"><line><count color="red">1</count></line></clues>'
                '<clues type="columns"><line><count>1</count></line></clues></puzzle></puzzleset>'), "line 2"),
    ("webpbn", "<puzzleset><puzzle>\n<clues type='rows'>\n</puzzle>", "line 3"),
    ("webpbn", ('<puzzleset><puzzle><clues type="rows"><line><count>one</count></line></clues>'
                '<clues type="columns"><line><count>1</count></line></clues></puzzle></puzzleset>'), "line 1"),
    ("nonogen", '{"format": "nonogen-2d", "rows": [[1]], "cols": [[1]], "goal": ["x"]}', "goal"),
    ("nonogen-3d", ('{"format": "nonogen-3d", "size": [1, 1, 1], "clues": {"x": [["1q"]], "y": [[null]], '
                    '"z": [[null]]}}'), "clues.x"),
]


@pytest.mark.parametrize("name", sorted(GOOD))
def test_good_minimal_files_read(name):
    p = formats.loads(GOOD[name], name)
    assert (p.height, p.width) == (2, 2) and p.rows[0][0][0] == 1


@pytest.mark.parametrize("name,text,where", BAD)
def test_malformed_input_names_the_line(name, text, where):
    with pytest.raises(FormatError) as info:
        formats.loads(text, name)
    message = str(info.value)
    assert where in message and "\n" not in message


@pytest.mark.parametrize("name", sorted(GOOD))
def test_empty_and_garbage_input_fail_cleanly(name, tmp_path):
    for text in ("", "   \n", "\u00e9\u00e8 garbage ;;; {{{"):
        with pytest.raises(FormatError):
            formats.loads(text, name)
    junk = tmp_path / f"junk.{name}"
    junk.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(FormatError, match="binary"):
        formats.load(junk, name)


def test_files_that_are_no_puzzle_fail_with_the_path(tmp_path):
    with pytest.raises(FormatError, match="empty"):
        (tmp_path / "e.non").write_text("")
        formats.load(tmp_path / "e.non")
    with pytest.raises(FormatError, match="folder"):
        formats.load(tmp_path)
    bad = tmp_path / "b.non"
    bad.write_text(BAD[0][1])
    with pytest.raises(FormatError) as info:
        formats.load(bad)
    assert str(info.value).startswith(f"{bad}:5:")


def test_oversized_puzzles_are_refused():
    with pytest.raises(LimitError, match="2000"):
        formats.loads("width 3000\nheight 2\n", "non")
    with pytest.raises(LimitError):
        formats.loads("2001\n1\n", "counts")


# --- XML security -----------------------------------------------------------------------------

XXE = """<?xml version="1.0"?>
<!DOCTYPE puzzleset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<puzzleset><puzzle><title>&xxe;</title><clues type="rows"><line><count>1</count></line></clues>
<clues type="columns"><line><count>1</count></line></clues></puzzle></puzzleset>"""

LAUGHS = '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n' + "".join(
    f'<!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10 if i > 1 else "&lol;" * 10}">\n' for i in range(1, 10)
) + "]>\n<puzzleset><puzzle><title>&lol9;</title></puzzle></puzzleset>"


def test_external_entities_are_never_resolved():
    with pytest.raises(FormatError, match="entity") as info:
        formats.loads(XXE, "webpbn")
    assert "root:" not in str(info.value)


def test_entity_bombs_are_refused_before_expanding():
    with pytest.raises(FormatError, match="line 3"):
        formats.loads(LAUGHS, "webpbn")


def test_plain_doctype_is_tolerated_and_not_fetched():
    text = GOOD["webpbn"].replace("<puzzleset>", '<!DOCTYPE pbn SYSTEM "http://127.0.0.1:9/pbn.dtd">\n<puzzleset>', 1)
    assert formats.loads(text, "webpbn").width == 2


# --- the convert command ----------------------------------------------------------------------


@pytest.fixture
def nonogen_cli():
    """``nonogen.cli.main`` (it imports only the command it runs)."""
    return cli.main


def test_convert_round_trips_and_reports_drops(nonogen_cli, tmp_path, capsys):
    src = tmp_path / "p.json"
    p = puzzle_from_grid(np.array([[1, 2], [0, 1]], dtype=np.uint8),
                         (Color("white", "#ffffff", "."), Color("red", "#ff0000", "r"), Color("blue", "#0000ff", "b")),
                         givens=[(0, 0, 1)], title="T")
    formats.dump(p, src)
    assert nonogen_cli(["convert", str(src), str(tmp_path / "p.xml"), "--json"]) == 0
    out, err = capsys.readouterr()
    assert '"dropped": ["1 given cells"]' in out and "given cells" in err
    assert formats.load(tmp_path / "p.xml") == p.replace(givens=())
    assert nonogen_cli(["convert", str(tmp_path / "p.xml"), str(tmp_path / "p.cnon")]) == 0
    assert formats.load(tmp_path / "p.cnon").same_clues(p)
    assert "goal" in capsys.readouterr().err


def test_convert_refuses_to_overwrite_and_bad_input(nonogen_cli, tmp_path, capsys):
    src = tmp_path / "a.non"
    src.write_text(GOOD["non"])
    out = tmp_path / "b.cnon"
    out.write_text("keep me")
    assert nonogen_cli(["convert", str(src), str(out)]) == 2
    assert out.read_text() == "keep me"
    assert nonogen_cli(["convert", str(src), str(out), "--force"]) == 0
    bad = tmp_path / "bad.non"
    bad.write_text(BAD[0][1])
    capsys.readouterr()
    assert nonogen_cli(["convert", str(bad), str(tmp_path / "c.nin")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{bad}:5:" in err
    assert not (tmp_path / "c.nin").exists()
    assert nonogen_cli(["convert", str(src), str(tmp_path / "c.txt"), "--to", "nope"]) == 2
    assert nonogen_cli(["convert", str(tmp_path / "cnon.cnon"), str(tmp_path / "d.non")]) == 2
    colour = tmp_path / "c.cnon"
    colour.write_text("2 2 1\nR #ff0000\nB #0000ff\n1:R,1:B\n1:R\n1:B\n")
    capsys.readouterr()
    assert nonogen_cli(["convert", str(colour), str(tmp_path / "c.nin")]) == 2
    assert "black-and-white" in capsys.readouterr().err


# --- dialects found in the wild -----------------------------------------------------------------

COLOUR_NON = """width 3
height 2
color r #ff0000
color b #0000ff
rows
1r,2b
1r
columns
2r
1b
1b
goal "rbb
r00"
"""


def test_non_colour_extension_and_goal_split_over_lines():
    p = formats.loads(COLOUR_NON, "non")
    assert [c.rgb for c in p.palette[1:]] == ["#ff0000", "#0000ff"]
    assert p.grid_to_text(p.goal) == ["rbb", "r.."]
    unquoted = COLOUR_NON.replace('goal "rbb\nr00"', "goal\nrbb\nr00")
    assert formats.loads(unquoted, "non") == p
    assert formats.loads(formats.dumps(p, "non"), "non") == p


def test_non_empty_line_as_blank_and_unknown_keys_ignored():
    text = "width 2\nheight 2\nfoo bar\nrows\n\n2\ncolumns\n1\n1\n"
    p = formats.loads(text, "non")
    assert p.rows == ((), ((2, 1),))


def test_errors_in_bundles_name_the_file_line():
    good = formats.dumps(puzzle_from_grid(np.eye(2, dtype=np.uint8)), "non")
    bad = good.replace("rows\n1\n", "rows\nq\n")
    text = good + "====\n" + bad
    line = text.splitlines().index("q") + 1
    with pytest.raises(FormatError, match=f"line {line}:"):
        formats.loads_all(text, "non")


def test_xml_declared_encoding_and_run_together_image_rows():
    text = ('<?xml version="1.0" encoding="ISO-8859-1"?>\n<puzzleset><puzzle defaultcolor="black">'
            "<title>caf\u00e9</title>"
            '<color name="white" char=".">fff</color><color name="black" char="X">000</color>'
            '<clues type="rows"><line><count>1</count></line><line/></clues>'
            '<clues type="columns"><line><count>1</count></line><line/></clues>'
            "<solution><image>|X.||..|</image></solution></puzzle></puzzleset>")
    p = formats.loads(text, "webpbn")
    assert p.meta["title"] == "café" and p.grid_to_text(p.goal) == ["X.", ".."]


# --- hostile input (regressions of the fuzzing campaign, scripts/fuzz.py) ---------------------------

HUGE = "9" * 5000
# A clue number replaced by a 5000-digit one, per text format: Python's int() refuses more than 4300 digits.
HUGE_NUMBER = {
    "non": ("width 2\nheight 2\nrows\n1\n" + HUGE + "\ncolumns\n2\n0\n", 5),
    "cnon": ("1 2 2\nR #ff0000\n1:R\n" + HUGE + ":R\n2:R\n0\n", 4),
    "nin": ("2 2\n1\n1 " + HUGE + "\n2\n0\n", 3),
    "counts": ("2\n" + HUGE + "\n1\n1\n2\n0\n", 2),
    "taai": ("$1\n2\n0\n1\n" + HUGE + "\n", 5),
    "g": (": rows\n1\n" + HUGE + "\n: columns\n2\n0\n: end\n", 3),
    "bracket": ("GRID a\nROWS\n[ 1 ]\n[ " + HUGE + " ]\nCOLUMNS\n[ 2 ]\n[ ]\n", 4),
    "webpbn": ('<puzzleset><puzzle><clues type="rows"><line><count>1</count></line><line><count>' + HUGE
               + '</count></line>\n</clues><clues type="columns"><line><count>2</count></line><line/></clues>'
               "</puzzle></puzzleset>", 1),
}


@pytest.mark.parametrize("name", sorted(HUGE_NUMBER))
def test_huge_numbers_are_refused_on_their_line(name):
    """A 4301-digit number crashed 11 of 12 readers with ValueError (int's digit limit) instead of naming the line."""
    text, line = HUGE_NUMBER[name]
    with pytest.raises(FormatError, match=f"line {line}: .*5000 digits") as info:
        formats.loads(text, name)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("text,words", [
    ('{"rows": [[1], [' + HUGE + ']], "cols": [[1], [1]]}', "row 2: .*5000 digits"),
    ('{"rows": [[1], [NaN]], "cols": [[1], [1]]}', "row 2: .*NaN"),
    ('{"rows": [[1], [1e400]], "cols": [[1], [1]]}', "row 2: .*Infinity"),
    ('{"rows": [[1], [1.0]], "cols": [[1], [1]]}', "row 2: .*1.0"),
    ('{"rows": [[1], 3], "cols": [[1], [1]]}', "row 2: expected a list"),
])
def test_rowscols_json_refuses_numbers_it_cannot_use(text, words):
    """rows/cols JSON with a 5,000-digit number raised ValueError (integer string conversion) from json.loads."""
    with pytest.raises(FormatError, match=words):
        formats.loads(text, "rowscols")


NG2 = ('{"format": "nonogen-2d", "palette": [{"name": "white", "rgb": "#ffffff", "char": "."}, '
       '{"name": "red", "rgb": "#ff0000", "char": "r"}],\n"rows": %s,\n"cols": [[[1, "red"]]]}')


@pytest.mark.parametrize("rows,message", [
    ("[5]", 'line 2: rows[0]: expected a list of blocks, got 5'),
    ("[[1.5]]", "line 2: rows[0][0]: expected a number or [length, colour], got 1.5"),
    ("[[[1, [\"red\"]]]]", "line 2: rows[0][0][1]: expected a colour name, got a list of 1 item"),
    ('[[[1, "x"]]]', 'line 2: rows[0][0]: colour "x" is not in the palette'),
    ('[["x"]]', 'line 2: rows[0][0]: expected a number or [length, colour], got "x"'),
    ("7", "line 2: rows: expected a list of 1 to 2000 clue lines, got 7"),
    ("[[" + HUGE + "]]", "line 2: rows[0][0]: expected a number or [length, colour], got a number of 5000 digits"),
    ("[[true]]", "line 2: rows[0][0]: expected a number or [length, colour], got true"),
])
def test_nonogen_json_types_are_checked_by_the_schema_with_path_and_line(rows, message):
    """A number where a list belongs ('int' object is not iterable) or a list where a colour name belongs
    (unhashable type: 'list') escaped the nonogen JSON reader as TypeErrors."""
    with pytest.raises(FormatError) as info:
        formats.loads(NG2 % rows, "nonogen")
    assert message in str(info.value) and "\n" not in str(info.value)


def test_long_clue_lists_are_refused_before_any_work():
    """A nonogen JSON whose clue line held a very long list peaked at 929 MB and 13.5 s in verify before it was
    refused; a 5x5x5 3D level the same way at 427 MB. Limits must come before the work."""
    import time

    flat = '{"format": "nonogen-2d", "rows": [[1], [' + ",".join(["1"] * 1_000_000) + ']], "cols": [[1], [1]]}'
    clues = {a: [["1"] * 5 for _ in range(5)] for a in "xyz"}
    clues["y"][2] = ["1"] * 1_000_000
    level = json.dumps({"format": "nonogen-3d", "size": [5, 5, 5], "clues": clues})
    for text, name, words in ((flat, "nonogen", "rows\\[1\\]: expected at most 2,000 items"),
                              (level, "nonogen-3d", "clues.y\\[2\\]: expected at most 500 items")):
        start = time.perf_counter()
        with pytest.raises(FormatError, match=words):
            formats.loads(text, name)
        assert time.perf_counter() - start < 3  # parsing the JSON is most of it; memory: tests/test_fuzz.py


@pytest.mark.parametrize("name,text,message", [
    ("non", "width 5\nheight 2001\n", "p.non:2: the height is 2001"),
    ("non", "height 5\nwidth 2001\n", "p.non:2: the width is 2001"),
    ("non", "width 2001\nheight 5\n", "p.non:1: the width is 2001"),
    ("counts", "2001\n5\n1\n", "p.counts:1: the number of rows is 2001"),
    ("counts", "5\n2001\n1\n", "p.counts:2: the number of columns is 2001"),
    ("cnon", "1 5 2001\nR #ff0000\n", "p.cnon:1: puzzle is 5x2001"),
    ("rowscols", '{"rows": [[1]],\n"cols": [' + ",".join(["[]"] * 2001) + "]}", "p.rowscols:2: more than 2,000 cols"),
    ("nonogen-3d", '{"format": "nonogen-3d",\n"size": [200, 200, 200], "clues": {"x": [], "y": [], "z": []}}',
     "p.nonogen-3d:2: level is 200x200x200"),
])
def test_size_limits_name_the_file_line_and_the_right_side(tmp_path, name, text, message):
    """The size refusal ("puzzle is 2001x1; ...") named neither file nor line, and when the width came first
    it reported a height of 1 that the file never said."""
    path = tmp_path / f"p.{name}"
    path.write_text(text)
    with pytest.raises(LimitError) as info:
        formats.load(path, name)
    assert isinstance(info.value, FormatError) and str(info.value).startswith(str(tmp_path))
    assert message in str(info.value)


def test_level_with_every_clue_hidden_reads():
    """A 3D level with every clue hidden crashed even at 1x1x1; the reader was not the part at fault."""
    p = formats.loads('{"format": "nonogen-3d", "size": [1, 1, 1], "clues": {"x": [[null]], "y": [[null]], '
                      '"z": [[null]]}}', "nonogen-3d")
    assert p.n_clues == 0 and p.size == (1, 1, 1)


def test_bom_crlf_and_surrounding_blanks_do_not_change_a_json_puzzle():
    """A BOM before a JSON puzzle was an 'invalid JSON' error; CRLF must not move error lines either."""
    text = formats.dumps(puzzle_from_grid(np.eye(3, dtype=np.uint8)), "nonogen")
    assert formats.loads("\ufeff\r\n" + text.replace("\n", "\r\n"), "nonogen").width == 3
    broken = text.replace('"rows": [\n    [1]', '"rows": [\n    ["x"]').replace("\n", "\r\n")
    with pytest.raises(FormatError, match=r"line 8: rows\[0\]\[0\]"):
        formats.loads(broken, "nonogen")


def test_schema_describes_both_json_formats():
    """The shipped schema is valid draft 2020-12, picks the branch by "format" and holds the 3D colour extension."""
    import jsonschema

    from nonogen.formats._json import schema

    s = schema()
    jsonschema.Draft202012Validator.check_schema(s)
    v = jsonschema.Draft202012Validator(s)
    palette = (Color("white", "#ffffff", "."), Color("red", "#ff0000", "r"), Color("blue", "#0000ff", "b"))
    colour = puzzle_from_grid(np.array([[1, 2], [0, 1]], dtype=np.uint8), palette, givens=[(0, 1, 2)], title="t")
    assert v.is_valid(json.loads(formats.dumps(colour, "nonogen")))
    level = json.loads(formats.dumps(Puzzle3D((1, 1, 2), {"x": [[(1, 1), None]], "y": [[(1, 1), (0, 1)]],
                                                          "z": [[(1, 1)]]}), "nonogen-3d"))
    assert v.is_valid(level)
    level.update(palette=[{"name": "empty", "rgb": "#ffffff", "char": "."}, {"name": "red", "rgb": "#ff0000",
                                                                              "char": "r"}], colors="r.")
    assert v.is_valid(level) and formats.loads(json.dumps(level), "nonogen-3d").size == (1, 1, 2)
    assert not v.is_valid(dict(level, format="nonogen-2d")) and not v.is_valid(dict(level, colors=5))
    with pytest.raises(FormatError, match="'colors' must be 2 palette chars"):
        formats.loads(json.dumps(dict(level, colors="rx")), "nonogen-3d")


@pytest.mark.parametrize("text,words", [
    ("board 99999999999x2\n", ":1: board 99999999999x2: each side"),
    ("board 3x2\npiece A\n#\nplace A 1 " + HUGE + "\n#\n", ":4: expected 'place C ROW COL'"),
])
def test_packing_levels_refuse_huge_numbers_before_building(tmp_path, text, words):
    """'board WxH' built W*H characters before the board limit was checked; 'place' fed 5000 digits to int()."""
    from nonogen.pack import load

    path = tmp_path / "l.pack"
    path.write_text(text)
    with pytest.raises(FormatError, match=words) as info:
        load(path)
    assert str(info.value).startswith(str(path))


def test_many_tiny_puzzles_in_one_file_are_refused_while_reading():
    """A bundle of endlessly repeated tiny puzzles was read whole before any limit applied."""
    with pytest.raises(LimitError, match="10,000 puzzles"):
        formats.loads_all("GRID\nROWS\n[ 1 ]\nCOLUMNS\n[ 1 ]\n" * 10_001, "bracket")


# --- other people's Picross 3D levels ----------------------------------------------------------

# A 3 wide, 2 high, 2 deep level in the nathsou/Picross3D game's JSON, written by hand from that project's
# conventions: j counts up from the bottom, k towards the viewer. The bottom layer is full; on top of it one
# cube at the left of the front row. Hints: [0][j][k] along i, [1][i][k] along j, [2][i][j] along k.
NATHSOU_STEP = """{
  "name": "Step",
  "dims": [3, 2, 2],
  "hints": [
    [[{"num": 3, "type": 0}, {"num": 3, "type": 0}], [{"num": 0, "type": 0}, {"num": 1, "type": 0}]],
    [[{"num": 1, "type": 0}, {"num": 2, "type": 0}], [null, {"num": 1, "type": 0}], [{"num": 1, "type": 0}, null]],
    [[{"num": 2, "type": 0}, {"num": 1, "type": 0}], [{"num": 2, "type": 0}, null], [null, {"num": 0, "type": 0}]]
  ]
}
"""

# The same level in ytakata69/processing-picross3d's text: FRONT (rows top down, x across), SIDE (rows top
# down, z from the front), TOP (rows from the back, x across), then the answer one slice at a time, front first.
YTAKATA_STEP = """# LABEL Step

# FRONT
1 . 0
2 2 .

# SIDE
1 0
3 3

# TOP
1 1 1
2 . 1

# ANSWER
1 . .
1 1 1

. . .
1 1 1
"""


def step_cells() -> np.ndarray:
    """The Step level's cubes in nonogen's axes: ``[x, y, z]``, y = 0 the top layer, z = 0 the front."""
    cells = np.zeros((3, 2, 2), dtype=bool)
    cells[:, 1, :] = True
    cells[0, 0, 0] = True
    return cells


def test_picross3d_nathsou_loads_the_games_axes_as_nonogens():
    """nathsou/Picross3D levels were 'skipped' by verify: no reader knew their JSON."""
    level = formats.loads(NATHSOU_STEP, "picross3d-nathsou")
    assert level.size == (3, 2, 2) and level.meta["title"] == "Step"
    assert formats.sniff(NATHSOU_STEP) == "picross3d-nathsou"
    result = verify(level)
    assert result.status == "unique" and np.array_equal(result.solution, step_cells())
    assert level.clues["y"][1][1] is None and level.clues["z"][2][1] is None  # the game's nulls stay hidden


def test_picross3d_ytakata_loads_views_and_answer():
    level = formats.loads(YTAKATA_STEP, "picross3d-ytakata")
    assert formats.sniff(YTAKATA_STEP) == "picross3d-ytakata"
    assert level.meta["title"] == "Step" and np.array_equal(level.goal, step_cells())
    assert level.clues["y"][0][0] == (2, 1) and level.clues["y"][0][1] == (1, 1)  # TOP's last row is the front
    assert verify(level).status == "unique"


@pytest.mark.parametrize("name", ["picross3d-nathsou", "picross3d-ytakata"])
def test_picross3d_formats_round_trip_random_levels(name):
    rng = np.random.default_rng(7)
    for _ in range(20):
        size = tuple(int(v) for v in rng.integers(1, 6, size=3))
        level = puzzle3d_from_cells(rng.random(size) < 0.5, title="Random")
        hidden = {a: [[None if rng.random() < 0.3 else c for c in row] for row in level.clues[a]] for a in "xyz"}
        level = Puzzle3D(level.size, hidden, goal=level.goal, meta=level.meta)
        back = formats.loads(formats.dumps(level, name), name)
        assert back.size == level.size and all(back.clues[a] == level.clues[a] for a in "xyz")
        assert back.meta["title"] == "Random"
        if name == "picross3d-ytakata":
            assert np.array_equal(back.goal, level.goal)


def test_picross3d_levels_are_verified_solved_converted_and_played_from_the_command_line(tmp_path, capsys):
    (tmp_path / "step.json").write_text(NATHSOU_STEP)
    (tmp_path / "step.txt").write_text(YTAKATA_STEP)
    assert cli.main(["verify", str(tmp_path), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert sorted((r["format"], r["status"]) for r in records) == [("picross3d-nathsou", "unique"),
                                                                   ("picross3d-ytakata", "unique")]
    assert cli.main(["solve", str(tmp_path / "step.json")]) == 0
    assert capsys.readouterr().out.startswith("y=0 (top)\n...\n#..\n")  # back row first, the front row last
    assert cli.main(["convert", str(tmp_path / "step.json"), str(tmp_path / "step3d.json")]) == 0
    assert formats.load(tmp_path / "step3d.json").clues == formats.load(tmp_path / "step.json").clues
    assert cli.main(["convert", str(tmp_path / "step3d.json"), str(tmp_path / "back.txt"), "--to",
                     "picross3d-ytakata"]) == 0
    assert formats.sniff((tmp_path / "back.txt").read_text()) == "picross3d-ytakata"
    assert cli.main(["render", str(tmp_path / "step.txt"), "-o", str(tmp_path / "step.html")]) == 0
    page = (tmp_path / "step.html").read_text()
    assert '"size":[3,2,2]' in page and '"name":"Step"' in page
    capsys.readouterr()


@pytest.mark.parametrize("name,text,line,words", [
    ("picross3d-nathsou", '{"dims": [2, 2],\n "hints": []}', 1, "three positive whole numbers"),
    ("picross3d-nathsou", '{"dims": [1, 1, 1],\n "hints": [[[null]],\n [[{"num": 2, "type": 0}]], [[null]]]}', 3,
     "hints[1][0][0]: 2 cubes"),
    ("picross3d-nathsou", '{"dims": [1, 1, 1], "hints": [[[null]], [[null, null]],\n [[null]]]}', 1,
     "hints[1][0] must be a list of 1 hints"),
    ("picross3d-nathsou", '{"dims": [1, 1, 1],\n "hints": [[[{"num": 1, "type": 7}]], [[null]], [[null]]]}', 2,
     "type\": 0, 1 or 2"),
    ("picross3d-ytakata", "# FRONT\n1 1\n\n# SIDE\n1\n\n# TOP\n1 x\n", 8, "got 'x'"),
    ("picross3d-ytakata", "# FRONT\n1 1\n\n# SIDE\n1\n\n# TOP\n1\n", 8, "TOP section must be 1 lines of 2"),
    ("picross3d-ytakata", "# FRONT\n1\n\n# SIDE\n[1]\n\n# TOP\n1\n", 5, "[1] cannot be the clue of a line of 1"),
    ("picross3d-ytakata", "# FRONT\n1\n\n# SIDE\n1\n", 1, "three sections"),
])
def test_picross3d_formats_refuse_bad_files_with_the_line(name, text, line, words):
    with pytest.raises(FormatError) as caught:
        formats.loads(text, name)
    assert caught.value.line == line and words in caught.value.message, str(caught.value)


@needs_shared
def test_picross3d_ytakata_writes_the_published_kusano_example():
    """The Kusano et al. example (transcribed from ytakata69's text) comes back as the same clues and answer."""
    level = formats.load(SHARED_DATA / "picross3d" / "kusano2010.json")
    text = formats.dumps(level, "picross3d-ytakata")
    assert "(4) [3]   ." in text and "  . (3) (3)" in text  # rows of the paper's TOP and FRONT views
    back = formats.loads(text, "picross3d-ytakata")
    assert back.clues == level.clues and np.array_equal(back.goal, level.goal)


# --- hostile text: lone surrogates and control characters (issue 26, item 2) ------------------------------

HOSTILE_TEXT = json.dumps({
    "format": "nonogen-2d", "version": 1, "width": 2, "height": 2,
    "palette": [{"name": "white", "rgb": "#ffffff", "char": "."},
                {"name": "re\u0000d\ud800", "rgb": "#ff0000", "char": "r"}],
    "rows": [[2], [1]], "cols": [[2], [1]],
    "title": "T\ud800it\u000cle\u0000", "author": "a\rb\u0085c\u007f\ufffe", "meta": {"x\u0001": "y\udfff"},
})


def _xml_safe(text: str) -> bool:
    """What XML 1.0 allows (and UTF-8 can encode): no surrogates, no control character but tab and newline."""
    return not any(0xD800 <= ord(c) <= 0xDFFF or c in "\ufffe\uffff" or (ord(c) < 32 and c not in "\t\n")
                   or 0x7F <= ord(c) <= 0x9F for c in text)


def test_loads_all_replaces_surrogates_and_control_characters():
    """A lone surrogate in a title made every writer die (exit 5); NUL and form feed made unreadable .xml/.non."""

    puzzle = formats.loads(HOSTILE_TEXT, "nonogen")
    texts = [*puzzle.meta, *puzzle.meta.values(), *(c.name for c in puzzle.palette)]
    assert all(_xml_safe(t) for t in texts), texts
    assert puzzle.meta["title"] == "T\ufffdit le " and puzzle.palette[1].name == "re d\ufffd"
    for fmt in ("nonogen", "non", "cnon", "webpbn", "nin", "counts", "rowscols", "bracket", "taai"):
        text = formats.dumps(puzzle, fmt)
        text.encode("utf-8")  # strict: every written file is valid UTF-8
        back = formats.loads_all(text, formats.sniff(text))
        assert len(back) == 1 and back[0].clue_hash() == puzzle.clue_hash(), fmt
        if fmt in ("nonogen", "non", "webpbn"):
            assert back[0].meta.get("title") == puzzle.meta["title"], fmt


def _cli(*argv) -> tuple[int, str, str]:
    """The command in its own process: its real stdout and stderr encode what it prints."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "nonogen", *map(str, argv)], capture_output=True,
                          cwd=Path(__file__).resolve().parents[1], timeout=300)
    return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8", "replace")


def test_verify_and_render_survive_hostile_text_and_file_names(tmp_path):
    """--json, --csv and --resume died with a traceback on a lone surrogate (exit 5); the SVG was not XML."""
    import xml.etree.ElementTree as ET

    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "hostile.json").write_text(HOSTILE_TEXT)
    odd_name = folder / os.fsdecode(b"odd-\xff-name.non")  # not UTF-8: Python names it with a lone surrogate
    odd_name.write_text("width 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\n")
    out = tmp_path / "out"
    out.mkdir()
    code, stdout, stderr = _cli("verify", folder, "--json", "--csv", out / "t.csv", "--resume", out / "r.jsonl")
    assert code == 0 and "Traceback" not in stderr, stderr
    recs = [json.loads(line) for line in stdout.splitlines()]
    assert len(recs) == 2 and {r["status"] for r in recs} == {"unique"}
    assert [json.loads(line)["file"] for line in (out / "r.jsonl").read_text("utf-8").splitlines()] == \
        [r["file"] for r in recs]
    assert (out / "t.csv").read_text("utf-8").count("\n") == 3
    code, stdout, stderr = _cli("verify", folder, "--resume", out / "r.jsonl")  # resumed: nothing redone
    assert code == 0 and "2 from the resumed run" in stderr, stderr
    code, _, stderr = _cli("render", folder / "hostile.json", "-o", out / "p.svg")
    assert code == 0, stderr
    ET.parse(out / "p.svg")  # well-formed


def test_taai_dumps_never_reads_back_as_a_solution_file():
    """`convert --to taai` wrote 8 of 33 square puzzles so that they read back as a TAAI *solution* and failed.

    Every black-and-white grid of sides 1 to 3 (and a 4x4 sample of them): the
    puzzle file sniffs as ``taai`` and gives the same clues, the solution file
    sniffs as ``taai-solution`` and gives the same grid.
    """
    import itertools

    grids = [np.array(bits, dtype=np.uint8).reshape(n, n)
             for n in (1, 2, 3) for bits in itertools.product((0, 1), repeat=n * n)]
    rng = np.random.default_rng(7)
    grids += [(rng.random((4, 4)) < 0.5).astype(np.uint8) for _ in range(200)]
    for grid in grids:
        puzzle = puzzle_from_grid(grid)
        text = formats.dumps(puzzle, "taai")
        assert formats.sniff(text) == "taai", text
        assert formats.loads(text, formats.sniff(text)).same_clues(puzzle), text
        solution = formats.dumps(puzzle.replace(goal=grid), "taai-solution")
        assert formats.sniff(solution) == "taai-solution", solution
        assert (formats.loads(solution, "taai-solution").goal == grid).all()


# --- readers that guessed (issue 26, item 8) ----------------------------------------------------------------

TRIANGULAR_G = """#t
#d
   0:   #FFFFFF   white
   a:a  #000000   black
: TopLeft
1a
2a
: BottomLeft
2a
1a
: Bottom
1a
2a
: BottomRight
2a
1a
: TopRight
1a
2a
: Top
2a
1a
"""


def test_g_refuses_triangular_grids_naming_the_line():
    """A triangular-grid .g (number-loom's triddler blob.g) was read as a 3x3 square puzzle and called unsolvable."""
    with pytest.raises(FormatError, match="line 1: .*triangular"):
        formats.loads(TRIANGULAR_G, "g")
    six_sections = TRIANGULAR_G.replace("#t\n", "")  # no #t, but six ':' sections: not rows, columns, end
    with pytest.raises(FormatError, match="line 13: a fourth ':' section.*six"):
        formats.loads(six_sections, "g")
    assert formats.loads("T\n: rows\n1\n: columns\n1\n: end\n", "g").width == 1


def _bundle_records(tmp_path, name: str, text: str, fmt=None) -> list[dict]:
    from nonogen.batch import verify_paths

    path = tmp_path / name
    path.write_text(text)
    recs = verify_paths([path], executor="serial", timeout=30, format=fmt)
    return sorted(recs, key=lambda r: r.get("member", 0))


@pytest.mark.parametrize("name,good,bad_line", [
    ("b.txt", "$1\n2\n1\n2\n1\n", "$2 x"),
    ("b.txt", "$1\n2\n1\n2\n1\n", "oops, not a clue"),
    ("b.txt", "GRID a\nROWS\n[2]\n[1]\nCOLUMNS\n[2]\n[1]\n", "GRlD typo"),
    ("b.non", "width 1\nheight 1\nrows\n1\ncolumns\n1\n", "====="),
])
def test_members_keep_the_neighbours_of_a_bad_line(tmp_path, name, good, bad_line):
    """In a bundle, one bad line in place of a puzzle's first line swallowed the valid puzzle before it.

    The bad line starts a member of its own (its error names the line); the
    puzzles before and after it are read. So does junk before the first puzzle.
    """
    opener = good.split("\n")[0]
    sep = "====\n" if name.endswith(".non") else ""  # .non bundles separate puzzles, the others open each one
    second = good if sep else good.split("\n", 1)[1]  # the bad line stands where the separator or opener was
    text = good + bad_line + "\n" + second + sep + good
    recs = _bundle_records(tmp_path, name, text)
    assert [r["status"] for r in recs] == ["unique", "error", "unique"], recs
    bad_at = text.split("\n").index(bad_line) + 1
    assert f"{name}:{bad_at}:" in recs[1]["message"], recs[1]["message"]
    if not sep:  # junk before the first opener: an error of its own, the puzzles after it read
        recs = _bundle_records(tmp_path, name, "junk line\n" + good + good.replace(opener, opener.replace("1", "2")),
                               fmt="taai" if opener.startswith("$") else "bracket")
        assert [r["status"] for r in recs] == ["error", "unique", "unique"], recs
        assert f"{name}:1:" in recs[0]["message"]


@pytest.mark.parametrize("name,text", [
    ("cnon", "1 2 2\nR #ff0000\n2001:R\n1:R\n1:R\n1:R\n"),
    ("non", "width 2\nheight 1\nrows\n2001\ncolumns\n1\n1\n"),
])
def test_loads_refuses_a_block_longer_than_any_line(name, text):
    """A .cnon clue of 2001 cells read fine, but its nonogen JSON could not be read back (the fuzz round trip)."""
    with pytest.raises(LimitError, match="block of 2,001 cells"):
        formats.loads(text, name)


@pytest.mark.parametrize("name", ["g", "non", "nonogen"])
def test_loads_cuts_metadata_so_every_writer_reads_back(name):
    """A .g whose title was a 100,000-character line wrote a .non (and a bracket file) that was no longer
    recognised by its content: the clues came after the part sniffing reads (the fuzz round trip)."""

    long = "T" * 100_000
    text = {"g": f"{long}\n: rows\n1\n: columns\n1\n: end\n",
            "non": f'title "{long}"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n',
            "nonogen": json.dumps({"format": "nonogen-2d", "version": 1, "width": 1, "height": 1, "rows": [[1]],
                                   "cols": [[1]], "title": long})}[name]
    puzzle = formats.loads(text, name)
    assert len(puzzle.meta["title"]) == 2000 and puzzle.meta["title"].endswith("\u2026")
    for fmt in ("non", "bracket", "webpbn", "nonogen"):
        written = formats.dumps(puzzle, fmt)
        assert formats.sniff(written) == fmt and formats.loads(written, fmt).clue_hash() == puzzle.clue_hash()


def _json_mutants(value, path=()):
    """Every document with one value (or key's value) replaced by a value of another JSON type."""
    for other in ([], {}, "x", 1.5, -1, None, True, [[]], {"num": []}):
        if other != value:
            yield path, other
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        yield from _json_mutants(child, (*path, key))


def _replaced(value, path, new):
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replaced(value[path[0]], path[1:], new)
    return copy


@pytest.mark.parametrize("fmt", ["nonogen", "nonogen-3d", "picross3d-nathsou", "rowscols"])
def test_json_readers_refuse_a_value_of_any_wrong_type_in_one_line(fmt):
    """A nathsou hint with ``"type": []`` gave ``internal error: TypeError: unhashable`` (exit 5): every
    value of a valid document, replaced by a value of each other JSON type, is read or refused as a FormatError."""
    import json as _json

    import numpy as np

    from nonogen import puzzle3d_from_cells, puzzle_from_grid

    if fmt in formats.FORMATS_3D:
        cells = np.zeros((2, 3, 2), bool)
        cells[0, :, 0] = cells[1, 1, :] = True
        puzzle = puzzle3d_from_cells(cells, title="Step")
        if fmt == "picross3d-nathsou":
            puzzle = puzzle.replace(goal=None)
    else:
        grid = np.array([[1, 0, 1], [0, 1, 1]], dtype=np.uint8)
        puzzle = puzzle_from_grid(grid).replace(meta={"title": "T"}, goal=None if fmt == "rowscols" else grid)
    document = _json.loads(formats.dumps(puzzle, fmt))
    tried = 0
    for path, new in _json_mutants(document):
        text = _json.dumps(_replaced(document, path, new))
        tried += 1
        try:
            formats.loads_all(text, fmt)
        except FormatError as exc:
            assert "\n" not in str(exc), str(exc)
    assert tried > 50


def test_convert_says_what_it_wrote(tmp_path, capsys):
    """`convert` printed nothing, while every other writer says what it wrote; a summary said "1 puzzles"."""
    out = tmp_path / "heart.xml"
    heart = Path(__file__).resolve().parents[1] / "samples" / "puzzles" / "heart.non"
    assert cli.main(["convert", str(heart), str(out)]) == 0
    assert capsys.readouterr().err.strip() == f"{out}: 1 puzzle written as webpbn"
    assert cli.main(["verify", str(out)]) == 0
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith("1 puzzle: 1 unique")


def test_non_reports_a_bad_block_at_its_first_line_though_tokens_are_parsed_once_per_file():
    """The .non reader parses each distinct clue token once per file (half of reading 6,746 small files went to
    parsing the same few tokens again on every line): a bad token is still reported at the first line holding it."""
    text = "width 3\nheight 3\nrows\n1 1\n3\n1\ncolumns\n2\n1 1?\n1 1?\n"
    with pytest.raises(FormatError, match=r"line 9: column 2: expected blocks like 3 or 3a, got .1\?."):
        formats.loads(text, "non")
    good = formats.loads("width 3\nheight 3\nrows\n1 1\n3\n1\ncolumns\n2\n1 1\n2\n", "non")
    assert good.rows == (((1, 1), (1, 1)), ((3, 1),), ((1, 1),)) and good.cols[1] == ((1, 1), (1, 1))


def test_a_file_is_read_whole_up_to_the_limit_whatever_size_it_reports(tmp_path):
    """read_text asks for the size the file reports (and one byte more); the limit and the refusals stay as they
    were."""
    limit = formats.MAX_FILE_BYTES
    for size in (1, 4095, 4096, 4097, limit - 1, limit):
        path = tmp_path / f"f{size}.non"
        path.write_bytes(b"#" * size)
        assert len(formats.read_text(path)) == size
    (tmp_path / "big.non").write_bytes(b"#" * (limit + 1))
    with pytest.raises(LimitError, match="larger than 16 MB"):
        formats.read_text(tmp_path / "big.non")
    for empty in (b"", b" \t\r\n\x0b\x0c"):
        (tmp_path / "empty.non").write_bytes(empty)
        with pytest.raises(FormatError, match="is empty"):
            formats.read_text(tmp_path / "empty.non")
    if Path("/proc/self/status").exists():  # a size of 0 and text all the same
        assert "Pid:" in formats.read_text("/proc/self/status")
    with pytest.raises(FormatError, match="is a folder"):
        formats.read_text(tmp_path)
