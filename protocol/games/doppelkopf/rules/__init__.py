"""Doppelkopf, by the TCG house rules (the seed) or the DDV-Turnierspielregeln.

``RULESET.evaluate(document)`` checks a whole ``protocol/1`` document (``"ruleset":
"doppelkopf"``, ``"settings": {"rules": "tcg" | "ddv"}``) and computes the match as a
tally (protocol/rules/tally.py): every game's scores with their explanation, ``winner``
(re | kontra | null) and ``value``, the running totals, penalties and the winner.

Modules: ``settings`` (the rule set), ``game`` (one game read and checked), ``scoring``
(who wins and what it is worth).

Citations in messages: "TCG-Regeln, <Abschnitt>" are the sections of the seed text
(shared/rules/doppelkopf-tcg-turnierregeln.txt, which numbers nothing); "TCG 1" to "TCG 8"
the numbered rules of docs/doppelkopf.md ("TCG game value"); "DDV <n>" the sections of the
DDV-Turnierspielregeln (2.2 Blatt, 2.4 Parteien, 4 Spielfindung, 4.4 Hochzeit, 6 Ansagen
und Absagen, 7.1 Gewinnstufen, 7.2 Spielwerte, 9 Regelverstöße und Strafpunkte).

Decisions where the texts are silent:

- Strafen: neither the seed nor the spec gives amounts, DDV 9 leaves them to the
  Schiedsgericht. A Strafe deducts 1 to 50 points from one player's total: more than an
  ordinary game is worth, a guard against typing errors rather than a rule.
- What a refusal cites (``ARTICLES``, by rule set; docs/doppelkopf.md: "TCG n, DDV, or the
  protocol format", a DDV match never a TCG rule): Strafen, Verwarnungen and
  Disqualifikationen DDV 9 (Regelverstöße und Strafpunkte; the seed has none, so a TCG
  table follows the DDV here too); the players at the table TCG Allgemeines or the
  DDV ruling of five at a table; the Protokollant, annulments and the end the protocol
  format (neither text speaks of them).
- Five players: the dealer sits out (TCG Allgemeines) under both rule sets. The dealer's
  rotation is not enforced (a Pflichtsolo or a new deal keeps the dealer; the Protokollant
  records who dealt).
- A Hochzeit with a one-player Re party is the Hochzeit whose partner was not found after
  3 tricks: scored as a solo (TCG Vorbehalt e; DDV 4.4); under TCG like a Trumpfsolo.
  A stille Hochzeit is a solo under both rule sets (TCG 6: as a Trumpfsolo).
- An Abgabe is a TCG Vorbehalt (c); the DDV-Turnierspielregeln have none, so it is an error
  under DDV rules.
- Special points recorded in a game where they don't count (DDV solos, TCG Damen- and
  Bubensolo) are accepted and ignored; the explanation says so.
- Impossible card points are errors: under TCG (40 cards, no nines) every trick has at least
  8 points, so a party has 0 or at least 8 and a party with 0 took no trick (schwarz);
  under DDV no party has 1 point. A party's Doppelköpfe need 40 points each.
- A game recorded as annulled may leave out everything else (a misdeal); it scores 0.
- See protocol/games/doppelkopf/rules/scoring.py for the scoring decisions (TCG both-miss,
  TCG 3's scope, gegen die Alten in TCG solos, the revoke).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from protocol.rules.annulment import FORMAT_RULE
from protocol.rules.base import Examples, Problems
from protocol.rules.match import ARTICLE_KEYS, PenaltyRules
from protocol.rules.scores import POINTS_ONLY, SCORES, facts_with_scores
from protocol.rules.tally import ANNUL_KEYS, GameResult, TallyRuleset, read_annulment
from protocol.rules.words import N_, Text

from . import contests, points_only
from .game import GAME_KEYS, TABLE_RULE, Deal, read_deal
from .scoring import Outcome, score
from .settings import DEFAULT_RULES, MAX_PLAYERS, MIN_PLAYERS, RULES, Settings, default_settings, read_settings

PENALTY_MIN, PENALTY_MAX = 1, 50  # see the docstring: a guard, the texts give no amount
SANCTIONS_RULE = N_("DDV-Turnierspielregeln 9")  # Regelverstöße und Strafpunkte
PENALTY_ARTICLES = {"tcg": N_("DDV-Turnierspielregeln 9: Strafpunkte; die TCG-Regeln nennen keine"),
                    "ddv": N_("DDV-Turnierspielregeln 9: Strafpunkte")}
_SHARED = {"scorekeeper": FORMAT_RULE, "reason": SANCTIONS_RULE, "annul": FORMAT_RULE, "end": FORMAT_RULE,
           "penalty": SANCTIONS_RULE, "warning": SANCTIONS_RULE, "disqualification": SANCTIONS_RULE}
# What each refusal cites, by the rules the table plays (see the docstring).
ARTICLES = {rules: _SHARED | {"players": TABLE_RULE[rules]} for rules in RULES}


class Doppelkopf(TallyRuleset):
    key = "doppelkopf"
    name = "Doppelkopf"
    rating_results = N_("Jedes Spiel ist ein Ergebnis: Re gegen Kontra (zwei gegen zwei, ein Solist gegen drei), so "
                        "wie die Parteien eingetragen sind. Ein Spiel, nur als Punkte eingetragen, zählt, wenn die "
                        "Punkte die Parteien zeigen; ein Spiel, das keine Partei gewinnt, ist Gleichstand.")
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    table_sizes = (4, 5)  # TCG Allgemeines: with five at a table the dealer sits out
    line_fields = ()  # a deal is one body: type, parties, points, announcements
    standings_figures = ()
    rule_variants = RULES  # TCG house rules or DDV
    default_variant = DEFAULT_RULES
    tournament_formats: dict[str, tuple[int, int]] = {}
    rating_settles_after = 40  # Spiele: each says less than a whole Partie ranked (league.ratings)
    position_minutes: dict[int, int] = {}
    penalty_bounds = (PENALTY_MIN, PENALTY_MAX)
    penalty_article = PENALTY_ARTICLES[DEFAULT_RULES]
    # the citations both rule sets share (what a page names before it knows the match's rules)
    sanction_articles = {kind: SANCTIONS_RULE for kind in ("penalty", "warning", "disqualification")}
    articles = {key: value for key, value in ARTICLES["tcg"].items()
                if key in ARTICLE_KEYS and ARTICLES["ddv"][key] == value}
    examples = Examples(
        annulled_game={"annulled": True},
        # 241 Augen of 240 (TCG Allgemeines: 40 Karten mit 240 Augen)
        refused_game={"type": "normal", "dealer": "Anna", "re": ["Anna", "Bernd"], "re_points": 241},
        refused_field="re_points", refused_article="TCG-Regeln, Allgemeines",
        # a list's line: Anna and Bernd won a game worth 2
        points_game={"dealer": "Anna", "scores": {"Anna": 2, "Bernd": 2, "Carla": -2, "Dieter": -2}},
        # the winners get what the losers pay (TCG 6): this line sums to 1
        refused_points={"scores": {"Anna": 2, "Bernd": 2, "Carla": -2, "Dieter": -1}},
        refused_points_article="TCG 6")

    def article(self, key: str, settings: Any = None) -> str:
        """The rule cited by the rules the table plays (``settings``: read or raw)."""
        return ARTICLES[_rules_of(settings)].get(key, "")

    def penalties_for(self, settings: Any) -> PenaltyRules:
        return replace(self.penalties, article=PENALTY_ARTICLES[_rules_of(settings)])

    def default_settings(self, players: list[str]) -> dict[str, Any]:
        return default_settings()

    def read_settings(self, data: Any, players: list[str], problems: Problems) -> Settings | None:
        return read_settings(data, players, problems)

    def contests(self, match) -> list:
        """Each game of a finished match, Re against Kontra (contests.py)."""
        return contests.contests(match)

    def read_game(self, event_index: int, data: Any, players: list[str], settings: Settings,
                  problems: Problems) -> GameResult | None:
        if not isinstance(data, dict):
            problems.add(event_index, None, None, N_("Ein Spiel muss ein Objekt sein."))
            return None
        annulled, reason = read_annulment(data, event_index, problems)
        if annulled and not set(data) - ANNUL_KEYS:
            # a deal annulled before it was played out (e.g. a misdeal): 0 for all
            annulled_text = Text(N_("Spiel annulliert: %(reason)s."), reason=reason) if reason else N_("Spiel annulliert.")
            return GameResult({p: 0 for p in players}, annulled_text, {"winner": None, "value": 0}, True)
        if SCORES in data:
            return _points_only(event_index, data, players, settings, problems, annulled)
        deal = read_deal(data, players, settings, event_index, problems)
        if deal is None:
            return None
        outcome = score(deal)
        return GameResult(outcome.scores, outcome.explanation,
                          {"winner": outcome.winner, "value": outcome.value}, annulled)


def _points_only(index: int, data: dict, players: list[str], settings: Settings, problems: Problems,
                 annulled: bool) -> GameResult | None:
    """A game recorded as points only (points_only.py): its scores as far as the rules check them."""
    errors = facts_with_scores(data, GAME_KEYS, points_only.KEYS, FORMAT_RULE)
    for key in sorted(set(data) - GAME_KEYS - ANNUL_KEYS - {SCORES}, key=str):
        errors.append((None, key, Text(N_("Unbekanntes Feld %(key)r in einem Doppelkopf-Spiel."), key=key)))
    scores = points_only.check_scores(data, players, settings, FORMAT_RULE, errors)
    for player, field, message in errors:
        problems.add(index, player, field, message)
    if errors or scores is None:
        return None
    return GameResult(scores, points_only.POINTS_ONLY, {POINTS_ONLY: True}, annulled)


def _rules_of(settings: Any) -> str:
    """"tcg" or "ddv" of the match's settings (read, or raw as the document has them); the
    default where they don't say (or say nothing valid: that is refused on its own)."""
    rules = settings.rules if isinstance(settings, Settings) else (
        settings.get("rules") if isinstance(settings, dict) else None)
    return rules if isinstance(rules, str) and rules in RULES else DEFAULT_RULES


RULESET = Doppelkopf()

__all__ = ["RULESET", "Deal", "Doppelkopf", "Outcome", "Settings"]
