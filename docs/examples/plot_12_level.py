"""
A Picross 3D level from a model
===============================

A mushroom model (``samples/meshes/mushroom.ply``, drawn by a script in ``scripts/``) is voxelized into an
8×8×8 box of cubes. nonogen proves the full set of clues unique, then hides clues, one solver call each, while
the level stays unique. The puzzle shows the three faces' clues (a circle: the cubes are in two groups, a
square: three or more, grey: hidden); the solution is the model in its colours. The level plays in the browser
(link below the pictures): break the cubes that are not part of the model.
"""
import nonogen

made = nonogen.from_mesh("../../samples/meshes/mushroom.ply", size=8)
report = made.report
print(report["status"], "size", made.puzzle.size, "cubes", report["voxels"],
      f"hid {report['clues_hidden']} of {report['clues_total']} clues,", "grade", report["grade"])

# %%
# ``nonogen.save`` writes the folder ``nonogen mesh`` writes: the level (``level.json``), a page to play
# it, the solved model (``level.glb``), the clue faces and the solved shape as pictures, and the report.

folder = nonogen.save(made, "out/mushroom-level", force=True)

# sphinx_gallery_thumbnail_number = 2
