"""The package as a user gets it: ``python -m build`` makes an sdist and a wheel, and the wheel works installed.

Nobody had checked that a built wheel carries the C module, the playable pages' assets (vendored three.js and
its licence), the studio's page and the JSON schema, nor that it runs from a clean environment, with or
without a C compiler. Here, once per session: the sdist and a wheel built from it (with the compiler, so the
C module is in it), and a second wheel built from the same sdist with no compiler on the PATH (the
pure-Python fallback). Each is installed into a fresh virtual environment, and ``nonogen`` runs its main
commands from there with no compiler on the PATH and the repository out of reach (another folder, nothing of
the work tree on ``sys.path``).

The fresh environments install nothing from a registry: the wheel goes in with ``--no-index --no-deps``, and
its dependencies are the ones this test's environment already has, reached through a path entry (a ``.pth``
line, so that environment's own ``.pth`` files, the editable install among them, are not read). ``pip check``
then confirms that the wheel's declared dependencies are all met there. Run alone with ``pytest -m wheel``.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.wheel

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples"
COMPILERS = ("cc", "gcc", "clang", "c++", "g++")

WHEEL_MUST_HOLD = [
    "nonogen/__init__.py",
    "nonogen/py.typed",
    "nonogen/cli/__init__.py",
    "nonogen/export/assets/play.js",
    "nonogen/export/assets/play.css",
    "nonogen/export/assets/play3d.js",
    "nonogen/export/assets/linesolve.js",
    "nonogen/export/assets/vendor/three.module.min.js",
    "nonogen/export/assets/vendor/LICENSE",
    "nonogen/studio/static/index.html",
    "nonogen/studio/static/studio.js",
    "nonogen/studio/static/studio.css",
    "nonogen/formats/schema/nonogen.schema.json",
    "nonogen/importers/scan/digit_model.npz",
]
"""Files an installed nonogen reads at run time, besides its modules."""


def _run(argv: list, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL, **kwargs)
    assert done.returncode == 0, \
        f"{' '.join(map(str, argv))}: exit {done.returncode}\n{done.stdout[-2000:]}{done.stderr[-4000:]}"
    return done


def _no_compiler_env(tmp: Path) -> dict:
    """The environment with a PATH of one empty folder and no compiler variables: no C compiler can be found."""
    empty = tmp / "empty-bin"
    empty.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items()
           if k not in ("CC", "CXX", "LDSHARED", "CPP", "VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = str(empty)
    assert not any(shutil.which(c, path=env["PATH"]) for c in COMPILERS)
    return env


@pytest.fixture(scope="session")
def dists(tmp_path_factory) -> dict:
    """The sdist, the wheel built from it with a compiler, and the one built from it without."""
    pytest.importorskip("build", reason="the wheel check needs `build` (pip install -e '.[dev]', as make test does)")
    if not shutil.which(sysconfig.get_config_var("CC").split()[0] if sysconfig.get_config_var("CC") else "cc"):
        pytest.skip("no C compiler here: the wheel with the C module cannot be built")
    tmp = tmp_path_factory.mktemp("dist")
    with_c = tmp / "with-compiler"
    # Isolation would fetch setuptools from an index: build with this environment's own (a dev dependency).
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(with_c), str(REPO)])
    sdist = next(with_c.glob("nonogen-*.tar.gz"))
    with tarfile.open(sdist) as tar:
        tar.extractall(tmp / "unpacked", filter="data")
    source = next((tmp / "unpacked").iterdir())
    without_c = tmp / "without-compiler"
    _run([sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", str(without_c), str(source)],
         env=_no_compiler_env(tmp))
    return {"sdist": sdist, "c": next(with_c.glob("*.whl")), "pure": next(without_c.glob("*.whl")), "tmp": tmp}


def _members(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def _is_c_module(name: str) -> bool:
    return name.startswith("nonogen/solve/_linelogic.") and name.endswith((".so", ".pyd"))


def test_sdist_has_what_builds_the_package(dists):
    with tarfile.open(dists["sdist"]) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    for needed in ["pyproject.toml", "README.md", "LICENSE", "nonogen/solve/linelogic.h",
                   "nonogen/solve/_linelogic.c", "nonogen/solve/line.c", "nonogen/solve/propagate.c",
                   "nonogen/solve/encode.c", "nonogen/solve/bp.c", "nonogen/solve/_line3d.c", "nonogen/solve/line3d.c",
                   "nonogen/solve/line3d.h", *WHEEL_MUST_HOLD]:
        assert needed in names, f"{needed} is not in {dists['sdist'].name}"
    assert not any(name.endswith((".so", ".pyc")) or name.startswith("tests/") for name in names), \
        "built or half-shipped files"


@pytest.mark.parametrize("kind", ["c", "pure"])
def test_wheel_contents(dists, kind):
    """The run-time files are in both wheels, the C module only in the one built with a compiler, no C source in
    either."""
    names = _members(dists[kind])
    missing = [name for name in WHEEL_MUST_HOLD if name not in names]
    assert not missing, f"{dists[kind].name} lacks {missing}"
    licences = [name for name in names if "/licenses/" in name]
    assert any(name.endswith("licenses/LICENSE") for name in licences), licences
    assert any(name.endswith("vendor/LICENSE") for name in licences), "three.js's licence is not in the metadata"
    assert any(_is_c_module(name) for name in names) == (kind == "c"), [n for n in names if "_linelogic" in n]
    assert not any(name.endswith((".c", ".h")) for name in names)
    assert not any(name.startswith(("tests/", "docs/", "samples/")) for name in names)


@pytest.fixture(scope="session", params=["c", "pure"])
def installed(request, dists) -> tuple[str, Path, dict]:
    """A fresh virtual environment with one wheel installed, and the environment to run it in (no compiler)."""
    kind, tmp = request.param, dists["tmp"]
    venv = tmp / f"venv-{kind}"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python)]  # this pip, working on the fresh environment
    _run([*pip, "install", "--quiet", "--no-index", "--no-deps", str(dists[kind])])
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).stdout.strip())
    ours = [p for p in (sysconfig.get_path("purelib"), sysconfig.get_path("platlib"))]
    (site / "zz-test-dependencies.pth").write_text("\n".join(dict.fromkeys(ours)) + "\n")
    env = _no_compiler_env(tmp)
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
    _run([*pip, "check"], env=env)
    return kind, venv, env


def test_installed_wheel_is_the_one_imported(installed):
    kind, venv, env = installed
    where = tmp_cwd = venv.parent / f"cwd-{kind}"
    tmp_cwd.mkdir(exist_ok=True)
    probe = ("import nonogen, nonogen.solve.propagate as p; print(nonogen.__file__); print(p.NATIVE); "
             "import importlib.util as u; print(u.find_spec('nonogen.solve._linelogic') is not None)")
    out = _run([str(venv / "bin" / "python"), "-c", probe], cwd=where, env=env).stdout.split()
    assert Path(out[0]).is_relative_to(venv), f"nonogen came from {out[0]}, not from the wheel"
    assert out[1:] == (["True", "True"] if kind == "c" else ["False", "False"]), out


def test_installed_wheel_runs_the_main_commands(installed, tmp_path):
    """verify, image, mesh, render to a playable page and studio --help, from the fresh environment."""
    kind, venv, env = installed
    nonogen = str(venv / "bin" / "nonogen")

    def run(*args: str) -> subprocess.CompletedProcess:
        return _run([nonogen, *args], cwd=tmp_path, env=env)

    verdict = run("verify", str(SAMPLES / "puzzles" / "lambda.txt"), "--json").stdout
    assert '"status": "unique"' in verdict
    run("image", str(SAMPLES / "images" / "heart-pixelart-x10.png"), "-o", "heart", "--colors", "3")
    assert {"puzzle.json", "puzzle.png", "solution.png", "puzzle.html", "report.json"} <= {
        p.name for p in (tmp_path / "heart").iterdir()}
    run("mesh", str(SAMPLES / "meshes" / "chair.off"), "-o", "chair", "--size", "6")
    assert '"status": "unique"' in run("verify", "chair/level.json", "--json").stdout  # read against the schema
    level_page = (tmp_path / "chair" / "level.html").read_text(encoding="utf-8")
    assert "three.js" in level_page.lower() and "<script" in level_page  # three.js is inlined from the wheel
    run("render", str(SAMPLES / "puzzles" / "heart.non"), "-o", "heart.html")
    assert "<html" in (tmp_path / "heart.html").read_text(encoding="utf-8").lower()
    assert "usage: nonogen studio" in run("studio", "--help").stdout
