"""The argparse parser of each ``nonogen`` command, for the command reference (sphinx-argparse).

``nonogen`` builds only the parser of the command it runs (``nonogen.cli.build_parser``), so the
reference asks it once per command: what the page shows is exactly what ``nonogen COMMAND --help``
shows, and it cannot drift from it. sphinx-argparse's directive takes a module attribute, hence one
attribute per command: ``cli_parsers.verify`` is the parser with ``verify`` registered.
"""
from __future__ import annotations

from nonogen.cli import COMMANDS, build_parser

for _command in COMMANDS:
    globals()[_command] = build_parser([_command])
top = build_parser([])


def setup(app: object) -> dict:
    """A Sphinx extension too: ``{nonogen-exit-codes}`` shows the exit codes as ``--help`` prints them."""
    from docutils import nodes  # here: importing this module for its parsers needs no docutils
    from docutils.parsers.rst import Directive

    from nonogen.cli.common import EXIT_HELP

    class ExitCodes(Directive):
        def run(self) -> list:
            return [nodes.literal_block(EXIT_HELP, EXIT_HELP)]

    app.add_directive("nonogen-exit-codes", ExitCodes)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
