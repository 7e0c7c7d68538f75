"""Build the native peer solvers that scripts/bench_peers.py times beside nonogen.

The peers' code never enters this repository: you fetch their sources yourself (docs/benchmarks.md,
"Peer solvers", says from where and at which commits) and name the folders here. Each is copied into
``INTO/src/<name>`` and built there, so the folders you give stay as they were; the binaries land in
``INTO/bin`` (default ``peers/``, which git ignores), each checked on a 5x5 puzzle.

* pbnsolve 1.10: ``--pbnsolve DIR``, the repository's tree (``DIR/src/Makefile``); needs libxml2's headers.
* nonosolve: ``--nonosolve DIR`` holding ``Makefile``, ``src/*`` and ``deps/kissat_rename_dups.h``, with
  ``--kissat DIR`` (Kissat 4.0.4) and ``--cadical DIR`` (CaDiCaL 2.2.0) source trees.

Usage: python scripts/build_peers.py [--into DIR] [--pbnsolve DIR] [--nonosolve DIR --kissat DIR --cadical DIR]
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NONOSOLVE_FILES = ("Makefile", "deps/kissat_rename_dups.h", "src/main.cpp", "src/solver.h", "src/sat.cpp",
                   "src/engine.h", "src/sat.h", "src/bits.h", "src/linesolve.h", "src/puzzle.h")
NEEDS = {  # the files each source folder must hold (what tells a wrong folder from the right one)
    "pbnsolve": ("src/Makefile", "src/pbnsolve.c", "src/read_xml.c"),
    "nonosolve": NONOSOLVE_FILES,
    "kissat": ("configure", "makefile.in", "src/kissat.h", "VERSION"),
    "cadical": ("configure", "makefile.in", "src/cadical.hpp", "VERSION"),
}
CHECK_PUZZLE = "width 5\nheight 5\nrows\n1\n3\n5\n3\n1\ncolumns\n1\n3\n5\n3\n1\n"


class BuildError(Exception):
    """A peer that could not be built: the message says which step and why, in one line."""


def missing(args: argparse.Namespace) -> list[str]:
    """What the given folders lack: whole folders nonosolve needs, and files each folder should hold."""
    gaps = []
    if args.nonosolve:
        gaps += [f"--{name} (nonosolve needs it)" for name in ("kissat", "cadical") if not getattr(args, name)]
    for name, files in NEEDS.items():
        folder = getattr(args, name)
        if folder is None:
            continue
        if not folder.is_dir():
            gaps.append(f"{name}: {folder} is not a folder")
            continue
        absent = [f for f in files if not (folder / f).is_file()]
        if absent:
            gaps.append(f"{name}: {folder} lacks {', '.join(absent)}")
    if args.pbnsolve and not shutil.which("xml2-config"):
        gaps.append("pbnsolve: libxml2's headers (apt-get install libxml2-dev)")
    gaps += [f"the {tool} command" for tool in ("make", "cc", "g++") if not shutil.which(tool)]
    return gaps


def run(command: list[str], cwd: Path, step: str) -> None:
    """Run one build step; its output goes to ``build.log`` beside it, and its tail into the error."""
    log = cwd / "build.log"
    with open(log, "a") as out:
        done = subprocess.run(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, check=False)
    if done.returncode != 0:
        tail = log.read_text(errors="replace").strip().splitlines()[-1:] or ["(no output)"]
        raise BuildError(f"{step} failed (exit {done.returncode}; {log}): {tail[0][:200]}")


def fresh_copy(source: Path, into: Path) -> Path:
    """``source`` copied to ``into`` (replacing an earlier copy), without a build folder of its own."""
    shutil.rmtree(into, ignore_errors=True)
    shutil.copytree(source, into, ignore=shutil.ignore_patterns("build", ".git", "*.o", "*.a"))
    return into


def build_pbnsolve(source: Path, into: Path, jobs: int) -> Path:
    """pbnsolve's own Makefile, from a tree without the prebuilt objects the repository carries."""
    tree = fresh_copy(source, into / "src" / "pbnsolve")
    (tree / "src" / "pbnsolve").unlink(missing_ok=True)
    run(["make", f"-j{jobs}"], tree / "src", "pbnsolve: make")
    return install(tree / "src" / "pbnsolve", into)


def build_nonosolve(args: argparse.Namespace, into: Path, jobs: int) -> Path:
    """Kissat (compact, its duplicate symbols renamed) and CaDiCaL under third_party/, then nonosolve's Makefile."""
    tree = into / "src" / "nonosolve"
    shutil.rmtree(tree, ignore_errors=True)
    for name in NONOSOLVE_FILES:
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(args.nonosolve / name, tree / name)
    kissat = fresh_copy(args.kissat, tree / "third_party" / "kissat")
    cadical = fresh_copy(args.cadical, tree / "third_party" / "cadical")
    run(["./configure", "--compact"], kissat, "kissat: configure")
    makefile = kissat / "build" / "makefile"
    first, rest = makefile.read_text().split("\n", 1)
    rename = (tree / "deps" / "kissat_rename_dups.h").resolve()
    makefile.write_text(f"{first} -include {rename}\n{rest}")  # Kissat's and CaDiCaL's kitten share names
    run(["make", f"-j{jobs}", "libkissat.a"], kissat / "build", "kissat: make")
    run(["./configure"], cadical, "cadical: configure")
    run(["make", f"-j{jobs}", "libcadical.a"], cadical / "build", "cadical: make")
    run(["make", "CXX=g++"], tree, "nonosolve: make")
    return install(tree / "bin" / "nonosolve", into)


def install(binary: Path, into: Path) -> Path:
    (into / "bin").mkdir(parents=True, exist_ok=True)
    target = into / "bin" / binary.name
    shutil.copy2(binary, target)
    return target


def check(binary: Path, into: Path) -> str:
    """The peer's verdict on a 5x5 puzzle with one solution: what it printed last, which must say unique."""
    puzzle = into / "check.non"
    puzzle.write_text(CHECK_PUZZLE)
    command = [str(binary), "-b", "-u", str(puzzle)] if binary.name == "pbnsolve" else [str(binary), "-q", str(puzzle)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    verdict = (done.stdout.strip().splitlines() or ["(nothing)"])[-1]
    if "unique" not in verdict.lower():
        raise BuildError(f"{binary} built but says {verdict!r} on a 5x5 puzzle with one solution")
    return verdict


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--into", type=Path, default=ROOT / "peers", help="where to build (default peers/)")
    for name in NEEDS:
        parser.add_argument(f"--{name}", type=Path, metavar="DIR", help=f"{name}'s source folder")
    parser.add_argument("--jobs", type=int, default=2, help="make -jN (default 2)")
    args = parser.parse_args()
    if not (args.pbnsolve or args.nonosolve):
        print("build_peers: nothing to build: give --pbnsolve DIR and/or --nonosolve DIR --kissat DIR --cadical DIR "
              "(docs/benchmarks.md says where to get them)", file=sys.stderr)
        return 2
    gaps = missing(args)
    if gaps:
        print(f"build_peers: missing: {'; '.join(gaps)}", file=sys.stderr)
        return 2
    into = args.into.resolve()
    try:
        built = []
        if args.pbnsolve:
            built.append(build_pbnsolve(args.pbnsolve.resolve(), into, args.jobs))
        if args.nonosolve:
            built.append(build_nonosolve(args, into, args.jobs))
        for binary in built:
            print(f"{binary}: {check(binary, into)} on a 5x5 check puzzle")
    except (BuildError, OSError, subprocess.TimeoutExpired) as exc:
        print(f"build_peers: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
