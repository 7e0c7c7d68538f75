"""
A Picross 3D level aimed at a grade
===================================

The same hiding can stop at a difficulty: ``grade=2`` hides the longest run of clues (in a seeded order) that
keeps this snowman a grade-2 level that line logic alone solves.
"""
import nonogen

made = nonogen.from_mesh("../../samples/meshes/snowman.obj", size=10, grade=2)
report = made.report
print(report["status"], "size", made.puzzle.size,
      f"hid {report['clues_hidden']} of {report['clues_total']} clues,",
      "grade", report["grade"], report["grade_name"], "line-solvable:", report["line_solvable"])

# %%
# ``nonogen.save`` writes the folder ``nonogen mesh`` writes: the level (``level.json``), a page to play
# it, the solved model (``level.glb``), the clue faces and the solved shape as pictures, and the report.

folder = nonogen.save(made, "out/snowman-grade-2", force=True)

# sphinx_gallery_thumbnail_number = 2
