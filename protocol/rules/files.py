"""Reading ``protocol/1`` files: the bytes on disk -> a document -> the rules' evaluation.

Standard library only, like the rest of :mod:`protocol.rules`: ``python -m protocol.rules
check``, ``manage.py check_protocol``, the importer and ``render_sheet`` all read through
here (the order the site writes keys in is :mod:`protocol.format_order`).
"""

from __future__ import annotations

import json
import math
from typing import Any

from . import Evaluation, evaluate
from .text import normalise_strings


class UnreadableProtocol(Exception):
    """The file can't be read or is not JSON (the check's exit 2). The message is German."""


def load_document(path) -> Any:
    try:
        with open(path, "rb") as file:  # open(), not pathlib: the command line starts faster
            raw = file.read()
    except OSError as exc:
        raise UnreadableProtocol(f"Die Datei {path} kann nicht gelesen werden: {exc.strerror or exc}.") from exc
    return parse_document(raw, str(path))


# What a JSON file may hold before anything else looks at it. A protocol is a few levels
# deep and its numbers are small; a backup is a few levels deeper and holds ids and seeds
# (64-bit). Anything beyond is refused here, once, so that no later step (the copy before
# an import, the engine, the database's bigint columns) meets it.
MAX_DEPTH = 40
MAX_INT = 2**63 - 1


class _Refused(ValueError):
    """Raised by the parser's hooks; carries the end of the German message."""


def _whole_number(text: str) -> int:
    # Looked at as text first: int() of a 5,000-digit string is itself an error (and slow).
    digits = len(text.lstrip("-"))
    if digits > len(str(MAX_INT)) or abs(int(text)) > MAX_INT:
        raise _Refused(f"enthält eine zu große Zahl ({digits} Ziffern); erlaubt sind ganze Zahlen "
                       f"bis {MAX_INT:,}".replace(",", "."))
    return int(text)


def _decimal_number(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise _Refused(f"enthält eine Zahl außerhalb jedes Bereichs ({text[:20]}…)")
    return value


def _no_constant(name: str) -> Any:
    raise _Refused(f"enthält „{name}“; das ist in JSON keine Zahl")


def _depth_refusal(data: Any) -> str | None:
    """Why ``data`` is nested too deeply, or None. Walks without recursion."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            if depth > MAX_DEPTH:
                return f"ist zu tief verschachtelt (mehr als {MAX_DEPTH} Ebenen)"
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)
    return None


def parse_json(raw: bytes, name: str = "Die Datei") -> Any:
    """JSON from outside (a file, an upload, a request body), or UnreadableProtocol saying why.

    Every way JSON comes in goes through here: besides the syntax it refuses what Python's
    json module accepts but nothing after it can handle, namely nesting deeper than
    MAX_DEPTH, whole numbers beyond MAX_INT, NaN and Infinity. Every text comes back in NFC.
    """
    try:
        data = json.loads(raw.decode("utf-8"), parse_int=_whole_number, parse_float=_decimal_number,
                          parse_constant=_no_constant)
    except UnicodeDecodeError as exc:
        raise UnreadableProtocol(f"{name} ist kein UTF-8-Text.") from exc
    except json.JSONDecodeError as exc:
        raise UnreadableProtocol(
            f"{name} ist kein gültiges JSON (Zeile {exc.lineno}, Spalte {exc.colno}: {exc.msg}).") from exc
    except _Refused as exc:
        raise UnreadableProtocol(f"{name} {exc}.") from None
    except RecursionError as exc:
        raise UnreadableProtocol(f"{name} ist zu tief verschachtelt (mehr als {MAX_DEPTH} Ebenen).") from exc
    refusal = _depth_refusal(data)
    if refusal:
        raise UnreadableProtocol(f"{name} {refusal}.")
    return normalise_strings(data)  # every text in NFC (protocol.rules.text)


def parse_document(raw: bytes, name: str = "Die Datei") -> Any:
    """A protocol (or backup) file's bytes as a document; see :func:`parse_json`."""
    return parse_json(raw, name)


def check_document(document: Any) -> Evaluation:
    return evaluate(document)


def dumps(payload: Any) -> str:
    return json.dumps(payload, ensure_ascii=False, indent=2)


