"""Helpers shared by the sub-commands: exit codes, progress bars, JSON output, argument types."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Iterable, Iterator, TypeVar

from ..errors import LimitError, OutputExistsError
from ..solve.result import to_jsonable

T = TypeVar("T")

EXIT_CODES = {
    "unique": 0, "solved": 0, "complete": 0, "limit": 0,
    "multiple": 1, "unsolvable": 1,
    "error": 2,
    "timeout": 3,
}
"""Exit code of each outcome, for every command; over a batch the worst (highest) wins."""


class ProgressBar:
    """A one-line progress bar on stderr, drawn only on a terminal (a log file would fill with carriage returns).

    Call it as ``on_progress(done, total)``; it draws for two or more items
    and wipes itself when done, so rows printed between updates never share a
    line with it.
    """

    def __init__(self, label: str = "", stream=None, width: int = 30):
        self.label = label
        self.stream = stream or sys.stderr
        self.width = width
        self.start = time.monotonic()
        self.active = bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, done: int, total: int) -> None:
        if not self.active or total < 2:
            return
        if done >= total:
            self.clear()
            return
        filled = int(self.width * done / total)
        elapsed = time.monotonic() - self.start
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} {elapsed:6.1f}s")
        self.stream.flush()

    def clear(self) -> None:
        if self.active:
            self.stream.write("\r\033[K")
            self.stream.flush()


def progress(items: Iterable[T], total: int, label: str = "", stream=None) -> Iterator[T]:
    """Yield ``items`` while a :class:`ProgressBar` counts them."""
    bar = ProgressBar(label, stream)
    bar(0, total)
    for done, item in enumerate(items, 1):
        bar.clear()
        yield item
        bar(done, total)
    bar.clear()


def print_json(value: Any) -> None:
    """One JSON object on one line of stdout (JSON Lines)."""
    print(json.dumps(to_jsonable(value), ensure_ascii=False), flush=True)


def add_folder_options(parser: Any) -> None:
    """``-o DIR``, ``--force`` and ``--json`` of the commands that fill a folder and report on it."""
    parser.add_argument("-o", "--output", required=True, metavar="DIR", help="output folder (must not exist or be empty)")
    parser.add_argument("--force", action="store_true", help="replace a non-empty output folder")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON line")


def print_report(report: dict, as_json: bool, summary: str) -> None:
    """The report as one JSON line, or ``summary`` for people."""
    if as_json:
        print_json(report)
    else:
        print(summary)


def check_output_file(path: str | Path, force: bool) -> Path:
    """Refuse to overwrite an existing file unless ``force`` (before the work; the write itself is atomic)."""
    path = Path(path)
    if path.exists() and not force:
        raise OutputExistsError(f"{path}: file exists")
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def parse_size(text: str, max_side: int = 1000) -> tuple[int, int]:
    """``"WxH"`` -> ``(W, H)``, both between 1 and ``max_side``."""
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise LimitError(f"size {text!r}: expected WxH, e.g. 20x15")
    w, h = (int(p) for p in parts)
    if not (1 <= w <= max_side and 1 <= h <= max_side):
        raise LimitError(f"size {text!r}: each side must be between 1 and {max_side}")
    return w, h


def positive_float(text: str) -> float:
    """argparse type for seconds: a number above 0 (``inf`` means no limit)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a number above 0, got {text!r}")
    return value


def positive_int(text: str) -> int:
    """argparse type for counts such as ``--jobs``: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {text!r}")
    return value
