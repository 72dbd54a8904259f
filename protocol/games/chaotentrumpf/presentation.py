"""A Chaotentrumpf Partie as the paper sheet shows it: the Spiel rows with Mischer, trump and
inversions, the Stechen headings, the standing with the points still needed (Art. 17).

Pure: lays out what the rules engine computed (protocol/rules/chaotentrumpf/partie.py).
"""

from __future__ import annotations

from protocol.rules.chaotentrumpf.inversion import KIND_NAMES
from protocol.rules.chaotentrumpf.partie import TIEBREAK_POINTS_PER_PLAYER
from protocol.rules.vocabulary import number
from protocol.rules.words import N_, Text, concat
from protocol.sheet.rows import Cell, Row, Standing


def game_row(match, game) -> Row:
    cells = []
    for player in match.players:
        if player not in game.players:
            cells.append(Cell(playing=False))
            continue
        score = game.scores.get(player) if game.scores else None
        cells.append(Cell(playing=True, score=score.points if score else None,
                          total=game.totals.get(player), explanation=score.explanation if score else "",
                          bonus=bool(score and score.trump_bonus)))
    trump = game.trump.label if game.trump else ""
    return Row(
        "game", game.event, number=game.number, stage=game.stage, shuffler=game.shuffler,
        trump=trump, selected_trump=game.selected_trump.label if game.selected_trump else "",
        inversions=[concat(inv.player, ": ", KIND_NAMES[inv.recognised], " → ", inv.target.label)
                    for inv in game.inversions],
        cells=cells, annulled=game.annulled, description=concat(game.shuffler or "", " · ", trump or "–"),
        text=Text(N_("annulliert: %(reason)s"), reason=game.annul_reason) if game.annulled else "")


def stechen_rows(match, position: int) -> list[Row]:
    """The heading of the Stechen that the event at ``position`` opened (Art. 17b), if any."""
    return [Row("stechen", None, stage=stage.depth, text=stechen_text(stage))
            for stage in match.tiebreaks if stage.opened_by_event == position]


def stechen_text(stage) -> str:
    return Text(N_("Stechen: %(players)s – Obergrenze %(limit)s (%(each)s je Teilnehmer, Art. 17b)"),
                players=", ".join(stage.players), limit=stage.limit, each=TIEBREAK_POINTS_PER_PLAYER)


def standings(match) -> list[Standing]:
    """The stage under way (or the Partie's end), best first."""
    stage = match.current_stage or match.stages[-1]
    top = max(stage.totals.values()) if stage.totals else 0
    rows = [Standing(p, stage.totals[p], stage.totals[p] == top, p in match.disqualified,
                     shown=number(stage.totals[p]), to_limit=stage.points_to_win(p)) for p in stage.players]
    return sorted(rows, key=lambda s: (s.disqualified, -s.total))
