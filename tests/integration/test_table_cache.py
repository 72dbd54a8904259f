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
from tests.unit.builders import quiet, sweep

OWN_ROW = re.compile(r'<tr[^>]*class="[^"]*is-me')


def standings_url(club, season):
    return reverse("standings_season", kwargs={"slug": club.slug, "season_pk": season.pk})


def shown(response):
    """(name, played, won) per row as the rendered page shows them."""
    table = response.context["table"]
    return [(row.record.name, row.record.played, row.record.won) for row in table.paginated_rows]


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
    totals = [row.record.points for row in page.context["table"].paginated_rows]
    assert totals == sorted(totals, reverse=True)


def test_each_viewer_sees_his_own_row_highlighted_from_the_cached_table(member_client, secretary_client, club,
                                                                        known_season):
    address = standings_url(club, known_season)
    assert OWN_ROW.search(member_client.get(address).text)
    assert not OWN_ROW.search(secretary_client.get(address).text)  # the secretary did not play


def reloaded(match):
    return Match.objects.get(pk=match.pk)
