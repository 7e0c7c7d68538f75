"""Importers: pictures and 3D models read and turned into grids of cells and boxes of cubes, before any clue exists."""
