"""Every sample and held puzzle through every writer reads back with identical clues (issue 26).

The campaign in ``scripts/fuzz.py --round-trip`` does the same for every one of the 7,000 held puzzles;
here the two TAAI tournament sets (3,000 puzzles each, one size, one generator) give every 40th puzzle,
so the suite stays quick while every file and every kind of puzzle is covered.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from conftest import SHARED_DATA

ROOT = Path(__file__).resolve().parents[1]


def _load_fuzz():
    spec = importlib.util.spec_from_file_location("nonogen_fuzz_rt", ROOT / "scripts" / "fuzz.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


fuzz = _load_fuzz()


@pytest.mark.parametrize("where", ["samples", "held"])
def test_dumps_and_loads_round_trip_every_sample_and_held_puzzle(where):
    """`convert --to taai` read back as a solution for 8 of 33 square puzzles; titles with control characters
    and lone surrogates made files that did not read back (or could not be written at all)."""
    if where == "held" and not SHARED_DATA.is_dir():
        pytest.skip(f"shared data folder not found: {SHARED_DATA}")
    folders = [ROOT / "samples" / "puzzles"] if where == "samples" else [SHARED_DATA / "puzzles"]
    stats = fuzz.fuzz_hostile.round_trip(folders, every_nth_of_big_files=1 if where == "samples" else 40)
    assert stats["puzzles"] > (20 if where == "samples" else 900), stats
    assert stats["round_trips"] > 5 * stats["puzzles"], stats
    assert not stats["failed"], "\n".join(stats["failed"][:20])


HOSTILE_TEXTS = [
    "a\nb", "Injected\nROWS\n[ 1 ]\nCOLUMNS\n[ 1 ]\n\nGRID Original", "x\r\ny", "x\ry", "l\u2028m", "p\u2029q",
    "n\x85o", "v\x0bw", "f\x0cg", "fs\x1cgs", "a\u2028\u2029b", "# comment", "# LABEL x", "GRID x", "a  b",
    '"quoted"', "back\\slash", "[ 1 ]", ": rows", "$1", "====", "END", " ", "  lead", "tail  ", "\t", "tab\there",
    "\udcff", "</script><b>", "width 3", '{"a": 1}', "é", "", "x" * 3000,
]
"""Titles and names that broke writers: a newline in a bracket title added a second puzzle, U+2028 in a
ytakata label made a file nonogen could not read, control characters made XML that does not parse."""


@pytest.mark.parametrize("text", HOSTILE_TEXTS, ids=lambda t: repr(t)[:24])
def test_every_writer_reads_back_what_it_wrote_whatever_the_title(text):
    """Each metadata value and colour name is read back as written (as readers clean it) or named by dropped()."""
    import numpy as np

    from nonogen import formats, puzzle3d_from_cells, puzzle_from_grid
    from nonogen.formats._common import clean_text
    from nonogen.palette import Color

    grid = np.array([[1, 0, 2], [0, 1, 1], [2, 1, 0]], dtype=np.uint8)
    colour = puzzle_from_grid(grid, (Color("white", "#ffffff", "."), Color(text or "ink", "#000000", "#"),
                                     Color("red", "#ff0000", "r")))
    bw = puzzle_from_grid((grid > 0).astype(np.uint8))
    cells = np.zeros((2, 3, 2), bool)
    cells[0, :, 0] = cells[1, 1, :] = True
    level = puzzle3d_from_cells(cells)
    failures = []
    for fmt in [f for f in formats.FORMATS if formats.writable(f)]:
        bases = [level] if fmt in formats.FORMATS_3D else [bw, colour]
        for base in bases:
            if base is colour and "colours" in " ".join(formats.dropped(colour, fmt)):
                continue  # a black-and-white format refuses colour puzzles
            for key in ("title", "author", "license", "description"):
                puzzle = base.replace(meta={key: text})
                back = formats.loads_all(formats.dumps(puzzle, fmt), fmt)
                lost = " ".join(formats.dropped(puzzle, fmt))
                if len(back) != 1:
                    failures.append(f"{fmt} {key}: {len(back)} puzzles read back")
                    continue
                same = back[0].clues == puzzle.clues if fmt in formats.FORMATS_3D else (
                    back[0].rows == puzzle.rows and back[0].cols == puzzle.cols)
                if not same:
                    failures.append(f"{fmt} {key}: the clues changed")
                if back[0].meta.get(key) != clean_text(text) and key not in lost and "metadata" not in lost:
                    failures.append(f"{fmt} {key}: read back {back[0].meta.get(key)!r:.30}, not dropped")
                names = [c.name for c in getattr(back[0], "palette", ())]
                if base is colour and clean_text(text or "ink", 200) not in names and "name" not in lost:
                    failures.append(f"{fmt}: colour name read back as {names}, not dropped")
    assert not failures, "\n".join(failures)
