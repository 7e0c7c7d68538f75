"""scripts/README.md and `make bench` keep up with scripts/: checked here, because a list nobody runs goes stale.

Reads files only: no script is run (their own checks are in tests/test_bench_peers.py, test_fuzz.py and the rest).
"""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"


def _readme_rows() -> list[str]:
    """The script each row of scripts/README.md's table names, in order."""
    text = (SCRIPTS / "README.md").read_text(encoding="utf-8")
    return re.findall(r"^\| `([^`]+)` \|", text, flags=re.MULTILINE)


def _bench_recipe() -> list[str]:
    """The scripts the Makefile's ``bench`` target runs."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^bench:.*\n((?:\t.*\n)+)", text, flags=re.MULTILINE)
    assert recipe, "the Makefile has no bench target"
    return re.findall(r"scripts/(\S+\.py)", recipe.group(1))


def test_the_readme_has_one_row_for_each_script():
    rows = _readme_rows()
    scripts = sorted(path.name for path in SCRIPTS.glob("*.py"))
    assert len(rows) == len(set(rows)), f"listed twice: {sorted({r for r in rows if rows.count(r) > 1})}"
    assert sorted(rows) == scripts, (f"scripts/README.md lacks {sorted(set(scripts) - set(rows))}, "
                                     f"lists what is gone: {sorted(set(rows) - set(scripts))}")


def test_make_bench_runs_every_benchmark():
    """Every bench skips, in one line, what it needs from outside the repository, so `make bench` can run them all."""
    benches = sorted(path.name for path in SCRIPTS.glob("bench_*.py"))
    assert sorted(_bench_recipe()) == benches
