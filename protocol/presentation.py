"""The Partie as the paper sheet shows it: one column per player, one row per Spiel.

Pure: takes the rules engine's computed match and lays it out in rows for the match page
and the printed Spielprotokollblatt. It computes nothing the rules decide.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from protocol.rules.chaotentrumpf.inversion import KIND_NAMES
from protocol.rules.chaotentrumpf.partie import ENDED_BY, END_REASONS, Match

SANCTION_NAMES = {"penalty": "Strafe", "warning": "Verwarnung", "disqualification": "Disqualifikation"}


@dataclass
class Cell:
    playing: bool
    score: int | None = None
    total: int | None = None
    explanation: str = ""
    bonus: bool = False


@dataclass
class Row:
    kind: str  # game | sanction | stechen | end
    position: int | None  # the event's position (for corrections), None for headings
    number: int | None = None
    stage: int = 0
    shuffler: str | None = None
    trump: str = ""
    selected_trump: str = ""
    inversions: list[str] = field(default_factory=list)
    cells: list[Cell] = field(default_factory=list)
    annulled: bool = False
    text: str = ""


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
            sanction = sanctions_by_event[position]
            label = SANCTION_NAMES[sanction.kind]
            points = f" −{sanction.points}" if sanction.points else ""
            cells = [Cell(playing=p == sanction.player, score=-sanction.points if p == sanction.player else None)
                     for p in players]
            rows.append(Row("sanction", position, stage=sanction.stage, cells=cells,
                            text=f"{label}{points} für {sanction.player}: {sanction.reason}"))
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
