"""
A photo in colour
=================

A photo (from scikit-image's public-domain sample data) becomes a 4-colour puzzle, 30 cells wide: superpixels
smooth it without blurring its edges, k-means in CIELAB picks the colours, and small specks are cleaned up so
that the clues stay pleasant to solve. ``line_solvable`` keeps repairing until line logic alone solves it.

.. image:: ../../samples/images/photo-sailboat.jpg
   :alt: the source photo
   :width: 240px
"""
import nonogen

made = nonogen.from_image("../../samples/images/photo-sailboat.jpg", width=30,
                          line_solvable=True)
report = made.report
print(report["status"], f"{made.puzzle.width}x{made.puzzle.height},",
      made.puzzle.n_colors, "colours,", "line-solvable:", report["line_solvable"],
      "recognisability", round(report["recognisability"], 2))

# %%
# ``nonogen.save`` writes the folder ``nonogen image`` writes: puzzle files for solvers, the puzzle and
# its solution as sheets, a page to play it, and the report.

folder = nonogen.save(made, "out/sailboat", force=True)

# sphinx_gallery_thumbnail_number = 2
