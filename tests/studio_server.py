"""A real ``nonogen studio`` for the studio's tests: started in its own process, called as its page calls it.

Not a test module: ``test_studio*.py`` import it. A studio started with :class:`Limits` runs
:func:`nonogen.studio.serve` through ``python -c`` (the command line has no flags for them), so a test of a
time limit can set a short one and wait for its effect, not for time.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from dataclasses import asdict
from urllib.parse import parse_qs
from pathlib import Path
from typing import Any, Optional

from nonogen.studio import Limits

WAIT = 60  # seconds a condition may take on a loaded machine before the test fails
TOKEN = "studio-test-token-0123456789"
DOC = {"grid": [[1, 1], [0, 1]], "palette": [{"rgb": "#ffffff"}, {"rgb": "#000000"}], "givens": [[0, 0]]}
"""A document unique with or without its given (so saving it where givens are dropped needs no confirmation)."""

_SERVE = """
import json, signal, sys
from nonogen.studio import Limits, open_socket, serve
signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # as the command exits on SIGTERM and Ctrl-C
sock = open_socket()
try:
    serve(sys.argv[1], sock, lambda url: print("nonogen studio:", url, flush=True), token=sys.argv[2] or None,
          limits=Limits(**json.loads(sys.argv[3])))
except KeyboardInterrupt:
    sys.exit(130)
"""


class Studio:
    """One running studio: its address, token and folder, and calls to its API."""

    def __init__(self, folder: Path, limits: Optional[Limits] = None, token: Optional[str] = TOKEN,
                 preexec: Any = None, env: Optional[dict] = None, args: tuple[str, ...] = ()):
        self.folder = folder
        if limits is None:
            command = [sys.executable, "-m", "nonogen", "studio", str(folder), "--port", "0", "--no-browser"]
            command += (["--token", token] if token else []) + list(args)
        else:
            command = [sys.executable, "-c", _SERVE, str(folder), token or "", json.dumps(asdict(limits))]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                        preexec_fn=preexec, env=None if env is None else {**os.environ, **env})
        line = self.process.stdout.readline()  # printed once the server listens (or it exits on failure)
        if not line.startswith("nonogen studio: http://127.0.0.1:"):
            self.process.kill()
            raise AssertionError(line + self.process.stderr.read())
        self.page = line.split()[2]  # http://127.0.0.1:PORT/?token=... (and &open=NAME with --open)
        self.url, _, query = self.page.partition("?")
        self.token = parse_qs(query)["token"][0]
        self.port = int(self.url.rsplit(":", 1)[1].strip("/"))

    def api(self, path: str, body: Any = None, headers: Optional[dict] = None, raw: bool = False,
            tab: Optional[str] = None, token: Optional[str] = "") -> tuple[int, Any]:
        """A request as the page makes it (the token and, if given, a tab id); (status, last JSON line)."""
        data = body if raw or body is None else json.dumps(body).encode()
        sent = {} if token is None else {"X-Nonogen-Token": token or self.token}
        sent.update({"X-Nonogen-Tab": tab} if tab else {}, **(headers or {}))
        request = urllib.request.Request(self.url + path.lstrip("/"), data=data,
                                         method="GET" if data is None else "POST", headers=sent)
        try:
            with urllib.request.urlopen(request, timeout=WAIT) as answer:
                return answer.status, json.loads(answer.read().decode().splitlines()[-1])
        except urllib.error.HTTPError as exc:
            text = exc.read().decode()
            try:
                return exc.code, json.loads(text)
            except ValueError:
                return exc.code, text

    def stop(self, sig: int = signal.SIGTERM) -> tuple[int, str]:
        """Stop it with ``sig``; (exit code, what it wrote on stderr)."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            code = self.process.wait(WAIT)
        finally:
            if self.process.poll() is None:
                self.process.kill()
        return code, self.process.stderr.read()

    def children(self) -> list[int]:
        """Every process this studio started, at any depth (the forkserver, its workers)."""
        import psutil

        try:
            return [p.pid for p in psutil.Process(self.process.pid).children(recursive=True)]
        except psutil.NoSuchProcess:
            return []


def alive(pids: list[int]) -> list[int]:
    """The processes of ``pids`` still running (a zombie has ended)."""
    import psutil

    running = []
    for pid in pids:
        try:
            if psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                running.append(pid)
        except psutil.NoSuchProcess:
            pass
    return running


def environ_without_token() -> dict:
    return {k: v for k, v in os.environ.items() if k != "NONOGEN_STUDIO_TOKEN"}


def photo_png(width: int, height: int) -> bytes:
    """A soft dark ellipse on white with a little texture: a photo's kind of picture (not pixel art, which keeps
    its own size), as PNG bytes to upload."""
    import io

    import numpy as np
    from PIL import Image

    y, x = np.mgrid[0:height, 0:width]
    r = ((x - width / 2) / (width / 3)) ** 2 + ((y - height / 2) / (height / 3)) ** 2
    pixels = np.clip(255 * np.clip(r, 0, 1.2) / 1.2 + (x % 7) * 2, 0, 255).astype(np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels, "L").save(out, "PNG")
    return out.getvalue()
