"""Chaotentrumpf (Regelwerk of 14.03.1999 with LE, NÜV and SV; docs/chaotentrumpf.md).

``RULESET.evaluate(document)`` checks a whole ``protocol/1`` document and computes the
Partie: every Spiel's score with its explanation, the running totals, Mischer, Stechen,
Strafen and the winner.
"""

from __future__ import annotations

from typing import Any

from ..base import Evaluation, Problems
from ..envelope import read_envelope
from .partie import ENDED_BY, Match, Replay, replay
from .settings import MAX_PLAYERS, MIN_PLAYERS, default_settings, read_settings


class Chaotentrumpf:
    key = "chaotentrumpf"
    name = "Chaotentrumpf"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS

    def default_settings(self, players: list[str]) -> dict[str, Any]:
        return default_settings(len(players))

    @staticmethod
    def ended_by_label(ended_by: str | None) -> str:
        """What ended a Partie (``Match.ended_by``), for people, with its article."""
        return ENDED_BY.get(ended_by or "", "")

    def evaluate(self, document: Any) -> Evaluation:
        problems = Problems()
        env = read_envelope(document, self.key, MIN_PLAYERS, MAX_PLAYERS, problems)
        if env is None:
            return Evaluation(problems.errors)
        settings = read_settings(env.settings, len(env.players), problems)
        if settings is None:
            return Evaluation(problems.errors)
        match = replay(env, settings, problems)
        return Evaluation(problems.errors, match)

    def start(self, document: Any) -> tuple[Replay | None, Problems]:
        """A Replay of the document's envelope, to feed events into one at a time.

        The events already in the document are fed; the caller feeds more and reads
        ``problems`` (all errors so far) and ``replay.finish()`` (the match so far).
        """
        problems = Problems()
        env = read_envelope(document, self.key, MIN_PLAYERS, MAX_PLAYERS, problems)
        settings = read_settings(env.settings, len(env.players), problems) if env else None
        if settings is None:
            return None, problems
        feeder = Replay(env, settings, problems)
        for event in env.events:
            feeder.feed(event)
        return feeder, problems


RULESET = Chaotentrumpf()

__all__ = ["RULESET", "Match"]
