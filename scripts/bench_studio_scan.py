"""Benchmark the studio's clue mode through the real server: a puzzle page read, then a correction proved.

For sheets drawn by ``nonogen render`` from the samples (PNG, and PDF: read from its text layer), each at its
size:

- reading: ``/api/scan/open`` from the request to its answer (the page read, each puzzle's part of the page cut
  out and sent as a PNG with its clue boxes) against ``nonogen.scan(path, verify=False)`` in this process, the
  reading alone (the baseline, in the same run);
- a correction: ``/api/scan/check`` of the puzzle's clues, each time with one line's confidence raised as a
  correction does, from the request to its verdict line and to its last line (solution, grade), against
  ``Session(puzzle).verify`` of the same clues in this process (the engine alone, the floor the server adds
  process hops, JSON and HTTP to). Median and largest of ``--corrections`` (default 20).

Usage: .venv/bin/python scripts/bench_studio_scan.py [--corrections N]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_studio import post, start_server  # noqa: E402
from nonogen import scan  # noqa: E402
from nonogen.solve.session import Session  # noqa: E402
from nonogen.studio.document import clue_puzzle  # noqa: E402
from nonogen.studio.scanroutes import checked_clues  # noqa: E402

SHEETS = [("heart.non", ".png"), ("webpbn-00023.non", ".png"), ("webpbn-00006.non", ".png"),
          ("webpbn-00016.non", ".png"), ("webpbn-00065.non", ".png"), ("webpbn-00016.non", ".pdf")]


def timed(fn) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def case(url: str, sheet: Path, corrections: int) -> str:
    alone, found = timed(lambda: scan(sheet, verify=False))
    lines = post(url, "api/scan/open", {"name": sheet.name})
    served, read = lines[-1]
    puzzle = read["puzzles"][0]
    clues = {key: puzzle[key] for key in ("rows", "cols", "row_confidence", "col_confidence")}
    engine, verdicts, lasts = [], [], []
    for k in range(corrections):
        line = k % len(clues["rows"])
        clues["row_confidence"][line] = 1.0 if clues["row_confidence"][line] < 1 else 0.99  # a correction's change
        engine.append(timed(lambda: Session(clue_puzzle(checked_clues(clues))).verify(timeout=30, grade=False))[0])
        answer = post(url, "api/scan/check", {"clues": clues})
        verdicts.append(answer[0][0])
        lasts.append(answer[-1][0])
    size = f"{found[0].puzzle.width}x{found[0].puzzle.height}"
    verdict = answer[0][1]["verdict"]
    return (f"| {sheet.name} | {size} | {1000 * alone:.0f} | {1000 * served:.0f} | "
            f"{1000 * statistics.median(engine):.1f} | {1000 * statistics.median(verdicts):.1f} "
            f"({1000 * max(verdicts):.0f}) | {1000 * statistics.median(lasts):.1f} ({1000 * max(lasts):.0f}) | "
            f"{verdict} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corrections", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-studio-scan-") as tmp:
        folder = Path(tmp)
        sheets = []
        for name, suffix in SHEETS:
            out = folder / (Path(name).stem + "-sheet" + suffix)
            subprocess.run([sys.executable, "-m", "nonogen", "render", str(ROOT / "samples" / "puzzles" / name), "-o",
                            str(out), "--force"], check=True, capture_output=True)
            sheets.append(out)
        server, url = start_server(folder)
        try:
            post(url, "api/scan/open", {"name": sheets[0].name})  # a worker started, the digit prototypes loaded
            print("| sheet | size | read alone ms | /api/scan/open ms | engine alone ms | verdict ms median (max) "
                  "| last line ms median (max) | verdict |")
            print("|---|---|---|---|---|---|---|---|")
            for sheet in sheets:
                print(case(url, sheet, args.corrections), flush=True)
        finally:
            server.terminate()
            server.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
