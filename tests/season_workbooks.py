"""Season workbooks as data, and a realistic season of Partien to export and import."""

import datetime
import io
import random

from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from league.models import Club, Member, Season
from protocol import matches
from protocol.games.chaotentrumpf.simulation import simulate_match
from protocol.models import Change, Event, Match, SanctionLine, ScoreLine, Seat
from tests.unit.builders import quiet

NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Erika", "Frank", "Gisela", "Hans"]
KREUZ_FOR_ANNA = {"game": {"trump": {"level": "suit", "value": "Kreuz"},
                           "results": {"Anna": {"tricks": 10, "points": 110, "trumps": 5},
                                       "Bernd": {"tricks": 0, "points": 0, "trumps": 0}}}}
SETTINGS = [{}, {}, {"limit": 1200}, {"cards_per_deal": 4}, {"no_trump_points": -50, "no_trick_points": -150},
            {"max_games": 6}, {"scorekeeper_skips_shuffling": True}]


def opened(data: bytes):
    return load_workbook(io.BytesIO(data))


def values(data: bytes) -> dict[str, list[list]]:
    """Every sheet as rows of cell values (the header included)."""
    book = opened(data)
    return {ws.title: [list(row) for row in ws.iter_rows(values_only=True)] for ws in book.worksheets}


def saved(data: bytes) -> bytes:
    buffer = io.BytesIO()
    data.save(buffer)
    return buffer.getvalue()


def edited(data: bytes, changes: dict[tuple[str, str], object]) -> bytes:
    """The workbook with cells changed: {("Spiele", "G5"): 400}."""
    book = opened(data)
    for (sheet, cell), value in changes.items():
        book[sheet][cell] = value
    return saved(book)


def counts():
    return {model.__name__: model.objects.count()
            for model in (Club, Member, Season, Match, Seat, Event, Change, ScoreLine, SanctionLine)}


def record(club, season, members, doc, date, **extra):
    return matches.create_match(club=club, season=season, date=date, members=[members[n] for n in doc["players"]],
                                 scorekeeper=members[doc["scorekeeper"]], settings=doc["settings"],
                                 events=doc["events"], **extra)


def played_season(club, season, members, partien=16, seed=7):
    """Simulated Partien of 3 to 7 players with NÜV settings, Strafen, Verwarnungen,
    Disqualifikationen, annulled Spiele, Trumpfwahl and inversions; one still running, one
    annulled, and one ended by time with a tie, a Strafe on each side of the end and the
    Stechen after it."""
    rng = random.Random(seed)
    day = datetime.date(2026, 1, 2)
    for number in range(partien):
        names = rng.sample(NAMES, rng.choice([3, 4, 4, 5, 6, 7]))
        settings = dict(rng.choice(SETTINGS))
        if len(names) > 4 and rng.random() < 0.5:
            settings["limit"] = 750
        if len(names) <= 3:
            settings.pop("scorekeeper_skips_shuffling", None)
        doc = simulate_match(names, rng, scorekeeper=rng.choice(names), settings=settings, max_events=120,
                             penalty_rate=0.04, warning_rate=0.03, annul_rate=0.04, disqualify_rate=0.01,
                             stop_after=6 if number == partien - 1 else None)
        record(club, season, members, doc, day + datetime.timedelta(days=7 * number), place="Nürtingen")
    four = ["Anna", "Bernd", "Carla", "Dieter"]
    ended = {"players": four, "scorekeeper": "Carla", "settings": {}, "events": [
        quiet(), {"penalty": {"player": "Carla", "points": 100, "reason": "zu früh", "decided_by": ["Anna", "Bernd"]}},
        {"end": {"reason": "time"}},
        {"penalty": {"player": "Anna", "points": 100, "reason": "nicht bedient"}},
        {"warning": {"player": "Dieter", "reason": "laut"}}, KREUZ_FOR_ANNA]}
    record(club, season, members, ended, datetime.date(2026, 3, 3))
    annulled = {"players": four, "scorekeeper": "Anna", "settings": {}, "events": [
        quiet(), {"annul_match": {"reason": "Kartenmaterial unvollständig"}}]}
    record(club, season, members, annulled, datetime.date(2026, 3, 3))
    return season


def cell_of(sheets, sheet, header, row):
    """The address of a column (by its header) in a row (1-based, as Excel counts)."""
    return f"{get_column_letter(sheets[sheet][0].index(header) + 1)}{row}"
