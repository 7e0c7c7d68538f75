"""
Grade 1: very easy
==================

``grade=1`` asks for the easiest kind of puzzle: one that plain overlap reasoning on single lines solves. A
play button icon, 20×20.

.. image:: ../../samples/images/icon-play.png
   :alt: the source icon
   :width: 96px
"""
import nonogen

made = nonogen.from_image("../../samples/images/icon-play.png", grade=1)
print(made.report["status"], "grade", made.report["grade"], made.report["grade_name"],
      "score", made.report["score"])

# %%
# ``nonogen.save`` writes the folder ``nonogen image`` writes: puzzle files for solvers, the puzzle and
# its solution as sheets, a page to play it, and the report.

folder = nonogen.save(made, "out/play-grade-1", force=True)

# sphinx_gallery_thumbnail_number = 2
