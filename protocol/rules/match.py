"""The match engine every game shares, so that no game knows a rule twice: one event loop for Chaotentrumpf,
Doppelkopf and Tarot.

The engine reads the envelope and the settings, then feeds the events one by one: games,
Strafen, Verwarnungen, Disqualifikationen, the end and the annulment of the match. What a
game has of its own it plugs in through :class:`GameRules` (the ruleset is that plug):

- ``read_settings``: the match settings (defaults filled in);
- ``new_match``: the computed match it starts from (its own :class:`Match` subclass, whose
  ``as_json`` is the protocol format's output);
- ``read_game``: one game body checked and scored (a :class:`PlayedGame`), for the players
  still at the table;
- ``after_game``: what follows each valid game that counts (Chaotentrumpf: the Obergrenze
  and the Stechen, Art. 17; the others: nothing);
- ``on_end``, ``after_disqualification``, ``on_finish``: how the match ends and what is
  derived once the events are fed;
- ``penalties`` (the Strafe's bounds), ``sanction_articles`` and ``articles`` (cited in the
  messages, each game from its own rule text: ``article``), ``end_reasons`` (the ``end``
  event's reasons with their labels), the players' count.

Vocabulary:

- *Stage*: the match itself (stage 0) or a Stechen (stage 1, 2, ...) of some of its players
  (Chaotentrumpf Art. 17b); a game of the other rulesets has only stage 0.
- *Sanction*: a Strafe (points deducted within the ruleset's bounds), a Verwarnung (0 points)
  or a Disqualifikation (0 points; the player plays no more), each after the game it follows,
  deducted from the stage under way if the player plays in it, else from stage 0.
- *Deciders*: the players who decided a Strafe or Disqualifikation (``decided_by``):
  players of this match, each once, never the accused nor a disqualified player.
- *Status*: ``running``, ``tiebreak`` (a Stechen is under way), ``finished`` or ``annulled``.

Every rule that the forms, the imports and the transcription refuse is refused here, so that
no way in stores what another refuses: the reasons of sanctions and annulments, the deciders, the penalty bounds.

Pure Python, no Django.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from .annulment import match_annulment_problem
from .base import Evaluation, Problems, is_int
from .contests import Contest, ranked_by_totals
from .envelope import Envelope, past_the_last_entry, read_envelope, single_key
from .text import reason_problem
from .words import N_, Text, joined

EVENT_KINDS = ("game", "penalty", "warning", "disqualification", "end", "annul_match")
UNKNOWN_EVENT = N_("Unbekanntes Ereignis: erlaubt sind game, penalty, warning, "
                   "disqualification, end und annul_match, je eines pro Eintrag.")
SANCTION_KINDS = ("penalty", "warning", "disqualification")
# What a game's ``articles`` name (GameRules.article), each the rule its refusals cite:
ARTICLE_KEYS = {
    "scorekeeper": "the Protokollant is one of the players",
    "players": "how many play (and how few may go on after a disqualification)",
    "reason": "a sanction names its reason",
    "annul": "an annulment (of a game or of the match) names its reason; nothing follows the match's",
    "end": "the end's reasons; nothing follows the end",
}
TALLY_END_REASONS = {  # the ``end`` event of a game without an Obergrenze (Doppelkopf, Tarot)
    "time": N_("Zeitbegrenzung"),
    "agreed": N_("vereinbartes Ende"),
    "games": N_("Spielanzahl der Runde erreicht"),
}


def _where(article: str) -> str:
    return Text(" (%(article)s)", article=article) if article else ""


def exceeds(total: int, limit: int | None) -> bool:
    """Whether ``total`` is over the Obergrenze ``limit`` (Art. 17a: exceeded, not reached);
    never for a game without one."""
    return limit is not None and total > limit


@dataclass
class Stage:
    """The match itself (depth 0) or a Stechen of some of its players (depth 1, 2, ...)."""

    depth: int
    players: list[str]
    limit: int | None  # the Obergrenze to exceed; None for a game without one
    totals: dict[str, int]
    opened_after_game: int | None = None
    opened_by_event: int | None = None  # the event (a game or the end) that opened it
    winner: str | None = None

    def points_to_win(self, player: str) -> int:
        """Points the player still needs to *exceed* the stage's Obergrenze (Art. 17a)."""
        return max(0, (self.limit or 0) + 1 - self.totals[player])

    def as_json(self) -> dict[str, Any]:
        return {"stage": self.depth, "players": list(self.players), "limit": self.limit,
                "winner": self.winner, "totals": dict(self.totals),
                "after_game": self.opened_after_game}


@dataclass
class Sanction:
    """A Strafe, Verwarnung or Disqualifikation as recorded, the same shape for every game."""

    kind: str  # penalty | warning | disqualification
    player: str
    points: int  # deducted from the player's total (0 for a warning or disqualification)
    reason: str
    after_game: int  # the number of games recorded before it
    event: int
    decided_by: list[str] = field(default_factory=list)
    stage: int = 0  # the stage whose total it was deducted from

    def as_json(self) -> dict[str, Any]:
        return {"after_game": self.after_game, "player": self.player, "points": self.points,
                "kind": self.kind, "reason": self.reason, "stage": self.stage}


@dataclass
class Match:
    """The match as the engine computes it from its events; each game subclasses it for its
    own output (``as_json``) and derived facts."""

    envelope: Envelope
    settings: Any
    stages: list[Stage] = field(default_factory=list)
    games: list[Any] = field(default_factory=list)  # the game's records, each a PlayedGame
    sanctions: list[Sanction] = field(default_factory=list)
    disqualified: list[str] = field(default_factory=list)
    status: str = "running"  # running | tiebreak | finished | annulled
    winner: str | None = None
    ended_by: str | None = None  # an end reason of the game, or "annulled"
    end_event: dict | None = None
    annulment_reason: str = ""

    @property
    def players(self) -> list[str]:
        return self.envelope.players

    @property
    def totals(self) -> dict[str, int]:
        return self.stages[0].totals

    @property
    def active_players(self) -> list[str]:
        """The players who are not disqualified, in seating order."""
        return [p for p in self.envelope.players if p not in self.disqualified]

    @property
    def current_stage(self) -> Stage | None:
        """The stage the next game belongs to, None once the match is over."""
        if self.status in ("finished", "annulled"):
            return None
        return self.stages[-1]

    @property
    def next_players(self) -> list[str]:
        stage = self.current_stage
        return [p for p in stage.players if p not in self.disqualified] if stage else []

    @property
    def tiebreaks(self) -> list[Stage]:
        return self.stages[1:]

    def fork(self) -> Match:
        """A copy to feed on that leaves this match as it is (:meth:`Engine.fork`): the
        records of the games and sanctions so far are shared (the engine never changes a
        record once it is made), what feeding changes is copied: the lists, the stages with
        their totals, and the scalars (a game's own fields among them)."""
        twin = copy.copy(self)
        twin.stages = [replace(s, players=list(s.players), totals=dict(s.totals)) for s in self.stages]
        twin.games, twin.sanctions, twin.disqualified = list(self.games), list(self.sanctions), list(self.disqualified)
        return twin


class PlayedGame(Protocol):
    """What a game's ``play_game`` returns: its record, with ``number`` (from 1), ``stage``
    (its depth), ``points`` (the points of each player it scores, None when the game is
    invalid), ``annulled``, ``points_only`` and ``totals`` (set by the engine: the running totals of its
    stage after it)."""

    number: int
    stage: int
    points: dict[str, int] | None
    annulled: bool
    totals: dict[str, int]
    points_only: bool  # recorded as points only (scores.py): the facts behind the points are unknown

    def took_trump_bonus(self, player: str) -> bool:
        """Whether the player's score includes a Trumpfwertung (Chaotentrumpf Art. 15)."""

    def as_json(self) -> dict[str, Any]:
        """The game as the protocol format's output writes it."""


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
        step = Text(N_(" in Schritten von %(step)s"), step=self.step) if self.step else ""
        return Text(N_("Eine Strafe beträgt %(low)s bis %(high)s Punkte Abzug%(step)s%(where)s, nicht %(points)r."),
                    low=self.low, high=self.high, step=step, where=_where(self.article), points=points)


class GameRules:
    """What a game plugs into the engine; the defaults are those of a game without an
    Obergrenze (the table plays its games, an ``end`` event finishes the match).

    Attributes: ``key`` (the protocol's ``ruleset`` value), ``name``, ``min_players``,
    ``max_players``, ``table_sizes`` (a tournament's tables), ``penalties``
    (:class:`PenaltyRules`), ``sanction_articles`` (the article cited for a ``penalty``,
    ``warning`` or ``disqualification``), ``articles`` (the article cited for each key of
    ARTICLE_KEYS), ``end_reasons`` (the ``end`` event's reasons and their labels).
    Every refusal cites a rule of its own game (``article``), never another game's.
    """

    key: str = ""
    name: str = ""
    min_players: int = 2
    max_players: int = 10
    table_sizes: tuple[int, ...] = (4,)  # the players at a tournament table, the preferred size first
    penalties: PenaltyRules = PenaltyRules(1, 100)
    sanction_articles: dict[str, str] = {}
    articles: dict[str, str] = {}
    end_reasons: dict[str, str] = TALLY_END_REASONS
    # A rating (league.ratings) is provisional until it rests on this many contests (contests.py):
    # Partien where the whole table is ranked; a game of sides, with less said by each Spiel, more.
    rating_settles_after: int = 10
    # What one result of the rating is in this game, for the page that explains it (contests.py).
    rating_results: str = N_("Jede beendete Partie ist ein Ergebnis: der Sieger zuerst, dann alle nach ihrer "
                             "Gesamtpunktzahl; gleiche Punktzahl ist Gleichstand.")

    # -- what a game must say ------------------------------------------------------------
    def read_settings(self, data: Any, players: list[str], problems: Problems) -> Any | None:
        """The settings (defaults filled in), or None with problems added (event None)."""
        raise NotImplementedError

    def new_match(self, env: Envelope, settings: Any) -> Match:
        """The computed match before its first event."""
        raise NotImplementedError

    def play_game(self, engine: Engine, index: int, body: Any, players: list[str]) -> PlayedGame:
        """The record of one game (event ``index``) for ``players`` (those of the stage
        under way who are not disqualified); problems go to ``engine.problems``."""
        raise NotImplementedError

    # -- what a game may change ----------------------------------------------------------
    def after_game(self, engine: Engine, game: PlayedGame, stage: Stage) -> None:
        """After each valid game that counts (not annulled), its points added to ``stage``."""

    def on_end(self, engine: Engine, index: int, reason: str) -> None:
        """The ``end`` event (its reason one of ``end_reasons``) of a match not yet finished."""
        engine.match.status, engine.match.ended_by = "finished", reason

    def after_disqualification(self, engine: Engine, player: str) -> None:
        """After ``player`` was disqualified."""

    def on_finish(self, engine: Engine) -> None:
        """Derive what the match says once the events fed so far are in."""

    def contests(self, match: Match) -> list[Contest]:
        """The results of a computed match a rating reads (protocol/rules/contests.py): by
        default the finished match as one ranking by its totals; a game of sides says its own."""
        return ranked_by_totals(match)

    def article(self, key: str, settings: Any = None) -> str:
        """The rule a refusal of ``key`` cites (ARTICLE_KEYS, or a sanction's kind), "" where
        the game names none. ``settings``: the match's settings as read, or the document's
        raw ``settings`` (the envelope is read before them), for a game whose citations
        depend on the rules its table plays (Doppelkopf: TCG or DDV)."""
        if key in SANCTION_KINDS:
            return self.sanction_articles.get(key, "")
        return self.articles.get(key, "")

    def penalties_for(self, settings: Any) -> PenaltyRules:
        """What a Strafe may deduct in a match with these settings (``penalties`` unless the
        game's citation depends on them)."""
        return self.penalties

    def closed_message(self, match: Match) -> str:
        """Why no game can follow a finished match."""
        return Text(N_("Die Partie ist beendet; weitere Spiele sind nicht möglich%(where)s."),
                    where=_where(self.article("end", match.settings)))

    def already_ended_message(self, match: Match) -> str:
        """Why a finished match takes no second end."""
        return Text(N_("Die Partie ist bereits beendet%(where)s."), where=_where(self.article("end", match.settings)))

    def end_reason_message(self, settings: Any = None) -> str:
        names = joined(", ", [Text('"%(key)s" (%(label)s)', key=k, label=v) for k, v in self.end_reasons.items()])
        return Text(N_("Das Ende braucht einen Grund: %(names)s%(where)s."), names=names,
                    where=_where(self.article("end", settings)))

    # -- the engine ------------------------------------------------------------------------
    def evaluate(self, document: Any) -> Evaluation:
        """Check a whole protocol document and, if it is valid, compute the match."""
        engine, problems = self.start(document)
        return Evaluation(problems.errors, engine.finish() if engine else None)

    def start(self, document: Any) -> tuple[Engine | None, Problems]:
        """An Engine of the document with its events fed (None if the envelope or the
        settings are wrong); the caller feeds more with ``engine.feed(event)`` and reads
        ``problems`` (every error so far) and ``engine.finish()`` (the match so far)."""
        problems = Problems()
        raw_settings = document.get("settings") if isinstance(document, dict) else None
        env = read_envelope(document, self.key, self.min_players, self.max_players, problems,
                            {key: self.article(key, raw_settings) for key in ("players", "scorekeeper")})
        settings = self.read_settings(env.settings, list(env.players), problems) if env else None
        if settings is None:
            return None, problems
        engine = Engine(self, env, settings, problems)
        for event in env.events:
            engine.feed(event)
        return engine, problems


class Engine:
    """Feeds the events of one match one by one (``GameRules.start`` runs a document)."""

    def __init__(self, rules: GameRules, env: Envelope, settings: Any, problems: Problems) -> None:
        self.rules, self.env, self.settings, self.problems = rules, env, settings, problems
        self.match = rules.new_match(env, settings)
        self.fed = 0

    def feed(self, event: Any) -> None:
        """Take the next event (its index is the number of events fed before it)."""
        index = self.fed
        self.fed += 1
        if past_the_last_entry(index, self.problems):  # a Partie's length (envelope.MAX_EVENTS)
            return
        kind, body = single_key(event)
        if kind not in EVENT_KINDS:
            self.problems.add(index, None, None, UNKNOWN_EVENT)
        elif self.match.status == "annulled":
            self.problems.add(index, None, None, Text(
                N_("Nach der Annullierung der Partie wird nichts mehr eingetragen%(where)s."), where=self._article("annul")))
        else:
            getattr(self, f"_on_{kind}")(index, body)

    def fork(self) -> Engine:
        """An engine to feed more events into that leaves this one (and the match it
        finished) untouched, whatever the events are; it shares the records of the events
        fed so far, so forking a long match costs a few list copies, not a replay or a deep
        copy. Many forks of one engine may be made and fed, one after another or at once."""
        twin = copy.copy(self)
        twin.env = copy.copy(self.env)  # its ``events`` may be replaced (protocol.recording)
        twin.problems = self.problems.fork()
        twin.match = self.match.fork()
        if self.match.envelope is self.env:  # the match reads its envelope: the twin's
            twin.match.envelope = twin.env
        return twin

    def finish(self) -> Match:
        """The match as it stands after the events fed so far."""
        self.rules.on_finish(self)
        return self.match

    def _article(self, key: str) -> str:
        return _where(self.rules.article(key, self.settings))

    # -- games ------------------------------------------------------------------------------
    def _on_game(self, index: int, body: Any) -> None:
        m = self.match
        if m.status == "finished":
            self.problems.add(index, None, None, self.rules.closed_message(m))
            return
        stage = m.stages[-1]
        players = [p for p in stage.players if p not in m.disqualified]
        game = self.rules.play_game(self, index, body, players)
        m.games.append(game)
        counts = game.points is not None and not game.annulled
        if counts:
            for player, points in game.points.items():
                stage.totals[player] += points
        game.totals = dict(stage.totals)
        if counts:
            self.rules.after_game(self, game, stage)

    # -- sanctions --------------------------------------------------------------------------
    def _sanction_basics(self, index: int, kind: str, body: Any, keys: set[str]) -> tuple[str, str] | None:
        if not isinstance(body, dict) or not set(body) <= keys or "player" not in body:
            fields = ", ".join(sorted(keys))
            self.problems.add(index, None, None, Text(N_("Dieses Ereignis braucht die Felder %(fields)s."), fields=fields))
            return None
        player, reason = body["player"], body.get("reason")
        ok = True
        if player not in self.env.players:
            self.problems.add(index, None, "player", Text(N_("%(player)r spielt in dieser Partie nicht mit%(where)s."),
                                                          player=player, where=self._article(kind)))
            ok = False
        if not isinstance(reason, str) or not reason.strip():
            self.problems.add(index, player if ok else None, "reason",
                              Text(N_("Ein Grund muss angegeben werden%(where)s."), where=self._article("reason")))
            ok = False
        elif problem := reason_problem(reason):
            self.problems.add(index, player if ok else None, "reason", problem)
            ok = False
        return (player, reason.strip()) if ok else None

    def _deciders(self, index: int, kind: str, player: str, body: dict) -> list[str] | None:
        return read_deciders(body, player, self.env.players, self.match.disqualified, index, self.problems,
                             self.rules.article(kind, self.settings))

    def _on_penalty(self, index: int, body: Any) -> None:
        basics = self._sanction_basics(index, "penalty", body, {"player", "points", "reason", "decided_by"})
        if basics is None:
            return
        player, reason = basics
        points, penalties = body.get("points"), self.rules.penalties_for(self.settings)
        ok = penalties.allows(points)
        if not ok:
            self.problems.add(index, player, "points", penalties.message(points))
        deciders = self._deciders(index, "penalty", player, body)
        if ok and deciders is not None:
            self._record(index, "penalty", player, points, reason, deciders)

    def _on_warning(self, index: int, body: Any) -> None:
        basics = self._sanction_basics(index, "warning", body, {"player", "reason"})
        if basics:
            player, reason = basics
            self._record(index, "warning", player, 0, reason)

    def _on_disqualification(self, index: int, body: Any) -> None:
        basics = self._sanction_basics(index, "disqualification", body, {"player", "reason", "decided_by"})
        if basics is None:
            return
        player, reason = basics
        if player in self.match.disqualified:
            self.problems.add(index, player, "player", Text(N_("%(player)s ist bereits disqualifiziert%(where)s."),
                                                            player=player, where=self._article("disqualification")))
            return
        deciders = self._deciders(index, "disqualification", player, body)
        if deciders is not None:
            self._record(index, "disqualification", player, 0, reason, deciders)
            self.match.disqualified.append(player)
            self.rules.after_disqualification(self, player)

    def _record(self, index: int, kind: str, player: str, points: int, reason: str,
                deciders: list[str] | None = None) -> None:
        m = self.match
        stage = m.stages[0]
        if m.current_stage is not None and player in m.current_stage.players:
            stage = m.current_stage  # the stage under way, if he plays in it
        stage.totals[player] -= points
        m.sanctions.append(Sanction(kind, player, points, reason, len(m.games), index,
                                    list(deciders or []), stage.depth))

    # -- end of the match -------------------------------------------------------------------
    def _on_end(self, index: int, body: Any) -> None:
        m = self.match
        reason = body.get("reason") if isinstance(body, dict) else None
        if (not isinstance(body, dict) or set(body) != {"reason"} or not isinstance(reason, str)
                or reason not in self.rules.end_reasons):
            self.problems.add(index, None, "reason", self.rules.end_reason_message(self.settings))
            return
        if m.status == "finished":
            self.problems.add(index, None, None, self.rules.already_ended_message(m))
            return
        m.end_event = body
        self.rules.on_end(self, index, reason)

    def _on_annul_match(self, index: int, body: Any) -> None:
        m = self.match
        if problem := match_annulment_problem(body, self.rules.article("annul", self.settings)):
            self.problems.add(index, None, "reason", problem)
            return
        m.status, m.winner, m.ended_by = "annulled", None, "annulled"
        m.annulment_reason = body["reason"].strip()
        for stage in m.stages:
            stage.winner = None


def read_deciders(body: dict, player: str, players: list[str], disqualified: list[str], index: int,
                  problems: Problems, article: str = "") -> list[str] | None:
    """``decided_by`` of a Strafe or Disqualifikation: players of this match, each once, not
    the accused and not disqualified (they are no longer at the table); None with a problem
    added otherwise. An empty list is allowed (the Protokollant alone recorded it)."""
    deciders: Any = body.get("decided_by", [])
    if (not isinstance(deciders, list) or any(d not in players for d in deciders)
            or len(set(deciders)) != len(deciders)):
        problems.add(index, player, "decided_by",
                     Text(N_("Entschieden haben Spieler dieser Partie, jeder einmal%(where)s."), where=_where(article)))
        return None
    if player in deciders:
        problems.add(index, player, "decided_by",
                     Text(N_("%(player)s ist beschuldigt und entscheidet nicht über sich selbst mit%(where)s."),
                          player=player, where=_where(article)))
        return None
    if gone := [d for d in deciders if d in disqualified]:
        problems.add(index, player, "decided_by",
                     Text(N_("%(players)s ist disqualifiziert und entscheidet nicht mehr mit%(where)s."),
                          players=", ".join(gone), where=_where(article)))
        return None
    return list(deciders)


def leader(totals: dict[str, int], players: list[str]) -> str | None:
    """The one player with the highest total, None on a tie for first (or nobody left)."""
    if not players:
        return None
    top = max(totals[p] for p in players)
    leaders = [p for p in players if totals[p] == top]
    return leaders[0] if len(leaders) == 1 else None
