"""The Zählspiel's rules: a Spiel is the points of each player, 0 to 100, and who dealt it
(Zählspiel-Regel 1); the table ends the Partie, the highest total wins. Pure Python, as every
game's rules."""

from __future__ import annotations

from typing import Any

from protocol.rules.annulment import FORMAT_RULE
from protocol.rules.base import Examples, Problems, is_int
from protocol.rules.tally import ANNUL_KEYS, GameResult, TallyRuleset, read_annulment
from protocol.rules.words import N_, Text

RULE = "Zählspiel-Regel 1"
MOST = 100


class Zaehlspiel(TallyRuleset):
    key = "zaehlspiel"
    name = "Zählspiel"
    min_players = 2
    max_players = 6
    table_sizes = (4, 3, 5)
    line_fields = ("points",)
    standings_figures = ()
    rule_variants: dict[str, str] = {}
    default_variant = ""
    tournament_formats: dict[str, tuple[int, int]] = {}
    position_minutes: dict[int, int] = {}
    penalty_bounds = (5, 50)
    penalty_article = "Zählspiel-Regel 2"
    sanction_articles = {kind: "Zählspiel-Regel 2" for kind in ("penalty", "warning", "disqualification")}
    articles = {"scorekeeper": FORMAT_RULE, "players": RULE, "reason": "Zählspiel-Regel 2",
                "annul": FORMAT_RULE, "end": FORMAT_RULE}
    examples = Examples(
        annulled_game={"points": {"Anna": 10, "Bernd": 20, "Carla": 30, "Dieter": 40}, "annulled": True},
        refused_game={"points": {"Anna": 10, "Bernd": 120, "Carla": 30, "Dieter": 40}},
        refused_field="points", refused_article=RULE)

    def read_settings(self, data: Any, players: list[str], problems: Problems) -> dict[str, Any] | None:
        if data in (None, {}):
            return {}
        problems.add(None, None, "settings", N_("Das Zählspiel kennt keine Einstellungen (Protokollformat)."))
        return None

    def read_game(self, event_index: int, data: Any, players: list[str], settings: Any,
                  problems: Problems) -> GameResult | None:
        if not isinstance(data, dict):
            problems.add(event_index, None, None, N_("Ein Spiel muss ein Objekt sein (Protokollformat)."))
            return None
        annulled, _reason = read_annulment(data, event_index, problems)
        for key in set(data) - {"points", "dealer"} - ANNUL_KEYS:
            problems.add(event_index, None, key, Text(N_("Unbekanntes Feld %(key)r (Protokollformat)."), key=key))
        if data.get("dealer") is not None and data["dealer"] not in players:
            problems.add(event_index, None, "dealer", N_("Der Geber muss einer der Spieler sein (Zählspiel-Regel 1)."))
        points = data.get("points")
        if not isinstance(points, dict):
            problems.add(event_index, None, "points", N_("Die Punkte jedes Spielers fehlen (Zählspiel-Regel 1)."))
            return None
        for player in players:
            value = points.get(player)
            if not is_int(value) or not 0 <= value <= MOST:
                problems.add(event_index, player, "points", Text(N_(
                    "%(player)s: Punkte von 0 bis %(most)s (Zählspiel-Regel 1)."), player=player, most=MOST))
        for player in set(points) - set(players):
            problems.add(event_index, player, "points", Text(N_(
                "%(player)s spielt dieses Spiel nicht mit (Zählspiel-Regel 1)."), player=player))
        if problems.errors and any(e.event == event_index for e in problems.errors):
            return None
        scores = {player: points[player] for player in players}
        explanation = ", ".join(f"{player} {score}" for player, score in scores.items())
        return GameResult(scores, explanation, {}, annulled)


RULESET = Zaehlspiel()
