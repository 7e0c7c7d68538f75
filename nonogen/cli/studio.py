"""``nonogen studio [FOLDER]``: the picture-to-puzzle editor in the browser (see :mod:`nonogen.studio`)."""
from __future__ import annotations

import argparse
import html
import os
import sys
import tempfile
import webbrowser
from pathlib import Path
from typing import Optional
from urllib.parse import quote

from ..errors import InputError
from ..studio import open_socket, serve
from ..studio.folder import Folder
from ..studio.guard import check_token
from . import summary
from .common import positive_int

DEFAULT_PORT = 8737
TOKEN_VARIABLE = "NONOGEN_STUDIO_TOKEN"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("studio", help=summary("studio"),
                       description="Start the studio, a local web app: drop a picture, edit the puzzle cell by cell "
                       "while the engine shows the verdict, the ambiguous cells and the grade; save into FOLDER. "
                       "It listens on 127.0.0.1 only and serves only requests that carry this run's secret token: "
                       "open the URL it prints (it carries the token); other users of the machine and other web "
                       "sites are refused. Ctrl-C stops it.")
    p.add_argument("folder", nargs="?", default=".", metavar="FOLDER",
                   help="the folder the studio opens files from and saves into (default: the current one)")
    p.add_argument("--port", type=_port, default=DEFAULT_PORT, metavar="N",
                   help=f"port on 127.0.0.1 (default {DEFAULT_PORT}; 0 picks a free one)")
    p.add_argument("--open", metavar="FILE", dest="open_file",
                   help="a picture, puzzle or model in FOLDER to open in the page at once (a photo to trace, say); "
                   "its name, or a path to it")
    p.add_argument("--no-browser", action="store_true", help="do not open the page in a browser")
    p.add_argument("--token", metavar="SECRET",
                   help=f"the secret API requests must carry in X-Nonogen-Token, for scripts (8 to 200 letters, "
                   f"digits or -._~; default: a fresh random one each run). Other users can read a command line: "
                   f"prefer setting {TOKEN_VARIABLE}")
    p.set_defaults(run=run_studio)


def _port(text: str) -> int:
    if text == "0":
        return 0
    value = positive_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"expected a port 0-65535, got {text}")
    return value


def _opened(folder: Folder, given: Optional[str]) -> str:
    """The name in ``folder`` of the file ``--open`` names (its name, or a path to it), checked as the page's own
    request will be: a file that is not there fails now, not in the page."""
    if not given:
        return ""
    path = Path(given)
    name = path.name
    if len(path.parts) > 1 and Path(os.path.realpath(path)).parent != folder.root:
        raise InputError(f"--open {given}: not in the studio's folder {folder.root}; copy it there, or start the "
                         "studio in its folder")
    folder.file(name)
    return name


def run_studio(args: argparse.Namespace) -> int:
    # a missing folder or file, or a bad token, fails before the port is taken
    opening = _opened(Folder(args.folder), args.open_file)
    token = args.token or os.environ.get(TOKEN_VARIABLE) or None
    if token is not None:
        check_token(token)
    try:
        sock = open_socket("127.0.0.1", args.port)
    except OSError as exc:
        raise InputError(f"port {args.port}: {exc.strerror or exc} "
                         "(choose another with --port, or 0 for any)") from None

    with tempfile.TemporaryDirectory(prefix="nonogen-studio-open-") as private:
        def ready(url: str) -> None:
            url += f"&open={quote(opening)}" if opening else ""
            print(f"nonogen studio: {url} serving {args.folder} (Ctrl-C stops)", flush=True)
            if not args.no_browser:
                _open_browser(url, Path(private))

        try:
            serve(args.folder, sock, ready, token=token)
        finally:
            sock.close()
    print("nonogen studio: stopped", file=sys.stderr)
    return 0


def _open_browser(url: str, private: Path) -> None:
    """Open ``url`` through a file only this user can read, as Jupyter does: a browser's command line (and so the
    token in the URL) is visible to every user of the machine, a file in a 0700 folder is not."""
    page = private / "open.html"
    fd = os.open(page, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(f'<!DOCTYPE html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url={html.escape(url)}">'
                  f'<title>nonogen studio</title><p><a href="{html.escape(url)}">Open nonogen studio</a></p>\n')
    webbrowser.open(page.as_uri())
