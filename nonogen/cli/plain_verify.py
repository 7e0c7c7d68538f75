"""The plain forms of ``nonogen verify``, read without argparse.

Importing argparse (with ``re``, ``gettext`` and ``locale``) and building the verify parser took
a fifth of a whole 5x5 verify. :func:`verify_args` reads ``verify`` followed by one run of paths
and a few options (the flags in :data:`FLAGS`, ``--timeout``, ``--format`` and ``--jobs`` with a
separate value) and answers the namespace argparse would give; anything else (help, another
command, any other option, ``--opt=value``, an abbreviation, a bad value, ``--``) gets None and
goes to argparse, which reads or refuses it as it always did. tests/test_startup.py checks that
the two agree wherever this reader answers.
"""
from __future__ import annotations

from types import SimpleNamespace

from .common import positive_float, positive_int

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Callable, Optional, Sequence

FLAGS = {"--json": "json", "--no-probe": "no_probe", "--no-grade": "no_grade", "--no-ambiguity": "no_ambiguity",
         "--dedupe": "dedupe"}
"""The on/off options of verify this reader takes, and their names in the namespace."""

VALUES: dict[str, tuple[str, Callable[[str], object]]] = {
    "--timeout": ("timeout", positive_float), "--format": ("format", str), "--jobs": ("jobs", positive_int)}
"""The options with a value it takes: their names and how argparse converts the value."""

DEFAULTS = {"json": False, "timeout": 60.0, "format": None, "no_probe": False, "no_grade": False,
            "no_ambiguity": False, "jobs": None, "executor": None, "scheduler": None, "resume": None, "csv": None,
            "summary_json": None, "dedupe": False, "solutions_dir": None, "force": False}
"""What the verify parser puts in the namespace for an option not given."""


def verify_args(argv: Sequence[str]) -> Optional[SimpleNamespace]:
    """The namespace of a plain ``verify`` command line, or None for argparse to read it.

    >>> args = verify_args(["verify", "--json", "a.non", "b.non", "--timeout", "5"])
    >>> args.paths, args.json, args.timeout, args.jobs
    (['a.non', 'b.non'], True, 5.0, None)
    >>> verify_args(["verify", "a.non", "--json", "b.non"]) is None  # argparse refuses a second run of paths
    True
    """
    if not argv or argv[0] != "verify":
        return None
    from .verify import run_verify  # here: the other commands never load verify's records and batch

    values: dict[str, object] = dict(DEFAULTS)
    paths: list[str] = []
    after_paths = False  # argparse takes one run of paths: a second run is "unrecognized arguments"
    tokens = iter(argv[1:])
    for token in tokens:
        if token == "-" or not token.startswith("-"):
            if after_paths:
                return None
            paths.append(token)
            continue
        after_paths = bool(paths)
        if token in FLAGS:
            values[FLAGS[token]] = True
        elif token in VALUES:
            value = next(tokens, None)
            if value is None or value.startswith("-"):
                return None
            name, convert = VALUES[token]
            try:
                values[name] = convert(value)
            except Exception:  # argparse says what is wrong with it
                return None
        else:
            return None
    if not paths:
        return None
    return SimpleNamespace(command="verify", paths=paths, **values, run=run_verify)
