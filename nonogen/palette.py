"""Colours and palettes, the one home: entries, names, one-character codes, parsing and contrast.

Every module that names, codes, parses or picks a colour comes here, so a
file reader, the picture importer and a renderer cannot disagree on what
"navy" is or which code a colour gets.
"""
from __future__ import annotations

import colorsys
from functools import lru_cache
from typing import TYPE_CHECKING, Optional, Sequence

from .errors import PuzzleError

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "Color",
    "BW_PALETTE",
    "WHITE",
    "NAMED_COLORS",
    "parse_hex",
    "rgb_from_name",
    "to_hex",
    "pick_char",
    "color_name",
    "color_names",
    "palette_from_rgb",
    "DEFAULT_MIN_DISTANCE",
    "to_lab",
    "from_lab",
    "delta_e",
    "distance_matrix",
    "min_palette_distance",
    "distinct_colors",
    "ink_on",
]


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
        if len(code) != 7 or any(c not in "0123456789abcdef" for c in code[1:]):
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
    if len(v) != 6 or any(c not in "0123456789abcdef" for c in v):
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


# --- perceptual distance and names for colours that come from pictures ----------------------------

DEFAULT_MIN_DISTANCE = 10.0
"""Smallest CIEDE2000 distance between two palette entries made from a picture, background included.

Under about 2.3 two colours are one just-noticeable difference apart; printed
clue boxes need far more to be told apart at a glance, and 10 is where
solvers stop confusing them."""

_PREFERRED = {"gray": "grey", "darkgray": "darkgrey", "dimgray": "dimgrey", "lightgray": "lightgrey",
              "slategray": "slategrey", "darkslategray": "darkslategrey", "lightslategray": "lightslategrey",
              "aqua": "cyan", "fuchsia": "magenta"}


def median_cut(pixels: "np.ndarray", k: int) -> tuple["np.ndarray", "np.ndarray"]:
    """Pillow's median cut of ``pixels`` (any shape ending in 3, uint8 RGB) into at most ``k`` colours.

    Returns each pixel's colour index (flat) and the colours (m x 3) those
    indices name; only colours some pixel uses are kept, numbered in order.

    >>> import numpy as np
    >>> index, colours = median_cut(np.array([[255, 0, 0], [250, 0, 0], [0, 0, 255]], dtype=np.uint8), 2)
    >>> index.tolist(), len(colours)
    ([0, 0, 1], 2)
    """
    import numpy as np
    from PIL import Image

    strip = Image.fromarray(np.ascontiguousarray(pixels, dtype=np.uint8).reshape(1, -1, 3), "RGB")
    quant = strip.quantize(colors=k, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    table = np.array(quant.getpalette()[: 3 * 256], dtype=np.int64).reshape(-1, 3)
    used, index = np.unique(np.asarray(quant, dtype=np.int64).ravel(), return_inverse=True)
    return index.ravel(), table[used]


def to_lab(rgb: "np.ndarray | Sequence") -> "np.ndarray":
    """CIELAB (D65) of sRGB values in 0..255, any shape ending in 3 (scikit-image's conversion).

    >>> [round(float(v)) for v in to_lab((255, 255, 255))]
    [100, 0, 0]
    """
    import numpy as np
    from skimage.color import rgb2lab

    arr = np.asarray(rgb, dtype=np.float64)
    return rgb2lab(arr.reshape(-1, 1, 3) / 255.0).reshape(arr.shape)


def from_lab(lab: "np.ndarray") -> "np.ndarray":
    """sRGB 0..255 floats of CIELAB values (clipped to the sRGB gamut)."""
    import numpy as np
    from skimage.color import lab2rgb

    arr = np.asarray(lab, dtype=np.float64)
    return np.clip(lab2rgb(arr.reshape(-1, 1, 3)).reshape(arr.shape) * 255.0, 0, 255)


def delta_e(lab1: "np.ndarray", lab2: "np.ndarray") -> "np.ndarray":
    """CIEDE2000 distance between CIELAB colours (broadcasting, scikit-image's formula).

    >>> round(float(delta_e(to_lab((255, 255, 255)), to_lab((250, 250, 250)))), 1)
    1.0
    """
    import numpy as np
    from skimage.color import deltaE_ciede2000

    a, b = np.broadcast_arrays(np.asarray(lab1, dtype=np.float64), np.asarray(lab2, dtype=np.float64))
    return deltaE_ciede2000(a, b)


def distance_matrix(rgbs: Sequence[Sequence[float]]) -> "np.ndarray":
    """Pairwise CIEDE2000 distances of sRGB colours (``n x n``, zero diagonal)."""
    import numpy as np

    lab = to_lab(np.asarray(rgbs, dtype=np.float64).reshape(-1, 3))
    return delta_e(lab[:, None, :], lab[None, :, :])


def min_palette_distance(palette: Sequence["Color"]) -> float:
    """The CIEDE2000 distance of the two closest entries of a palette, background included.

    This is the number a solver feels: under 10 two clue colours get confused on paper.

    >>> min_palette_distance(BW_PALETTE)
    100.0
    """
    import numpy as np

    if len(palette) < 2:
        return float("inf")
    d = distance_matrix([c.rgb_tuple for c in palette])
    return round(float(d[~np.eye(len(palette), dtype=bool)].min()), 2)


@lru_cache(maxsize=1)
def _name_table() -> tuple[tuple[str, ...], "np.ndarray"]:
    """The CSS Color Module Level 4 named colours (as Pillow ships them), one name per value, in CIELAB."""
    from PIL import ImageColor

    by_value: dict[tuple, str] = {}
    for name in sorted(ImageColor.colormap):
        by_value.setdefault(ImageColor.getrgb(name)[:3], _PREFERRED.get(name, name))
    names = tuple(by_value.values())
    return names, to_lab(list(by_value))


def color_names(rgb: tuple[int, int, int]) -> list[str]:
    """CSS colour names from nearest to farthest in CIEDE2000 (the first is :func:`color_name`)."""
    import numpy as np

    names, lab = _name_table()
    d = delta_e(lab, to_lab(rgb)[None, :])
    return [names[i] for i in np.argsort(d, kind="stable")]


def color_name(rgb: tuple[int, int, int]) -> str:
    """A readable name for an RGB colour: the nearest CSS named colour in CIEDE2000.

    >>> color_name((250, 5, 5)), color_name((10, 10, 10)), color_name((0, 90, 20)), color_name((128, 0, 0))
    ('red', 'black', 'darkgreen', 'maroon')
    """
    return color_names(rgb)[0]


def readable_names(colors: Sequence[Color]) -> list[str]:
    """Each colour's name, with a readable one added when the file names colours by number or code.

    Legends and play pages show them: "1" and "2" say nothing on paper or a phone. The added names are
    distinct (the next-nearest CSS name when the nearest is taken), so two reds never read the same.

    >>> readable_names([Color("1", "#ff0000", "a"), Color("2", "#f00a0a", "b"), Color("sail", "#eedd99", "s")])
    ['1 (red)', '2 (orangered)', 'sail']
    """
    taken = {c.name for c in colors}
    out = []
    for color in colors:
        if sum(ch.isalpha() for ch in color.name) >= 3:
            out.append(color.name)
            continue
        css = next((n for n in color_names(color.rgb_tuple) if n not in taken), color_name(color.rgb_tuple))
        taken.add(css)
        out.append(f"{color.name} ({css})")
    return out


def palette_from_rgb(background: tuple[int, int, int], colors: list[tuple[int, int, int]]) -> tuple[Color, ...]:
    """Palette entries for colours found in a picture: distinct names, distinct one-character codes.

    A name already taken goes to the next-nearest free CSS name, so two reds
    become ``red`` and ``crimson`` rather than ``red-2``. White is the paper of
    printed sheets and of formats that imply the background (``.cnon``), so a
    foreground colour is never called ``white``.

    >>> [(c.name, c.char) for c in palette_from_rgb((255, 255, 255), [(200, 0, 0), (210, 20, 20), (0, 0, 0)])]
    [('white', '.'), ('firebrick', 'f'), ('crimson', 'c'), ('black', 'b')]
    >>> [c.name for c in palette_from_rgb((20, 30, 80), [(250, 250, 250)])]
    ['midnightblue', 'whitesmoke']
    """
    bg_name = color_name(background)
    used_names = {bg_name, "white"}
    used_chars = {"."}
    entries = [Color(bg_name, to_hex(background), ".")]
    for rgb in colors:
        name = next(n for n in color_names(rgb) if n not in used_names)
        used_names.add(name)
        char = name[0] if name[0] not in used_chars else next(
            ch for ch in "abcdefghijklmnopqrstuvwxyz0123456789" if ch not in used_chars
        )
        used_chars.add(char)
        entries.append(Color(name, to_hex(rgb), char))
    return tuple(entries)


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
