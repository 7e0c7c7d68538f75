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


def setup(app: object) -> dict:
    """A Sphinx extension too: ``{nonogen-exit-codes}`` shows the exit codes as ``--help`` prints them, and
    ``{nonogen-commands}`` lists the commands with the line ``nonogen --help`` gives each, linked to its section."""
    from docutils import nodes  # here: importing this module for its parsers needs no docutils
    from docutils.parsers.rst import Directive

    from nonogen.cli import summary
    from nonogen.cli.common import EXIT_HELP

    class ExitCodes(Directive):
        def run(self) -> list:
            return [nodes.literal_block(EXIT_HELP, EXIT_HELP)]

    class Commands(Directive):
        def run(self) -> list:
            items = nodes.bullet_list()
            for command in COMMANDS:
                link = nodes.reference("", "", nodes.literal(text=f"nonogen {command}"), refuri=f"#nonogen-{command}")
                items += nodes.list_item("", nodes.paragraph("", "", link, nodes.Text(f": {summary(command)}")))
            return [items]

    app.add_directive("nonogen-exit-codes", ExitCodes)
    app.add_directive("nonogen-commands", Commands)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
