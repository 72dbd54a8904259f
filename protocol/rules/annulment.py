"""Annulments, the same rule for every game: an annulled game and an annulled match each
name their reason.

- *Annulled game*: a ``game`` body with ``"annulled": true``; it stays on the sheet (struck
  through) and counts for nothing. Its ``annul_reason`` must be a non-empty text.
- *Annulled match*: the ``annul_match`` event; its ``reason`` must be a non-empty text.

Every way into the protocol (forms, JSON and xlsx imports, the transcription grid) goes
through the engine, so a reason missing anywhere is refused here, naming the rule of its
game (``article``: Chaotentrumpf SV 4, Tarot the FFT's Schiedsrichtergesetz; Doppelkopf,
whose rules say nothing of annulments, the protocol format).
"""

from __future__ import annotations

from typing import Any

from .text import REASON_MAX, reason_problem, text_problem
from .words import N_, Text

ANNUL_KEYS = {"annulled", "annul_reason"}  # the keys every game body may carry
FORMAT_RULE = N_("Protokollformat")  # cited where a game's own rules say nothing (docs/protocol-format.md)


def _where(article: str) -> str:
    return Text(" (%(article)s)", article=article) if article else ""


def read_game_annulment(data: dict, article: str) -> tuple[bool, str, list[tuple[str, str]]]:
    """A game body's ``annulled`` flag and ``annul_reason`` (stripped), with the problems
    found as (field, German message)."""
    errors: list[tuple[str, str]] = []
    annulled = data.get("annulled", False)
    if not isinstance(annulled, bool):
        errors.append(("annulled", N_("„annulliert“ ist ja oder nein (true/false).")))
        annulled = False
    reason = data.get("annul_reason", "")
    if not isinstance(reason, str):
        errors.append(("annul_reason", N_("Der Grund der Annullierung muss ein Text sein.")))
        return annulled, "", errors
    if problem := text_problem(reason, N_("Grund der Annullierung"), max_length=REASON_MAX, multiline=True):
        errors.append(("annul_reason", problem))
        return annulled, "", errors
    if annulled and not reason.strip():
        errors.append(("annul_reason", Text(N_("Ein annulliertes Spiel braucht einen Grund%(where)s."),
                                             where=_where(article))))
    return annulled, reason.strip(), errors


def match_annulment_problem(body: Any, article: str) -> str | None:
    """What is wrong with an ``annul_match`` body, None if it names its reason."""
    if (not isinstance(body, dict) or set(body) != {"reason"} or not isinstance(body["reason"], str)
            or not body["reason"].strip()):
        return Text(N_("Die Annullierung der Partie braucht einen Grund%(where)s."), where=_where(article))
    return reason_problem(body["reason"])
