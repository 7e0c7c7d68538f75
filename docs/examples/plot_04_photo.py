"""
A photograph in colour
======================

Eileen Collins, NASA astronaut, in NASA's portrait (public domain; from scikit-image's sample data, credited in
``samples/images/SOURCES.md``) becomes a colour puzzle with nonogen's defaults: framed on its subject, about 40
cells a side, at most 4 colours. Superpixels smooth the photo without blurring its edges, k-means in CIELAB
picks the colours, and specks are cleaned up so that the clues stay pleasant to solve.

What comes out is honest about photos: the head, the hair and the orange of the suit survive; the flag and the
shuttle are gone, and the helmet blurs into the suit. The report's ``recognisability`` says how likely a person
is to name the result (0 to 1), and :doc:`../guides/pictures` has the recipe for a photo that does not read.
"""
from PIL import Image

import nonogen

PHOTO = "../../samples/images/photo-astronaut.jpg"
made = nonogen.from_image(PHOTO)
report = made.report
print(report["status"], f"{made.puzzle.width}x{made.puzzle.height},", made.puzzle.n_colors, "colours,",
      "grade", report["grade"], report["grade_name"], "- recognisability", round(report["recognisability"], 2))
for warning in report["warnings"]:
    print("warning:", warning)

# %%
# ``nonogen.save`` writes the folder ``nonogen image`` writes: puzzle files for solvers, the puzzle and its
# solution as sheets, a page to play it, and the report. The photo is saved beside them to be shown here.

folder = nonogen.save(made, "out/astronaut", force=True)
Image.open(PHOTO).save("out/astronaut/photo.png")

# sphinx_gallery_thumbnail_number = 3
