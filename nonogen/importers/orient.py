"""Which way a model stands in its level: an up axis, and a quarter turn about it that faces the default view.

The two are different questions, answered by different evidence.

*Up* is about gravity, not taste. A view measure cannot settle it: over
all 12 candidates (3 up axes, 4 turns) the measure below put Suzanne, the
glTF duck, the dog and the rocket on their sides and the snowman on its
back, because a model lying down shows the camera more. So the up axis is
the file type's convention (glTF is y-up by its specification; OBJ and PLY
usually are; STL and OFF usually z-up), unless the model says otherwise:
modellers place a model on the ground at the origin, so a model whose lowest
point sits on the zero plane of exactly one axis, straddling zero on the
other two, stands on that axis (:func:`resting_axis`).

*Turn* is about the view. A level is first seen from the front-right-top:
the solution preview (isometric) and the play page's starting camera, which
show the model's front and right sides. What should face them is the side
that makes the model recognisable: a face, a beak, a spout. The model's
triangles say where that is: a modeller spends triangles on detail, so the
side with the most triangles is the face, while the surface area facing a
camera says how large the model looks from it. :func:`seen` counts both for
the two default cameras, over the model's triangles (each weighted by how
squarely the camera sees it), and :func:`choose_turn` averages the two
counts, each relative to the model's own orientation. On an evenly meshed
scan the counts agree and only the size of the view matters.

Measured on the cubes instead, the same ideas failed: at 10 to 14 cubes a
face's detail is gone, and the surface the cameras see past the nearer
cubes rewarded a dog walking away from the viewer (its head no longer hides
its body) over the classic three-quarter view of it walking towards them.

The file's own orientation is the modeller's choice (glTF even specifies
that a model faces +z, the viewer), so it is kept unless another turn shows
at least :data:`KEEP_MARGIN` more. On the samples and test models a model
facing away scores a third less or worse (Suzanne 0.67, the ogre head 0.72,
the cow 0.86), while other turns of a model already facing the viewer stay
within 6 %.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

import numpy as np

from ..errors import OptionError
from ..render.iso3d import VIEW, view_vector

__all__ = ["UPS", "TURNS", "AUTO", "Orientation", "orient", "turned", "checked_up", "checked_turn",
           "resting_axis", "choose_up", "seen", "choose_turn", "outlines", "DEFAULT_VIEW", "DEFAULT_VIEWS",
           "KEEP_MARGIN", "SIDE_MARGIN"]

UPS = ("x", "y", "z")
TURNS = (0, 90, 180, 270)
AUTO = "auto"

KEEP_MARGIN = 0.10
"""How much more surface detail another turn must show before the model's own orientation is left."""
SIDE_MARGIN = 0.20
"""How much larger the model's outline from the side must be than from the front before its side is turned to face
the view. Measured at 20 cubes: an ambulance, taxi, stag or fox modelled head-on show 64 % to 211 % more from the
side, Spot the cow 28 %; a toilet 12 %, a cupcake, Suzanne or the bunny less from the side than from the front."""

_EX, _EU, _ED = view_vector(VIEW)
DEFAULT_VIEW = np.array([_EX, -_EU, _ED])
"""The unit vector towards the default camera in cell axes (x right, y down, z away): the solution picture and the
play page's first view are the same camera (:data:`nonogen.render.iso3d.VIEW`), from the front, turned 31.5 degrees
to the right and raised 28 degrees."""
DEFAULT_VIEWS = {"preview and play": DEFAULT_VIEW}
"""The default cameras by name (one since the solution picture is drawn from the play page's first camera)."""


@dataclass(frozen=True)
class Orientation:
    """How a level's model was turned: its up axis, a quarter turn about it, and why.

    ``seen`` holds, for an automatic turn, each turn's score: how much of
    the model the default views face, relative to its own orientation (turn 0).
    """

    up: str
    turn: int
    why: str
    up_given: bool = False
    turn_given: bool = False
    seen: dict[int, float] = field(default_factory=dict)

    def report(self) -> dict:
        """The orientation as ``report.json`` lists it."""
        return {"up": self.up, "turn": self.turn,
                "chosen": {"up": "given" if self.up_given else AUTO, "turn": "given" if self.turn_given else AUTO},
                "why": self.why, **({"seen": {str(t): round(v, 3) for t, v in self.seen.items()}} if self.seen else {})}


def checked_up(up: Optional[str]) -> Optional[str]:
    """An up axis as given (``None`` or ``"auto"``: choose it); anything else is an :class:`OptionError`.

    >>> checked_up("y"), checked_up("auto"), checked_up(None)
    ('y', None, None)
    """
    if up is None or up == AUTO:
        return None
    if up not in UPS:
        raise OptionError("up", up, "x, y, z or auto")
    return up


def checked_turn(turn: Union[int, str, None]) -> Optional[int]:
    """A turn in degrees as given (``None`` or ``"auto"``: choose it); it must be a quarter turn.

    >>> checked_turn(90), checked_turn("270"), checked_turn("auto")
    (90, 270, None)
    """
    if turn is None or turn == AUTO:
        return None
    value = turn if isinstance(turn, int) and not isinstance(turn, bool) else None
    if isinstance(turn, str) and turn.strip().isdigit():
        value = int(turn)
    if value not in TURNS:
        raise OptionError("turn", turn, "0, 90, 180, 270 or auto")
    return value


def orient(vertices: np.ndarray, up: str) -> np.ndarray:
    """Model coordinates to cell coordinates (x right, y down, z away from the viewer); a rotation.

    With ``z`` up the model's -y faces the viewer (Blender's front), with
    ``y`` up its +z (glTF's front), with ``x`` up its +y.

    >>> v = np.array([[1.0, 2.0, 3.0]])
    >>> orient(v, "z").tolist(), orient(v, "y").tolist(), orient(v, "x").tolist()
    ([[1.0, -3.0, 2.0]], [[1.0, -2.0, -3.0]], [[3.0, -1.0, -2.0]])
    """
    v = np.asarray(vertices, dtype=float)
    if up == "z":
        return np.column_stack([v[:, 0], -v[:, 2], v[:, 1]])
    if up == "y":
        return np.column_stack([v[:, 0], -v[:, 1], -v[:, 2]])
    if up == "x":
        return np.column_stack([v[:, 2], -v[:, 0], -v[:, 1]])
    raise OptionError("up", up, "x, y or z")


def turned(box: np.ndarray, turn: int) -> np.ndarray:
    """A box of cells (and any trailing axes, e.g. colours) turned ``turn`` degrees about the vertical.

    Counter-clockwise seen from above: a quarter turn brings the side that
    faced the viewer to the right, and the right side to the back.

    >>> box = np.zeros((2, 1, 3), dtype=bool); box[0, 0, 0] = True   # front-left corner
    >>> np.argwhere(turned(box, 90)).tolist()   # now the front-right corner of a 3x1x2 box
    [[2, 0, 0]]
    """
    return np.rot90(box, turn // 90, axes=(0, 2))


def resting_axis(vertices: np.ndarray) -> Optional[str]:
    """The axis the model stands on, when it rests on that axis's zero plane and straddles zero on the other two.

    Within a tenth of the model's extent on each axis; a model at the
    origin (centred on every axis) or in a corner (on several zero planes)
    says nothing.

    >>> corners = np.array([[-1.0, -2.0, 0.1], [1.0, 2.0, 5.0]])
    >>> resting_axis(corners), resting_axis(corners - 2.5), resting_axis(np.abs(corners))
    ('z', None, None)
    """
    v = np.asarray(vertices, dtype=float)
    low, high = v.min(axis=0), v.max(axis=0)
    tol = 0.1 * np.maximum(high - low, 1e-300)
    resting = (np.abs(low) <= tol) & (high > tol)
    straddling = (low < -tol) & (high > tol)
    if resting.sum() == 1 and straddling.sum() == 2:
        return UPS[int(np.argmax(resting))]
    return None


def choose_up(vertices: np.ndarray, usual: str, usual_why: str) -> tuple[str, str]:
    """The up axis and why: the axis the model rests on, else the file type's ``usual`` one."""
    resting = resting_axis(vertices)
    if resting is not None and resting != usual:
        return resting, f"up {resting}: the model rests on {resting} = 0 (its file type is usually {usual}-up)"
    if resting is not None:
        return usual, f"up {usual}: {usual_why}, and the model rests on {usual} = 0"
    return usual, f"up {usual}: {usual_why}"


def _turn_vectors(vectors: np.ndarray, turn: int) -> np.ndarray:
    """Directions in cell axes turned as :func:`turned` turns the cells (front to the right, right to the back).

    >>> _turn_vectors(np.array([[0.0, 0.0, -1.0]]), 90).tolist()   # the front face now looks right
    [[1.0, 0.0, 0.0]]
    """
    v = np.asarray(vectors, dtype=float)
    for _ in range(turn // 90):
        v = np.column_stack([-v[:, 2], v[:, 1], v[:, 0]])
    return v


def seen(normals: np.ndarray, areas: np.ndarray, turn: int) -> tuple[float, float]:
    """What the default cameras face of a model turned ``turn`` degrees: its surface area and its triangles.

    ``normals`` are the triangles' unit normals in cell axes (after
    :func:`orient`), ``areas`` their areas; each triangle counts as squarely
    as a camera sees it (zero when it faces away). Occlusion is not counted:
    a face turned to the viewer is worth showing though it hides what is
    behind it.

    >>> square = np.array([[0.0, 0.0, -1.0], [0.0, 0.0, -1.0]])   # two triangles facing the viewer
    >>> [round(v, 3) for v in seen(square, np.array([0.5, 0.5]), 0)], seen(square, np.array([0.5, 0.5]), 180)
    ([0.752, 1.504], (0.0, 0.0))
    """
    facing = np.zeros(len(normals))
    for camera in DEFAULT_VIEWS.values():
        facing += np.clip(_turn_vectors(normals, turn) @ camera, 0.0, None)
    return float(facing @ np.asarray(areas, dtype=float)), float(facing.sum())


def outlines(cells: np.ndarray) -> tuple[int, int]:
    """The model's outline seen straight from the front and from the side: cells covered looking along z and x.

    >>> long = np.zeros((6, 2, 2), dtype=bool); long[:, :, 0] = True   # 6 long (x), 2 high, 1 deep
    >>> outlines(long)
    (12, 2)
    """
    cells = np.asarray(cells, dtype=bool)
    return int(np.count_nonzero(cells.any(axis=2))), int(np.count_nonzero(cells.any(axis=0)))


def _change(ratio: float) -> str:
    """A ratio to as modelled as a signed whole percentage: a change that rounds to nothing is "+0", never "-0" (the
    sign of a sum's last bit differs between machines, and the report is compared across them)."""
    return f"{round(100 * (ratio - 1), 0) + 0.0:+.0f}"  # + 0.0: -0.0 becomes 0.0; a degenerate model's NaN stays


def choose_turn(normals: np.ndarray, areas: np.ndarray,
                outline: Optional[tuple[int, int]] = None) -> tuple[int, str, dict[int, float]]:
    """The quarter turn that shows the default camera the model's long side and its detail, and why.

    ``outline`` is the model's outline from the front and from the side as
    modelled (:func:`outlines`). When the side's is at least
    :data:`SIDE_MARGIN` larger, the model is turned a quarter (a cow, a car,
    a fish modelled head-on show their long side), and of the two quarter
    turns the one with the higher score. Otherwise each turn's score (the
    mean of the area and the triangle count :func:`seen` counts, each
    relative to turn 0) decides, and turn 0 stays unless another scores at
    least :data:`KEEP_MARGIN` more (ties: the smaller turn). Returns the
    turn, why, and every turn's score.
    """
    counts = {turn: seen(normals, areas, turn) for turn in TURNS}
    area0, tri0 = (value or 1.0 for value in counts[0])
    score = {turn: (area / area0 + tri / tri0) / 2 for turn, (area, tri) in counts.items()}
    front, side = outline or (1, 1)
    if front and side >= (1 + SIDE_MARGIN) * front:
        best = max((90, 270), key=lambda turn: (round(score[turn], 9), -turn))
        area, tri = counts[best]
        larger = 100 * (side / front - 1)
        return best, (f"turn {best}: its outline from the side is {larger:.0f} % larger than from the front, so its "
                      f"long side faces the view; of the two turns that show it, this one faces "
                      f"{_change(tri / tri0)} % of the model's triangles (its detail) and "
                      f"{_change(area / area0)} % of its surface, against as modelled"), score
    best = max(TURNS, key=lambda turn: (round(score[turn], 9), -turn))
    if score[best] >= 1 + KEEP_MARGIN:
        area, tri = counts[best]
        return best, (f"turn {best}: its default view faces {_change(tri / tri0)} % of the model's triangles "
                      f"(its detail) and {_change(area / area0)} % of its surface, against as modelled"), score
    other = max(TURNS[1:], key=lambda turn: (round(score[turn], 9), -turn))
    return 0, (f"turn 0: as modelled; no quarter turn shows {100 * KEEP_MARGIN:.0f} % more of it "
               f"(the best, turn {other}: {_change(score[other])} %)"), score
