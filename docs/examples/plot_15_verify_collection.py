"""
Verifying a collection of other people's puzzles
================================================

``samples/puzzles`` holds puzzles in the formats people share: webpbn's survey puzzles (``.non``, credited to
their designers in each file), ``.cnon``, webpbn XML, Olšák's ``.g``, ``.nin``, TAAI and others (see its
``SOURCES.md``); two are unsolvable on purpose. ``verify_paths`` proves each one unique or not, with a
difficulty grade, as ``nonogen verify samples/puzzles --json`` does.
"""
from collections import Counter

import nonogen

records = list(nonogen.verify_paths(["../../samples/puzzles"], timeout=30))
for r in sorted(records, key=lambda r: r["file"]):
    size = f"{r.get('width')}x{r.get('height')}"
    name = r["file"].split("/")[-1]
    print(f"{name:24} {r['format']:9} {size:>6} {r['status']:11} grade {r.get('grade')}")
print(Counter(r["status"] for r in records))

# %%
# The hardest of them, webpbn #6574, needs search (grade 5): line logic and probing alone leave cells open.
# Its sheet and the solution nonogen proved:

hardest = nonogen.load("../../samples/puzzles/webpbn-06574.non")
nonogen.draw(hardest, "out/webpbn-06574/puzzle.png", force=True)
nonogen.draw(hardest, "out/webpbn-06574/solution.png", solution=True, force=True)

# %%
# A colour puzzle of the collection, webpbn XML with four colours:

sailboat = nonogen.load("../../samples/puzzles/sailboat.xml")
nonogen.draw(sailboat, "out/sailboat-xml/puzzle.png", force=True)
nonogen.draw(sailboat, "out/sailboat-xml/solution.png", solution=True, force=True)

# sphinx_gallery_thumbnail_number = 4
