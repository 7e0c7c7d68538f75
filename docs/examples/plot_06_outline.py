"""
An outline instead of a slab
============================

``style="outline"`` draws a subject cut out by transparency as a two-cell outline of its silhouette plus its
dark details. Here a hard-disk icon, 20×20.

.. image:: ../../samples/images/tango_drive-harddisk.png
   :alt: the source icon
   :width: 96px
"""
import nonogen

made = nonogen.from_image("../../samples/images/tango_drive-harddisk.png", size=(20, 20),
                          style="outline")
print(made.report["status"], "grade", made.report["grade"], made.report["grade_name"])

# %%
# ``nonogen.save`` writes the folder ``nonogen image`` writes: puzzle files for solvers, the puzzle and
# its solution as sheets, a page to play it, and the report.

folder = nonogen.save(made, "out/drive", force=True)

# sphinx_gallery_thumbnail_number = 2
