"""The club's records of a game (its Rekorde), derived from the finished Partien.

Each Partie, when its ratings are computed (league.ratings.ledger), leaves its *figures*
(:func:`partie_figures`, kept on its ``RatedMatch``): its players, its winner, its highest
Spiel, how far its winner was behind the leader at worst, whether a Stechen decided it, and
after how many Spiele someone exceeded the Obergrenze. :func:`records_of` reads the figures of
all Partien of a game in the order played, once, and names each record with the Partie it came
from. Annulled Spiele count for nothing (and annulled Partien are never rated). A record is
beaten only by more: of equal ones, the earlier stands.

Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from protocol.rules.match import exceeds

HIGHEST_SPIEL = "highest_spiel"
COMEBACK = "comeback"
STREAK = "streak"
STECHEN = "stechen"
TO_LIMIT = "to_limit"
KINDS = (HIGHEST_SPIEL, COMEBACK, STREAK, STECHEN, TO_LIMIT)


def partie_figures(match, members: dict[str, int]) -> dict:
    """What a finished computed ``match`` (protocol.rules) adds to the records, its players as
    member pks (``members``: seat name -> pk). Spiele annulled count for nothing."""
    counted = [g for g in match.games if g.points and not g.annulled]
    winner = match.winner
    figures: dict = {"players": [members[p] for p in match.players],
                     "winner": members[winner] if winner is not None else None}
    top = None
    for game in counted:
        for player, points in game.points.items():
            if top is None or points > top[1]:
                top = (members[player], points, game.number)
    figures["top"] = list(top) if top else None
    opening = [g for g in counted if g.stage == 0]
    if winner is not None:  # how far behind the leader he was at worst, after a Spiel of the Partie itself
        figures["behind"] = max([max(g.totals.values()) - g.totals[winner] for g in opening] + [0])
    figures["stechen"] = match.ended_by == "tiebreak"  # Art. 17b: its winner won a Stechen
    limit = match.stages[0].limit if match.stages else None
    if limit is not None:  # the first Spiel after which someone was over the Obergrenze (Art. 17a)
        figures["to_limit"] = next((n for n, g in enumerate(opening, 1)
                                    if any(exceeds(total, limit) for total in g.totals.values())), None)
    return figures


@dataclass(frozen=True)
class Record:
    """One record: its ``kind``, who holds it (a member pk), its ``value`` and the Partie it
    came from (``match_pk``; a streak's last Partie, a count's Partie that reached it);
    ``spiel``: the Spiel's number where the record is one Spiel."""

    kind: str
    holder: int
    value: int
    match_pk: int
    spiel: int | None = None


def records_of(partien: Iterable[tuple[int, dict]], shown: Callable[[int], bool] | None = None) -> dict[str, Record]:
    """The records of ``partien`` ((match pk, figures), in the order played): by kind, those
    there are. ``shown``: whether a member may hold a record on the page (a guest only where
    the club shows guests); a guest's win still ends another's streak."""
    shown = shown or (lambda pk: True)
    best: dict[str, Record] = {}
    streaks: dict[int, int] = {}
    stechen: dict[int, int] = {}

    def beat(record: Record, lower: bool = False) -> None:
        held = best.get(record.kind)
        if held is None or (record.value < held.value if lower else record.value > held.value):
            best[record.kind] = record

    for pk, figures in partien:
        winner = figures.get("winner")
        top = figures.get("top")
        if top and shown(top[0]):
            beat(Record(HIGHEST_SPIEL, top[0], top[1], pk, top[2]))
        for player in figures.get("players", ()):
            streaks[player] = streaks.get(player, 0) + 1 if player == winner else 0
        if winner is None or not shown(winner):
            continue
        if figures.get("behind"):
            beat(Record(COMEBACK, winner, figures["behind"], pk))
        beat(Record(STREAK, winner, streaks[winner], pk))
        if figures.get("stechen"):
            stechen[winner] = stechen.get(winner, 0) + 1
            beat(Record(STECHEN, winner, stechen[winner], pk))
        if figures.get("to_limit"):
            beat(Record(TO_LIMIT, winner, figures["to_limit"], pk), lower=True)
    return best

