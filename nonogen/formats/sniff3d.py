"""Recognising the Picross 3D formats without loading their readers, which need numpy.

Sniffing a 2D ``.json`` or ``.txt`` file asks every format sharing the suffix
whether the text is theirs; these answers come from here, so a 2D verify
never loads the 3D half. Each 3D reader takes its ``looks_like`` from here.
"""
from __future__ import annotations

from ._common import split_lines

TYPE_CHECKING = False  # typing's own flag would import typing: 3 ms of every start-up
if TYPE_CHECKING:  # pragma: no cover
    from typing import Callable

__all__ = ["SNIFFERS", "nonogen3d", "nathsou", "ytakata"]


def nonogen3d(text: str) -> bool:
    """A JSON object whose ``format`` is ``nonogen-3d``."""
    head = text[:4000]
    return head.lstrip("\ufeff \t\r\n").startswith("{") and '"nonogen-3d"' in head


def nathsou(text: str) -> bool:
    """A JSON object with ``dims`` and ``hints`` near its start and no ``format`` tag of nonogen's."""
    head = text[:4000]
    return (head.lstrip("\ufeff \t\r\n").startswith("{") and '"dims"' in head and '"hints"' in head
            and '"format"' not in head)


def ytakata(text: str) -> bool:
    """Text with the ``# FRONT``, ``# SIDE`` and ``# TOP`` section comments."""
    marks = {line.strip().upper() for line in split_lines(text[:20000]) if line.lstrip().startswith("#")}
    return {"# FRONT", "# SIDE", "# TOP"} <= marks


SNIFFERS: dict[str, Callable[[str], bool]] = {
    "nonogen-3d": nonogen3d, "picross3d-nathsou": nathsou, "picross3d-ytakata": ytakata}
"""Format name -> its ``looks_like``, for the registry's :func:`~nonogen.formats.sniff`."""
