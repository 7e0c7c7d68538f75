"""The small tree of errors nonogen raises for user mistakes.

Every error a user can cause derives from :class:`NonogenError`, so the CLI can
turn any of them into one line and exit code 2, while programming errors still
surface as tracebacks.

The tree::

    NonogenError
    ├── FormatError          a file breaks its format; ``path:line: what was expected``
    │   ├── UnknownFormatError   neither suffix nor content tells the format
    │   └── FileLimitError       a file asks for more than a limit allows (also a LimitError)
    ├── LimitError           a request exceeds a size limit
    ├── PuzzleError          a puzzle is not well formed
    ├── InputError           a picture, model or level cannot become a puzzle
    │   ├── OptionError          an option's value is outside what it accepts
    │   ├── BlankPictureError
    │   └── EmptyModelError
    ├── OutputExistsError
    │   └── CollectionExistsError
    └── SolverTimeout

Readers (``nonogen.formats``, packing levels, pictures, models) let no other
exception type escape: every failure of a file is one line naming the file.
"""
from __future__ import annotations

__all__ = [
    "NonogenError",
    "FormatError",
    "PuzzleError",
    "LimitError",
    "FileLimitError",
    "InputError",
    "OptionError",
    "OutputExistsError",
    "CollectionExistsError",
    "SolverTimeout",
    "UnknownFormatError",
    "BlankPictureError",
    "EmptyModelError",
]


class NonogenError(Exception):
    """Base class of every error caused by the user's input or request."""


class FormatError(NonogenError, ValueError):
    """A file does not follow its format; knows the file and line when it can.

    >>> str(FormatError("expected a number", path="a.non", line=3))
    'a.non:3: expected a number'
    """

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        self.message = message
        self.path = path
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:"
            if self.line is not None:
                where += f"{self.line}:"
            where += " "
        elif self.line is not None:
            where = f"line {self.line}: "
        return where + self.message

    def with_path(self, path: str) -> "FormatError":
        """The same error (same class), naming the file it came from."""
        return type(self)(self.message, path=str(path), line=self.line)


class UnknownFormatError(FormatError):
    """Neither the suffix nor the content tells which puzzle format a file is in."""


class PuzzleError(NonogenError, ValueError):
    """A puzzle is not well formed (bad clue items, unknown colours, bad sizes)."""


class LimitError(NonogenError, ValueError):
    """A request exceeds a size limit nonogen sets to protect the machine."""


class FileLimitError(FormatError, LimitError):
    """A file asks for more than a size limit allows (cells, clues per line, colours, file size).

    Both a :class:`FormatError`, so it names the file and line like any reading
    failure, and a :class:`LimitError`, so callers that catch limits see it too.
    Readers raise it before the big allocation, never after.

    >>> str(FileLimitError("width 2001 is over the limit of 2000", path="big.non", line=1))
    'big.non:1: width 2001 is over the limit of 2000'
    """


class InputError(NonogenError, ValueError):
    """An image, mesh or level cannot be turned into a puzzle (blank, flat, ...)."""


class OptionError(InputError):
    """An option's value is outside what it accepts; names the option so the CLI can name its flag.

    Each limit is checked once, where it is owned (the importer owns the mesh
    size, hiding owns the hidden share); the message reads in Python and the
    CLI swaps the option's name for its flag. Two options that contradict
    each other are one error naming both: ``against`` is the other option and
    its value (``None``: the other option is missing), ``expected`` then says why,
    and the CLI names both flags. An option that is on (``True``) shows as its bare name.

    >>> str(OptionError("size", 50, "2 to 40 cubes"))
    'size 50: expected 2 to 40 cubes'
    >>> OptionError("size", 50, "2 to 40 cubes").for_flag("--size")
    '--size 50: expected 2 to 40 cubes'
    >>> str(OptionError("colors", 6, "black and white has no colours", against=("mode", "bw")))
    'colors 6 cannot go with mode bw: black and white has no colours'
    >>> OptionError("invert", True, "it swaps black and white", against=("colors", 3)).for_flag("--invert", "--colors")
    '--invert cannot go with --colors 3: it swaps black and white'
    """

    def __init__(self, option: str, value: object, expected: str, *, against: tuple[str, object] | None = None):
        self.option, self.value, self.expected, self.against = option, value, expected, against
        super().__init__(self.for_flag(option))

    def for_flag(self, flag: str, other: str | None = None) -> str:
        """The message with ``flag`` in place of the option's Python name (and ``other`` in place of the other's)."""
        if self.against is None:
            return f"{flag} {self.value}: expected {self.expected}"
        name, value = self.against
        link = "needs" if value is None else "cannot go with"
        return f"{_shown(flag, self.value)} {link} {_shown(other or name, value)}: {self.expected}"


def _shown(name: str, value: object) -> str:
    """An option as a person types it: a switch that is on is its bare name, a missing one too."""
    return name if value is True or value is None else f"{name} {value}"


class BlankPictureError(InputError):
    """A picture gives no filled cell with the options it was read with."""


class EmptyModelError(InputError):
    """A model gives no cube (or too few) at the requested resolution."""


class OutputExistsError(NonogenError, FileExistsError):
    """Writing would replace something the user has, and replacing was not allowed."""


class CollectionExistsError(OutputExistsError):
    """The folder holds a collection already: it can be resumed or made again, not silently mixed with a new one."""


class SolverTimeout(NonogenError, TimeoutError):
    """A proof did not finish within its time limit (a verdict would be a guess)."""
