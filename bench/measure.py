"""The measurements of ``bench/run.py`` in one database (a child process: Django set up here)."""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SQL_FLOOR = """
WITH m AS (SELECT id, winner_id, ended_by FROM protocol_match
           WHERE club_id = %s AND season_id = %s AND status = 'finished'),
s AS (SELECT seat.member_id, COUNT(*) AS played FROM protocol_seat seat
      JOIN m ON m.id = seat.match_id GROUP BY seat.member_id),
w AS (SELECT winner_id AS member_id, COUNT(*) AS won,
             SUM(CASE WHEN ended_by = 'tiebreak' THEN 1 ELSE 0 END) AS tiebreaks_won
      FROM m WHERE winner_id IS NOT NULL GROUP BY winner_id),
l AS (SELECT sl.member_id,
             SUM(CASE WHEN sl.stage = 0 THEN 1 ELSE 0 END) AS games,
             SUM(CASE WHEN sl.stage = 0 THEN sl.score ELSE 0 END) AS scored,
             SUM(CASE WHEN sl.stage = 0 AND sl.took_trump_bonus THEN 1 ELSE 0 END) AS trump_bonuses,
             SUM(CASE WHEN sl.stage = 0 AND sl.points_only THEN 1 ELSE 0 END) AS points_only_games
      FROM protocol_scoreline sl JOIN m ON m.id = sl.match_id
      WHERE NOT sl.annulled GROUP BY sl.member_id),
t AS (SELECT st.member_id, COUNT(DISTINCT st.match_id) AS tiebreaks
      FROM protocol_scoreline st JOIN m ON m.id = st.match_id
      WHERE NOT st.annulled AND st.stage >= 1 GROUP BY st.member_id),
x AS (SELECT sa.member_id,
             SUM(CASE WHEN sa.stage = 0 THEN sa.points ELSE 0 END) AS deducted,
             SUM(CASE WHEN sa.kind = 'penalty' THEN 1 ELSE 0 END) AS penalties,
             SUM(CASE WHEN sa.kind = 'penalty' THEN sa.points ELSE 0 END) AS penalty_points,
             SUM(CASE WHEN sa.kind = 'warning' THEN 1 ELSE 0 END) AS warnings,
             SUM(CASE WHEN sa.kind = 'disqualification' THEN 1 ELSE 0 END) AS disqualifications
      FROM protocol_sanctionline sa JOIN m ON m.id = sa.match_id GROUP BY sa.member_id)
SELECT mem.id, s.played, COALESCE(w.won, 0), COALESCE(l.games, 0),
       COALESCE(l.scored, 0) - COALESCE(x.deducted, 0), COALESCE(t.tiebreaks, 0),
       COALESCE(w.tiebreaks_won, 0), COALESCE(x.penalties, 0), COALESCE(x.penalty_points, 0),
       COALESCE(x.warnings, 0), COALESCE(x.disqualifications, 0), COALESCE(l.trump_bonuses, 0),
       COALESCE(l.points_only_games, 0)
FROM league_member mem JOIN s ON s.member_id = mem.id
LEFT JOIN w ON w.member_id = mem.id LEFT JOIN l ON l.member_id = mem.id LEFT JOIN t ON t.member_id = mem.id
LEFT JOIN x ON x.member_id = mem.id
WHERE mem.club_id = %s
"""
# The all-time table's floor: the same aggregate over every finished Partie of the club in
# one game (an all-time table never adds up points of different games).
SQL_FLOOR_ALL_TIME = SQL_FLOOR.replace("WHERE club_id = %s AND season_id = %s AND", "WHERE club_id = %s AND ruleset = %s AND")
assert SQL_FLOOR_ALL_TIME != SQL_FLOOR
# What a member's season page lists, at least once: his Partien of the season, each seat
# with its Partie total (Spiel scores not annulled minus Strafen, SV 3), and his sanction
# lines of every season with their Partie's date. Checked against league.standings.history.
SQL_MEMBER_PARTIEN = """
WITH m AS (SELECT match.id FROM protocol_match match JOIN protocol_seat mine ON mine.match_id = match.id
           WHERE match.club_id = %s AND match.season_id = %s AND mine.member_id = %s),
sl AS (SELECT match_id, member_id, COUNT(*) AS games, SUM(score) AS scored FROM protocol_scoreline
       WHERE match_id IN (SELECT id FROM m) AND stage = 0 AND NOT annulled GROUP BY match_id, member_id),
sa AS (SELECT match_id, member_id, SUM(points) AS deducted FROM protocol_sanctionline
       WHERE match_id IN (SELECT id FROM m) AND stage = 0 GROUP BY match_id, member_id)
SELECT seat.match_id, seat.member_id, seat.name, match.date, match.status, match.winner_id,
       COALESCE(sl.games, 0), COALESCE(sl.scored, 0) - COALESCE(sa.deducted, 0)
FROM protocol_seat seat JOIN protocol_match match ON match.id = seat.match_id
LEFT JOIN sl ON sl.match_id = seat.match_id AND sl.member_id = seat.member_id
LEFT JOIN sa ON sa.match_id = seat.match_id AND sa.member_id = seat.member_id
WHERE seat.match_id IN (SELECT id FROM m)
ORDER BY match.date DESC, seat.match_id DESC, seat.position
"""
SQL_MEMBER_SANCTIONS = """
SELECT sa.kind, sa.points, sa.after_game, sa.reason, sa.match_id, match.date, match.status
FROM protocol_sanctionline sa JOIN protocol_match match ON match.id = sa.match_id
WHERE sa.member_id = %s ORDER BY match.date DESC, sa.match_id DESC, sa.after_game DESC, sa.id DESC
"""


_FASTEST: dict = {}


def table_floor(club_pk: int, season_pk: int | None, game: str | None):
    """The least a table computed anew costs in SQL: of two formulations of the same table,
    the one this database runs faster (timed alternately, 5 times each, on first use).

    - one statement (``SQL_FLOOR``, ``SQL_FLOOR_ALL_TIME``), checked to give the page's rows;
    - the page's own four grouped aggregates (``league.standings.ranking.aggregates``) run
      bare: no model, no ranking, no HTML. SQLite runs these 10x faster than the one
      statement, PostgreSQL somewhat faster.

    Returns a function that computes the table and returns its number of rows."""
    from django.db import connection

    from league.models import Club
    from league.standings.ranking import aggregates, counted_filter

    scope = (connection.vendor, club_pk, season_pk, game)
    if scope not in _FASTEST:
        club = Club.objects.get(pk=club_pk)
        season = club.seasons.get(pk=season_pk) if season_pk else None
        one = (SQL_FLOOR, [club_pk, season_pk, club_pk]) if season_pk else (SQL_FLOOR_ALL_TIME, [club_pk, game, club_pk])
        grouped = [q.query.sql_with_params() for q in aggregates(counted_filter(club, season, game))]

        def run(statements):
            def table():
                rows = 0
                with connection.cursor() as cursor:
                    for sql, params in statements:
                        cursor.execute(sql, params)
                        rows = max(rows, len(cursor.fetchall()))
                return rows
            return table

        ways = [run([one]), run(grouped)]
        times: list[list[float]] = [[], []]
        for _ in range(5):
            for n, way in enumerate(ways):
                started = time.perf_counter()
                way()
                times[n].append(time.perf_counter() - started)
        _FASTEST[scope] = min(zip(map(statistics.median, times), range(2), ways))[2]
    return _FASTEST[scope]


def median_time(fn, runs: int, warmup: int = 1, budget: float = 15.0) -> float:
    """Median wall-clock of ``runs`` calls after ``warmup``; fewer runs (at least one) once
    ``budget`` seconds are spent, so that a slow measure cannot blow the ten minutes."""
    spent = time.perf_counter()
    for _ in range(warmup):
        fn()
        if time.perf_counter() - spent > budget / 3:
            break
    times = []
    started_all = time.perf_counter()
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
        if time.perf_counter() - started_all > budget:
            break
    return statistics.median(times)


def run_child(args) -> None:
    os.environ["DATABASE_URL"] = args.child
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost,testserver"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    from bench import honest

    call_command("migrate", verbosity=0)
    result: dict = {"sizes": {}}
    sizes = [("club", ["--size", "club", "--prefix", "Club"]),
             ("federation", ["--size", "federation", "--matches", str(args.federation_matches), "--prefix", "Verband"])]
    for size, options in sizes:
        started = time.perf_counter()
        if not args.reuse:  # a database of an earlier run holds both sizes already
            call_command("generate_history", *options, "--seed", "1", verbosity=0, stdout=open(os.devnull, "w"))
        generated = time.perf_counter() - started
        result["sizes"][size] = measure_size(options[-1], args.runs, check_floor=size == "club") | {"generate_seconds": round(generated, 1)}
        # Each figure against its floor, timed interleaved in the same rounds (bench.honest); the
        # workbook first, as generate_history left the club (the pages then compute its ratings).
        # five rounds at least: a workbook of a federation's season takes seconds, and its
        # spread over three rounds moved the median by a tenth of the ratio
        xlsx = honest.measure_xlsx(options[-1], max(5, args.runs // 2))
        result["sizes"][size]["targets"] = honest.measure_pages(options[-1], args.runs)
        result["sizes"][size]["targets"]["season xlsx"] = xlsx
        result["sizes"][size]["ratings_rebuild"] = honest.measure_rebuild(options[-1])
        result["sizes"][size]["loadavg"] = [round(x, 1) for x in os.getloadavg()]  # the machine, after measuring
        print(f"  {size}: generated in {generated:.0f} s, measured", flush=True)
    if args.child.startswith("sqlite"):  # no database involved: once is enough
        result["sheet"] = honest.measure_sheet(max(3, args.runs // 2))
        result["check_protocol"] = honest.measure_check_protocol(max(3, args.runs // 2))
        print("  sheet and check_protocol measured", flush=True)
    if args.skip_load:
        result["load"] = {"note": "skipped (--skip-load)"}
    else:
        from bench.load import run_load

        result["load"] = run_load(args.child, args.load_seconds)
    Path(args.out).write_text(json.dumps(result, indent=2, default=str))


def measure_size(prefix: str, runs: int, check_floor: bool = True) -> dict:
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from league.models import Club
    from league.standings import games
    from league.standings.ranking import standings
    from protocol.models import Match, SanctionLine, ScoreLine

    club = Club.objects.get(slug=f"{prefix.lower()}-1")
    season = club.seasons.order_by("-start").first()  # the latest season
    url = reverse("standings_season", kwargs={"slug": club.slug, "season_pk": season.pk})
    client = Client()

    def page():
        response = client.get(url)
        assert response.status_code == 200, response.status_code

    # Count with an execute wrapper: CaptureQueriesContext loses the queries of a test-client
    # request (request_started resets the connection's query log).
    queries = []
    with connection.execute_wrapper(lambda execute, sql, *rest: (queries.append(sql), execute(sql, *rest))[1]):
        page()  # also the warm-up of the page

    def floor():
        with connection.cursor() as cursor:
            cursor.execute(SQL_FLOOR, [club.pk, season.pk, club.pk])
            return cursor.fetchall()

    if check_floor:  # the floor must compute the very table the page shows
        by_sql = sorted(tuple(row) for row in floor())
        by_orm = sorted((s.member.pk, s.played, s.won, s.games, s.points, s.tiebreaks, s.tiebreaks_won,
                         s.penalties, s.penalty_points, s.warnings, s.disqualifications, s.trump_bonuses,
                         s.points_only_games)
                        for s in standings(club, season))
        assert by_sql == by_orm, "the SQL floor and league.standings.ranking disagree"
        game = games.in_play(club)[0]
        with connection.cursor() as cursor:
            cursor.execute(SQL_FLOOR_ALL_TIME, [club.pk, game, club.pk])
            by_sql = sorted(tuple(row) for row in cursor.fetchall())
        by_orm = sorted((s.member.pk, s.played, s.won, s.games, s.points, s.tiebreaks, s.tiebreaks_won,
                         s.penalties, s.penalty_points, s.warnings, s.disqualifications, s.trump_bonuses,
                         s.points_only_games)
                        for s in standings(club, None, game=game))
        assert by_sql == by_orm, "the all-time SQL floor and league.standings.ranking disagree"
        from bench.honest import season_member
        from league.standings.history import member_partien
        from league.standings.sanctions import sanction_history

        member = season_member(club, season)
        with connection.cursor() as cursor:
            cursor.execute(SQL_MEMBER_PARTIEN, [club.pk, season.pk, member.pk])
            by_sql = {(row[0], row[7], row[6]) for row in cursor.fetchall() if row[1] == member.pk}
            cursor.execute(SQL_MEMBER_SANCTIONS, [member.pk])
            sanctions = [row[:5] for row in cursor.fetchall()]
        assert by_sql == {(p.match.pk, p.total, p.games) for p in member_partien(member, season)}, \
            "the member page's SQL floor and league.standings.history disagree"
        assert sanctions == [tuple(s)[:5] for s in sanction_history(member)], "the sanction floor disagrees"

    matches = Match.objects.filter(season=season)
    out = {
        "club": club.slug, "season": season.name,
        "matches": Match.objects.filter(club=club).count(),
        "season_matches": matches.count(),
        "score_lines": ScoreLine.objects.filter(match__club=club).count(),
        "page_queries": len(queries),  # its time against its floor: bench.honest
    }
    out["xlsx"] = measure_xlsx(club, season, 1)  # peak memory; its time against openpyxl: bench.honest
    out["xlsx"] |= peak_rss(club)
    out["xlsx"]["rows"] = (ScoreLine.objects.filter(match__season=season).count() + matches.count()
                           + SanctionLine.objects.filter(match__season=season).count())
    out["xlsx"]["rows_per_second"] = out["xlsx"]["rows"] / out["xlsx"]["seconds"]
    return out


def peak_rss(club) -> dict:
    """The workbook's peak memory by RSS, written by a process of its own (bench/rss.py)."""
    import subprocess

    url = os.environ["DATABASE_URL"]
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "rss.py"), url, club.slug], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure_xlsx(club, season, runs: int) -> dict:
    from league.spreadsheets.exports import write_season

    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "season.xlsx"
        seconds = median_time(lambda: write_season(club, season, str(target)), runs, warmup=0, budget=5)
        tracemalloc.start()
        write_season(club, season, str(target))
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        size = target.stat().st_size
    return {"seconds": seconds, "peak_mb": peak / 2**20, "file_kb": size // 1024}


def _long_partie(names: list[str], games: int, seed: int = 0):
    """A simulated Partie (Obergrenze 5000, so it runs long) cut after ``games`` Spiele, and its next Spiel."""
    from protocol.games.chaotentrumpf.simulation import simulate_match

    for attempt in range(1000):
        doc = simulate_match(names, random.Random(seed + attempt), settings={"limit": 5000},
                             max_events=2 * games + 10)
        game_events = [i for i, e in enumerate(doc["events"]) if "game" in e]
        if len(game_events) > games:
            return doc, doc["events"][: game_events[games - 1] + 1], doc["events"][game_events[games]]["game"]
    raise SystemExit(f"no simulated Partie of {games} Spiele")


def sheet_pair():
    """render_sheet of a 60-Spiel Partie, and WeasyPrint on a plain HTML table of the same size:
    the same rows and columns (number, Mischer, trump, notes, score and total per player)
    holding the same text, without the sheet's styling, header, chart and signatures.
    Returns the two callables and the number of Spiele."""
    from django.utils import translation
    from weasyprint import HTML

    from protocol.games.chaotentrumpf.sheet import sheet_context
    from protocol.rules import evaluate
    from protocol.sheet import render_sheet

    names = ["Anna", "Bernd", "Carla", "Dieter"]
    _, events, _ = _long_partie(names, 60)
    doc = {"format": "protocol/1", "ruleset": "chaotentrumpf", "club": "Bench", "date": "2026-11-20",
           "players": names, "scorekeeper": names[0], "settings": {"limit": 5000}, "events": events}
    match = evaluate(doc).match

    def cells(row) -> list:
        texts = [row.number or "§", row.shuffler, f"{row.trump} {row.level}".strip(),
                 " ".join(row.inversions) + (row.text if row.kind != "game" or row.annulled else "")]
        return texts + [text for cell in row.cells for text in (cell.score, cell.total)]

    with translation.override("de"):
        rows = [row for section in sheet_context(match, None)["sections"] for row in section.rows]
    head = "".join(f"<th>{n}</th><th>Σ</th>" for n in names)
    body = "".join("<tr>" + "".join(f"<td>{text}</td>" for text in cells(row)) + "</tr>" for row in rows)
    plain = f"<html><body><table border='1'><tr><th>Nr.</th><th></th><th></th><th></th>{head}</tr>{body}</table></body></html>"

    def render():
        with translation.override("de"):
            return render_sheet(match)

    return render, lambda: HTML(string=plain).write_pdf(), len(match.games)


def measure_sheet(runs: int) -> dict:
    """The sheet and its plain-table floor, each timed on its own (see bench.honest for the pair)."""
    render, plain, games = sheet_pair()
    return {"render": median_time(render, runs), "plain": median_time(plain, runs), "games": games, "players": 4}
