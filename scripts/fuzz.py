#!/usr/bin/env python
"""Hostile-input campaign over every reader: mutated puzzle files, packing levels, pictures and models.

    python scripts/fuzz.py                    # 20,000 cases, 2 processes
    python scripts/fuzz.py --cases 500 --jobs 1 --save /tmp/fuzz-failures

Each case takes a valid seed file (the shipped samples and small puzzles built
here), mutates it (byte flips, truncation, duplicated or deleted lines, huge,
negative and NaN numbers, wrong JSON types, deep nesting, BOM, CRLF, NUL
bytes, ...) and reads it the way ``nonogen verify`` does: the registry, then
the verifier with a short time limit. A case passes when it ends in a
verdict or in a :class:`NonogenError` whose message is one line naming the
file, within the time and memory bounds. Anything else is a failure; with
``--save`` the file is kept as a reproducer.

Every puzzle a case reads also goes through every writer and must read back
with the same clues (a ``round trip`` failure). Besides mutated files, the
kinds ``target`` (writing into FIFOs, device nodes, sockets, symlinks made
in a temp folder), ``gltf`` (models naming huge, FIFO or missing external
buffers) and ``resume`` (two runs resuming one file at once) build hostile
situations (``scripts/fuzz_hostile.py``).

Printed per kind (12 puzzle formats, ``pack``, ``image``, ``mesh`` and the
three situations): cases run, failures, the largest memory growth of one
case, the slowest case. ``--round-trip`` instead sends every sample and held
puzzle through every writer.

The same machinery drives ``tests/test_fuzz.py`` (a few hundred cases).
"""
from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import resource
import shutil
import signal
import struct
import sys
import tempfile
import time
import traceback
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

PUZZLE_FORMATS = ("nonogen", "nonogen-3d", "non", "cnon", "webpbn", "nin", "g", "taai", "taai-solution", "counts",
                  "rowscols", "bracket")
sys.path.insert(0, str(Path(__file__).resolve().parent))
import fuzz_hostile  # noqa: E402  (scripts/ is no package)

KINDS = PUZZLE_FORMATS + ("pack", "image", "mesh") + fuzz_hostile.ENV_KINDS
SUFFIX = {"nonogen": ".json", "nonogen-3d": ".json", "rowscols": ".json", "non": ".non", "cnon": ".cnon",
          "webpbn": ".xml", "nin": ".nin", "g": ".g", "taai": ".txt", "taai-solution": ".txt", "counts": ".txt",
          "bracket": ".txt", "pack": ".pack"}

TIME_LIMIT = 5.0
"""Seconds one case may take (reading and verifying together)."""
MEMORY_LIMIT_MB = 300.0
"""Peak memory one case may add to the process."""
VERIFY_TIMEOUT = 0.5


# --- seeds --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seed:
    kind: str
    suffix: str
    data: bytes
    name: str


def _g_text(puzzle) -> str:
    """Olšák ``.g`` text of a black-and-white puzzle (nonogen reads .g but does not write it)."""
    def line(clue):
        return " ".join(str(n) for n, _ in clue) or "0"
    return "\n".join(["Built", ": rows", *map(line, puzzle.rows), ": columns", *map(line, puzzle.cols), ": end"]) + "\n"


def _built_puzzles(rng: random.Random) -> list[Seed]:
    """Small puzzles written by nonogen itself in every format it writes (and .g by hand)."""
    from nonogen import formats
    from nonogen.clues import puzzle_from_grid
    from nonogen.clues3d import puzzle3d_from_cells
    from nonogen.model import Color

    colours = (Color("white", "#ffffff", "."), Color("red", "#ff0000", "r"), Color("blue", "#0000ff", "b"))
    seeds = []
    for k in range(6):
        h, w = rng.randint(1, 6), rng.randint(1, 6)
        grid = np.array([[rng.random() < 0.55 for _ in range(w)] for _ in range(h)], dtype=np.uint8)
        grid[0, 0] = 1
        bw = puzzle_from_grid(grid, title=f"built {k}")
        square = puzzle_from_grid(np.array([[rng.random() < 0.5 for _ in range(5)] for _ in range(5)], dtype=np.uint8))
        cgrid = np.array([[rng.choice((0, 1, 2)) for _ in range(w)] for _ in range(h)], dtype=np.uint8)
        cgrid[0, 0] = 2
        colour = puzzle_from_grid(cgrid, colours, givens=[(0, 0, 2)], author="fuzz")
        for name in ("nonogen", "non", "cnon", "webpbn", "nin", "counts", "rowscols", "bracket"):
            seeds.append(Seed(name, SUFFIX[name], formats.dumps(bw, name).encode(), f"built-bw-{k}"))
        for name in ("nonogen", "non", "cnon", "webpbn"):
            seeds.append(Seed(name, SUFFIX[name], formats.dumps(colour, name).encode(), f"built-colour-{k}"))
        for name in ("taai", "taai-solution"):
            seeds.append(Seed(name, ".txt", formats.dumps_all([square, square], name).encode(), f"built-{k}"))
        seeds.append(Seed("g", ".g", _g_text(bw).encode(), f"built-{k}"))
        cells = np.array([[[rng.random() < 0.5 for _ in range(rng.randint(1, 4))]] * 3] * 2, dtype=bool)
        cells[0, 0, 0] = True
        level = puzzle3d_from_cells(cells)
        seeds.append(Seed("nonogen-3d", ".json", formats.dumps(level, "nonogen-3d").encode(), f"built-3d-{k}"))
        hidden = level.replace(clues={a: [[None if rng.random() < 0.4 else c for c in row] for row in t]
                                      for a, t in level.clues.items()}, goal=cells)
        seeds.append(Seed("nonogen-3d", ".json", formats.dumps(hidden, "nonogen-3d").encode(), f"built-3d-hidden-{k}"))
    level = puzzle3d_from_cells(np.ones((1, 1, 1), dtype=bool))
    blank = level.replace(clues={a: [[None for _ in row] for row in t] for a, t in level.clues.items()})
    seeds.append(Seed("nonogen-3d", ".json", formats.dumps(blank, "nonogen-3d").encode(), "built-3d-all-hidden"))
    return seeds


def _sample_puzzles() -> list[Seed]:
    from nonogen import formats

    seeds = []
    for path in sorted((ROOT / "samples" / "puzzles").glob("*")):
        if path.suffix.lower() not in formats.SUFFIXES:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            name = formats.format_for(path, text)
        except Exception:
            continue
        seeds.append(Seed(name, path.suffix, path.read_bytes(), path.name))
    return seeds


def _pack_seeds(rng: random.Random) -> list[Seed]:
    seeds = [Seed("pack", ".pack", p.read_bytes(), p.name)
             for p in sorted((ROOT / "samples" / "packing").glob("*.pack"))]
    seeds.append(Seed("pack", ".pack", b"nonogen-pack 1\nboard 3x2\n\npiece A L3\n##\n#.\n\npiece B L3\n##\n#.\n",
                      "tiny"))
    seeds.append(Seed("pack", ".pack", b"board\nAA.\nA..\n\npiece A\n##\n#.\n\npiece B\n##\n#.\nsolution\nAAB\nABB\n",
                      "tiny-solution"))
    return seeds


def _png(width: int, height: int, mode_bits: int = 8, color_type: int = 2, idat: bytes = b"") -> bytes:
    """A PNG built by hand: any header (a decompression bomb claims a huge size) with any data."""
    def chunk(tag: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))
    header = struct.pack(">IIBBBBB", width, height, mode_bits, color_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat or zlib.compress(b"\0" * 64)) + \
        chunk(b"IEND", b"")


def _image_seeds(rng: random.Random) -> list[Seed]:
    from PIL import Image

    def save(img, fmt, **kw) -> bytes:
        out = io.BytesIO()
        img.save(out, fmt, **kw)
        return out.getvalue()

    seeds = [Seed("image", p.suffix, p.read_bytes(), p.name) for p in sorted((ROOT / "samples" / "images").glob("*"))
             if p.suffix.lower() in (".png", ".gif", ".jpg", ".jpeg")]
    arr = np.array([[rng.randrange(65536) for _ in range(12)] for _ in range(9)], dtype=np.uint16)
    seeds += [
        Seed("image", ".png", save(Image.fromarray(arr), "PNG"), "16-bit"),
        Seed("image", ".jpg", save(Image.new("CMYK", (10, 8), (0, 80, 160, 20)), "JPEG"), "cmyk"),
        Seed("image", ".gif", save(Image.new("P", (6, 6), 1), "GIF", save_all=True,
                                   append_images=[Image.new("P", (6, 6), 2)], duration=100, loop=0), "animated"),
        Seed("image", ".png", save(Image.new("RGBA", (1, 1), (0, 0, 0, 0)), "PNG"), "1x1"),
        Seed("image", ".png", save(Image.new("P", (8, 8), 0), "PNG", transparency=0), "palette-transparent"),
        Seed("image", ".png", b'<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><rect width="9"/></svg>',
             "svg-renamed"),
        Seed("image", ".png", _png(100_000, 100_000), "bomb-header"),
        Seed("image", ".png", _png(7000, 6000, idat=zlib.compress(b"\0" * 100_000)), "big-header"),
        Seed("image", ".jpg", save(Image.new("RGB", (16, 16), (200, 10, 10)), "JPEG")[:300], "truncated-jpeg"),
        Seed("image", ".png", b"", "empty"),
    ]
    return seeds


def _mesh_text(vertices, faces, suffix: str) -> bytes:
    if suffix == ".obj":
        out = [f"v {x} {y} {z}" for x, y, z in vertices] + [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in faces]
    elif suffix == ".off":
        out = ["OFF", f"{len(vertices)} {len(faces)} 0"] + [f"{x} {y} {z}" for x, y, z in vertices]
        out += [f"3 {a} {b} {c}" for a, b, c in faces]
    elif suffix == ".ply":
        out = ["ply", "format ascii 1.0", f"element vertex {len(vertices)}", "property float x", "property float y",
               "property float z", f"element face {len(faces)}", "property list uchar int vertex_indices",
               "end_header"] + [f"{x} {y} {z}" for x, y, z in vertices] + [f"3 {a} {b} {c}" for a, b, c in faces]
    else:  # ascii stl
        v = np.asarray(vertices, dtype=float)
        out = ["solid fuzz"]
        for a, b, c in faces:
            out += ["facet normal 0 0 0", "outer loop"] + [f"vertex {x} {y} {z}" for x, y, z in v[[a, b, c]]]
            out += ["endloop", "endfacet"]
        out.append("endsolid fuzz")
    return ("\n".join(out) + "\n").encode()


CUBE_V = [(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)]
CUBE_F = [(0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1), (2, 3, 7), (2, 7, 6), (0, 2, 6),
          (0, 6, 4), (1, 5, 7), (1, 7, 3)]
TETRA_V = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]
TETRA_F = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]


def binary_stl(n_faces: int, declared: Optional[int] = None) -> bytes:
    """A binary STL of ``n_faces`` small random triangles (``declared`` may lie about the count)."""
    rng = np.random.default_rng(n_faces)
    tri = np.zeros(n_faces, dtype=[("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")])
    tri["v"] = rng.random((n_faces, 3, 3), dtype=np.float32)
    return b"\0" * 80 + struct.pack("<I", n_faces if declared is None else declared) + tri.tobytes()


def _mesh_seeds(rng: random.Random) -> list[Seed]:
    seeds = [Seed("mesh", p.suffix, p.read_bytes(), p.name) for p in sorted((ROOT / "samples" / "meshes").glob("*"))
             if p.stat().st_size < 2_000_000]
    for suffix in (".obj", ".off", ".ply", ".stl"):
        seeds.append(Seed("mesh", suffix, _mesh_text(CUBE_V, CUBE_F, suffix), f"cube{suffix}"))
        seeds.append(Seed("mesh", suffix, _mesh_text(TETRA_V, TETRA_F, suffix), f"tetra{suffix}"))
    nan_v = [(float("nan"), 0, 0)] + TETRA_V[1:]
    huge_v = [(1e308, -1e308, 1e308), (-1e308, 1e308, 0), (0, 0, -1e308), (1e308, 1e308, 1e308)]
    fin = CUBE_V + [(2, 2, 2)]
    seeds += [
        Seed("mesh", ".obj", _mesh_text(nan_v, TETRA_F, ".obj"), "nan-vertex"),
        Seed("mesh", ".obj", _mesh_text(huge_v, TETRA_F, ".obj"), "1e308"),
        Seed("mesh", ".obj", b"v 1e308 1e308 1e308\nv -1e308 0 0\nv 0 -1e308 0\nv 0 0 -1e308\nf 1 2 3\nf 1 3 4\n",
             "1e308-76-bytes"),
        Seed("mesh", ".obj", _mesh_text(TETRA_V[:3], [(0, 1, 2)], ".obj"), "single-triangle"),
        Seed("mesh", ".obj", _mesh_text(fin, CUBE_F + [(0, 1, 8), (1, 0, 8), (0, 8, 7)], ".obj"), "non-manifold"),
        Seed("mesh", ".stl", b"", "empty"),
        Seed("mesh", ".stl", bytes(rng.randrange(256) for _ in range(2000)), "junk"),
        Seed("mesh", ".stl", binary_stl(12), "binary"),
        Seed("mesh", ".stl", binary_stl(12, declared=4_000_000_000), "lying-count"),
    ]
    return seeds


_SEEDS: dict[str, list[Seed]] = {}


def seeds() -> dict[str, list[Seed]]:
    """Every seed by kind (built once per process)."""
    if not _SEEDS:
        rng = random.Random(1)
        for seed in _sample_puzzles() + _built_puzzles(rng) + _pack_seeds(rng) + _image_seeds(rng) + _mesh_seeds(rng):
            _SEEDS.setdefault(seed.kind, []).append(seed)
    return _SEEDS


# --- mutations ----------------------------------------------------------------------------------------

NUMBERS = ["0", "-1", "-7", "2001", "99999", "4294967296", "1" * 10, "9" * 4301, "9" * 5000, "1e308", "-1e308",
           "NaN", "Infinity", "1.5", "-0", "00000000001", "1e400"]
TEXTS = ["", "x", "\u00e9", "\ud7ff", "\ufeff", "#", "|", "null", "{}", "[]", ":", ",", "====", "$1", "GRID", "\t"]


def _json_value(rng: random.Random):
    """A wrong JSON value for a random spot: other types, huge numbers (as markers), long or deep lists."""
    pick = rng.randrange(12)
    if pick == 0:
        return rng.choice([0, -1, 1, 2001, 10**9, 1.5, True, False, None])
    if pick == 1:
        return "__NUMBER__" + rng.choice(NUMBERS)
    if pick == 2:
        return rng.choice(TEXTS)
    if pick == 3:
        return [1] * rng.choice([3, 2001, 100_000, 400_000])
    if pick == 4:
        return [[1, "x"], [2, None], {"a": 1}]
    if pick == 5:
        return "__DEEP__" + str(rng.choice([50, 1000, 100_000]))
    if pick == 6:
        return {"rows": [[1]], "x": [[None]]}
    if pick == 7:
        return [["1"] * rng.choice([1, 5, 600])] * rng.choice([1, 5, 600])
    if pick == 8:
        return "1" * rng.choice([1, 3, 2000])
    if pick == 9:
        return [[0, 0, 0, 1]] * rng.choice([1, 10, 5000])
    if pick == 10:
        return [{"name": "c", "rgb": "#000000", "char": "c"}] * rng.choice([1, 300])
    return [rng.randint(-3, 3) for _ in range(rng.randint(0, 4))]


def _json_nodes(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _json_nodes(v, path + (k,))
    elif isinstance(value, list) and len(value) < 2000:
        for i, v in enumerate(value):
            yield from _json_nodes(v, path + (i,))


def m_json(rng: random.Random, data: bytes) -> bytes:
    """Replace one node of a JSON document by a wrong value (type, size, depth, number)."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except Exception:
        return m_number(rng, data)
    nodes = list(_json_nodes(doc))
    path = rng.choice(nodes)
    value = _json_value(rng)
    if not path:
        doc = value
    else:
        parent = doc
        for p in path[:-1]:
            parent = parent[p]
        if rng.random() < 0.2 and isinstance(parent, dict):
            parent[f"extra{rng.randrange(9)}"] = value
        else:
            parent[path[-1]] = value
    text = json.dumps(doc)

    def number(m):
        return m.group(1)

    def deep(m):
        n = int(m.group(1))
        return "[" * n + "]" * n
    text = re.sub(r'"__NUMBER__([^"]*)"', number, text)
    return re.sub(r'"__DEEP__(\d+)"', deep, text).encode()


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def m_flip(rng, data):
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if b:
            b[rng.randrange(len(b))] = rng.randrange(256)
    return bytes(b)


def m_insert(rng, data):
    pos = rng.randrange(len(data) + 1)
    junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return data[:pos] + junk + data[pos:]


def m_delete(rng, data):
    if not data:
        return data
    a = rng.randrange(len(data))
    return data[:a] + data[a + rng.randint(1, 40):]


def m_truncate(rng, data):
    return data[: rng.randrange(len(data) + 1)]


def m_dup_line(rng, data):
    lines = _lines(data)
    i = rng.randrange(len(lines))
    lines[i:i + 1] = [lines[i]] * rng.choice([2, 3, 10, 3000])
    return b"\n".join(lines)


def m_del_line(rng, data):
    lines = _lines(data)
    del lines[rng.randrange(len(lines))]
    return b"\n".join(lines)


def m_swap_lines(rng, data):
    lines = _lines(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def m_number(rng, data):
    spots = [m.span() for m in re.finditer(rb"\d+", data)]
    if not spots:
        return m_insert(rng, data)
    a, b = rng.choice(spots)
    return data[:a] + rng.choice(NUMBERS).encode() + data[b:]


def m_bom(rng, data):
    return b"\xef\xbb\xbf" + data


def m_crlf(rng, data):
    return data.replace(b"\n", b"\r\n")


def m_nul(rng, data):
    pos = rng.randrange(len(data) + 1)
    return data[:pos] + b"\0" + data[pos:]


def m_long_line(rng, data):
    lines = _lines(data)
    filler = rng.choice([b"1 ", b"1,", b"3a,", b"1:R,", b"<count>1</count>", b"#", b"0", b"9" * 50 + b" "])
    lines.insert(rng.randrange(len(lines) + 1), filler * rng.choice([100, 3000, 200_000]))
    return b"\n".join(lines)


def m_text(rng, data):
    lines = _lines(data)
    lines.insert(rng.randrange(len(lines) + 1), rng.choice(TEXTS).encode("utf-8", "surrogatepass"))
    return b"\n".join(lines)


def m_splice(rng, data, other: bytes = b""):
    a = rng.randrange(len(data) + 1)
    b = rng.randrange(len(other) + 1)
    return data[:a] + other[b:]


_ESCAPES = ("\\ud800", "\\udfff", "\\u0000", "\\u000c", "\\u001b", "\\u0085", "\\ufffe", "\\ud83d")
_CONTROLS = (b"\x0c", b"\x0b", b"\x1c", b"\x1f", b"\r", b"\xc2\x85", b"\xc2\x9b", b"\xef\xbf\xbe", b"&#12;",
             b"&#xD800;", b"\xed\xa0\x80")


def m_escape(rng, data):
    """A JSON escape of a lone surrogate or a control character just inside a string."""
    quotes = [m.start() for m in re.finditer(rb'"', data)]
    at = rng.choice(quotes) + 1 if quotes else rng.randrange(len(data) + 1)
    return data[:at] + rng.choice(_ESCAPES).encode() + data[at:]


def m_control(rng, data):
    """A raw control character (form feed, C1, U+FFFE, a CESU surrogate, an XML reference) inside a line."""
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice(_CONTROLS) + data[at:]


TEXT_MUTATIONS: list[Callable] = [m_flip, m_insert, m_delete, m_truncate, m_dup_line, m_del_line, m_swap_lines,
                                  m_number, m_number, m_bom, m_crlf, m_nul, m_long_line, m_text, m_escape, m_control]
BINARY_MUTATIONS: list[Callable] = [m_flip, m_flip, m_insert, m_delete, m_truncate]


def mutate(rng: random.Random, seed: Seed, pool: list[Seed]) -> tuple[bytes, list[str]]:
    """``seed``'s bytes after one to three mutations, with their names."""
    data, names = seed.data, []
    binary = seed.kind == "image" or (seed.kind == "mesh" and seed.suffix.lower() in (".glb", ".stl")
                                      and not seed.data.startswith(b"solid"))
    for _ in range(rng.choice([1, 1, 2, 3])):
        if seed.suffix == ".json" and rng.random() < 0.45:
            op = m_json
        elif seed.suffix == ".json" and rng.random() < 0.2:
            op = m_escape
        elif rng.random() < 0.05:
            other = rng.choice(pool).data
            data, names = m_splice(rng, data, other), names + ["splice"]
            continue
        else:
            op = rng.choice(BINARY_MUTATIONS if binary else TEXT_MUTATIONS)
        data = op(rng, data)
        names.append(op.__name__[2:])
    return data, names


# --- running one case ---------------------------------------------------------------------------------


class CaseTimeout(BaseException):
    """Raised by the alarm in a case that runs far too long (a BaseException, so no ``except Exception`` eats it)."""


@dataclass
class Outcome:
    """How one case ended. ``stage`` is ``read`` or ``verify``: a crash while verifying a file that read fine
    is a bug of the verifier (solve/), counted apart from the readers' failures."""

    kind: str
    case: str
    ok: bool
    problem: str
    seconds: float
    memory_mb: float
    detail: str = ""
    stage: str = "read"


def _rss_kb() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _peak_kb() -> int:
    try:
        with open("/proc/self/status") as f:
            return int(re.search(r"VmHWM:\s+(\d+)", f.read()).group(1))
    except (OSError, AttributeError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def read_and_verify(kind: str, path: Path, stage: Optional[list] = None) -> str:
    """What nonogen does with the file: read it and give a verdict. Returns the verdict(s).

    ``stage[0]`` is set to ``"verify"`` once the file has been read.
    """
    stage = stage if stage is not None else ["read"]
    if kind == "image":
        from nonogen.importers.image import load_image

        img = load_image(path)
        return f"image {img.width}x{img.height} {img.mode}"
    if kind == "mesh":
        from nonogen.importers.mesh import mesh_to_voxels

        model = mesh_to_voxels(path, size=5)
        return f"voxels {'x'.join(map(str, model.cells.shape))}"
    if kind == "pack":
        from nonogen.pack import load, verify_level

        level = load(path)
        stage[0] = "verify"
        return verify_level(level, timeout=VERIFY_TIMEOUT).status
    from nonogen import formats
    from nonogen.solve import verify

    puzzles = formats.load_all(path)
    stage[0] = "write"
    for puzzle in puzzles[:3]:  # whatever is read can be written in every format and read back
        _, problem = fuzz_hostile.writers_round_trip(puzzle)
        if problem:
            raise WriterFailure(problem)
    stage[0] = "verify"
    return " ".join(verify(p, timeout=VERIFY_TIMEOUT).status for p in puzzles[:3])


class WriterFailure(Exception):
    """A puzzle that read fine could not be written in some format, or did not read back the same."""


def check_case(kind: str, path: Path, label: str, time_limit: float = TIME_LIMIT,
               memory_limit_mb: float = MEMORY_LIMIT_MB) -> Outcome:
    """Run one case and judge it: a verdict or one NonogenError line naming the file, fast and small."""
    from nonogen.errors import NonogenError

    _reset_peak()
    before = _rss_kb()
    start = time.perf_counter()
    problem, detail = "", ""

    def on_alarm(*_args):
        raise CaseTimeout()

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(int(time_limit * 6) + 1)
    stage = ["read"]
    try:
        detail = read_and_verify(kind, path, stage)
    except CaseTimeout:
        problem = f"hang: stopped after {time_limit * 6:.0f} s"
    except WriterFailure as exc:
        problem = f"round trip: {exc}"
    except NonogenError as exc:
        detail = str(exc)
        if "\n" in detail:
            problem = "error message spans several lines"
        elif str(path) not in detail and stage[0] == "read":
            problem = "error message does not name the file"
    except Exception as exc:  # the failure this campaign hunts
        problem = f"{type(exc).__name__}: {str(exc)[:200]}"
        detail = traceback.format_exc(limit=-6)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    seconds = time.perf_counter() - start
    grown = max(0, _peak_kb() - before) / 1024
    if not problem and seconds > time_limit:
        problem = f"slow: {seconds:.1f} s"
    if not problem and grown > memory_limit_mb:
        problem = f"memory: {grown:.0f} MB"
    return Outcome(kind, label, not problem, problem, seconds, grown, detail, stage[0])


def make_case(index: int, master_seed: int, kinds: tuple[str, ...] = KINDS) -> tuple[Seed, bytes, list[str]]:
    """Case ``index`` of a campaign: the same seed file and mutations every time."""
    rng = random.Random(master_seed * 1_000_003 + index)
    kind = kinds[index % len(kinds)]
    if kind in fuzz_hostile.ENV_KINDS:  # a situation, built by fuzz_hostile from the same rng
        return Seed(kind, "", b"", kind), b"", [kind]
    pool = seeds()
    seed = rng.choice(pool[kind])
    if rng.random() < 0.04:
        return seed, seed.data, ["none"]
    data, names = mutate(rng, seed, pool[kind])
    return seed, data, names


_WORKDIR: Optional[Path] = None


def warm_up() -> None:
    """Import what the readers import lazily (trimesh, scipy, jsonschema, the solvers): a case's time is its own."""
    import jsonschema  # noqa: F401
    import scipy.ndimage  # noqa: F401
    import trimesh  # noqa: F401
    from PIL import Image  # noqa: F401

    import nonogen.pack  # noqa: F401
    import nonogen.solve  # noqa: F401
    from nonogen.formats import _json

    _json._validator("nonogen-2d"), _json._validator("nonogen-3d")


def run_index(args: tuple[int, int, Optional[str]]) -> Outcome:
    """Build, write, check and clean up case ``index`` (the unit of work of a worker process)."""
    global _WORKDIR
    index, master_seed, save = args
    if _WORKDIR is None:
        _WORKDIR = Path(tempfile.mkdtemp(prefix="nonogen-fuzz-"))
        warm_up()
    seed, data, names = make_case(index, master_seed)
    if seed.kind in fuzz_hostile.ENV_KINDS:
        return env_outcome(seed.kind, index, master_seed)
    path = _WORKDIR / f"case{index}{seed.suffix}"
    path.write_bytes(data)
    label = f"#{index} {seed.name} [{'+'.join(names)}]"
    try:
        outcome = check_case(seed.kind, path, label)
        if not outcome.ok and save:
            Path(save).mkdir(parents=True, exist_ok=True)
            shutil.copy(path, Path(save) / path.name)
    finally:
        path.unlink(missing_ok=True)
    return outcome


def env_outcome(kind: str, index: int, master_seed: int) -> Outcome:
    """Case ``index`` of an :data:`fuzz_hostile.ENV_KINDS` kind, judged like a file: no crash, fast, small."""
    rng = random.Random(master_seed * 1_000_003 + index)
    _reset_peak()
    before, start = _rss_kb(), time.perf_counter()

    def on_alarm(*_args):
        raise CaseTimeout()

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(int(TIME_LIMIT * 12))  # a resume case runs two commands
    try:
        label, problem, detail = fuzz_hostile.env_case(kind, rng, lambda model, trick: check_case("mesh", model, trick))
    except CaseTimeout:  # opening a FIFO nobody reads waits forever
        label, problem, detail = kind, f"hang: stopped after {TIME_LIMIT * 12:.0f} s", ""
    except Exception as exc:  # the case itself broke: a failure too, with its traceback
        label, problem, detail = kind, f"{type(exc).__name__}: {exc}", traceback.format_exc(limit=-6)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    seconds, grown = time.perf_counter() - start, max(0, _peak_kb() - before) / 1024
    if not problem and grown > MEMORY_LIMIT_MB:
        problem = f"memory: {grown:.0f} MB"
    return Outcome(kind, f"#{index} {label}", not problem, problem, seconds, grown, detail, "write")


# --- the campaign -------------------------------------------------------------------------------------


def campaign(cases: int, master_seed: int, jobs: int, save: Optional[str]) -> dict[str, dict]:
    """Run ``cases`` cases on ``jobs`` processes; statistics per kind."""
    stats = {k: {"cases": 0, "failures": 0, "outside": 0, "peak_mb": 0.0, "slowest": (0.0, ""), "problems": []}
             for k in KINDS}
    work = [(i, master_seed, save) for i in range(cases)]
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs, maxtasksperchild=500) as pool:
            results = pool.imap_unordered(run_index, work, chunksize=10)
            _collect(results, stats, cases)
    else:
        _collect(map(run_index, work), stats, cases)
    return stats


def _collect(results, stats: dict, total: int) -> None:
    done = 0
    for out in results:
        s = stats[out.kind]
        s["cases"] += 1
        s["peak_mb"] = max(s["peak_mb"], out.memory_mb)
        if out.seconds > s["slowest"][0]:
            s["slowest"] = (out.seconds, out.case)
        if not out.ok:
            s["outside" if out.stage == "verify" else "failures"] += 1
            s["problems"].append((out.case, f"[{out.stage}] {out.problem}", out.detail))
        done += 1
        if done % 1000 == 0:
            print(f"... {done}/{total} cases", file=sys.stderr, flush=True)


def report(stats: dict, seconds: float) -> str:
    """The table: per kind, cases, reading failures, verifier crashes on files that read fine, memory, time."""
    lines = [f"{'kind':<14} {'cases':>6} {'failures':>8} {'verifier':>8} {'peak MB':>8} {'slowest s':>9}  slowest case"]
    for kind, s in stats.items():
        lines.append(f"{kind:<14} {s['cases']:>6} {s['failures']:>8} {s['outside']:>8} {s['peak_mb']:>8.1f} "
                     f"{s['slowest'][0]:>9.2f}  {s['slowest'][1]}")
    total = sum(s["cases"] for s in stats.values())
    failures = sum(s["failures"] for s in stats.values())
    outside = sum(s["outside"] for s in stats.values())
    lines.append(f"{'total':<14} {total:>6} {failures:>8} {outside:>8}   ({seconds:.0f} s)")
    for kind, s in stats.items():
        for case, problem, detail in s["problems"][:3]:
            lines.append(f"\nFAIL {kind} {case}: {problem}\n{detail.strip()[-800:]}")
    return "\n".join(lines)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=20000, help="number of cases (default 20000)")
    parser.add_argument("--seed", type=int, default=1, help="campaign seed (default 1)")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="worker processes")
    parser.add_argument("--save", metavar="DIR", help="keep failing cases here as reproducers")
    parser.add_argument("--round-trip", nargs="*", metavar="FOLDER",
                        help="instead: every puzzle in these folders (default: samples and ../shared/data/puzzles) "
                             "through every writer, read back")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.round_trip is not None:
        folders = args.round_trip or [ROOT / "samples" / "puzzles", ROOT.parent / "shared" / "data" / "puzzles"]
        stats = fuzz_hostile.round_trip([f for f in map(Path, folders) if f.is_dir()])
        print(f"round trip: {stats['files']} files, {stats['puzzles']} distinct puzzles, {stats['round_trips']} "
              f"round trips, {len(stats['failed'])} failed ({time.perf_counter() - start:.0f} s)")
        print("\n".join(stats["failed"][:40]))
        return 1 if stats["failed"] else 0
    stats = campaign(args.cases, args.seed, args.jobs, args.save)
    print(report(stats, time.perf_counter() - start))
    return 1 if any(s["failures"] or s["outside"] for s in stats.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
