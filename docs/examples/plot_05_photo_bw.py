"""
A photo in black and white, its subject first
=============================================

In black and white, a photo's subject is found first (OpenCV's GrabCut, offline) and the puzzle is framed on
it; dark regions are inked solid and light ones drawn as their edge, so the motorcycle keeps its wheels. Blind
judges named this one; a photo whose subject GrabCut cannot cut out (the astronaut, a cat's face filling the
frame) still comes out as shapes nobody can name in black and white, and reads better in colour.

.. image:: ../../samples/images/photo-motorcycle.jpg
   :alt: the source photo
   :width: 200px
"""
import nonogen

made = nonogen.from_image("../../samples/images/photo-motorcycle.jpg", mode="bw")
print(made.report["status"], f"{made.puzzle.width}x{made.puzzle.height}",
      "grade", made.report["grade"])
for warning in made.report["warnings"]:
    print("warning:", warning)

# %%
# ``nonogen.save`` writes the folder ``nonogen image`` writes: puzzle files for solvers, the puzzle and
# its solution as sheets, a page to play it, and the report.

folder = nonogen.save(made, "out/motorcycle-bw", force=True)

# sphinx_gallery_thumbnail_number = 2
