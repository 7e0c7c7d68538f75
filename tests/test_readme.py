"""The README is a front door: it says how to get ``nonogen`` on the PATH, and it shows commands and a Python
example that run.

Eight of the README's 21 commands once failed as written (files that did not exist, placeholders that looked
like names), and a new user got "command not found" from the first example. Its commands and those of every
page of the site are run by tests/test_docs_commands.py (by the conventions of docs/_ext/page_commands.py: a
``<placeholder>`` marks a template, ``make`` lines and the activation line are the set-up, a trailing ``# exit
N`` states an exit code other than 0); this file keeps what only the README promises.
"""
from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "docs" / "_ext"))
import page_commands as pc  # noqa: E402

BLOCKS = pc.blocks("README.md")


def test_readme_setup_puts_nonogen_on_the_path():
    """The set-up block says how to find ``nonogen``: a new user got "command not found" from the first example."""
    setup = [block for block in BLOCKS if block.lang == "sh" and block.command.strip() == pc.ACTIVATE]
    assert setup, f"README.md has no `{pc.ACTIVATE}` line in an sh block"


def test_the_readme_has_commands_to_run():
    """The README shows five commands and a Python example; the pages hold the rest."""
    runnable = [block for block in BLOCKS if not block.skip_reason()]
    assert sum(block.lang == "sh" for block in runnable) >= 5 and any(block.lang == "pycon" for block in runnable)
