"""The Partie derived from its events (Art. 4, 5, 17; SV; docs/chaotentrumpf.md).

Vocabulary:

- *Stage*: the Partie itself (stage 0) or a *Stechen* (tiebreak, stage 1, 2, ...) played
  from 0 by the players who exceeded the Obergrenze in the same Spiel, with Obergrenze
  50 x participants (Art. 17b), recursively.
- *Mischer* (shuffler): first the player left of the Protokollant, then clockwise each Spiel
  (Art. 5b), annulled Spiele included; the exempted Protokollant (Art. 5c) and disqualified
  players are skipped; in a Stechen only its players shuffle.
- *Sanction*: a Strafe (penalty, 100-1000 points, SV 3), a Verwarnung (warning, 0 points,
  SV 2) or a Disqualifikation, each after the Spiel it follows.

Everything here is derived from the recorded events; nothing is stored as the only truth.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..base import Problems, is_int
from ..envelope import Envelope, past_the_last_entry, single_key
from ..text import reason_problem
from .cards import decks_for_players
from .game import GameContext, check_game
from .inversion import Inversion
from .scoring import Line, Score
from .settings import Settings
from .trump import Trump

TIEBREAK_POINTS_PER_PLAYER = 50  # Art. 17b
PENALTY_MIN, PENALTY_MAX = 100, 1000  # SV 3
END_REASONS = {"time": "Zeitbegrenzung", "agreed": "vereinbartes Ende"}
ENDED_BY = {
    "limit": "Obergrenze überschritten (Art. 17a)",
    "tiebreak": "Stechen entschieden (Art. 17b)",
    "games": "Spielanzahl erreicht (Art. 17c)",
    "time": "Zeitbegrenzung (Art. 17c)",
    "agreed": "vereinbartes Ende (Art. 17c)",
    "disqualification": "nur ein Spieler übrig nach Disqualifikation (SV 3)",
    "annulled": "Partie annulliert (SV 4)",
}


@dataclass
class Stage:
    depth: int
    players: list[str]
    limit: int
    totals: dict[str, int]
    opened_after_game: int | None = None
    opened_by_event: int | None = None  # the event (a Spiel or the end) that opened it
    winner: str | None = None

    def points_to_win(self, player: str) -> int:
        """Points the player still needs to *exceed* the stage's Obergrenze (Art. 17a)."""
        return max(0, self.limit + 1 - self.totals[player])

    def as_json(self) -> dict[str, Any]:
        return {"stage": self.depth, "players": list(self.players), "limit": self.limit,
                "winner": self.winner, "totals": dict(self.totals),
                "after_game": self.opened_after_game}


@dataclass
class GameRecord:
    number: int
    event: int
    stage: int
    shuffler: str | None
    players: list[str]
    decks: int
    selection: dict | None
    selected_trump: Trump | None
    trump: Trump | None
    inversions: list[Inversion]
    lines: dict[str, Line] | None
    scores: dict[str, Score] | None
    totals: dict[str, int]
    annulled: bool
    annul_reason: str

    def as_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "stage": self.stage,
            "shuffler": self.shuffler,
            "selected_trump": self.selected_trump.as_json() if self.selected_trump else None,
            "trump": self.trump.as_json() if self.trump else None,
            "inversions": [inv.as_json() for inv in self.inversions],
            "scores": {p: s.points for p, s in self.scores.items()} if self.scores else None,
            "explanations": {p: s.explanation for p, s in self.scores.items()} if self.scores else None,
            "totals": dict(self.totals),
            "annulled": self.annulled,
        }


@dataclass
class Sanction:
    kind: str  # penalty | warning | disqualification
    player: str
    points: int
    reason: str
    after_game: int
    stage: int  # the stage whose total it was deducted from
    event: int
    decided_by: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"after_game": self.after_game, "player": self.player, "points": self.points,
                "kind": self.kind, "reason": self.reason, "stage": self.stage}


@dataclass
class Match:
    """The Partie as the rules compute it from its events."""

    envelope: Envelope
    settings: Settings
    games: list[GameRecord] = field(default_factory=list)
    sanctions: list[Sanction] = field(default_factory=list)
    stages: list[Stage] = field(default_factory=list)
    disqualified: list[str] = field(default_factory=list)
    status: str = "running"  # running | tiebreak | finished | annulled
    winner: str | None = None
    ended_by: str | None = None
    end_event: dict | None = None
    annulment_reason: str = ""
    next_shuffler: str | None = None

    @property
    def players(self) -> list[str]:
        return self.envelope.players

    @property
    def totals(self) -> dict[str, int]:
        return self.stages[0].totals

    @property
    def current_stage(self) -> Stage | None:
        """The stage the next Spiel belongs to, None once the Partie is over."""
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

    @property
    def ended_by_label(self) -> str:
        return ENDED_BY.get(self.ended_by or "", "")

    def as_json(self) -> dict[str, Any]:
        return {
            "ruleset": self.envelope.ruleset,
            "decks": self.settings.decks,
            "cards_per_hand": self.settings.hand,
            "settings": self.settings.as_json(),
            "games": [g.as_json() for g in self.games],
            "penalties": [s.as_json() for s in self.sanctions],
            "totals": dict(self.totals),
            "status": self.status,
            "winner": self.winner,
            "ended_by": self.ended_by,
            "tiebreaks": [
                {"players": list(t.players), "limit": t.limit, "winner": t.winner,
                 "stage": t.depth, "after_game": t.opened_after_game, "totals": dict(t.totals)}
                for t in self.tiebreaks
            ],
            "disqualified": list(self.disqualified),
            "next_shuffler": self.next_shuffler,
        }


def replay(env: Envelope, settings: Settings, problems: Problems) -> Match:
    """Run the events in order, deriving every total, Stechen and the winner."""
    return Replay(env, settings, problems).run()


class Replay:
    """Feeds events one by one into a Match; ``replay`` runs a whole document."""

    def __init__(self, env: Envelope, settings: Settings, problems: Problems) -> None:
        self.env, self.settings, self.problems = env, settings, problems
        self.match = Match(env, settings, stages=[
            Stage(0, list(env.players), settings.limit, {p: 0 for p in env.players})])
        self.last_shuffler = env.scorekeeper  # Art. 5b: the one left of him starts
        self.counted_games = 0  # Spiele of the Partie itself, not annulled (17c)
        self.fed = 0

    def run(self) -> Match:
        for event in self.env.events:
            self.feed(event)
        return self.finish()

    def feed(self, event: Any) -> None:
        """Take the next event (its index is the number of events fed before it)."""
        index = self.fed
        self.fed += 1
        if past_the_last_entry(index, self.problems):
            return
        kind, body = single_key(event)
        handler = getattr(self, f"_on_{kind}", None) if kind in EVENT_KINDS else None
        if handler is None:
            self.problems.add(index, None, None, (
                "Unbekanntes Ereignis: erlaubt sind game, penalty, warning, "
                "disqualification, end und annul_match, je eines pro Eintrag."))
        elif self.match.status == "annulled":
            self.problems.add(index, None, None, "Nach der Annullierung der Partie wird nichts mehr eingetragen (SV 4).")
        else:
            handler(index, body)

    def finish(self) -> Match:
        """The match as it stands after the events fed so far."""
        stage = self.match.current_stage
        self.match.next_shuffler = self._shuffler_after(self.last_shuffler) if stage else None
        return self.match

    # -- Spiele -------------------------------------------------------------------------
    def _on_game(self, index: int, body: Any) -> None:
        m = self.match
        if m.status == "finished":
            self.problems.add(index, None, None, f"Die Partie ist entschieden ({m.winner} hat gewonnen); weitere Spiele sind nicht möglich (Art. 17a).")
            return
        stage = m.stages[-1]
        players = [p for p in stage.players if p not in m.disqualified]
        shuffler = self._shuffler_after(self.last_shuffler)
        self.last_shuffler = shuffler
        decks = self.settings.decks
        if stage.depth:  # Art. 3 for the Stechen's players, never more than the table has
            decks = min(decks, decks_for_players(len(stage.players)))
        not_playing = {p: "ist disqualifiziert und spielt nicht mehr mit (SV 3)" for p in m.disqualified}
        if stage.depth:
            not_playing |= {p: "spielt im Stechen nicht mit (Art. 17b)"
                            for p in self.env.players if p not in stage.players}
        checked = check_game(body, GameContext(players, decks, self.settings, not_playing))
        for player, field_name, message in checked.errors:
            self.problems.add(index, player, field_name, message)
        record = GameRecord(
            number=len(m.games) + 1, event=index, stage=stage.depth, shuffler=shuffler,
            players=players, decks=decks, selection=checked.selection,
            selected_trump=checked.selected_trump, trump=checked.trump,
            inversions=checked.inversions, lines=checked.lines, scores=checked.scores,
            totals={}, annulled=checked.annulled, annul_reason=checked.annul_reason)
        m.games.append(record)
        if checked.scores is not None and not checked.annulled:
            for player, score in checked.scores.items():
                stage.totals[player] += score.points
            if stage.depth == 0:
                self.counted_games += 1
        record.totals = dict(stage.totals)
        if checked.scores is None or checked.annulled:
            return
        over = [p for p in players if stage.totals[p] > stage.limit]  # Art. 17a: exceed, not reach
        if len(over) == 1:
            self._decide(stage, over[0], "limit")
        elif len(over) > 1:
            self._open_tiebreak(over, record.number, index)
        elif stage.depth == 0 and self.settings.max_games and self.counted_games >= self.settings.max_games:
            self._end_stage("games", record.number, index)  # Art. 17c

    # -- Strafverordnung ------------------------------------------------------------------
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
            self.problems.add(index, player if ok else None, "reason", "Ein Grund muss angegeben werden (SV 1).")
            ok = False
        elif problem := reason_problem(reason):
            self.problems.add(index, player if ok else None, "reason", problem)
            ok = False
        return (player, reason.strip()) if ok else None

    def _on_penalty(self, index: int, body: Any) -> None:
        basics = self._sanction_basics(index, body, {"player", "points", "reason", "decided_by"})
        if basics is None:
            return
        player, reason = basics
        points, deciders = body.get("points"), body.get("decided_by", [])
        ok = True
        if not is_int(points) or not PENALTY_MIN <= points <= PENALTY_MAX:
            self.problems.add(index, player, "points", f"Eine Strafe beträgt 100 bis 1000 Punkte Abzug (SV 3), nicht {points!r}.")
            ok = False
        if not isinstance(deciders, list) or any(d not in self.env.players for d in deciders) or len(set(deciders)) != len(deciders):
            self.problems.add(index, player, "decided_by", "Über die Strafe entscheiden Spieler dieser Partie, jeder einmal (SV 3).")
            ok = False
        elif player in deciders:
            self.problems.add(index, player, "decided_by", f"{player} ist beschuldigt und entscheidet nicht über die eigene Strafe mit (SV 3).")
            ok = False
        if ok:
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
        m = self.match
        if player in m.disqualified:
            self.problems.add(index, player, "player", f"{player} ist bereits disqualifiziert.")
            return
        deciders = body.get("decided_by", [])
        if not isinstance(deciders, list) or player in deciders or any(d not in self.env.players for d in deciders):
            self.problems.add(index, player, "decided_by", "Über die Disqualifikation entscheiden die übrigen Spieler, ohne den Beschuldigten (SV 3).")
            return
        self._record(index, "disqualification", player, 0, reason, deciders)
        m.disqualified.append(player)
        if m.status in ("finished", "annulled"):
            return  # it cannot undo a win that already happened
        stage = m.stages[-1]
        left = [p for p in stage.players if p not in m.disqualified]
        if player in stage.players and len(left) == 1:
            self._decide(stage, left[0], "disqualification")

    def _record(self, index: int, kind: str, player: str, points: int, reason: str,
                deciders: list[str] | None = None) -> None:
        m = self.match
        stage = m.stages[0]
        if m.current_stage is not None and player in m.current_stage.players:
            stage = m.current_stage  # the stage under way, if he plays in it
        stage.totals[player] -= points
        m.sanctions.append(Sanction(kind, player, points, reason, len(m.games), stage.depth,
                                    index, list(deciders or [])))

    # -- end of the Partie ----------------------------------------------------------------
    def _on_end(self, index: int, body: Any) -> None:
        m = self.match
        reason = body.get("reason") if isinstance(body, dict) else None
        if not isinstance(reason, str) or reason not in END_REASONS or set(body) != {"reason"}:
            self.problems.add(index, None, "reason", 'Das Ende braucht einen Grund: "time" (Zeitbegrenzung) oder "agreed" (vereinbart) (Art. 17c).')
            return
        if m.status == "finished":
            self.problems.add(index, None, None, "Die Partie ist bereits entschieden (Art. 17a).")
            return
        m.end_event = body
        self._end_stage(body["reason"], len(m.games), index)

    def _on_annul_match(self, index: int, body: Any) -> None:
        m = self.match
        if not isinstance(body, dict) or set(body) != {"reason"} or not isinstance(body["reason"], str) or not body["reason"].strip():
            self.problems.add(index, None, "reason", "Die Annullierung der Partie braucht einen Grund (SV 4).")
            return
        if problem := reason_problem(body["reason"]):
            self.problems.add(index, None, "reason", problem)
            return
        m.status, m.winner, m.ended_by = "annulled", None, "annulled"
        m.annulment_reason = body["reason"].strip()
        for stage in m.stages:
            stage.winner = None

    def _end_stage(self, reason: str, after_game: int, index: int) -> None:
        """Art. 17c: the highest total of the stage wins; a tie at the top is a Stechen."""
        m = self.match
        stage = m.stages[-1]
        players = [p for p in stage.players if p not in m.disqualified]
        top = max(stage.totals[p] for p in players)
        leaders = [p for p in players if stage.totals[p] == top]
        if len(leaders) == 1:
            self._decide(stage, leaders[0], reason)
        else:
            self._open_tiebreak(leaders, after_game, index)

    def _decide(self, stage: Stage, winner: str, how: str) -> None:
        m = self.match
        for s in m.stages[: stage.depth + 1]:
            s.winner = winner  # the winner of the last Stechen wins them all (17b)
        m.status, m.winner = "finished", winner
        m.ended_by = "tiebreak" if stage.depth else how

    def _open_tiebreak(self, players: list[str], after_game: int, index: int) -> None:
        m = self.match
        seated = [p for p in self.env.players if p in players]
        m.stages.append(Stage(len(m.stages), seated, TIEBREAK_POINTS_PER_PLAYER * len(seated),
                              {p: 0 for p in seated}, opened_after_game=after_game,
                              opened_by_event=index))
        m.status = "tiebreak"

    # -- Mischen (Art. 5) -------------------------------------------------------------------
    def _shuffler_after(self, last: str) -> str | None:
        m = self.match
        eligible = [p for p in m.stages[-1].players if p not in m.disqualified]
        return next_shuffler(self.env.players, last, eligible, self.env.scorekeeper,
                             self.settings.scorekeeper_skips_shuffling)


def next_shuffler(seats: list[str], last: str, eligible: list[str], scorekeeper: str,
                  scorekeeper_skips: bool) -> str | None:
    """Art. 5b, 5c: the first player clockwise after ``last`` who may shuffle.

    ``eligible`` are the players of the stage under way who are not disqualified; the
    exempted Protokollant is skipped while more than 3 of them play.
    """
    if scorekeeper_skips and len(eligible) > 3:
        eligible = [p for p in eligible if p != scorekeeper]
    start = seats.index(last)
    for step in range(1, len(seats) + 1):
        candidate = seats[(start + step) % len(seats)]
        if candidate in eligible:
            return candidate
    return None


def shuffling_order(seats: list[str], scorekeeper: str, games: int, scorekeeper_skips: bool = False) -> list[str]:
    """The Mischer of the first ``games`` Spiele of a Partie (as the blank sheet prints them)."""
    order, last = [], scorekeeper  # Art. 5b: the one left of the Protokollant starts
    for _ in range(games):
        last = next_shuffler(seats, last, seats, scorekeeper, scorekeeper_skips)
        order.append(last)
    return order


EVENT_KINDS = {"game", "penalty", "warning", "disqualification", "end", "annul_match"}
