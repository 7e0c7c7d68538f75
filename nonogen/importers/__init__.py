"""Importers: pictures and 3D models read and turned into grids of cells and boxes of cubes, before any clue exists."""

BITMAP_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".gif", ".bmp", ".tif", ".tiff")
"""Pictures Pillow decodes: what a folder is searched for when pictures are wanted (here, where the CLI can ask
without loading numpy or Pillow)."""
PICTURE_SUFFIXES = BITMAP_SUFFIXES + (".svg", ".svgz")
"""...and SVG drawings, which ``nonogen image`` and the studio render (``nonogen scan`` reads bitmaps and PDFs)."""
MODEL_SUFFIXES = (".stl", ".obj", ".ply", ".glb", ".gltf", ".off")
"""3D models trimesh reads into a Picross 3D level."""
