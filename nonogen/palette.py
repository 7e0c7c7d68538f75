"""Colours and palettes, the one home: entries, names, one-character codes, parsing and contrast.

Every module that names, codes, parses or picks a colour comes here, so a
file reader, the picture importer and a renderer cannot disagree on what
"navy" is or which code a colour gets. Perceptual distance and the names of
colours that come from pictures need numpy: they are :mod:`nonogen.colorspace`.
"""
from __future__ import annotations

from .errors import PuzzleError

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Optional, Sequence

__all__ = [
    "Color",
    "BW_PALETTE",
    "WHITE",
    "NAMED_COLORS",
    "parse_hex",
    "rgb_from_name",
    "to_hex",
    "pick_char",
    "distinct_colors",
    "ink_on",
]


_HEX = "0123456789abcdef"


class Color:
    """A palette entry: a name for people, an ``#rrggbb`` value and a one-character code. Immutable.

    A plain class, not a dataclass: :mod:`dataclasses` costs a seventh of a
    small puzzle's whole ``nonogen verify`` to import.

    >>> Color("Navy", "1F3A93", "n")
    Color('Navy', '#1f3a93', 'n')
    """

    __slots__ = ("name", "rgb", "char")
    name: str
    rgb: str
    char: str

    def __init__(self, name: str, rgb: str, char: str):
        code = rgb.lower()
        if not code.startswith("#"):
            code = "#" + code
        if len(code) != 7 or code[1:].strip(_HEX):  # a digit that is not hex is left after the strip
            raise PuzzleError(f"colour {name!r}: expected #rrggbb, got {rgb!r}")
        if len(char) != 1:
            raise PuzzleError(f"colour {name!r}: code must be one character, got {char!r}")
        for slot, value in (("name", name), ("rgb", code), ("char", char)):
            object.__setattr__(self, slot, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Color cannot change its {name}: make a new one")

    def __reduce__(self) -> tuple:
        return Color, (self.name, self.rgb, self.char)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Color):
            return NotImplemented
        return (self.name, self.rgb, self.char) == (other.name, other.rgb, other.char)

    def __hash__(self) -> int:
        return hash((self.name, self.rgb, self.char))

    def __repr__(self) -> str:
        return f"Color({self.name!r}, {self.rgb!r}, {self.char!r})"

    @property
    def rgb_tuple(self) -> tuple[int, int, int]:
        """``(r, g, b)`` in 0..255, for renderers."""
        return tuple(int(self.rgb[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


WHITE = Color("white", "#ffffff", ".")
BW_PALETTE: tuple[Color, ...] = (WHITE, Color("black", "#000000", "#"))

# X11/CSS colour names seen in real puzzle files (Olšák .g files name colours this way).
NAMED_COLORS = {
    "white": "#ffffff", "black": "#000000", "red": "#ff0000", "green": "#00ff00", "blue": "#0000ff",
    "yellow": "#ffff00", "orange": "#ffa500", "brown": "#a52a2a", "pink": "#ffc0cb", "purple": "#a020f0",
    "magenta": "#ff00ff", "cyan": "#00ffff", "gray": "#bebebe", "grey": "#bebebe", "violet": "#ee82ee",
    "darkgreen": "#006400", "darkblue": "#00008b", "darkred": "#8b0000", "lightblue": "#add8e6",
    "lightgreen": "#90ee90", "navy": "#000080", "olive": "#808000", "maroon": "#800000", "teal": "#008080",
    "silver": "#c0c0c0", "gold": "#ffd700", "beige": "#f5f5dc", "tan": "#d2b48c", "salmon": "#fa8072",
    "khaki": "#f0e68c", "lime": "#00ff00", "aqua": "#00ffff", "fuchsia": "#ff00ff",
}

_CHAR_POOL = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789%&*+=@$!?~^"


def parse_hex(value: str) -> str:
    """``#rrggbb`` from ``rrggbb``, ``#rgb`` or ``rgb`` hex text; ValueError otherwise.

    >>> parse_hex("F78900"), parse_hex("fff")
    ('#f78900', '#ffffff')
    """
    v = value.strip().lstrip("#").lower()
    if len(v) == 3:
        v = "".join(c * 2 for c in v)
    if len(v) != 6 or v.strip(_HEX):
        raise ValueError(f"expected a colour as RRGGBB hex digits, got {value.strip()[:40]!r}")
    return "#" + v


def rgb_from_name(name: str) -> str:
    """``#rrggbb`` of an X11/CSS colour name or of a ``#rrggbb`` literal; ValueError otherwise.

    >>> rgb_from_name("Navy"), rgb_from_name("#00f")
    ('#000080', '#0000ff')
    """
    if name.startswith("#"):
        return parse_hex(name)
    rgb = NAMED_COLORS.get(name.lower())
    if rgb is None:
        raise ValueError(f"unknown colour name {name[:40]!r} (use #rrggbb)")
    return rgb


def to_hex(rgb: Sequence[float]) -> str:
    """``#rrggbb`` of an ``(r, g, b)`` triple, clamped to 0..255.

    >>> to_hex((255.4, 0, 300))
    '#ff00ff'
    """
    return "#" + "".join(f"{max(0, min(255, int(round(float(v))))):02x}" for v in rgb[:3])


def pick_char(name: str, rgb: str, used: set[str], wanted: Optional[str] = None) -> str:
    """A one-character code for a colour that no other colour uses yet.

    Prefers ``wanted``, then ``#`` for black, then the name's letters, so
    codes stay readable in goals and solutions.

    >>> pick_char("red", "#ff0000", {"."}), pick_char("rose", "#ff0080", {".", "r"})
    ('r', 'o')
    """
    candidates = []
    if wanted:
        candidates.append(wanted)
    if rgb == "#000000":
        candidates.append("#")
    candidates += [c for c in name if c.isalnum()] + list(_CHAR_POOL)
    for c in candidates:
        if len(c) == 1 and c not in used and not c.isspace():
            used.add(c)
            return c
    raise PuzzleError("too many colours: no one-character codes left")


# --- colours for drawing -------------------------------------------------------------------------

_BASE_COLORS = (
    "#e6194b", "#3cb44b", "#ffe119", "#4363d8", "#f58231", "#911eb4",
    "#46f0f0", "#f032e6", "#bcf60c", "#fabebe", "#008080", "#e6beff",
)


def distinct_colors(n: int) -> list[str]:
    """``n`` different fill colours, never white or black: a fixed bright set first, then golden-ratio hues.

    The same ``n`` always gives the same list, so pictures and palettes are reproducible.

    >>> distinct_colors(2)
    ['#e6194b', '#3cb44b']
    >>> len(set(distinct_colors(500)))
    500
    """
    import colorsys  # here: only palettes longer than the base colours need it, not every verify

    colors = list(_BASE_COLORS[:n])
    seen = set(colors) | {"#ffffff", "#000000"}
    i = len(colors)
    while len(colors) < n:
        r, g, b = colorsys.hsv_to_rgb((i * 0.618034) % 1.0, 0.55, 0.95)
        color = f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"
        if color not in seen:
            seen.add(color)
            colors.append(color)
        i += 1
    return colors


def ink_on(rgb: str, dark: str = "#000000", light: str = "#ffffff") -> str:
    """The digit colour that reads better on a fill of ``rgb`` (by luma): ``dark`` or ``light``.

    >>> ink_on("#ffff00"), ink_on("#000080")
    ('#000000', '#ffffff')
    """
    r, g, b = (int(rgb[i : i + 2], 16) for i in (1, 3, 5))
    return dark if 0.299 * r + 0.587 * g + 0.114 * b >= 140 else light
