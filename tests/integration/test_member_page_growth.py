"""A member's page for a season costs the same number of queries however much the rest of the
club has played: other seasons, other members' Partien, more members (league.history)."""

import random
import re

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.models import Member
from league.standings.history import member_partien, rank_history
from league.standings.ranking import standings
from tests.integration.growth import play, season_of

NAMES = ["Anna", "Bernd", "Carla", "Dieter"]


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


def statements_reading_partien(client, url, params=None):
    """The SQL of one page view that reads the Partien table (protocol_match)."""
    with CaptureQueriesContext(connection) as seen:
        assert client.get(url, params or {}).status_code == 200
    return [q["sql"] for q in seen.captured_queries if '"protocol_match"' in q["sql"]]


def test_a_clubs_pages_never_read_another_clubs_partien(
        club, players, secretary_client, django_assert_max_num_queries):
    """A federation on the same server (PostgreSQL hashed all 10,800 of its Partien for the
    archive's seats, a member's stamp and his sanctions): archive, member page, the
    tables and a Partie's page; each statement of theirs that reads Partien names
    the club, the season or the Partien the page shows, itself or through a subquery that does;
    the seats of the Partien shown are read without the Partien table."""
    from league.models import Club

    rng = random.Random(5)
    season = season_of(club, 2026)
    for day in range(3):
        play(club, season, players, rng, day)
    federation = Club.objects.create(name="Verband", slug="verband")
    others = [Member.objects.create(club=federation, name=n) for n in NAMES]
    for day in range(4):
        play(federation, season_of(federation, 2000 + day), others, rng, day)

    anna = players[0]
    archive = reverse("archive", kwargs={"slug": club.slug})
    member = reverse("member_page", kwargs={"slug": club.slug, "member_pk": anna.pk})
    table = reverse("standings_season", kwargs={"slug": club.slug, "season_pk": season.pk})
    all_time = reverse("standings_all_time", kwargs={"slug": club.slug})
    partie = club.matches.first()
    statements = (statements_reading_partien(secretary_client, archive)
                  + statements_reading_partien(secretary_client, member, {"saison": season.pk})
                  + statements_reading_partien(secretary_client, table)
                  + statements_reading_partien(secretary_client, all_time)
                  + statements_reading_partien(secretary_client, partie.get_absolute_url()))
    assert len(statements) >= 4
    for sql in statements:
        for alias in re.findall(r'"protocol_match"(?: (U\d+))?', sql):
            column = f"{alias}." if alias else '"protocol_match".'
            bounded = (rf'{re.escape(column)}"(club_id|season_id)" = \d|{re.escape(column)}"id" (IN \(\d|= \d)'
                       r'|"match_id" IN \(SELECT U0\."id" FROM "protocol_match" U0')  # that one bounded in turn
            assert re.search(bounded, sql), sql
