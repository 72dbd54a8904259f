"""Each Doppelkopf game as a contest of Re against Kontra (protocol/rules/contests.py).

- A game recorded with its facts: the parties as recorded (``re``; Kontra the rest of the
  four at the table, the dealer sitting out at five, TCG Allgemeines), two against two or a
  soloist against three; the winner as the scoring found it (scoring.py). A game nobody won
  (DDV 7.1: both parties missed their Absage) is a tie.
- A game recorded as points only (points_only.py): the parties are not recorded, but the
  points tell them, since the winners get the value and the losers pay it (TCG 6, DDV 7.2):
  those with more than 0 won against those with less, who sat out has 0. When every player
  has 0 (a game worth nothing) the sides cannot be told: left out (ruling). Under DDV a
  loser's special points may outweigh, so "won" here is what the sheet says: who gained.
- Annulled games count for nothing.
"""

from __future__ import annotations

from protocol.rules.contests import Contest, two_sides
from protocol.rules.scores import POINTS_ONLY

from .settings import PLAYERS_AT_TABLE


def contests(match) -> list[Contest]:
    if match.status != "finished":
        return []
    return [contest for game in match.games if game.scores is not None and not game.annulled
            for contest in (game_contest(game),)]


def game_contest(game) -> Contest:
    scores = game.scores
    if game.extra.get(POINTS_ONLY):
        won = [p for p, s in scores.items() if s > 0]
        lost = [p for p, s in scores.items() if s < 0]
        if not won or not lost:
            return Contest(game.number)  # all 0: the sides cannot be told
        return two_sides(game.number, won, lost, True)
    data = game.data
    playing = list(scores)  # those the game was read for, in seating order (0 for one sitting out)
    table = [p for p in playing if p != data["dealer"]] if len(playing) > PLAYERS_AT_TABLE else playing
    re = [p for p in table if p in data["re"]]
    kontra = [p for p in table if p not in re]
    winner = game.extra.get("winner")
    return two_sides(game.number, re, kontra, None if winner is None else winner == "re")
