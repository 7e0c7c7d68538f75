"""Shared pytest fixtures (kept tiny: every engineer's tests import this)."""
from __future__ import annotations

from pathlib import Path

import pytest

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The team's read-only data folder (/work/shared/data); tests using it skip when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip("shared data folder not found: " + str(SHARED_DATA))
    return SHARED_DATA
