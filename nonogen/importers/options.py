"""What a user may ask of a picture import: :class:`ImageOptions`, each option checked once, where its limit lives.

Its own module because every step of the import reads it (:mod:`.image` and
:mod:`.pipelines` alike) and none of them should import the other for it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional

from ..errors import OptionError
from .frame import FITS

__all__ = ["ImageOptions", "MAX_SIDE", "MAX_COLORS", "MODES", "STYLES", "FITS"]

MAX_SIDE = 256
"""Largest puzzle side in cells: beyond this nobody solves it and verification gets slow."""

MODES = ("auto", "bw", "silhouette")
STYLES = ("auto", "outline", "fill")
"""How a subject cut out by transparency is drawn in black and white, and what colour outlines become."""


@dataclass(frozen=True)
class ImageOptions:
    """What the user asked for; every field maps to one ``nonogen image`` option.

    ``mode`` ``"auto"`` makes a colour puzzle of a picture with a few exact
    colours (pixel art, flat drawings) or of a photo (an opaque border, many
    colours: :data:`.pipelines.PHOTO_COLORS`), and black and white of anything else;
    ``"bw"`` always black and white; ``"silhouette"`` uses transparency only.
    ``style`` ``"outline"`` draws a subject cut out by transparency as a
    two-cell outline plus its dark details and thickens colour outlines to two
    cells; ``"fill"`` inks the subject and gives one-cell colour outlines the
    colour inside; ``"auto"`` draws the outline where it reads better than
    the filled inking (light subjects: pages, drives, envelopes, which would
    otherwise be a solid slab) and thickens colour outlines.
    ``fit`` ``"subject"`` frames a photo on its subject and leaves the rest
    of the photo out (:mod:`.subject`; ``"auto"``, the default, does so for
    photos); the others say what happens when ``size`` has another aspect
    than the picture: ``pad`` (background margins), ``crop`` (keeps the
    subject) or ``stretch``. ``fill`` asks for that share of inked cells (black and white).
    ``max_side`` bounds both sides: a side derived from the picture (the
    other side's aspect, pixel art's native size) is scaled down with its
    partner to fit, and a side asked for beyond it is refused. A caller that
    can only take smaller puzzles (the studio edits up to 100 cells a side)
    sets it, so that every picture it imports is one it can check.
    """

    size: Optional[tuple[int, int]] = None  # (width, height) in cells
    width: Optional[int] = None
    height: Optional[int] = None
    crop: bool = False
    mode: str = "auto"
    colors: Optional[int] = None  # foreground colours at most; set -> colour puzzle
    threshold: Optional[int] = None  # None -> chosen per picture
    invert: bool = False
    background: Optional[str] = None  # colour spec; None -> detect from the border
    fit: str = "auto"
    min_distance: Optional[float] = None  # CIEDE2000 between palette entries; None: 12 for photos, else 10
    fill: Optional[float] = None  # share of filled cells wanted (black and white)
    style: str = "auto"  # outline | fill | auto (see above)
    max_side: int = MAX_SIDE  # largest side wanted: a side derived from the picture's aspect is scaled down to fit

    def __post_init__(self) -> None:
        """Every option is checked here, once: a bad value or a contradiction fails before any pixel is read."""
        if not (isinstance(self.max_side, int) and 1 <= self.max_side <= MAX_SIDE):
            raise OptionError("max_side", self.max_side, f"1 to {MAX_SIDE} cells")
        top = self.max_side
        if self.size is not None and not all(isinstance(v, int) and 1 <= v <= top for v in self.size):
            raise OptionError("size", "x".join(map(str, self.size)), f"sides of 1 to {top} cells")
        for name, value in (("width", self.width), ("height", self.height)):
            if value is not None and not (isinstance(value, int) and 1 <= value <= top):
                raise OptionError(name, value, f"1 to {top} cells")
        if self.mode not in MODES:
            raise OptionError("mode", self.mode, " or ".join(MODES))
        if self.style not in STYLES:
            raise OptionError("style", self.style, " or ".join(STYLES))
        if self.fit not in FITS:
            raise OptionError("fit", self.fit, " or ".join(FITS))
        if self.colors is not None and not 1 <= self.colors <= MAX_COLORS:
            raise OptionError("colors", self.colors, f"1 to {MAX_COLORS} colours")
        if self.threshold is not None and not 0 <= self.threshold <= 255:
            raise OptionError("threshold", self.threshold, "0 to 255")
        if self.fill is not None and not 0 < self.fill < 1:
            raise OptionError("fill", self.fill, "a share between 0 and 1")
        if self.min_distance is not None and not 0 <= self.min_distance <= 100:
            raise OptionError("min_distance", self.min_distance, "0 to 100 (CIEDE2000)")
        conflict = next(_contradictions(self), None)
        if conflict is not None:
            raise conflict


def _contradictions(options: ImageOptions) -> Iterator[OptionError]:
    """Each pair of options that cannot both hold, as the error that names both (the first one is raised).

    An option the picture's pipeline would drop without a word is refused
    rather than ignored: a user who asks for 6 colours and black and white
    would otherwise get one of them and never learn which. Black and white
    is asked by ``mode`` ``bw`` or ``silhouette``, or (with ``mode`` ``auto``) by
    a tone option (``threshold``, ``fill``, ``invert``: only black and white
    has tones to cut or swap); colours by ``colors``.
    """
    given = {name: value for name, value in (("threshold", options.threshold), ("fill", options.fill),
                                             ("invert", options.invert or None)) if value is not None}
    bw_mode = ("mode", options.mode) if options.mode in ("bw", "silhouette") else None
    if options.size is not None and (options.width is not None or options.height is not None):
        side = "width" if options.width is not None else "height"
        yield OptionError(side, getattr(options, side), "give either a size or a width and height",
                          against=("size", "x".join(map(str, options.size))))
    if options.colors is not None:
        why = "a silhouette is black and white" if options.mode == "silhouette" else "black and white has no colours"
        if bw_mode:
            yield OptionError("colors", options.colors, why, against=bw_mode)
        for name, value in given.items():
            yield OptionError(name, value, _TONES[name], against=("colors", options.colors))
    if options.background is not None and options.colors is None:
        yield OptionError("background", options.background, "a background colour is for colour puzzles",
                          against=("colors", None))
    if options.min_distance is not None and options.colors is None:
        other = bw_mode or next(iter(given.items()), None)
        if other is not None:
            why = "black and white has no palette" if bw_mode else f"{_MAKES_BW[other[0]]} makes black and white"
            yield OptionError("min_distance", f"{options.min_distance:g}", why, against=other)
    if options.threshold is not None and options.fill is not None:
        yield OptionError("fill", options.fill, "the threshold says which cells are filled",
                          against=("threshold", options.threshold))
    if options.mode == "silhouette":
        if options.fill is not None:
            yield OptionError("fill", options.fill, "a silhouette fills the opaque cells", against=bw_mode)
        if options.style != "auto":
            yield OptionError("style", options.style, "a silhouette fills the opaque cells", against=bw_mode)
        if options.fit == "subject":
            yield OptionError("fit", options.fit, "a silhouette is drawn from transparency, not framed on a subject",
                              against=bw_mode)
    for name in ("threshold", "fill"):
        if options.style != "auto" and getattr(options, name) is not None and options.mode != "silhouette":
            yield OptionError("style", options.style, f"{_MAKES_BW[name]} alone says which cells are inked",
                              against=(name, getattr(options, name)))


_TONES = {
    "threshold": "a threshold cuts black from white, colours are picked from the picture",
    "fill": "a share of filled cells is for black and white",
    "invert": "inverting swaps black and white",
}
"""Why each tone option cannot go with a colour count."""
_MAKES_BW = {"threshold": "a threshold", "fill": "a share of filled cells", "invert": "inverting"}
"""Each tone option in words, for the sentences above."""


MAX_COLORS = 20
"""Most foreground colours a colour puzzle may ask for."""
