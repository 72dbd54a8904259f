"""The score of one Tarot deal (docs/tarot.md "Contracts and the score of a deal").

Vocabulary (French terms as the FFT uses them, English identifiers):

- *taker* (preneur, Spielnehmer): the player who won the bidding; with his *partner* (5
  players: the holder of the called king, if any) he is the *attack*; everyone else is the
  *defence* (Verteidigung), each of them a *defender*.
- *contract* (contrat, Vertrag): prise, garde, garde sans (le chien), garde contre (le chien).
- *oudler* (bout): the Petit (1 of trumps), the 21 and the Excuse; *oudlers* counts those in
  the attack's tricks (its *bouts*), which set the *points* (card points) it needs.
- *petit au bout*: the Petit in the last trick, for the side that takes that trick.
- *poignée* (Handvoll): a handful of trumps shown before the first card (simple, double,
  triple); *chelem*: all the tricks (Grand Schlem).
- *defender score* ``D``: the attack's signed result per defender; the taker, the partner
  and each defender get a multiple of it, so that every deal sums to 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from protocol.rules.vocabulary import counted, decimal, number
from protocol.rules.words import N_, Text, concat, joined

# FFT-Regeln "Verträge": 25 + die Punkte, x 1 / 2 / 4 / 6 (Prise, Garde, Garde sans, Garde contre).
CONTRACTS = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
CONTRACT_NAMES = {"prise": "Prise", "garde": "Garde", "garde_sans": "Garde sans",
                  "garde_contre": "Garde contre"}
BASE = 25  # FFT-Regeln "Verträge"
PETIT_AU_BOUT = 10  # FFT-Regeln "Verträge": Prise 10, Garde 20, ... = 10 x multiplier

# Règlement officiel: the points the attack needs, by the oudlers in its tricks.
NEEDED = {0: 56, 1: 51, 2: 41, 3: 36}
OUDLERS = 3
OUDLER_POINTS = 4.5  # Règlement officiel: each oudler (and each king) counts 4.5
TOTAL_POINTS = 91  # Règlement officiel: the 78 cards are worth 91 points
TRUMPS_AND_EXCUSE = 22  # 21 trumps, and the Excuse may stand in for one in a poignée

# FFT-Regeln "Verträge" / "Die Handvoll": 20 / 30 / 40, the same for every contract.
POIGNEE_BONUS = {"simple": 20, "double": 30, "triple": 40}
POIGNEE_NAMES = {"simple": N_("Poignée"), "double": N_("Doppelte Poignée"), "triple": N_("Dreifache Poignée")}
# Trumps a poignée shows, by the number of players: 4 players from the FFT-Regeln
# ("Eine Handvoll 10 / 13 / 15 Trümpfe"), 3 and 5 players from the Règlement officiel.
POIGNEE_TRUMPS = {
    3: {"simple": 13, "double": 15, "triple": 18},
    4: {"simple": 10, "double": 13, "triple": 15},
    5: {"simple": 8, "double": 10, "triple": 13},
}

# FFT-Regeln "Le Chelem": the bonus (or deduction) on top of the contract, not multiplied.
CHELEM_BONUS = {"announced_made": 400, "unannounced_made": 200, "announced_failed": -200,
                "defence": -200}
CHELEM_NAMES = {
    "announced_made": N_("Chelem angesagt und gewonnen"),
    "unannounced_made": N_("Chelem ohne Ansage gewonnen"),
    "announced_failed": N_("Chelem angesagt, nicht gewonnen"),
    "defence": N_("Chelem der Verteidigung"),
}
SIDES = ("attack", "defence")


@dataclass(frozen=True)
class Poignee:
    player: str
    size: str  # simple | double | triple


@dataclass(frozen=True)
class Deal:
    """One deal as the Protokollant enters it, already checked (see ``deal.read_deal``)."""

    dealer: str
    taker: str
    contract: str
    partner: str | None
    oudlers: int
    points: float  # a multiple of 0.5, exact as a float
    petit_au_bout: str | None = None  # attack | defence | None
    poignees: tuple[Poignee, ...] = ()
    chelem: str | None = None

    @property
    def needed(self) -> int:
        return NEEDED[self.oudlers]

    @property
    def made(self) -> bool:
        """The contract is made when the attack has at least the points it needs."""
        return self.points >= self.needed

    @property
    def difference(self) -> int:
        """|points - needed|, rounded up: 40.5 with 2 oudlers is lost by 1, 41.5 made by 1."""
        return math.ceil(abs(self.points - self.needed))

    @property
    def multiplier(self) -> int:
        return CONTRACTS[self.contract]


@dataclass(frozen=True)
class DealScore:
    defender_score: int  # D
    scores: dict[str, int]  # per player of the table, summing to 0
    explanation: str  # German


def defender_score(deal: Deal) -> int:
    """D = (±(25 + difference) + petit) x multiplier ± poignée + chelem."""
    sign = 1 if deal.made else -1
    contract = sign * (BASE + deal.difference) + _petit(deal)
    poignees = sign * sum(POIGNEE_BONUS[p.size] for p in deal.poignees)
    return contract * deal.multiplier + poignees + CHELEM_BONUS.get(deal.chelem, 0)


def _petit(deal: Deal) -> int:
    """+10 for the attack, -10 for the defence, whoever wins the contract."""
    return {"attack": PETIT_AU_BOUT, "defence": -PETIT_AU_BOUT}.get(deal.petit_au_bout, 0)


def distribute(deal: Deal, d: int, players: list[str]) -> dict[str, int]:
    """Each defender pays D; the attack gets what the defence pays (the sum is 0).

    3 and 4 players, and 5 with the taker alone: the taker gets (players - 1) x D;
    5 players with a partner: the partner gets D, the taker 2 D.
    """
    scores = {p: -d for p in players}
    if deal.partner is None:
        scores[deal.taker] = (len(players) - 1) * d
    else:  # three defenders pay D each: D to the partner, 2 D to the taker
        scores[deal.partner] = d
        scores[deal.taker] = 2 * d
    return scores


def explain(deal: Deal) -> str:
    """The sum as the sheet shows it, e.g. for the FFT worked example

    "Garde, 2 Bouts, 49 Punkte: 25 + 8 + 10 (Petit au bout) = 43, x 2 = 86,
    + 20 Poignée = 106 je Verteidiger" (without the line break).
    """
    bouts = counted(deal.oudlers, N_("%(n)s Bout"), N_("%(n)s Bouts"))
    head = Text(N_("%(contract)s, %(bouts)s, %(points)s Punkte"), contract=CONTRACT_NAMES[deal.contract], bouts=bouts,
                points=format_points(deal.points))
    sign = 1 if deal.made else -1
    base = f"{BASE} + {deal.difference}" if deal.made else f"−({BASE} + {deal.difference})"
    petit = _petit(deal)
    running = sign * (BASE + deal.difference) + petit
    text = base
    if petit:
        text += f" {_term(petit)} (Petit au bout)"
    text += f" = {number(running)}"  # numbers and French words only: the same in every language
    if deal.multiplier != 1:
        running *= deal.multiplier
        text += f", x {deal.multiplier} = {number(running)}"
    sum_text: str | Text = text
    extras = [(sign * POIGNEE_BONUS[p.size], POIGNEE_NAMES[p.size]) for p in deal.poignees]
    if deal.chelem:
        extras.append((CHELEM_BONUS[deal.chelem], CHELEM_NAMES[deal.chelem]))
    if extras:
        running += sum(value for value, _ in extras)
        terms = joined(" ", (Text("%(term)s %(name)s", term=_term(value), name=name) for value, name in extras))
        sum_text = concat(text, ", ", terms, f" = {number(running)}")
    return Text(N_("%(head)s: %(sum)s je Verteidiger"), head=head, sum=sum_text)


def score_deal(deal: Deal, players: list[str]) -> DealScore:
    d = defender_score(deal)
    return DealScore(d, distribute(deal, d, players), explain(deal))


def null_score(players: list[str]) -> DealScore:
    """A deal declared null ("für null erklärt", FFT-Regeln: Schiedsrichtergesetz) scores 0."""
    return DealScore(0, {p: 0 for p in players}, N_("Für null erklärt: 0 Punkte für alle"))


def format_points(points: float) -> str:
    """Points as the reader writes them: 49 -> "49", 40.5 -> "40,5" (German, the engine's
    text), "40.5" where the site reads English (:func:`~protocol.rules.vocabulary.decimal`)."""
    return decimal(points)


def _term(n: int) -> str:
    """A summand: 10 -> "+ 10", -10 -> "− 10"."""
    return f"− {-n}" if n < 0 else f"+ {n}"
