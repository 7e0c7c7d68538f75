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
