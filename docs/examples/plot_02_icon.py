"""
An icon in black and white
==========================

A public-domain Tango icon at 20×20 cells. Its subject is cut out by transparency; a light subject such as
this page would turn into one solid slab, so nonogen draws it as an outline with its dark details, then proves
the clues have exactly one solution.

.. image:: ../../samples/images/tango_document-new.png
   :alt: the source icon
   :width: 96px
"""
import nonogen

made = nonogen.from_image("../../samples/images/tango_document-new.png", size=(20, 20),
                          mode="bw")
print(made.report["status"], "grade", made.report["grade"], made.report["grade_name"],
      "recognisability", round(made.report["recognisability"], 2))

# %%
# ``nonogen.save`` writes the folder ``nonogen image`` writes: puzzle files for solvers, the puzzle and
# its solution as sheets, a page to play it, and the report.

folder = nonogen.save(made, "out/page", force=True)

# sphinx_gallery_thumbnail_number = 2
