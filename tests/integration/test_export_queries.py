"""The season's workbook reads the same number of queries however many Partien the season
has: the Partien, their seats and their events are one statement each, never one
or two per Partie."""

import io
import random

import openpyxl
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.spreadsheets.exports import write_season
from tests.integration.growth import play, season_of


def exported(club, season):
    buffer = io.BytesIO()
    with CaptureQueriesContext(connection) as queries:
        write_season(club, season, buffer)
    return len(queries), openpyxl.load_workbook(io.BytesIO(buffer.getvalue()))


def test_the_season_workbook_costs_the_same_queries_for_two_partien_and_for_nine(club, players):
    rng = random.Random(5)
    season = season_of(club, 2026)
    for day in range(2):
        play(club, season, players, rng, day)
    few, book = exported(club, season)
    assert book["Partien"].max_row == 3
    for day in range(2, 9):
        play(club, season, players, rng, day)
    many, book = exported(club, season)
    assert book["Partien"].max_row == 10  # the header and nine Partien
    assert many == few, (few, many)
