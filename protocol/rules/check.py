"""Checking a protocol file: the one behaviour of ``python -m protocol.rules check FILE`` and
``manage.py check_protocol FILE`` (docs/protocol-format.md).

Exit 0 with the match as the rules compute it (JSON on stdout), 1 with every error found
(JSON on stdout), 2 when the file can't be read or is not JSON (a German line on stderr).
A match with games recorded as points only gets ``"points_only"``: their count as a
sentence ("3 Spiele nur als Punkte") and each game's number with the engine's words on what
was not checked (protocol/rules/scores.py).
"""

from __future__ import annotations

from typing import Any, TextIO

from .files import UnreadableProtocol, check_document, dumps, load_document
from .scores import POINTS_ONLY
from .vocabulary import counted
from .words import N_, Text

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
    evaluation = check_document(document)
    answer = evaluation.as_json()
    summary = points_only_summary(evaluation.match) if evaluation.ok else None
    if summary is not None:  # said once for the file: which games were not checked beyond their points
        answer[POINTS_ONLY] = summary
    stdout.write(dumps(answer) + "\n")
    return OK if evaluation.ok else BROKEN_RULES


def points_only_summary(match: Any) -> dict[str, Any] | None:
    """The games of a computed match recorded as points only, each with its number and the
    engine's own words on it (what was not checked), and their count as a sentence; None
    when every game has its facts. For the check of a protocol file and the check page."""
    games = [game for game in match.games if game.as_json().get(POINTS_ONLY)]
    if not games:
        return None
    return {"count": len(games),
            "summary": counted(len(games), N_("%(n)s Spiel nur als Punkte"), N_("%(n)s Spiele nur als Punkte")),
            "games": [{"number": game.number, "stage": game.stage, "explanation": _text(game.explanation)}
                      for game in games]}


def _text(words: str) -> Text:
    """A game's words as a :class:`Text` (a marked German string becomes one), so that a page
    shows them in its language."""
    return words if isinstance(words, Text) else Text(words)
