"""Draw the sample pictures nonogen ships in samples/images/ (deterministic: same bytes every run).

Pixel-art sprites are drawn from text below and saved upscaled (the importer
must detect and undo the scale); the "photo" pictures are drawn with numpy
(a shaded sphere with a soft alpha edge, a JPEG landscape). The benchmark set
adds 64 px icons with dark outlines and soft shading (drawn at 4x and
reduced), "photos" of a subject on a textured or gradient background with
blur and noise, and flat drawings with a few exact colours. Run:

    .venv/bin/python scripts/make_sample_images.py [OUT_DIR]
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

HEART = """
...oo...oo...
..orro.orro..
.orwrrorrrro.
.orwrrrrrrro.
.orrrrrrrrro.
..orrrrrrro..
...orrrrro...
....orrro....
.....oro.....
......o......
"""

CAT = """
................
.#..........#...
.##........##...
.###......###...
.############...
.##..####..##...
.##..####..##...
.############...
.#####..#####...
..####..####....
...########.....
...#########..#.
..###########.#.
..###########.#.
..############..
..##.##..##.##..
"""

ROCKET = """
.......ww.......
......wwww......
.....wwwwww.....
.....wwwwww.....
.....wwbbww.....
.....wbbbbw.....
.....wwbbww.....
.....wwwwww.....
.....wwwwww.....
....rwwwwwwr....
...rrwwwwwwrr...
..rrrwwwwwwrrr..
..rr.wwwwww.rr..
......ffff......
.......ff.......
.......ff.......
"""

COLORS = {
    "o": (60, 20, 30, 255),
    "r": (220, 40, 50, 255),
    "w": (250, 250, 250, 255),
    "#": (20, 20, 20, 255),
    "b": (40, 110, 230, 255),
    "f": (255, 160, 20, 255),
    ".": (0, 0, 0, 0),
}


def sprite(text: str, background: tuple[int, int, int, int] = (0, 0, 0, 0)) -> np.ndarray:
    """An RGBA array from text art (``.`` is ``background``)."""
    rows = [line for line in text.strip("\n").splitlines()]
    out = np.zeros((len(rows), len(rows[0]), 4), dtype=np.uint8)
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            out[r, c] = background if ch == "." else COLORS[ch]
    return out


def upscale(rgba: np.ndarray, factor: int) -> np.ndarray:
    """Exact NEAREST upscale, what pixel-art exports do."""
    return rgba.repeat(factor, axis=0).repeat(factor, axis=1)


def sphere(size: int = 256) -> np.ndarray:
    """A lit sphere with a soft, anti-aliased alpha edge and a translucent shadow: photo-like RGBA."""
    y, x = (np.mgrid[0:size, 0:size] + 0.5) / size * 2 - 1
    r = np.hypot(x, y + 0.05)
    ball_alpha = np.clip((0.78 - r) * size / 3, 0, 1)
    z = np.sqrt(np.clip(0.78**2 - r**2, 0, None)) / 0.78
    light = np.clip(0.25 + 0.75 * (-0.45 * x - 0.5 * (y + 0.05) + 0.75 * z), 0, 1)
    base = np.array([40, 120, 200], dtype=float)
    rgb = base[None, None, :] * light[..., None] + 255 * np.clip(light - 0.85, 0, 1)[..., None] * 4
    shadow = np.clip(1 - np.hypot(x * 1.1, (y - 0.88) * 4.5), 0, 1) * 0.6
    alpha = ball_alpha + shadow * (1 - ball_alpha)
    colour = (rgb * ball_alpha[..., None] + np.array([30, 30, 40]) * (shadow * (1 - ball_alpha))[..., None])
    colour = colour / np.maximum(alpha, 1e-6)[..., None]
    out = np.dstack([np.clip(colour, 0, 255), alpha * 255]).round().astype(np.uint8)
    return out


def landscape(width: int = 320, height: int = 240) -> np.ndarray:
    """Sky gradient, sun, two mountain ridges and a tree: a small RGB 'photo' for the JPEG sample."""
    y, x = np.mgrid[0:height, 0:width].astype(float)
    sky = np.dstack([150 + 80 * y / height, 190 + 40 * y / height, np.full_like(y, 245)])
    img = sky.copy()
    sun = np.hypot(x - 240, y - 60) < 26
    img[sun] = (255, 220, 90)
    far = y > 140 - 40 * np.sin(x / 45) - 20 * np.cos(x / 17)
    img[far] = (110, 120, 150)
    near = y > 185 - 30 * np.sin(x / 70 + 1.5)
    img[near] = (40, 90, 50)
    trunk = (abs(x - 70) < 5) & (y > 150) & (y < 200)
    crown = np.hypot(x - 70, (y - 130) * 1.2) < 30
    img[trunk] = (80, 50, 30)
    img[crown] = (20, 70, 30)
    return img.round().astype(np.uint8)


# --- icons: 64 px, dark outline, soft shading, transparent background ---------------------------------

SS = 4  # supersampling: shapes are drawn at 4x and reduced, which anti-aliases their edges


def _mask(size: int, draw) -> np.ndarray:
    """A boolean mask drawn by ``draw(ImageDraw, scale)`` on a ``size``-pixel square at 4x."""
    img = Image.new("L", (size * SS, size * SS), 0)
    draw(ImageDraw.Draw(img), size * SS / 256)
    return np.asarray(img) > 127


def _shade(mask: np.ndarray, top, bottom, glow: float = 0.25) -> np.ndarray:
    """RGB floats: a vertical gradient from ``top`` to ``bottom`` inside ``mask`` plus a soft top-left glow."""
    h, w = mask.shape
    y, x = np.mgrid[0:h, 0:w] / max(h, w)
    t = ((y - y[mask].min()) / max(np.ptp(y[mask]), 1e-6)).clip(0, 1)[..., None] if mask.any() else y[..., None]
    rgb = np.array(top, float) * (1 - t) + np.array(bottom, float) * t
    light = np.exp(-((x - 0.35) ** 2 + (y - 0.3) ** 2) / 0.05)[..., None]
    return rgb + (255 - rgb) * light * glow


def _outline(mask: np.ndarray, px: int) -> np.ndarray:
    """The ``px``-pixel (at 4x) rim of a mask."""
    eroded = np.asarray(Image.fromarray(mask.astype(np.uint8) * 255).filter(ImageFilter.MinFilter(2 * px + 1))) > 127
    return mask & ~eroded


def icon(layers, size: int = 64, outline=(40, 40, 50), rim: int = 7) -> np.ndarray:
    """An RGBA icon from ``(draw, top, bottom)`` layers, back to front, each with a dark outline."""
    h = size * SS
    rgb = np.zeros((h, h, 3))
    alpha = np.zeros((h, h), bool)
    for draw, top, bottom, *line in layers:
        m = _mask(size, draw)
        rgb[m] = _shade(m, top, bottom)[m]
        edge = _outline(m, rim)
        rgb[edge] = line[0] if line else outline
        alpha |= m
    big = Image.fromarray(np.dstack([rgb.clip(0, 255), alpha * 255]).astype(np.uint8), "RGBA")
    return np.asarray(big.resize((size, size), Image.Resampling.LANCZOS))


def _poly(points):
    return lambda d, k: d.polygon([(x * k, y * k) for x, y in points], fill=255)


def _ellipse(box):
    return lambda d, k: d.ellipse([v * k for v in box], fill=255)


def _rect(box):
    return lambda d, k: d.rectangle([v * k for v in box], fill=255)


def _lines(points, width, box=None):
    def draw(d, k):
        if box:
            d.rectangle([v * k for v in box], fill=255)
        d.line([(x * k, y * k) for x, y in points], fill=0 if box else 255, width=int(width * k))
    return draw


def _gear(d, k):
    c = 128 * k
    for i in range(10):
        a = i * np.pi / 5
        pts = [(c + r * k * np.cos(a + da), c + r * k * np.sin(a + da))
               for r, da in ((70, -0.2), (112, -0.12), (112, 0.12), (70, 0.2))]
        d.polygon(pts, fill=255)
    d.ellipse([c - 86 * k, c - 86 * k, c + 86 * k, c + 86 * k], fill=255)
    d.ellipse([c - 32 * k, c - 32 * k, c + 32 * k, c + 32 * k], fill=0)


def _heart(d, k):
    d.ellipse([28 * k, 44 * k, 132 * k, 148 * k], fill=255)
    d.ellipse([124 * k, 44 * k, 228 * k, 148 * k], fill=255)
    d.polygon([(34 * k, 116 * k), (222 * k, 116 * k), (128 * k, 226 * k)], fill=255)


ICONS = {
    "play": [(_poly([(70, 40), (70, 216), (218, 128)]), (215, 240, 200), (120, 185, 90), (35, 80, 20))],
    "eject": [(_poly([(40, 140), (216, 140), (128, 44)]), (235, 238, 245), (160, 170, 195)),
              (_rect((40, 166, 216, 210)), (235, 238, 245), (160, 170, 195))],
    "mail": [(_rect((20, 60, 236, 196)), (255, 255, 255), (205, 205, 212), (70, 70, 80)),
             (_lines([(20, 60), (128, 140), (236, 60)], 14, (20, 60, 236, 196)), (255, 255, 255), (225, 225, 230),
              (70, 70, 80))],
    "gear": [(_gear, (225, 225, 228), (120, 120, 128), (35, 35, 40))],
    "page": [(_poly([(52, 20), (172, 20), (208, 56), (208, 236), (52, 236)]), (255, 255, 255), (236, 236, 236),
              (175, 175, 175)),
             (_poly([(172, 20), (172, 56), (208, 56)]), (230, 230, 230), (210, 210, 210), (175, 175, 175))],
    "folder": [(_poly([(20, 50), (100, 50), (116, 70), (236, 70), (236, 214), (20, 214)]), (240, 200, 100),
                (200, 150, 50), (110, 70, 15)),
               (_poly([(20, 100), (236, 100), (236, 214), (20, 214)]), (255, 225, 140), (225, 175, 70), (110, 70, 15))],
    "house": [(_rect((52, 120, 204, 232)), (250, 238, 210), (215, 195, 160), (60, 40, 25)),
              (_poly([(24, 128), (128, 30), (232, 128)]), (235, 95, 70), (165, 45, 30), (60, 25, 15)),
              (_rect((110, 160, 148, 232)), (150, 95, 50), (110, 65, 30), (60, 40, 25))],
    "heart": [(_heart, (255, 140, 140), (190, 20, 40), (95, 10, 20))],
}


# --- "photos": a subject on a textured or gradient background, blurred, with noise ---------------------


def _canvas(w: int, h: int, top, bottom, seed: int, texture: float = 10.0) -> tuple[Image.Image, np.ndarray]:
    """A gradient background with soft blotches; returns the image and the random generator."""
    rng = np.random.default_rng(seed)
    y = np.linspace(0, 1, h)[:, None, None]
    rgb = np.array(top, float) * (1 - y) + np.array(bottom, float) * y
    noise = Image.fromarray((rng.random((h // 32, w // 32)) * 255).astype(np.uint8))
    blot = np.asarray(noise.resize((w, h), Image.Resampling.BICUBIC), float)
    rgb = rgb + (blot[..., None] - 128) / 128 * texture
    return Image.fromarray(np.broadcast_to(rgb, (h, w, 3)).clip(0, 255).astype(np.uint8)), rng


def _finish(img: Image.Image, rng: np.random.Generator, noise: float = 6.0) -> np.ndarray:
    """Camera look: a little blur and sensor noise."""
    arr = np.asarray(img.filter(ImageFilter.GaussianBlur(1.2)), float)
    return (arr + rng.normal(0, noise, arr.shape)).clip(0, 255).round().astype(np.uint8)


def portrait() -> np.ndarray:
    img, rng = _canvas(512, 512, (176, 168, 156), (112, 106, 100), 1, 14)
    d = ImageDraw.Draw(img)
    d.ellipse([96, 390, 416, 700], fill=(45, 75, 135))        # shoulders, shirt
    d.rectangle([222, 330, 290, 420], fill=(205, 160, 135))   # neck
    d.ellipse([150, 70, 362, 300], fill=(60, 40, 30))         # hair
    d.ellipse([166, 120, 346, 372], fill=(228, 188, 162))     # face
    d.chord([160, 90, 352, 240], 180, 360, fill=(60, 40, 30))  # fringe
    for x in (210, 280):
        d.ellipse([x - 16, 212, x + 16, 232], fill=(250, 250, 250))
        d.ellipse([x - 8, 214, x + 8, 230], fill=(40, 30, 25))
        d.line([x - 22, 196, x + 20, 192], fill=(70, 45, 35), width=7)
    d.polygon([(256, 230), (240, 282), (266, 284)], fill=(200, 150, 125))
    d.chord([216, 290, 296, 336], 0, 180, fill=(175, 80, 80))
    return _finish(img, rng)


def cat() -> np.ndarray:
    img, rng = _canvas(512, 512, (205, 196, 176), (190, 180, 160), 2, 10)
    d = ImageDraw.Draw(img)
    for x in range(0, 512, 46):
        d.rectangle([x, 380, x + 44, 512], fill=(140 + (x * 7) % 25, 100, 70))
    ginger, dark = (222, 140, 60), (165, 88, 30)
    d.ellipse([150, 230, 370, 470], fill=ginger)              # body
    d.ellipse([300, 400, 460, 450], fill=ginger)               # tail
    d.ellipse([170, 100, 330, 250], fill=ginger)               # head
    d.polygon([(178, 150), (186, 60), (236, 112)], fill=ginger)
    d.polygon([(322, 150), (314, 60), (264, 112)], fill=ginger)
    for y in range(260, 460, 36):
        d.arc([160, y - 30, 360, y + 30], 200, 340, fill=dark, width=9)
    for x in (220, 280):
        d.ellipse([x - 14, 158, x + 14, 180], fill=(110, 170, 60))
        d.ellipse([x - 4, 158, x + 4, 180], fill=(20, 20, 20))
    d.polygon([(242, 196), (258, 196), (250, 206)], fill=(200, 100, 100))
    return _finish(img, rng)


def motorcycle() -> np.ndarray:
    img, rng = _canvas(640, 480, (150, 190, 230), (222, 230, 238), 3, 8)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 370, 640, 480], fill=(105, 105, 110))
    for cx in (170, 470):
        d.ellipse([cx - 90, 220, cx + 90, 400], fill=(25, 25, 28))
        d.ellipse([cx - 62, 248, cx + 62, 372], fill=(200, 200, 205))
        d.ellipse([cx - 50, 260, cx + 50, 360], fill=(160, 185, 215))
        for a in np.linspace(0, np.pi, 5)[:-1]:
            d.line([cx - 50 * np.cos(a), 310 - 50 * np.sin(a), cx + 50 * np.cos(a), 310 + 50 * np.sin(a)],
                   fill=(150, 150, 155), width=5)
    d.polygon([(170, 310), (250, 200), (420, 190), (470, 310), (400, 300), (300, 320)], fill=(120, 120, 125))
    d.polygon([(250, 170), (380, 160), (400, 215), (260, 225)], fill=(200, 30, 40))   # tank
    d.polygon([(380, 165), (500, 170), (500, 190), (395, 200)], fill=(30, 30, 30))    # seat
    d.line([(250, 175), (215, 110), (180, 105)], fill=(60, 60, 65), width=10)         # fork and bar
    d.rectangle([300, 300, 520, 318], fill=(210, 210, 215))                           # exhaust
    return _finish(img, rng)


def rocket_launch() -> np.ndarray:
    img, rng = _canvas(512, 512, (6, 10, 32), (22, 30, 62), 4, 4)
    d = ImageDraw.Draw(img)
    for x, y in rng.integers(0, 512, size=(60, 2)):
        d.ellipse([x - 1, y - 1, x + 1, y + 1], fill=(230, 230, 240))
    for i in range(14):
        x, r = 256 + (i - 6.5) * 34, 50 + (i * 37) % 30
        d.ellipse([x - r, 430 - r + (i % 3) * 12, x + r, 430 + r + (i % 3) * 12],
                  fill=(200 - i * 3, 180 - i * 4, 170 - i * 4))
    d.polygon([(236, 300), (276, 300), (256, 420)], fill=(255, 190, 60))                  # flame
    d.polygon([(244, 300), (268, 300), (256, 380)], fill=(255, 245, 200))
    d.rectangle([236, 120, 276, 300], fill=(235, 235, 240))                              # body
    d.polygon([(236, 120), (276, 120), (256, 70)], fill=(220, 220, 228))
    d.polygon([(236, 250), (236, 300), (214, 304)], fill=(180, 180, 190))
    d.polygon([(276, 250), (276, 300), (298, 304)], fill=(180, 180, 190))
    d.rectangle([0, 478, 512, 512], fill=(12, 12, 16))
    return _finish(img, rng, 4)


def apple() -> np.ndarray:
    img, rng = _canvas(512, 512, (150, 165, 185), (120, 135, 155), 5, 12)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 360, 512, 512], fill=(150, 105, 65))
    d.ellipse([150, 420, 380, 470], fill=(110, 75, 45))                                  # shadow
    d.ellipse([140, 170, 270, 440], fill=(200, 30, 35))
    d.ellipse([240, 170, 370, 440], fill=(185, 25, 30))
    d.ellipse([180, 210, 225, 270], fill=(245, 150, 150))                                # highlight
    d.line([(256, 200), (262, 130)], fill=(90, 60, 30), width=12)
    d.ellipse([262, 120, 340, 160], fill=(70, 150, 50))
    return _finish(img, rng)


def sailboat() -> np.ndarray:
    img, rng = _canvas(512, 512, (120, 170, 225), (200, 220, 240), 6, 6)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 340, 512, 512], fill=(35, 85, 140))
    for y in range(350, 512, 18):
        for x in range(-20, 512, 60):
            d.arc([x + (y * 3) % 40, y, x + 40 + (y * 3) % 40, y + 12], 200, 340, fill=(80, 130, 185), width=3)
    d.polygon([(130, 330), (390, 330), (350, 380), (170, 380)], fill=(110, 60, 30))      # hull
    d.line([(260, 60), (260, 330)], fill=(70, 50, 30), width=8)
    d.polygon([(266, 70), (266, 320), (380, 320)], fill=(250, 248, 240))
    d.polygon([(254, 90), (254, 320), (150, 320)], fill=(240, 238, 228))
    return _finish(img, rng)


PHOTOS = {"portrait": portrait, "cat": cat, "motorcycle": motorcycle, "rocket-launch": rocket_launch,
          "apple": apple, "sailboat": sailboat}


# --- flat drawings: a few exact colours, no anti-aliasing, not pixel art ---------------------------------


def flat(name: str) -> np.ndarray:
    """A flat drawing on white at 300x300 pixels (polygons without anti-aliasing keep colours exact)."""
    img = Image.new("RGB", (300, 300), (255, 255, 255))
    d = ImageDraw.Draw(img)
    if name == "house":
        d.ellipse([220, 20, 280, 80], fill=(250, 200, 0))
        d.rectangle([0, 250, 300, 300], fill=(60, 170, 60))
        d.rectangle([60, 140, 220, 250], fill=(250, 230, 120))
        d.polygon([(40, 145), (140, 60), (240, 145)], fill=(200, 40, 40))
        d.rectangle([120, 185, 160, 250], fill=(120, 70, 30))
        d.rectangle([75, 160, 105, 190], fill=(80, 150, 230))
        d.rectangle([175, 160, 205, 190], fill=(80, 150, 230))
    elif name == "fish":
        d.polygon([(40, 90), (40, 210), (110, 150)], fill=(240, 120, 20))
        d.ellipse([90, 80, 260, 220], fill=(250, 150, 30))
        d.ellipse([205, 120, 230, 145], fill=(20, 20, 20))
        for x, y, r in ((270, 60, 12), (245, 30, 8), (280, 100, 7)):
            d.ellipse([x - r, y - r, x + r, y + r], fill=(90, 170, 230))
    else:  # flower
        d.rectangle([142, 150, 158, 290], fill=(40, 150, 60))
        d.ellipse([80, 200, 150, 240], fill=(40, 150, 60))
        for a in np.linspace(0, 2 * np.pi, 7)[:-1]:
            x, y = 150 + 55 * np.cos(a), 110 + 55 * np.sin(a)
            d.ellipse([x - 35, y - 35, x + 35, y + 35], fill=(240, 110, 170))
        d.ellipse([120, 80, 180, 140], fill=(250, 210, 30))
    return np.asarray(img)


FLAT = ("house", "fish", "flower")


def make_all(out: Path) -> list[Path]:
    """Write every sample picture into ``out``; returns the paths."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    heart = out / "heart-pixelart-x10.png"
    Image.fromarray(upscale(sprite(HEART), 10), "RGBA").save(heart, optimize=True)
    cat = out / "cat-x6.gif"
    cat_rgba = upscale(sprite(CAT), 6)
    index = np.where(cat_rgba[..., 3] > 0, 1, 0).astype(np.uint8)
    gif = Image.fromarray(index, "P")
    gif.putpalette([255, 255, 255, 20, 20, 20])
    gif.save(cat, transparency=0)
    rocket = out / "rocket-on-sky-x8.png"
    Image.fromarray(upscale(sprite(ROCKET, background=(20, 30, 80, 255)), 8)[..., :3], "RGB").save(rocket)
    ball = out / "sphere-soft-alpha.png"
    Image.fromarray(sphere(), "RGBA").save(ball)
    land = out / "landscape.jpg"
    Image.fromarray(landscape(), "RGB").save(land, quality=90)
    written += [heart, cat, rocket, ball, land]
    for name, layers in ICONS.items():
        written.append(out / f"icon-{name}.png")
        Image.fromarray(icon(layers), "RGBA").save(written[-1], optimize=True)
    for name, draw in PHOTOS.items():
        written.append(out / f"photo-{name}.jpg")
        Image.fromarray(draw(), "RGB").save(written[-1], quality=88)
    for name in FLAT:
        written.append(out / f"flat-{name}.png")
        Image.fromarray(flat(name), "RGB").save(written[-1], optimize=True)
    return written


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / "samples" / "images"
    for path in make_all(out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
