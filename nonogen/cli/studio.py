"""``nonogen studio [FOLDER]``: the picture-to-puzzle editor in the browser (see :mod:`nonogen.studio`)."""
from __future__ import annotations

import argparse
import sys

from ..errors import InputError
from .common import positive_int
from . import summary

DEFAULT_PORT = 8737


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("studio", help=summary("studio"),
                       description="Start the studio, a local web app: drop a picture, edit the puzzle cell by cell "
                       "while the engine shows the verdict, the ambiguous cells and the grade; save into FOLDER. "
                       "Ctrl-C stops it.")
    p.add_argument("folder", nargs="?", default=".", metavar="FOLDER",
                   help="the folder the studio opens files from and saves into (default: the current one)")
    p.add_argument("--port", type=_port, default=DEFAULT_PORT, metavar="N",
                   help=f"port on 127.0.0.1 (default {DEFAULT_PORT}; 0 picks a free one)")
    p.add_argument("--no-browser", action="store_true", help="do not open the page in a browser")
    p.set_defaults(run=run_studio)


def _port(text: str) -> int:
    if text == "0":
        return 0
    value = positive_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"expected a port 0-65535, got {text}")
    return value


def run_studio(args: argparse.Namespace) -> int:
    from ..studio import open_socket, serve
    from ..studio.folder import Folder

    Folder(args.folder)  # a missing folder fails before the port is taken
    try:
        sock = open_socket("127.0.0.1", args.port)
    except OSError as exc:
        raise InputError(f"port {args.port}: {exc.strerror or exc} (choose another with --port, or 0 for any)") from None

    def ready(url: str) -> None:
        print(f"nonogen studio: {url} serving {args.folder} (Ctrl-C stops)", flush=True)
        if not args.no_browser:
            import webbrowser

            webbrowser.open(url)

    try:
        serve(args.folder, sock, ready)
    finally:
        sock.close()
    print("nonogen studio: stopped", file=sys.stderr)
    return 0
