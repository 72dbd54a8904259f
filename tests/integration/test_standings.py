"""The league table: hand-built seasons with known answers, and constant query counts."""

import datetime
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.models import Member, Season
from league.standings.ranking import Standing, rank, standings
from protocol import matches
from protocol.games.chaotentrumpf.simulation import simulate_match
from tests.standings_season import NAMES, play
from tests.unit.builders import quiet, sweep


def by_name(rows):
    return {row.name: row for row in rows}


def test_a_hand_built_season_gives_the_known_table(club, known_season):
    rows = standings(club, known_season)
    assert [r.name for r in rows] == ["Anna", "Bernd", "Dieter", "Carla"]
    anna, bernd, carla, dieter = (by_name(rows)[n] for n in NAMES)
    assert (anna.rank, anna.played, anna.won, anna.games, anna.points) == (1, 3, 2, 7, 1248 + 1248 - 169)
    assert anna.ppg == round(2327 * 100 / 7)
    assert (bernd.rank, bernd.won, bernd.points) == (2, 1, -200 + 1248 + 1135)
    assert (anna.tiebreaks, anna.tiebreaks_won, bernd.tiebreaks, bernd.tiebreaks_won) == (1, 1, 1, 0)
    assert (carla.penalties, carla.penalty_points, carla.points) == (1, 200, -200 - 800 - 379)
    assert (dieter.disqualifications, dieter.games, dieter.points) == (1, 6, -200 - 800 + 21)


def test_an_annulled_partie_counts_for_nothing(club, known_season):
    bernd = by_name(standings(club, known_season))["Bernd"]
    assert bernd.played == 3 and bernd.won == 1  # his sweep in the annulled Partie is not there


def test_annulled_spiele_count_for_nothing(club, season, table):
    annulled = {"game": sweep("Bernd", ("Anna", "Carla", "Dieter"))["game"] | {"annulled": True, "annul_reason": "x"}}
    play(club, season, table, [annulled, sweep()])
    bernd = by_name(standings(club, season))["Bernd"]
    assert (bernd.games, bernd.points) == (1, -200)


def test_a_running_partie_is_not_in_the_table_yet(club, season, table):
    play(club, season, table, [quiet()])
    assert standings(club, season) == []


def test_equal_values_share_a_rank(club, season, table):
    play(club, season, table, [sweep()])
    rows = standings(club, season)
    assert [(r.name, r.rank) for r in rows] == [("Anna", 1), ("Bernd", 2), ("Carla", 2), ("Dieter", 2)]


@pytest.mark.parametrize("rule, first", [("wins_then_ppg", "Anna"), ("ppg", "Anna"), ("total", "Anna")])
def test_the_ranking_rule_is_a_season_setting(club, known_season, rule, first):
    known_season.ranking_rule = rule
    known_season.save()
    assert standings(club, known_season)[0].name == first


def test_ranks_1_2_2_4():
    def row(name, won, ppg):
        return Standing(0, Member(name=name), 1, won, 1, 0, ppg, 0, 0, 0, 0, 0, 0)
    rows = rank([row("A", 2, 10), row("B", 1, 5), row("C", 1, 5), row("D", 0, 50)], "wins_then_ppg")
    assert [(r.name, r.rank) for r in rows] == [("A", 1), ("B", 2), ("C", 2), ("D", 4)]
    rows = rank([row("A", 2, 10), row("B", 1, 5), row("C", 1, 5), row("D", 0, 50)], "ppg")
    assert [(r.name, r.rank) for r in rows] == [("D", 1), ("A", 2), ("B", 3), ("C", 3)]


def test_the_all_time_table_spans_the_seasons(club, known_season, table):
    older = Season.objects.create(club=club, name="2025", start=datetime.date(2025, 1, 1), end=datetime.date(2025, 12, 31))
    matches.create_match(club=club, season=older, date=datetime.date(2025, 5, 1), members=table,
                          scorekeeper=table[0], settings={}, events=[sweep("Carla", ("Anna", "Bernd", "Dieter"))])
    carla = by_name(standings(club, None))["Carla"]
    assert carla.played == 4 and carla.won == 1


def test_each_table_reads_its_own_club_season_and_game_through_the_statements_written_once(club, known_season, table):
    """The table's aggregates are written as SQL once per shape and run with each table's values
    (league.registry.statements): another club's season, another season and all time read
    their own rows, the very rows Django's querysets give for them."""
    from league.models import Club
    from league.standings.ranking import aggregates, counted_filter

    other = Club.objects.create(name="Nachbarn", slug="nachbarn")
    neighbours = [Member.objects.create(club=other, name=n) for n in NAMES]
    theirs = Season.objects.create(club=other, name="2026", start=datetime.date(2026, 1, 1), end=datetime.date(2026, 12, 31))
    play(other, theirs, neighbours, [sweep("Dieter", ("Anna", "Bernd", "Carla"))])
    older = Season.objects.create(club=club, name="2025", start=datetime.date(2025, 1, 1), end=datetime.date(2025, 12, 31))
    matches.create_match(club=club, season=older, date=datetime.date(2025, 5, 1), members=table,
                          scorekeeper=table[0], settings={}, events=[sweep("Carla", ("Anna", "Bernd", "Dieter"))])

    def django_reads(club, season):
        seats, lines, _tiebreaks, sanctions = ({r["member"]: r for r in rows}
                                               for rows in aggregates(counted_filter(club, season, None)))
        return {m: (seats[m]["played"], seats[m]["won"], lines.get(m, {}).get("scored", 0),
                    sanctions.get(m, {}).get("deducted", 0)) for m in seats}

    for of_club, season in [(club, known_season), (other, theirs), (club, older), (club, None), (other, None)]:
        rows = standings(of_club, season)
        assert {r.member.club_id for r in rows} == {of_club.pk}
        assert {r.member.pk: (r.played, r.won, r.points) for r in rows} == {
            m: (played, won, scored - deducted) for m, (played, won, scored, deducted) in django_reads(of_club, season).items()}
    assert by_name(standings(other, theirs))["Dieter"].won == 1
    assert by_name(standings(club, older))["Carla"].won == 1 and by_name(standings(club, None))["Carla"].played == 4


def test_a_value_django_changes_on_its_way_into_the_sql_is_refused_not_misplaced(db):
    from league.registry.statements import Statements

    part_of_a_name = Statements(lambda name: (Member.objects.filter(name__contains=name).values("pk"),), name=str)
    with pytest.raises(ValueError, match="name"):
        part_of_a_name.run(name="Ann")  # Django writes it as the pattern "%Ann%"


def test_a_moment_is_put_in_its_place_as_the_database_takes_it_and_read_back_as_a_moment(club, known_season):
    from django.utils import timezone

    from league.registry.statements import Statements
    from protocol.models import Match

    def build(club, since):
        return (Match.objects.filter(club=club, finished_at__gt=since).order_by("pk").values_list("pk", "finished_at"),)

    finished_since = Statements(build, club=int, since=datetime.datetime)
    moments = sorted(Match.objects.filter(club=club).exclude(finished_at=None).values_list("finished_at", flat=True))
    assert moments
    for since in [moments[0] - datetime.timedelta(seconds=1), *moments, timezone.now()]:
        expected = list(build(club.pk, since)[0])
        assert finished_since.rows(club=club.pk, since=since) == expected
        assert all(timezone.is_aware(moment) for _pk, moment in finished_since.rows(club=club.pk, since=since))


def _queries(club, season):
    with CaptureQueriesContext(connection) as ctx:
        rows = standings(club, season)
    return len(ctx.captured_queries), rows


def test_the_table_costs_the_same_queries_for_a_small_and_a_large_season(club, season, table):
    rng = random.Random(5)
    play(club, season, table, simulate_match(NAMES, rng)["events"])
    small, rows = _queries(club, season)
    for day in range(2, 26):
        play(club, season, table, simulate_match(NAMES, rng, penalty_rate=0.05)["events"], day)
    large, rows = _queries(club, season)
    assert small == large == 5  # four grouped aggregates and the members
    assert sum(r.won for r in rows) == 25


# ---------- Points per Spiel, places in a Partie, and a member's history ----------

from league.standings.history import member_partien, places, rank_history  # noqa: E402
from league.standings.ranking import points_per_game  # noqa: E402


@pytest.mark.parametrize("points, games, shown", [(1, 8, 13), (3, 8, 38), (-1, 8, -13), (2327, 7, 33243),
                                                  (0, 5, 0), (500, 0, 0)])
def test_points_per_spiel_are_rounded_half_away_from_zero_as_on_paper(points, games, shown):
    assert points_per_game(points, games) == shown


def test_the_table_rounds_points_per_spiel_half_up(club, season, table):
    # Seven quiet Spiele (31 each for Anna), then her sweep: 1465 points in 8 Spiele.
    events = [quiet()] * 7 + [sweep()]
    play(club, season, table, events)
    anna = by_name(standings(club, season))["Anna"]
    assert anna.games == 8 and anna.points == 7 * 31 + 1248
    assert anna.ppg == 18313  # 1465 / 8 = 183.125 -> 18312.5 -> 18313 (round() would give 18312)


def test_the_table_counts_the_trumpfwertung_taken(club, known_season):
    rows = by_name(standings(club, known_season))
    # Anna: her sweep, four shared Trumpfwertungen, the four-way tie; Bernd's sweep is in the annulled Partie.
    assert rows["Anna"].trump_bonuses == 6
    assert rows["Bernd"].trump_bonuses == 4 + 1 + 1


def test_the_winner_is_placed_first_and_equal_totals_share_a_place():
    assert places({1: 900, 2: 1010, 3: 900, 4: 500}, winner_id=2) == {1: 2, 2: 1, 3: 2, 4: 4}
    assert places({1: 1001, 2: 1001, 3: 20}, winner_id=2) == {1: 2, 2: 1, 3: 3}  # won the Stechen
    assert places({1: 400, 2: 900}, winner_id=1) == {1: 1, 2: 2}  # the last one left after a DQ
    assert places({1: 400, 2: 900}, winner_id=None) == {1: 2, 2: 1}  # still running


def test_a_members_partien_carry_his_total_and_place(club, known_season, table):
    anna = table[0]
    results = member_partien(anna, known_season)
    assert [r.match.date.day for r in results] == [4, 3, 2, 1]  # newest first, the annulled one too
    by_day = {r.match.date.day: r for r in results}
    assert (by_day[1].total, by_day[1].games, by_day[1].place, by_day[1].won) == (1248, 1, 1, True)
    assert (by_day[2].place, by_day[2].won, by_day[2].total) == (1, True, 1248)  # won the Stechen
    assert by_day[3].place is None and not by_day[3].counted  # annulled
    # Bernd won; Dieter (21, disqualified) keeps his total and his place before Anna (-169).
    assert (by_day[4].total, by_day[4].place, by_day[4].others) == (-169, 3, ["Bernd", "Carla", "Dieter"])
    assert sum(r.total for r in results if r.counted) == by_name(standings(club, known_season))["Anna"].points


def test_the_place_over_time_ends_on_the_place_in_the_table(club, known_season, table):
    final = by_name(standings(club, known_season))
    for member in table:
        history = rank_history(club, known_season, member)
        assert [p.date.day for p in history] == [1, 2, 4]  # the annulled evening is no step
        assert history[-1].rank == final[member.name].rank
        assert history[-1].of == 4
    bernd = rank_history(club, known_season, table[1])
    assert [p.rank for p in bernd] == [2, 2, 2]


def test_the_place_over_time_costs_the_same_queries_for_a_small_and_a_large_season(club, season, table):
    rng = random.Random(8)
    play(club, season, table, simulate_match(NAMES, rng)["events"])
    with CaptureQueriesContext(connection) as small:
        rank_history(club, season, table[0])
        member_partien(table[0], season)
    for day in range(2, 16):
        play(club, season, table, simulate_match(NAMES, rng)["events"], day)
    with CaptureQueriesContext(connection) as large:
        history = rank_history(club, season, table[0])
        member_partien(table[0], season)
    # rank_history: scores, Strafen, seats, members; member_partien: scores, Strafen, seats.
    assert len(small.captured_queries) == len(large.captured_queries) == 7
    assert history[-1].rank == by_name(standings(club, season))["Anna"].rank
