"""The studio's routes for Picross 3D levels: a model made into a level, the 3D editor's proof, saving, test-playing.

Adapters like :mod:`.app`'s: each checks what the page sent (:mod:`.inputs`)
and hands the work to a worker (:mod:`.levelwork`, :mod:`.edit3d`). The 3D
editor's view is the play page's three.js view (``nonogen/export/assets``,
whose files it serves and never copies): its scene, camera and picking code
joined with the editor's own (``static/edit3d_view.js``) into one ES module,
as :mod:`nonogen.export.html` joins the play page's, and three.js itself. Both
are public like the page's other scripts (no secret in them), loaded by the
editor's frame (``static/edit3d.html``, same origin: the page drives it).
"""
from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from .folder import MODEL_SUFFIXES
from .inputs import check_level_kind, checked_level, level_options, mesh_options, session_key
from .limits import job_seconds
from .tabs import Tab
from .web import (answer, drain, error, file_name, made_play_page, play_frame_of, query_options, read_json, streamed,
                  studio_of, tab_of, upload)

__all__ = ["ROUTES", "made_level"]

async def mesh(request: Request) -> Response:
    """An uploaded model (raw bytes; its name in ``X-File-Name``) made into a level with the query's options."""
    name = file_name(request)
    suffix = Path(name).suffix.lower()
    if suffix not in MODEL_SUFFIXES or name.startswith("."):
        await drain(request)
        return error(f"{name or 'the file'}: a model file is named *{', *'.join(MODEL_SUFFIXES)}")
    tab = tab_of(request)
    claim = studio_of(request).engine.claim(tab.lane("mesh"))
    path = tab.upload_path(name)
    await upload(request, path)
    try:
        return await made_level(request, tab, path, mesh_options(query_options(request)), claim)
    finally:
        tab.release(path)


async def remesh(request: Request) -> Response:
    """The tab's model made into a level again, with other options (size, up axis, turn, hiding)."""
    tab = tab_of(request)
    claim = studio_of(request).engine.claim(tab.lane("mesh"))
    body = await read_json(request)
    if tab.model is None:
        return error("no model loaded yet")
    return await made_level(request, tab, tab.model, mesh_options(body.get("options")), claim)


async def made_level(request: Request, tab: Tab, path: Path, options: dict[str, Any], claim: int) -> Response:
    """``path`` made into a level: the page gets it as a document to edit (see :func:`.levelwork.level_doc`)."""
    job = {"kind": "mesh", "path": str(path), "name": path.name, "options": options}
    message = await studio_of(request).engine.one(job, lane=tab.lane("mesh"), claim=claim, seconds=job_seconds("mesh"))
    if "error" in message:  # the model's name as the author knows it, not the server's copy
        message["error"] = message["error"].replace(str(path), path.name)
    if "level" in message:
        tab.keep_model(path)
    return answer(message)


async def level_check(request: Request) -> Response:
    """The proof of the page's level after an edit (:func:`.edit3d.check_level`), one JSON line per answer, in the
    tab's check lane: a newer edit stops it."""
    engine, tab = studio_of(request).engine, tab_of(request)
    lane = tab.lane("check")
    claim = engine.claim(lane)
    body = await read_json(request)
    job = {"kind": "level", "doc": checked_level(body.get("doc")), "options": level_options(body.get("options")),
           "session": f"{tab.key}/{session_key(body.get('session'))}"}
    return streamed(engine, job, lane, claim)


async def level_save(request: Request) -> Response:
    """The page's level saved in the folder as a 3D file, its play page or a level folder, proved unique as saved."""
    studio, tab = studio_of(request), tab_of(request)
    lane = tab.lane("save")
    claim = studio.engine.claim(lane)
    body = await read_json(request)
    kind = str(body.get("format"))
    path = studio.folder.path(body.get("name"))
    check_level_kind(kind, path)
    job = {"kind": "level-save", "doc": checked_level(body.get("doc")), "path": str(path), "format": kind,
           "overwrite": bool(body.get("overwrite")), "accept": bool(body.get("accept"))}
    return answer(await studio.engine.one(job, lane=lane, claim=claim, seconds=job_seconds("level-save")))


async def level_play(request: Request) -> Response:
    """The page's level made into its play page, kept for the tab's test-play frame (``/level.html``)."""
    body = await read_json(request)
    return await made_play_page(request, {"kind": "level-play", "doc": checked_level(body.get("doc"))}, "level")


async def level_frame(request: Request) -> Response:
    return play_frame_of(request, "level")


def _asset(*names: str) -> Any:
    """A file of the play pages' assets (``nonogen/export/assets``), found without importing that package."""
    found = resources.files("nonogen").joinpath("export").joinpath("assets")
    for name in names:
        found = found.joinpath(name)
    return found


@functools.lru_cache(maxsize=1)
def _view_module() -> str:
    """The editor's one ES module: the play page's three.js view, then the editor's picking, marks and controls,
    which use its top-level names (the box, the scene, the camera, the cubes' looks)."""
    own = resources.files(__package__).joinpath("static").joinpath("edit3d_view.js").read_text(encoding="utf-8")
    return _asset("play3d_view.js").read_text(encoding="utf-8") + "\n" + own


async def view_module(request: Request) -> Response:
    return Response(_view_module(), media_type="text/javascript")


async def three(request: Request) -> Response:
    """The vendored three.js module, which the editor's frame imports as ``three`` (its import map)."""
    return FileResponse(str(_asset("vendor", "three.module.min.js")), media_type="text/javascript")


ROUTES = [
    Route("/api/mesh", mesh, methods=["POST"]),
    Route("/api/remesh", remesh, methods=["POST"]),
    Route("/api/level/check", level_check, methods=["POST"]),
    Route("/api/level/save", level_save, methods=["POST"]),
    Route("/api/level/play", level_play, methods=["POST"]),
    Route("/level.html", level_frame),
    Route("/static/level3d/view.js", view_module),
    Route("/static/level3d/three.js", three),
]
"""The level routes, before the page's static files (``/static/level3d/...`` is the joined view, not a file)."""
