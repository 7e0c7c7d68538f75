"""What the report tells the user when a made picture may not read, and what reads better: tried, never guessed.

The sentences about readability live here, one home for their wording; the
score and the verdict are :mod:`.quality`'s (:func:`~.quality.unreadable`).
A suggestion is an option the picture was made again with: each cheap
alternative the user left open (colour or black and white, the subject framed
or the whole photo, black and white swapped), at the same size, at most
:data:`MAX_TRIALS` of them and only when the picture is warned. It is offered
only when its grid scored higher and is not near-empty or near-full itself.

Guessing from the parts went in circles: after ``--fit subject`` the advice
said "cropped to its subject", after ``--invert`` "with black and white
swapped", after ``--height 54`` a larger size. A remade picture cannot: the
user's own choice is never an alternative, an option tried is offered only
when it scored higher, and trying the option the user just left gives back
what they had, which did not. When nothing tried reads well enough, the last
word is the studio, where a person traces the subject cell by cell.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Optional, Protocol, Sequence

import numpy as np

from ..errors import InputError, NonogenError
from ..palette import Color
from .options import ImageOptions
from .quality import READABLE, SPECKY, WEAK, near_blank, readability, readability_parts, speck_share

__all__ = ["MAX_TRIALS", "STUDIO", "alternatives", "readability_advice", "readability_warnings", "refuse_unreadable"]

MAX_TRIALS = 3
"""Alternatives tried at most for one warned picture: each is a whole import (0.2-1 s for a photo)."""

STUDIO = "trace it in the studio, the picture under the grid (nonogen studio)"
"""The last advice, when no option tried reads well enough: a person drawing the subject does what no cut can."""

COLOURS = 4
"""Colours of the colour alternative to a black-and-white drawing: a photo's default (``PHOTO_COLORS``)."""


class Drawn(Protocol):
    """A made grid as the importer returns it (:class:`~.image.ImportResult`): all a trial is judged by."""

    @property
    def grid(self) -> np.ndarray: ...
    @property
    def reference(self) -> Optional[np.ndarray]: ...
    @property
    def palette(self) -> Sequence[Color]: ...


Remake = Callable[[ImageOptions], Drawn]
"""The picture made again with other options (it may raise a :class:`NonogenError`: that alternative is skipped)."""


def alternatives(options: ImageOptions, info: dict) -> list[tuple[str, ImageOptions]]:
    """The options worth trying instead of ``options``, each with how a sentence names it; never the user's own.

    ``info`` is the import's (its ``mode`` and, for a photo, its ``subject``).
    Colour for black and white and back, the other framing of a photo whose
    subject was found, and swapped ink for black and white when the user did
    not swap it: changes at the same size (in the older labelled set, 14 of
    the 23 pictures whose black and white was not readable were in colour).
    Sizes are not tried: a size is the user's budget of cells, and a larger
    grid is a longer import.

    >>> [label for label, _ in alternatives(ImageOptions(mode="bw"), {"mode": "bw", "subject": {"used": False}})]
    ['in colour', 'framed on its subject', 'with black and white swapped']
    >>> [label for label, _ in alternatives(ImageOptions(invert=True, fit="subject"), {"mode": "bw", "subject": {}})]
    ['in colour', 'as the whole photo']
    """
    colour = info.get("mode") == "color"
    subject = info.get("subject")
    wanted: list[tuple[str, dict]] = []
    if options.mode != "silhouette":
        wanted.append(("in black and white", {"mode": "bw", "colors": None, "min_distance": None, "background": None})
                      if colour else ("in colour", {"mode": "auto", "colors": COLOURS, "threshold": None,
                                                    "fill": None, "invert": False}))
    if isinstance(subject, dict):  # a photo whose subject was found: framed on it, or drawn whole
        wanted.append(("framed on its subject", {"fit": "subject"}) if subject.get("used") is False
                      else ("as the whole photo", {"fit": "pad"}))
    if not colour and not options.invert:
        wanted.append(("with black and white swapped", {"invert": True}))
    out = []
    for label, change in wanted:
        if all(getattr(options, k) == v for k, v in change.items()):
            continue  # what the user already has
        try:
            out.append((label, replace(options, **change)))
        except NonogenError:  # the change contradicts another option the user set
            continue
    return out[:MAX_TRIALS]


def _tried(options: ImageOptions, info: dict, remake: Optional[Remake], base: float
           ) -> tuple[list[tuple[float, str]], list[str]]:
    """Every alternative made and scored: (score, label) of those that read better than ``base``, best first, and
    the labels of all tried."""
    better: list[tuple[float, str]] = []
    tried: list[str] = []
    if remake is None:
        return better, tried
    for label, alternative in alternatives(options, info):
        try:
            drawn = remake(alternative)
        except NonogenError:
            continue
        tried.append(label)
        if drawn.reference is None or near_blank(drawn.grid) is not None:
            continue
        score = readability(drawn.grid, drawn.reference, drawn.palette)
        if score is not None and score > base:
            better.append((score, label))
    return sorted(better, reverse=True), tried


def readability_advice(grid: np.ndarray, reference: np.ndarray, palette: Sequence[Color], *, info: dict,
                       options: ImageOptions, remake: Optional[Remake], least: Optional[float] = None
                       ) -> tuple[Optional[float], Optional[str]]:
    """The score and, when the picture is warned (under ``least``, by default :data:`~.quality.READABLE`, or
    near-empty or near-full), one sentence: what fails and what read better when tried.

    Without ``remake`` nothing is tried and nothing suggested but the studio.
    A near-empty or near-full grid counts as scoring 0: its score says
    nothing (a few cells in a circle score as a symmetric figure).
    """
    score = readability(grid, reference, palette)
    blank = near_blank(grid)
    bar = READABLE if least is None else least
    if blank is None and (score is None or score >= bar):
        return score, None
    better, tried = _tried(options, info, remake, 0.0 if blank or score is None else score)
    return score, _lead(grid, reference, palette, score, blank, least, info) + _fix(better, tried, bar)


def _lead(grid: np.ndarray, reference: np.ndarray, palette: Sequence[Color], score: Optional[float],
          blank: Optional[str], least: Optional[float], info: dict) -> str:
    """What is wrong: the score (under what was asked) or the near-blank grid, and the parts past their range."""
    rows, cols = np.asarray(grid).shape
    kind = f"{'colour' if info.get('mode') == 'color' else 'black and white'} at {cols}x{rows}"
    shown = "?" if score is None else f"{score:.2f}"
    if least is not None:
        lead = f"the picture's recognisability in {kind} is {shown}, under the {least:g} asked"
    else:
        lead = f"the picture may not read in {kind} (recognisability {shown} of 1)"
    counts = np.bincount(np.asarray(grid).ravel())
    if blank == "empty":
        return f"{lead}: only {counts[1:].sum()} of {grid.size} cells are filled"
    if blank == "full":
        return f"{lead}: {counts[1:].max()} of {grid.size} cells are {'one colour' if len(palette) > 2 else 'filled'}"
    parts = readability_parts(grid, reference, palette)
    found = ["the ink is on the picture's light side"] if parts["tone_order"] < 0 else []
    found += [says for key, says in _WEAK_SAYS.items()
              if (parts[key] < WEAK[key] if key in ("symmetry", "tone_order") else parts[key] > WEAK[key])
              and not (key == "tone_order" and found)]
    return lead + (": " + ", ".join(found) if found else "")


_WEAK_SAYS = {"tone_order": "its tones are muddled", "solid_mass": "its figure is one solid mass",
              "symmetry": "no balanced shape stands out", "frame_pieces": "the frame is cut into many pieces",
              "lost_detail": "most of the picture's detail is lost"}
"""What each part past its range (:data:`~.quality.WEAK`) says about the grid."""


def _fix(better: list[tuple[float, str]], tried: list[str], bar: float) -> str:
    """What to do: the alternatives that read better, best first with their scores; the studio when none reaches
    ``bar``."""
    rescued = [f"{label} (recognisability {s:.2f})" for s, label in better if s >= bar]
    if rescued:
        return "; it reads better " + _either(rescued)
    if better:
        return (f"; it reads a little better {_either([f'{label} ({s:.2f})' for s, label in better])}, still under "
                f"{bar:g}: {STUDIO}")
    if tried:
        return f"; nothing tried reads better ({', '.join(tried)}): {STUDIO}"
    return f"; {STUDIO}"


def _either(options: list[str]) -> str:
    """ "a, b or c"."""
    return options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]


def refuse_unreadable(grid: np.ndarray, reference: np.ndarray, palette: Sequence[Color], *, least: float,
                      info: dict, options: ImageOptions, remake: Optional[Remake]) -> None:
    """Raise :class:`InputError` saying what fails and what read better when the score is under ``least`` or the
    grid is near-empty or near-full (whose score says nothing)."""
    _, sentence = readability_advice(grid, reference, palette, info=info, options=options, remake=remake, least=least)
    if sentence is not None:
        raise InputError(sentence)


def readability_warnings(grid: np.ndarray, reference: np.ndarray, palette: Sequence[Color], *, info: dict,
                         options: ImageOptions, remake: Optional[Remake]) -> list[str]:
    """Sentences for the user when the picture may not read (:func:`readability_advice`) or is mostly specks."""
    _, sentence = readability_advice(grid, reference, palette, info=info, options=options, remake=remake)
    if sentence is not None:
        return [sentence]
    specks = speck_share(grid)
    if specks > SPECKY[info.get("mode") == "color"]:
        return [f"{specks:.0%} of the clue blocks are single cells: the picture is noisy and the puzzle tedious"]
    return []
