"""The club's four of the league tests and the Partien of their known season."""

import datetime

from league.models import Member
from protocol import matches

NAMES = ["Anna", "Bernd", "Carla", "Dieter"]
STECHEN_WIN = {"game": {"trump": {"level": "suit", "value": "Kreuz"},
                        "results": {"Anna": {"tricks": 10, "points": 110, "trumps": 5},
                                    "Bernd": {"tricks": 0, "points": 0, "trumps": 0}}}}
BERND_SWEEPS_THREE = {"game": {"trump": {"level": "rank", "value": "A"},
                               "results": {"Anna": {"tricks": 0, "points": 0, "trumps": 0},
                                           "Bernd": {"tricks": 10, "points": 276, "trumps": 12},
                                           "Carla": {"tricks": 0, "points": 0, "trumps": 0}}}}


def four_of(club):
    """The club's Members of ``NAMES``, created where it has none of that name."""
    return [Member.objects.get_or_create(club=club, name=n)[0] for n in NAMES]


def play(club, season, table, events, day=1):
    return matches.create_match(club=club, season=season, date=datetime.date(2026, 3, day), members=table,
                                 scorekeeper=table[0], settings={}, events=events)
