"""
Grade 2: easy, on purpose
=========================

A flat drawing of a fish reads as grade 1 at every size. Asked for grade 2, nonogen redraws a few of its least
certain edge cells (their pixels voted closest) as their runner-up colour until the grade is reached, and says
so in a warning.

.. image:: ../../samples/images/flat-fish.png
   :alt: the source drawing
   :width: 120px
"""
import nonogen

made = nonogen.from_image("../../samples/images/flat-fish.png", grade=2)
print(made.report["status"], "grade", made.report["grade"], made.report["grade_name"])
for warning in made.report["warnings"]:
    print("warning:", warning)

# %%
# ``nonogen.save`` writes the folder ``nonogen image`` writes: puzzle files for solvers, the puzzle and
# its solution as sheets, a page to play it, and the report.

folder = nonogen.save(made, "out/fish-grade-2", force=True)

# sphinx_gallery_thumbnail_number = 2
