"""
Pixel art, exactly
==================

A heart drawn as pixel art and scaled up ten times. nonogen notices the integer upscale and undoes it
exactly, so each cell is one of the artist's pixels and each colour one of theirs: no cell is guessed.

.. image:: ../../samples/images/heart-pixelart-x10.png
   :alt: the source picture
   :width: 120px
"""
import nonogen

made = nonogen.from_image("../../samples/images/heart-pixelart-x10.png", colors=3)
print(made.report["status"], f"{made.puzzle.width}x{made.puzzle.height},",
      made.puzzle.n_colors, "colours,", "grade", made.report["grade"], made.report["grade_name"])

# %%
# ``nonogen.save`` writes the folder ``nonogen image`` writes: puzzle files for solvers, the puzzle and
# its solution as sheets, a page to play it, and the report.

folder = nonogen.save(made, "out/heart", force=True)

# sphinx_gallery_thumbnail_number = 2
