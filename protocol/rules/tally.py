"""A match without an Obergrenze: the table plays its games and the totals are kept.

Doppelkopf and Tarot are such games (docs/protocol-format.md, "Other rulesets"): a match
runs for the games the table plays (a tournament round, a Tarot position) and ends with an
``{"end": {"reason": ...}}`` event. This module is the match; a ruleset only says what one
game scores.

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

Pure Python, no Django: rulesets subclass :class:`TallyRuleset` and implement
``read_settings`` and ``read_game``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .base import Evaluation, Problems, is_int
from .envelope import Envelope, past_the_last_entry, read_envelope, single_key
from .text import REASON_MAX, reason_problem, text_problem

EVENT_KINDS = ("game", "penalty", "warning", "disqualification", "end", "annul_match")
END_REASONS = {
    "time": "Zeitbegrenzung",
    "agreed": "vereinbartes Ende",
    "games": "Spielanzahl der Runde erreicht",
}
ANNUL_KEYS = {"annulled", "annul_reason"}  # the keys every game may carry (read_annulment)


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

    def as_json(self) -> dict[str, Any]:
        return {"number": self.number, "scores": dict(self.scores) if self.scores is not None else None,
                "totals": dict(self.totals), "annulled": self.annulled,
                "explanation": self.explanation, **self.extra}


@dataclass
class Sanction:
    kind: str  # penalty | warning | disqualification
    player: str
    points: int  # deducted from the player's total (0 for a warning or disqualification)
    reason: str
    after_game: int  # the number of games recorded before it
    event: int
    decided_by: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        # The same shape as a Chaotentrumpf sanction; a tally has only stage 0.
        return {"after_game": self.after_game, "player": self.player, "points": self.points,
                "kind": self.kind, "reason": self.reason, "stage": 0}


@dataclass
class TallyMatch:
    """The match as computed from its events."""

    envelope: Envelope
    settings: Any
    totals: dict[str, int]
    games: list[TallyGame] = field(default_factory=list)
    sanctions: list[Sanction] = field(default_factory=list)
    disqualified: list[str] = field(default_factory=list)
    status: str = "running"  # running | finished | annulled
    winner: str | None = None
    ended_by: str | None = None  # an END_REASONS key, or "annulled"
    annulment_reason: str = ""

    @property
    def players(self) -> list[str]:
        return self.envelope.players

    @property
    def active_players(self) -> list[str]:
        """The players who may still play, in seating order."""
        return [p for p in self.envelope.players if p not in self.disqualified]

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


@dataclass(frozen=True)
class PenaltyRules:
    """What a ruleset allows as a penalty: points from ``low`` to ``high`` (a multiple of
    ``step`` if given); ``article`` is cited in the error message."""

    low: int
    high: int
    step: int | None = None
    article: str = ""

    def allows(self, points: Any) -> bool:
        return (is_int(points) and self.low <= points <= self.high
                and (not self.step or points % self.step == 0))

    def message(self, points: Any) -> str:
        step = f" in Schritten von {self.step}" if self.step else ""
        where = f" ({self.article})" if self.article else ""
        return f"Eine Strafe beträgt {self.low} bis {self.high} Punkte Abzug{step}{where}, nicht {points!r}."


def evaluate_tally(document: Any, *, key: str, min_players: int, max_players: int,
                   read_settings: ReadSettings, read_game: ReadGame,
                   penalty_bounds: tuple[int, int], penalty_step: int | None = None,
                   penalty_article: str = "") -> Evaluation:
    """Check a whole protocol document of a tally ruleset and compute the match.

    ``read_settings(data, players, problems)`` returns the settings or None (with problems
    added, event None). ``read_game(event_index, game_data, players, settings, problems)``
    returns a GameResult or None (with RuleErrors for ``event_index`` added); ``players`` are
    the players who may still play, in seating order.
    """
    tally, problems = start_tally(
        document, key=key, min_players=min_players, max_players=max_players,
        read_settings=read_settings, read_game=read_game, penalty_bounds=penalty_bounds,
        penalty_step=penalty_step, penalty_article=penalty_article)
    return Evaluation(problems.errors, tally.finish() if tally else None)


def start_tally(document: Any, *, key: str, min_players: int, max_players: int,
                read_settings: ReadSettings, read_game: ReadGame,
                penalty_bounds: tuple[int, int], penalty_step: int | None = None,
                penalty_article: str = "") -> tuple[Tally | None, Problems]:
    """A Tally with the document's events fed, to feed more one at a time (None if the
    envelope or the settings are wrong); ``problems`` holds every error so far."""
    problems = Problems()
    env = read_envelope(document, key, min_players, max_players, problems)
    settings = read_settings(env.settings, list(env.players), problems) if env else None
    if settings is None:
        return None, problems
    penalties = PenaltyRules(penalty_bounds[0], penalty_bounds[1], penalty_step, penalty_article)
    tally = Tally(env, settings, problems, read_game, penalties, min_players)
    for event in env.events:
        tally.feed(event)
    return tally, problems


class Tally:
    """Feeds events one by one into a TallyMatch; ``evaluate_tally`` runs a whole document."""

    def __init__(self, env: Envelope, settings: Any, problems: Problems, read_game: ReadGame,
                 penalties: PenaltyRules, min_players: int) -> None:
        self.env, self.settings, self.problems = env, settings, problems
        self.read_game, self.penalties, self.min_players = read_game, penalties, min_players
        self.match = TallyMatch(env, settings, {p: 0 for p in env.players})
        self.fed = 0

    def feed(self, event: Any) -> None:
        """Take the next event (its index is the number of events fed before it)."""
        index = self.fed
        self.fed += 1
        if past_the_last_entry(index, self.problems):
            return
        kind, body = single_key(event)
        if kind not in EVENT_KINDS:
            self.problems.add(index, None, None, (
                "Unbekanntes Ereignis: erlaubt sind game, penalty, warning, "
                "disqualification, end und annul_match, je eines pro Eintrag."))
        elif self.match.status == "annulled":
            self.problems.add(index, None, None, "Nach der Annullierung der Partie wird nichts mehr eingetragen.")
        else:
            getattr(self, f"_on_{kind}")(index, body)

    def finish(self) -> TallyMatch:
        """The match as it stands after the events fed so far."""
        m = self.match
        m.winner = leader(m.totals, m.active_players) if m.status == "finished" else None
        return m

    # -- games ------------------------------------------------------------------------------
    def _on_game(self, index: int, body: Any) -> None:
        m = self.match
        if m.status == "finished":
            self.problems.add(index, None, None, "Die Partie ist beendet; weitere Spiele sind nicht möglich.")
            return
        players = m.active_players
        result = None
        if len(players) < self.min_players:
            gone = ", ".join(m.disqualified)
            self.problems.add(index, None, None, (
                f"Nach der Disqualifikation ({gone}) sind nur noch {len(players)} Spieler übrig; "
                f"ein Spiel braucht mindestens {self.min_players}."))
        else:
            before = len(self.problems)
            result = self.read_game(index, body, list(players), self.settings, self.problems)
            if result is not None and len(self.problems) > before:
                result = None  # a ruleset that reported an error scored nothing
            if result is not None and not set(result.scores) <= set(players):
                raise ValueError(f"read_game scored players it was not given: {sorted(set(result.scores) - set(players))}")
        scores = None
        if result is not None:
            scores = {p: result.scores.get(p, 0) for p in self.env.players}
            if not result.annulled:
                for player, points in scores.items():
                    m.totals[player] += points
        m.games.append(TallyGame(
            number=len(m.games) + 1, event=index, scores=scores, totals=dict(m.totals),
            annulled=result.annulled if result else read_annulled_flag(body),
            explanation=result.explanation if result else "", extra=dict(result.extra) if result else {},
            data=body))

    # -- sanctions --------------------------------------------------------------------------
    def _sanction_basics(self, index: int, body: Any, keys: set[str]) -> tuple[str, str] | None:
        if not isinstance(body, dict) or not set(body) <= keys or "player" not in body:
            fields = ", ".join(sorted(keys))
            self.problems.add(index, None, None, f"Dieses Ereignis braucht die Felder {fields}.")
            return None
        player, reason = body["player"], body.get("reason")
        ok = True
        if player not in self.env.players:
            self.problems.add(index, None, "player", f"{player!r} spielt in dieser Partie nicht mit.")
            ok = False
        if not isinstance(reason, str) or not reason.strip():
            self.problems.add(index, player if ok else None, "reason", "Ein Grund muss angegeben werden.")
            ok = False
        elif problem := reason_problem(reason):
            self.problems.add(index, player if ok else None, "reason", problem)
            ok = False
        return (player, reason.strip()) if ok else None

    def _deciders(self, index: int, player: str, body: dict) -> list[str] | None:
        deciders = body.get("decided_by", [])
        if (not isinstance(deciders, list) or any(d not in self.env.players for d in deciders)
                or len(set(deciders)) != len(deciders)):
            self.problems.add(index, player, "decided_by", "Entschieden haben Spieler dieser Partie, jeder einmal.")
            return None
        if player in deciders:
            self.problems.add(index, player, "decided_by", f"{player} ist beschuldigt und entscheidet nicht über sich selbst mit.")
            return None
        return list(deciders)

    def _on_penalty(self, index: int, body: Any) -> None:
        basics = self._sanction_basics(index, body, {"player", "points", "reason", "decided_by"})
        if basics is None:
            return
        player, reason = basics
        points = body.get("points")
        ok = self.penalties.allows(points)
        if not ok:
            self.problems.add(index, player, "points", self.penalties.message(points))
        deciders = self._deciders(index, player, body)
        if ok and deciders is not None:
            self._record(index, "penalty", player, points, reason, deciders)

    def _on_warning(self, index: int, body: Any) -> None:
        basics = self._sanction_basics(index, body, {"player", "reason"})
        if basics:
            player, reason = basics
            self._record(index, "warning", player, 0, reason)

    def _on_disqualification(self, index: int, body: Any) -> None:
        basics = self._sanction_basics(index, body, {"player", "reason", "decided_by"})
        if basics is None:
            return
        player, reason = basics
        if player in self.match.disqualified:
            self.problems.add(index, player, "player", f"{player} ist bereits disqualifiziert.")
            return
        deciders = self._deciders(index, player, body)
        if deciders is not None:
            self._record(index, "disqualification", player, 0, reason, deciders)
            self.match.disqualified.append(player)

    def _record(self, index: int, kind: str, player: str, points: int, reason: str,
                deciders: list[str] | None = None) -> None:
        m = self.match
        m.totals[player] -= points
        m.sanctions.append(Sanction(kind, player, points, reason, len(m.games), index, list(deciders or [])))

    # -- end of the match -------------------------------------------------------------------
    def _on_end(self, index: int, body: Any) -> None:
        m = self.match
        reason = body.get("reason") if isinstance(body, dict) else None
        if not isinstance(body, dict) or set(body) != {"reason"} or not isinstance(reason, str) or reason not in END_REASONS:
            names = ", ".join(f'"{k}" ({v})' for k, v in END_REASONS.items())
            self.problems.add(index, None, "reason", f"Das Ende braucht einen Grund: {names}.")
            return
        if m.status == "finished":
            self.problems.add(index, None, None, "Die Partie ist bereits beendet.")
            return
        m.status, m.ended_by = "finished", reason

    def _on_annul_match(self, index: int, body: Any) -> None:
        m = self.match
        if (not isinstance(body, dict) or set(body) != {"reason"} or not isinstance(body["reason"], str)
                or not body["reason"].strip()):
            self.problems.add(index, None, "reason", "Die Annullierung der Partie braucht einen Grund.")
            return
        if problem := reason_problem(body["reason"]):
            self.problems.add(index, None, "reason", problem)
            return
        m.status, m.ended_by = "annulled", "annulled"
        m.annulment_reason = body["reason"].strip()


def leader(totals: dict[str, int], players: list[str]) -> str | None:
    """The one player with the highest total, None on a tie for first (or nobody left)."""
    if not players:
        return None
    top = max(totals[p] for p in players)
    leaders = [p for p in players if totals[p] == top]
    return leaders[0] if len(leaders) == 1 else None


def read_annulment(data: dict, index: int, problems: Problems) -> tuple[bool, str]:
    """The game's ``annulled`` flag and ``annul_reason``, for a ruleset's ``read_game``."""
    annulled = data.get("annulled", False)
    if not isinstance(annulled, bool):
        problems.add(index, None, "annulled", "„annulliert“ ist ja oder nein (true/false).")
        annulled = False
    reason = data.get("annul_reason", "")
    if not isinstance(reason, str):
        problems.add(index, None, "annul_reason", "Der Grund der Annullierung muss ein Text sein.")
        reason = ""
    elif problem := text_problem(reason, "Grund der Annullierung", max_length=REASON_MAX, multiline=True):
        problems.add(index, None, "annul_reason", problem)
        reason = ""
    return annulled, reason.strip()


def read_annulled_flag(data: Any) -> bool:
    """The ``annulled`` flag of a game that could not be read, as far as it can be told."""
    return isinstance(data, dict) and data.get("annulled") is True


def ended_by_label(ended_by: str | None) -> str:
    """What ended a tally match, for people: an END_REASONS label or the annulment."""
    if ended_by == "annulled":
        return "Partie annulliert"
    return END_REASONS.get(ended_by or "", "")


class TallyRuleset:
    """Base of a ruleset without an Obergrenze: subclass it and implement the two readers.

    Class attributes: ``key`` (the protocol's ``ruleset`` value), ``name`` (what users
    read), ``min_players``, ``max_players``, ``penalty_bounds`` (least and most points of a
    Strafe), ``penalty_step`` (the points must be a multiple of it, or None) and
    ``penalty_article`` (the rule the bounds come from, cited in the error message).
    """

    key: str = ""
    name: str = ""
    min_players: int = 2
    max_players: int = 10

    @staticmethod
    def ended_by_label(ended_by: str | None) -> str:
        """What ended a match of this game (``Match.ended_by``), for people."""
        return ended_by_label(ended_by)
    penalty_bounds: tuple[int, int] = (1, 100)
    penalty_step: int | None = None
    penalty_article: str = ""

    def default_settings(self, players: list[str]) -> dict[str, Any]:
        """The match settings the rules prescribe for these players."""
        return {}

    def read_settings(self, data: Any, players: list[str], problems: Problems) -> Any | None:
        """The settings (defaults filled in), or None with problems added (event None)."""
        raise NotImplementedError

    def read_game(self, event_index: int, data: Any, players: list[str], settings: Any,
                  problems: Problems) -> GameResult | None:
        """One game checked and scored, or None with RuleErrors for ``event_index`` added."""
        raise NotImplementedError

    def evaluate(self, document: Any) -> Evaluation:
        """Check a whole protocol document and, if it is valid, compute the match."""
        return evaluate_tally(document, **self._tally_rules())

    def start(self, document: Any) -> tuple[Tally | None, Problems]:
        """A Tally of the document with its events fed; the caller feeds more with
        ``tally.feed(event)`` and reads ``problems`` and ``tally.finish()`` (the match so far)."""
        return start_tally(document, **self._tally_rules())

    def _tally_rules(self) -> dict[str, Any]:
        return {"key": self.key, "min_players": self.min_players, "max_players": self.max_players,
                "read_settings": self.read_settings, "read_game": self.read_game,
                "penalty_bounds": self.penalty_bounds, "penalty_step": self.penalty_step,
                "penalty_article": self.penalty_article}
