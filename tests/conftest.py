"""Shared pytest fixtures (kept tiny: every engineer's tests import this)."""
from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    # CI checks a commit: the same examples every run, so a red run means the commit, not the draw. A failure
    # found by a random draw elsewhere is pinned with @example where it was found (test_webpbn_plain's last one
    # failed one clean-clone run in four before it was).
    settings.load_profile("ci")

if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    # A suite started in the background by a non-interactive shell (`make test &`, some CI runners) inherits
    # SIGINT ignored, and so would every nonogen process a test starts: the tests that press Ctrl-C on one
    # then saw it run to the end. A handled signal is reset to the default in a child, an ignored one is not.
    signal.signal(signal.SIGINT, signal.default_int_handler)



@pytest.fixture
def hangup_heard():
    """SIGHUP at its default action for the test, and for the processes it starts, even in a suite started under
    ``nohup`` (SIGHUP ignored): nonogen keeps a signal it was started to ignore ignored, as a program under nohup
    must, so the tests of what a hang-up does need it heard."""
    before = signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, before)


ROOT = Path(__file__).resolve().parents[1]
"""The repository's top folder."""
SHARED_DATA = Path(os.environ.get("NONOGEN_SHARED") or ROOT.parent / "shared") / "data"
"""The team's read-only data, ``../shared/data`` beside the repository (or under ``NONOGEN_SHARED``);
``NONOGEN_SHARED=/nonexistent`` checks that tests skip without it."""

needs_shared = pytest.mark.skipif(not SHARED_DATA.is_dir(), reason=f"shared data folder not found: {SHARED_DATA}")
"""Mark for tests that read :data:`SHARED_DATA` at module level instead of through the fixture."""


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The team's read-only data folder (:data:`SHARED_DATA`); tests using it skip when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip("shared data folder not found: " + str(SHARED_DATA))
    return SHARED_DATA
