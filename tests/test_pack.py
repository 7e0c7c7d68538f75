"""Packing levels: pieces, placements, solvers against an independent brute force, format, generator."""
from __future__ import annotations

import random
import time

import numpy as np
import pytest

from nonogen.errors import FormatError, InputError, PuzzleError, SolverTimeout
from nonogen.pack import CLASSIC_PIECES, Level, Piece, classic_level, count_solutions, orientations, verify_level
from nonogen.pack.exact import compile_level
from nonogen.pack.generate import cut_board, generate_level
from nonogen.pack.pieces import canonical, shape_from_rows
from nonogen.pack.solve import solve_level
from nonogen.pack.text import dumps, loads
from nonogen.solve import deadline

# --- an independent reference: numpy rotations and a plain recursive search ----------------------


def ref_orientations(cells) -> set[frozenset]:
    """All orientations via numpy rot90/fliplr on a 0/1 array, deduplicated as cell sets."""
    cells = list(cells)
    h = 1 + max(r for r, _ in cells)
    w = 1 + max(c for _, c in cells)
    grid = np.zeros((h, w), dtype=int)
    for r, c in cells:
        grid[r, c] = 1
    found = set()
    for g in (grid, np.fliplr(grid)):
        for k in range(4):
            rows, cols = np.nonzero(np.rot90(g, k))
            found.add(frozenset(zip(rows.tolist(), cols.tolist(), strict=True)))
    return found


def ref_completions(level: Level) -> set[frozenset]:
    """Every completion as a set of (shape, cells) pairs, so swapped congruent pieces count once."""
    taken = set(level.blocked) | {cell for cells in level.placed.values() for cell in cells}
    loose = list(level.loose_pieces)
    options = []
    for piece in loose:
        opts = []
        for orient in ref_orientations(piece.shape):
            for dr in range(level.height):
                for dc in range(level.width):
                    cells = frozenset((r + dr, c + dc) for r, c in orient)
                    if all(level.on_board(x) for x in cells) and not cells & taken:
                        opts.append(cells)
        options.append(set(opts))
    found: set[frozenset] = set()

    def rec(i: int, used: frozenset, chosen: tuple) -> None:
        if i == len(loose):
            found.add(frozenset((canonical(loose[j].shape), cells) for j, cells in enumerate(chosen)))
            return
        for cells in options[i]:
            if not cells & used:
                rec(i + 1, used | cells, chosen + (cells,))

    rec(0, frozenset(), ())
    return found


def assert_completion(level: Level, rows) -> None:
    """Checked without the library: every free cell covered once, each piece congruent and used once."""
    assert len(rows) == level.height and all(len(r) == level.width for r in rows)
    where: dict[str, set] = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if (r, c) in level.blocked:
                assert ch == "#"
            else:
                assert ch not in ".#", f"cell {(r, c)} not covered"
                where.setdefault(ch, set()).add((r, c))
    assert sorted(where) == sorted(p.char for p in level.pieces)
    for piece in level.pieces:
        cells = where[piece.char]
        r0 = min(r for r, _ in cells)
        c0 = min(c for _, c in cells)
        assert frozenset((r - r0, c - c0) for r, c in cells) in ref_orientations(piece.shape)
        if piece.char in level.placed:
            assert cells == set(level.placed[piece.char])


# --- pieces and placements -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "rows, expected",
    [(["##", "##"], 1), (["#..", "###"], 8), (["###"], 2), (["#"], 1), ([".#.", "###"], 4),
     (["##.", ".##"], 4), ([".#.", "###", ".#."], 1), (["#.", "##"], 4)],
)
def test_orientation_counts_match_hand_counts(rows, expected):
    shape = shape_from_rows(rows)
    assert len(orientations(shape)) == expected == len(ref_orientations(shape))


def test_classic_pieces_orientations_and_placements():
    counts = {p.name: len(p.orientations()) for p in CLASSIC_PIECES}
    assert counts == {"V5": 4, "L5": 8, "F5": 8, "W5": 4, "U5": 4, "Y5": 8, "N5": 8, "P5": 8,
                      "T4": 4, "S4": 4, "L4": 8, "L3": 4}
    assert sum(p.size for p in CLASSIC_PIECES) == 55
    assert len(compile_level(classic_level()).placements) == 2140


@pytest.mark.parametrize(
    "rows, expected",
    [
        (["##", "##"], 4 * 10),  # one orientation, a 2x2 box fits 4 x 10 ways on 11x5
        (["#..", "###"], 4 * (4 * 9) + 4 * (3 * 10)),  # 4 orientations 2 high, 4 orientations 3 high
        (["#####"], 5 * 7 + 1 * 11),  # lying: 5 rows x 7 places; standing: 1 x 11
    ],
)
def test_placements_per_piece_match_hand_counts(rows, expected):
    shape = shape_from_rows(rows)
    filler = Piece("B", "filler", tuple((0, c) for c in range(55 - len(shape))))  # too long to fit: no placements
    level = Level(11, 5, (Piece("A", "x", shape), filler))
    problem = compile_level(level)
    assert sum(1 for t, _ in problem.placements if problem.types[t] == ["A"]) == expected


def test_disconnected_piece_is_rejected():
    with pytest.raises(PuzzleError, match="not connected"):
        Piece("A", "bad", ((0, 0), (1, 1)))


# --- solvers against the brute force --------------------------------------------------------------


def random_small_level(rng: random.Random) -> Level:
    """A random cut of a small board; maybe one piece becomes blocked cells, some pieces pre-placed."""
    w, h = rng.randint(2, 5), rng.randint(2, 4)
    n = rng.randint(2, max(2, (w * h) // 3))
    lo, hi = 1, max(2, (w * h) // n + 2)
    cut = cut_board(w, h, n_pieces=n, min_size=lo, max_size=hi, rng=rng)
    blocked = frozenset(cut.pop()) if len(cut) > 2 and rng.random() < 0.4 else frozenset()
    pieces = [Piece("ABCDEFGHIJKLMNOP"[i], f"p{i}", tuple(cells)) for i, cells in enumerate(cut)]
    placed = {p.char: cells for p, cells in zip(pieces, cut, strict=True) if rng.random() < 0.3}
    if rng.random() < 0.4 and pieces[-1].char not in placed:  # a straight piece instead: often no tiling
        pieces[-1] = Piece(pieces[-1].char, "I", tuple((0, c) for c in range(pieces[-1].size)))
    return Level(w, h, tuple(pieces), blocked, placed)


@pytest.mark.parametrize("seed", range(40))
def test_counts_and_verdicts_agree_with_brute_force(seed):
    level = random_small_level(random.Random(seed))
    expected = ref_completions(level)
    for method in ("auto", "dlx", "sat"):
        result = count_solutions(level, timeout=20, method=method)
        assert result.complete and result.count == len(expected), method
        verdict = verify_level(level, timeout=20, method=method)
        assert verdict.status == {0: "unsolvable", 1: "unique"}.get(len(expected), "multiple")
        for rows in filter(None, (verdict.solution, verdict.second_solution)):
            assert_completion(level, rows)
        if verdict.second_solution is not None:
            assert verdict.second_solution != verdict.solution


def test_unsolvable_level_with_matching_area():
    # Two L-trominoes tile a 2x3 board in two ways (mirror images); a 1x6 strip not at all.
    l3 = shape_from_rows(["##", "#."])
    assert count_solutions(Level(3, 2, (Piece("A", "L3", l3), Piece("B", "L3", l3)))).count == 2
    assert verify_level(Level(6, 1, (Piece("A", "L3", l3), Piece("B", "L3", l3)))).status == "unsolvable"


def test_congruent_pieces_swapped_count_once():
    domino = shape_from_rows(["##"])
    pieces = tuple(Piece(ch, "I2", domino) for ch in "ABCD")
    # 2 x n board with dominoes: Fibonacci many tilings (2x4: 5).
    assert count_solutions(Level(4, 2, pieces)).count == 5 == len(ref_completions(Level(4, 2, pieces)))


def test_classic_challenge_unique_by_both_solvers_and_solution_checked():
    level = generate_level(11, 5, 12, seed=3, classic=True)[0]
    for method in ("dlx", "sat"):
        result = verify_level(level, method=method, use_solution=False, timeout=30)
        assert result.status == "unique"
        assert tuple(result.solution) == level.solution
        assert_completion(level, result.solution)


def test_known_target_with_other_completion_is_multiple():
    level = classic_level()
    first = solve_level(level).solution
    partial = level.with_placed("ABCDEF", first).replace(solution=first)
    expected = len(ref_completions(partial))
    result = verify_level(partial)
    assert result.status == ("unique" if expected == 1 else "multiple")
    if result.status == "multiple":
        assert result.second_solution != first
        assert_completion(partial, result.second_solution)


def test_count_stops_at_limit_and_at_deadline():
    level = classic_level()
    limited = count_solutions(level, limit=25, timeout=30)
    assert (limited.status, limited.count, limited.complete) == ("limit", 25, False)
    timed = count_solutions(level, timeout=0.5)
    assert timed.status == "timeout" and not timed.complete and timed.count > 0


# --- text format ---------------------------------------------------------------------------------


def test_format_round_trip_and_shorthands():
    level = generate_level(8, 4, 8, seed=5)[0]
    assert loads(dumps(level)) == level
    classic = loads("board 11x5\npieces classic\n")
    assert classic.pieces == CLASSIC_PIECES and classic.width == 11 and classic.height == 5
    placed = loads("board 11x5\npieces classic\n\nplace L 2 3\n##\n#.\n")
    assert placed.placed["L"] == ((1, 2), (1, 3), (2, 2))


TINY = "board\n{board}\n\npiece A L3\n##\n#.\n\npiece B L3\n##\n#.\n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("board 3x2\npieces classic\n", "cover 55 cells but the board has 6"),
        (TINY.format(board="...\n..."), None),
        (TINY.format(board="AAA\n..."), "not have the shape"),
        (TINY.format(board="A.A\n..."), "not connected"),
        (TINY.format(board="...\n...") + "\nplace A 1 1\n##\n#.\n\nplace B 1 1\n##\n#.\n", "overlap"),
        (TINY.format(board="...\n...") + "\nplace A 2 3\n##\n#.\n", "off the board"),
        (TINY.format(board="C..\n..."), "no 'piece C'"),
        (TINY.format(board="...\n...") + "\nsolution\nAAB\nABB\n", None),
        (TINY.format(board="...\n...") + "\nsolution\nAAB\nBAB\n", "solution is wrong"),
        ("piece A\n#\n", "no 'board'"),
        ("board\n.?\n", "unexpected character"),
        ("colour red\n", "expected a keyword"),
    ],
)
def test_bad_levels_give_one_clear_line(text, message):
    if message is None:
        loads(text)
        return
    with pytest.raises(FormatError, match=message) as info:
        loads(text)
    assert "\n" not in str(info.value)


# --- generator -----------------------------------------------------------------------------------


def test_generator_is_deterministic_and_unique():
    a = generate_level(11, 5, 12, seed=11, distinct=True)[0]
    b = generate_level(11, 5, 12, seed=11, distinct=True)[0]
    assert dumps(a) == dumps(b)
    assert len({canonical(p.shape) for p in a.pieces}) == 12
    assert all(3 <= p.size <= 6 for p in a.pieces)
    assert verify_level(a, use_solution=False, method="sat").status == "unique"
    # Irreducible: taking away any pre-placed piece makes the completion ambiguous.
    for ch in a.placed:
        fewer = a.replace(placed={k: v for k, v in a.placed.items() if k != ch})
        assert verify_level(fewer).status == "multiple"


def test_a_seed_gives_the_same_level_on_a_machine_a_thousand_times_slower(monkeypatch):
    """Each uniqueness check had a 5 s limit (and ``auto`` handed a level to SAT after 0.25 s), so which checks ran
    out decided which pieces were pre-placed: a loaded machine made another level of the same seed. Every choice is
    bounded by counted work now. A clock that runs 1000 times fast is a machine 1000 times slower."""
    idle = generate_level(9, 7, 14, seed=2, distinct=True)[0]
    real, start = time.monotonic, time.monotonic()
    monkeypatch.setattr(deadline.time, "monotonic", lambda: start + (real() - start) * 1000)
    slow = generate_level(9, 7, 14, seed=2, distinct=True, timeout=None)[0]
    monkeypatch.undo()
    assert dumps(slow) == dumps(idle)


def test_a_generation_past_its_time_limit_is_a_timeout_not_another_level():
    """The time limit only ends the whole run."""
    with pytest.raises(SolverTimeout):
        generate_level(10, 10, 20, seed=1, distinct=True, timeout=0.01)


def test_generator_rejects_impossible_sizes():
    with pytest.raises(InputError):
        generate_level(4, 4, 2, min_size=2, max_size=3)


def test_empty_classic_board_has_the_published_number_of_tilings():
    result = count_solutions(classic_level(), timeout=120)
    assert result.complete and result.count == 4_331_140
    assert_completion(classic_level(), result.solution)


def test_solution_png_gives_each_piece_its_own_colour():
    from nonogen.pack.render import piece_colors, solution_picture
    from nonogen.render.canvas import to_png, to_svg

    level = generate_level(11, 5, 12, seed=4, classic=True)[0]
    image = to_png(solution_picture(level, level.solution, cell=20))
    colors = dict(zip((p.char for p in level.pieces), piece_colors(12), strict=True))
    assert len(set(colors.values())) == 12
    for r, row in enumerate(level.solution):
        for c, ch in enumerate(row):
            x, y = 10 + c * 20 + 4, 10 + r * 20 + 4  # inside the cell, clear of lines and labels
            assert "#%02x%02x%02x" % image.getpixel((x, y)) == colors[ch]
    svg = to_svg(solution_picture(level, level.solution))
    assert all(f'fill="{color}"' in svg for color in colors.values())


def test_a_count_stopped_by_its_step_budget_is_the_same_on_every_machine():
    """`pack generate --seed 1` gave other levels from run to run: a 0.15 s clock cut the counts that rank
    candidate pieces, and how far a count got depended on the machine's load. A budget of search steps does not."""
    import inspect

    import nonogen.pack.generate as generate

    empty = classic_level()
    first = count_solutions(empty, limit=None, timeout=None, max_nodes=20_000)
    again = count_solutions(empty, limit=None, timeout=None, max_nodes=20_000)
    assert first.status == "timeout" and "20,000 search steps" in first.message
    assert (first.count, first.stats["nodes"]) == (again.count, again.stats["nodes"])
    source = inspect.getsource(generate._best_addition)
    assert "timeout=None" in source and "max_nodes=" in source  # the ranking reads no clock
