"""
Grade 5: needs search
=====================

An apple the project drew to look like a photo (soft shading, blur, sensor noise;
``scripts/make_sample_images.py``), at 15×15 in black and white, aimed at grade 5. Its clues are made unique
with the givens that help a solver least, then the most helpful ones are revealed until the grade comes down to
5; when the picture itself is too easy, it is drawn as a halftone (tones as dot density). The given cells are
printed on the sheet.

.. image:: ../../samples/images/photo-apple.jpg
   :alt: the source picture, drawn
   :width: 160px
"""
import nonogen

made = nonogen.from_image("../../samples/images/photo-apple.jpg", size=(15, 15), mode="bw",
                          grade=5, timeout=30)
print(made.report["status"], "grade", made.report["grade"], made.report["grade_name"],
      "givens", len(made.report["givens"]))
for warning in made.report["warnings"]:
    print("warning:", warning)

# %%
# ``nonogen.save`` writes the folder ``nonogen image`` writes: puzzle files for solvers, the puzzle and
# its solution as sheets, a page to play it, and the report.

folder = nonogen.save(made, "out/apple-grade-5", force=True)

# sphinx_gallery_thumbnail_number = 2
