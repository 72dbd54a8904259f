"""Chaotentrumpf (Regelwerk of 14.03.1999 with LE, NÜV and SV; docs/chaotentrumpf.md).

``RULESET.evaluate(document)`` checks a whole ``protocol/1`` document and computes the
Partie: every Spiel's score with its explanation, the running totals, Mischer, Stechen,
Strafen and the winner.
"""

from __future__ import annotations

from typing import Any

from protocol.rules.base import Examples, Problems
from protocol.rules.words import N_

from .partie import ENDED_BY, Match, PartieRules
from .settings import MAX_PLAYERS, MIN_PLAYERS, Settings, default_settings, read_settings


class Chaotentrumpf(PartieRules):
    key = "chaotentrumpf"
    name = "Chaotentrumpf"
    rating_results = N_("Jede beendete Partie ist ein Ergebnis, eine Rangfolge des Tisches: der Sieger zuerst, dann die "
                        "übrigen Spieler eines Stechens, dann alle nach ihrer Gesamtpunktzahl; gleiche Punktzahl ist "
                        "Gleichstand (Art. 17).")
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    table_sizes = (4, 5, 3)  # a tournament's tables: four preferred, as the Regelwerk's examples
    line_fields = ("tricks", "points", "trumps")  # Stiche, Augen, Trümpfe of each player (Art. 12-16)
    standings_figures = ("tiebreaks", "trump_bonuses")  # the Stechen (Art. 17b), the Trumpfwertung (Art. 16)
    rule_variants: dict[str, str] = {}
    default_variant = ""
    tournament_formats: dict[str, tuple[int, int]] = {}
    position_minutes: dict[int, int] = {}
    examples = Examples(
        annulled_game={"trump": {"level": "colour", "value": "rot"}, "annulled": True},  # SV 4
        # eleven Stiche in a Spiel of ten (Art. 7, 10)
        refused_game={"trump": {"level": "colour", "value": "rot"},
                      "results": {"Anna": {"tricks": 3, "points": 30, "trumps": 1},
                                  "Bernd": {"tricks": 3, "points": 30, "trumps": 1},
                                  "Carla": {"tricks": 3, "points": 30, "trumps": 1},
                                  "Dieter": {"tricks": 2, "points": 20, "trumps": 1}}},
        refused_field="tricks", refused_article="Art. 7, 10",
        # Art. 4a: the Punktetabelle's line; Dieter without a Stich gets the "kein Stich" value
        points_game={"trump": {"level": "colour", "value": "rot"},
                     "scores": {"Anna": 44, "Bernd": 35, "Carla": 10, "Dieter": -200}},
        # more than all the Augen and the Trumpfwertung together (Art. 13a, 16)
        refused_points={"scores": {"Anna": 999, "Bernd": 35, "Carla": 10, "Dieter": 0}},
        refused_points_article="Art. 13a, 16a, 16b")

    def default_settings(self, players: list[str]) -> dict[str, Any]:
        return default_settings(len(players))

    def read_settings(self, data: Any, players: list[str], problems: Problems) -> Settings | None:
        return read_settings(data, len(players), problems)

    @staticmethod
    def ended_by_label(ended_by: str | None) -> str:
        """What ended a Partie (``Match.ended_by``), for people, with its article."""
        return ENDED_BY.get(ended_by or "", "")


RULESET = Chaotentrumpf()

__all__ = ["RULESET", "Match"]
