"""Checking a protocol file: the one behaviour of ``python -m protocol.rules check FILE`` and
``manage.py check_protocol FILE`` (docs/protocol-format.md).

Exit 0 with the match as the rules compute it (JSON on stdout), 1 with every error found
(JSON on stdout), 2 when the file can't be read or is not JSON (a German line on stderr).
"""

from __future__ import annotations

from typing import Any, TextIO

from .files import UnreadableProtocol, check_document, dumps, load_document

OK, BROKEN_RULES, UNREADABLE = 0, 1, 2


def evaluate_document(document: Any) -> dict[str, Any]:
    """The answer to one protocol document as JSON-able data: the computed match, or
    ``{"errors": [...]}`` with each rule error's article. The one function behind the command
    line and the engine in the browser (protocol/offline, static/js/offline/engine.js)."""
    return check_document(document).as_json()


def check_file(path, stdout: TextIO, stderr: TextIO) -> int:
    """Check the file at ``path``, write the answer, return the exit status."""
    try:
        document = load_document(path)
    except UnreadableProtocol as exc:
        stderr.write(f"{exc}\n")
        return UNREADABLE
    answer = evaluate_document(document)
    stdout.write(dumps(answer) + "\n")
    return BROKEN_RULES if list(answer) == ["errors"] else OK  # an Evaluation with errors
