"""A blind naming round on fresh pictures (/work/shared/docs/BLIND.md): make the grids and judges' sheets, then score.

``make ROUND PHOTOS OUT KEY``: every picture of the folder PHOTOS (which holds split.json, its FIT and JUDGE halves,
and subjects.csv, the words that name each subject: see samples/readability/photos-r1/ and icons-r2/) made as
``nonogen image`` makes it today (the commit at HEAD), in the default mode and with ``--mode bw`` (``--modes
default`` for the default alone), and as the previous release made it (``--previous REV``, default 07c0a63; ``none``
skips it); both commits are unpacked under the temp folder as scripts/bench_picture_quality.py unpacks its previous
pipeline. ``--candidate RULE`` adds a third version, a candidate default not yet committed: HEAD's tree with the
working tree's CANDIDATE_FILES laid over it and ``nonogen.importers.image.COLOUR_RULE`` set to RULE (``covers``:
colour where the few colours cover the subject). A split.json with ``kinds`` (kind -> files) gives each picture its
category (``drawn``, ``pixel``); without, every picture is a photo. ``--packets N`` deals the sheets into N packets,
one a judge, a picture's versions in different packets and every control in each (see :func:`_packets`). Every
grid goes to PHOTOS/puzzles.json, one a line: its rows, palette, settings, pipeline commit, the reference the score
is measured against (hex, rounded: the score of the stored grid and reference is the report's within 0.002), and the
report's recognisability and warnings (a previous grid also gets today's score of it, ``recognisability_today``).
Each distinct grid of a picture is one tile under a random id (counted for every version that drew it), drawn alone
in its palette (a background that is not white painted, as nonogen draws a solution) without clues, name, setting
or score; 8 grids blind judges already labelled (CONTROLS, 4 readable and 4 not) go
in too. The tiles of one photo are dealt to sheets spread across the round, never two on one sheet; 16 a sheet. OUT
gets sheet-N.png and README.txt (the rule for judges) and nothing else; KEY gets round.json (what each id is: never
for the judges). The same grids and seed give the same ids and sheets.

``score KEY ANSWERS...``: each ANSWERS file is one judge's ``id,name`` (CSV with that header). A grid is named by a
judge when the first name given (before any bracket, "or", slash or comma) contains, as a word (a plural too), one
of the words its subject accepts; "none" is not named. Printed for the FIT and JUDGE halves and both: the controls
that kept their label, then per version, mode and kind how many grids each judge named, both named and either named
(and, with a candidate, on the pictures it changes); the
ROC AUC of the recognisability with named by both as positive and with named by either; the readability warning's
hit rate on the unnamed and false-alarm rate on the named; named shares of near-empty and near-full grids.

Usage: .venv/bin/python scripts/readability_round.py make ROUND PHOTOS OUT KEY [--previous REV|none] [--seed N]
           [--modes default,bw] [--candidate RULE] [--packets N]
       .venv/bin/python scripts/readability_round.py score KEY ANSWERS...
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import shutil
import json
import math
import os
import random
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "samples" / "readability"
PREVIOUS = "07c0a63"
MODES = {"default": {}, "bw": {"mode": "bw"}}
CANDIDATE_FILES = ("nonogen/importers/image.py", "nonogen/importers/pipelines.py", "nonogen/importers/quantize.py",
                   "nonogen/importers/frame.py", "nonogen/importers/cells.py")
"""The files of the working tree a candidate version runs (laid over HEAD's tree): where the default mode is chosen."""
PER_SHEET = 16
BOX = 220
CELLS = ".abcdefghijklmnop"
CONTROLS = ("b9802", "b1300", "e6283", "f7528", "b3043", "b7647", "b6695", "b0730")
"""Labelled grids (samples/readability) whose blind judges named the subject plainly (a motorbike, a face, a
sailboat, a cat: readable) or saw only blobs (the cat's photo, the coffee, the coins, the rocket: not); all on white,
so they are drawn here as they were when labelled."""
CONTROL_WORDS = {
    "photo-motorcycle.jpg": "motorcycle;motorbike;bike;scooter;moped",
    "photo-portrait.jpg": "face;man;person;head;portrait",
    "photo-sailboat.jpg": "sailboat;boat;yacht;sail;ship", "photo-cat.jpg": "cat;kitten",
    "photo-chelsea.jpg": "cat;kitten", "photo-coffee.jpg": "coffee;cup;mug", "photo-coins.jpg": "coin;money",
    "photo-falcon9.jpg": "rocket;launch;missile"}
NEAR = (0.1, 0.75)
"""Fill shares under and over which a grid counts as near-empty and near-full (quality.FILL_RANGE)."""
RULE = """Each sheet shows up to 16 tiles, each under its id. A tile is a finished nonogram: a picture made of square
cells, in black and white or in a few colours.

For every id, write what the picture shows in one or two words ("a kite", "a sofa", "soup") only when you would
bet on it; otherwise write none. One name only: no second guess, no "X or Y", nothing in brackets. Name the thing,
not the cells ("black blob", "stripes" are none). Work alone.

Answer in one CSV file with the header id,name and one line for every id on every sheet you were given
({count}), for example:
id,name
0123,kite
0456,none
(0123 and 0456 are not ids of this round; every id on the sheets has four digits.)
"""
EXAMPLES = ("kite", "sofa", "soup")
"""The names RULE gives as examples: a round whose subjects accept one is refused (it would prime the judges)."""


# --- making the grids ------------------------------------------------------------------------------------------


def worker(specs: list[dict], today: bool, rule: str | None = None) -> list[dict]:
    """Make every picture with whichever nonogen is on the path, as ``nonogen image`` does by default (with the
    candidate colour rule ``rule``, when given)."""
    from nonogen.importers.image import ImageOptions
    from nonogen.make.picture import from_image

    if rule is not None:
        import nonogen.importers.image as image

        assert hasattr(image, "COLOUR_RULE"), "this tree has no candidate colour rule"
        image.COLOUR_RULE = rule

    out = []
    for spec in specs:
        options = ImageOptions(**spec["settings"])
        made = from_image(spec["path"], options=options)
        rep = made.report
        subject = rep.get("import", {}).get("subject")
        box = subject.get("box") if isinstance(subject, dict) and subject.get("used", True) else None
        entry = {"grid": ["".join(CELLS[v] for v in row) for row in made.solution.tolist()],
                 "palette": [c.rgb for c in made.puzzle.palette], "status": rep["status"],
                 "mode": rep.get("import", {}).get("mode"), "box": box, "warnings": rep.get("warnings", []),
                 "recognisability": rep.get("recognisability"), "parts": rep.get("recognisability_parts")}
        if today:  # the reference the report measured: the picture imported exactly as from_image imports it
            from nonogen.importers.image import image_to_grid, load_image, pixels_wanted

            imported = image_to_grid(load_image(spec["path"], reduce_for=pixels_wanted(options)), options)
            entry["reference"] = _hex(imported.reference)
        out.append(entry)
    return out


def _hex(reference) -> list[str]:
    return ["".join(f"{int(round(v)):02x}" for v in row) for row in reference.tolist()]


def _tree(rev: str) -> Path:
    """The nonogen package as committed at ``rev``, unpacked once under the temp folder (the working tree may hold
    someone's unfinished picture code: both pipelines run from commits), with the working tree's built line logic
    (C) when its sources there are the same: the pure-Python fallback repairs some puzzles' uniqueness with other
    cells, and ``nonogen image`` runs the C module where it is built."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from bench_picture_quality import previous_tree

    tree = previous_tree(rev)
    solve = tree / "nonogen" / "solve"
    built = list((ROOT / "nonogen" / "solve").glob("_linelogic*.so"))
    if built and not list(solve.glob("_linelogic*.so")) and _linelogic_sources(tree) == _linelogic_sources(ROOT):
        shutil.copyfile(built[0], solve / built[0].name)
    return tree


def _linelogic_sources(root: Path) -> dict[str, bytes]:
    """The C line logic's sources and header under ``root`` (as pyproject.toml at HEAD lists them)."""
    import tomllib

    modules = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["ext-modules"]
    module = next(m for m in modules if m["name"] == "nonogen.solve._linelogic")
    return {f: (root / f).read_bytes() if (root / f).is_file() else b"" for f in module["sources"] + module["depends"]}


def _candidate_digest() -> str:
    """A short hash of the working tree's CANDIDATE_FILES: the candidate is named by it until it is committed."""
    return hashlib.sha1(b"".join((ROOT / f).read_bytes() for f in CANDIDATE_FILES)).hexdigest()[:8]


def _candidate_tree(rev: str) -> Path:
    """HEAD's tree (``rev``) with the working tree's CANDIDATE_FILES laid over it, copied afresh under the temp
    folder."""
    where = _tree(rev).parent / f"nonogen-{rev}-candidate-{_candidate_digest()}"
    shutil.rmtree(where, ignore_errors=True)
    shutil.copytree(_tree(rev) / "nonogen", where / "nonogen")
    for f in CANDIDATE_FILES:
        shutil.copyfile(ROOT / f, where / f)
    return where


def _run(specs: list[dict], rev: str, today: bool, rule: str | None = None) -> list[dict]:
    """Run the worker in a fresh process on the tree of ``rev`` (with the candidate's files and rule, if given)."""
    tree = _candidate_tree(rev) if rule else _tree(rev)
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, __file__, "--worker", "today" if today else "previous"] + ([rule] if rule
                          else []), input=json.dumps(specs), env=env, capture_output=True, text=True, timeout=7200)
    if done.returncode != 0:
        raise SystemExit(f"{rev}'s pipeline failed: {done.stderr.strip()[-600:]}")
    return json.loads(done.stdout)


def _commit(rev: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev], capture_output=True, text=True,
                          check=True).stdout.strip()


def _score_today(entry: dict, path: str) -> tuple[list[str], float | None]:
    """Today's reference and recognisability of a previous grid: the photo (cropped to the subject box the report
    gives, if any) laid on the grid padded, as scripts/bench_picture_quality.py measures the previous pipeline."""
    import numpy as np
    from nonogen.importers.image import ImageOptions, image_to_grid, load_image
    from nonogen.importers.quality import readability
    from nonogen.palette import Color

    grid = np.array([[CELLS.index(ch) for ch in row] for row in entry["grid"]])
    picture = load_image(path)
    if entry.get("box"):
        picture = picture.crop(tuple(entry["box"]))
    rows, cols = grid.shape
    reference = image_to_grid(picture, ImageOptions(size=(cols, rows), fit="pad", mode="bw")).reference
    palette = [Color(f"c{i}", rgb, "x") for i, rgb in enumerate(entry["palette"])]
    return _hex(reference), readability(grid, reference, palette)


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _fill(grid: list[str]) -> float:
    cells = "".join(grid)
    return round(1 - cells.count(".") / len(cells), 4)


def make(name: str, photos: Path, out: Path, key: Path, previous: str | None, seed: int,
         modes: tuple[str, ...] = tuple(MODES), candidate: str | None = None, packets: int = 1) -> None:
    split = json.loads((photos / "split.json").read_text())
    half = {f: "fit" for f in split["fit"]} | {f: "judge" for f in split["judge"]}
    kind = {f: k for k, fs in split.get("kinds", {"photo": list(half)}).items() for f in fs}
    with open(photos / "subjects.csv", newline="") as f:
        subjects = {row["file"]: row for row in csv.DictReader(f)}
    files = sorted(half)
    assert sorted(subjects) == files, "split.json and subjects.csv name different photos"
    primed = sorted(f for f in files if any(named(e, subjects[f]["accepted"].split(";")) for e in EXAMPLES))
    if primed:
        raise SystemExit(f"the rule's examples ({', '.join(EXAMPLES)}) name subjects of the round: {primed}")
    specs = [{"file": f, "path": str(photos / f), "mode": m, "settings": MODES[m]} for f in files for m in modes]
    head = _commit("HEAD")
    sys.path.insert(0, str(_tree(head)))  # today's score of the previous grids: the committed code's too
    versions = [("today", head, None)] + ([("previous", _commit(previous), None)] if previous else [])
    if candidate:
        versions.append(("candidate", head, candidate))
    grids = []
    for version, commit, rule in versions:
        pipeline = f"{commit}+{_candidate_digest()} {rule}" if rule else commit
        for spec, made in zip(specs, _run(specs, commit, version != "previous", rule), strict=True):
            stem = Path(spec["file"]).stem
            entry = {"id": f"{stem}/{spec['mode']}/{version}", "picture": _rel(Path(spec["path"])),
                     "category": kind[spec["file"]], "pipeline": pipeline, "version": version,
                     "settings": spec["settings"],
                     "width": len(made["grid"][0]), "height": len(made["grid"]), "mode": made["mode"],
                     "palette": made["palette"], "grid": made["grid"], "reference": made.get("reference"),
                     "status": made["status"], "recognisability": made["recognisability"],
                     "recognisability_parts": made["parts"], "warnings": made["warnings"], "half": half[spec["file"]],
                     "batch": name, "fill": _fill(made["grid"])}
            if version == "previous":
                entry["reference"], entry["recognisability_today"] = _score_today(made, spec["path"])
            entry["warned"] = (any("may not read" in w for w in entry["warnings"]) if version != "previous" else
                               entry["recognisability_today"] is not None and entry["recognisability_today"] < 0.2)
            grids.append(entry)
    (photos / "puzzles.json").write_text("[\n" + ",\n".join(json.dumps(g, separators=(",", ":")) for g in grids)
                                         + "\n]\n")
    rng = random.Random(seed)
    tiles: dict[str, dict] = {}
    groups: list[list[dict]] = []
    for f in files:
        distinct: dict[tuple, dict] = {}
        for g in (g for g in grids if g["picture"].endswith("/" + f)):
            tile = distinct.setdefault((tuple(g["grid"]), tuple(g["palette"])),
                                       {"photo": f, "half": half[f], "category": kind[f],
                                        "subject": subjects[f]["subject"],
                                        "accepted": subjects[f]["accepted"].split(";"), "grid": g["grid"],
                                        "palette": g["palette"], "grids": []})
            tile["grids"].append(g["id"])
        groups.append(list(distinct.values()))
    labelled = {p["id"]: p for p in json.loads((SET / "puzzles.json").read_text())}
    with open(SET / "labels.csv", newline="") as f:
        labels = {row["id"]: row["label"] for row in csv.DictReader(f)}
    for c in CONTROLS:
        picture = Path(labelled[c]["picture"]).name
        groups.append([{"control": c, "label": labels[c], "picture": labelled[c]["picture"],
                        "accepted": CONTROL_WORDS[picture].split(";"), "grid": labelled[c]["grid"],
                        "palette": labelled[c]["palette"]}])
    parts = _packets(groups[:len(files)], groups[len(files):], packets, rng)
    n = sum(len(g) for part in parts for g in part)
    ids = iter(str(i) for i in rng.sample(range(1000, 10000), n))
    sheets: list[list[str]] = []
    packet_sheets = {}
    for k, part in enumerate(parts, 1):
        dealt = []
        for group in part:
            dealt.append([next(ids) for _ in group])
            tiles.update(zip(dealt[-1], group, strict=True))
        size = sum(map(len, dealt))
        first = len(sheets) + 1
        sheets += _deal(dealt, max(math.ceil(size / PER_SHEET), max(map(len, dealt))), rng)
        packet_sheets[str(k)] = {"sheets": list(range(first, len(sheets) + 1)), "ids": size}
    count = f"{n} ids" if packets == 1 else "; ".join(
        f"sheets {p['sheets'][0]}-{p['sheets'][-1]}: {p['ids']} ids" for p in packet_sheets.values())
    out.mkdir(parents=True, exist_ok=True)
    key.mkdir(parents=True, exist_ok=True)
    for k, sheet in enumerate(sheets, 1):
        _sheet([(i, _draw(tiles[i]["grid"], tiles[i]["palette"])) for i in sheet]).save(out / f"sheet-{k}.png")
    (out / "README.txt").write_text(RULE.format(count=count))
    record = {"round": name, "photos": _rel(photos), "seed": seed, "previous": previous, "candidate": candidate,
              "modes": list(modes), "versions": {v: c for v, c, _ in versions},
              "sheets": {str(k): s for k, s in enumerate(sheets, 1)}, "packets": packet_sheets, "tiles": tiles,
              "grids": {g["id"]: {k: g[k] for k in ("picture", "category", "version", "pipeline", "settings", "mode",
                                                     "half", "recognisability", "warned", "fill", "warnings",
                                                     "status")}
                        | {"recognisability_today": g.get("recognisability_today")} for g in grids}}
    (key / "round.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"{len(grids)} grids of {len(files)} pictures ({', '.join(f'{v} {c}' for v, c, _ in versions)}), "
          f"{n - len(parts) * len(CONTROLS)} distinct tiles + {len(CONTROLS)} controls"
          f"{f' in each of {len(parts)} packets' if len(parts) > 1 else ''} on {len(sheets)} sheets in {out}; "
          f"key in {key}")


def _packets(pictures: list[list[dict]], controls: list[list[dict]], packets: int,
             rng: random.Random) -> list[list[list[dict]]]:
    """The tiles in ``packets`` packets of sheets, one packet a judge: a picture's tiles (its versions) each in
    another packet, so no judge names a picture twice (a grid seen in colour is easily named again in black and
    white), each version of them in each packet in turn within a half and category, so that no packet's judges
    judge one version more than another; every packet has every control (under its own id). One packet:
    the groups as they are (a picture's tiles are then spread over sheets, :func:`_deal`)."""
    if packets == 1:
        return [pictures + controls]
    if any(len(group) > packets for group in pictures):
        raise SystemExit(f"a picture has more versions than the {packets} packets: each judge would see it twice")
    parts: list[list[list[dict]]] = [[] for _ in range(packets)]
    turn: dict[tuple, int] = {}  # per half and category: which packet gets the next picture's first version
    for group in sorted(rng.sample(pictures, len(pictures)), key=len, reverse=True):
        if len(group) == 1:
            parts[min(range(packets), key=lambda p: (len(parts[p]), rng.random()))].append(group)
            continue
        stratum = (group[0]["half"], group[0]["category"])
        start = turn.get(stratum, rng.randrange(packets))
        turn[stratum] = start + 1
        versions = sorted(group, key=lambda tile: tile["grids"][0].rsplit("/", 1)[-1])  # each version in turn
        for k, tile in enumerate(versions):
            parts[(start + k) % packets].append([tile])
    for part in parts:
        part += [[dict(control[0])] for control in controls]
    return parts


def _deal(groups: list[list[str]], n_sheets: int, rng: random.Random) -> list[list[str]]:
    """Tiles onto sheets: the tiles of one group (one photo's grids) on sheets spread evenly across the round,
    largest groups first, each on the emptiest fitting spread; then each sheet shuffled."""
    for _ in range(200):
        sheets: list[list[str]] = [[] for _ in range(n_sheets)]
        order = rng.sample(groups, len(groups))
        order.sort(key=len, reverse=True)
        for group in order:
            best = None
            for base in rng.sample(range(n_sheets), n_sheets):
                spots = [int(base + k * n_sheets / len(group)) % n_sheets for k in range(len(group))]
                if len(set(spots)) == len(group) and all(len(sheets[s]) < PER_SHEET for s in spots):
                    load = sum(len(sheets[s]) for s in spots)
                    if best is None or load < best[0]:
                        best = (load, spots)
            if best is None:
                break
            for spot, tile in zip(best[1], rng.sample(group, len(group)), strict=True):
                sheets[spot].append(tile)
        else:
            return [rng.sample(s, len(s)) for s in sheets]
    raise SystemExit("could not deal the tiles onto the sheets")


def _draw(grid: list[str], palette: list[str]) -> Image.Image:
    """The solved grid alone in its palette, about BOX pixels on its long side: every cell painted, as nonogen draws
    a solution (a white background stays white)."""
    cell = max(2, BOX // max(len(grid), len(grid[0])))
    colours = [tuple(int(h[i:i + 2], 16) for i in (1, 3, 5)) for h in palette]
    img = Image.new("RGB", (len(grid[0]) * cell, len(grid) * cell), colours[0])
    draw = ImageDraw.Draw(img)
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ch != ".":
                draw.rectangle([c * cell, r * cell, (c + 1) * cell - 1, (r + 1) * cell - 1],
                               fill=colours[CELLS.index(ch)])
    return img


def _sheet(tiles: list[tuple[str, Image.Image]]) -> Image.Image:
    sheet = Image.new("RGB", (4 * (BOX + 30), 4 * (BOX + 40)), (235, 235, 235))
    for k, (tile_id, img) in enumerate(tiles):
        x, y = (k % 4) * (BOX + 30) + 15, (k // 4) * (BOX + 40) + 25
        sheet.paste(img, (x, y))
        ImageDraw.Draw(sheet).text((x, y - 16), tile_id, fill="black")
    return sheet


# --- scoring the judges' names ---------------------------------------------------------------------------------


def first_name(answer: str) -> str:
    """The name a judge bet on: what comes before a bracket, an "or", a slash, a comma or a question mark."""
    text = unicodedata.normalize("NFKD", answer.lower()).encode("ascii", "ignore").decode()
    return re.split(r"[(\[/;,?]|\bor\b", text)[0].strip()


def named(answer: str, accepted: list[str]) -> bool:
    name = first_name(answer)
    if name in ("", "none", "nothing", "-", "?"):
        return False
    words = [unicodedata.normalize("NFKD", w.lower()).encode("ascii", "ignore").decode() for w in accepted]
    forms = [rf"{re.escape(w)}(?:s|es)?" + (rf"|{re.escape(w[:-1])}ies" if w.endswith("y") else "") for w in words if w]
    return any(re.search(rf"\b(?:{form})\b", name) for form in forms)


def auc(scores: list[float], positive: list[bool]) -> float | None:
    """ROC AUC (ties count half); None when one class is empty."""
    pos = [s for s, p in zip(scores, positive, strict=True) if p]
    neg = [s for s, p in zip(scores, positive, strict=True) if not p]
    if not pos or not neg:
        return None
    wins = sum((p > q) + 0.5 * (p == q) for p in pos for q in neg)
    return wins / (len(pos) * len(neg))


def _share(k: int, n: int) -> str:
    return f"{k}/{n}" + (f" ({k / n:.0%})" if n else "")


def score(key: Path, answer_files: list[Path]) -> None:
    record = json.loads((key / "round.json").read_text())
    judges = {}
    for path in answer_files:
        with open(path, newline="") as f:
            given = {row["id"].strip(): (row.get("name") or "").strip() for row in csv.DictReader(f)}
        missing = sorted(set(record["tiles"]) - set(given))
        if missing:
            raise SystemExit(f"{path} lacks {len(missing)} ids, e.g. {missing[:3]}")
        judges[path.stem] = {i: named(given[i], t["accepted"]) for i, t in record["tiles"].items()}
    names = list(judges)
    print(f"round {record['round']}: {len(record['tiles'])} tiles on {len(record['sheets'])} sheets, judges {names}")
    controls = {i: t for i, t in record["tiles"].items() if "control" in t}
    for j in names:
        kept = sum(judges[j][i] == (t["label"] == "readable") for i, t in controls.items())
        print(f"controls kept their label, {j}: {kept} of {len(controls)}")
    both_agree = sum(len({judges[j][i] for j in names}) == 1 for i in record["tiles"] if i not in controls)
    print(f"judges agree on {both_agree} of {len(record['tiles']) - len(controls)} picture tiles")
    modes = {m: MODES[m] for m in record.get("modes", MODES)}
    rows = []  # one per grid: a tile names every grid it stands for
    for i, t in record["tiles"].items():
        for g in t.get("grids", []):
            info = record["grids"][g]
            today = info["version"] != "previous"  # today's and the candidate's grids carry their own score
            got = [judges[j][i] for j in names]
            rows.append({**info, "id": g, "tile": i, "by": dict(zip(names, got, strict=True)), "both": all(got),
                         "either": any(got), "category": info.get("category", "photo"),
                         "score": info["recognisability"] if today else info["recognisability_today"]})
    for half in ("fit", "judge", "all"):
        sel = [r for r in rows if half == "all" or r["half"] == half]
        print(f"\n== {half.upper()} ({len({r['picture'] for r in sel})} pictures)")
        kinds = sorted({r["category"] for r in sel})
        for version in sorted({r["version"] for r in sel}, reverse=True):
            for mode in modes:
                for kind in ([None] + kinds if len(kinds) > 1 else [None]):
                    part = [r for r in sel if r["version"] == version and r["settings"] == modes[mode]
                            and kind in (None, r["category"])]
                    per = ", ".join(f"{j} {_share(sum(r['by'][j] for r in part), len(part))}" for j in names)
                    print(f"  {version:9} {mode:7} {kind or 'all':6} named: {per}; "
                          f"both {_share(sum(r['both'] for r in part), len(part))},"
                          f" either {_share(sum(r['either'] for r in part), len(part))}")
        if "candidate" in {r["version"] for r in sel}:  # the pictures the candidate draws otherwise than today
            for mode in modes:
                by = {(r["picture"], r["version"]): r for r in sel if r["settings"] == modes[mode]}
                changed = [p for p, v in by if v == "today" and (p, "candidate") in by
                           and by[(p, "candidate")]["tile"] != by[(p, "today")]["tile"]]
                for version in ("today", "candidate"):
                    part = [by[(p, version)] for p in changed]
                    print(f"  changed by the candidate, {version:9} {mode:7}: both "
                          f"{_share(sum(r['both'] for r in part), len(part))}, either "
                          f"{_share(sum(r['either'] for r in part), len(part))}")
        for version in sorted({r["version"] for r in sel}, reverse=True):
            part = [r for r in sel if r["version"] == version and r["score"] is not None]
            label = ("today's recognisability of the previous grids" if version == "previous" else
                     f"recognisability ({version})")
            for which in ("both", "either"):
                a = auc([r["score"] for r in part], [r[which] for r in part])
                pos = sum(r[which] for r in part)
                shown = "n/a" if a is None else f"{a:.3f}"
                print(f"  AUC of {label}, named by {which}: {shown} ({pos} named, {len(part) - pos} not)")
                for mode in modes:
                    sub = [r for r in part if r["settings"] == modes[mode]]
                    a = auc([r["score"] for r in sub], [r[which] for r in sub])
                    shown = "n/a" if a is None else f"{a:.3f}"
                    print(f"      {mode:7} {shown} ({sum(r[which] for r in sub)} of {len(sub)})")
                warned_un = sum(r["warned"] for r in part if not r[which])
                warned_named = sum(r["warned"] for r in part if r[which])
                print(f"    warning ({'score under 0.2' if version == 'previous' else 'report'}): hits "
                      f"{_share(warned_un, len(part) - pos)} of the unnamed, false alarms {_share(warned_named, pos)}"
                      " of the named")
            bands = {"near-empty": [r for r in part if r["fill"] < NEAR[0]],
                     "near-full": [r for r in part if r["fill"] > NEAR[1]],
                     "between": [r for r in part if NEAR[0] <= r["fill"] <= NEAR[1]]}
            print(f"    fill ({version}): " + "; ".join(
                f"{k} {len(v)} grids, named by both {sum(r['both'] for r in v)}, "
                f"by either {sum(r['either'] for r in v)}"
                for k, v in bands.items()))


def main(argv: list[str]) -> int:
    if argv[:1] == ["--worker"]:
        print(json.dumps(worker(json.loads(sys.stdin.read()), argv[1] == "today", argv[2] if len(argv) > 2 else None)))
        return 0
    sys.path.insert(0, str(ROOT))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("make", help="grids, sheets and the key for a round")
    m.add_argument("round")
    m.add_argument("photos", type=Path)
    m.add_argument("out", type=Path)
    m.add_argument("key", type=Path)
    m.add_argument("--previous", default=PREVIOUS, help=f"the previous release (default {PREVIOUS}); none skips it")
    m.add_argument("--seed", type=int, default=1, help="seed of the ids and the deal onto sheets")
    m.add_argument("--modes", default=",".join(MODES), help=f"modes made, of {', '.join(MODES)} (default all)")
    m.add_argument("--candidate", choices=("covers",), help="also the candidate default: HEAD with the working "
                   "tree's CANDIDATE_FILES and this COLOUR_RULE")
    m.add_argument("--packets", type=int, default=1, help="packets of sheets, one a judge: a picture's versions in "
                   "different packets, every control in each (default 1: all sheets for every judge)")
    s = sub.add_parser("score", help="score the judges' id,name files against the key")
    s.add_argument("key", type=Path)
    s.add_argument("answers", type=Path, nargs="+")
    args = parser.parse_args(argv)
    if args.command == "make":
        modes = tuple(args.modes.split(","))
        if not modes or any(mode not in MODES for mode in modes):
            parser.error(f"--modes takes a comma-separated list of {', '.join(MODES)}")
        make(args.round, args.photos.resolve(), args.out, args.key, None if args.previous == "none" else args.previous,
             args.seed, modes, args.candidate, args.packets)
    else:
        score(args.key, args.answers)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
