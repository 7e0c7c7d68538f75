"""
A photo in black and white, its subject first
=============================================

In black and white, a photo's subject is found first (OpenCV's GrabCut, offline) and the puzzle is framed on
it; dark regions are inked solid and light ones drawn as their edge.

.. image:: ../../samples/images/photo-astronaut.jpg
   :alt: the source photo
   :width: 200px
"""
import nonogen

made = nonogen.from_image("../../samples/images/photo-astronaut.jpg", width=30, mode="bw")
print(made.report["status"], f"{made.puzzle.width}x{made.puzzle.height}",
      "grade", made.report["grade"])
for warning in made.report["warnings"]:
    print("warning:", warning)

# %%
# ``nonogen.save`` writes the folder ``nonogen image`` writes: puzzle files for solvers, the puzzle and
# its solution as sheets, a page to play it, and the report.

folder = nonogen.save(made, "out/astronaut", force=True)

# sphinx_gallery_thumbnail_number = 2
