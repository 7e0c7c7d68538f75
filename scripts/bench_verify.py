"""Benchmark the 2D verifier on the shared puzzle sets, with three baselines in the same run.

Sets: start-up (a whole process on a 5x5 puzzle; --peer times a native solver beside it), bounded
(a 1000x1000 and a 2000x2000 puzzle at --timeout 5, whole process: wall time and peak memory), processes (the survey's
28 puzzles as one whole process each, CPU summed), the
webpbn survey (31 puzzles, expected verdicts in survey-sample.csv), the three tournament sets
(TAAI 2011, TCGA 2016, ICGA 2017: 1000 x 25x25 each), random (1000 random 30x30 grids, each cell black with
probability 1/2, seeded: nearly all have several solutions; one batch process), the colour set (number-loom XML +
pbnsolve .g), issue 37's random colour grids (200 at 20x20 and 100 at 30x30, 3 colours, seeded; written under
build/) and the stress
puzzles (up to 512x512). For each puzzle: verdict (and whether it is right), difficulty, seconds
in-process, peak memory of the worker process.

Also on the survey set, "verdict s": line logic + SAT without probing; and the three extreme
puzzles once more with the goal stored in their files, as a puzzle author would verify them.
Baselines, on the survey set:
  * ``python``: the whole engine with the pure-Python line logic instead of the C module;
  * ``sat``: nonogen's own SAT encoding of the whole puzzle, no line logic, no probing;
  * ``enum``: the placement-enumeration CNF of our source documents (one variable per placement
    of every line), capped at ENUM_CAP literals so it cannot eat the machine.

The three frontiers of issue 25 (start-up, the tournament sets, the extreme puzzles blind) and the two
colour sets are also run with the previous engine (--previous REV, default PREVIOUS_ENGINE: a copy of that commit is
exported and built once under build/engines/) in the same run, and the ratios printed at the end.

Start-up, bounded, random and random-colour are made here; the other sets are read from ../shared/data, which is
not in the repository: without it they are skipped with one line, so `make bench` still measures the rest.

Usage: .venv/bin/python scripts/bench_verify.py [--quick] [--timeout S] [--jobs N] [--only SET,...]
       [--peer CMD] [--previous REV|none]
"""
from __future__ import annotations

import argparse
import csv
import functools
import json
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Optional

from _bench import (DATA, ROOT, STARTUP_PUZZLE, SURVEY, blind_copies, children_cpu, engine_copy, engine_on_path,
                    file_tasks, machine, no_shared, peak_mb)

ENGINE = engine_on_path()

# Loaded, not used: no engine's time below includes python-sat's import (as before the one SAT door); the
# enumeration baseline takes its solver from nonogen.solve.sat.new_solver like everything else.
import pysat.solvers  # noqa: E402,F401,TID251

import nonogen  # noqa: E402
from nonogen import formats, satisfies  # noqa: E402
from nonogen.solve import propagate, verify  # noqa: E402
from nonogen.solve.deadline import Deadline, Timeout, solve_limited  # noqa: E402

if not Path(nonogen.__file__).resolve().is_relative_to(ENGINE.resolve()):
    raise SystemExit(f"wanted the engine in {ENGINE}, imported {nonogen.__file__}")

ENUM_CAP = 5_000_000  # literals in the enumeration CNF before the baseline gives up
BASELINE_TIMEOUT = 20.0
PREVIOUS_ENGINE = "e121663"  # the engine when issue 25 (belief-propagation phases, start-up) was filed
# read from ../shared (DATA); the others are made here
SHARED_SETS = ("processes", "survey", "taai", "colour", "stress")


# -- one puzzle, in a worker process ----------------------------------------------------------


@functools.lru_cache(maxsize=4)
def _puzzles(path: str) -> list:
    """A worker reads each file once (the TAAI file holds 1000 puzzles)."""
    return formats.load_all(path)


def run_one(task: tuple[str, int, str, float]) -> dict:
    """Verify puzzle ``index`` of ``path`` with ``method`` ("nonogen", "line", "sat" or "enum")."""
    path, index, method, timeout = task
    puzzle = _puzzles(path)[index]
    if method != "goal":  # blind: find the solutions, then prove there is no other
        puzzle = puzzle.replace(goal=None)
    start, cpu_start = time.perf_counter(), time.process_time()
    if method == "enum":
        status, note = enumeration_verify(puzzle, timeout)
        difficulty = None
    else:
        if method == "python":  # the same engine with the pure-Python line logic (no C module)
            propagate.NATIVE = False
        strategy = "full" if method in ("nonogen", "python", "goal") else method
        result = verify(puzzle, timeout=timeout, strategy=strategy)
        status, difficulty, note = result.status, result.difficulty, result.message
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    if method != "enum" and result.solution is not None:  # the bench's own check, outside the time (it loads numpy)
        assert satisfies(puzzle, result.solution)
    return {"status": status, "difficulty": difficulty, "seconds": seconds, "cpu": cpu, "peak_mb": peak_mb(),
            "note": note}


def enumeration_verify(puzzle, timeout: float) -> tuple[str, str]:
    """The source documents' encoding: a variable per placement, each placement fixing its whole line."""
    H, W = puzzle.height, puzzle.width
    cell = lambda r, c: r * W + c + 1  # noqa: E731
    next_var = H * W
    clauses: list[list[int]] = []
    literals = 0
    lines = [(puzzle.rows[r], [cell(r, c) for c in range(W)]) for r in range(H)]
    lines += [(puzzle.cols[c], [cell(r, c) for r in range(H)]) for c in range(W)]
    for clue, cells in lines:
        choices = []
        for filled in placements([n for n, _ in clue], len(cells)):
            next_var += 1
            choices.append(next_var)
            clauses.extend([-next_var, v if i in filled else -v] for i, v in enumerate(cells))
            literals += 2 * len(cells)
            if literals > ENUM_CAP:
                return "too big", f"gave up past {ENUM_CAP:,} literals"
        clauses.append(choices)
    from nonogen.solve.sat import new_solver  # here: a previous engine's copy (--engine) has no such module

    deadline = Deadline(timeout)
    cells = list(range(1, H * W + 1))
    try:
        with new_solver("box", clauses) as solver:  # CaDiCaL 1.9.5, as for nonogen's own 3D boxes
            if not solve_limited(solver, deadline):
                return "unsolvable", f"{len(clauses):,} clauses"
            model = solver.get_model()
            solver.add_clause([-model[v - 1] for v in cells])
            status = "multiple" if solve_limited(solver, deadline) else "unique"
            return status, f"{len(clauses):,} clauses"
    except Timeout:
        return "timeout", f"{len(clauses):,} clauses"


def placements(blocks: list[int], length: int):
    """Every placement of ``blocks`` in a line, as the set of filled positions."""
    if not blocks:
        yield frozenset()
        return
    first, rest = blocks[0], blocks[1:]
    need = sum(rest) + len(rest)
    for start in range(length - first - need + 1):
        here = set(range(start, start + first))
        offset = start + first + 1
        for tail in placements(rest, length - offset):
            yield frozenset(here | {offset + i for i in tail})


# -- the sets ---------------------------------------------------------------------------------


def survey_tasks(timeout: float):
    with open(SURVEY / "survey-sample.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return [(str(SURVEY / "survey-sample-non" / r["file"]), 0, r) for r in rows]


def run_set(name, tasks, method, timeout, jobs, fresh_process=True):
    """Run tasks on ``jobs`` workers (one fresh process per puzzle when ``fresh_process``)."""
    work = [(path, index, method, timeout) for path, index, _ in tasks]
    results = []
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs, max_tasks_per_child=1 if fresh_process else None) as pool:
        for done, result in enumerate(pool.map(run_one, work, chunksize=1 if fresh_process else 8), 1):
            results.append(result)
            if sys.stderr.isatty():
                print(f"\r  {name} [{method}] {done}/{len(work)}", end="", file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        print("\r\033[K", end="", file=sys.stderr)
    return results, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="survey without baselines, 200 TAAI puzzles")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per puzzle (default 60)")
    parser.add_argument("--extreme-timeout", type=float, default=20.0, help="for knotty/meow/faase (default 20)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--every", type=int, default=1, metavar="N",
                        help="tournament sets: every Nth puzzle only (an unbiased sample; default all)")
    parser.add_argument("--only", default="startup,bounded,processes,survey,taai,random,colour,random-colour,stress")
    parser.add_argument("--peer", action="append", default=[], metavar="CMD",
                        help="a native solver to time at start-up, '{}' standing for the puzzle file (repeatable)")
    parser.add_argument("--json", metavar="FILE", help="also write every measurement here")
    parser.add_argument("--previous", default=PREVIOUS_ENGINE, metavar="REV",
                        help=f"the engine to compare the frontiers with (default {PREVIOUS_ENGINE}; 'none': skip)")
    parser.add_argument("--engine", help=argparse.SUPPRESS)  # read before the imports: see engine_on_path
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # print one set's results as JSON (for --previous)
    args = parser.parse_args()
    if args.measure:
        json.dump(measure(args.measure, args), sys.stdout)
        return 0
    args.previous_root = None
    if args.previous != "none":
        try:
            args.previous_root = engine_copy(args.previous)
        except RuntimeError as exc:  # a shallow clone, no compiler: measure nonogen alone and say why
            print(f"previous engine skipped: {exc}", file=sys.stderr)
    sets = args.only.split(",")
    report: dict = {}
    print(f"nonogen verifier benchmark  ({time.strftime('%Y-%m-%d')}, {machine()})")
    if args.previous_root:
        print(f"previous engine: {args.previous} (built in {args.previous_root.relative_to(ROOT)})")
    absent = [s for s in sets if s in SHARED_SETS and not DATA.is_dir()]
    if absent:  # the other sets are made here or generated: they still run
        print(f"skipped {', '.join(absent)}: {no_shared(DATA)}")
        sets = [s for s in sets if s not in absent]
    print()
    if "startup" in sets:
        report["startup"] = bench_startup(args)
    if "bounded" in sets:
        report["bounded"] = bench_bounded(args)
    if "processes" in sets:
        report["processes"] = bench_processes(args)
    if "survey" in sets:
        report["survey"] = bench_survey(args)
    if "taai" in sets:
        report["taai"] = bench_taai(args)
    if "random" in sets:
        report["random"] = bench_random(args)
    if "colour" in sets:
        report["colour"] = bench_files("colour", colour_files(), args)
    if "random-colour" in sets:
        report["random-colour"] = bench_files("random-colour", random_colour_files(), args)
    if "stress" in sets:
        stress = [p for p in sorted((DATA / "stress").rglob("*")) if p.suffix in (".non", ".nin", ".txt")]
        report["stress"] = bench_files("stress", stress, args)
    print_frontiers(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 0


def measure(name: str, args) -> list[dict]:
    """One set with this process's engine: a tournament set, "extreme" (blind) or a colour set."""
    if name == "extreme":
        tasks = [t for t in survey_tasks(args.timeout) if t[2]["tier"] == "extreme"]
        return run_set(name, tasks, "nonogen", args.extreme_timeout, 1)[0]
    if name == "random":
        return run_random_set(args)[0]
    if name in COLOUR_SETS:
        paths = colour_files() if name == "colour" else random_colour_files()
        return run_set(name, file_tasks(paths), "nonogen", args.timeout, 1, fresh_process=False)[0]
    return run_tournament_set(name, args)[0]


def colour_files() -> list[Path]:
    """The shared colour collections: number-loom's webpbn XML and pbnsolve's Olsak .g examples."""
    return sorted((DATA / "colored").rglob("*.xml")) + sorted((DATA / "colored").rglob("*.g"))


RANDOM_COLOUR = ((20, 200), (30, 100))  # (side, how many): issue 37's random colour grids
RANDOM_COLOUR_SEED = 37


def random_colour_files() -> list[Path]:
    """Issue 37's random colour grids as webpbn XML under build/ (written once, the same for every engine).

    Each cell is background with probability 2/5, else one of 3 colours alike; seeded.
    Nearly all have several solutions, as random grids do.
    """
    import random

    folder = ROOT / "build" / "random-colour"
    paths = [folder / f"r{side}-{i:03d}.xml" for side, count in RANDOM_COLOUR for i in range(count)]
    if all(p.exists() for p in paths):
        return paths
    from nonogen.clues import puzzle_from_grid
    from nonogen.palette import Color

    palette = (Color("white", "#ffffff", "."), Color("red", "#ff0000", "a"), Color("green", "#00ff00", "b"),
               Color("blue", "#0000ff", "c"))
    folder.mkdir(parents=True, exist_ok=True)
    for side, count in RANDOM_COLOUR:
        rng = random.Random(RANDOM_COLOUR_SEED * 1000 + side)
        for i in range(count):
            grid = [[0 if rng.random() < 0.4 else rng.randint(1, 3) for _ in range(side)] for _ in range(side)]
            text = formats.dumps(puzzle_from_grid(grid, palette).replace(goal=None), "webpbn")
            (folder / f"r{side}-{i:03d}.xml").write_text(text)
    return paths


def run_tournament_set(name: str, args) -> tuple[list, float]:
    """One tournament set (its first 200 puzzles with --quick), blind: per-puzzle results and wall seconds."""
    tasks = file_tasks([DATA / "taai" / "question" / f"{name}.txt"])[::args.every]
    return run_set(name, tasks[:200] if args.quick else tasks, "nonogen", args.timeout, args.jobs, fresh_process=False)


def previous_measure(name: str, args) -> Optional[list]:
    """``measure(name)`` run by the previous engine, in a process of its own (None: no previous engine)."""
    import subprocess

    if args.previous_root is None:
        return None
    command = [sys.executable, __file__, "--engine", str(args.previous_root), "--measure", name,
               "--timeout", str(args.timeout), "--extreme-timeout", str(args.extreme_timeout), "--jobs", str(args.jobs),
               "--every", str(args.every)]
    done = subprocess.run(command + (["--quick"] if args.quick else []), stdout=subprocess.PIPE, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the previous engine failed on {name} (exit {done.returncode})")
    return json.loads(done.stdout)


def print_frontiers(report: dict) -> None:
    """The three frontiers of issue 25 against their goals and the previous engine."""
    rows = []
    startup = report.get("startup")
    if startup:
        rows.append(("start-up, 5x5 (CPU s)", STARTUP_GOAL, startup["nonogen verify"], startup.get("previous engine")))
    for name, by_engine in report.get("bounded", {}).items():
        rows.append((f"{name[:9]} --timeout {BOUNDED_TIMEOUT:g} (wall s)", BOUNDED_GOAL * BOUNDED_TIMEOUT,
                     by_engine["nonogen"]["seconds"], by_engine.get("previous engine", {}).get("seconds")))
    processes = report.get("processes")
    if processes:
        rows.append(("survey, a process each (CPU s)", None, processes["nonogen"]["cpu_seconds"],
                     processes.get("previous engine", {}).get("cpu_seconds")))
    for name, result in report.get("taai", {}).items():
        previous = result.get("previous_cpu_seconds")
        rows.append((f"{name} CPU, {result['puzzles']} (s)", previous and TOURNAMENT_GOAL_RATIO * previous,
                     result["cpu_seconds"], result.get("previous_cpu_seconds")))
    for row in report.get("survey", {}).get("extreme", []):
        rows.append((f"{row['puzzle']} blind (s)", EXTREME_GOAL, _decided_seconds(row), row.get("previous")))
    if not rows:
        return
    print("## the frontiers (issue 25): goal, nonogen, the previous engine\n")
    print(f"{'frontier':<32} {'goal':>8} {'nonogen':>9} {'previous':>9} {'previous/nonogen':>17}")
    for label, goal, ours, previous in rows:
        ratio = f"{previous / ours:.2f}x" if isinstance(ours, float) and isinstance(previous, float) else "-"
        print(f"{label:<32} {_seconds(goal):>8} {_seconds(ours):>9} {_seconds(previous):>9} {ratio:>17}")
    print("(the extreme puzzles get --extreme-timeout seconds each; --extreme-timeout 60 gives them the goal's time)\n")


def _decided_seconds(result: dict):
    """Seconds when the verdict is in, else the status ("timeout")."""
    return result["seconds"] if result["status"] in ("unique", "multiple", "unsolvable") else result["status"]


def _seconds(value) -> str:
    return "-" if value is None else value if isinstance(value, str) else f"{value:.3f}"


def bench_survey(args) -> dict:
    tasks = survey_tasks(args.timeout)
    normal = [t for t in tasks if t[2]["tier"] != "extreme"]
    extreme = [t for t in tasks if t[2]["tier"] == "extreme"]
    ours, wall = run_set("survey", normal, "nonogen", args.timeout, 1)
    hard, _ = run_set("survey", extreme, "nonogen", args.extreme_timeout, 1)
    with_goal, _ = run_set("survey", extreme, "goal", args.timeout, 1)
    baselines = {}
    if not args.quick:
        for method in ("line", "python", "sat", "enum"):
            baselines[method], _ = run_set("survey", normal, method, BASELINE_TIMEOUT, 1)
    print("## webpbn survey set (in-process seconds per puzzle; one puzzle at a time)\n")
    head = (f"{'puzzle':<10} {'tier':<7} {'size':>6} {'expected':<9} {'nonogen':<10} {'difficulty':<10} "
            f"{'s':>8} {'MB':>6}")
    if baselines:
        head += f" | {'verdict s':>9} {'python s':>9} {'sat-only s':>10} {'enum s':>10}  enum note"
    print(head)
    right = 0
    rows = []
    for k, ((_, _, meta), r) in enumerate(zip(normal + extreme, ours + hard, strict=True)):
        # the baselines ran on the normal puzzles only: an extreme one's row has no baseline columns
        base = [results[k] for results in baselines.values()] if k < len(normal) else []
        expected = meta["uniqueness"].lower()
        ok = r["status"] == expected
        right += ok and meta["tier"] != "extreme"
        size = f"{meta['width']}x{meta['height']}"
        line = (
            f"{meta['short_name']:<10} {meta['tier']:<7} {size:>6} {expected:<9} "
            f"{r['status'] + ('' if ok else ' !'):<10} {str(r['difficulty']):<10} {r['seconds']:8.3f} "
            f"{r['peak_mb']:6.0f}"
        )
        if base:
            verdict, python, sat, enum = base
            line += f" | {_fmt(verdict):>9} {_fmt(python):>9} {_fmt(sat):>10} {_fmt(enum):>10}  {enum['note']}"
        print(line)
        rows.append({"puzzle": meta["short_name"], "tier": meta["tier"], **r})
    total = sum(r["seconds"] for r in ours)
    easy = [r["seconds"] for (_, _, m), r in zip(normal, ours, strict=True) if m["tier"] == "easy"]
    print(f"\nright verdicts (28 non-extreme): {right}/28;  total {total:.2f} s;  slowest easy {max(easy):.3f} s;"
          f"  extreme: {', '.join(r['status'] for r in hard)} at {args.extreme_timeout:.0f} s")
    print("extreme, given the goal stored in the file (is it the only solution?): " + ", ".join(
        f"{meta['short_name']} {r['status']} in {r['seconds']:.1f} s"
        for (_, _, meta), r in zip(extreme, with_goal, strict=True)))
    summary = {"right": right, "total_seconds": total, "rows": rows,
               "extreme": [{"puzzle": meta["short_name"], **r} for (_, _, meta), r in zip(extreme, hard, strict=True)]}
    previous = previous_measure("extreme", args)
    if previous is not None:
        for row, before in zip(summary["extreme"], previous, strict=True):
            row["previous"] = _decided_seconds(before)
        print("extreme, blind, the previous engine: " + ", ".join(
            f"{meta['short_name']} {r['status']} in {r['seconds']:.1f} s"
            for (_, _, meta), r in zip(extreme, previous, strict=True)))
    if baselines:
        verdict_total = sum(b["seconds"] for b in baselines["line"])
        print(f"verdict without probing (line logic + SAT): total {verdict_total:.2f} s")
    for method, results in baselines.items():
        if method == "line":
            continue
        solved = [(o, b) for o, b in zip(ours, results, strict=True) if b["status"] in ("unique", "multiple")]
        base_total = sum(b["seconds"] if b["status"] in ("unique", "multiple") else BASELINE_TIMEOUT for b in results)
        print(f"baseline {method}: {len(solved)}/28 decided within {BASELINE_TIMEOUT:.0f} s, total {base_total:.1f} s "
              f"(unfinished counted at the cap) -> nonogen is {base_total / total:.1f}x faster")
        summary[f"baseline_{method}_seconds"] = base_total
    print()
    return summary


STARTUP_RUNS = 41
TOURNAMENT_SETS = ("taai2011", "tcga2016", "icga2017")
TOURNAMENT_GOAL_RATIO = 0.55  # of the previous engine's CPU on the same puzzles, in the same run (issue 25)
EXTREME_GOAL = 60.0  # seconds for each of knotty, meow and faase, blind (issue 25)
STARTUP_GOAL = 0.06  # seconds of CPU for a whole 5x5 verify process (issue 25)
STARTUP_GOAL_RATIO = 2.5  # times a bare `python -c pass`, CPU and wall, in the same run (issue 37)


def bench_startup(args) -> dict:
    """Whole-process seconds for `nonogen verify` on a 5x5 puzzle: CPU and wall, medians of STARTUP_RUNS rounds.

    Baselines in the same run: the bare interpreter (the goal is a ratio to
    it), numpy alone (which the previous engine's verify path loaded, and
    this one does not), and the previous engine. Each round runs every
    command once, so a load that comes and goes touches them all alike. Both
    engines run from cached bytecode. Returns the CPU medians, and the wall
    medians under "wall".
    """
    import compileall
    import statistics
    import subprocess
    import tempfile

    python = sys.executable
    # Both engines start from cached bytecode, as an installed package does (pip compiles it; `make`
    # runs compileall). Without it, PYTHONDONTWRITEBYTECODE=1 compiles every module on every start.
    for root in filter(None, (ROOT, args.previous_root)):
        compileall.compile_dir(Path(root) / "nonogen", quiet=1)
    with tempfile.TemporaryDirectory() as folder:
        small = Path(folder) / "small.non"
        small.write_text(STARTUP_PUZZLE)
        commands = {
            "python -c pass": [python, "-c", "pass"],
            "python -c 'import numpy'": [python, "-c", "import numpy"],
            "nonogen verify": [python, "-m", "nonogen", "verify", str(small)],
        }
        script = Path(python).with_name("nonogen")  # the console script pip wrote beside this interpreter
        if script.exists() and Path(ROOT).resolve() == ENGINE.resolve():
            commands["console script nonogen verify"] = [str(script), "verify", str(small)]
        if args.previous_root:  # run from inside the copy: its own nonogen comes first on the path
            commands["previous engine"] = ["sh", "-c", f'cd "{args.previous_root}" && exec "$0" -m nonogen verify "$1"',
                                           python, str(small)]
        for peer in args.peer:
            commands[f"peer: {peer}"] = ["sh", "-c", peer.replace("{}", str(small))]
        cpu: dict[str, list[float]] = {label: [] for label in commands}
        wall: dict[str, list[float]] = {label: [] for label in commands}
        for _ in range(STARTUP_RUNS):
            for label, command in commands.items():
                before, start = children_cpu(), time.perf_counter()
                done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
                wall[label].append(time.perf_counter() - start)
                if done.returncode != 0:
                    raise SystemExit(f"{label}: exit {done.returncode}: {done.stderr.decode()[-300:]}")
                cpu[label].append(children_cpu() - before)
    medians = {label: statistics.median(times) for label, times in cpu.items()}
    walls = {label: statistics.median(times) for label, times in wall.items()}
    print(f"## start-up: one whole process on a 5x5 puzzle (median of {STARTUP_RUNS} rounds)\n")
    bare, bare_wall = medians["python -c pass"], walls["python -c pass"]
    print(f"{'':<40} {'CPU s':>7} {'/ pass':>7} {'wall s':>7} {'/ pass':>7}")
    for label in commands:
        print(f"{label:<40} {medians[label]:7.3f} {medians[label] / bare:6.2f}x {walls[label]:7.3f} "
              f"{walls[label] / bare_wall:6.2f}x")
    ours = medians["nonogen verify"]
    ratio = max(ours / bare, walls["nonogen verify"] / bare_wall)
    print(f"\ngoal {STARTUP_GOAL:.3f} s CPU: {'met' if ours <= STARTUP_GOAL else 'missed'} ({ours:.3f} s)")
    print(f"goal {STARTUP_GOAL_RATIO:g}x python -c pass, CPU and wall: "
          f"{'met' if ratio <= STARTUP_GOAL_RATIO else 'missed'} "
          f"({ratio:.2f}x)\n")
    return {**medians, "wall": walls}


BOUNDED_TIMEOUT = 5.0
BOUNDED_GOAL = 1.5  # the whole process within this many times --timeout (issue 25)


def bounded_puzzles() -> dict[str, str]:
    """The puzzles of the bounded-work set, as .non text.

    * 1000x1000 of `1 1` clues: every line has about 500,000 placements and the encoding about
      16 M clauses; the previous engine ran 19.7 s and 4.4 GB on it at ``--timeout 5``.
    * 2000x2000 random, 3 colours (13.5 MB, 4.5 million blocks): the most a file may hold, so
      reading it, hashing its clues and setting up its lines are as slow as they get.
    """
    import numpy as np

    from nonogen.clues import puzzle_from_grid
    from nonogen.palette import Color

    lines = "\n".join(["1 1"] * 1000)
    grid = np.random.default_rng(7).integers(0, 4, size=(2000, 2000)).astype(np.uint8)
    palette = (Color("white", "#ffffff", "."), Color("black", "#000000", "a"), Color("red", "#ff0000", "b"),
               Color("blue", "#0000ff", "c"))
    return {"1000x1000 of '1 1'": f"width 1000\nheight 1000\nrows\n{lines}\ncolumns\n{lines}\n",
            "2000x2000 random, 3 colours": formats.dumps(puzzle_from_grid(grid, palette).replace(goal=None), "non")}


def bench_bounded(args) -> dict:
    """`nonogen verify --timeout 5` as a whole process on the :func:`bounded_puzzles`: wall seconds, peak memory."""
    import subprocess
    import tempfile

    results: dict = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, text in bounded_puzzles().items():
            big = Path(folder) / "big.non"
            big.write_text(text)
            commands = {"nonogen": [sys.executable, "-m", "nonogen", "verify", str(big), "--json"]}
            if args.previous_root:
                commands["previous engine"] = [
                    "sh", "-c", f'cd "{args.previous_root}" && exec "$0" -m nonogen verify "$1" --json',
                    sys.executable, str(big)]
            for label, command in commands.items():
                timed = ["/usr/bin/time", "-f", "%e %M", *command, "--timeout", str(BOUNDED_TIMEOUT)]
                done = subprocess.run(timed, capture_output=True, text=True, check=False)
                wall, kb = done.stderr.strip().splitlines()[-1].split()
                status = (json.loads(done.stdout.splitlines()[0])["status"] if done.stdout.strip()
                          else f"exit {done.returncode}")
                results.setdefault(name, {})[label] = {"status": status, "seconds": float(wall),
                                                       "peak_mb": int(kb) / 1024}
    print(f"## bounded work: --timeout {BOUNDED_TIMEOUT:g}, whole process\n")
    for name, by_engine in results.items():
        for label, r in by_engine.items():
            print(f"{name:<30} {label:<16} {r['status']:<10} {r['seconds']:6.1f} s wall  {r['peak_mb']:7.0f} MB peak")
    worst = max(r["nonogen"]["seconds"] for r in results.values())
    print(f"\ngoal {BOUNDED_GOAL * BOUNDED_TIMEOUT:.1f} s: "
          f"{'met' if worst <= BOUNDED_GOAL * BOUNDED_TIMEOUT else 'missed'} "
          f"(slowest {worst:.1f} s)\n")
    return results


def bench_processes(args) -> dict:
    """The survey's 28 puzzles (the three extremes aside) as one `nonogen verify` process each, blind: summed CPU.

    What a user pays who checks puzzle files one at a time, start-up included:
    the issue's first row (nonogen 10.1 s, the newest nonosolve 7.1 s when it
    was filed). ``--no-ambiguity``, as a solver reports one second solution.
    """
    import subprocess
    import tempfile

    with open(SURVEY / "survey-sample.csv", newline="") as handle:
        names = [r["file"] for r in csv.DictReader(handle) if r["tier"] != "extreme"]
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        blind = blind_copies([SURVEY / "survey-sample-non" / name for name in names], Path(folder))
        engines = {"nonogen": [sys.executable, "-m", "nonogen"]}
        if args.previous_root:
            engines["previous engine"] = ["sh", "-c", f'cd "{args.previous_root}" && exec "$0" -m nonogen "$@"',
                                          sys.executable]
        for label, prefix in engines.items():
            before, statuses = children_cpu(), Counter()
            for path in blind:
                done = subprocess.run([*prefix, "verify", str(path), "--json", "--no-ambiguity", "--timeout", "60"],
                                      capture_output=True, text=True, check=False)
                statuses[json.loads(done.stdout.splitlines()[0])["status"] if done.stdout
                         else f"exit {done.returncode}"] += 1
            results[label] = {"cpu_seconds": children_cpu() - before, "statuses": dict(statuses)}
    print(f"## the survey's {len(names)} puzzles, one whole process each (blind, CPU summed)\n")
    for label, r in results.items():
        print(f"{label:<20} {r['cpu_seconds']:6.2f} s CPU   {r['statuses']}")
    print()
    return results


def bench_taai(args) -> dict:
    """The three tournament sets, blind, one worker each: CPU seconds per set against the goal."""
    summary = {}
    print(f"## tournament sets (blind, {args.jobs} processes; per-set CPU is the sum of per-puzzle process CPU)\n")
    for name in TOURNAMENT_SETS:
        results, wall = run_tournament_set(name, args)
        statuses = dict(Counter(r["status"] for r in results))
        cpu = sum(r["cpu"] for r in results)
        print(f"{name}: {len(results)} puzzles, verdicts {statuses}; wall {wall:.1f} s; CPU {cpu:.1f} s; "
              f"slowest {max(r['seconds'] for r in results):.2f} s")
        summary[name] = {"puzzles": len(results), "wall_seconds": wall, "cpu_seconds": cpu, "statuses": statuses}
        previous = previous_measure(name, args)
        if previous is not None:
            summary[name]["previous_cpu_seconds"] = before = sum(r["cpu"] for r in previous)
            changed = sum(a["status"] != b["status"] for a, b in zip(results, previous, strict=True))
            print(f"  previous engine: verdicts {dict(Counter(r['status'] for r in previous))}; CPU {before:.1f} s "
                  f"({before / cpu:.2f}x nonogen's); verdicts that differ: {changed}")
    print("(every solution found is checked against the clues; the published solutions in tests/test_formats.py)\n")
    return summary


RANDOM_SET = (1000, 30, 0.5, 1)  # puzzles, side, share of black cells, seed


def random_file() -> Path:
    """The random set as one TAAI-format file under build/ (written once; the same seed gives the same puzzles)."""
    import random

    count, side, black, seed = RANDOM_SET
    path = ROOT / "build" / f"random-{count}x{side}x{side}-{black:g}-seed{seed}.txt"
    if not path.exists():
        from nonogen.clues import puzzle_from_grid

        rng = random.Random(seed)
        grids = [[[int(rng.random() < black) for _ in range(side)] for _ in range(side)] for _ in range(count)]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(formats.dumps_all([puzzle_from_grid(g).replace(goal=None) for g in grids], "taai"))
    return path


def run_random_set(args) -> tuple[list, float]:
    """The random set (its first 200 puzzles with --quick), blind, as one batch on ``--jobs`` workers."""
    tasks = file_tasks([random_file()])[::args.every]
    return run_set("random", tasks[:200] if args.quick else tasks, "nonogen", args.timeout, args.jobs,
                   fresh_process=False)


def bench_random(args) -> dict:
    """Random 30x30 grids at density 1/2, blind: CPU beside the previous engine's, verdicts compared."""
    results, wall = run_random_set(args)
    statuses = dict(Counter(r["status"] for r in results))
    cpu = sum(r["cpu"] for r in results)
    count, side, black, seed = RANDOM_SET
    print(f"## random {side}x{side} grids, density {black:g}, seed {seed} (blind, {args.jobs} processes)\n")
    print(f"random: {len(results)} puzzles, verdicts {statuses}; wall {wall:.1f} s; CPU {cpu:.1f} s; "
          f"slowest {max(r['seconds'] for r in results):.2f} s")
    summary = {"puzzles": len(results), "wall_seconds": wall, "cpu_seconds": cpu, "statuses": statuses}
    previous = previous_measure("random", args)
    if previous is not None:
        summary["previous_cpu_seconds"] = before = sum(r["cpu"] for r in previous)
        changed = sum(a["status"] != b["status"] for a, b in zip(results, previous, strict=True))
        summary["verdicts_differing"] = changed
        print(f"  previous engine: verdicts {dict(Counter(r['status'] for r in previous))}; CPU {before:.1f} s "
              f"({cpu / before:.2f}x of it); verdicts that differ: {changed}")
    print()
    return summary


COLOUR_SETS = ("colour", "random-colour")  # one worker for the whole set (in-process seconds without start-up)


def bench_files(name: str, paths, args) -> dict:
    tasks = file_tasks(paths)
    results, wall = run_set(name, tasks, "nonogen", args.timeout, 1, fresh_process=name not in COLOUR_SETS)
    print(f"## {name} set ({len(results)} puzzles)\n")
    print(f"{'puzzle':<44} {'size':>8} {'status':<10} {'difficulty':<10} {'s':>8} {'MB':>6}")
    for (path, index, _), r in zip(tasks, results, strict=True):
        puzzle = _puzzles(path)[index]
        label = Path(path).name + (f"#{index + 1}" if index else "")
        print(f"{label[:44]:<44} {puzzle.width}x{puzzle.height:<4} {r['status']:<10} {str(r['difficulty']):<10} "
              f"{r['seconds']:8.3f} {r['peak_mb']:6.0f}")
    total = sum(r["seconds"] for r in results)
    print(f"\n{name}: {dict(Counter(r['status'] for r in results))}; total {total:.2f} s in-process, wall {wall:.1f} s")
    summary = {"total_seconds": total, "rows": [{"file": t[0], **r} for t, r in zip(tasks, results, strict=True)]}
    previous = previous_measure(name, args) if name in COLOUR_SETS else None
    if previous is not None:
        summary["previous_total_seconds"] = before = sum(r["seconds"] for r in previous)
        changed = [Path(t[0]).name for t, a, b in zip(tasks, results, previous, strict=True)
                   if a["status"] != b["status"]]
        print(f"  previous engine: {dict(Counter(r['status'] for r in previous))}; total {before:.2f} s in-process "
              f"({before / max(total, 1e-9):.2f}x nonogen's); verdicts that differ: {len(changed)} {changed[:5]}")
    print()
    return summary


def _fmt(result: dict) -> str:
    if result["status"] in ("unique", "multiple"):
        return f"{result['seconds']:.3f}"
    return result["status"]


if __name__ == "__main__":
    sys.exit(main())
