"""The rules of the minimal game: a game body is ``{"points": {player: points}}``."""

from __future__ import annotations

from typing import Any

from protocol.rules.base import Examples, Problems
from protocol.rules.tally import GameResult, TallyRuleset


class Points(TallyRuleset):
    key = "punkte"
    name = "Punkte"
    min_players, max_players = 2, 6
    line_fields = ()
    standings_figures = ()
    rule_variants: dict[str, str] = {}
    default_variant = ""
    tournament_formats: dict[str, tuple[int, int]] = {}
    examples = Examples(annulled_game={"points": {}, "annulled": True}, refused_game={"points": "viele"},
                        refused_field="points", refused_article="")

    def read_settings(self, data: Any, players: list[str], problems: Problems) -> dict[str, Any] | None:
        return {}

    def read_game(self, event_index: int, data: Any, players: list[str], settings: Any,
                  problems: Problems) -> GameResult | None:
        points = data.get("points") if isinstance(data, dict) else None
        if not isinstance(points, dict):
            problems.add(event_index, None, "points", "Die Punkte fehlen.")
            return None
        return GameResult({p: int(points.get(p, 0)) for p in players}, "", {},
                          annulled=bool(data.get("annulled")))


RULESET = Points()
