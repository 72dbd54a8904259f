"""One row of the transcription grid (Protokoll nachtragen) read as an event of ``protocol/1``.

A row is typed in one of two ways (the page's switch "nur Punkte", for the whole grid or a
row):

- *in full*: the entry cell, every player's Stiche, Augen and Trümpfe (``lines``) and the
  inversions, as the paper protocol's columns hold them;
- *as points only* (``scores``: one cell per player): the points written per player, as a
  Punktetabelle holds them (Art. 4a), with the trump in the entry cell and the inversions
  when they were noted. Such a row becomes a Spiel ``{"scores": {player: points}, ...}``
  (protocol/rules/scores.py), checked by the engine as far as Art. 16 allows
  (rules/points_only.py). Strafe, Verwarnung, Disqualifikation, Ende and an annulled Spiel
  are typed in the entry cell as in a full row.

Only the shorthand is read here (notation.py); every check is the engine's.
"""

from __future__ import annotations

from typing import Any

from protocol.games.chaotentrumpf.notation import NotationError, read_count, read_entry, read_inversions, read_points
from protocol.rules import RuleError
from protocol.rules.scores import SCORES

LINE_FIELDS = ("tricks", "points", "trumps")
SCORE_CELL = "score"  # the cell of a player's points in a points-only row: "p<seat>.score"


def is_points_row(row: dict[str, Any]) -> bool:
    return row.get(SCORES) is not None


def is_empty(row: dict[str, Any]) -> bool:
    return not row["entry"].strip() and not row["inversions"].strip() and not any(
        c.strip() for line in row["lines"] for c in line) and not any(c.strip() for c in row.get(SCORES) or ())


def event_of(row: dict[str, Any], players: list[str], playing: list[str], disqualified: list[str]):
    """The row as an event: (event or None, notation errors, complete)."""
    errors = []
    points = is_points_row(row)
    try:
        # A points row may leave the trump out: the Punktetabelle often has none (points_only.py).
        entry = read_entry(row["entry"], players, trump_required=not points)
    except NotationError as exc:
        return None, [error("entry", None, exc.message)], True
    if entry.kind != "game":
        body = dict(entry.body)
        if entry.kind == "penalty":  # SV 3: the other players decide
            body["decided_by"] = [p for p in players if p != body["player"] and p not in disqualified]
        return {entry.kind: body}, [], True
    body = dict(entry.body)
    try:
        inversions = read_inversions(row["inversions"], players)
        if inversions:
            body["inversions"] = inversions
    except NotationError as exc:
        errors.append(error("inversions", None, exc.message))
    if points:
        scores, complete = _scores(row[SCORES], players, playing, entry.annulled)
        if scores is not None:
            body[SCORES] = scores
        return {"game": body}, errors, complete
    results, complete = _results(row["lines"], players, playing, entry.annulled)
    if results is not None:
        body["results"] = results
    return {"game": body}, errors, complete


def _results(lines: list[list[str]], players: list[str], playing: list[str], annulled: bool):
    """The Spiel's ``results``: a line for each of its players, and for anyone else with a
    number typed (the engine then says why he has none). (None, True) for an annulled Spiel
    recorded without results (SV 4)."""
    results, complete, typed_any = {}, True, False
    for seat, player in enumerate(players):
        cells = lines[seat] if seat < len(lines) else ["", "", ""]
        values = [read_count(c) for c in cells]
        typed = any(v is not None for v in values)
        typed_any |= typed
        if player in playing or typed:
            results[player] = dict(zip(LINE_FIELDS, values))
            complete &= player not in playing or all(v is not None for v in values)
    if annulled and not typed_any:
        return None, True
    return results, complete


def _scores(cells: list[str], players: list[str], playing: list[str], annulled: bool):
    """The Spiel's ``scores``: the points of each of its players, and of anyone else with
    points typed (the engine says why he has none). (None, True) for an annulled Spiel with
    no points typed (SV 4)."""
    scores, complete = {}, True
    for seat, player in enumerate(players):
        value = read_points(cells[seat]) if seat < len(cells) else None
        if value is not None:
            scores[player] = value
        complete &= player not in playing or value is not None
    if annulled and not scores:
        return None, True
    return scores, complete


def error(cell: str | None, player: str | None, message: str) -> dict[str, Any]:
    return {"cell": cell, "player": player, "message": message}


def cell_of(error: RuleError, kind: str, players: list[str], points: bool = False) -> str | None:
    """Which cell of the row an engine error belongs to (None: the row as a whole)."""
    if kind != "game" or error.field in ("trump", "selection", "annulled", "annul_reason"):
        return "entry"
    if error.field == "inversions":
        return "inversions"
    if error.player in players:
        seat = players.index(error.player)
        if points:
            return f"p{seat}.{SCORE_CELL}"
        return f"p{seat}.{error.field if error.field in LINE_FIELDS else 'tricks'}"
    return None
