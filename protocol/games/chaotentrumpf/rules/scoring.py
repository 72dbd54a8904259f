"""The score of one Spiel (Art. 16).

Vocabulary, per player of the Spiel: *Stiche* (tricks won), *Augen* (card points in them),
*Trümpfe* (trump cards in them). The *Trumpfwertung* goes to the player(s) with the most
Trümpfe (at least one, Art. 16b); how many more than the others does not matter (Hinweise 6).
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.rules.vocabulary import number
from protocol.rules.words import N_, Text

from .trump import CARD_FACTOR, RANK_FACTOR, TRUMP_BONUS, Trump


@dataclass(frozen=True)
class Line:
    """What the Protokollant enters for one player and one Spiel."""

    tricks: int
    points: int
    trumps: int

    def as_json(self) -> dict[str, int]:
        return {"tricks": self.tricks, "points": self.points, "trumps": self.trumps}


@dataclass(frozen=True)
class Score:
    points: int
    explanation: str  # German, e.g. "56 Augen + 15 Trumpfwertung (Pik, ...) = 71"
    trump_bonus: bool  # took (a share of) the Trumpfwertung


def _plus(n: int) -> str:
    return f"− {-n}" if n < 0 else f"+ {n}"


def score_game(
    lines: dict[str, Line],
    trump: Trump,
    factor_after_inversion: int | None,
    no_trump_points: int,
    no_trick_points: int,
) -> dict[str, Score]:
    """Art. 16a-c for every player of the Spiel."""
    most = max((line.trumps for line in lines.values()), default=0)
    takers = [p for p, line in lines.items() if most >= 1 and line.trumps == most]
    shared = len(takers)
    factor = factor_after_inversion
    why = ""
    if factor == 5:
        why = N_("nach Totalultrainversion") if trump.level != "card" else Text(N_("Karte %(card)s"), card=trump.label)
    elif factor == 4:
        why = N_("nach Ultrainversion")
    elif trump.level == "rank":
        factor, why = RANK_FACTOR, trump.label
    elif trump.level == "card":
        factor, why = CARD_FACTOR, Text(N_("Karte %(card)s"), card=trump.label)
    scores = {}
    for player, line in lines.items():
        if line.tricks == 0:  # Art. 16a, instead of (not added to) "kein Trumpf"
            text = Text(N_("kein Stich: %(total)s (Art. 16a)"), total=number(no_trick_points))
            scores[player] = Score(no_trick_points, text, False)
        elif player in takers and factor:
            each = max(1, factor // shared)  # Art. 16c: the factor is shared in whole parts
            total = line.points * each
            if shared == 1:
                text = Text(N_("%(points)s Augen × %(each)s Trumpfwertung (%(why)s, meiste Trümpfe, Art. 16b) "
                               "= %(total)s"), points=line.points, each=each, why=why, total=number(total))
            else:
                text = Text(N_("%(points)s Augen × %(each)s Trumpfwertung (%(why)s, Faktor %(factor)s geteilt "
                               "durch %(shared)s, Art. 16c) = %(total)s"), points=line.points, each=each, why=why,
                            factor=factor, shared=shared, total=number(total))
            scores[player] = Score(total, text, True)
        elif player in takers:
            bonus = TRUMP_BONUS[(trump.level, trump.value)]
            each = bonus // shared  # Art. 16c
            total = line.points + each
            if shared == 1:
                text = Text(N_("%(points)s Augen + %(each)s Trumpfwertung (%(trump)s, meiste Trümpfe, Art. 16b) "
                               "= %(total)s"), points=line.points, each=each, trump=trump.label, total=number(total))
            else:
                text = Text(N_("%(points)s Augen + %(each)s Trumpfwertung (%(trump)s, %(bonus)s geteilt durch "
                               "%(shared)s, Art. 16c) = %(total)s"), points=line.points, each=each,
                            trump=trump.label, bonus=bonus, shared=shared, total=number(total))
            scores[player] = Score(total, text, True)
        elif line.trumps == 0:
            total = line.points + no_trump_points
            text = Text(N_("%(points)s Augen %(bonus)s kein Trumpf im Stich (Art. 16a) = %(total)s"),
                        points=line.points, bonus=_plus(no_trump_points), total=number(total))
            scores[player] = Score(total, text, False)
        else:
            text = Text(N_("%(points)s Augen = %(total)s"), points=line.points, total=number(line.points))
            scores[player] = Score(line.points, text, False)
    return scores
