"""The Partie as the paper sheet shows it: one column per player, one row per Spiel.

Pure: takes the rules engine's computed match and lays it out in rows for the match page
and the printed Spielprotokollblatt. It computes nothing the rules decide.

``sheet_rows``/``standings`` lay out a Chaotentrumpf match; ``tally_rows``/``tally_standings``
a match of a tally ruleset (Doppelkopf, Tarot: protocol/rules/tally.py), each game described
by its ruleset's ``describe_*`` function (protocol/games.py picks them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from protocol.rules.chaotentrumpf.inversion import KIND_NAMES
from protocol.rules.chaotentrumpf.partie import END_REASONS, ENDED_BY, Match
from protocol.rules.doppelkopf.game import PARTY_NAMES as DK_PARTIES
from protocol.rules.doppelkopf.game import TYPES as DK_TYPES
from protocol.rules.doppelkopf.settings import PLAYERS_AT_TABLE as DK_TABLE
from protocol.rules.tally import TallyGame, TallyMatch, leader
from protocol.rules.tarot.scoring import CONTRACT_NAMES, format_points, signed

SANCTION_NAMES = {"penalty": gettext_lazy("Penalty"), "warning": gettext_lazy("Warning"),
                  "disqualification": gettext_lazy("Disqualification")}


@dataclass
class Cell:
    playing: bool
    score: int | None = None
    total: int | None = None
    explanation: str = ""
    bonus: bool = False
    sits_out: bool = False  # at the table but not in this game (Doppelkopf: the fifth deals)


@dataclass
class Row:
    kind: str  # game | sanction | stechen | end
    position: int | None  # the event's position (for corrections), None for headings
    number: int | None = None
    stage: int = 0
    shuffler: str | None = None  # the Mischer; in a tally game (Doppelkopf, Tarot) the dealer
    trump: str = ""
    selected_trump: str = ""
    inversions: list[str] = field(default_factory=list)
    cells: list[Cell] = field(default_factory=list)
    annulled: bool = False
    text: str = ""
    description: str = ""  # tally games: the game in a few words (type, parties, outcome)
    explanation: str = ""  # tally games: how the score came about (the engine's words)


@dataclass
class Standing:
    player: str
    total: int
    to_limit: int  # points still needed to exceed the stage's Obergrenze (Art. 17a)
    leader: bool
    disqualified: bool


def sheet_rows(match: Match) -> list[Row]:
    players = match.players
    games_by_event = {g.event: g for g in match.games}
    sanctions_by_event = {s.event: s for s in match.sanctions}
    tiebreaks = {t.opened_by_event: t for t in match.tiebreaks}
    rows: list[Row] = []
    for position, event in enumerate(match.envelope.events):
        kind = next(iter(event), "") if isinstance(event, dict) else ""
        if position in games_by_event:
            rows.append(_game_row(games_by_event[position], players))
        elif position in sanctions_by_event:
            rows.append(_sanction_row(sanctions_by_event[position], players))
        elif kind == "end":
            reason = (event["end"] or {}).get("reason")
            rows.append(Row("end", position, text=f"Ende: {END_REASONS.get(reason, reason)} (Art. 17c)"))
        elif kind == "annul_match":
            rows.append(Row("end", position, text=f"Partie annulliert: {match.annulment_reason} (SV 4)"))
        stechen = tiebreaks.get(position)
        if stechen is not None:
            rows.append(Row("stechen", None, stage=stechen.depth, text=(
                f"Stechen: {', '.join(stechen.players)} – Obergrenze {stechen.limit} "
                f"(50 je Teilnehmer, Art. 17b)")))
    return rows


def _game_row(game, players: list[str]) -> Row:
    cells = []
    for player in players:
        if player not in game.players:
            cells.append(Cell(playing=False))
            continue
        score = game.scores.get(player) if game.scores else None
        cells.append(Cell(playing=True, score=score.points if score else None,
                          total=game.totals.get(player), explanation=score.explanation if score else "",
                          bonus=bool(score and score.trump_bonus)))
    return Row(
        "game", game.event, number=game.number, stage=game.stage, shuffler=game.shuffler,
        trump=game.trump.label if game.trump else "",
        selected_trump=game.selected_trump.label if game.selected_trump else "",
        inversions=[f"{inv.player}: {KIND_NAMES[inv.recognised]} → {inv.target.label}" for inv in game.inversions],
        cells=cells, annulled=game.annulled,
        text=f"annulliert: {game.annul_reason}" if game.annulled else "")


def standings(match: Match) -> list[Standing]:
    """The stage under way (or the Partie's end), best first."""
    stage = match.current_stage or match.stages[-1]
    top = max(stage.totals.values()) if stage.totals else 0
    rows = [Standing(p, stage.totals[p], stage.points_to_win(p), stage.totals[p] == top,
                     p in match.disqualified) for p in stage.players]
    return sorted(rows, key=lambda s: (s.disqualified, -s.total))


def ended_by_text(match: Match) -> str:
    return ENDED_BY.get(match.ended_by or "", "")


# -- the tally rulesets (Doppelkopf, Tarot) -----------------------------------------------------

@dataclass
class TallyStanding:
    player: str
    total: int
    leader: bool
    disqualified: bool


def tally_rows(match: TallyMatch, describe) -> list[Row]:
    """One row per game (``describe(game, players)`` -> its few words), sanction and end."""
    players = match.players
    games_by_event = {g.event: g for g in match.games}
    sanctions_by_event = {s.event: s for s in match.sanctions}
    rows: list[Row] = []
    for position, event in enumerate(match.envelope.events):
        kind = next(iter(event), "") if isinstance(event, dict) else ""
        if position in games_by_event:
            game = games_by_event[position]
            active = active_at(match, position)
            rows.append(Row(
                "game", position, number=game.number, shuffler=_dealer(game),
                cells=_tally_cells(game, players, active, _sitting_out(match, game, active)),
                annulled=game.annulled, description=describe(game, active), explanation=game.explanation,
                text=_("annulled: %(reason)s") % {"reason": game.annul_reason} if game.annulled else ""))
        elif position in sanctions_by_event:
            rows.append(_sanction_row(sanctions_by_event[position], players))
        elif kind == "end":
            rows.append(Row("end", position, text=_("End: %(reason)s") % {"reason": match.ended_by_label}))
        elif kind == "annul_match":
            rows.append(Row("end", position, text=_("Match annulled: %(reason)s") % {"reason": match.annulment_reason}))
    return rows


def active_at(match: TallyMatch, position: int) -> list[str]:
    """The players who could still play at event ``position`` (not disqualified before it)."""
    gone = {s.player for s in match.sanctions if s.kind == "disqualification" and s.event < position}
    return [p for p in match.players if p not in gone]


def _dealer(game: TallyGame) -> str:
    dealer = game.data.get("dealer") if isinstance(game.data, dict) else None
    return dealer if isinstance(dealer, str) else ""


def _tally_cells(game: TallyGame, players: list[str], active: list[str], out: str | None) -> list[Cell]:
    scores = game.scores or {}
    return [Cell(playing=p in active, score=scores.get(p), total=game.totals.get(p), sits_out=p == out)
            if p in active else Cell(playing=False) for p in players]


def _sitting_out(match: TallyMatch, game: TallyGame, active: list[str]) -> str | None:
    """Doppelkopf with five: the dealer sits out (TCG Allgemeines)."""
    if match.envelope.ruleset == "doppelkopf" and len(active) > DK_TABLE:
        return _dealer(game) or None
    return None


def _sanction_row(sanction, players: list[str]) -> Row:
    label = SANCTION_NAMES[sanction.kind]
    points = f" −{sanction.points}" if sanction.points else ""
    cells = [Cell(playing=p == sanction.player, score=-sanction.points if p == sanction.player else None)
             for p in players]
    return Row("sanction", sanction.event, stage=sanction.stage, cells=cells,
               text=_("%(sanction)s%(points)s for %(player)s: %(reason)s") % {
                   "sanction": label, "points": points, "player": sanction.player, "reason": sanction.reason})


def describe_doppelkopf(game: TallyGame, players: list[str]) -> str:
    """E.g. "Normalspiel · Re Anna, Bernd · Kontra wins 10" (the game value before the solo factor)."""
    body = game.data if isinstance(game.data, dict) else {}
    if "type" not in body:
        return _("not played")
    re = body.get("re") or []
    parts = [DK_TYPES.get(body["type"], str(body["type"])), f"Re {', '.join(re)}"]
    winner = game.extra.get("winner")
    if winner:
        parts.append(_("%(party)s wins %(value)s") % {"party": DK_PARTIES[winner], "value": game.extra.get("value")})
    elif game.scores is not None:
        parts.append(_("nobody wins (%(value)s)") % {"value": game.extra.get("value")})
    if body.get("revoke"):
        parts.append(_("Verwurf by %(player)s") % {"player": body["revoke"]})
    return " · ".join(parts)


def describe_tarot(game: TallyGame, players: list[str]) -> str:
    """E.g. "Bernd · Garde · 49 points · D 106"; "declared null" for a null deal."""
    body = game.data if isinstance(game.data, dict) else {}
    if body.get("null"):
        return _("declared null")
    taker = str(body.get("taker") or "")
    if body.get("partner"):
        taker = _("%(taker)s with %(partner)s") % {"taker": taker, "partner": body["partner"]}
    parts = [taker, CONTRACT_NAMES.get(body.get("contract"), "")]
    points = body.get("points")
    if isinstance(points, (int, float)):
        parts.append(_("%(points)s points") % {"points": format_points(points)})
    if "defender_score" in game.extra:
        parts.append(f"D {signed(game.extra['defender_score'])}")
    return " · ".join(p for p in parts if p)


def tally_standings(match: TallyMatch) -> list[TallyStanding]:
    """Best first; the leader is the engine's (a tie for first has none)."""
    top = leader(match.totals, match.active_players)
    rows = [TallyStanding(p, match.totals[p], p == top, p in match.disqualified) for p in match.players]
    return sorted(rows, key=lambda s: (s.disqualified, -s.total))
