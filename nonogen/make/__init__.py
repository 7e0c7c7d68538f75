"""Making puzzles: pictures into nonograms and models into Picross 3D levels, each verified, repaired and reported.

``picture`` (``from_image``) and ``level3d`` (``from_mesh``, ``make_level``) are the two pipelines;
``repair2d``, ``repair3d`` and ``hide3d`` are their steps. Nothing is imported here, so a command that
makes pictures does not load the 3D stack, nor the other way round.
"""
