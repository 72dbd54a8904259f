"""The Partie as the paper sheet shows it: one column per player, one row per entry.

Pure: takes the rules engine's computed match and lays it out in rows for the match page
(``protocol/jinja2/protocol/parts/state.html``). It computes nothing the rules decide.

One shape for every game: :func:`sheet_rows` walks the recorded events once and makes a
row for each game, sanction, end and annulment; the game's site plug-in
(``protocol.games``) makes its own game rows (``plugin.game_row``) and may add rows after
an event (``plugin.rows_after``: a Stechen's heading).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from protocol.rules.match import leader
from protocol.rules.vocabulary import number, signed

SANCTION_NAMES = {"penalty": gettext_lazy("Penalty"), "warning": gettext_lazy("Warning"),
                  "disqualification": gettext_lazy("Disqualification")}


@dataclass
class Cell:
    playing: bool
    score: int | None = None
    total: int | None = None
    explanation: str = ""
    bonus: bool = False
    sits_out: bool = False  # at the table but not in this game (the dealer of a table of five)


@dataclass
class Row:
    kind: str  # game | sanction | stechen | end
    position: int | None  # the event's position (for corrections), None for headings
    number: int | None = None
    stage: int = 0
    shuffler: str | None = None  # the Mischer, where the game has one who is no dealer
    dealer: str = ""  # the dealer, where the game has one who is no Mischer
    trump: str = ""
    selected_trump: str = ""
    inversions: list[str] = field(default_factory=list)
    cells: list[Cell] = field(default_factory=list)
    annulled: bool = False
    text: str = ""
    description: str = ""  # the game in a few words (Mischer and trump, or type, parties, outcome)
    explanation: str = ""  # how the score came about (the engine's words), where one line says it


@dataclass
class Standing:
    player: str
    total: int
    leader: bool
    disqualified: bool
    shown: str = ""  # the total as the page writes it
    badge: str = ""  # "winner", "leads" where the page marks the leader
    to_limit: int | None = None  # points still needed to exceed the stage's Obergrenze, if it has one


def sheet_rows(match, plugin) -> list[Row]:
    """Every recorded entry as a row, in the order of the events."""
    return [row for rows in plugin.entry_rows(match) for row in rows]


def entry_rows(match, plugin, start: int = 0) -> list[list[Row]]:
    """The rows of each recorded entry from position ``start`` on (its own and those the game
    adds after it): an entry's rows are made of the entries up to it, fed in order."""
    players = match.players
    games_by_event = {g.event: g for g in match.games}
    sanctions_by_event = {s.event: s for s in match.sanctions}
    articles = plugin.ruleset.articles
    out: list[list[Row]] = []
    for position, event in enumerate(match.envelope.events[start:], start):
        kind = next(iter(event), "") if isinstance(event, dict) else ""
        rows: list[Row] = []
        if position in games_by_event:
            rows.append(plugin.game_row(match, games_by_event[position]))
        elif position in sanctions_by_event:
            rows.append(sanction_row(sanctions_by_event[position], players))
        elif kind == "end":
            reason = (event["end"] or {}).get("reason")
            rows.append(Row("end", position, text=_("End: %(reason)s") % {
                "reason": plugin.ruleset.ended_by_label(reason) or reason}))
        elif kind == "annul_match":  # its own reason: a row is made of the entries up to it
            body = event["annul_match"]
            reason = body["reason"].strip() if isinstance(body, dict) and isinstance(body.get("reason"), str) else ""
            text = _("Match annulled: %(reason)s") % {"reason": reason}
            rows.append(Row("end", position, text=text + cited(articles.get("annul", ""))))
        rows.extend(plugin.rows_after(match, position))
        out.append(rows)
    return out


def cited(article: str) -> str:
    """" (SV 4)" after a text that names its rule, "" where the game's rules name none; a rule
    the engine words ("FFT-Regeln: Schiedsrichtergesetz") in the reader's language."""
    return f" ({article!s})" if article else ""


def sanction_row(sanction, players: list[str]) -> Row:
    label = SANCTION_NAMES[sanction.kind]
    points = f" −{sanction.points}" if sanction.points else ""
    cells = [Cell(playing=p == sanction.player, score=-sanction.points if p == sanction.player else None)
             for p in players]
    return Row("sanction", sanction.event, stage=sanction.stage, cells=cells,
               text=_("%(sanction)s%(points)s for %(player)s: %(reason)s") % {
                   "sanction": label, "points": points, "player": sanction.player, "reason": sanction.reason})


def active_at(match, position: int) -> list[str]:
    """The players who could still play at event ``position`` (not disqualified before it)."""
    gone = {s.player for s in match.sanctions if s.kind == "disqualification" and s.event < position}
    return [p for p in match.players if p not in gone]


def dealer_of(game) -> str:
    """The dealer a game body names ("" if none)."""
    dealer = game.data.get("dealer") if isinstance(game.data, dict) else None
    return dealer if isinstance(dealer, str) else ""


def dealt_row(match, game, description: str, sits_out: str | None = None) -> Row:
    """The row of a game with a dealer and its score per player (``sits_out``: the player
    at the table who deals and does not play)."""
    active = active_at(match, game.event)
    scores = game.scores or {}
    cells = [Cell(playing=True, score=scores.get(p), total=game.totals.get(p), sits_out=p == sits_out)
             if p in active else Cell(playing=False) for p in match.players]
    return Row("game", game.event, number=game.number, dealer=dealer_of(game), cells=cells,
               annulled=game.annulled, description=description, explanation=game.explanation,
               text=_("annulled: %(reason)s") % {"reason": game.annul_reason} if game.annulled else "")


def totals_standings(match) -> list[Standing]:
    """Best first; the leader is the engine's (a tie for first has none)."""
    top = leader(match.totals, match.active_players)
    badge = _("winner") if match.status == "finished" else _("leads")
    rows = [Standing(p, match.totals[p], p == top, p in match.disqualified, shown=signed(match.totals[p]),
                     badge=badge if p == top else "") for p in match.players]
    return sorted(rows, key=lambda s: (s.disqualified, -s.total))


def leader_fact(standings: list[Standing]) -> str:
    """The leader as the status names him: "Anna (450)", or a tie at the top."""
    first = standings[0] if standings else None
    if first is None:
        return ""
    if first.leader and not (len(standings) > 1 and standings[1].leader):
        return format_html("<strong>{}</strong> ({})", first.player, number(first.total))
    return f"{_('tie at the top')} ({number(first.total)})"
