"""Every row of issue 37 in one run: nonogen beside the previous engine and the native peer solvers.

Rows (CPU of whole processes, summed; one timed job at a time; every puzzle blind):
  startup      a whole `nonogen verify` on a 5x5 puzzle, median of many runs, against bare `python -c pass`
               (nonosolve on the same puzzle alongside);
  survey       webpbn survey, 28 puzzles, a process each;
  extreme      knotty / meow / faase, a process each;
  taai         TAAI 2011, 1000 puzzles: one process each side (nonosolve --taai FILE -n 2);
  webpbn       the 6,746 scraped webpbn puzzles: nonogen one batch, nonosolve --cache-bits 16 a process each;
  random       1000 seeded random 30x30 grids, density 1/2: nonogen one batch, nonosolve a process each;
On the survey and random rows nonosolve runs twice, as it comes and with --cache-bits 16 (its fastest setting
on many small puzzles: it clears a smaller line cache per puzzle); the ratio is to the faster of the two.
  colour       seeded random 3-colour grids (background 2/5), 200 at 20x20 and 100 at 30x30:
               nonogen one batch, pbnsolve -b -u a process each;
  collections  the shared colour puzzles nonogen reads (number-loom XML, Olsak .g): the same way, each side the
               median of 7 runs (a tenth of a second a side is one noisy sample otherwise).
Each row compares the verdicts (puzzles decided both ways with different verdicts: must be 0), prints the
seconds of each side, nonogen's ratio to the row's peer and the issue's target: random 30x30 <= 0.8x,
start-up <= 2.5x `python -c pass`, every other row <= 0.7x. A row whose peer is not built is timed
without it and marked skipped, and so is a row whose puzzles are absent (all but startup, random and colour read
../shared/data, which is not in the repository); with --skip-without-peers, when no peer is built, the run ends at
once in one line (`make bench`: bench_verify.py measures nonogen alone). scripts/build_peers.py builds the peers
(docs/benchmarks.md).

Usage: .venv/bin/python scripts/bench_peers.py [--quick] [--only ROW,...] [--peers DIR] [--previous REV|none]
       [--scraped DIR] [--json FILE] [--skip-without-peers]
"""
from __future__ import annotations

import argparse
import compileall
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Optional

from _bench import (DATA, ROOT, SCRAPED_FOLDERS, STARTUP_PUZZLE, SURVEY, blind_copies, children_cpu, engine_copy,
                    file_tasks, machine, no_shared, skip)

from nonogen import formats
from nonogen.clues import puzzle_from_grid
from nonogen.palette import Color

PREVIOUS_ENGINE = "e490d9f"  # main when issue 37 was measured
PEER_FOLDERS = (ROOT / "peers" / "bin", ROOT.parent / "peers" / "bin")
ROWS = ("startup", "survey", "extreme", "taai", "webpbn", "random", "colour", "collections")
SHARED_ROWS = {"survey": "webpbn survey", "extreme": "knotty, meow, faase", "taai": "TAAI 2011",
               "collections": "shared colour collections"}
"""The rows read from ../shared/data (DATA), which is not in the repository: without it they are marked skipped."""
TARGET, RANDOM_TARGET, STARTUP_TARGET = 0.7, 0.8, 2.5
DECIDED = ("unique", "multiple", "unsolvable")
TIMEOUT = 60.0  # seconds per puzzle, every side
SHORT_ROW_REPEATS = 7  # the collections row takes a tenth of a second a side: the median of this many runs
EXTREME_TIMEOUT = 300.0
SEED = 37  # the number; each generated set adds its own offset
COLOURS = (Color("white", "#ffffff", "."), Color("red", "#ff0000", "a"), Color("green", "#00aa00", "b"),
           Color("blue", "#0000ff", "c"))


@dataclass
class Side:
    """One solver's part of a row: its CPU seconds and its verdict on each puzzle (keyed by file name[#member])."""
    name: str
    cpu: float
    verdicts: dict[str, str] = field(default_factory=dict)


@dataclass
class Row:
    """One line of the issue's table: nonogen first, then the previous engine and the peer, as measured."""
    label: str
    puzzles: int
    target: float
    versus: str  # nonogen's ratio is to the fastest side whose name starts with this
    sides: list[Side] = field(default_factory=list)
    skipped: str = ""  # why the peer side is absent

    def side(self, name: str) -> Optional[Side]:
        return next((s for s in self.sides if s.name == name), None)

    def opponent(self) -> Optional[Side]:
        return min((s for s in self.sides[1:] if s.name.startswith(self.versus)), key=lambda s: s.cpu, default=None)

    def differing(self) -> dict[str, int]:
        """Per other side: puzzles both decided, with different verdicts."""
        ours = self.sides[0].verdicts if self.sides else {}
        return {s.name: sum(v in DECIDED and s.verdicts.get(k) in DECIDED and s.verdicts[k] != v
                            for k, v in ours.items()) for s in self.sides[1:] if s.verdicts}

    def undecided(self) -> int:
        return sum(v not in DECIDED for v in self.sides[0].verdicts.values()) if self.sides else 0

    def ratio(self) -> Optional[float]:
        versus = self.opponent()
        return self.sides[0].cpu / versus.cpu if self.sides and versus and versus.cpu > 0 else None

    def result(self) -> str:
        ratio = self.ratio()
        if ratio is None:
            return "skipped"
        ok = ratio <= self.target and not any(self.differing().values()) and not self.undecided()
        return "PASS" if ok else "MISS"


# -- running processes ----------------------------------------------------------------------------


def median_cpu(commands: list[list[str]], repeats: int, **kwargs) -> tuple[float, list[str]]:
    """:func:`cpu_of` ``repeats`` times: the median CPU, and what the first run printed.

    A whole process of 50 ms is one sample of a noisy quantity (one run in ten took 40 ms more on a quiet
    machine); a side that is many processes already averages them, so both sides of a short row repeat."""
    runs = [cpu_of(commands, **kwargs) for _ in range(repeats)]
    return statistics.median(cpu for cpu, _ in runs), runs[0][1]


def cpu_of(commands: list[list[str]], cwd: Optional[Path] = None, timeout: Optional[float] = None,
           label: str = "") -> tuple[float, list[str]]:
    """Run ``commands`` one after another: the CPU of the whole processes and what each printed.

    A process past ``timeout`` seconds (wall) is killed; its output is "timeout" and its CPU still counts.
    """
    before, outputs = children_cpu(), []
    for done, command in enumerate(commands, 1):
        try:
            done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout)
            outputs.append(done.stdout or f"error: exit {done.returncode}: {done.stderr.strip()[-300:]}")
        except subprocess.TimeoutExpired:
            outputs.append("timeout")
        if sys.stderr.isatty():
            print(f"\r  {label} {done}/{len(commands)}", end="", file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        print("\r\033[K", end="", file=sys.stderr)
    return children_cpu() - before, outputs


def nonogen_records(output: str) -> dict[str, str]:
    """`nonogen verify --json` records by file name (``name#k`` for a bundle's k-th member)."""
    found = {}
    for line in output.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            name = Path(record["file"].split("#")[0]).name
            found[name + (f"#{record['member']}" if "member" in record else "")] = record["status"]
    return found


def nonogen_one(output: str) -> str:
    records = nonogen_records(output)
    return next(iter(records.values())) if records else output.strip() or "error"


NONOSOLVE_STATUS = {"UNIQUE": "unique", "MULTIPLE": "multiple", "NONE": "unsolvable", "TIMEOUT": "timeout"}


def nonosolve_one(output: str) -> str:
    """nonosolve's first line: ``FILE WxH STATUS time=...``."""
    words = output.split("\n", 1)[0].split()
    return NONOSOLVE_STATUS.get(words[2], words[2]) if len(words) > 2 else output.strip() or "error"


def pbnsolve_one(output: str) -> str:
    """pbnsolve -b prints the title, then the verdict ("unique logical", "multiple", "contradiction", ...)."""
    last = (output.strip().splitlines() or ["error"])[-1]
    for word, verdict in (("unique", "unique"), ("multiple", "multiple"), ("contradi", "unsolvable"),
                          ("timeout", "timeout"), ("CPU time", "timeout")):
        if word in last:
            return verdict
    return last


def find_peers(folder: Optional[str]) -> tuple[dict[str, Optional[Path]], str]:
    """Each peer's binary (None when it is not built) in ``folder`` or PEER_FOLDERS, and where they were looked for."""
    folders = [Path(folder)] if folder else list(PEER_FOLDERS)
    peers = {name: next((f / name for f in folders if os.access(f / name, os.X_OK)), None)
             for name in ("nonosolve", "pbnsolve")}
    return peers, " or ".join(str(f) for f in folders)


class Engines:
    """The solvers of this run: nonogen, the previous engine (when built) and the peers (when found)."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.previous: Optional[Path] = None
        if args.previous != "none":
            try:
                self.previous = engine_copy(args.previous)
            except RuntimeError as exc:  # a shallow clone, no compiler: measure without it and say why
                print(f"previous engine skipped: {exc}", file=sys.stderr)
        self.peers, self.where = find_peers(args.peers)
        for root in filter(None, (ROOT, self.previous)):  # both start from cached bytecode, as installed
            compileall.compile_dir(root / "nonogen", quiet=1)

    def nonogen(self, paths: list[Path], batch: bool, timeout: float = TIMEOUT, repeats: int = 1) -> list[Side]:
        """nonogen, then the previous engine: one `verify` process over all ``paths``, or a process each
        (the median CPU of ``repeats`` runs)."""
        sides = []
        for name, cwd in (("nonogen", ROOT), ("previous", self.previous)):
            if cwd is None:
                continue
            base = [sys.executable, "-m", "nonogen", "verify", "--json", "--no-ambiguity", "--timeout", str(timeout)]
            if batch:
                cpu, out = median_cpu([base + [str(p) for p in paths]], repeats, cwd=cwd, label=name)
                if not nonogen_records(out[0]):
                    print(f"  {name}: no records: {out[0][-300:]}")
                sides.append(Side(name, cpu, nonogen_records(out[0])))
            else:
                cpu, outs = cpu_of([base + [str(p)] for p in paths], cwd, 2 * timeout + 30, name)
                sides.append(Side(name, cpu, {p.name: nonogen_one(o) for p, o in zip(paths, outs, strict=True)}))
        return sides

    def nonosolve_both(self, row: Row, paths: list[Path]) -> None:
        """nonosolve as it comes and with ``--cache-bits 16`` (its fastest setting on many small puzzles)."""
        self.peer(row, "nonosolve", ["-q", "--timeout", str(TIMEOUT)], paths)
        self.peer(row, "nonosolve", ["-q", "--timeout", str(TIMEOUT), "--cache-bits", "16"], paths,
                  label="nonosolve --cache-bits 16")

    def peer(self, row: Row, name: str, options: list[str], paths: list[Path], timeout: float = TIMEOUT,
             label: str = "", repeats: int = 1) -> None:
        """A peer's side of ``row``: a process per puzzle, the median CPU of ``repeats`` runs (or why the peer is
        absent)."""
        binary = self.peers[name]
        if binary is None:
            row.skipped = f"{name} not found in {self.where} (scripts/build_peers.py builds it)"
            return
        parse: Callable[[str], str] = pbnsolve_one if name == "pbnsolve" else nonosolve_one
        cpu, outs = median_cpu([[str(binary), *options, str(p)] for p in paths], repeats, timeout=timeout + 30,
                               label=label or name)
        row.sides.append(Side(label or name, cpu, {p.name: parse(o) for p, o in zip(paths, outs, strict=True)}))


# -- the puzzles ---------------------------------------------------------------------------------


def random_grids(count: int, size: int, colours: int, seed: int, folder: Path) -> list[Path]:
    """``count`` seeded random grids as blind puzzle files: B&W cells black with probability 1/2 (``.non``);
    with colours, background with probability 2/5, else one of ``colours`` alike (webpbn ``.xml``)."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        if colours:
            grid = [[0 if rng.random() < 0.4 else rng.randint(1, colours) for _ in range(size)] for _ in range(size)]
            puzzle, fmt = puzzle_from_grid(grid, COLOURS[:colours + 1]), "webpbn"
        else:
            puzzle, fmt = puzzle_from_grid([[int(rng.random() < 0.5) for _ in range(size)] for _ in range(size)]), "non"
        paths.append(folder / f"r{size}-{i:04d}.{'xml' if colours else 'non'}")
        paths[-1].write_text(formats.dumps(puzzle.replace(goal=None), fmt))
    return paths


def survey_files(tier: str) -> list[Path]:
    import csv  # only the survey rows read the index

    with open(SURVEY / "survey-sample.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    wanted = [r["file"] for r in rows if (r["tier"] == "extreme") == (tier == "extreme")]
    return [SURVEY / "survey-sample-non" / name for name in wanted]


# -- the rows ------------------------------------------------------------------------------------


def row_startup(engines: Engines, args, folder: Path) -> list[Row]:
    """Median CPU of one whole process on a 5x5 puzzle; both engines from cached bytecode."""
    small = folder / "small.non"
    small.write_text(STARTUP_PUZZLE)
    commands = {"python -c pass": ([sys.executable, "-c", "pass"], None),
                "nonogen": ([sys.executable, "-m", "nonogen", "verify", "--json", str(small)], ROOT)}
    if engines.previous:
        commands["previous"] = (commands["nonogen"][0], engines.previous)
    if engines.peers["nonosolve"]:
        commands["nonosolve"] = ([str(engines.peers["nonosolve"]), "-q", str(small)], None)
    runs = 5 if args.quick else 41
    row = Row("start-up: 5x5 verify, whole process (median)", 1, STARTUP_TARGET, "python -c pass")
    for name, (command, cwd) in commands.items():
        times, outputs = [], []
        for _ in range(runs):
            cpu, out = cpu_of([command], cwd)
            times.append(cpu)
            outputs += out
        parse = nonosolve_one if name == "nonosolve" else nonogen_one
        verdicts = {} if "pass" in name else {small.name: parse(outputs[0])}
        row.sides.append(Side(name, statistics.median(times), verdicts))
    row.sides.insert(0, row.sides.pop(1))  # nonogen first
    if not engines.peers["nonosolve"]:
        row.skipped = "nonosolve not found (its start-up is not shown)"
    return [row]


def row_survey(engines: Engines, args, folder: Path) -> list[Row]:
    files = blind_copies(survey_files("normal"), folder / "survey")[:: 5 if args.quick else 1]
    row = Row(f"webpbn survey, {len(files)} puzzles, a process each", len(files), TARGET, "nonosolve")
    row.sides = engines.nonogen(files, batch=False)
    engines.nonosolve_both(row, files)
    return [row]


def row_extreme(engines: Engines, args, folder: Path) -> list[Row]:
    rows = []
    paths = survey_files("extreme")
    for path in blind_copies([p for p in paths if p.stem == "knotty"] if args.quick else paths, folder / "extreme"):
        row = Row(f"{path.stem}, blind, one process", 1, TARGET, "nonosolve")
        row.sides = engines.nonogen([path], batch=False, timeout=EXTREME_TIMEOUT)
        engines.peer(row, "nonosolve", ["-q", "--timeout", str(EXTREME_TIMEOUT)], [path], EXTREME_TIMEOUT)
        rows.append(row)
    return rows


def row_taai(engines: Engines, args, folder: Path) -> list[Row]:
    """TAAI 2011, one process a side: nonogen verifies the file, nonosolve --taai FILE -n 2 logs the verdicts."""
    source = DATA / "taai" / "question" / "taai2011.txt"
    taai = source
    if args.quick:  # the first 50 puzzles
        blocks = source.read_text().split("$")[1:51]
        taai = folder / "taai2011.txt"
        taai.write_text("".join("$" + b for b in blocks))
    count = taai.read_text().count("$")
    row = Row(f"TAAI 2011, {count} puzzles, one process each side", count, TARGET, "nonosolve")
    row.sides = engines.nonogen([taai], batch=True)
    if engines.peers["nonosolve"] is None:
        row.skipped = f"nonosolve not found in {engines.where}"
        return [row]
    log = folder / "taai.log"
    command = [str(engines.peers["nonosolve"]), "--taai", str(taai), "-n", "2", "-o", str(folder / "taai.out"),
               "--log", str(log), "--timeout", str(TIMEOUT)]
    cpu, _ = cpu_of([command], label="nonosolve --taai")
    statuses = [line.split("\t")[2] for line in log.read_text().splitlines() if line.startswith("#")]
    row.sides.append(Side("nonosolve --taai", cpu, {f"{taai.name}#{i}": NONOSOLVE_STATUS.get(s, s)
                                                    for i, s in enumerate(statuses, 1)}))
    return [row]


def row_webpbn(engines: Engines, args, folder: Path) -> list[Row]:
    source = Path(args.scraped) if args.scraped else next((f for f in SCRAPED_FOLDERS if f.is_dir()), None)
    if source is None or not source.is_dir():
        return [Row("6,746 webpbn puzzles", 0, TARGET, "nonosolve", skipped="the puzzles are not in "
                    f"{args.scraped or SCRAPED_FOLDERS[0]} (docs/benchmarks.md says how to get them; --scraped DIR)")]
    paths = sorted(source.glob("*.non"), key=lambda p: (len(p.stem), p.stem))[: 100 if args.quick else None]
    files = blind_copies(paths, folder / "webpbn")
    row = Row(f"{len(files):,} webpbn puzzles: one batch vs a process each", len(files), TARGET,
              "nonosolve")
    row.sides = engines.nonogen([folder / "webpbn"], batch=True)
    engines.peer(row, "nonosolve", ["-q", "--timeout", str(TIMEOUT), "--cache-bits", "16"], files,
                 label="nonosolve --cache-bits 16")
    return [row]


def row_random(engines: Engines, args, folder: Path) -> list[Row]:
    count = 40 if args.quick else 1000
    files = random_grids(count, 30, 0, SEED, folder / "random")
    row = Row(f"{count} random 30x30 grids, density 1/2: one batch vs a process each", count, RANDOM_TARGET,
              "nonosolve")
    row.sides = engines.nonogen([folder / "random"], batch=True)
    engines.nonosolve_both(row, files)
    return [row]


def row_colour(engines: Engines, args, folder: Path) -> list[Row]:
    rows = []
    for size, count in ((20, 200), (30, 100)):
        count = count // 10 if args.quick else count
        files = random_grids(count, size, 3, SEED * 100 + size, folder / f"colour{size}")
        row = Row(f"{count} random 3-colour {size}x{size} grids: one batch vs a process each", count, TARGET,
                  "pbnsolve")
        row.sides = engines.nonogen([folder / f"colour{size}"], batch=True)
        engines.peer(row, "pbnsolve", ["-b", "-u", f"-x{int(TIMEOUT)}"], files)
        rows.append(row)
    return rows


def row_collections(engines: Engines, args, folder: Path) -> list[Row]:
    """The shared colour collections, as far as nonogen reads them (triangle puzzles and B&W .mk files aside)."""
    colored = DATA / "colored"
    candidates = sorted(colored.rglob("*.xml")) + sorted(colored.rglob("*.g"))
    files = sorted({Path(path) for path, _, _ in file_tasks(candidates)})[:: 5 if args.quick else 1]
    row = Row(f"shared colour collections, {len(files)} puzzles: one batch vs a process each", len(files), TARGET,
              "pbnsolve")
    row.sides = engines.nonogen(files, batch=True, repeats=SHORT_ROW_REPEATS)
    engines.peer(row, "pbnsolve", ["-b", "-u", f"-x{int(TIMEOUT)}"], files, repeats=SHORT_ROW_REPEATS)
    return [row]


# -- the report -----------------------------------------------------------------------------------


def print_row(row: Row) -> None:
    print(f"## {row.label}")
    for side in row.sides:
        counts: dict[str, int] = {}
        for verdict in side.verdicts.values():
            counts[verdict] = counts.get(verdict, 0) + 1
        print(f"  {side.name:<28} {side.cpu:9.3f} s CPU   {counts or ''}")
    ratio = row.ratio()
    if ratio:
        print(f"  ratio {ratio:.2f}x {row.opponent().name} (target <= {row.target:g}x); differing verdicts "
              f"{row.differing()}; nonogen undecided {row.undecided()} -> {row.result()}")
    if row.skipped:
        print(f"  {'note' if ratio else 'peer skipped'}: {row.skipped}")
    print(flush=True)


def print_table(rows: list[Row]) -> None:
    print("## every row, side by side (CPU seconds of whole processes)\n")
    print("| row | nonogen s | previous s | peer | peer s | ratio | target | verdicts differing | result |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---|")
    for row in rows:
        previous, versus = row.side("previous"), row.opponent()
        ratio = row.ratio()
        ours = f"{row.sides[0].cpu:.3f}" if row.sides else "-"
        print(f"| {row.label} | {ours} | {f'{previous.cpu:.3f}' if previous else '-'} | "
              f"{versus.name if versus else 'absent'} | {f'{versus.cpu:.3f}' if versus else '-'} | "
              f"{f'{ratio:.2f}x' if ratio else '-'} | <= {row.target:g}x | "
              f"{sum(row.differing().values())} | {row.result()} |")
    for row in rows:
        if row.skipped:
            print(f"- {row.label}: {row.skipped}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a small part of every row (about 2 minutes)")
    parser.add_argument("--only", default=",".join(ROWS), metavar="ROW,...", help=f"rows to run: {', '.join(ROWS)}")
    parser.add_argument("--peers", metavar="DIR", help="folder of the peer binaries (default peers/bin, then "
                        "../peers/bin)")
    parser.add_argument("--previous", default=PREVIOUS_ENGINE, metavar="REV",
                        help=f"the engine to compare with (default {PREVIOUS_ENGINE}; 'none': skip)")
    parser.add_argument("--scraped", metavar="DIR", help="the 6,746 webpbn .non files (default: looked for beside "
                        "the shared data, then in ../peers/data)")
    parser.add_argument("--json", metavar="FILE", help="also write every row here")
    parser.add_argument("--skip-without-peers", action="store_true", help="when neither peer is built, say so in "
                        "one line and exit 0 (what make bench passes)")
    args = parser.parse_args()
    only = args.only.split(",")
    unknown = sorted(set(only) - set(ROWS))
    if unknown:
        parser.error(f"--only: no row {', '.join(unknown)} (rows: {', '.join(ROWS)})")
    if args.skip_without_peers:
        peers, where = find_peers(args.peers)
        if not any(peers.values()):
            skip(f"no peer solver in {where} (scripts/build_peers.py builds them)")
    engines = Engines(args)
    print(f"nonogen against its peers  ({time.strftime('%Y-%m-%d %H:%M')}, {machine()}, "
          f"load average {os.getloadavg()[0]:.1f} at the start)")
    print(f"previous engine: {args.previous if engines.previous else 'none'}; peers: "
          + ", ".join(f"{n} {p or 'absent'}" for n, p in engines.peers.items()) + "\n", flush=True)
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="bench-peers-") as tmp:
        for name in (n for n in ROWS if n in only):
            if name in SHARED_ROWS and not DATA.is_dir():
                made = [Row(SHARED_ROWS[name], 0, TARGET, "", skipped=no_shared(DATA))]
            else:
                made = globals()[f"row_{name}"](engines, args, Path(tmp))
            for row in made:
                print_row(row)
                rows.append(row)
    print_table(rows)
    print(f"\nload average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())} (1, 5, 15 min)")
    if args.json:
        Path(args.json).write_text(json.dumps([{**asdict(r), "ratio": r.ratio(), "result": r.result(),
                                                "differing": r.differing()} for r in rows], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
