"""Reading ``protocol/1`` files: the bytes on disk -> a document -> the rules' evaluation.

Pure Python (no database): the check command, the importer and ``render_sheet`` share it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from protocol.rules import Evaluation, evaluate


class UnreadableProtocol(Exception):
    """The file can't be read or is not JSON (the check's exit 2). The message is German."""


def load_document(path: str | Path) -> Any:
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise UnreadableProtocol(f"Die Datei {path} kann nicht gelesen werden: {exc.strerror or exc}.") from exc
    return parse_document(raw, str(path))


def parse_document(raw: bytes, name: str = "Die Datei") -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise UnreadableProtocol(f"{name} ist kein UTF-8-Text.") from exc
    except json.JSONDecodeError as exc:
        raise UnreadableProtocol(
            f"{name} ist kein gültiges JSON (Zeile {exc.lineno}, Spalte {exc.colno}: {exc.msg}).") from exc
    except RecursionError as exc:
        raise UnreadableProtocol(f"{name} ist zu tief verschachtelt.") from exc


def check_document(document: Any) -> Evaluation:
    return evaluate(document)


def dumps(payload: Any) -> str:
    return json.dumps(payload, ensure_ascii=False, indent=2)
