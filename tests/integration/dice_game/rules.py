"""Würfelbecher: a Spiel is ``{"pips": {player: n}}``, each player's pips (1 to 36) times 10."""

from __future__ import annotations

from typing import Any

from protocol.rules.base import Examples, Problems
from protocol.rules.tally import GameResult, TallyRuleset, read_annulment


class DiceCup(TallyRuleset):
    key = "wuerfelbecher"
    name = "Würfelbecher"
    min_players, max_players = 2, 6
    line_fields = ("pips",)  # each player's pips
    standings_figures = ()
    rule_variants: dict[str, str] = {}
    default_variant = ""
    tournament_formats: dict[str, tuple[int, int]] = {}
    examples = Examples(annulled_game={"pips": {}}, refused_game={"pips": {"Anna": 99}}, refused_field="pips",
                        refused_article="")

    def read_settings(self, data: Any, players: list[str], problems: Problems) -> dict[str, Any] | None:
        return {}

    def read_game(self, event_index: int, data: Any, players: list[str], settings: Any,
                  problems: Problems) -> GameResult | None:
        annulled = read_annulment(data, event_index, problems)[0] if isinstance(data, dict) else False
        pips = data.get("pips") if isinstance(data, dict) else None
        if not isinstance(pips, dict) or any(not isinstance(n, int) or not 1 <= n <= 36 for n in pips.values()):
            problems.add(event_index, None, "pips", "Die Augen sind 1 bis 36 je Spieler.")
            return None
        return GameResult({player: 10 * pips.get(player, 0) for player in players}, "", {}, annulled)


RULESET = DiceCup()
