"""A Tarot deal recorded as points only: ``{"scores": {player: points}}``, with the
``dealer``, ``taker``, ``contract`` and ``partner`` when they were noted
(protocol/rules/scores.py).

What the points alone can still prove (docs/tarot.md, "Contracts and the score of a deal"):

- *Who gets what*: each defender pays D, the taker gets (players - 1) x D, or with a partner
  at five 2 D and the partner D; so every deal sums to zero. All scores 0 is a deal
  declared null (FFT-Regeln: Schiedsrichtergesetz) and always accepted.
- *The contract's scale*: D = (±(25 + difference) + petit) x multiplier ± poignées + chelem
  takes only some values. They are worked out exactly from the rules the full deal is
  checked and scored by (deal.py, scoring.py): every number of bouts with every card point
  total it allows, the petit au bout of either side or none, every chelem, and every set of
  poignées the 21 trumps and the Excuse allow at the table, with every consistency rule of
  a full deal. A deal whose contract is not noted may be any contract's.
What the points cannot show is not checked: the bouts, the card points and the premiums.
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import combinations_with_replacement

from protocol.rules.scores import read_scores
from protocol.rules.vocabulary import number
from protocol.rules.words import N_, Text

from .deal import CONTRACTS_RULE, OFFICIAL, PARTNER_PLAYERS, consistency_errors
from .scoring import (
    CHELEM_BONUS,
    CONTRACT_NAMES,
    CONTRACTS,
    NEEDED,
    OUDLER_POINTS,
    OUDLERS,
    POIGNEE_BONUS,
    POIGNEE_TRUMPS,
    TOTAL_POINTS,
    TRUMPS_AND_EXCUSE,
    Deal,
    defender_score,
)

POINTS_ONLY = N_("nur Punkte: Bouts, Kartenpunkte und Prämien nicht geprüft")
KEYS = {"dealer", "taker", "contract", "partner"}  # the facts that may be noted beside the scores
Error = tuple[str | None, str | None, str]


@lru_cache(maxsize=16)
def defender_scores(contract: str, players: int) -> frozenset[int]:
    """Every D a full deal of this contract at this table can score (see the module)."""
    found = set()
    for (oudlers, made, *_bounds), points in _point_classes().items():
        sign = 1 if made else -1
        for petit in (None, "attack", "defence"):
            for chelem in (None, *CHELEM_BONUS):
                if consistency_errors(Deal("-", "-", contract, None, oudlers, points[0], petit, (), chelem), players):
                    continue  # not for any deal of the class: each is checked alike (see _point_classes)
                for each in points:
                    base = defender_score(Deal("-", "-", contract, None, oudlers, each, petit, (), chelem))
                    found |= {base + sign * bonus for bonus in poignee_bonuses(players)}
    return frozenset(found)


@lru_cache(maxsize=1)
def _point_classes() -> dict[tuple[int, bool, bool, bool], tuple[float, ...]]:
    """The card point totals each number of bouts allows, one for each difference, in
    classes that deal.py checks alike with any petit au bout and chelem: by the bouts,
    whether the contract is made, and whether the total leaves the other side no more than
    the Excuse (a chelem of the attack, or of the defence)."""
    classes: dict[tuple[int, bool, bool, bool], dict[int, float]] = {}
    for oudlers in range(OUDLERS + 1):
        least, most = oudlers * OUDLER_POINTS, TOTAL_POINTS - (OUDLERS - oudlers) * OUDLER_POINTS
        for halves in range(int(least * 2), int(most * 2) + 1):
            points = halves / 2
            made = points >= NEEDED[oudlers]
            key = (oudlers, made, points >= TOTAL_POINTS - OUDLER_POINTS, points <= OUDLER_POINTS)
            difference = math.ceil(abs(points - NEEDED[oudlers]))
            classes.setdefault(key, {}).setdefault(difference, points)  # one total per difference: D alike
    return {key: tuple(by_difference.values()) for key, by_difference in classes.items()}


@lru_cache(maxsize=4)
def poignee_bonuses(players: int) -> frozenset[int]:
    """The premiums of the poignées one deal can show: one per player, together no more
    trumps than the 21 and the Excuse (FFT-Regeln: Die Handvoll)."""
    sizes = POIGNEE_TRUMPS[players]
    found = {0}
    for count in range(1, players + 1):
        for shown in combinations_with_replacement(sizes, count):
            if sum(sizes[s] for s in shown) <= TRUMPS_AND_EXCUSE:
                found.add(sum(POIGNEE_BONUS[s] for s in shown))
    return frozenset(found)


def shares(scores: dict[str, int], taker: str | None, partner: str | None) -> list[int]:
    """Every D that gives these scores, with the taker (and partner) as noted."""
    players = list(scores)
    found = []
    for who in [taker] if taker else players:
        partners = [partner] if partner else [None, *(p for p in players if p != who)]
        for mate in partners if len(players) == PARTNER_PLAYERS else [None]:
            if mate == who:
                continue
            defenders = [scores[p] for p in players if p not in (who, mate)]
            d = -defenders[0]
            if any(s != -d for s in defenders):
                continue
            if mate is None and scores[who] == (len(players) - 1) * d:
                found.append(d)
            elif mate is not None and scores[who] == 2 * d and scores[mate] == d:
                found.append(d)
    return found


def check_scores(data: dict, players: list[str], article: str, errors: list[Error]) -> tuple[dict[str, int], int] | None:
    """The scores and D of a points-only deal if the rules can produce them, else None with errors."""
    before = len(errors)
    noted = {}
    for key in ("dealer", "taker", "partner"):
        value = data.get(key)
        if value is not None and value not in players:
            errors.append((None, key, Text(N_("%(value)r spielt an diesem Tisch nicht mit (%(rule)s)."), value=value,
                                           rule=OFFICIAL)))
        noted[key] = value
    contract = data.get("contract")
    if contract is not None and contract not in CONTRACTS:
        errors.append((None, "contract", Text(N_("Der Vertrag ist prise, garde, garde_sans oder garde_contre (%(rule)s)."),
                                              rule=CONTRACTS_RULE)))
    if noted["partner"] is not None and len(players) != PARTNER_PLAYERS:
        errors.append((None, "partner", Text(N_(
            "Einen Partner gibt es nur zu fünft (%(rule)s)."), rule=OFFICIAL)))
    scores = read_scores(data.get("scores"), players, article, errors)
    if len(errors) > before:
        return None
    total = sum(scores.values())
    if total:
        errors.append((None, "scores", Text(N_(
            "Die Punkte ergeben zusammen %(total)s, nicht 0: der Angriff bekommt, was die Verteidiger zahlen "
            "(%(rule)s; %(official)s)."), total=number(total), rule=CONTRACTS_RULE, official=OFFICIAL)))
        return None
    if not any(scores.values()):
        return scores, 0  # a deal declared null (FFT-Regeln: Schiedsrichtergesetz)
    found = shares(scores, noted["taker"], noted["partner"])
    if not found:
        errors.append((None, "scores", Text(N_(
            "Jeder Verteidiger zahlt D, der Spielnehmer bekommt so viel, wie sie zusammen zahlen (zu fünft mit "
            "Partner 2 D und der Partner D); diese Punkte passen dazu nicht (%(rule)s; %(official)s)."),
            rule=CONTRACTS_RULE, official=OFFICIAL)))
        return None
    contracts = [contract] if contract else list(CONTRACTS)
    for d in found:
        if any(d in defender_scores(c, len(players)) for c in contracts):
            return scores, d
    names = ", ".join(CONTRACT_NAMES[c] for c in contracts)
    errors.append((None, "scores", Text(N_(
        "D = %(d)s je Verteidiger ergibt kein Spiel (%(contracts)s): (25 + Differenz ± Petit au bout) × Vertrag "
        "± Poignées + Chelem nimmt diesen Wert nicht an (%(rule)s; %(official)s)."), d=number(found[0]),
        contracts=names, rule=CONTRACTS_RULE, official=OFFICIAL)))
    return None
