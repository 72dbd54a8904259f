"""Old-style points lists as clubs kept them, written with openpyxl for the tests: a sheet per
Partie (or Partien one below the other), a row per Spiel, a column per player, the date in a
cell above the header. The points are what the engine scored simulated Partien (their Spiele
as points only: tests/unit/points_only_documents.py), so a list is right by the rules unless
a test spoils it."""

from __future__ import annotations

import datetime
import io
import random
from typing import Any

from protocol.games.chaotentrumpf.simulation import simulate_match
from protocol.rules import evaluate
from tests.unit.points_only_documents import as_points

PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]


def chaotentrumpf_partien(count: int = 3, players: list[str] = PLAYERS) -> list[dict[str, Any]]:
    """``count`` decided Partien (Obergrenze 1000, the least, Art. 17a) without Strafen or annulments, each
    Spiel as the points the engine scored it; fixed seeds."""
    found, seed = [], 0
    while len(found) < count:
        seed += 1
        document = simulate_match(players, random.Random(seed), settings={"limit": 1000}, penalty_rate=0,
                                  warning_rate=0, annul_rate=0)
        result = evaluate(document)
        if result.match.status == "finished" and not result.match.tiebreaks and len(result.match.games) < 40:
            found.append(as_points(document))
    return found


def scores(document: dict[str, Any]) -> list[dict[str, int]]:
    return [event["game"]["scores"] for event in document["events"] if "game" in event]


def totals(document: dict[str, Any]) -> dict[str, int]:
    return evaluate(document).match.totals


def sheet_rows(document: dict[str, Any], day: datetime.date, *, place: str = "Vereinsheim",
               limit: int | None = None, number: bool = True, extra: tuple[str, Any] | None = None) -> list[list]:
    """One Partie as the club wrote it: "Datum" and the date, "Ort" and the place, the
    Obergrenze, an empty row, the header (Nr, the names), a row per Spiel."""
    rows: list[list] = [["Datum", day], ["Ort", place]]
    if limit:
        rows.append(["Obergrenze", limit])
    rows.append([])
    players = document["players"]
    rows.append((["Nr"] if number else []) + players + ([extra[0]] if extra else []))
    for n, line in enumerate(scores(document), 1):
        rows.append(([n] if number else []) + [line.get(p) for p in players] + ([extra[1]] if extra else []))
    return rows


def workbook(sheets: dict[str, list[list]]) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    book.remove(book.active)
    for title, rows in sheets.items():
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def three_partien_workbook(partien: list[dict[str, Any]], first_day=datetime.date(2026, 3, 6), **kw) -> bytes:
    """A sheet per Partie ("Partie 1" ...), a week apart."""
    return workbook({f"Partie {n}": sheet_rows(doc, first_day + datetime.timedelta(days=7 * (n - 1)),
                                                 limit=doc["settings"].get("limit"), **kw)
                     for n, doc in enumerate(partien, 1)})


def chaotentrumpf_with_stechen(players: list[str] = PLAYERS) -> dict[str, Any]:
    """A decided Partie whose end opened a Stechen (Art. 17b), as points only: in the Stechen's
    rows only its players have points (a fixed seed, found by search)."""
    for seed in range(170, 400):
        document = simulate_match(players, random.Random(seed), settings={"limit": 1000}, penalty_rate=0,
                                  warning_rate=0, annul_rate=0)
        match = evaluate(document).match
        if match.tiebreaks and match.status == "finished":
            return as_points(document)
    raise AssertionError("no Stechen among the seeds")
