"""Shared pytest fixtures (kept tiny: every engineer's tests import this)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED_DATA = Path(os.environ.get("NONOGEN_SHARED") or Path(__file__).resolve().parents[2] / "shared") / "data"
"""The team's read-only data (``../shared/data``); ``NONOGEN_SHARED=/nonexistent`` checks that tests skip without it."""

needs_shared = pytest.mark.skipif(not SHARED_DATA.is_dir(), reason=f"shared data folder not found: {SHARED_DATA}")
"""Mark for tests that read :data:`SHARED_DATA` at module level instead of through the fixture."""


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The team's read-only data folder (/work/shared/data); tests using it skip when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip("shared data folder not found: " + str(SHARED_DATA))
    return SHARED_DATA
