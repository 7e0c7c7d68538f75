"""The gallery page of a collection: one static HTML file to compare made puzzles side by side and pick some.

The page works from ``file://`` with no server and no network: its CSS and
script are inlined (``assets/gallery.css``, ``assets/gallery.js``), the
pictures are relative paths into the collection's sub-folders (or the
gallery's thumbnail folder), and a Content Security Policy allows nothing
else. Every text from the collection (names, titles, warnings, errors, paths)
is escaped: sources can be named by anyone. Picking puzzles ends in a
*selection file* the page offers as a download, since a static page cannot
write files.

This module only assembles text; :mod:`nonogen.output.gallery` decides what
goes in and writes it.
"""
from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Sequence
from urllib.parse import quote

from .html import _asset, _json_for_script, _script_text

__all__ = ["GalleryRow", "FailedRow", "gallery_page", "SELECTION_NAME"]

SELECTION_NAME = "selection.json"

# Pictures come from beside the page ('self' over http, file: from a disk), nothing else from anywhere.
_CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' file: data:; "
        "connect-src 'none'; font-src 'none'; form-action 'none'; base-uri 'none'")


@dataclass(frozen=True)
class GalleryRow:
    """One made puzzle as the page shows it; picture paths are relative to the page, ``None`` when absent.

    ``record`` is its record (:mod:`nonogen.record`): the grade and the figures of :data:`FIGURES` come from it.
    """

    name: str
    title: str
    level: bool
    source_picture: Optional[str]
    puzzle_picture: Optional[str]
    solution_picture: Optional[str]
    size: tuple[int, ...]
    record: Mapping[str, Any] = field(default_factory=dict, hash=False)
    warnings: tuple[tuple[str, str], ...] = field(default_factory=tuple)  # (kind, sentence)
    source_note: Optional[str] = None  # why the source picture is not shown, when it is there but cannot be


FIGURES: tuple[tuple[str, str, Callable[[Any], str]], ...] = (
    ("colours", "colors", str),
    ("recognisability", "recognisability", "{:.2f}".format),
    ("specks", "speck_share", "{:.0%}".format),
    ("fill", "fill_share", "{:.0%}".format),
    ("line-solvable", "line_solvable", lambda solvable: "yes" if solvable else "no"),
)
"""The columns of a record's figures after grade and size: heading, field, how a value is written (null: a dash)."""


@dataclass(frozen=True)
class FailedRow:
    """A source that gave no puzzle (or a duplicate): where it came from and why."""

    source: str
    status: str
    reason: str
    kind: Optional[str] = None


_NONE = '<span class="none">—</span>'


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _url(path: Optional[str]) -> Optional[str]:
    """A relative path as a URL: each part percent-encoded, so odd names stay one path."""
    return None if path is None else "/".join(quote(part) for part in path.split("/"))


def _picture(path: Optional[str], alt: str, note: Optional[str] = None) -> str:
    if path is None:
        return f'<span class="none">not shown: {_e(note)}</span>' if note else _NONE
    url = _e(_url(path))
    return f'<a href="{url}"><img src="{url}" alt="{_e(alt)}" loading="lazy"></a>'


def _row(row: GalleryRow) -> str:
    """One ``<tr>``: sort keys and warning kinds ride on data attributes the script reads."""
    size = "×".join(map(str, row.size)) or "—"
    grade, recog = row.record.get("grade"), row.record.get("recognisability")
    kinds = sorted({kind for kind, _ in row.warnings})
    attrs = {
        "data-name": row.name, "data-grade": "" if grade is None else grade,
        "data-recog": "" if recog is None else f"{recog:.4f}",
        "data-cells": math.prod(row.size) if row.size else "", "data-kinds": "|".join(kinds),
    }
    opening = "<tr class=\"puzzle\" " + " ".join(f'{k}="{_e(v)}"' for k, v in attrs.items()) + ">"
    title = f'<div class="title">{_e(row.title)}</div>' if row.title and row.title != row.name else ""
    kind = '<div class="kind">3D level</div>' if row.level else ""
    named = row.record.get("grade_name")
    graded = "—" if grade is None else f"{grade}" + (f" <small>{_e(named)}</small>" if named else "")
    warnings = "".join(f'<li data-kind="{_e(k)}"><b>{_e(k)}</b>: {_e(text)}</li>' for k, text in row.warnings)
    cells_html = [
        f'<td><input type="checkbox" class="pick" value="{_e(row.name)}" aria-label="select {_e(row.name)}"></td>',
        f'<td class="name"><a href="{_e(_url(row.name))}/">{_e(row.name)}</a>{title}{kind}</td>',
        f"<td class=\"pic\">{_picture(row.source_picture, 'source of ' + row.name, row.source_note)}</td>",
        f"<td class=\"pic\">{_picture(row.puzzle_picture, 'puzzle ' + row.name)}</td>",
        f"<td class=\"pic\">{_picture(row.solution_picture, 'solution of ' + row.name)}</td>",
        f'<td class="grade">{graded}</td>', f"<td>{_e(size)}</td>",
        *(f"<td>{'—' if row.record.get(key) is None else show(row.record[key])}</td>" for _, key, show in FIGURES),
        f'<td class="warnings">{"<ul>" + warnings + "</ul>" if warnings else _NONE}</td>',
    ]
    return opening + "".join(cells_html) + "</tr>\n"


def _failed(rows: Sequence[FailedRow]) -> str:
    if not rows:
        return ""
    body = "".join(f'<tr class="failed"><td>{_e(r.source)}</td><td>{_e(r.status)}</td>'
                   f'<td>{_e(r.kind or "—")}</td><td>{_e(r.reason)}</td></tr>\n' for r in rows)
    return (f'<h2>Not made ({len(rows)})</h2>\n<table id="failed"><thead><tr><th>source</th><th>status</th>'
            f"<th>kind</th><th>reason</th></tr></thead>\n<tbody>\n{body}</tbody></table>\n")


def _options(values: Sequence[tuple[str, str]]) -> str:
    return "".join(f'<option value="{_e(v)}">{_e(label)}</option>' for v, label in values)


def _controls(rows: Sequence[GalleryRow]) -> str:
    grades = sorted({r.record["grade"] for r in rows if r.record.get("grade") is not None})
    grade_options = [("", "all grades")] + [(str(g), f"grade {g}") for g in grades]
    if any(r.record.get("grade") is None for r in rows):
        grade_options.append(("none", "no grade"))
    kinds = sorted({k for r in rows for k, _ in r.warnings})
    warning_options = [("", "any"), ("none", "no warnings"), ("some", "has warnings")]
    warning_options += [(f"kind:{k}", k) for k in kinds]
    sorts = [("grade", "grade, easiest first"), ("recog", "recognisability, best first"), ("name", "name"),
             ("size", "size, smallest first")]
    return (
        '<div class="controls">'
        f'<label>Grade <select id="grade">{_options(grade_options)}</select></label>'
        f'<label>Warnings <select id="warning">{_options(warning_options)}</select></label>'
        f'<label>Sort by <select id="sort">{_options(sorts)}</select></label>'
        '<span id="shown"></span>'
        '<button type="button" id="select-shown">Select shown</button>'
        '<button type="button" id="clear">Clear selection</button>'
        '<button type="button" id="download" disabled>Download selection.json</button>'
        '<span id="count">0 selected</span></div>\n'
        f'<p class="help">Tick puzzles, then download the selection file into this folder (it names the collection '
        f'as the folder it is in): <code>nonogen book {SELECTION_NAME} -o book.pdf</code> or <code>nonogen levelpack '
        f'{SELECTION_NAME} -o pack</code> take it.</p>\n'
        '<pre id="selection" aria-live="polite"></pre>\n'
    )


def gallery_page(rows: Sequence[GalleryRow], failed: Sequence[FailedRow], *, title: str, collection: str) -> str:
    """The whole page: controls, one table row per made puzzle, a table of sources not made.

    ``collection`` is the path the selection file names: ``"."`` (the folder
    the file is saved in) from :func:`nonogen.gallery`, so that neither the
    page nor the file tells where the collection lies on the maker's disk.
    """
    head = ["", "name", "source", "puzzle", "solution", "grade", "size", *(h for h, _, _ in FIGURES), "warnings"]
    table = ('<table id="puzzles"><thead><tr>' + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead>\n<tbody>\n"
             + "".join(_row(r) for r in rows) + "</tbody></table>\n")
    counts = f"{len(rows)} puzzle{'s' if len(rows) != 1 else ''}" + (f", {len(failed)} not made" if failed else "")
    data = {"collection": collection, "file": SELECTION_NAME}
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n<link rel="icon" href="data:,">\n'
        f"<title>{_e(title)}</title>\n<style>\n{_asset('gallery.css')}</style>\n</head>\n<body>\n"
        f'<h1>{_e(title)}</h1>\n<p class="help">{counts}</p>\n'
        f"{_controls(rows)}{table}{_failed(failed)}"
        f'<script type="application/json" id="gallery">{_json_for_script(data)}</script>\n'
        f"<script>\n{_script_text(_asset('gallery.js'))}</script>\n</body>\n</html>\n"
    )

