"""A match without an Obergrenze: the table plays its games and the totals are kept.

Doppelkopf and Tarot are such games (docs/protocol-format.md, "Other rulesets"): a match
runs for the games the table plays (a tournament round, a Tarot position) and ends with an
``{"end": {"reason": ...}}`` event. This module is what such a game plugs into the match
engine (:mod:`.match`); a ruleset only says what one game scores.

Vocabulary:

- *Tally*: the running totals of a match, game by game, penalties included.
- *GameResult*: what a ruleset's ``read_game`` makes of one valid game: the score of every
  player it was given (0 for one sitting out), a German explanation, ruleset-specific output
  keys (``extra``) and whether the game was recorded as annulled.
- *Annulled game*: it keeps its computed scores (the sheet shows them struck through), but
  no total includes them.
- *Sanction*: a penalty (points deducted from one player's total, within the ruleset's
  bounds), a warning (0 points) or a disqualification (0 points; the player plays no more),
  each placed after the game it follows.
- *Status*: ``running`` until an ``end`` event (``finished``) or ``annul_match``
  (``annulled``).
- *Winner*: once finished, the player with the highest total, disqualified players left
  out. A tie for first has no winner (None): the rulesets name no Stechen, and a league
  ranks by its own measures (Doppelkopf TCG: points per game), so the tie stays visible
  rather than being broken by seating order.

Disqualified players are left out of the ``players`` a ruleset's ``read_game`` receives
(they score 0 from then on; the ruleset rejects a game that names them). When fewer than the
ruleset's minimum remain, every further game is an error.

Pure Python, no Django: rulesets subclass :class:`TallyRuleset` and
implement ``read_settings`` and ``read_game``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .annulment import ANNUL_KEYS, FORMAT_RULE, read_game_annulment
from .base import Evaluation, Problems
from .envelope import Envelope
from .match import EVENT_KINDS, TALLY_END_REASONS, Engine, GameRules, Match, PenaltyRules, Sanction, Stage, leader
from .scores import POINTS_ONLY
from .words import N_, Text

END_REASONS = TALLY_END_REASONS


@dataclass
class GameResult:
    """What a ruleset's ``read_game`` returns for one valid game."""

    scores: dict[str, int]  # per player it was given (0 for one sitting out)
    explanation: str  # German, each component of the score
    extra: dict[str, Any]  # ruleset-specific output keys merged into the game's JSON
    annulled: bool = False  # recorded as annulled: keeps its scores, no total includes them


ReadSettings = Callable[[Any, list[str], Problems], Any]
ReadGame = Callable[[int, Any, list[str], Any, Problems], "GameResult | None"]


@dataclass
class TallyGame:
    """One game of the match as recorded and computed; ``scores`` is None when invalid."""

    number: int
    event: int
    scores: dict[str, int] | None
    totals: dict[str, int]  # the running totals after it, penalties so far included
    annulled: bool
    explanation: str
    extra: dict[str, Any]
    data: Any  # the game's body as recorded

    @property
    def annul_reason(self) -> str:
        reason = self.data.get("annul_reason", "") if isinstance(self.data, dict) else ""
        return reason.strip() if isinstance(reason, str) else ""

    stage = 0  # a game without an Obergrenze has no Stechen

    @property
    def points(self) -> dict[str, int] | None:
        return self.scores

    @property
    def points_only(self) -> bool:
        return bool(self.extra.get(POINTS_ONLY))

    def took_trump_bonus(self, player: str) -> bool:
        return False  # the Trumpfwertung is Chaotentrumpf's (Art. 15)

    def as_json(self) -> dict[str, Any]:
        return {"number": self.number, "scores": dict(self.scores) if self.scores is not None else None,
                "totals": dict(self.totals), "annulled": self.annulled,
                "explanation": self.explanation, **self.extra}


@dataclass
class TallyMatch(Match):
    """The match as computed from its events: one stage, no Obergrenze; ``status`` is
    running, finished or annulled, ``ended_by`` an END_REASONS key or "annulled"."""

    @property
    def counted_games(self) -> list[TallyGame]:
        """The valid games that count (not annulled)."""
        return [g for g in self.games if g.scores is not None and not g.annulled]

    @property
    def ended_by_label(self) -> str:
        return ended_by_label(self.ended_by)

    def as_json(self) -> dict[str, Any]:
        settings = self.settings.as_json() if hasattr(self.settings, "as_json") else self.settings
        return {
            "ruleset": self.envelope.ruleset,
            "settings": settings,
            "games": [g.as_json() for g in self.games],
            "penalties": [s.as_json() for s in self.sanctions],
            "totals": dict(self.totals),
            "status": self.status,
            "winner": self.winner,
            "ended_by": self.ended_by,
            "disqualified": list(self.disqualified),
        }


def read_annulment(data: dict, index: int, problems: Problems, article: str = FORMAT_RULE) -> tuple[bool, str]:
    """The game's ``annulled`` flag and ``annul_reason``, for a ruleset's ``read_game``."""
    annulled, reason, errors = read_game_annulment(data, article)
    for field_name, message in errors:
        problems.add(index, None, field_name, message)
    return annulled, reason


def read_annulled_flag(data: Any) -> bool:
    """The ``annulled`` flag of a game that could not be read, as far as it can be told."""
    return isinstance(data, dict) and data.get("annulled") is True


def ended_by_label(ended_by: str | None) -> str:
    """What ended a tally match, for people: an END_REASONS label or the annulment."""
    if ended_by == "annulled":
        return N_("Partie annulliert")
    return END_REASONS.get(ended_by or "", "")


class TallyRuleset(GameRules):
    """Base of a ruleset without an Obergrenze: subclass it and implement the two readers.

    Class attributes: ``key`` (the protocol's ``ruleset`` value), ``name`` (what users
    read), ``min_players``, ``max_players``, ``penalty_bounds`` (least and most points of a
    Strafe), ``penalty_step`` (the points must be a multiple of it, or None) and
    ``penalty_article`` (the rule the bounds come from, cited in the error message).
    """

    penalty_bounds: tuple[int, int] = (1, 100)
    penalty_step: int | None = None
    penalty_article: str = ""

    @property
    def penalties(self) -> PenaltyRules:
        """What a Strafe may deduct (``penalty_bounds``, ``penalty_step``, ``penalty_article``)."""
        return PenaltyRules(self.penalty_bounds[0], self.penalty_bounds[1], self.penalty_step, self.penalty_article)

    @staticmethod
    def ended_by_label(ended_by: str | None) -> str:
        """What ended a match of this game (``Match.ended_by``), for people."""
        return ended_by_label(ended_by)

    def default_settings(self, players: list[str]) -> dict[str, Any]:
        """The match settings the rules prescribe for these players."""
        return {}

    def read_game(self, event_index: int, data: Any, players: list[str], settings: Any,
                  problems: Problems) -> GameResult | None:
        """One game checked and scored, or None with RuleErrors for ``event_index`` added."""
        raise NotImplementedError

    # -- the engine's plug (protocol/rules/match.py) -------------------------------------------
    def new_match(self, env: Envelope, settings: Any) -> TallyMatch:
        return TallyMatch(env, settings, stages=[Stage(0, list(env.players), None, {p: 0 for p in env.players})])

    def play_game(self, engine: Engine, index: int, body: Any, players: list[str]) -> TallyGame:
        """The game scored by ``read_game``; with fewer players left than a game needs, none."""
        m, problems = engine.match, engine.problems
        result = None
        if len(players) < self.min_players:
            gone = ", ".join(m.disqualified)
            article = self.article("players", engine.settings)
            problems.add(index, None, None, Text(N_(
                "Nach der Disqualifikation (%(gone)s) sind nur noch %(left)s Spieler übrig; "
                "ein Spiel braucht mindestens %(least)s%(where)s."), gone=gone, left=len(players), least=self.min_players,
                where=Text(" (%(article)s)", article=article) if article else ""))
        else:
            before = len(problems)
            result = self.read_game(index, body, list(players), engine.settings, problems)
            if result is not None and len(problems) > before:
                result = None  # a ruleset that reported an error scored nothing
            if result is not None and not set(result.scores) <= set(players):
                unknown = sorted(set(result.scores) - set(players))
                raise ValueError(f"read_game scored players it was not given: {unknown}")
        scores = {p: result.scores.get(p, 0) for p in engine.env.players} if result is not None else None
        return TallyGame(
            number=len(m.games) + 1, event=index, scores=scores, totals={},
            annulled=result.annulled if result else read_annulled_flag(body),
            explanation=result.explanation if result else "", extra=dict(result.extra) if result else {},
            data=body)

    def on_finish(self, engine: Engine) -> None:
        m = engine.match
        m.winner = leader(m.totals, m.active_players) if m.status == "finished" else None


class _TallyOf(TallyRuleset):
    """A tally ruleset made of two reader functions (``evaluate_tally``)."""

    def __init__(self, *, key: str, min_players: int, max_players: int, read_settings: ReadSettings,
                 read_game: ReadGame, penalty_bounds: tuple[int, int], penalty_step: int | None = None,
                 penalty_article: str = "") -> None:
        self.key, self.min_players, self.max_players = key, min_players, max_players
        self.read_settings, self.read_game = read_settings, read_game
        self.penalty_bounds, self.penalty_step, self.penalty_article = penalty_bounds, penalty_step, penalty_article


def evaluate_tally(document: Any, **rules: Any) -> Evaluation:
    """Check a whole protocol document of a tally ruleset given by its readers and bounds.

    ``read_settings(data, players, problems)`` returns the settings or None (with problems
    added, event None). ``read_game(event_index, game_data, players, settings, problems)``
    returns a GameResult or None (with RuleErrors for ``event_index`` added); ``players`` are
    the players who may still play, in seating order.
    """
    return _TallyOf(**rules).evaluate(document)


__all__ = ["ANNUL_KEYS", "END_REASONS", "EVENT_KINDS", "GameResult", "Sanction", "TallyGame", "TallyMatch",
           "TallyRuleset", "evaluate_tally", "leader", "read_annulment", "read_annulled_flag"]
