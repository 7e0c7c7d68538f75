"""Hostile input: mutated files of every format, broken pictures and models end in a verdict or one error line.

The mutations and the judging live in ``scripts/fuzz.py`` (whose long campaign is
``make fuzz``); here hypothesis drives them for a few hundred cases. A case passes
when reading (and verifying, with a short time limit) ends in a verdict or in a
:class:`NonogenError` whose message is one line naming the file, within
``fuzz.TIME_LIMIT`` seconds and ``fuzz.MEMORY_LIMIT_MB`` of memory.
"""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]


def _load_fuzz():
    spec = importlib.util.spec_from_file_location("nonogen_fuzz", ROOT / "scripts" / "fuzz.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


fuzz = _load_fuzz()
fuzz.warm_up()
CASE_DIR = Path(tempfile.mkdtemp(prefix="nonogen-test-fuzz-"))

# Crashes of the verifier (solve/, not a reader) already reported: (exception type, file in the traceback).
# A file that reads fine and then crashes one of these is the verifier's bug, tracked there.
KNOWN_VERIFIER_CRASHES: list = []  # all-hidden 3D levels crashed cnf3d.decode; fixed


def _judge(outcome) -> None:
    if outcome.ok:
        return
    if outcome.stage == "verify" and any(outcome.problem.startswith(kind) and where in outcome.detail
                                         for kind, where in KNOWN_VERIFIER_CRASHES):
        return
    pytest.fail(f"{outcome.kind} {outcome.case} [{outcome.stage}]: {outcome.problem}\n{outcome.detail}")


def _run(seed, data: bytes, label: str):
    path = CASE_DIR / f"case{seed.suffix}"
    path.write_bytes(data)
    try:
        return fuzz.check_case(seed.kind, path, label)
    finally:
        path.unlink(missing_ok=True)


# Readers are fast: many cases. Pictures and models cost more per case.
EXAMPLES = {kind: 40 for kind in fuzz.PUZZLE_FORMATS} | {"pack": 30, "image": 30, "mesh": 16}


FILE_KINDS = [k for k in fuzz.KINDS if k not in fuzz.fuzz_hostile.ENV_KINDS]


@pytest.mark.parametrize("kind", FILE_KINDS)
def test_mutated_files_end_in_a_verdict_or_one_error_line(kind):
    seeds = fuzz.seeds()[kind]

    @settings(max_examples=EXAMPLES[kind], deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.randoms(use_true_random=False))
    def case(rng):
        seed = rng.choice(seeds)
        data, names = fuzz.mutate(rng, seed, seeds)
        _judge(_run(seed, data, f"{seed.name} [{'+'.join(names)}]"))

    case()


SITUATIONS = {"target": 60, "gltf": 24, "resume": 3}


@pytest.mark.parametrize("kind", fuzz.fuzz_hostile.ENV_KINDS)
def test_hostile_situations_end_cleanly(kind):
    """Device nodes, FIFOs and symlinks as targets, glTF models naming huge or FIFO buffers, two runs resuming
    one file: before issue 26 these replaced device nodes, read gigabytes and wrote records twice."""
    for index in range(SITUATIONS[kind]):
        _judge(fuzz.env_outcome(kind, index * len(fuzz.KINDS) + fuzz.KINDS.index(kind), master_seed=5))


@pytest.mark.parametrize("seed", fuzz.seeds()["image"] + fuzz.seeds()["mesh"], ids=lambda s: f"{s.kind}-{s.name}")
def test_every_picture_and_model_seed_as_it_is(seed):
    """The named hostile seeds unmutated: 16-bit, CMYK, animated, SVG as .png, bomb header, NaN and 1e308 vertices..."""
    _judge(_run(seed, seed.data, seed.name))


def test_million_face_model_fails_fast_in_bounded_memory():
    seed = fuzz.Seed("mesh", ".stl", fuzz.binary_stl(1_000_000), "million-face")
    outcome = _run(seed, seed.data, seed.name)
    _judge(outcome)
    assert "MB" in outcome.detail and outcome.memory_mb < 64, outcome  # refused by its size, before trimesh reads it


def test_large_random_triangle_soup_is_refused_before_sampling():
    seed = fuzz.Seed("mesh", ".stl", fuzz.binary_stl(150_000), "soup")
    outcome = _run(seed, seed.data, seed.name)
    _judge(outcome)
    assert "samples" in outcome.detail or "voxels" in outcome.detail


# --- through the real command line ---------------------------------------------------------------

CLI_CASES = [
    ("big.json", '{"rows": [[1], [' + "9" * 5000 + ']], "cols": [[1], [1]]}', "5000 digits"),
    ("num.json", '{"format": "nonogen-2d", "rows": [5, [1]], "cols": [[1]]}', "rows[0]"),
    ("long.json", '{"format": "nonogen-2d", "rows": [[1], [' + ",".join(["1"] * 100_000) + ']], "cols": [[1], [1]]}',
     "rows[1]"),
    ("tall.non", "width 5\nheight 2001\nrows\n", "height is 2001"),
    ("nul.cnon", "1 2 2\nR #ff0000\n1:R\x00\n1:R\n2:R\n0\n", "binary"),
    ("deep.json", '{"format": "nonogen-3d", "size": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested"),
]


@pytest.mark.parametrize("name,text,words", CLI_CASES, ids=[c[0] for c in CLI_CASES])
def test_cli_reports_a_broken_file_in_one_line_with_exit_code_2(tmp_path, name, text, words):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "nonogen", "verify", "--json", "--timeout", "5", str(path)],
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) <= 1
    record = json.loads(run.stdout)
    assert record["status"] == "error"
    assert "\n" not in record["message"] and record["message"].startswith(f"{path}:") and words in record["message"]


def test_cli_still_verifies_a_good_file(tmp_path):
    path = tmp_path / "ok.non"
    path.write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n2\n0\n")
    run = subprocess.run([sys.executable, "-m", "nonogen", "verify", "--json", "--timeout", "5", str(path)],
                         capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert run.returncode == 0 and json.loads(run.stdout)["status"] == "unique"
