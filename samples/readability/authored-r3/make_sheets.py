"""Two judge sheets of the authored grids (run from this folder with the authors' folders under authors/A and authors/B): no judge sees a photo twice; controls from the labelled set."""
import json, random
from pathlib import Path
import numpy as np
from PIL import Image, ImageDraw, ImageFont

A = ['apple', 'burger', 'cat', 'coffeecup', 'dog']
B = ['liberty', 'panda', 'piggybank', 'shuttle', 'teddy']
ROOT = Path('authors')

def grid_rgb(path):
    return np.asarray(Image.open(path).convert('RGB'))

def control(pid):
    for e in json.load(open('../puzzles.json')):
        if e['id'] == pid:
            pal = [tuple(int(h[i:i + 2], 16) for i in (1, 3, 5)) for h in e['palette']]
            idx = [['.abcdefgh'.index(ch) for ch in row] for row in e['grid']]
            return np.array([[pal[i] for i in row] for row in idx], np.uint8)
    raise KeyError(pid)

def tile(rgb, side=300):
    h, w = rgb.shape[:2]
    c = max(4, min(side // w, side // h))
    im = Image.fromarray(rgb).resize((w * c, h * c), Image.Resampling.NEAREST)
    d = ImageDraw.Draw(im)
    for x in range(0, w * c + 1, c):
        d.line([(x, 0), (x, h * c)], fill=(200, 200, 200))
    for y in range(0, h * c + 1, c):
        d.line([(0, y), (w * c, y)], fill=(200, 200, 200))
    return im

def main():
    rng = random.Random(20261202)
    items = {'P': [], 'Q': []}
    for name in A:
        items['P'].append((name, 'colour', ROOT / 'A' / name / 'colour' / 'grid.png'))
        items['Q'].append((name, 'bw', ROOT / 'A' / name / 'bw' / 'grid.png'))
    for name in B:
        items['P'].append((name, 'bw', ROOT / 'B' / name / 'bw' / 'grid.png'))
        items['Q'].append((name, 'colour', ROOT / 'B' / name / 'colour' / 'grid.png'))
    key = {}
    font = ImageFont.truetype('/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf', 26)
    for sheet, its in items.items():
        tiles = [(n, v, grid_rgb(p)) for n, v, p in its]
        tiles += [('control:' + c, 'control', control(c)) for c in CONTROLS]
        rng.shuffle(tiles)
        W = 4; H = (len(tiles) + W - 1) // W
        out = Image.new('RGB', (W * 330, H * 360), 'white'); d = ImageDraw.Draw(out)
        for k, (n, v, rgb) in enumerate(tiles):
            i = str(rng.randrange(1000, 10000))
            while i in key: i = str(rng.randrange(1000, 10000))
            key[i] = {'sheet': sheet, 'photo': n, 'version': v}
            t = tile(rgb); x, y = (k % W) * 330, (k // W) * 360
            out.paste(t, (x + 15 + (300 - t.width) // 2, y + 10 + (300 - t.height) // 2))
            d.text((x + 130, y + 318), i, fill='black', font=font)
        out.save(f'judged/sheet-{sheet}.png')
    Path('judged/key.json').write_text(json.dumps(key, indent=1))

CONTROLS = ['p7468', 'p3961']
if __name__ == '__main__':
    main()
