"""French Tarot after the rules of the Fédération Française de Tarot (docs/tarot.md).

The rules come from the FFT's own text (``FFT-Regeln``, the seed in
``shared/rules/tarot-fft-regeln.txt``) and, where it is silent, the federation's
*Règlement officiel*; every error message names the one it enforces.

A Tarot match has no Obergrenze: the table plays its deals (a tournament position) and the
match ends with an ``end`` event; the match itself (events, sanctions, totals, winner) is
the shared :mod:`..tally`. This package only reads and scores one deal:

- :mod:`.deal`: the ``game`` body checked (``read_deal``);
- :mod:`.scoring`: the score of a checked deal (``score_deal``) and the tables it uses;
- :mod:`.tournament`: positions, deals and time of a tournament.

``RULESET.evaluate(document)`` checks a whole ``protocol/1`` document and computes the match.
"""

from __future__ import annotations

from typing import Any

from protocol.rules.base import Examples, Problems
from protocol.rules.scores import POINTS_ONLY, SCORES, facts_with_scores
from protocol.rules.tally import ANNUL_KEYS, GameResult, TallyRuleset, read_annulment
from protocol.rules.words import N_, Text

from . import contests, points_only
from .deal import GAME_KEYS, NULL_RULE, OFFICIAL, CheckedDeal, read_deal
from .scoring import POIGNEE_TRUMPS, Deal, DealScore, null_score, score_deal
from .tournament import MINUTES_FOR_DEALS, POSITIONS

MIN_PLAYERS, MAX_PLAYERS = 3, 5  # Règlement officiel: 3, 4 or 5 players
# FFT-Regeln "Schiedsrichtergesetz": penalties of 100 points ("pénalités de 100 points"); for
# grave faults the arbiter imposes penalty points at once ("Strafpunkte auferlegen"), so a
# penalty is 100 points or a multiple and needs no earlier warning (ruling, docs/tarot.md);
# 1000 is a guard, not a rule.
PENALTY_BOUNDS, PENALTY_STEP = (100, 1000), 100
PENALTY_ARTICLE = Text(N_("%(rule)s: Strafpunkte zu je 100"), rule=NULL_RULE)
# What each refusal cites (docs/tarot.md: the Schiedsrichtergesetz for sanctions and
# annulments, the Ablauf des Wettbewerbs for the end; North, a player, keeps the Kontrollblatt).
ARBITRATION = NULL_RULE
ARTICLES = {
    "scorekeeper": N_("FFT-Regeln: Nord Spieler"),
    "players": OFFICIAL,
    "reason": ARBITRATION,
    "annul": ARBITRATION,
    "end": N_("FFT-Regeln: Ablauf des Wettbewerbs"),
}


class Tarot(TallyRuleset):
    key = "tarot"
    name = "Tarot"
    rating_results = N_("Jedes Spiel ist ein Ergebnis: der Spielnehmer (zu fünft mit dem gerufenen Partner) gegen "
                        "die Verteidiger.")
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    table_sizes = (4, 5, 3)  # FFT-Regeln: tables of four; the rules of Tarot play with 3 to 5
    line_fields = ()  # a deal is one body: taker, contract, oudlers, points
    standings_figures = ()
    rule_variants: dict[str, str] = {}
    default_variant = ""
    tournament_formats = POSITIONS  # FFT-Regeln "Anzahl der Partien"
    rating_settles_after = 30  # Spiele: each says less than a whole Partie ranked (league.ratings)
    position_minutes = MINUTES_FOR_DEALS  # FFT-Regeln "Spielrhythmus"
    penalty_bounds = PENALTY_BOUNDS
    penalty_step = PENALTY_STEP
    penalty_article = PENALTY_ARTICLE
    sanction_articles = {kind: ARBITRATION for kind in ("penalty", "warning", "disqualification")}
    articles = ARTICLES
    examples = Examples(
        annulled_game={"dealer": "Anna", "taker": "Bernd", "contract": "garde", "partner": None, "oudlers": 2,
                       "points": 49, "petit_au_bout": None, "poignees": [], "chelem": None, "null": False,
                       "annulled": True},
        # four bouts: there are three (Règlement officiel)
        refused_game={"dealer": "Anna", "taker": "Bernd", "contract": "garde", "partner": None, "oudlers": 4,
                      "points": 49, "petit_au_bout": None, "poignees": [], "chelem": None, "null": False},
        refused_field="oudlers", refused_article="Règlement officiel der FFT",
        # a sheet's deal: Bernd's garde, each defender pays 70
        points_game={"dealer": "Anna", "taker": "Bernd", "contract": "garde",
                     "scores": {"Anna": -70, "Bernd": 210, "Carla": -70, "Dieter": -70}},
        # the taker gets what the defenders pay: this deal sums to 10
        refused_points={"scores": {"Anna": -70, "Bernd": 210, "Carla": -70, "Dieter": -60}},
        refused_points_article="FFT-Regeln: Verträge")

    def default_settings(self, players: list[str]) -> dict[str, Any]:
        return {}

    def read_settings(self, data: Any, players: list[str], problems: Problems) -> dict[str, Any] | None:
        """Nothing to agree on: contracts, premiums and poignées are the same for every table."""
        if data is None:
            return {}
        if not isinstance(data, dict):
            problems.add(None, None, "settings", N_("Die Einstellungen müssen ein Objekt sein (bei Tarot leer)."))
            return None
        for key in data:
            problems.add(None, None, f"settings.{key}", Text(N_(
                "Unbekannte Einstellung %(key)r: Tarot nach den FFT-Regeln kennt keine Einstellungen "
                "(Verträge, Prämien und Poignées gelten für jeden Tisch gleich)."), key=key))
        return None if data else {}

    def contests(self, match) -> list:
        """Each game of a finished match, the taker's side against the defenders (contests.py)."""
        return contests.contests(match)

    def read_game(self, event_index: int, data: Any, players: list[str], settings: Any,
                  problems: Problems) -> GameResult | None:
        """One deal checked and scored for the ``players`` still at the table."""
        annulled = False
        if isinstance(data, dict):
            annulled, _ = read_annulment(data, event_index, problems, ARBITRATION)
        if isinstance(data, dict) and SCORES in data:
            return _points_only(event_index, data, players, problems, annulled)
        checked = read_deal(data, players, extra_keys=tuple(sorted(ANNUL_KEYS)))
        for player, field, message in checked.errors:
            problems.add(event_index, player, field, message)
        if checked.errors:
            return None
        score = null_score(players) if checked.null else score_deal(checked.deal, players)
        return GameResult(score.scores, score.explanation, {"defender_score": score.defender_score},
                          annulled)


def _points_only(index: int, data: dict, players: list[str], problems: Problems, annulled: bool) -> GameResult | None:
    """A deal recorded as points only (points_only.py): its scores as far as the rules check them."""
    errors = facts_with_scores(data, set(GAME_KEYS), points_only.KEYS, ARTICLES["scorekeeper"])
    for key in sorted(set(data) - set(GAME_KEYS) - ANNUL_KEYS - {SCORES}, key=str):
        errors.append((None, key, Text(N_("Unbekanntes Feld %(key)r in einem Tarot-Spiel."), key=key)))
    checked = points_only.check_scores(data, players, ARTICLES["scorekeeper"], errors)
    for player, field, message in errors:
        problems.add(index, player, field, message)
    if errors or checked is None:
        return None
    scores, d = checked
    return GameResult(scores, points_only.POINTS_ONLY, {"defender_score": d, POINTS_ONLY: True}, annulled)


RULESET = Tarot()

__all__ = ["RULESET", "POIGNEE_TRUMPS", "POSITIONS", "CheckedDeal", "Deal", "DealScore",
           "read_deal", "score_deal"]
