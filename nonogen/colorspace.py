"""Perceptual colour for colours that come from pictures and models: CIELAB, CIEDE2000, median cut, CSS names.

The numpy half of :mod:`nonogen.palette` (which holds palette entries, codes
and parsing and needs no numpy, so that verifying a file never loads it).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence, Union

import numpy as np
from PIL import Image, ImageColor

from .palette import Color, to_hex

__all__ = [
    "DEFAULT_MIN_DISTANCE",
    "median_cut",
    "to_lab",
    "from_lab",
    "delta_e",
    "distance_matrix",
    "min_palette_distance",
    "color_names",
    "color_name",
    "readable_names",
    "palette_from_rgb",
]

DEFAULT_MIN_DISTANCE = 10.0
"""Smallest CIEDE2000 distance between two palette entries made from a picture, background included.

Under about 2.3 two colours are one just-noticeable difference apart; printed
clue boxes need far more to be told apart at a glance, and 10 is where
solvers stop confusing them."""

_PREFERRED = {"gray": "grey", "darkgray": "darkgrey", "dimgray": "dimgrey", "lightgray": "lightgrey",
              "slategray": "slategrey", "darkslategray": "darkslategrey", "lightslategray": "lightslategrey",
              "aqua": "cyan", "fuchsia": "magenta"}


def median_cut(pixels: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Pillow's median cut of ``pixels`` (any shape ending in 3, uint8 RGB) into at most ``k`` colours.

    Returns each pixel's colour index (flat) and the colours (m x 3) those
    indices name; only colours some pixel uses are kept, numbered in order.

    >>> index, colours = median_cut(np.array([[255, 0, 0], [250, 0, 0], [0, 0, 255]], dtype=np.uint8), 2)
    >>> index.tolist(), len(colours)
    ([0, 0, 1], 2)
    """
    strip = Image.fromarray(np.ascontiguousarray(pixels, dtype=np.uint8).reshape(1, -1, 3), "RGB")
    quant = strip.quantize(colors=k, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    palette = quant.getpalette()
    assert palette is not None  # quantize makes a palette picture
    table = np.array(palette[: 3 * 256], dtype=np.int64).reshape(-1, 3)
    used, index = np.unique(np.asarray(quant, dtype=np.int64).ravel(), return_inverse=True)
    return index.ravel(), table[used]


def to_lab(rgb: Union[np.ndarray, Sequence]) -> np.ndarray:
    """CIELAB (D65) of sRGB values in 0..255, any shape ending in 3 (scikit-image's conversion).

    >>> [round(float(v)) for v in to_lab((255, 255, 255))]
    [100, 0, 0]
    """
    from skimage.color import rgb2lab  # scikit-image loads scipy (0.2 s): only pictures' colours need it

    arr = np.asarray(rgb, dtype=np.float64)
    return rgb2lab(arr.reshape(-1, 1, 3) / 255.0).reshape(arr.shape)


def from_lab(lab: np.ndarray) -> np.ndarray:
    """sRGB 0..255 floats of CIELAB values (clipped to the sRGB gamut)."""
    from skimage.color import lab2rgb  # scikit-image: see to_lab

    arr = np.asarray(lab, dtype=np.float64)
    return np.clip(lab2rgb(arr.reshape(-1, 1, 3)).reshape(arr.shape) * 255.0, 0, 255)


def delta_e(lab1: np.ndarray, lab2: np.ndarray) -> np.ndarray:
    """CIEDE2000 distance between CIELAB colours (broadcasting, scikit-image's formula).

    >>> round(float(delta_e(to_lab((255, 255, 255)), to_lab((250, 250, 250)))), 1)
    1.0
    """
    from skimage.color import deltaE_ciede2000  # scikit-image: see to_lab

    a, b = np.broadcast_arrays(np.asarray(lab1, dtype=np.float64), np.asarray(lab2, dtype=np.float64))
    return deltaE_ciede2000(a, b)


def distance_matrix(rgbs: Sequence[Sequence[float]]) -> np.ndarray:
    """Pairwise CIEDE2000 distances of sRGB colours (``n x n``, zero diagonal)."""
    lab = to_lab(np.asarray(rgbs, dtype=np.float64).reshape(-1, 3))
    return delta_e(lab[:, None, :], lab[None, :, :])


def min_palette_distance(palette: Sequence[Color]) -> float:
    """The CIEDE2000 distance of the two closest entries of a palette, background included.

    This is the number a solver feels: under 10 two clue colours get confused on paper.

    >>> from nonogen.palette import BW_PALETTE
    >>> min_palette_distance(BW_PALETTE)
    100.0
    """
    if len(palette) < 2:
        return float("inf")
    d = distance_matrix([c.rgb_tuple for c in palette])
    return round(float(d[~np.eye(len(palette), dtype=bool)].min()), 2)


_DARKER, _LIGHTER = ("dark", "dim", "deep"), ("light", "pale")
"""Prefixes that tell a person a colour is darker or lighter than the one it names (``darkred``, ``lightblue``)."""


def _family(name: str) -> str:
    """A colour name without its lightness word: ``darkgrey``, ``lightgrey`` and ``grey`` are one family."""
    for prefix in _DARKER + _LIGHTER + ("medium",):
        if name.startswith(prefix) and len(name) > len(prefix):
            return name[len(prefix):]
    return name


def _reads_true(name: str, lightness: float, table: dict[str, float]) -> bool:
    """Whether ``name``'s lightness word agrees with its colour: CSS's ``darkgray`` is lighter than ``gray``,
    ``lightpink`` darker than ``pink``, and a palette naming them so would read the wrong way round."""
    base = table.get(_family(name))
    if base is None or _family(name) == name:
        return True
    if name.startswith(_DARKER):
        return lightness < base
    return lightness > base if name.startswith(_LIGHTER) else True


@lru_cache(maxsize=1)
def _name_table() -> tuple[tuple[str, ...], np.ndarray]:
    """The CSS Color Module Level 4 named colours (as Pillow ships them), one name per value, in CIELAB.

    Names whose lightness word reads the wrong way round (:func:`_reads_true`) are left out, so a
    colour is never called dark when its family's plain name is darker (X11's grey scale,
    which CSS took over, has ``darkgray`` between ``gray`` and ``silver``).
    """
    by_value: dict[tuple, str] = {}
    for name in sorted(ImageColor.colormap):
        by_value.setdefault(ImageColor.getrgb(name)[:3], _PREFERRED.get(name, name))
    names, lab = list(by_value.values()), to_lab(list(by_value))
    lightness = {name: float(v) for name, v in zip(names, lab[:, 0], strict=True)}
    keep = [i for i, name in enumerate(names) if _reads_true(name, lightness[name], lightness)]
    return tuple(names[i] for i in keep), lab[keep]


def _in_lightness_order(rgbs: Sequence[tuple[int, int, int]], names: list[str]) -> list[str]:
    """``names`` (one per colour) swapped within each family so that lighter colours get the lighter names.

    Names are picked nearest first, and a name already taken sends a colour
    to its next-nearest: the lighter of two greys could end up ``dimgrey``
    beside a darker ``grey``. Within a family the names' own lightness
    orders them, which the lightness words agree with (:func:`_name_table`).

    >>> _in_lightness_order([(140, 140, 140), (120, 120, 120)], ["dimgrey", "grey"])
    ['grey', 'dimgrey']
    """
    known, lab = _name_table()
    table = dict(zip(known, lab[:, 0], strict=True))
    lightness = to_lab(np.asarray(rgbs, dtype=np.float64).reshape(-1, 3))[:, 0]
    out = list(names)
    for family in {_family(n) for n in names}:
        members = [i for i, n in enumerate(names) if _family(n) == family]
        ranked = sorted((names[i] for i in members), key=lambda n: table[n])
        for i, name in zip(sorted(members, key=lambda i: lightness[i]), ranked, strict=True):
            out[i] = name
    return out


def color_names(rgb: tuple[int, int, int]) -> list[str]:
    """CSS colour names from nearest to farthest in CIEDE2000 (the first is :func:`color_name`)."""
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
    distinct (the next-nearest CSS name when the nearest is taken), so two reds never read the same,
    and read from light to dark as their colours do (:func:`_in_lightness_order`).

    >>> readable_names([Color("1", "#ff0000", "a"), Color("2", "#f00a0a", "b"), Color("sail", "#eedd99", "s")])
    ['1 (red)', '2 (orangered)', 'sail']
    """
    taken = {c.name for c in colors}
    added: dict[int, str] = {}
    for i, color in enumerate(colors):
        if sum(ch.isalpha() for ch in color.name) < 3:
            css = next((n for n in color_names(color.rgb_tuple) if n not in taken), color_name(color.rgb_tuple))
            taken.add(css)
            added[i] = css
    ordered = dict(zip(added, _in_lightness_order([colors[i].rgb_tuple for i in added], list(added.values())),
                       strict=True))
    return [f"{c.name} ({ordered[i]})" if i in ordered else c.name for i, c in enumerate(colors)]


def palette_from_rgb(background: tuple[int, int, int], colors: list[tuple[int, int, int]]) -> tuple[Color, ...]:
    """Palette entries for colours found in a picture: distinct names, distinct one-character codes.

    A name already taken goes to the next-nearest free CSS name, so two reds
    become ``red`` and ``crimson`` rather than ``red-2``; names of one family
    read from light to dark as their colours do (:func:`_in_lightness_order`).
    White is the paper of printed sheets and of formats that imply the
    background (``.cnon``), so a foreground colour is never called ``white``.

    >>> [(c.name, c.char) for c in palette_from_rgb((255, 255, 255), [(200, 0, 0), (210, 20, 20), (0, 0, 0)])]
    [('white', '.'), ('firebrick', 'f'), ('crimson', 'c'), ('black', 'b')]
    >>> [c.name for c in palette_from_rgb((20, 30, 80), [(250, 250, 250)])]
    ['midnightblue', 'whitesmoke']
    """
    names = [color_name(background)]
    used_names = {names[0], "white"}
    for rgb in colors:
        names.append(next(n for n in color_names(rgb) if n not in used_names))
        used_names.add(names[-1])
    names = _in_lightness_order([background, *colors], names)
    used_chars = {"."}
    entries = [Color(names[0], to_hex(background), ".")]
    for rgb, name in zip(colors, names[1:], strict=True):
        char = name[0] if name[0] not in used_chars else next(
            ch for ch in "abcdefghijklmnopqrstuvwxyz0123456789" if ch not in used_chars
        )
        used_chars.add(char)
        entries.append(Color(name, to_hex(rgb), char))
    return tuple(entries)
