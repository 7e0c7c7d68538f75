"""A photo's grid's lines followed band by band across it, once its border is drawn upright (a frame: the photo
warped so the grid's four corners make a rectangle, its sides ``pad`` pixels in).

In the frame the lines are nearly straight: in bands across the grid, the profile of darkness shows each line as a
peak (thin grey lines too: they are found by averaging, not by a threshold), centred on its width. Each band
numbers its lines from its first, the spacing tracked as it goes (a bent page's cells narrow towards the spine);
a neighbouring band's numbering is matched to where the bands before saw the lines, carried on along their run,
so a band that misses an outer line still counts the others right, and a page curling at a corner is followed.
A line's sample off its run across the bands is dropped, a line a band missed is set beside its neighbour, and the
lines are carried on to the frame's sides along their outer bands' run; where row and column lines meet are the
grid's crossings.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from .lattice import MIN_CELLS, MIN_PITCH

__all__ = ["MAX_CELLS", "frame_crossings"]

MAX_CELLS = 120
"""Most cells a photo's grid may have each way (more: it is no puzzle, or a misread lattice)."""

OFF_LINE = 0.12
"""Share of a cell by which a line's position in one band may stray from the straight line through its two
neighbouring bands' (a page's bend moves it less; a digit's edge, taken for it, more)."""
OUTER_BANDS = 4
"""Outer bands whose positions of a line carry it on to the frame's side (:func:`_reaching`)."""
WIDEST = 16
"""Widest a line's peak may be at half its height, in pixels, to be centred on its width (a magazine's frame is 14
pixels wide); a wider peak is a line merged with a digit's stroke beside it."""
AGREE = 0.2
"""Share of a cell within which two bands see the same line: a band's numbering is matched to its neighbours' by
it (:func:`_shift`), and a band's line farther than that from where they saw it is dropped (:func:`_agreeing`)."""
SPLIT = 2
"""Bands at each end split in two: a page curls most at its edges, and there a line bends within a band's width
(a magazine page curling at the right: its last seven columns' crossings were a third of a cell off)."""
FOLLOWED = 0.25
"""Most a gap may differ from the tracked spacing, as a share of it, to move it (a curl narrows cells by a few per
cent a cell; a digit's stroke between two lines makes a gap a fifth to a half short)."""
BAND = 120
"""Width in pixels of the bands across a grid in which its lines are found: narrow enough that a line bends little
within one (a page curling into the spine), wide enough that a line is a clear peak over a band's digits."""


def _peaks(profile: np.ndarray) -> list[tuple[float, float]]:
    """Positions of the dark lines in a profile of darkness: peaks that stand out from their surroundings (thin grey
    lines stand out less than thick ones, so the bar is a tenth of the clearest, or the noise's), centred (the
    middle of the peak's width: a thick line's flat top put its highest pixel anywhere across it, and the line
    two pixels astray from band to band); with how far each stands out."""
    from scipy.signal import find_peaks

    steps = np.abs(np.diff(profile))
    noise = float(np.median(steps)) + 0.5
    _, found = find_peaks(profile, prominence=0.0)
    if not len(found["prominences"]):
        return []
    need = max(4 * noise, 0.1 * float(np.max(found["prominences"])))
    at, kept = find_peaks(profile, prominence=need, distance=MIN_PITCH - 1, width=0)
    out = []
    for i, strength, left, right in zip(at, kept["prominences"], kept["left_ips"], kept["right_ips"], strict=True):
        if right - left <= WIDEST:  # the middle of its width at half its height: a thick line's top is flat
            out.append(((float(left) + float(right)) / 2, float(strength)))
            continue
        lo, hi = max(0, i - 2), min(len(profile), i + 3)  # merged with a digit's stroke: around its top
        weights = np.clip(profile[lo:hi] - profile[lo:hi].min(), 0, None) + 1e-9
        out.append((float(np.average(np.arange(lo, hi), weights=weights)), float(strength)))
    return out


def _indexed(peaks: list[tuple[float, float]], pitch: float) -> list[tuple[int, float]]:
    """Each peak (position, strength) numbered by the lines since the first, the spacing tracked as it goes (a
    missing line is skipped; of two peaks closer than a line's spacing the stronger is kept: the other is a
    digit's edge or a speck). Only a gap near the spacing (:data:`FOLLOWED`) between two peaks of like strength
    moves it: in a magazine's clue boxes, digits' strokes stand between the lines, and one taken for a line pulled
    the spacing down until every gap after it counted as two cells (63 lines for 51)."""
    out: list[tuple[int, float, float]] = []
    local = pitch
    for p, strength in peaks:
        if not out:
            out.append((0, p, strength))
            continue
        gap = p - out[-1][1]
        if gap < 0.6 * local:
            if strength > out[-1][2]:
                out[-1] = (out[-1][0], p, strength)
            continue
        steps = max(1, round(gap / local))
        alike = min(strength, out[-1][2]) >= 0.5 * max(strength, out[-1][2])
        out.append((out[-1][0] + steps, p, strength))
        if steps == 1 and alike and abs(gap - local) <= FOLLOWED * local:
            local = 0.7 * local + 0.3 * gap
    return [(k, p) for k, p, _ in out]


def _shift(known: dict[int, float], lines: list[tuple[int, float]], pitch: float) -> Optional[int]:
    """By how many lines a band's numbering (``lines``, from its first peak) is behind its neighbour's (``known``,
    line number to position): the shift that puts most of its peaks within a fifth of a cell of the neighbour's
    same lines; None when no shift does (the band miscounts, or sees another lattice)."""
    best, best_hits = None, 0
    for s in range(-4, 5):
        common = [(known[k + s], p) for k, p in lines if k + s in known]
        hits = sum(abs(a - b) <= AGREE * pitch for a, b in common)
        if len(common) >= 3 and hits >= 0.8 * len(common) and hits > best_hits:
            best, best_hits = s, hits
    return best


def _band_edges(a0: int, a1: int) -> np.ndarray:
    """Where the bands across ``a0``..``a1`` start and end: :data:`BAND` wide, the outer ones split in halves
    (:data:`SPLIT`)."""
    edges = np.linspace(a0, a1, int(np.clip(round((a1 - a0) / BAND), 3, 40)) + 1)
    if SPLIT and len(edges) > 2 * SPLIT + 2:
        halves = (edges[:-1] + edges[1:]) / 2
        edges = np.sort(np.concatenate([edges, halves[:SPLIT], halves[-SPLIT:]]))
    return edges


def _carried(known: dict[int, float], trail: list[tuple[float, dict[int, float]]], centre: float
             ) -> dict[int, float]:
    """Where the band at ``centre`` should see each line ``known``: a line the last bands (``trail``: their centres
    and lines, nearest last) all saw carried on along its run through them (a page curling at a corner moves its
    lines a fifth of a cell from one band to the next, and that band's numbering was not matched); else where it was
    last seen."""
    if len(trail) < 2:
        return known
    common = sorted(set.intersection(*(set(lines) for _, lines in trail)))
    out = dict(known)
    if common:  # one straight fit a line, all at once
        slope, at = np.polyfit([c for c, _ in trail], [[lines[k] for k in common] for _, lines in trail], 1)
        out.update(zip(common, (slope * centre + at).tolist(), strict=True))
    return out


def _agreeing(lines: dict[int, float], known: dict[int, float], pitch: float) -> dict[int, float]:
    """A band's ``lines`` less those more than a fifth of a cell from where the bands before saw the same line
    (``known``): in a band of clues, a digit's edge or a speck taken for a line the band missed."""
    return {k: p for k, p in lines.items() if k not in known or abs(known[k] - p) <= AGREE * pitch}


def _matched(numbered: list[list[tuple[int, float]]], centres: np.ndarray,
             pitch: float) -> list[Optional[dict[int, float]]]:
    """Each band's lines (line number to position) numbered as the middle band numbers them; None for a band that
    cannot be matched. Outwards from the middle, a band's numbering is shifted to match where the bands before saw
    the lines, carried on along their run (:func:`_carried`), and its lines far from there are dropped
    (:func:`_agreeing`)."""
    middle = len(numbered) // 2
    start = dict(numbered[middle])
    at: list[Optional[dict[int, float]]] = [None] * len(numbered)
    at[middle] = start
    for order in (range(middle + 1, len(numbered)), range(middle - 1, -1, -1)):
        known = start
        trail: list[tuple[float, dict[int, float]]] = [(float(centres[middle]), start)]
        for b in order:
            expected = _carried(known, trail[-3:], float(centres[b]))
            s = _shift(expected, numbered[b], pitch) if numbered[b] and known else None
            if s is not None:
                lines = _agreeing({k + s: p for k, p in numbered[b]}, expected, pitch)
                at[b] = lines
                known = {**known, **lines}
                trail.append((float(centres[b]), lines))
    return at


def _bands(frame: np.ndarray, span: tuple[int, int],
           across: tuple[int, int]) -> Optional[tuple[np.ndarray, np.ndarray]]:
    """The lines crossing ``frame`` across its rows within ``span``, found in bands of columns within ``across``:
    the bands' centres, and each line's position in each band (lines x bands, NaN where a band did not see it);
    None when too few bands agree.

    Each band numbers its lines from its first; a neighbouring band's numbering is matched to it by the shift
    that lines most of them up (:func:`_shift`), so a band that does not see an outer line (a bent page's edge
    leaves the frame; a thick frame merges with a shadow) still counts the others right, and the lines are
    followed across the page as far as it bends."""
    lo, hi = span
    a0, a1 = across
    edges = _band_edges(a0, a1)
    bands = len(edges) - 1
    darkness = 255.0 - frame
    found = []
    for b0, b1 in zip(edges, edges[1:], strict=False):
        profile = darkness[lo:hi, int(b0):int(b1)].mean(axis=1)
        found.append([(lo + p, s) for p, s in _peaks(profile)])
    gaps = np.concatenate([np.diff([q for q, _ in p]) for p in found if len(p) > 1] or [np.zeros(0)])
    gaps = gaps[gaps >= MIN_PITCH]
    if not len(gaps):
        return None
    pitch = float(np.median(gaps))
    numbered = [_indexed(p, pitch) for p in found]
    at = _matched(numbered, (edges[:-1] + edges[1:]) / 2, pitch)
    seen = [a for a in at if a is not None]
    if len(seen) < 0.5 * bands:
        return None
    counts: dict[int, int] = {}
    for a in seen:
        for k in a:
            counts[k] = counts.get(k, 0) + 1
    kept = [k for k, n in counts.items() if n >= max(2, 0.25 * len(seen))]
    if not kept:
        return None
    first, last = min(kept), max(kept)
    if not MIN_CELLS <= last - first <= MAX_CELLS:
        return None
    used = [b for b in range(bands) if at[b] is not None]
    positions = np.full((last - first + 1, len(used)), np.nan)
    for column, b in enumerate(used):
        for k, p in at[b].items():  # type: ignore[union-attr]
            if first <= k <= last:
                positions[k - first, column] = p
    return ((edges[:-1] + edges[1:]) / 2)[used], positions


def _smooth(positions: np.ndarray) -> np.ndarray:
    """``positions`` (lines x bands) less the samples off their line's run across the bands (a digit's edge taken
    for the line in a band of clues): one at a time, while a sample is over :data:`OFF_LINE` of a cell off the
    straight line through its two neighbours, the sample whose dropping leaves that line's run straightest. What
    the lines of a band share is the page's bend, not a digit's edge (:func:`_shared`)."""
    out = positions.copy()
    if out.shape[1] < 3:
        return out
    pitch = float(np.nanmedian(np.diff(out, axis=0))) if len(out) > 1 else 0.0
    for _ in range(out.size):
        bends = _bends(out)
        shared = _shared(bends)
        off = np.abs(bends - shared)
        if np.isnan(off).all() or np.nanmax(off) <= OFF_LINE * pitch:
            break
        k, b = (int(i) for i in np.unravel_index(np.nanargmax(off), off.shape))
        out[k, _dropped(out[k], b, shared, off[k])] = np.nan
    return out


def _dropped(line: np.ndarray, b: int, shared: np.ndarray, off: np.ndarray) -> int:
    """Which of the three samples of ``line`` that its bend at band ``b`` is measured from to drop: the one whose
    dropping leaves the line's run straightest (an end's bend is as big as its neighbour's when the neighbour is the
    digit's edge), the most bent of them when that ties."""
    first = min(max(b - 1, 0), len(line) - 3)

    def left(j: int) -> tuple[float, float]:
        rest = line[None].copy()
        rest[0, j] = np.nan
        return float(np.nan_to_num(np.abs(_bends(rest) - shared)).max()), -float(np.nan_to_num(off[j]))

    return min(range(first, first + 3), key=left)


def _bends(positions: np.ndarray) -> np.ndarray:
    """How far each sample of ``positions`` (lines x bands, at least 3 bands) is from the straight line through its
    line's two neighbouring samples (at an end, the two next inward); NaN when one is missing."""
    inner = positions[:, 1:-1] - (positions[:, :-2] + positions[:, 2:]) / 2
    first = positions[:, :1] - 2 * positions[:, 1:2] + positions[:, 2:3]
    last = positions[:, -1:] - 2 * positions[:, -2:-1] + positions[:, -3:-2]
    return np.concatenate([first, inner, last], axis=1)


def _shared(bends: np.ndarray) -> np.ndarray:
    """Each band's median bend over its lines (0 where fewer than three are seen): where a page curls at its edge,
    every line of the end band is off the others' run alike (a 26x7 photo's eight row lines all a fifth of a cell:
    each was dropped as a digit's edge, and no grid was found), while a digit's edge moves one line."""
    out = np.zeros(bends.shape[1])
    for b in range(bends.shape[1]):
        seen = bends[np.isfinite(bends[:, b]), b]
        if len(seen) >= 3:
            out[b] = float(np.median(seen))
    return out


def _filled(positions: np.ndarray) -> Optional[np.ndarray]:
    """Every line's position in every band (lines x bands): where a band did not see a line, the next line's there
    moved by how far apart the two are where both are seen (lines run alike across the page); a line seen nowhere
    is set evenly between its neighbours. None when the two outer lines are seen nowhere."""
    out = positions.copy()
    if np.isnan(out[0]).all() or np.isnan(out[-1]).all():
        return None
    for _ in range(len(out)):
        missing = np.isnan(out)
        if not missing.any():
            return out
        for k in np.nonzero(missing.any(axis=1) & ~missing.all(axis=1))[0]:
            for n in (k - 1, k + 1):
                if 0 <= n < len(out):
                    both = ~np.isnan(out[k]) & ~np.isnan(out[n])
                    if both.any():
                        gap = np.isnan(out[k]) & ~np.isnan(out[n])
                        out[k, gap] = out[n, gap] + float(np.median(out[k, both] - out[n, both]))
        for k in np.nonzero(np.isnan(out).all(axis=1))[0]:
            a = max(i for i in range(k) if not np.isnan(out[i]).all())
            b = min(i for i in range(k + 1, len(out)) if not np.isnan(out[i]).all())
            out[k] = out[a] + (out[b] - out[a]) * (k - a) / (b - a)
    return None if np.isnan(out).any() else _fitted(out)


def _fitted(lines: np.ndarray) -> np.ndarray:
    """Each line (lines x bands) as a cubic over the bands where one fits it within :data:`OFF_LINE` of a cell
    (a sheet's warp and gentle bend: the fit averages the bands' noise out); a line bent more sharply (a page
    curling into the spine) keeps its samples, taken straight between them."""
    if lines.shape[1] < 6 or len(lines) < 2:
        return lines
    pitch = float(np.median(np.diff(lines, axis=0)))
    t = np.linspace(-1, 1, lines.shape[1])
    out = lines.copy()
    for k, line in enumerate(lines):
        smooth = np.polyval(np.polyfit(t, line, 3), t)
        if np.abs(smooth - line).max() <= OFF_LINE * abs(pitch):
            out[k] = smooth
    return out


def _along(centres: np.ndarray, values: np.ndarray, at: np.ndarray) -> np.ndarray:
    """``values`` (…, bands) at the band ``centres`` read at ``at`` (…) between them, straight on past the ends."""
    i = np.clip(np.searchsorted(centres, at) - 1, 0, len(centres) - 2)
    t = (at - centres[i]) / (centres[i + 1] - centres[i])
    lo = np.take_along_axis(values, i[..., None], -1)[..., 0]
    hi = np.take_along_axis(values, (i + 1)[..., None], -1)[..., 0]
    return lo + (hi - lo) * t


def _reaching(centres: np.ndarray, lines: np.ndarray, ends: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """The band ``centres`` and each line's positions there (lines x bands) carried on to ``ends`` (the frame's
    two sides) where the bands stop short of them, along the straight line through the :data:`OUTER_BANDS` outer
    bands' positions: taken through the last two alone, a pixel's jitter between them swung a line by a tenth of a
    cell at the frame's side (nono5's thick lines, over the clue cells where no band agreed)."""
    k = min(OUTER_BANDS, len(centres))
    cs, vs = [centres], [lines]
    for end, near in ((ends[0], slice(0, k)), (ends[1], slice(len(centres) - k, None))):
        if np.abs(centres - end).min() > 1.0:
            slope, at = np.polyfit(centres[near], lines[:, near].T, 1)
            beside = 0 if end < centres[0] else len(cs)
            cs.insert(beside, np.array([end]))
            vs.insert(beside, (slope * end + at)[:, None])
    return np.concatenate(cs), np.concatenate(vs, axis=1)


def _crossings(rows: tuple[np.ndarray, np.ndarray], cols: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Where each row line meets each column line: (rows, cols, 2) x y. A row line is its y at the column bands'
    centres (x), a column line its x at the row bands' centres (y); between them, straight."""
    (xc, ys), (yc, xs) = rows, cols
    shape = (len(ys), len(xs))
    row_of = np.broadcast_to(ys[:, None, :], shape + ys.shape[1:])
    col_of = np.broadcast_to(xs[None, :, :], shape + xs.shape[1:])
    x = np.broadcast_to(xs[None, :, len(yc) // 2], shape).copy()
    y = _along(xc, row_of, x)
    for _ in range(5):
        x = _along(yc, col_of, y)
        y = _along(xc, row_of, x)
    return np.stack([x, y], axis=-1)


def frame_crossings(frame: np.ndarray, pad: int, size: tuple[float, float]) -> Optional[np.ndarray]:
    """Every crossing of the grid drawn upright in ``frame`` (its border ``pad`` pixels in, ``size`` wide and high):
    (rows+1, cols+1, 2) x y; None when its lines are not found."""
    width, height = size
    reach = pad - 4
    rows = _bands(frame, (pad - reach, int(pad + height + reach)), (pad, int(pad + width)))
    cols = _bands(frame.T, (pad - reach, int(pad + width + reach)), (pad, int(pad + height)))
    if rows is None or cols is None:
        return None
    row_lines, col_lines = _filled(_smooth(rows[1])), _filled(_smooth(cols[1]))
    if row_lines is None or col_lines is None:
        return None
    ends = (0.0, float(frame.shape[1])), (0.0, float(frame.shape[0]))
    return _crossings(_reaching(rows[0], row_lines, ends[0]), _reaching(cols[0], col_lines, ends[1]))
