"""The season table is cached per state of the data: never stale, and cheap when unchanged."""

import datetime
import re

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.models import Season
from league.standings.ranking import RULE_TEXT
from protocol import matches, recording
from protocol.models import Match
from tests.integration.pages import table_rows
from tests.unit.builders import quiet, sweep

OWN_ROW = re.compile(r'<tr[^>]*class="[^"]*is-me')


def standings_url(club, season):
    return reverse("standings_season", kwargs={"slug": club.slug, "season_pk": season.pk})


def shown(response):
    """(name, played, won) per row as the rendered page shows them."""
    return [(row["Mitglied"].removesuffix(" Sie"), int(row["Partien"]), int(row["Siege"]))  # " Sie": the viewer's own
            for row in table_rows(response.text)]


def queries(client, address):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(address)
    assert response.status_code == 200
    return response, len(ctx.captured_queries)


def test_an_unchanged_table_is_served_from_the_cache_with_fewer_queries(member_client, club, known_season):
    address = standings_url(club, known_season)
    first, cold = queries(member_client, address)
    second, warm = queries(member_client, address)
    assert shown(first) == shown(second)
    assert OWN_ROW.search(second.text)  # Anna's own row, from the cached table too
    assert warm < cold  # the four aggregates are not run again


def test_a_finished_partie_shows_at_once(member_client, club, known_season, table):
    address = standings_url(club, known_season)
    before = dict((name, won) for name, _, won in shown(member_client.get(address)))
    match = matches.create_match(club=club, season=known_season, date=datetime.date(2026, 6, 1),
                                 members=table[:4], scorekeeper=table[0], settings={"limit": 1000})
    recording.add_event(match, "game", quiet()["game"])
    assert dict((n, w) for n, _, w in shown(member_client.get(address))) == before  # still running
    recording.add_event(reloaded(match), "game", sweep()["game"])  # Anna exceeds the limit
    after = dict((name, won) for name, _, won in shown(member_client.get(address)))
    assert after["Anna"] == before["Anna"] + 1


def test_a_renamed_member_and_a_new_ranking_rule_show_at_once(member_client, club, known_season):
    address = standings_url(club, known_season)
    member_client.get(address)
    bernd = club.members.get(name="Bernd")
    bernd.name = "Bernhard"
    bernd.save()
    assert "Bernhard" in [name for name, *_ in shown(member_client.get(address))]
    known_season.ranking_rule = Season.RankingRule.TOTAL
    known_season.save()
    page = member_client.get(address)
    assert str(RULE_TEXT[Season.RankingRule.TOTAL]) in page.text
    totals = [int(row["Punkte"].replace(".", "").replace("−", "-")) for row in table_rows(page.text)]
    assert totals == sorted(totals, reverse=True)


def test_each_viewer_sees_his_own_row_highlighted_from_the_cached_table(member_client, secretary_client, club,
                                                                        known_season):
    address = standings_url(club, known_season)
    assert OWN_ROW.search(member_client.get(address).text)
    assert not OWN_ROW.search(secretary_client.get(address).text)  # the secretary did not play


def reloaded(match):
    return Match.objects.get(pk=match.pk)


AGGREGATE_OVER_PARTIEN = re.compile(r'(COUNT|SUM|MAX|MIN|AVG)\(.*"protocol_match"|"protocol_match".*(COUNT|SUM|MAX|MIN|AVG)\(',
                                    re.S | re.I)


def kept_view(client, address, params=None):
    """The queries of a view of a page already kept (asked twice: the second is the kept one)."""
    assert client.get(address, params or {}).status_code == 200
    with CaptureQueriesContext(connection) as seen:
        assert client.get(address, params or {}).status_code == 200
    return [q["sql"] for q in seen.captured_queries]


def test_a_kept_table_and_member_page_cost_the_same_however_many_partien_and_aggregate_none(
        member_client, club, players):
    """The stamps are the club's and the member's versions (league.registry.versions), read with
    the rows the pages fetch anyway: nothing of the check grows with the club's history."""
    import random

    from tests.integration.growth import play, season_of

    rng = random.Random(11)
    season = season_of(club, 2026)
    for day in range(2):
        play(club, season, players, rng, day)
    table_address = standings_url(club, season)
    member_address = reverse("member_page", kwargs={"slug": club.slug, "member_pk": players[0].pk})
    small_table = kept_view(member_client, table_address)
    small_member = kept_view(member_client, member_address, {"saison": season.pk})

    for day in range(2, 14):  # six times the Partien, Anna at every table
        play(club, season, players, rng, day)
    large_table = kept_view(member_client, table_address)
    large_member = kept_view(member_client, member_address, {"saison": season.pk})

    assert len(large_table) == len(small_table)
    assert len(large_member) == len(small_member)
    for sql in large_table + large_member:
        assert not AGGREGATE_OVER_PARTIEN.search(sql), sql


def test_each_viewer_posts_the_export_form_of_a_kept_table_with_his_own_token(member_user, secretary, club,
                                                                              known_season):
    """The kept body holds no form: a POST's CSRF token is the viewer's own, around the body."""
    from django.test import Client

    address = standings_url(club, known_season)
    for user in (secretary, member_user):  # the second one is sent the body the first one's visit kept
        browser = Client(enforce_csrf_checks=True)
        browser.force_login(user)
        page = browser.get(address).text
        form = re.search(r'<form method="post" action="([^"]+)"[^>]*><input type="hidden" '
                         r'name="csrfmiddlewaretoken" value="([^"]+)">', page)
        response = browser.post(form.group(1), {"csrfmiddlewaretoken": form.group(2)})
        assert response.status_code == 302, "refused: the token was not his"  # to the export's progress
