"""A Chaotentrumpf Partie as the paper sheet shows it: the Spiel rows with Mischer, trump and
inversions, the Stechen headings, the standing with the points still needed (Art. 17).

Pure: lays out what the rules engine computed (protocol/games/chaotentrumpf/rules/partie.py).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from protocol.games.chaotentrumpf.rules.inversion import KIND_NAMES
from protocol.games.chaotentrumpf.rules.partie import TIEBREAK_POINTS_PER_PLAYER
from protocol.rules.vocabulary import number
from protocol.rules.words import N_, Text, concat
from protocol.sheet.markup import entry_actions, escape, game_summary
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


def game_details(match, rows, links) -> list[str]:
    """The games among ``rows`` in "Games in detail": trump, Mischer, inversions and each
    player's score by Art. 16, with each Spiel's buttons (``links``:
    protocol.sheet.markup.EntryLinks or None)."""
    trump_word, shuffler_word, tiebreak = escape(_("Trump")), escape(_("Shuffler")), escape(_("Tie-break"))
    chosen_word, inversions_word = escape(_("Chosen trump")), escape(_("Inversions"))
    players = [escape(p) for p in match.players]
    out = []
    for row in rows:
        if row.kind != "game":
            continue
        words = f"{trump_word} {escape(row.trump or '–')} · {shuffler_word} {escape(row.shuffler)}"
        out.append(f'<details id="spiel-{row.number}">'
                   f'{game_summary(row, words + (f" · {tiebreak}" if row.stage else ""))}')
        if row.selected_trump and row.selected_trump != row.trump:
            out.append(f"<p>{chosen_word}: {escape(row.selected_trump)}</p>")
        if row.inversions:
            out.append(f"<p>{inversions_word}: {escape('; '.join(row.inversions))}</p>")
        if row.annulled:
            out.append(f"<p>{escape(row.text)}</p>")
        out.append("<ul>")  # Art. 16: each player's score in words
        out.extend(f"<li><b>{name}</b>: {escape(cell.explanation or '–')}</li>"
                   for name, cell in zip(players, row.cells) if cell.playing)
        out.append(f"</ul>{entry_actions(row, links)}</details>")
    return out
