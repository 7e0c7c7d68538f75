"""Colours: perceptual distance, names from the CSS table, palettes a solver can tell apart on paper."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from PIL import Image

from nonogen.importers.image import ImageOptions, image_to_grid
from nonogen.colorspace import (color_name, delta_e, distance_matrix, min_palette_distance, palette_from_rgb,
                                 readable_names, to_lab)
from nonogen.palette import BW_PALETTE, Color


@pytest.mark.parametrize("rgb,name", [
    ((0, 100, 0), "darkgreen"), ((128, 0, 0), "maroon"), ((0, 0, 128), "navy"), ((255, 0, 0), "red"),
    ((0, 0, 0), "black"), ((255, 255, 255), "white"), ((255, 165, 0), "orange"), ((34, 139, 34), "forestgreen"),
])
def test_names_come_from_the_css_table_by_nearest_cielab(rgb, name):
    """Dark green, maroon and navy were all 'darkgrey' with the old redmean table."""
    assert color_name(rgb) == name


def test_a_green_is_not_called_grey():
    assert "grey" not in color_name((60, 120, 60)) and "green" in color_name((60, 120, 60))


def test_delta_e_is_ciede2000():
    # Sharma, Wu and Dalal's CIEDE2000 test data, pair 1: 2.0425
    pair = np.array([50.0, 2.6772, -79.7751]), np.array([50.0, 0.0, -82.7485])
    assert float(delta_e(*pair)) == pytest.approx(2.0425, abs=1e-4)
    assert float(delta_e(to_lab((255, 255, 255)), to_lab((0, 0, 0)))) == pytest.approx(100.0, abs=0.01)


def test_palette_names_and_codes_are_distinct_and_never_white_for_a_foreground():
    pal = palette_from_rgb((20, 30, 80), [(250, 250, 250), (255, 255, 255), (220, 40, 50), (200, 30, 40)])
    names = [c.name for c in pal]
    assert len(set(names)) == len(names) and "white" not in names[1:]
    assert len({c.char for c in pal}) == len(pal)
    assert min_palette_distance(BW_PALETTE) == 100.0


def _shades(colours: list[tuple[int, int, int]]) -> Image.Image:
    """Squares of the given colours in a row on white, 40 px each, with a little noise."""
    w = 40 * len(colours)
    arr = np.full((80, w + 40, 3), 255, dtype=np.uint8)
    for i, c in enumerate(colours):
        arr[20:60, 20 + 40 * i : 60 + 40 * i] = c
    noise = np.random.default_rng(0).integers(-2, 3, size=arr.shape)  # not exact colours
    return Image.fromarray((arr + noise).clip(0, 255).astype(np.uint8), "RGB")


def test_colour_palette_entries_are_at_least_min_distance_apart_background_included():
    # Four browns a solver cannot tell apart, a near-white grey and one red: at most three survive.
    img = _shades([(120, 80, 40), (125, 82, 42), (118, 78, 41), (240, 240, 238), (200, 20, 30), (122, 79, 43)])
    result = image_to_grid(img, ImageOptions(colors=4, size=(16, 4)))
    d = distance_matrix([c.rgb_tuple for c in result.palette])
    assert d[~np.eye(len(d), dtype=bool)].min() >= 10
    assert any("4 colours asked for" in w for w in result.warnings)
    names = [c.name for c in result.palette]
    assert any("red" in n or "crimson" in n or "firebrick" in n for n in names)  # the small red survives


def test_min_distance_option_merges_more():
    img = _shades([(200, 40, 40), (220, 90, 60), (40, 60, 200)])
    few = image_to_grid(img, ImageOptions(colors=3, size=(14, 4), min_distance=40))
    many = image_to_grid(img, ImageOptions(colors=3, size=(14, 4), min_distance=5))
    assert len(few.palette) < len(many.palette)
    assert min_palette_distance(few.palette) >= 40


_WORDS = {"dark": -1, "dim": -1, "deep": -1, "light": 1, "pale": 1}


def _word(name: str) -> tuple[int, str]:
    """How a person reads a colour name: darker (-1), plain (0) or lighter (1) than its family's, and the family."""
    for word, rank in _WORDS.items():
        if name.startswith(word):
            return rank, name[len(word):]
    return 0, name


def _read_in_order(rgbs, names) -> bool:
    """Every two names of one family read the same way round as their colours' lightness."""
    lightness = [float(to_lab(rgb)[0]) for rgb in rgbs]
    for (la, na), (lb, nb) in itertools.combinations(zip(lightness, names, strict=True), 2):
        (ra, fa), (rb, fb) = _word(na), _word(nb)
        if fa == fb and ra != rb and (ra < rb) != (la < lb):
            return False
    return True


def test_grey_is_never_darker_than_darkgrey():
    """Regression: CSS took X11's grey scale, where darkgray (169) is lighter than gray (128); a palette of those
    two greys read "grey" and "darkgrey", the darker one called plain grey."""
    greys = [(128, 128, 128), (169, 169, 169)]
    names = [c.name for c in palette_from_rgb((255, 255, 255), greys)]
    assert names[1] == "grey" and "darkgrey" not in names and _read_in_order(greys, names[1:])
    assert color_name((169, 169, 169)) != "darkgrey"
    numbered = readable_names([Color("1", "#a9a9a9", "a"), Color("2", "#808080", "b")])
    assert "darkgrey" not in " ".join(numbered) and numbered[1] == "2 (grey)"


def test_names_of_a_palette_read_from_light_to_dark():
    """However a palette's colours come (the nearest name taken first sends the next colour to another name),
    the names of one family read as their colours do: two greys were once "dimgrey" (lighter) and "grey"."""
    steps = range(40, 240, 6)
    for a, b in itertools.permutations(steps, 2):
        pair = [(a, a, a), (b, b, b)]
        names = [c.name for c in palette_from_rgb((255, 255, 255), pair)][1:]
        assert _read_in_order(pair, names), (pair, names)
    for background in ((0, 0, 0), (255, 255, 255)):  # the background's name takes part as well
        for a in steps:
            pair = [background, (a, a, a)]
            assert _read_in_order(pair, [c.name for c in palette_from_rgb(background, pair[1:])]), pair
