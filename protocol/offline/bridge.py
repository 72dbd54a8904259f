"""The Python side of the engine in the browser (static/js/offline/engine.js), run by Pyodide.

Standard library and the pure-Python engine only (tests/unit/test_layers.py): the browser
has no Django. One entry point, :func:`call`: JSON text in, JSON text out, so that nothing
but plain data crosses between JavaScript and Python. The arguments are read by the same
:func:`protocol.rules.files.parse_json` as every JSON the server takes in (NFC, limits).
"""

from __future__ import annotations

import importlib
import json

from protocol.rules.files import UnreadableProtocol, parse_json

ALLOWED = ("protocol.rules", "protocol.entries")  # what the browser may call into


def call(module: str, function: str, arguments_json: str) -> str:
    """``module.function(*arguments)`` as ``{"value": ...}``, or ``{"error": German message}``
    when the arguments are not acceptable JSON or the module is not the engine's."""
    if not any(module == root or module.startswith(root + ".") for root in ALLOWED):
        return _dumps({"error": f"Das Modul {module} gehört nicht zur Regel-Engine."})
    try:
        arguments = parse_json(arguments_json.encode("utf-8"), "Die Eingabe")
    except UnreadableProtocol as exc:
        return _dumps({"error": str(exc)})
    target = getattr(importlib.import_module(module), function)
    return _dumps({"value": target(*arguments)})


def _dumps(payload) -> str:
    return json.dumps(payload, ensure_ascii=False)
