"""Take the wall-clock fields out of what ``make demo`` wrote, so a second run leaves outputs/ unchanged.

outputs/ is committed: it is how a visitor of the repository sees what nonogen makes. How long each step
took depends on the machine and its load, so every demo run rewrote some twenty files with new numbers.
Timings are measured by the benchmarks (scripts/bench_*.py); a user's own runs keep them in report.json.

Usage: python scripts/demo_untimed.py PATH...   (folders are searched for report.json and *.jsonl files)
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from nonogen.files import json_text, write_file

WALL_CLOCK = ("seconds", "timings")  # the keys nonogen's reports and records give elapsed time under


def untimed(value: Any) -> Any:
    """``value`` without its wall-clock fields, at any depth.

    >>> untimed({"status": "unique", "seconds": 0.2, "steps": [{"timings": {"verify": 0.1}, "n": 1}]})
    {'status': 'unique', 'steps': [{'n': 1}]}
    """
    if isinstance(value, dict):
        return {key: untimed(item) for key, item in value.items() if key not in WALL_CLOCK}
    if isinstance(value, list):
        return [untimed(item) for item in value]
    return value


def untime_file(path: Path) -> None:
    """Rewrite one report (indented JSON, as nonogen writes it) or JSON Lines file (one record a line)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".jsonl":
        lines = [json.dumps(untimed(json.loads(line)), ensure_ascii=False) for line in text.splitlines() if line]
        new = "".join(line + "\n" for line in lines)
    else:
        new = json_text(untimed(json.loads(text)))
    if new != text:
        write_file(path, new, force=True)


def main(paths: list[str]) -> int:
    for name in paths:
        path = Path(name)
        files = sorted([*path.rglob("report.json"), *path.rglob("*.jsonl")]) if path.is_dir() else [path]
        for file in files:
            untime_file(file)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
