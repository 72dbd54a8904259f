"""What the printed lists of games share (a game without an Obergrenze): rows in the order
things happened, results, the columns' widths, a blank list's names and rows.

A tally match (``protocol/rules/tally.py``) has games, sanctions between them and an end.
:func:`sheet_rows` walks the recorded events once and makes one row for each, with a cell
per player in the sheet's column order; the ruleset's sheet fills in its own columns of a
game (``facts``) and says who sat it out. Nothing here decides a rule: scores, totals,
winner and the end come from the engine's :class:`TallyMatch`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from protocol.rules.envelope import single_key
from protocol.rules.tally import END_REASONS, Sanction, TallyGame, TallyMatch
from protocol.rules.vocabulary import number, signed

from .printing import colour, content_width, mm


@dataclass
class PlayerCell:
    state: str = "play"  # play | out (sits this game out) | gone (disqualified before it)
    score: str = ""
    total: str = ""
    negative_score: bool = False
    negative_total: bool = False


@dataclass
class Row:
    kind: str  # game | sanction | note
    number: int | None = None
    facts: dict[str, Any] = field(default_factory=dict)  # the ruleset's own columns of a game
    cells: list[PlayerCell] = field(default_factory=list)
    annulled: bool = False
    notes: str = ""  # the engine's explanation of a game
    annul_reason: str = ""
    text: str = ""  # the line of a sanction or a note
    sanction: str = ""  # penalty | warning | disqualification


# (game, the players still at the table) -> (the ruleset's columns, the players sitting it out)
GameFacts = Callable[[TallyGame, list[str]], tuple[dict[str, Any], set[str]]]


def sheet_rows(match: TallyMatch, order: list[str], game_facts: GameFacts) -> list[Row]:
    """Games, sanctions, the end: one row each, as recorded; the cells in ``order``."""
    games = {g.event: g for g in match.games}
    sanctions = {s.event: s for s in match.sanctions}
    gone: set[str] = set()
    rows: list[Row] = []
    for index, event in enumerate(match.envelope.events):
        if index in games:
            game = games[index]
            facts, out = game_facts(game, [p for p in match.players if p not in gone])
            rows.append(Row("game", game.number, facts, _game_cells(game, order, gone, out),
                            annulled=game.annulled, notes=game.explanation,
                            annul_reason=game.annul_reason if game.annulled else ""))
        elif index in sanctions:
            sanction = sanctions[index]
            rows.append(_sanction_row(sanction, order))
            if sanction.kind == "disqualification":
                gone.add(sanction.player)
        else:
            kind, body = single_key(event)
            if kind == "end" and isinstance(body, dict) and body.get("reason") in END_REASONS:
                rows.append(Row("note", text=_("End of the match: %(reason)s") % {
                    "reason": END_REASONS[body["reason"]]}))
            elif kind == "annul_match" and match.status == "annulled":
                rows.append(Row("note", text=_("The match was annulled: %(reason)s") % {
                    "reason": match.annulment_reason}))
    return rows


def _game_cells(game: TallyGame, order: list[str], gone: set[str], out: set[str]) -> list[PlayerCell]:
    cells = []
    for player in order:
        if player in gone:
            cells.append(PlayerCell("gone"))
        elif game.scores is None:  # a game the engine could not read: nothing to print
            cells.append(PlayerCell("play"))
        else:
            score, total = game.scores[player], game.totals[player]
            playing = player not in out
            cells.append(PlayerCell("play" if playing else "out", signed(score) if playing else "",
                                    number(total), playing and score < 0, total < 0))
    return cells


def sanction_word(kind: str) -> str:
    return {"penalty": _("Penalty"), "warning": _("Warning"), "disqualification": _("Disqualification")}[kind]


def _sanction_row(sanction: Sanction, order: list[str]) -> Row:
    label = sanction_word(sanction.kind)
    if sanction.points:
        label += f" {number(-sanction.points)}"
    text = _("%(sanction)s for %(player)s: %(reason)s") % {
        "sanction": label, "player": sanction.player, "reason": sanction.reason}
    if sanction.decided_by:
        text += " – " + _("decided by %(names)s") % {"names": ", ".join(sanction.decided_by)}
    cells = [PlayerCell("play", number(-sanction.points) if p == sanction.player and sanction.points else "",
                        negative_score=True) for p in order]
    return Row("sanction", text=text, cells=cells, sanction=sanction.kind)


def totals_cells(match: TallyMatch, order: list[str]) -> list[PlayerCell]:
    return [PlayerCell("play", total=number(match.totals[p]), negative_total=match.totals[p] < 0) for p in order]


def results(match: TallyMatch, order: list[str], seat_of: dict[str, int]) -> list[dict]:
    """The final totals, best first, each with its rank, sanctions and the winner's mark.

    The rank is the place by total (equal totals share it, in ``order``); a disqualified
    player has none and comes last.
    """
    ranked = [p for p in match.players if p not in match.disqualified]
    notes: dict[str, list[str]] = {p: [] for p in match.players}
    for s in match.sanctions:
        notes[s.player].append(sanction_word(s.kind) + (f" {number(-s.points)}" if s.points else ""))
    rows = []
    for player in order:
        total = match.totals[player]
        rank = 1 + sum(match.totals[q] > total for q in ranked) if player in ranked else None
        rows.append({"player": player, "colour": colour(seat_of[player]), "total": number(total),
                     "negative": total < 0, "rank": rank, "winner": player == match.winner,
                     "disqualified": player in match.disqualified, "sanctions": ", ".join(notes[player])})
    return sorted(rows, key=lambda r: r["rank"] or len(order) + 1)


def blank_names(players: list[str], least: int, most: int, scorekeeper: str | None = None) -> list[str]:
    """The names of a blank sheet: empty ones stay to be written in; each name once; the
    ``scorekeeper``, where one is given, one of them."""
    names = [(p or "").strip() for p in players]
    if not least <= len(names) <= most:
        raise ValueError(f"Dieses leere Blatt ist für {least} bis {most} Spieler, nicht {len(names)}.")
    named = [n for n in names if n]
    if len(set(named)) != len(named):
        raise ValueError("Jeder Name darf nur einmal vorkommen.")
    if scorekeeper and scorekeeper not in names:
        raise ValueError(f"Der Protokollant {scorekeeper} muss einer der Spieler sein.")
    return names


def blank_rows(games: int | None, default: int, most: int) -> range:
    """The numbers of a blank list's rows: ``games`` of them (``default`` if None), 1 to ``most``."""
    rows = default if games is None else games
    if not 1 <= rows <= most:
        raise ValueError(f"Ein leeres Blatt hat 1 bis {most} Zeilen, nicht {rows}.")
    return range(1, rows + 1)


def list_page(match: TallyMatch, order: list[str], game_facts: GameFacts, heads: list[str]) -> dict[str, Any]:
    """A printed list's own keys: ``heads`` (the number's and the game's own columns),
    ``fact_columns`` (how many of them follow the number), ``span`` (every column: those, a
    score and a total per player, the notes), ``rows`` (:func:`sheet_rows`) and ``totals``."""
    return {"heads": heads, "fact_columns": len(heads) - 1, "span": len(heads) + 1 + 2 * len(order),
            "rows": sheet_rows(match, order, game_facts), "totals": totals_cells(match, order)}


def list_widths(fixed_mm: dict[str, float], players: int, player_mm: float, *, notes_max: float,
                notes_min: float = 30, landscape: bool = True) -> dict[str, str]:
    """The CSS widths of the game's own columns (``fixed_mm``, in order) and of the notes, which
    take what the players' columns leave, between ``notes_min`` and ``notes_max``."""
    spare = content_width(landscape) - sum(fixed_mm.values()) - players * player_mm
    return {key: mm(value) for key, value in fixed_mm.items()} | {"notes": mm(max(notes_min, min(notes_max, spare)))}


def blank_widths(fixed_mm: dict[str, float], players: int, player_mm: float, landscape: bool = True) -> dict[str, str]:
    """A blank list's widths: the number's as ``fixed_mm`` says, the game's own columns share
    what the players' (``player_mm`` each, room for handwritten numbers) leave."""
    spare = content_width(landscape) - fixed_mm["number"] - players * player_mm
    rest = {k: v for k, v in fixed_mm.items() if k != "number"}
    scale = spare / sum(rest.values()) if rest else 0
    return {"number": mm(fixed_mm["number"])} | {k: mm(v * scale) for k, v in rest.items()}
