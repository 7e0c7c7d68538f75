"""
A photograph in black and white: crop it first
==============================================

Chelsea the cat, photographed by Stefan van der Walt (CC0; from scikit-image's sample data, credited in
``samples/images/SOURCES.md``). In black and white a puzzle keeps outlines, not tones, and a face that fills
the frame has no outline of its own: the whole photo comes out as a shape few would name. Cropped to the eyes
and the nose, the same settings keep two eyes and a nose: a face, if not yet a cat.
"""
from PIL import Image

import nonogen

PHOTO = "../../samples/images/photo-chelsea.jpg"
whole = nonogen.from_image(PHOTO, mode="bw")
print("whole photo:", whole.report["status"], f"{whole.puzzle.width}x{whole.puzzle.height},",
      "recognisability", round(whole.report["recognisability"], 2))

nonogen.save(whole, "out/cat", force=True)
Image.open(PHOTO).save("out/cat/photo.png")

# %%
# The crop: left, top, right and bottom in pixels of the photo (any image editor does the same).

face = Image.open(PHOTO).crop((60, 20, 210, 170))
cropped = nonogen.from_image(face, mode="bw")
print("cropped:", cropped.report["status"], f"{cropped.puzzle.width}x{cropped.puzzle.height},",
      "recognisability", round(cropped.report["recognisability"], 2))

nonogen.save(cropped, "out/cat-face", force=True)
face.save("out/cat-face/photo.png")

# sphinx_gallery_thumbnail_number = 6
