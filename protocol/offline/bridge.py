"""The Python side of the engine in the browser (static/js/offline/engine.js), run by Pyodide.

Standard library and the pure-Python engine only (tests/unit/test_layers.py): the browser
has no Django. One entry point, :func:`call`: JSON text in, JSON text out, so that nothing
but plain data crosses between JavaScript and Python. The arguments are read by the same
:func:`protocol.rules.files.parse_json` as every JSON the server takes in (NFC, limits).
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

from protocol import games
from protocol.rules import words
from protocol.rules.files import UnreadableProtocol, parse_json

ALLOWED = ("protocol.rules", "protocol.entry_form")  # what the browser may call into


def install_games() -> None:
    """The games of the server's registry (the pack's ``games.json``): a game added there with
    ``games.install`` is known here too."""
    listed = Path(__file__).with_name("games.json")
    if listed.exists():
        for key, package in json.loads(listed.read_text("utf-8")).items():
            games.install(key, package)


install_games()


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


def prepare() -> list[str]:
    """Imports what the entry pages call (the entry form's state and every game's rules and entry
    mapping) ahead of the first check, which then only computes. Answers the modules imported."""
    names = ["protocol.entry_form.state"]
    for key in games.keys():
        names += [f"{games.INSTALLED[key]}.rules", f"{games.INSTALLED[key]}.entry_form"]
    for name in names:
        importlib.import_module(name)
    return names


def use_language(code: str) -> str:
    """The engine's words in the page's language (``<html lang>``, e.g. "en", "en-GB"), as the
    site gives them online: the site's gettext is a catalogue lookup (message id -> text, the id
    itself when it has none), so is this one, from the catalogue the rules pack carries
    (protocol/offline/pack.py). German, or a language without a catalogue: the engine's own
    words. Answers the language used."""
    language = (code or "").split("-")[0].lower()
    path = Path(__file__).with_name(f"words-{language}.json") if language.isalpha() else None
    if path is None or not path.exists():
        words.use_translator(_german)
        return "de"
    catalogue = json.loads(path.read_text("utf-8"))
    words.use_translator(lambda message_id: catalogue.get(message_id) or message_id)
    return language


def _german(message_id: str) -> str:
    return message_id


def _dumps(payload) -> str:
    return json.dumps(payload, ensure_ascii=False)
