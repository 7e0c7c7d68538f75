"""JSON reading shared by the JSON formats: strict numbers, schema validation, errors on the right line.

Python's ``json`` module accepts ``NaN`` and ``Infinity``, turns ``1e400``
into ``inf`` and raises a bare ``ValueError`` on integers of more than 4300
digits. Here such an integer is kept as its text (:class:`LongNumber`), and
every wrong value, NaN and 5000-digit numbers included, is reported by the
schema check with its JSON path and the line it sits on, as
``rows[3][0]: expected ..., got ...``.

The schema (``schema/nonogen.schema.json``) is validated with ``jsonschema``
before anything is built; the readers only turn already-checked data into
puzzles. ``jsonschema`` is imported on first use, so the text formats never
pay for it.
"""
from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from importlib import resources
from typing import Any, Callable, Iterable, Optional, Union

from ..errors import FormatError
from ._common import MAX_DIGITS

__all__ = ["LongNumber", "parse_json", "validate", "describe", "json_path", "line_of", "schema"]


class LongNumber(str):
    """A JSON integer too long for ``int()`` (4000 digits or more), kept as its text; no schema type accepts it."""


def _parse_int(text: str, _int=int) -> Union[int, LongNumber]:
    """Only called once the C decoder met a number beyond Python's guard, so it is kept as short as can be."""
    return _int(text) if len(text) < 4000 else LongNumber(text)


_FAST = json.JSONDecoder()
_SAFE = json.JSONDecoder(parse_int=_parse_int)


def parse_json(text: str) -> Any:
    """The JSON value of ``text``; syntax errors become FormatErrors on their line.

    >>> parse_json('{"a": [1, 1.5]}')
    {'a': [1, 1.5]}
    >>> type(parse_json("1" * 5000)).__name__
    'LongNumber'
    """
    start = _skip_ws(text, 1 if text.startswith("\ufeff") else 0)
    try:
        try:
            value, end = _FAST.raw_decode(text, start)
        except json.JSONDecodeError:
            raise
        except ValueError:  # an integer beyond Python's 4300-digit guard: parse again, numbers kept as text
            value, end = _SAFE.raw_decode(text, start)
    except json.JSONDecodeError as exc:
        raise FormatError(f"invalid JSON: {exc.msg}", line=exc.lineno) from None
    except RecursionError:
        raise FormatError("invalid JSON: nested too deeply", line=1) from None
    end = _skip_ws(text, end)
    if end < len(text):
        raise FormatError("invalid JSON: extra data after the document", line=text.count("\n", 0, end) + 1)
    return value


def describe(value: Any, limit: int = 30) -> str:
    """A short, safe rendering of a JSON value for an error message (never deep, never long).

    >>> describe("x"), describe([1, [2, [3]]]), describe(LongNumber("9" * 5000)), describe(float("nan"))
    ('"x"', 'a list of 2 items', 'a number of 5000 digits', 'NaN')
    """
    if isinstance(value, LongNumber):
        return f"a number of {sum(c.isdigit() for c in value)} digits"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        return repr(value) if math.isfinite(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, int):
        return str(value) if abs(value) < 10**MAX_DIGITS else f"a number of {len(str(abs(value)))} digits"
    if isinstance(value, str):
        text = json.dumps(value if len(value) <= limit else value[: limit - 3] + "...", ensure_ascii=True)
        return text
    if isinstance(value, list):
        return f"a list of {len(value)} item{'s' * (len(value) != 1)}"
    if isinstance(value, dict):
        return f"an object with {len(value)} key{'s' * (len(value) != 1)}"
    return type(value).__name__  # pragma: no cover - JSON has no other types


def json_path(parts: Iterable[Union[str, int]]) -> str:
    """``rows[3][0]`` or ``clues.x[0]`` from path parts; ``(top level)`` for none.

    >>> json_path(["clues", "x", 0, 1]), json_path([])
    ('clues.x[0][1]', 'the document')
    """
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "the document"


# --- where a value sits ---------------------------------------------------------------------------

_WS = " \t\r\n"


def _skip_ws(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


def _value_end(text: str, i: int) -> int:
    """End of the JSON value starting at ``i`` (the text is known to be valid)."""
    try:
        return _FAST.raw_decode(text, i)[1]
    except json.JSONDecodeError:  # pragma: no cover - the text was decoded before
        raise
    except ValueError:
        return _SAFE.raw_decode(text, i)[1]


def line_of(text: str, parts: Iterable[Union[str, int]]) -> int:
    """The 1-based line where the value at the JSON path ``parts`` starts in the valid JSON ``text``.

    Only the containers on the path are walked; siblings are skipped with
    the C decoder, so this costs one pass over the text at most.

    >>> line_of('{"a": 1,\\n "rows": [[1],\\n  [2, "x"]]}', ["rows", 1, 1])
    3
    """
    i = _skip_ws(text, 1 if text.startswith("\ufeff") else 0)
    try:
        for part in parts:
            i = _child_start(text, i, part)
    except (ValueError, IndexError, RecursionError):  # pragma: no cover - the path came from this text
        pass
    return text.count("\n", 0, i) + 1


def _child_start(text: str, i: int, part: Union[str, int]) -> int:
    opener = text[i]
    i = _skip_ws(text, i + 1)
    k = 0
    found = i
    while text[i] not in "]}":
        if opener == "{":
            key, i = json.decoder.scanstring(text, i + 1)  # type: ignore[attr-defined]  # not in typeshed
            i = _skip_ws(text, _skip_ws(text, i) + 1)  # past ':'
            if key == part:
                found = i
        elif k == part:
            return i
        i = _skip_ws(text, _value_end(text, i))
        k += 1
        if text[i] == ",":
            i = _skip_ws(text, i + 1)
    return found


# --- the schema -------------------------------------------------------------------------------------


SCHEMA = "nonogen.schema.json"
"""The schema of nonogen's puzzle files; ``schema/`` also holds the level pack's manifest schema."""


@lru_cache(maxsize=None)
def schema(name: str = SCHEMA) -> dict:
    """A JSON Schema shipped in ``schema/``: by default that of nonogen's own JSON formats."""
    text = resources.files(__package__).joinpath("schema").joinpath(name).read_text(encoding="utf-8")
    return json.loads(text)


def _inline(node: Any, defs: dict) -> Any:
    """``node`` with every local ``$ref`` replaced by its definition (nonogen's schema has no cycles)."""
    if isinstance(node, dict):
        if set(node) == {"$ref"} and node["$ref"].startswith("#/$defs/"):
            return _inline(defs[node["$ref"][len("#/$defs/"):]], defs)
        return {k: _inline(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


@lru_cache(maxsize=None)
def _validator(definition: str, name: str = SCHEMA):
    """A validator for one ``$defs`` entry, refs inlined; whole numbers must be ints (``3.0`` is no block length).

    ``items`` gets a fast path: when the item schema uses only simple
    keywords it is turned into a plain predicate (:func:`_predicate`), and
    only if some item fails it does jsonschema walk the items to say which
    one and why. A 512x512 puzzle has 100,000 blocks; jsonschema spends
    about 50 microseconds on each, the predicate well under one.
    """
    import jsonschema  # loaded with the first JSON document to check: other formats never need it

    base = jsonschema.Draft202012Validator
    walk = base.VALIDATORS["items"]  # jsonschema's own check, by its public table (its module was renamed once)

    def items(validator, item_schema, instance, schema):
        check = _predicate_for(item_schema)
        if check is not None and type(instance) is list:
            if all(map(check, instance[len(schema.get("prefixItems", ())):])):
                return
        yield from walk(validator, item_schema, instance, schema)

    checker = base.TYPE_CHECKER.redefine(
        "integer", lambda _checker, v: isinstance(v, int) and not isinstance(v, bool)
    ).redefine("number", lambda _checker, v: isinstance(v, (int, float)) and not isinstance(v, bool))
    cls = jsonschema.validators.extend(base, validators={"items": items}, type_checker=checker)
    root = schema(name)
    return cls(_inline(root["$defs"][definition], root["$defs"]))


_PREDICATES: dict[int, tuple[Any, Optional[Callable[[Any], bool]]]] = {}


def _predicate_for(item_schema: Any) -> Optional[Callable[[Any], bool]]:
    """:func:`_predicate` of a schema, built once per schema object."""
    key = id(item_schema)
    if key not in _PREDICATES:
        _PREDICATES[key] = (item_schema, _predicate(item_schema))  # the schema is kept so its id stays its own
    return _PREDICATES[key][1]


_SIMPLE = {"description", "title", "$comment", "type", "minimum", "maximum", "minItems", "maxItems",
           "minLength", "maxLength", "pattern", "enum", "const", "items", "prefixItems"}
_JSON_TYPES = {int: ("integer", "number"), float: ("number",), str: ("string",), list: ("array",),
               dict: ("object",), bool: ("boolean",), type(None): ("null",)}


def _predicate(node: Any) -> Optional[Callable[[Any], bool]]:
    """A fast check that accepts only values ``node`` accepts, or None when ``node`` is not simple enough.

    It may refuse values the schema accepts (jsonschema then decides), never
    the other way round: exact Python types only, so ``True`` is no integer
    and a :class:`LongNumber` is left to jsonschema.

    >>> check = _predicate({"type": ["integer", "array"], "minimum": 1, "maxItems": 2, "items": {"type": "string"}})
    >>> check(3), check(0), check(["a"]), check(["a", "b", "c"]), check(True)
    (True, False, True, False, False)
    """
    if not isinstance(node, dict) or set(node) - _SIMPLE:
        return None
    named = node.get("type")
    allowed = None if named is None else ({named} if isinstance(named, str) else set(named))
    table: dict[type, Callable[[Any], bool]] = {}
    for kind, names in _JSON_TYPES.items():
        if allowed is None or allowed.intersection(names):
            check = _typed_check(node, kind)
            if check is None:
                return None
            table[kind] = check
    values = node["enum"] if "enum" in node else [node["const"]] if "const" in node else None
    if values is not None:
        return lambda v: type(v) in table and table[type(v)](v) and any(type(v) is type(e) and v == e for e in values)
    if len(table) == 1:
        ((kind, check),) = table.items()
        return lambda v: type(v) is kind and check(v)
    if len(table) == 2:
        ((kind1, check1), (kind2, check2)) = table.items()
        return lambda v: (type(v) is kind1 and check1(v)) or (type(v) is kind2 and check2(v))
    return lambda v: type(v) in table and table[type(v)](v)


def _typed_check(node: dict, kind: type) -> Optional[Callable[[Any], bool]]:
    """The keywords of ``node`` that apply to values of Python type ``kind``, as one predicate."""
    if kind in (int, float):
        lo, hi = node.get("minimum", -math.inf), node.get("maximum", math.inf)
        return lambda v: lo <= v <= hi
    if kind is str:
        lo, hi = node.get("minLength", 0), node.get("maxLength", math.inf)
        pattern = re.compile(node["pattern"]) if "pattern" in node else None
        if pattern is None:
            return lambda v: lo <= len(v) <= hi
        return lambda v: lo <= len(v) <= hi and pattern.search(v) is not None
    if kind is list:
        return _list_check(node)
    return lambda v: True


def _list_check(node: dict) -> Optional[Callable[[Any], bool]]:
    lo, hi = node.get("minItems", 0), node.get("maxItems", math.inf)
    found = [_predicate(sub) for sub in node.get("prefixItems", ())]
    prefix = [check for check in found if check is not None]
    rest = _predicate(node["items"]) if "items" in node else (lambda v: True)
    if rest is None or len(prefix) < len(found):
        return None
    n = len(prefix)
    if not prefix:
        return lambda v: lo <= len(v) <= hi and all(map(rest, v))
    if n == 2 and lo >= 2 and "items" not in node:
        first, second = prefix
        return lambda v: lo <= len(v) <= hi and first(v[0]) and second(v[1])
    return lambda v: (lo <= len(v) <= hi and all(check(x) for check, x in zip(prefix, v, strict=False))
                      and all(map(rest, v[n:])))


def validate(data: Any, definition: str, text: str, schema_name: str = SCHEMA) -> None:
    """Check ``data`` (parsed from ``text``) against ``$defs/<definition>`` of the schema file ``schema_name``;
    the first problem is a FormatError.

    The first error is taken from a lazy iterator, and the schema lists cheap
    bounds (type, size) before the items, so a list of a million items is
    refused before any item is looked at.
    """
    error = next(iter(_validator(definition, schema_name).iter_errors(data)), None)
    if error is None:
        return
    parts = list(error.absolute_path)
    raise FormatError(f"{json_path(parts)}: {_explain(error)}", line=line_of(text, parts))


def _explain(error) -> str:
    """One readable clause for a jsonschema error: what was expected and what was found."""
    keyword, bound, found = error.validator, error.validator_value, error.instance
    expected = _expected(error)
    if keyword == "required":
        missing = next((k for k in bound if isinstance(found, dict) and k not in found), bound[0])
        return f"missing the key {missing!r}"
    if keyword in ("maxItems", "maxLength", "minItems", "minLength"):
        unit = "characters" if keyword.endswith("Length") else "items"
        most = "at most" if keyword.startswith("max") else "at least"
        return f"expected {most} {bound:,} {unit} ({expected}), got {len(found):,}"
    if keyword in ("minimum", "maximum"):
        low, high = error.schema.get("minimum", ""), error.schema.get("maximum", "")
        return f"expected {expected} from {low} to {high}, got {describe(found)}"
    return f"expected {expected}, got {describe(found)}"


def _expected(error) -> str:
    """The ``description`` of the innermost schema that says what a value must be."""
    for candidate in (error.schema, *(e.schema for e in (error.context or ()))):
        if isinstance(candidate, dict) and candidate.get("description"):
            return candidate["description"]
    keyword, bound = error.validator, error.validator_value
    if keyword == "type":
        return " or ".join(f"a{'n' * (b[0] in 'aeiou')} {b}" for b in ([bound] if isinstance(bound, str) else bound))
    if keyword == "const":
        return json.dumps(bound)
    if keyword == "enum":
        return " or ".join(json.dumps(b) for b in bound)
    return "a valid value"

