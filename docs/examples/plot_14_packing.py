"""
A polyomino packing level
=========================

An IQ Puzzler Pro style level: an 8×5 board is cut into 8 pieces, no two alike, and pieces are pre-placed
until the rest of the board can be completed in exactly one way (then every pre-placed piece that is not
needed is taken away again). The exact-cover solver proves it.
"""
from pathlib import Path

from nonogen import pack
from nonogen.output import save_picture
from nonogen.pack.generate import generate_level
from nonogen.pack.render import level_picture, solution_picture

level, report = generate_level(8, 5, 8, seed=3, distinct=True)
result = pack.verify_level(level)
print(result.status, f"{len(level.pieces)} pieces,", f"{len(level.placed)} pre-placed")
print(pack.dumps(level))

# %%
# The level as a player gets it (the pre-placed pieces on the board, the others beside it) and its one
# completion:

out = Path("out/packing")
save_picture(level_picture(level), out / "level.png", force=True)
save_picture(solution_picture(level, result.solution), out / "solution.png", force=True)

# sphinx_gallery_thumbnail_number = 2
