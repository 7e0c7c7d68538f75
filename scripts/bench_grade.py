"""Benchmark the difficulty grade: how it spreads over real collections, this grade and the previous one in one run.

Collections (../shared/data/puzzles): the webpbn survey (31), picross-solver's webpbn puzzles (16), the griddler
"hard tests" (870, webpbn puzzles a line solver could not finish; --quick takes every 5th), nonogram-db (39), the
unique puzzles of the three tournament sets (22 of their 3000, listed in TOURNAMENT_UNIQUE; --scan-tournament finds
them again), the stress puzzles and the colour puzzles.

Every puzzle is verified blind (goal removed); each unique one is graded by this checkout and by the previous grade
(--previous REV, default PREVIOUS_GRADE: that commit exported with ``git archive`` and built under build/engines/,
as for every bench's previous engine), in a process of its own. Prints, per collection, the number of
unique puzzles in each grade 1-5 and the share of the fullest grade (the goal: at most half), and the process CPU
seconds of verifying and of grading, with grading's share of the whole. Without ../shared/data (not in the
repository) it says so in one line and exits 0.

Usage: .venv/bin/python scripts/bench_grade.py [--quick] [--only SET,...] [--previous REV|none] [--json FILE]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from _bench import DATA, engine_copy, engine_on_path, no_shared, skip

engine_on_path()  # this checkout, or --engine DIR: before nonogen is imported

from nonogen import formats  # noqa: E402
from nonogen.solve.deadline import Deadline  # noqa: E402
from nonogen.solve.grade import rate  # noqa: E402
from nonogen.solve.session import Session  # noqa: E402

PREVIOUS_GRADE = "e121663"  # the grade when issue 24 ("every picture puzzle is grade 1") was taken up
SETS = ("survey", "picross-solver", "hardtests", "nonogram-db", "tournament", "stress", "colour")
REQUIRED = ("survey", "picross-solver", "hardtests", "nonogram-db", "tournament")  # the spread goal's collections
TOURNAMENT_UNIQUE = {  # the only puzzles of each set with one solution (nonogen verify, blind, 2026-11-25)
    "taai2011": (2, 13, 32, 57, 64, 65, 73, 76),
    "tcga2016": (0, 10, 44, 60, 100, 136),
    "icga2017": (19, 22, 70, 76, 85, 188, 189, 253),
}


def tasks(name: str, quick: bool) -> list[tuple[Path, int]]:
    """(file, index of the puzzle in it) for one collection."""
    webpbn = DATA / "webpbn"
    if name == "tournament":
        return [(DATA / "taai" / "question" / f"{s}.txt", i) for s, found in TOURNAMENT_UNIQUE.items() for i in found]
    paths = {
        "survey": lambda: sorted((webpbn / "survey-sample-non").glob("*.non")),
        "picross-solver": lambda: sorted((webpbn / "picross-solver-non").glob("*.non")),
        "hardtests": lambda: sorted((webpbn / "griddler-hardtests-non").glob("*.non"))[:: 5 if quick else 1],
        "nonogram-db": lambda: sorted((DATA / "nonogram-db" / "db").rglob("*.non")),
        "stress": lambda: sorted(p for p in (DATA / "stress").rglob("*") if p.suffix in (".non", ".nin", ".txt")),
        "colour": lambda: sorted((DATA / "colored").rglob("*.xml")) + sorted((DATA / "colored").rglob("*.g")),
    }[name]()
    return [(p, i) for p in paths for i in range(_count(p))]


def _count(path: Path) -> int:
    try:
        return len(formats.load_all(path))
    except Exception:  # noqa: BLE001 - a file this engine refuses is left out, as bench_verify does
        return 0


def grade_one(path: Path, index: int, timeout: float) -> dict:
    """Verify one puzzle blind (no grade), then grade it as verify does: CPU seconds of each."""
    puzzle = formats.load_all(path)[index].replace(goal=None)
    session = Session(puzzle)
    start = time.process_time()
    result = session.verify(timeout=timeout, grade=False)
    verified = time.process_time()
    if result.status == "unique":
        rate(result, puzzle, deadline=Deadline(timeout), grid=session.grid)
    return {"puzzle": f"{path.name}#{index}", "status": result.status, "grade": result.grade, "score": result.score,
            "measures": result.stats.get("grade_measures"), "verify_s": verified - start,
            "grade_s": time.process_time() - verified}


def measure(name: str, quick: bool, timeout: float) -> list[dict]:
    return [grade_one(path, index, timeout) for path, index in tasks(name, quick)]


def previous_measure(name: str, args) -> list[dict]:
    """``measure(name)`` by the previous grade, in a process of its own."""
    command = [sys.executable, __file__, "--engine", str(args.previous_root), "--measure", name,
               "--timeout", str(args.timeout)] + (["--quick"] if args.quick else [])
    done = subprocess.run(command, stdout=subprocess.PIPE, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the previous grade failed on {name} (exit {done.returncode})")
    return json.loads(done.stdout)


def histogram(results: list[dict]) -> tuple[list[int], float]:
    """Unique puzzles per grade 1-5, and the share of the fullest grade."""
    graded = Counter(r["grade"] for r in results if r["status"] == "unique" and r["grade"] is not None)
    counts = [graded.get(g, 0) for g in range(1, 6)]
    return counts, max(counts) / max(1, sum(counts))


def print_report(report: dict, previous: str) -> None:
    print(f"{'collection':<15} {'unique':>6}   {'grade 1 2 3 4 5 (this)':<24} {'most':>5}   "
          f"{'grade 1 2 3 4 5 (' + previous + ')':<26} {'most':>5}")
    for name, runs in report.items():
        new, share = histogram(runs["this"])
        unique = sum(r["status"] == "unique" for r in runs["this"])
        line = f"{name:<15} {unique:>6}   {' '.join(f'{c:>3}' for c in new):<24} {share:>4.0%}"
        if runs.get("previous"):
            old, old_share = histogram(runs["previous"])
            line += f"   {' '.join(f'{c:>3}' for c in old):<26} {old_share:>4.0%}"
        flag = "" if name not in REQUIRED or share <= 0.5 else "   <- over half"
        print(line + flag)
    print(f"\n{'collection':<15} {'verify s':>9} {'grade s':>8} {'share':>6}"
          f"   {'verify s':>9} {'grade s':>8} {'share':>6}"
          f"   (unique puzzles, process CPU; this | {previous})")
    for name, runs in report.items():
        cells = []
        for key in ("this", "previous"):
            unique = [r for r in runs.get(key) or () if r["status"] == "unique"]
            if unique:
                v, g = sum(r["verify_s"] for r in unique), sum(r["grade_s"] for r in unique)
                cells.append(f"{v:>9.2f} {g:>8.2f} {g / max(1e-9, v + g):>6.0%}")
        print(f"{name:<15} " + "   ".join(cells))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="every 5th griddler hard test")
    parser.add_argument("--only", default=",".join(SETS), help=f"collections (default {','.join(SETS)})")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per puzzle (default 30)")
    parser.add_argument("--previous", default=PREVIOUS_GRADE, metavar="REV",
                        help=f"the grade to compare with (default {PREVIOUS_GRADE}; 'none': skip)")
    parser.add_argument("--scan-tournament", action="store_true", help="find the tournament sets' unique puzzles")
    parser.add_argument("--json", metavar="FILE", help="also write every measurement here")
    parser.add_argument("--engine", help=argparse.SUPPRESS)  # read before the imports (engine_on_path)
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # print one collection's results as JSON
    args = parser.parse_args()
    if args.measure:
        json.dump(measure(args.measure, args.quick, args.timeout), sys.stdout)
        return 0
    if not DATA.is_dir():
        skip(no_shared(DATA))
    if args.scan_tournament:
        for name in TOURNAMENT_UNIQUE:
            path = DATA / "taai" / "question" / f"{name}.txt"
            found = [i for i in range(_count(path)) if grade_one(path, i, args.timeout)["status"] == "unique"]
            print(f"{name}: {tuple(found)}")
        return 0
    args.previous_root = None
    if args.previous != "none":
        args.previous_root = engine_copy(args.previous)
    report = {}
    for name in args.only.split(","):
        report[name] = {"this": measure(name, args.quick, args.timeout)}
        if args.previous_root:
            report[name]["previous"] = previous_measure(name, args)
        if sys.stderr.isatty():
            print(f"  {name} done", file=sys.stderr)
    print(f"nonogen grade benchmark ({time.strftime('%Y-%m-%d')}){' --quick' if args.quick else ''}\n")
    print_report(report, args.previous if args.previous_root else "-")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
