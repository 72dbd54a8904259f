"""A member's page for a season costs the same number of queries however much the rest of the
club has played: other seasons, other members' Partien, more members (league.history)."""

import datetime
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.models import Member, Season
from league.standings.history import member_partien, rank_history
from league.standings.ranking import standings
from protocol import services
from protocol.games.chaotentrumpf.simulation import simulate_match

NAMES = ["Anna", "Bernd", "Carla", "Dieter"]


@pytest.fixture
def players(club, member_user):
    anna = Member.objects.get(club=club, name="Anna")
    return [anna] + [Member.objects.create(club=club, name=n) for n in NAMES[1:]]


def season_of(club, year):
    return Season.objects.create(club=club, name=str(year), start=datetime.date(year, 1, 1),
                                 end=datetime.date(year, 12, 31))


def play(club, season, table, rng, day):
    events = simulate_match([m.name for m in table], rng)["events"]
    return services.create_match(club=club, season=season, date=season.start + datetime.timedelta(days=day),
                                 members=table, scorekeeper=table[0], settings={}, events=events)


def page(client, club, member, season):
    url = reverse("member_page", kwargs={"slug": club.slug, "member_pk": member.pk})
    response = client.get(url, {"saison": season.pk})
    assert response.status_code == 200
    return response


def test_a_seasons_member_page_costs_the_same_queries_as_the_club_grows(
        club, players, secretary_client, django_assert_max_num_queries):
    rng = random.Random(3)
    season = season_of(club, 2026)
    for day in range(3):
        play(club, season, players, rng, day)
    anna = players[0]
    with CaptureQueriesContext(connection) as small:
        before = page(secretary_client, club, anna, season)

    # The club grows: an earlier season, newcomers who never sat with Anna, more evenings of
    # the others in her season.
    earlier = season_of(club, 2025)
    newcomers = [Member.objects.create(club=club, name=f"Gast {i}") for i in range(6)]
    for day in range(8):
        play(club, earlier, players, rng, day)
        play(club, earlier, newcomers[:4], rng, day)
    for day in range(3, 9):
        play(club, season, players[1:] + newcomers[:1], rng, day)
        play(club, season, newcomers[2:], rng, day)

    with django_assert_max_num_queries(len(small.captured_queries)):
        after = page(secretary_client, club, anna, season)
    assert before.context["partien_count"] == after.context["partien_count"] == 3
    history = rank_history(club, season, anna)
    assert history[-1].rank == next(r.rank for r in standings(club, season) if r.member.pk == anna.pk)
    assert history[-1].of == 4 + 5  # every member who played in the season (Gast 1 did not)
    assert len(member_partien(anna, season)) == 3
