"""A Doppelkopf game recorded as points only: ``{"scores": {player: points}}``, with the
``dealer`` when it was noted (protocol/rules/scores.py).

What the points alone can still prove, by the rules of the table (docs/doppelkopf.md):

- *Who gets what* (TCG 6, DDV-Turnierspielregeln 7.2): the four at the table score +V, +V,
  -V, -V (two against two: Normalspiel, Hochzeit with a partner, Abgabe) or 3V, -V, -V, -V
  (a solo, a stille Hochzeit, a Hochzeit without a partner: the soloist three times); so
  every game sums to zero. With five players the dealer sits out and scores 0 (TCG 8, and
  the DDV ruling of five at a table); when the dealer is not noted, some player with 0 must
  be the one who sat out.
- *The game value V* (as a number, whoever won): every value the scoring of a full game
  (scoring.py) gives for a deal the checks of game.py accept, worked out over every game
  type, Re's card points at each mark (0, 30, 60, 90, 120, 121, 150, 180, 210, 240 and
  beside them), every announcement of either party, schwarz, a Verwurf by either party and
  the most special points the checks allow either party:
  - TCG: a game is worth the winner's points plus its special points minus the loser's,
    never below 0 (TCG 4), then doubled for each party's Ansage (TCG 5). Without an Ansage
    at most 16 (win 1, keine 9/6/3/schwarz 4, gegen die Alten 1, special points 10; or the
    soloist's 16 with the solo point); with one Ansage at most 2 x 20; with both at most
    4 x 24 (13 points, as under TCG 3 or a Verwurf every Absage of both parties counts, and
    11 special points). So V is 0 to 16, an even number to 40, or a multiple of 4 to 96.
  - DDV: won 1, four levels, Re 2 and Kontra 2, eight Absagen, four marks reached against
    Absagen, gegen die Alten 1 and nine special points: at most 31; in a solo (no gegen
    die Alten, no special points, DDV 7.2) at most 21. The loser's special points may
    outweigh (a negative value), never by more than these bounds.
  What the points cannot show is not checked: the card points, the announcements, the
  special points and who won.
"""

from __future__ import annotations

from protocol.rules.scores import read_scores
from protocol.rules.vocabulary import number
from protocol.rules.words import N_, Text

from .settings import PLAYERS_AT_TABLE, Settings

POINTS_ONLY = N_("nur Punkte: Augen, Ansagen und Sonderpunkte nicht geprüft")
KEYS = {"dealer"}  # the fact that may be noted beside the scores
# The highest game value (before the solo factor) for each doubling (TCG 4, 5; see the module).
TCG_MOST = {1: 16, 2: 20, 4: 24}
DDV_MOST = {False: 31, True: 21}  # two against two, a solo (DDV 7.2)
SHARE_RULE = {"tcg": "TCG 6", "ddv": N_("DDV-Turnierspielregeln 7.2")}
VALUE_RULE = {"tcg": "TCG 4, 5", "ddv": N_("DDV-Turnierspielregeln 7.2")}
SIT_OUT_RULE = {"tcg": "TCG 8", "ddv": N_("DDV-Turnierspielregeln: am Tisch spielen vier; zu fünft sitzt im "
                                           "Vereinsspiel der Geber aus")}
Error = tuple[str | None, str | None, str]


def reachable(rules: str, value: int, solo: bool) -> bool:
    """Whether a game can be worth ``value`` (whoever won) by these rules (see the module)."""
    value = abs(value)
    if rules == "ddv":
        return value <= DDV_MOST[solo]
    return any(value % factor == 0 and value // factor <= most for factor, most in TCG_MOST.items())


def shares(table: dict[str, int]) -> list[tuple[int, bool]]:
    """The game values (V, solo) that give the four at the table these scores (TCG 6)."""
    values = sorted(table.values())
    found = []
    if values[0] == values[1] == -values[2] == -values[3]:  # two against two
        found.append((values[3], False))
    for soloist, score in table.items():  # the soloist three times, each opponent once
        others = [s for p, s in table.items() if p != soloist]
        if len(set(others)) == 1 and score == -3 * others[0]:
            found.append((score // 3, True))
    return found


def check_scores(data: dict, players: list[str], settings: Settings, article: str,
                 errors: list[Error]) -> dict[str, int] | None:
    """The scores of a points-only game if the rules can produce them, else None with errors."""
    rules = settings.rules
    before = len(errors)
    dealer = data.get("dealer")
    if dealer is not None and dealer not in players:
        errors.append((None, "dealer", Text(N_("Der Geber %(dealer)r spielt in dieser Partie nicht (mehr) mit."),
                                            dealer=dealer)))
    scores = read_scores(data.get("scores"), players, article, errors)
    if len(errors) > before:
        return None
    total = sum(scores.values())
    if total:
        errors.append((None, "scores", Text(N_(
            "Die Punkte ergeben zusammen %(total)s, nicht 0: die Gewinner bekommen, was die Verlierer zahlen "
            "(%(rule)s)."), total=number(total), rule=SHARE_RULE[rules])))
        return None
    if len(players) > PLAYERS_AT_TABLE:
        out = [dealer] if dealer is not None else [p for p in players if scores[p] == 0]
        if dealer is not None and scores[dealer]:
            errors.append((dealer, "scores", Text(N_(
                "%(dealer)s gibt, sitzt bei fünf Spielern aus und bekommt 0, nicht %(score)s (%(rule)s)."),
                dealer=dealer, score=number(scores[dealer]), rule=SIT_OUT_RULE[rules])))
            return None
    else:
        out = [None]
    found = [(value, solo) for sitting in out
             for value, solo in shares({p: s for p, s in scores.items() if p != sitting})]
    if not found:
        errors.append((None, "scores", Text(N_(
            "Am Tisch bekommen zwei je den Spielwert und zwei zahlen ihn, im Solo bekommt oder zahlt der Solist das "
            "Dreifache, jeder Gegenspieler den einfachen Wert%(sit_out)s; diese Punkte passen dazu nicht (%(rule)s)."),
            sit_out=_sit_out(players, rules), rule=SHARE_RULE[rules])))
        return None
    if not any(reachable(rules, value, solo) for value, solo in found):
        value, solo = found[0]
        errors.append((None, "scores", Text(N_(
            "Kein Spiel ist %(value)s wert: %(why)s (%(rule)s)."), value=abs(value),
            why=_why(rules, solo), rule=VALUE_RULE[rules])))
        return None
    return scores


def _sit_out(players: list[str], rules: str) -> Text | str:
    if len(players) <= PLAYERS_AT_TABLE:
        return ""
    return Text(N_(", der Geber sitzt aus und bekommt 0 (%(rule)s)"), rule=SIT_OUT_RULE[rules])


def _why(rules: str, solo: bool) -> Text:
    if rules == "ddv":
        return Text(N_("nach den DDV-Regeln ist ein %(kind)s höchstens %(most)s wert"),
                    kind=N_("Solo") if solo else N_("Spiel zwei gegen zwei"), most=DDV_MOST[solo])
    return Text(N_("ohne Ansage höchstens %(one)s, mit einer Ansage verdoppelt höchstens %(two)s (eine gerade Zahl), "
                   "mit beiden vervierfacht höchstens %(four)s (durch 4 teilbar)"), one=TCG_MOST[1],
                two=2 * TCG_MOST[2], four=4 * TCG_MOST[4])
