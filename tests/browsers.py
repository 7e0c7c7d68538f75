"""Headless Chromium for the browser tests: where Debian keeps it, the flags every test uses, a profile of its own.

One place starts every test browser, so each gets the same offline, quiet Chromium. A browser started here has a
new, empty profile, removed when it quits. Tests whose pages keep things in ``localStorage`` (the play pages, the
site) take a browser of their own per test instead of clearing a shared one: a clear travels to Chromium's storage
in the background, and under load it wiped what the next page wrote (a fresh copy of a page read nothing for 120 s,
in three clean-clone runs, after a page's ``clear()``, after CDP's ``Storage.clearDataForOrigin``, and after that
clear waited for by a marker). A new profile has nothing to clear.
"""
from __future__ import annotations

import contextlib
import shutil
import tempfile
from pathlib import Path
from typing import Iterator

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
INSTALL_HINT = "`make test` installs them (apt-get install chromium chromium-driver)"

QUIET = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")
WEBGL = ("--use-gl=angle", "--use-angle=swiftshader", "--enable-unsafe-swiftshader")
"""WebGL with no GPU: ANGLE on SwiftShader, the software renderer Chromium ships."""


def skip_without_chromium() -> None:
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if missing:
        pytest.skip(f"{' and '.join(missing)} missing: {INSTALL_HINT}")


@contextlib.contextmanager
def chromium(*, window: tuple[int, int] | None = None, phone: dict | None = None, webgl: bool = False,
             downloads: Path | None = None, logs: tuple[str, ...] = ("performance",)) -> Iterator:
    """A headless Chromium with a new profile, on ``about:blank``; quit and its profile removed afterwards.

    ``phone``: mobile emulation's device metrics (CSS width and height, pixel ratio, touch); ``downloads``: the
    folder files are saved to without asking; ``logs``: the WebDriver logs kept (the network check reads
    ``performance``)."""
    from selenium import webdriver

    skip_without_chromium()
    profile = tempfile.mkdtemp(prefix="nonogen-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in (*QUIET, f"--user-data-dir={profile}", *(WEBGL if webgl else ())):
        options.add_argument(arg)
    if window:
        options.add_argument(f"--window-size={window[0]},{window[1]}")
    if phone:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": phone})
    if downloads:
        options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                                  "download.prompt_for_download": False})
    options.set_capability("goog:loggingPrefs", dict.fromkeys(logs, "ALL"))
    try:
        driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=str(CHROMEDRIVER)))
    except BaseException:
        shutil.rmtree(profile, ignore_errors=True)
        raise
    try:
        if downloads:
            driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
        driver.get("about:blank")
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
