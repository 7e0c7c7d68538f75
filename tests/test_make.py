"""`make test` as root installed some 120 system packages (the browser tests' Chromium) without a word.

Now apt-get runs only with ALLOW_APT=1, and says how many packages it installs and upgrades before it
does; without it, make says what is missing and how to allow it. The Makefile's own recipe runs here with
stand-ins for ``apt-get`` and ``id`` first on the PATH, which record what they were asked, and a
Chromium path that does not exist, so nothing is installed on this machine.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

FAKE_APT = """#!/bin/sh
echo "$*" >> "{log}"
case "$*" in
  *install\\ -s*) printf 'Inst libfoo (1.0 Debian)\\n'
    printf 'Inst libc6 [2.36-9] (2.36-9+deb12u9 Debian)\\nInst chromium (1 Debian)\\n' ;;
  *install\\ -y*) echo "APT INSTALLING" ;;
esac
"""


def _browser_deps(tmp_path: Path, uid: int, *make_args: str) -> tuple[str, list[str]]:
    """Run `make browser-deps` as user ``uid`` with a recording apt-get; its output and the apt-get calls."""
    if not shutil.which("make"):
        pytest.skip("make is not installed")
    bin_dir, log = tmp_path / "bin", tmp_path / "apt.log"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "apt-get").write_text(FAKE_APT.format(log=log))
    (bin_dir / "id").write_text(f"#!/bin/sh\necho {uid}\n")
    for tool in ("apt-get", "id"):
        (bin_dir / tool).chmod(0o755)
    log.write_text("")
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    for name in ("ALLOW_APT", "MAKEFLAGS", "MFLAGS", "MAKELEVEL"):  # `make test ALLOW_APT=1` (CI) passes it on
        env.pop(name, None)
    done = subprocess.run(["make", "-s", "browser-deps", f"CHROMIUM={tmp_path / 'no-chromium'}", *make_args],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout, log.read_text().splitlines()


def test_make_test_installs_nothing_unless_allowed(tmp_path):
    out, calls = _browser_deps(tmp_path, 0)
    assert calls == [] and "ALLOW_APT=1" in out and "sudo apt-get install chromium" in out and "skip" in out
    out, calls = _browser_deps(tmp_path, 1000, "ALLOW_APT=1")  # allowed, but not root: it cannot
    assert calls == [] and "ALLOW_APT=1" in out


def test_allowed_it_says_how_many_packages_before_installing(tmp_path):
    out, calls = _browser_deps(tmp_path, 0, "ALLOW_APT=1")
    assert calls[0] == "update -qq" and calls[1].startswith("install -s") and calls[2].startswith("install -y")
    said = out.splitlines()
    count = next(i for i, line in enumerate(said) if "installs chromium chromium-driver poppler-utils" in line)
    assert "3 packages with their dependencies, 1 of them upgrades" in said[count]
    assert said.index("APT INSTALLING") > count  # said first, then done


def test_ci_allows_apt_on_its_fresh_machine():
    assert "make test ALLOW_APT=1" in (REPO / ".ci" / "run").read_text()
