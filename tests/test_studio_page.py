"""The studio's page in headless Chromium: its token, and what it must forget when a new picture or file comes.

The server and the browser helpers are tests/test_studio.py's; every wait is for a condition in the page.
"""
from __future__ import annotations

import http.server
import threading

import pytest

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium missing")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

from studio_server import photo_png  # noqa: E402
from test_play_browser import browser  # noqa: E402,F401  (the shared headless Chromium)
from test_studio import _cell, _drop, _picture_png, _shot, _until, _verdict, _width, page, studio  # noqa: E402,F401


def _text(driver, element_id: str) -> str:
    return driver.find_element(By.ID, element_id).text


def test_the_page_keeps_its_token_out_of_sight_and_a_reload_works(page):  # noqa: F811
    """The page works end to end with the run's token, which leaves the address bar at once; a reload gets in by
    the token its history entry keeps (no cookie); a new visit without the token sees where to find the right URL."""
    driver, url, folder = page
    assert driver.current_url == url and "token" not in driver.current_url
    _drop(driver, "block.png", _picture_png())
    _until(driver, lambda: _verdict(driver) == "unique" and _width(driver) == 10)
    _cell(driver, 0, 0).click()
    _until(driver, lambda: _verdict(driver) == "unique" and _text(driver, "grade")[:1].isdigit())
    Select(driver.find_element(By.ID, "save-format")).select_by_value("non")
    name = driver.find_element(By.ID, "save-name")
    name.send_keys(Keys.CONTROL, "a", Keys.NULL, "mine.non")
    driver.find_element(By.ID, "save-button").click()
    _until(driver, lambda: driver.find_element(By.ID, "save-status").get_attribute("data-saved") == "mine.non")
    assert (folder / "mine.non").read_text().startswith("title")
    driver.refresh()
    _until(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, "#folder-files option")) == 3)
    assert "token" not in driver.current_url and driver.get_cookies() == []
    first = driver.current_window_handle
    driver.switch_to.new_window("tab")  # a new visit: no history entry of its own holds the token
    try:
        driver.get(url)
        _until(driver, lambda: "Open the URL printed by" in driver.find_element(By.TAG_NAME, "body").text)
        _shot(driver, "studio-no-token")
    finally:
        driver.close()
        driver.switch_to.window(first)


def test_another_local_server_never_gets_the_token(page, studio):  # noqa: F811
    """The page set a cookie holding the token, and a browser sends the cookies of 127.0.0.1 to every port of it:
    another local user's web server, visited once (a link, a redirect), got the token and read the folder with it."""
    driver, url, folder = page
    seen: list[str] = []

    class Other(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(str(self.headers))
            body = b"<!DOCTYPE html><title>elsewhere</title><p>another local server</p>"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Other)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        driver.get(f"http://127.0.0.1:{other.server_address[1]}/")
        _until(driver, lambda: driver.title == "elsewhere")
    finally:
        other.shutdown()
        other.server_close()
    assert seen and not any(studio.token in headers or "nonogen-studio" in headers for headers in seen), seen
    driver.back()  # the studio's page again, without the token in its address: its history entry has it
    _until(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, "#folder-files option")) > 1)
    assert driver.current_url == url and driver.get_cookies() == []


def test_a_new_picture_or_file_starts_clean(page):  # noqa: F811
    """A dropped picture took the last picture's width and height; the file list still named the file opened
    before; opening a puzzle left the last picture's "Recognisable" figure and "saved ..." line on the page."""
    driver, url, folder = page
    height = lambda: driver.find_element(By.ID, "opt-height").get_attribute("value")  # noqa: E731
    _drop(driver, "wide.png", photo_png(400, 200))
    _until(driver, lambda: _width(driver) == 57 and height() == "28")  # a photo: about the cells of 40x40
    width = driver.find_element(By.ID, "opt-width")
    width.send_keys(Keys.CONTROL, "a", Keys.NULL, "20\n")
    _until(driver, lambda: _width(driver) == 20 and height() == "10")
    _until(driver, lambda: _verdict(driver) in ("unique", "multiple", "unsolvable"))
    _until(driver, lambda: _text(driver, "q-fidelity") not in ("", "-"))
    # a tall picture comes at its own default size, not 20 wide like the last one
    _drop(driver, "tall.png", photo_png(200, 400))
    _until(driver, lambda: _width(driver) == 27 and height() == "59")
    # open heart.non from the folder, save it, then drop a picture: the list and the saved line follow
    Select(driver.find_element(By.ID, "folder-files")).select_by_value("heart.non")
    driver.find_element(By.ID, "open").click()
    _until(driver, lambda: _width(driver) == 7 and _verdict(driver) == "unique")
    assert _text(driver, "q-fidelity") == "-" and not driver.find_element(By.ID, "picture-options").is_displayed()
    driver.find_element(By.ID, "save-button").click()
    _until(driver, lambda: _text(driver, "save-status").startswith("saved"))
    _drop(driver, "block.png", _picture_png())
    _until(driver, lambda: _width(driver) == 10 and _verdict(driver) == "unique")
    assert Select(driver.find_element(By.ID, "folder-files")).first_selected_option.get_attribute("value") == ""
    assert _text(driver, "save-status") == ""
    Select(driver.find_element(By.ID, "folder-files")).select_by_value("heart.non")
    driver.find_element(By.ID, "open").click()
    _until(driver, lambda: _width(driver) == 7)
    assert _text(driver, "q-fidelity") == "-" and _text(driver, "save-status") == ""
    _shot(driver, "studio-opened-after-picture")


def test_a_dropped_photo_is_framed_on_its_subject_as_nonogen_image_frames_it(page):  # noqa: F811
    """The studio offered only pad, crop and stretch, so a photo came whole where `nonogen image` frames it on its
    subject: the rocket is 15 x 60 cells framed, a square photo's 40 x 40 padded."""
    from pathlib import Path

    from nonogen.importers.image import image_to_grid, load_image

    photo = Path(__file__).resolve().parents[1] / "samples/images/photo-rocket-launch.jpg"
    height, width = image_to_grid(load_image(str(photo))).grid.shape
    assert (width, height) == (15, 60)
    driver, url, folder = page
    assert driver.find_element(By.ID, "opt-fit").get_attribute("value") == "auto"
    _drop(driver, photo.name, photo.read_bytes())
    _until(driver, lambda: _width(driver) == width
           and driver.find_element(By.ID, "opt-height").get_attribute("value") == str(height))
