"""Checking a protocol file: the one behaviour of ``python -m protocol.rules check FILE`` and
``manage.py check_protocol FILE`` (docs/protocol-format.md).

Exit 0 with the match as the rules compute it (JSON on stdout), 1 with every error found
(JSON on stdout), 2 when the file can't be read or is not JSON (a German line on stderr).
"""

from __future__ import annotations

from typing import TextIO

from .files import UnreadableProtocol, check_document, dumps, load_document

OK, BROKEN_RULES, UNREADABLE = 0, 1, 2


def check_file(path, stdout: TextIO, stderr: TextIO) -> int:
    """Check the file at ``path``, write the answer, return the exit status."""
    try:
        document = load_document(path)
    except UnreadableProtocol as exc:
        stderr.write(f"{exc}\n")
        return UNREADABLE
    evaluation = check_document(document)
    stdout.write(dumps(evaluation.as_json()) + "\n")
    return OK if evaluation.ok else BROKEN_RULES
