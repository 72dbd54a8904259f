"""Fixtures the view and service tests share (the personas are in tests/conftest.py)."""

import pytest

from league.models import Club, Member
from league.spreadsheets.exports import season_xlsx
from tests.season_workbooks import played_season
from tests.standings_season import NAMES


@pytest.fixture
def workbook(club, ppg_season, members):
    """The workbook of a realistic season (``played_season``) ranked by points per game."""
    played_season(club, ppg_season, members)
    return season_xlsx(club, ppg_season)


@pytest.fixture
def empty_club(db):
    return Club.objects.create(name="Skatfreunde Wendlingen", slug="wendlingen")


@pytest.fixture
def players(club, member_user):
    """Anna (member_user's Member) and the other three of the league's four."""
    anna = Member.objects.get(club=club, name="Anna")
    return [anna] + [Member.objects.create(club=club, name=n) for n in NAMES[1:]]
