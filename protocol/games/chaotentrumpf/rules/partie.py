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

The events are fed by the match engine every game shares (protocol/rules/match.py); this
module is what Chaotentrumpf plugs into it (:class:`PartieRules`). Everything here is
derived from the recorded events; nothing is stored as the only truth.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from protocol.rules.envelope import Envelope
from protocol.rules.match import Engine, GameRules, PenaltyRules, Stage, exceeds
from protocol.rules.match import Match as EngineMatch
from protocol.rules.seating import next_clockwise
from protocol.rules.words import N_, Text

from . import points_only
from .cards import decks_for_players
from .game import GameContext, check_game
from .inversion import Inversion
from .scoring import Line, Score
from .settings import Settings
from .trump import Trump

TIEBREAK_POINTS_PER_PLAYER = 50  # Art. 17b
PENALTIES = PenaltyRules(100, 1000, article="SV 3")  # SV 3
SANCTION_ARTICLES = {"penalty": "SV 3", "warning": "SV 2", "disqualification": "SV 3"}
END_REASONS = {"time": N_("Zeitbegrenzung"), "agreed": N_("vereinbartes Ende")}
# The article that ended the Partie (``Match.ended_by``), cited when something follows the end.
END_ARTICLES = {"limit": "Art. 17a", "tiebreak": "Art. 17b", "games": "Art. 17c", "time": "Art. 17c",
                "agreed": "Art. 17c", "disqualification": "SV 3"}
ENDED_BY = {
    "limit": N_("Obergrenze überschritten (Art. 17a)"),
    "tiebreak": N_("Stechen entschieden (Art. 17b)"),
    "games": N_("Spielanzahl erreicht (Art. 17c)"),
    "time": N_("Zeitbegrenzung (Art. 17c)"),
    "agreed": N_("vereinbartes Ende (Art. 17c)"),
    "disqualification": N_("nur ein Spieler übrig nach Disqualifikation (SV 3)"),
    "annulled": N_("Partie annulliert (SV 4)"),
}


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
    points_only: bool = False  # recorded as points only (points_only.py): no lines behind the scores

    @property
    def points(self) -> dict[str, int] | None:
        return {p: s.points for p, s in self.scores.items()} if self.scores is not None else None

    @property
    def explanation(self) -> str:
        """What the Spiel says of itself, beside each player's explanation: a points-only one
        what was not checked; "" for a full one (its lines explain every score)."""
        return points_only.POINTS_ONLY if self.points_only else ""

    def took_trump_bonus(self, player: str) -> bool:
        return self.scores is not None and self.scores[player].trump_bonus

    def as_json(self) -> dict[str, Any]:
        game = {
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
        if self.points_only:  # only then, so that a full Spiel's output stays as it was
            game["points_only"] = True
        return game


@dataclass
class Match(EngineMatch):
    """The Partie as the rules compute it from its events."""

    next_shuffler: str | None = None
    last_shuffler: str | None = field(default=None, repr=False)  # of the last Spiel (Art. 5b)
    counted: int = field(default=0, repr=False)  # Spiele of the Partie itself, not annulled (17c)
    # The Spiel whose annulment took away the Stechen it opened (its number) and that
    # Stechen's players, until a Spiel is recorded without errors: Spiele still recorded as
    # its Stechen-Spiele are refused naming it (ruling, docs/chaotentrumpf.md).
    annulled_opener: tuple[int, tuple[str, ...]] | None = field(default=None, repr=False)

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


class PartieRules(GameRules):
    """What Chaotentrumpf plugs into the match engine (protocol/rules/match.py): the Spiel
    with its Mischer, the Obergrenze and the Stechen after each Spiel (Art. 17), the end."""

    penalties = PENALTIES
    sanction_articles = SANCTION_ARTICLES
    articles = {"scorekeeper": "Art. 4", "reason": "SV 1", "annul": "SV 4", "end": "Art. 17c"}
    end_reasons = END_REASONS

    def closed_message(self, match: Match) -> str:
        """The article that ended the Partie: 17a, 17b, 17c (a limit by time, agreement or
        number of Spiele) or SV 3 (one player left)."""
        return Text(N_("Die Partie ist entschieden (%(winner)s hat gewonnen); "
                       "weitere Spiele sind nicht möglich (%(article)s)."), winner=match.winner,
                    article=END_ARTICLES.get(match.ended_by or "", "Art. 17a"))

    def already_ended_message(self, match: Match) -> str:
        return Text(N_("Die Partie ist bereits entschieden (%(article)s)."),
                    article=END_ARTICLES.get(match.ended_by or "", "Art. 17a"))

    def end_reason_message(self, settings: Any = None) -> str:
        return N_('Das Ende braucht einen Grund: "time" (Zeitbegrenzung) oder "agreed" (vereinbart) (Art. 17c).')

    def new_match(self, env: Envelope, settings: Settings) -> Match:
        return Match(env, settings, stages=[Stage(0, list(env.players), settings.limit, {p: 0 for p in env.players})],
                     last_shuffler=env.scorekeeper)  # Art. 5b: the one left of him starts

    # -- Spiele -------------------------------------------------------------------------
    def play_game(self, engine: Engine, index: int, body: Any, players: list[str]) -> GameRecord:
        m, settings = engine.match, engine.settings
        stage = m.stages[-1]
        shuffler = _shuffler_after(m, m.last_shuffler)
        m.last_shuffler = shuffler
        decks = settings.decks
        if stage.depth:  # Art. 3 for the Stechen's players, never more than the table has
            decks = min(decks, decks_for_players(len(stage.players)))
        not_playing = {p: "ist disqualifiziert und spielt nicht mehr mit (SV 3)" for p in m.disqualified}
        if stage.depth:
            not_playing |= {p: "spielt im Stechen nicht mit (Art. 17b)"
                            for p in engine.env.players if p not in stage.players}
        read = points_only.check_game if points_only.is_points_only(body) else check_game
        checked = read(body, GameContext(players, decks, settings, not_playing, m.annulled_opener))
        for player, field_name, message in checked.errors:
            engine.problems.add(index, player, field_name, message)
        if not checked.errors:
            m.annulled_opener = _stechen_it_opened(stage, len(m.games) + 1, checked) if checked.annulled else None
        return GameRecord(
            number=len(m.games) + 1, event=index, stage=stage.depth, shuffler=shuffler,
            players=players, decks=decks, selection=checked.selection,
            selected_trump=checked.selected_trump, trump=checked.trump,
            inversions=checked.inversions, lines=checked.lines, scores=checked.scores,
            totals={}, annulled=checked.annulled, annul_reason=checked.annul_reason,
            points_only=checked.points_only)

    def after_game(self, engine: Engine, game: GameRecord, stage: Stage) -> None:
        """Art. 17: one player over the Obergrenze wins, several play a Stechen; 17c: the
        agreed number of Spiele ends the Partie."""
        m = engine.match
        if stage.depth == 0:
            m.counted += 1
        over = [p for p in game.players if exceeds(stage.totals[p], stage.limit)]  # Art. 17a
        if len(over) == 1:
            _decide(m, stage, over[0], "limit")
        elif len(over) > 1:
            _open_tiebreak(m, over, game.number, game.event)
        elif stage.depth == 0 and m.settings.max_games and m.counted >= m.settings.max_games:
            _end_stage(m, "games", game.number, game.event)  # Art. 17c

    # -- the end -----------------------------------------------------------------------
    def on_end(self, engine: Engine, index: int, reason: str) -> None:
        _end_stage(engine.match, reason, len(engine.match.games), index)

    def after_disqualification(self, engine: Engine, player: str) -> None:
        m = engine.match
        if m.status in ("finished", "annulled"):
            return  # it cannot undo a win that already happened
        stage = m.stages[-1]
        left = [p for p in stage.players if p not in m.disqualified]
        if player in stage.players and len(left) == 1:
            _decide(m, stage, left[0], "disqualification")

    def on_finish(self, engine: Engine) -> None:
        m = engine.match
        m.next_shuffler = _shuffler_after(m, m.last_shuffler) if m.current_stage else None


def _end_stage(m: Match, reason: str, after_game: int, index: int) -> None:
    """Art. 17c: the highest total of the stage wins; a tie at the top is a Stechen."""
    stage = m.stages[-1]
    players = [p for p in stage.players if p not in m.disqualified]
    top = max(stage.totals[p] for p in players)
    leaders = [p for p in players if stage.totals[p] == top]
    if len(leaders) == 1:
        _decide(m, stage, leaders[0], reason)
    else:
        _open_tiebreak(m, leaders, after_game, index)


def _decide(m: Match, stage: Stage, winner: str, how: str) -> None:
    for s in m.stages[: stage.depth + 1]:
        s.winner = winner  # the winner of the last Stechen wins them all (17b)
    m.status, m.winner = "finished", winner
    # A Stechen is decided by Art. 17b, unless a disqualification left one of its players:
    # then the end names the disqualification (SV 3; ruling, docs/chaotentrumpf.md).
    m.ended_by = "tiebreak" if stage.depth and how != "disqualification" else how


def _stechen_it_opened(stage: Stage, number: int, checked) -> tuple[int, tuple[str, ...]] | None:
    """An annulled Spiel that, had it counted, would have sent several players over the
    Obergrenze (Art. 17b): its number and those players; None otherwise."""
    if checked.scores is None:
        return None
    over = tuple(p for p, score in checked.scores.items() if exceeds(stage.totals[p] + score.points, stage.limit))
    return (number, over) if len(over) > 1 else None


def _open_tiebreak(m: Match, players: list[str], after_game: int, index: int) -> None:
    seated = [p for p in m.players if p in players]
    m.stages.append(Stage(len(m.stages), seated, TIEBREAK_POINTS_PER_PLAYER * len(seated),
                          {p: 0 for p in seated}, opened_after_game=after_game, opened_by_event=index))
    m.status = "tiebreak"


# -- Mischen (Art. 5) -------------------------------------------------------------------
def _shuffler_after(m: Match, last: str) -> str | None:
    eligible = [p for p in m.stages[-1].players if p not in m.disqualified]
    return next_shuffler(m.players, last, eligible, m.envelope.scorekeeper, m.settings.scorekeeper_skips_shuffling)


def next_shuffler(seats: list[str], last: str, eligible: list[str], scorekeeper: str,
                  scorekeeper_skips: bool) -> str | None:
    """Art. 5b, 5c: the first player clockwise after ``last`` who may shuffle.

    ``eligible`` are the players of the stage under way who are not disqualified; the
    exempted Protokollant is skipped while more than 3 of them play.
    """
    if scorekeeper_skips and len(eligible) > 3:
        eligible = [p for p in eligible if p != scorekeeper]
    return next_clockwise(seats, last, eligible)


def shuffling_order(seats: list[str], scorekeeper: str, games: int, scorekeeper_skips: bool = False) -> list[str]:
    """The Mischer of the first ``games`` Spiele of a Partie (as the blank sheet prints them)."""
    order, last = [], scorekeeper  # Art. 5b: the one left of the Protokollant starts
    for _ in range(games):
        last = next_shuffler(seats, last, seats, scorekeeper, scorekeeper_skips)
        order.append(last)
    return order

