"""Seasons of simulated Partien, for the pages and files whose cost must not grow with them."""

import datetime

from league.models import Season
from protocol import matches
from protocol.games.chaotentrumpf.simulation import simulate_match


def season_of(club, year):
    return Season.objects.create(club=club, name=str(year), start=datetime.date(year, 1, 1),
                                 end=datetime.date(year, 12, 31))


def play(club, season, table, rng, day):
    events = simulate_match([m.name for m in table], rng)["events"]
    return matches.create_match(club=club, season=season, date=season.start + datetime.timedelta(days=day),
                                 members=table, scorekeeper=table[0], settings={}, events=events)
