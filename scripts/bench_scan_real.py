"""Benchmark ``nonogen scan`` on real pictures: photos of printed puzzles and screenshots of other programs, taken by
other people (``samples/scan-photos/``, credited in its SOURCES.md), each beside its truth (a ``.non`` file of the same
name: the size and every clue, transcribed by a person).

The simulated photos of ``bench_scan_photo.py`` are pages nonogen drew; these are not: newspaper grids whose clues sit
in boxes of the grid itself, an app's screen with a picture behind the clues, a web page's cream grid. Each picture is
scanned and verified (with a time limit); a picture is exact when the scan finds one grid whose size and every row and
column clue equal the truth's; of the others, "flagged" says whether every misread line is among the scan's suspects
(only where the size was read right). Seconds are the whole ``nonogen.scan`` call (reading, the verdict, the
suspects) and reading alone. The baseline is the reader of ``--previous`` (a commit, exported and built once under
build/engines/, as ``bench_scan_photo.py`` does), asked to read each picture right after this one.

Usage: .venv/bin/python scripts/bench_scan_real.py [--only NAME,...] [--json] [--previous REV|none]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import nonogen  # noqa: E402

PICTURES = ROOT / "samples" / "scan-photos"
KINDS = {"photos": "photo", "screenshots": "screenshot"}
"""The folders under samples/scan-photos/ and the kind of picture each holds: a photo of paper or of a screen, or a
screenshot taken by another program; the two are kept apart because they fail for different reasons."""
SUFFIXES = (".png", ".jpg", ".jpeg", ".webp")
VERIFY_SECONDS = 10.0
"""Each scan is verified within this many seconds (the suspects need the verdict)."""
PREVIOUS = "38e7557"
"""The commit before photos were read (the baseline of bench_scan_photo.py too)."""


@dataclass
class Outcome:
    """What the scan of one picture gave, against its truth."""

    picture: str
    kind: str
    size: str
    exact: bool = False
    read: str = ""
    """The size read (or the grids' sizes), or the one-line error when nothing was read."""
    misread: list[str] = field(default_factory=list)
    not_flagged: list[str] = field(default_factory=list)
    flagged: bool | None = None
    """Every misread line among the suspects; None when it does not apply (exact, or the size is wrong)."""
    seconds: float = 0.0
    read_seconds: float = 0.0
    previous_exact: bool | None = None
    previous_seconds: float | None = None


def natural(path: Path) -> tuple:
    """Sorts nono4 before nono10."""
    import re

    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.name))


def pictures(only: set[str] | None = None) -> list[tuple[Path, str, nonogen.Puzzle]]:
    """Every picture under samples/scan-photos/ that has a truth beside it: its path, kind and the true puzzle."""
    found = []
    for folder, kind in KINDS.items():
        for path in sorted((PICTURES / folder).iterdir(), key=natural):
            truth = path.with_suffix(".non")
            if path.suffix.lower() in SUFFIXES and truth.exists() and (only is None or path.stem in only):
                found.append((path, kind, nonogen.load(truth)))
    return found


def numbers(lines: list) -> list[list[int]]:
    """A puzzle's clues as plain numbers (the truths are black and white; a colour read is a misreading too,
    counted by :func:`compare` apart)."""
    return [[n for n, _ in line] for line in lines]


def compare(truth: nonogen.Puzzle, scans: list, outcome: Outcome) -> None:
    """Fill ``outcome`` from the grids the scan found: exact, the misread lines, whether the suspects name them."""
    outcome.read = ", ".join(f"{s.puzzle.width}x{s.puzzle.height}" for s in scans)
    if len(scans) != 1:
        outcome.read = f"{len(scans)} grids: {outcome.read}"
        return
    got = scans[0].puzzle
    if (got.width, got.height) != (truth.width, truth.height):
        return
    bad = [f"row {i + 1}" for i, (a, b) in enumerate(zip(numbers(got.rows), numbers(truth.rows), strict=True))
           if a != b]
    bad += [f"column {i + 1}" for i, (a, b) in enumerate(zip(numbers(got.cols), numbers(truth.cols), strict=True))
            if a != b]
    if not bad and len(got.palette) > len(truth.palette):
        bad = ["colour"]
    named = {s["line"] for s in scans[0].suspects}
    outcome.misread = bad
    outcome.not_flagged = [line for line in bad if line not in named]
    outcome.exact = not bad
    outcome.flagged = None if not bad else not outcome.not_flagged


def measure(path: Path, kind: str, truth: nonogen.Puzzle) -> Outcome:
    """Scan ``path`` (verified, as ``nonogen scan`` does) and compare with ``truth``."""
    outcome = Outcome(path.name, kind, f"{truth.width}x{truth.height}")
    start = time.perf_counter()
    try:
        scans = nonogen.scan(path, timeout=VERIFY_SECONDS, grade=False)
    except nonogen.NonogenError as exc:
        outcome.seconds = time.perf_counter() - start
        outcome.read = "error: " + str(exc).replace(f"{path}: ", "").split(" (")[0]
        return outcome
    outcome.seconds = time.perf_counter() - start
    outcome.read_seconds = sum(s.seconds for s in scans)
    compare(truth, scans, outcome)
    return outcome


def say(text: str) -> None:
    """One report line on stdout, at once (a long run shows its pictures as they are read)."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def yes_no(value: bool | None) -> str:
    """A table cell for a yes/no that may not apply."""
    return "—" if value is None else ("yes" if value else "no")


def table(outcomes: list[Outcome], previous: str | None) -> str:
    """The per-picture table and a line per kind, as markdown."""
    head = "| picture | kind | size | exact | read | misread lines | flagged | s (read) |"
    rows = [head, "|---|---|---|---|---|---|---|---|"]
    if previous:
        rows = [head + f" {previous}: exact | {previous}: s |", "|---|---|---|---|---|---|---|---|---|---|"]
    for o in outcomes:
        misread = ", ".join(o.misread[:6]) + (f" (+{len(o.misread) - 6})" if len(o.misread) > 6 else "")
        cells = [o.picture, o.kind, o.size, yes_no(o.exact), o.read, misread or "—", yes_no(o.flagged),
                 f"{o.seconds:.2f} ({o.read_seconds:.2f})"]
        if previous:
            cells += [yes_no(o.previous_exact), "—" if o.previous_seconds is None else f"{o.previous_seconds:.2f}"]
        rows.append("| " + " | ".join(cells) + " |")
    rows.append("")
    for kind in KINDS.values():
        mine = [o for o in outcomes if o.kind == kind]
        if mine:
            sized = sum(o.read == o.size for o in mine)
            rows.append(f"{kind}s: {sum(o.exact for o in mine)} of {len(mine)} exact, size right on {sized}, "
                        f"flagged {sum(bool(o.flagged) for o in mine)} of {sum(o.flagged is not None for o in mine)}; "
                        f"s/picture mean {sum(o.seconds for o in mine) / len(mine):.2f}, "
                        f"max {max(o.seconds for o in mine):.2f}"
                        + (f"; {previous}: {sum(bool(o.previous_exact) for o in mine)} exact" if previous else ""))
    return "\n".join(rows)


def warm_up() -> None:
    """The digit prototypes load on the first scan: a drawn sheet is scanned first, to keep that out of the times."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="bench-scan-real-") as folder:
        page = Path(folder) / "heart.png"
        nonogen.draw(nonogen.load(ROOT / "samples" / "puzzles" / "heart.non"), page)
        nonogen.scan(page, verify=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated picture names (without suffix)")
    parser.add_argument("--json", action="store_true", help="one JSON object per picture instead of the table")
    parser.add_argument("--previous", default=PREVIOUS,
                        help=f"the reader of this commit reads the same pictures, for comparison (default {PREVIOUS}, "
                             "before photos were read; 'none': no comparison)")
    args = parser.parse_args()
    chosen = pictures(set(args.only.split(",")) if args.only else None)
    if not chosen:
        sys.exit("no pictures with a truth under samples/scan-photos/ (or none of --only)")
    previous = None
    if args.previous != "none":
        from bench_scan_photo import Previous  # the same previous reader as the simulated photos' bench

        previous = Previous(args.previous)
    warm_up()
    outcomes = []
    for path, kind, truth in chosen:
        outcome = measure(path, kind, truth)
        if previous is not None:
            outcome.previous_exact, outcome.previous_seconds = previous.read(truth, path)
        outcomes.append(outcome)
        if args.json:
            say(json.dumps(asdict(outcome)))
    if previous is not None:
        previous.close()
    if not args.json:
        say(f"{len(outcomes)} real pictures; exact = one grid, its size and every clue right; flagged = every "
              "misread line among the suspects (size right, not exact); s = the whole scan with its verdict "
              f"(limit {VERIFY_SECONDS:.0f} s), (read) = reading alone")
        say(table(outcomes, None if previous is None else args.previous))


if __name__ == "__main__":
    main()
