"""Who wins a Doppelkopf game and what it is worth, by TCG and by DDV rules.

Vocabulary (docs/doppelkopf.md):

- *Levels under*: how many of the marks 90, 60, 30 a party stayed under, plus one if it took
  no trick (schwarz): 0 to 4. Levels are nested, so a party's *Absage level* ``a`` is made
  when the other party stayed under at least ``a`` levels.
- *Base target*: Re needs 121 points, Kontra wins with 120 (DDV 7.1: when only Kontra was
  announced, Re wins with 120 and Kontra needs 121).
- A party *wins* when it made its own Absage (if any) and reached its base target or the
  opponent missed an Absage (the party then reached 90 / 60 / 30 / one trick against it).
  A party that misses its own Absage loses; when both miss, nobody wins.
- *Revoke* (Verwurf, TCG 7): the game ends at once and the revoking player's party loses;
  the points recorded and the announcements made until then are scored for the other party.
- *Value* (the ``value`` of the output): the game value each member of the winning party
  gets before the solo factor (a soloist gets 3 x value, each opponent -value). Under DDV it
  may be negative (the loser's special points outweigh); in a DDV game nobody won, it is what
  each Re player gets.

Decisions where the texts are silent (see the package docstring for the whole list):

- TCG, both parties miss their own Absage: nobody wins and the game scores 0.
- TCG 3 applies whenever the losing party missed one of its own Absagen (not only when it
  would otherwise have won): its Absagen count for the winner as reached and as announced.
- TCG 2: "gegen die Alten" counts in solos too (the seed gives it to the winning
  Kontrapartei without exception); DDV counts it in normal games only.
- Revoke, TCG: the win point, the levels the loser stayed under by the recorded points,
  every Absage of either party as announced (+1 each), gegen die Alten when Kontra wins,
  special points, doubling. DDV: the usual DDV value with the winner fixed.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.rules.vocabulary import signed
from protocol.rules.words import N_, Text, concat, joined

from .game import PARTIES, PARTY_NAMES, Deal, other

TCG_LEVELS = (N_("keine 9"), N_("keine 6"), N_("keine 3"), N_("schwarz"))  # the seed's words (Punktevergabe)
DDV_LEVELS = (N_("unter 90"), N_("unter 60"), N_("unter 30"), N_("schwarz"))
ABSAGE_WORDS = (N_("keine 90"), N_("keine 60"), N_("keine 30"), N_("schwarz"))  # ABSAGEN, as a sentence says them
DDV_MARKS = (120, 90, 60, 30)  # reached against keine 90, keine 60, keine 30, schwarz (DDV 7.2)
SPECIAL_NAMES = {
    "tcg": {"doppelkopf": N_("Doppelkopf"), "fuchs": N_("Fuchs gefangen"), "karl": N_("Karl"),
            "herzstich": N_("Herzstich")},
    "ddv": {"doppelkopf": N_("Doppelkopf"), "fuchs": N_("Fuchs gefangen"), "karl": N_("Karlchen")},
}


@dataclass
class Outcome:
    winner: str | None  # re | kontra | None
    value: int
    scores: dict[str, int]  # every player given, 0 for the dealer sitting out
    explanation: str


Parts = list[tuple[str, int]]


def levels_under(deal: Deal, party: str) -> int:
    """How many of the levels under 90, 60, 30, schwarz the party stayed under."""
    points = deal.points(party)
    return sum(points < mark for mark in (90, 60, 30)) + (not deal.took_trick(party))


def made_own_absage(deal: Deal, party: str) -> bool:
    return levels_under(deal, other(party)) >= deal.absage(party)


def base_target(deal: Deal, party: str) -> int:
    only_kontra = deal.rules == "ddv" and deal.announced("kontra") and not deal.announced("re")  # DDV 7.1
    if party == "re":
        return 120 if only_kontra else 121
    return 121 if only_kontra else 120


def wins(deal: Deal, party: str) -> bool:
    opponent = other(party)
    if not made_own_absage(deal, party):
        return False
    missed_by_opponent = deal.absage(opponent) > 0 and not made_own_absage(deal, opponent)
    return deal.points(party) >= base_target(deal, party) or missed_by_opponent


def winner(deal: Deal) -> str | None:
    if deal.revoke is not None:
        return other(deal.party_of(deal.revoke))  # TCG 7
    return next((p for p in PARTIES if wins(deal, p)), None)


def score(deal: Deal) -> Outcome:
    return score_tcg(deal) if deal.rules == "tcg" else score_ddv(deal)


# -- TCG ------------------------------------------------------------------------------------
def score_tcg(deal: Deal) -> Outcome:
    won_by = winner(deal)
    if won_by is None:
        return Outcome(None, 0, distribute(deal, None, 0), Text(N_(
            "%(points)s: beide Parteien verfehlen ihre eigene Absage, keine gewinnt; "
            "das Spiel zählt 0 (wer seine Absage verfehlt, verliert)."), points=_points_text(deal)))
    lost_by = other(won_by)
    revoked = deal.revoke is not None
    too_high = not revoked and deal.absage(lost_by) > 0 and not made_own_absage(deal, lost_by)  # TCG 3
    parts: Parts = []
    tie_at_120 = won_by == "kontra" and deal.re_points == 120 and not (revoked or too_high)
    if not tie_at_120:  # TCG 1: Kontra wins with 120, but Re reached 120 too: no win point
        parts.append((N_("gewonnen (keine 12)"), 1))
    reached = levels_under(deal, lost_by)
    counted = max(reached, deal.absage(lost_by)) if too_high else reached
    for level in range(counted):
        own = Text(N_("%(level)s (Absage von %(party)s, TCG 3)"), level=TCG_LEVELS[level], party=PARTY_NAMES[lost_by])
        parts.append((own if level >= reached else TCG_LEVELS[level], 1))
    parts += [(Text(N_("%(level)s angesagt"), level=TCG_LEVELS[level]), 1) for level in range(deal.absage(won_by))]
    if too_high or revoked:  # TCG 3, TCG 7: the loser's Absagen count for the winner
        parts += [(Text(N_("%(level)s angesagt von %(party)s"), level=TCG_LEVELS[level], party=PARTY_NAMES[lost_by]), 1)
                  for level in range(deal.absage(lost_by))]
    if won_by == "kontra" and not too_high:
        parts.append((N_("gegen die Alten"), 1))  # TCG 2
    points = sum(n for _, n in parts)
    specials = tcg_specials(deal)
    net = points + _sum(specials[won_by]) - _sum(specials[lost_by])
    value = max(0, net)  # TCG 4: a game is won by card points, never by special points
    factor, doubled_by = 1, []
    for party in PARTIES:
        if deal.announced(party):  # TCG 5
            factor *= 2
            doubled_by.append(Text(N_("%(party)s angesagt"), party=PARTY_NAMES[party]))
    value *= factor
    text = [_winner_text(deal, won_by, revoked, too_high), _sum_text(parts, points)]
    if specials["re"] or specials["kontra"]:
        text.append(concat(_specials_text(points, specials, won_by, lost_by, net),
                           N_(" → 0 (gewonnen wird nur mit Augen, TCG 4)") if net < 0 else ""))
    if deal.type in ("solo_damen", "solo_buben") and _extras_recorded(deal):
        text.append(N_("andere Sonderpunkte zählen im Damen- und Bubensolo nicht (TCG 4)"))
    if factor > 1:
        text.append(Text("× %(factor)s (%(by)s, TCG 5) = %(value)s", factor=factor, by=joined(", ", doubled_by),
                         value=value))
    text.append(_share_text(deal, won_by, value, "TCG 6"))
    return Outcome(won_by, value, distribute(deal, won_by, value), concat(joined("; ", text), "."))


def tcg_specials(deal: Deal) -> dict[str, Parts]:
    """TCG 4: 1 each; in Damen- and Bubensolo only the solo point, in a Trumpfsolo all."""
    specials: dict[str, Parts] = {p: [] for p in PARTIES}
    if deal.solo:
        specials["re"].append((N_("Solo"), 1))
    if deal.type in ("solo_damen", "solo_buben"):
        return specials
    for party in PARTIES:
        specials[party] += _counted_extras(deal, party, "tcg")
    return specials


# -- DDV ------------------------------------------------------------------------------------
def score_ddv(deal: Deal) -> Outcome:
    won_by = winner(deal)
    normal = not deal.solo  # DDV 7.2: gegen die Alten and special points in normal games only
    specials = {p: _counted_extras(deal, p, "ddv") if normal else [] for p in PARTIES}
    if won_by is None:
        return _ddv_nobody(deal, specials)
    lost_by = other(won_by)
    parts: Parts = [(N_("gewonnen"), 1)]
    parts += [(DDV_LEVELS[level], 1) for level in range(levels_under(deal, lost_by))]
    parts += [(Text(N_("%(party)s angesagt"), party=PARTY_NAMES[p]), 2) for p in PARTIES if deal.announced(p)]
    parts += [(Text(N_("%(absage)s abgesagt (%(party)s)"), absage=ABSAGE_WORDS[level], party=PARTY_NAMES[p]), 1)
              for p in PARTIES for level in range(deal.absage(p))]
    parts += _marks_reached(deal, won_by)
    if normal and won_by == "kontra":
        parts.append((N_("gegen die Alten"), 1))
    points = sum(n for _, n in parts)
    value = points + _sum(specials[won_by]) - _sum(specials[lost_by])
    text = [_winner_text(deal, won_by, deal.revoke is not None, False), _sum_text(parts, points)]
    if specials["re"] or specials["kontra"]:
        text.append(_specials_text(points, specials, won_by, lost_by, value))
    elif not normal and _extras_recorded(deal):
        text.append(N_("Sonderpunkte zählen im Solo nicht (DDV 7.2)"))
    text.append(_share_text(deal, won_by, value, "DDV 7.2"))
    return Outcome(won_by, value, distribute(deal, won_by, value), concat(joined("; ", text), "."))


def _ddv_nobody(deal: Deal, specials: dict[str, Parts]) -> Outcome:
    """DDV 7.1: both missed their Absage; only levels, marks and special points count."""
    earned = {}
    text = [Text(N_("%(points)s: beide Parteien verfehlen ihre Absage, keine gewinnt (DDV 7.1)"),
                 points=_points_text(deal))]
    for party in PARTIES:
        parts = [(DDV_LEVELS[level], 1) for level in range(levels_under(deal, other(party)))]
        parts += _marks_reached(deal, party) + specials[party]
        earned[party] = _sum(parts)
        text.append(Text("%(party)s: %(sum)s", party=PARTY_NAMES[party], sum=_sum_text(parts, earned[party])))
    value = earned["re"] - earned["kontra"]
    text.append(_share_text(deal, "re", value, "DDV 7.2"))
    return Outcome(None, value, distribute(deal, None, value), concat(joined("; ", text), "."))


def _marks_reached(deal: Deal, party: str) -> Parts:
    """DDV 7.2: 120 against keine 90, 90 against keine 60, 60 against keine 30, 30 against schwarz."""
    opponent = other(party)
    return [(Text(N_("%(mark)s gegen %(absage)s"), mark=DDV_MARKS[level], absage=ABSAGE_WORDS[level]), 1)
            for level in range(deal.absage(opponent)) if deal.points(party) >= DDV_MARKS[level]]


# -- shared ---------------------------------------------------------------------------------
def distribute(deal: Deal, won_by: str | None, value: int) -> dict[str, int]:
    """Winner +value each, loser -value each; a soloist 3 x (TCG 6, DDV 7.2); nobody won: Re's view."""
    re_gets = -value if won_by == "kontra" else value
    scores = {p: 0 for p in deal.players}  # the dealer sitting out scores 0 (TCG 8)
    for player in deal.table:
        share = re_gets if player in deal.re else -re_gets
        scores[player] = 3 * share if deal.solo and player in deal.re else share
    return scores


def _counted_extras(deal: Deal, party: str, rules: str) -> Parts:
    names = SPECIAL_NAMES[rules]
    return [(names[kind], n) for kind, n in deal.extras[party].items() if n and kind in names]


def _extras_recorded(deal: Deal) -> bool:
    return any(n for party in PARTIES for n in deal.extras[party].values())


def _sum(parts: Parts) -> int:
    return sum(n for _, n in parts)


def _points_text(deal: Deal) -> str:
    return Text(N_("Re %(re)s, Kontra %(kontra)s Augen"), re=deal.points("re"), kontra=deal.points("kontra"))


def _winner_text(deal: Deal, won_by: str, revoked: bool, too_high: bool) -> str:
    text = Text(N_("%(party)s gewinnt (%(points)s)"), party=PARTY_NAMES[won_by], points=_points_text(deal))
    if revoked:
        rule = "TCG 7" if deal.rules == "tcg" else "DDV 9"
        text = concat(text, Text(N_(", Verwurf von %(player)s beendet das Spiel (%(rule)s)"), player=deal.revoke,
                                 rule=rule))
    elif too_high:
        text = concat(text, Text(N_(", %(party)s verfehlt die eigene Absage (TCG 3)"),
                                 party=PARTY_NAMES[other(won_by)]))
    return text


def _sum_text(parts: Parts, total: int) -> str:
    if not parts:
        return "0"
    return Text("%(parts)s = %(total)s", parts=_listed(" + ", parts), total=total)


def _listed(separator: str, parts: Parts) -> Text:
    return joined(separator, (Text("%(label)s %(n)s", label=label, n=n) for label, n in parts))


def _specials_text(points: int, specials: dict[str, Parts], won_by: str, lost_by: str, result: int) -> str:
    """``points`` plus the winner's special points minus the loser's (TCG 4, DDV 7.2)."""
    def listed(party: str) -> str:
        head = Text("%(party)s %(sum)s", party=PARTY_NAMES[party], sum=_sum(specials[party]))
        return Text("%(head)s (%(inner)s)", head=head, inner=_listed(", ", specials[party])) if specials[party] else head

    return Text(N_("%(points)s + Sonderpunkte %(won)s − Sonderpunkte %(lost)s = %(result)s"), points=points,
                won=listed(won_by), lost=listed(lost_by), result=result)


def _share_text(deal: Deal, party: str, value: int, rule: str) -> str:
    """Who gets what, from ``party``'s view of ``value``."""
    if deal.solo:
        solo_gets = value if party == "re" else -value
        text = Text(N_("Solo: %(soloist)s %(solo)s, Gegenspieler je %(each)s (%(rule)s)"), soloist=deal.re[0],
                    solo=signed(3 * solo_gets), each=signed(-solo_gets), rule=rule)
    else:
        text = joined(", ", (Text(N_("%(party)s je %(score)s"), party=PARTY_NAMES[p],
                                  score=signed(value if p == party else -value)) for p in PARTIES))
    if deal.sitting_out:
        text = concat(text, Text(N_("; %(player)s gibt und sitzt aus: 0"), player=deal.sitting_out))
    return text

