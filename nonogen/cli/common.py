"""Helpers shared by the sub-commands: progress bars, JSON output, output folders."""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path
from typing import Any, Iterable, Iterator, TypeVar

import numpy as np

from ..errors import LimitError, OutputExistsError

T = TypeVar("T")


def progress(items: Iterable[T], total: int, label: str = "", stream=None) -> Iterator[T]:
    """Yield ``items`` while drawing a one-line progress bar on stderr.

    Drawn only for two or more items and only on a terminal (a log file would
    fill up with carriage returns). The bar is wiped before each item is
    handed on, so rows the caller prints never share a line with it.
    """
    stream = stream or sys.stderr
    if total < 2 or not getattr(stream, "isatty", lambda: False)():
        yield from items
        return
    start = time.monotonic()
    width = 30
    for done, item in enumerate(items, 1):
        stream.write("\r\033[K")
        stream.flush()
        yield item
        filled = int(width * done / total)
        elapsed = time.monotonic() - start
        stream.write(f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total} {elapsed:6.1f}s")
        stream.flush()
    stream.write("\r\033[K")
    stream.flush()


def to_jsonable(value: Any) -> Any:
    """Turn numpy scalars and arrays inside ``value`` into plain JSON types."""
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return to_jsonable(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, Path):
        return str(value)
    return value


def print_json(value: Any) -> None:
    """One JSON object on one line of stdout (JSON Lines)."""
    print(json.dumps(to_jsonable(value), ensure_ascii=False), flush=True)


def add_folder_options(parser: Any) -> None:
    """``-o DIR``, ``--force`` and ``--json`` of the commands that fill a folder and report on it."""
    parser.add_argument("-o", "--output", required=True, metavar="DIR", help="output folder (must not exist or be empty)")
    parser.add_argument("--force", action="store_true", help="replace a non-empty output folder")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON line")


def write_report(folder: Path, report: dict, as_json: bool, summary: str) -> None:
    """``report.json`` in ``folder``; then the report as one JSON line, or ``summary`` for people."""
    (folder / "report.json").write_text(json.dumps(to_jsonable(report), indent=1) + "\n", encoding="utf-8")
    if as_json:
        print_json(report)
    else:
        print(summary)


def prepare_output_dir(path: str | Path, force: bool) -> Path:
    """Create an output folder; an existing non-empty one is an error unless ``force``."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise OutputExistsError(f"{path}: exists and is not a folder")
    if path.is_dir() and any(path.iterdir()):
        if not force:
            raise OutputExistsError(f"{path}: folder exists and is not empty")
        shutil.rmtree(path)
    path.mkdir(parents=True, exist_ok=True)
    return path


def check_output_file(path: str | Path, force: bool) -> Path:
    """Refuse to overwrite an existing file unless ``force``."""
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
