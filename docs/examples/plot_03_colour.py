"""
A colour puzzle
===============

A smiley (public-domain Tango icon) in three colours. Colours are merged in CIELAB until at most three are
left and every two are far enough apart to tell on paper; the sheet carries a legend with each colour's name.

.. image:: ../../samples/images/tango_emotes-face-smile.png
   :alt: the source icon
   :width: 96px
"""
import nonogen

made = nonogen.from_image("../../samples/images/tango_emotes-face-smile.png", colors=3)
print(made.report["status"], [entry.name for entry in made.puzzle.palette])

# %%
# ``nonogen.save`` writes the folder ``nonogen image`` writes: puzzle files for solvers, the puzzle and
# its solution as sheets, a page to play it, and the report.

folder = nonogen.save(made, "out/smile", force=True)

# sphinx_gallery_thumbnail_number = 2
