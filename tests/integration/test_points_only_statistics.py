"""Statistics of the facts behind the points (the Trumpfwertung taken) leave out the Spiele
recorded as points only, and the member page says how many it left out; the standings (points,
Spiele, wins, Stechen) count those Spiele's scores as they are. The cache says which lines were
recorded so, from the engine's answer and, for lines written before it said so, from the
migration that marks them."""

from importlib import import_module

import pytest
from django.apps import apps
from django.db import connection
from django.urls import reverse

from bench.measure import SQL_FLOOR
from league.standings.ranking import standings
from protocol import reading
from protocol.models import ScoreLine
from protocol.rules import evaluate
from tests.standings_season import STECHEN_WIN, play
from tests.unit.builders import document, quiet, sweep, twins
from tests.unit.points_only_documents import as_points

# Anna shares the Trumpfwertung in the quiet Spiele and the twins, takes it alone in her sweep.
SPIELE = [quiet(), twins(), quiet(), sweep()]


def typed(events, every=1):
    """The events with every ``every``-th Spiel recorded as the points the engine scored it."""
    return as_points(document(events), every=every)["events"]


def anna(club, season):
    return next(row for row in standings(club, season) if row.name == "Anna")


def bonuses_taken(events, player="Anna"):
    """The Spiele of the Partie itself with their facts in which ``player`` took the Trumpfwertung (Art. 16b)."""
    match = evaluate(document(events)).match
    return sum(1 for game in match.games
               if game.stage == 0 and not game.annulled and not game.points_only and game.took_trump_bonus(player))


def test_the_cache_marks_the_lines_of_spiele_recorded_as_points_only(club, season, table):
    match = play(club, season, table, typed(SPIELE, every=2))
    marked = set(ScoreLine.objects.filter(match=match, points_only=True).values_list("game_number", flat=True))
    assert marked == {1, 3}  # every other Spiel, from the first
    assert ScoreLine.objects.filter(match=match, points_only=False).count() == 2 * 4
    assert not ScoreLine.objects.filter(match=match, points_only=True, took_trump_bonus=True).exists()


def test_the_trump_rate_counts_the_spiele_recorded_with_their_facts(club, season, table):
    full = play(club, season, table, SPIELE, 1)
    mixed_events = typed(SPIELE, every=2)
    play(club, season, table, mixed_events, 2)
    row = anna(club, season)
    assert row.games == 8 and row.points_only_games == 2 and row.games_with_facts == 6
    assert row.trump_bonuses == bonuses_taken(SPIELE) + bonuses_taken(mixed_events) == 4 + 2
    assert reading.page(full).evaluation.match.totals["Anna"] * 2 == row.points  # the scores as they are


def test_standings_count_points_only_spiele_as_they_are(club, season, table):
    """Points, Spiele, wins and the Stechen of a season typed as points equal those of the full season."""
    stechen = [twins()] * 4 + [STECHEN_WIN]
    play(club, season, table, SPIELE, 1)
    play(club, season, table, stechen, 2)
    full = {row.name: row for row in standings(club, season)}
    for match in season.matches.all():
        match.delete()
    play(club, season, table, typed(SPIELE), 1)
    play(club, season, table, typed(stechen), 2)
    points = {row.name: row for row in standings(club, season)}
    assert full["Anna"].tiebreaks == 1 and full["Anna"].won == 2
    for name, row in full.items():
        same = ("rank", "played", "won", "games", "points", "ppg", "tiebreaks", "tiebreaks_won", "penalties")
        assert [getattr(points[name], f) for f in same] == [getattr(row, f) for f in same], name
        assert points[name].trump_bonuses == 0 and points[name].points_only_games == row.games


def test_the_sql_floor_of_the_bench_gives_the_apps_figures(club, season, table):
    play(club, season, table, SPIELE, 1)
    play(club, season, table, typed(SPIELE, every=2), 2)
    with connection.cursor() as cursor:
        cursor.execute(SQL_FLOOR, [club.pk, season.pk, club.pk])
        by_sql = sorted(tuple(row) for row in cursor.fetchall())
    by_app = sorted((s.member.pk, s.played, s.won, s.games, s.points, s.tiebreaks, s.tiebreaks_won, s.penalties,
                     s.penalty_points, s.warnings, s.disqualifications, s.trump_bonuses, s.points_only_games)
                    for s in standings(club, season))
    assert by_sql == by_app and any(row[-1] for row in by_app)


def member_page(client, club, season, member):
    url = reverse("member_page", kwargs={"slug": club.slug, "member_pk": member.pk})
    return client.get(url, {"saison": season.pk}, HTTP_ACCEPT_LANGUAGE="de").content.decode()


def test_the_member_page_says_how_many_spiele_the_trump_rate_leaves_out(member_client, club, season, table):
    play(club, season, table, SPIELE, 1)
    play(club, season, table, typed(SPIELE, every=2), 2)
    page = member_page(member_client, club, season, table[0])
    assert "6×" in page  # taken 4 + 2 times in the 6 Spiele with their facts: 100 %
    assert "in 100&nbsp;% der eigenen Spiele, ohne 2 Spiele, die nur als Punkte erfasst sind" in page


def test_a_member_with_only_points_only_spiele_has_no_trump_rate(member_client, club, season, table):
    play(club, season, table, typed([quiet()] * 2 + [sweep()]))
    page = member_page(member_client, club, season, table[0])
    assert "der eigenen Spiele" not in page
    assert "ohne 3 Spiele, die nur als Punkte erfasst sind" in page


def test_a_member_without_points_only_spiele_reads_as_before(member_client, club, season, table):
    play(club, season, table, SPIELE)
    page = member_page(member_client, club, season, table[0])
    assert "in 100&nbsp;% der eigenen Spiele</span>" in page and "nur als Punkte" not in page


@pytest.mark.parametrize("every", [1, 2])
def test_the_migration_marks_the_lines_written_before_the_cache_said_so(club, season, table, every):
    match = play(club, season, table, typed(SPIELE, every=every))
    other = play(club, season, table, SPIELE, 2)
    marked = sorted(ScoreLine.objects.filter(points_only=True).values_list("match", "game_number", "member"))
    assert marked
    ScoreLine.objects.update(points_only=False)  # as the lines were before the field
    migration = import_module("protocol.migrations.0015_scoreline_points_only")
    migration.mark_points_only(apps, None)
    assert sorted(ScoreLine.objects.filter(points_only=True).values_list("match", "game_number", "member")) == marked
    assert not ScoreLine.objects.filter(match=other, points_only=True).exists()
    assert ScoreLine.objects.filter(match=match, points_only=True).count() == 4 * len(SPIELE[::every])
