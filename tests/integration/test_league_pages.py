"""The league's pages: the table, a member's page, the archive, per persona."""

import datetime
import random
import re

import pytest
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, reverse
from django_tables2 import RequestConfig

from league.models import Club, Member, Season
from league.registry import addresses
from league.standings.ranking import Standing, standings
from league.standings.tables import StandingsTable
from protocol import matches
from protocol.games.chaotentrumpf.simulation import simulate_match
from tests.integration.pages import table_rows
from tests.standings_season import NAMES, play
from tests.unit.builders import game, quiet, sweep

# Three players share three Blätter: all twelve Asse in 30 cards are 276 Augen (x 4).
CARLA_SWEEPS_THREE = game({"Carla": (10, 276, 12), "Anna": (0, 0, 0), "Bernd": (0, 0, 0)}, trump=("rank", "A"))


def url(name, club, **kwargs):
    return reverse(name, kwargs={"slug": club.slug, **kwargs})


@pytest.fixture
def anna(club, member_user):
    return club.members.get(name="Anna")


@pytest.fixture
def partie(club, known_season):
    return club.matches.order_by("date").first()


def play_on(club, season, players, events, date):
    return matches.create_match(club=club, season=season, date=date, members=players,
                                scorekeeper=players[0], settings={}, events=events)


def every_url(club, season, member, match):
    return {
        "standings": url("standings", club),
        "standings_season": url("standings_season", club, season_pk=season.pk),
        "standings_query": url("standings", club) + f"?saison={season.pk}",
        "standings_all_time": url("standings_all_time", club),
        "member_page": url("member_page", club, member_pk=member.pk),
        "archive": url("archive", club),
        "export_season": url("export_season", club, pk=season.pk),
        "export_club": url("export_club", club),
        "export_match": url("export_match", club, pk=match.pk),
    }


STANDINGS_PAGES = {"standings", "standings_season", "standings_query", "standings_all_time"}
STARTED = {"export_season", "export_club"}  # a POST starts a background job and redirects to its page


# ---------- Who may see what ----------

@pytest.mark.parametrize("persona", ["secretary_client", "member_client"])
def test_members_and_secretaries_see_every_league_page(request, persona, club, anna, known_season, partie):
    client = request.getfixturevalue(persona)
    for name, address in every_url(club, known_season, anna, partie).items():
        if name in STARTED:
            assert client.post(address).status_code == 302, name
        else:
            assert client.get(address).status_code == 200, name


def test_outsiders_are_refused_everything_of_a_private_club(outsider_client, club, anna, known_season, partie):
    for name, address in every_url(club, known_season, anna, partie).items():
        assert outsider_client.get(address).status_code == 403, name


def test_anonymous_visitors_of_a_private_club_are_sent_to_the_login(client, club, anna, known_season, partie):
    for name, address in every_url(club, known_season, anna, partie).items():
        response = client.get(address)
        assert response.status_code == 302, name
        assert response["Location"].startswith(reverse("login") + "?next="), name


@pytest.mark.parametrize("persona", ["client", "outsider_client"])
def test_public_standings_are_open_to_everyone_but_nothing_else_is(request, persona, club, anna, known_season,
                                                                    partie):
    club.standings_public = True
    club.save()
    visitor = request.getfixturevalue(persona)
    for name, address in every_url(club, known_season, anna, partie).items():
        status = visitor.get(address).status_code
        if name in STANDINGS_PAGES:
            assert status == 200, name
        else:
            assert status in (302, 403), name


def test_the_public_sees_names_without_links_to_member_pages(client, club, anna, known_season):
    club.standings_public = True
    club.save()
    text = client.get(url("standings", club)).text
    assert "Anna" in text and "Bernd" in text
    assert "/mitglied/" not in text
    assert "Saison exportieren" not in text


def test_a_member_page_of_another_club_is_not_found(member_client, club, known_season):
    other = Club.objects.create(name="Skatfreunde", slug="skat")
    stranger = Member.objects.create(club=other, name="Siegfried")
    assert member_client.get(url("member_page", club, member_pk=stranger.pk)).status_code == 404


def test_a_season_of_another_club_is_not_found(member_client, club, known_season):
    other = Club.objects.create(name="Skatfreunde", slug="skat")
    foreign = Season.objects.create(club=other, name="2026", start=datetime.date(2026, 1, 1),
                                    end=datetime.date(2026, 12, 31))
    assert member_client.get(url("standings_season", club, season_pk=foreign.pk)).status_code == 404
    assert member_client.get(url("standings", club) + f"?saison={foreign.pk}").status_code == 404
    assert member_client.get(url("standings", club) + "?saison=x").status_code == 404
    assert member_client.post(url("export_season", club, pk=foreign.pk)).status_code == 404


# ---------- The table ----------

def rows_of(response):
    """(rank, name) of each table row as the page shows it."""
    table = response.context["table"]
    return [(row.record.rank, row.record.name) for row in table.paginated_rows]


def test_the_table_shows_the_season_best_first_with_the_rule_under_it(member_client, club, known_season):
    response = member_client.get(url("standings", club))
    assert rows_of(response) == [(1, "Anna"), (2, "Bernd"), (3, "Dieter"), (4, "Carla")]
    text = response.text
    assert "Sortiert nach gewonnenen Partien, dann nach Punkten je Spiel × 100." in text
    assert "Tabelle 2026" in text
    assert "2.183" in text  # Bernd's points, grouped as in German
    assert "−1.379" in text  # Carla's, with a real minus sign


def test_the_rule_in_force_is_printed_under_the_table(member_client, club, known_season):
    known_season.ranking_rule = Season.RankingRule.TOTAL
    known_season.save()
    text = member_client.get(url("standings", club)).text
    assert "Sortiert nach der Gesamtpunktzahl." in text
    assert "Sortiert nach gewonnenen Partien" not in text


def test_a_members_own_row_is_highlighted(member_client, club, known_season):
    text = member_client.get(url("standings", club)).text
    highlighted = re.findall(r'<tr[^>]*class="[^"]*is-me[^"]*"[^>]*>(.*?)</tr>', text, flags=re.S)
    assert len(highlighted) == 1
    assert "Anna" in highlighted[0] and "Sie" in highlighted[0]
    assert "Sie stehen auf Platz 1 von 4." in text


def test_nobody_is_highlighted_for_a_secretary_who_did_not_play(secretary_client, club, known_season):
    text = secretary_client.get(url("standings", club)).text
    assert "is-me" not in text
    assert "Sie stehen auf Platz" not in text


def test_member_names_link_to_their_pages(member_client, club, known_season):
    text = member_client.get(url("standings", club)).text
    for member in club.members.filter(name__in=NAMES):
        assert f'href="{url("member_page", club, member_pk=member.pk)}"' in text


def test_the_table_can_be_sorted_by_a_column(member_client, club, known_season):
    response = member_client.get(url("standings", club) + "?sort=-points")
    assert [name for _rank, name in rows_of(response)] == ["Anna", "Bernd", "Dieter", "Carla"]
    response = member_client.get(url("standings", club) + "?sort=name")
    assert [name for _rank, name in rows_of(response)] == ["Anna", "Bernd", "Carla", "Dieter"]
    response = member_client.get(url("standings", club) + "?sort=-penalty_points")
    assert rows_of(response)[0] == (4, "Carla")


def test_a_large_clubs_table_is_paginated():
    rows = [Standing(i + 1, Member(pk=i + 1, name=f"Spieler {i:03}"), 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0)
            for i in range(120)]
    table = StandingsTable(rows, me=None)
    RequestConfig(RequestFactory().get("/?page=3"), paginate={"per_page": 50}).configure(table)
    assert table.paginator.num_pages == 3
    assert [row.record.rank for row in table.page.object_list] == list(range(101, 121))


@pytest.mark.parametrize("query", ["", "?sort=-points&per_page=2&page=2", "?sort=name&x=%3Cb%3E"])
def test_the_table_writes_its_head_and_rows_as_django_tables2s_own_template(rf, member_user, club, known_season,
                                                                             query):
    from django.template import RequestContext, Template
    from django.utils import translation

    from league.standings.pages import standings_table

    def written(template):
        request = rf.get("/" + query)
        request.user = member_user
        table = standings_table(request, club, standings(club, known_season), season=known_season)
        RequestConfig(request, paginate={"per_page": 50}).configure(table)
        written_by = Template("{% load django_tables2 %}{% render_table table template %}")
        return written_by.render(RequestContext(request, {"table": table, "template": template}))

    def rows(html):
        body = html[html.index("<tbody"):html.index("</tbody>")]
        return re.sub(r">\s+<", "><", body[body.index(">") + 1:]).strip()

    with translation.override("de"):
        ours, theirs = written("league/includes/one_pass_table.html"), written("includes/table.html")
    head = re.compile(r"<table[^>]*>(.*?</thead>)", flags=re.S)
    assert head.search(ours)[1] == head.search(theirs)[1]  # byte for byte
    assert "<thead" in ours and ("is-me" in ours and "2.183" in ours or query)  # Anna's row, on the first page
    assert rows(ours) == rows(theirs)


@pytest.mark.parametrize("language", ["de", "en"])
def test_numbers_are_grouped_as_djangos_number_format_groups_them(language):
    from django.utils import translation
    from django.utils.formats import number_format

    from league.standings.tables import NumberColumn, integers, number

    values = [0, 7, -7, 999, 1000, -1000, 12345, -123456, 1234567, 10**12, -(10**12)]
    with translation.override(language):
        django = [number_format(v, force_grouping=True).replace("-", "\u2212") for v in values]
        assert [number(v) for v in values] == [integers()(v) for v in values] == django
        writer = NumberColumn("n").writer()
        assert [writer(v) for v in values] == [NumberColumn("n").render(v) for v in values]


def test_the_all_time_table_spans_the_seasons(member_client, club, known_season, table):
    older = Season.objects.create(club=club, name="2025", start=datetime.date(2025, 1, 1),
                                  end=datetime.date(2025, 12, 31))
    play(club, older, table, [sweep("Carla", ("Anna", "Bernd", "Dieter"))], 5)
    response = member_client.get(url("standings_all_time", club))
    assert "Ewige Tabelle" in response.text
    carla = next(row.record for row in response.context["table"].paginated_rows if row.record.name == "Carla")
    assert (carla.played, carla.won) == (4, 1)
    season_page = member_client.get(url("standings_season", club, season_pk=older.pk))
    assert rows_of(season_page)[0] == (1, "Carla")


def test_the_table_opens_with_the_season_under_way(member_client, club, known_season, table):
    today = datetime.date.today()
    running = Season.objects.create(club=club, name="Laufend", start=today - datetime.timedelta(days=10),
                                    end=today + datetime.timedelta(days=10))
    play(club, running, table, [sweep("Dieter", ("Anna", "Bernd", "Carla"))], 6)
    response = member_client.get(url("standings", club))
    assert response.context["season"] == running
    assert rows_of(response)[0] == (1, "Dieter")


def _page_queries(client, address):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(address).status_code == 200
    return len(ctx.captured_queries)


def test_league_pages_cost_the_same_queries_for_a_small_and_a_large_season(member_client, club, season, table):
    rng = random.Random(11)
    play(club, season, table, simulate_match(NAMES, rng)["events"])
    anna = club.members.get(name="Anna")
    pages = [url("standings", club), url("standings_all_time", club), url("member_page", club, member_pk=anna.pk),
             url("archive", club), url("club", club)]
    small = [_page_queries(member_client, page) for page in pages]
    for day in range(2, 28):
        play(club, season, table, simulate_match(NAMES, rng, penalty_rate=0.05)["events"], day)
    large = [_page_queries(member_client, page) for page in pages]
    assert small == large
    assert sum(r.won for r in standings(club, season)) == 27


# ---------- The club page ----------

def test_the_club_page_shows_the_top_of_the_current_season_linking_to_member_pages(member_client, club, table):
    today = datetime.date.today()
    current = Season.objects.create(club=club, name="Jetzt", start=today - datetime.timedelta(days=30),
                                    end=today + datetime.timedelta(days=30))
    extra = [Member.objects.create(club=club, name=f"Gast {i:02}") for i in range(12)]
    for i in range(0, 12, 4):  # twelve more players: the club page shows ten rows
        four = extra[i:i + 4]
        play(club, current, four, [sweep(four[0].name, tuple(m.name for m in four[1:]))], 1)
    anna_cheats = {"penalty": {"player": "Anna", "points": 1000, "reason": "Karten getauscht"}}
    play(club, current, table, [quiet(), anna_cheats, sweep("Bernd", ("Anna", "Carla", "Dieter"))], 2)
    response = member_client.get(url("club", club))
    text = response.text
    shown, = (t["table"] for t in response.context["current_tables"])
    assert len(list(shown.rows)) == 10
    assert "Ganze Tabelle (16)" in text
    bernd = club.members.get(name="Bernd")
    assert f'href="{url("member_page", club, member_pk=bernd.pk)}"' in text  # two taps: club page, member page
    anna = club.members.get(name="Anna")
    assert "Sie stehen auf Platz" in text  # she is beyond the top ten: her line is added
    assert f'href="{url("member_page", club, member_pk=anna.pk)}"' in text


def test_the_club_page_shows_the_public_table_to_anonymous_visitors(client, club, table):
    club.standings_public = True
    club.save()
    today = datetime.date.today()
    current = Season.objects.create(club=club, name="Jetzt", start=today - datetime.timedelta(days=30),
                                    end=today + datetime.timedelta(days=30))
    play(club, current, table, [sweep("Carla", ("Anna", "Bernd", "Dieter"))], 1)
    text = client.get(url("club", club)).text
    assert "Carla" in text and "Tabelle Jetzt" in text
    assert "/mitglied/" not in text


# ---------- A member's page ----------

def test_the_member_page_shows_place_numbers_and_partien(member_client, club, known_season, anna):
    response = member_client.get(url("member_page", club, member_pk=anna.pk))
    text = response.text
    assert response.context["row"].rank == 1
    assert "Platz in der Tabelle" in text
    assert "67&nbsp;% gewonnen" in text  # the number and its sign on one line  # 2 of 3 counted Partien
    assert "332,43" in text  # 2327 points in 7 Spiele
    assert "6×" in text and "86&nbsp;% der eigenen Spiele" in text and "seiner" not in text  # the Trumpfwertung in 6 of 7 Spiele
    partien = response.context["partien_table"]
    assert len(list(partien.rows)) == 4  # the annulled Partie is listed, marked
    assert "annulliert" in text
    match = club.matches.get(date=datetime.date(2026, 3, 1))
    assert f'href="{reverse("protocol:match", kwargs={"slug": club.slug, "pk": match.pk})}"' in text


def test_the_member_page_lists_strafen_of_every_season_for_repeat_cases(secretary_client, club, known_season,
                                                                         table):
    older = Season.objects.create(club=club, name="2025", start=datetime.date(2025, 1, 1),
                                  end=datetime.date(2025, 12, 31))
    play_on(club, older, table, [quiet(), {"penalty": {"player": "Carla", "points": 300, "reason": "Karten gezinkt"}},
                                 sweep()], datetime.date(2025, 6, 1))
    carla = club.members.get(name="Carla")
    response = secretary_client.get(url("member_page", club, member_pk=carla.pk) + f"?saison={known_season.pk}")
    text = response.text
    assert "getauscht" in text and "−200" in text  # this season
    assert "Karten gezinkt" in text and "−300" in text  # an earlier season, still in view
    assert [s.reason for s in response.context["sanctions"]] == ["getauscht", "Karten gezinkt"]
    dieter = club.members.get(name="Dieter")
    text = secretary_client.get(url("member_page", club, member_pk=dieter.pk)).text
    assert "Disqualifikation" in text and "wiederholt" in text


def test_the_member_page_draws_both_charts_as_inline_svg_without_inline_styles(member_client, club,
                                                                                known_season, anna):
    text = member_client.get(url("member_page", club, member_pk=anna.pk)).text
    charts = re.findall(r"<svg.*?</svg>", text, flags=re.S)
    assert len(charts) == 2
    for svg in charts:
        assert 'role="img"' in svg and "aria-label=" in svg
        assert "style=" not in svg and "<style" not in svg  # the Content-Security-Policy allows none


def test_a_member_without_finished_partien_gets_a_friendly_page(member_client, club, season):
    anna = club.members.get(name="Anna")
    response = member_client.get(url("member_page", club, member_pk=anna.pk))
    assert response.status_code == 200
    assert "Noch keine beendete Partie in dieser Saison." in response.text
    assert "<svg" not in response.text


def test_the_member_page_can_show_all_seasons(member_client, club, known_season, table, anna):
    older = Season.objects.create(club=club, name="2025", start=datetime.date(2025, 1, 1),
                                  end=datetime.date(2025, 12, 31))
    play(club, older, table, [sweep("Anna", ("Bernd", "Carla", "Dieter"))], 8)
    response = member_client.get(url("member_page", club, member_pk=anna.pk) + "?saison=alle")
    assert response.context["all_time"] is True
    assert (response.context["row"].played, response.context["row"].won) == (4, 3)


# ---------- The archive ----------

@pytest.fixture
def archive(club, season, table):
    """Four Partien of 2026 (two finished on 1 March, one annulled, one running) and one of
    2025 without Dieter."""
    older = Season.objects.create(club=club, name="2025", start=datetime.date(2025, 1, 1),
                                  end=datetime.date(2025, 12, 31))
    return {
        "first": play(club, season, table, [sweep()], 1),
        "second": play(club, season, table, [sweep("Bernd", ("Anna", "Carla", "Dieter"))], 1),
        "annulled": play(club, season, table, [quiet(), {"annul_match": {"reason": "abgebrochen"}}], 10),
        "running": play(club, season, table, [quiet()], 20),
        "older": play_on(club, older, table[:3], [CARLA_SWEEPS_THREE], datetime.date(2025, 5, 1)),
        "seasons": (season, older),
    }


def archive_ids(client, club, query=""):
    response = client.get(url("archive", club) + query)
    assert response.status_code == 200
    # each row links its Partie's page (the rendered bytes: the archive is kept as them)
    return {int(pk) for pk in re.findall(rf'href="/verein/{club.slug}/partien/(\d+)/"', response.text)}


def test_the_archive_lists_every_partie_of_the_club(member_client, club, archive):
    assert archive_ids(member_client, club) == set(club.matches.values_list("pk", flat=True))
    assert len(archive_ids(member_client, club)) == 5


def test_the_kept_archive_shows_a_spiel_saved_at_a_running_table_at_once(member_client, club, archive):
    """The archive is kept between writes; a write to a running Partie moves no table's version,
    but it is a write to one of the club's Partien (its ``updated_at``)."""
    from protocol import recording

    def running_row():
        rows = table_rows(member_client.get(url("archive", club)).text)
        return next(row for row in rows if row["Ende"] == "läuft")

    assert running_row()["Spiele"] == "1"
    assert running_row()["Spiele"] == "1"  # kept
    recording.add_event(archive["running"], "game", quiet()["game"])
    assert running_row()["Spiele"] == "2"


def test_the_archive_filters_by_season(member_client, club, archive):
    season, older = archive["seasons"]
    assert archive_ids(member_client, club, f"?saison={older.pk}") == {archive["older"].pk}
    assert len(archive_ids(member_client, club, f"?saison={season.pk}")) == 4


def test_the_archive_filters_by_date_range(member_client, club, archive):
    found = archive_ids(member_client, club, "?von=2026-03-05&bis=2026-03-15")
    assert found == {archive["annulled"].pk}
    assert archive_ids(member_client, club, "?von=2026-03-15") == {archive["running"].pk}
    assert archive_ids(member_client, club, "?bis=2025-12-31") == {archive["older"].pk}


def test_the_archive_filters_by_member(member_client, club, archive, table):
    dieter = table[3]
    found = archive_ids(member_client, club, f"?mitglied={dieter.pk}")
    assert archive["older"].pk not in found and len(found) == 4


def test_the_archive_filters_by_status(member_client, club, archive):
    assert archive_ids(member_client, club, "?status=annulled") == {archive["annulled"].pk}
    assert archive_ids(member_client, club, "?status=running") == {archive["running"].pk}
    assert len(archive_ids(member_client, club, "?status=finished")) == 3


def test_the_archive_filters_combine(member_client, club, archive, table):
    season, _older = archive["seasons"]
    query = f"?saison={season.pk}&status=finished&von=2026-03-01&bis=2026-03-01&mitglied={table[0].pk}"
    assert len(archive_ids(member_client, club, query)) == 2


def test_the_archive_offers_only_the_clubs_own_seasons_and_members(member_client, club, archive):
    other = Club.objects.create(name="Skatfreunde", slug="skat")
    stranger = Member.objects.create(club=other, name="Siegfried")
    response = member_client.get(url("archive", club) + f"?mitglied={stranger.pk}")
    assert "Siegfried" not in response.text
    assert "Einige Filter wurden nicht verstanden" in response.text
    assert len(response.context["table"].paginated_rows) == 5  # the unknown filter is ignored


def test_each_archived_partie_links_to_its_page_its_pdf_and_its_spreadsheet(member_client, club, archive):
    match = archive["first"]
    text = member_client.get(url("archive", club)).text
    assert f'href="{reverse("protocol:match", kwargs={"slug": club.slug, "pk": match.pk})}"' in text
    assert f'href="{url("export_match", club, pk=match.pk)}"' in text
    try:
        pdf = reverse("protocol:pdf", kwargs={"slug": club.slug, "pk": match.pk})
    except NoReverseMatch:  # the sheet as PDF is being built elsewhere; until then no link
        assert ".pdf" not in text
    else:
        assert f'href="{pdf}"' in text


def test_a_link_to_a_page_that_does_not_exist_yet_is_left_out():
    assert addresses.pattern("protocol:no-such-page", "pk", optional=True, slug="ctv") == ""
    assert addresses.pattern("protocol:match", "pk", optional=True, slug="ctv").format(1) == "/verein/ctv/partien/1/"


def test_a_partie_stored_as_9999_before_dates_were_checked_does_not_break_the_member_page(secretary_client, club):
    from protocol.models import Match
    table = [Member.objects.get_or_create(club=club, name=n)[0] for n in ("Anna", "Bernd", "Carla", "Dieter")]
    old, new = [matches.create_match(club=club, date=datetime.date(2026, 5, day), members=table, scorekeeper=table[0],
                                     settings={}, events=[sweep()]) for day in (1, 2)]
    Match.objects.filter(pk=old.pk).update(date=datetime.date(9999, 12, 31))  # as an import could store it then
    page = secretary_client.get(reverse("member_page", kwargs={"slug": club.slug, "member_pk": table[0].pk}),
                                {"saison": "alle"})
    assert page.status_code == 200 and page.content.decode().count("<svg") == 2


def test_a_club_without_a_season_leads_its_secretary_to_the_first_one(club, secretary_client, member_client):
    """No season, no table: the secretary is asked to create the first season (the season form
    one tap away); a member reads a plain note and no button he cannot use."""
    season_form = reverse("season_add", kwargs={"slug": club.slug})
    secretary_page = secretary_client.get(club.get_absolute_url()).content.decode()
    assert "Dieser Verein hat noch keine Saison." in secretary_page
    assert re.search(rf'<a class="btn btn-primary" href="{season_form}">Erste Saison anlegen</a>', secretary_page)
    member_page = member_client.get(club.get_absolute_url()).content.decode()
    assert "die Tabelle beginnt mit der ersten Saison, die die Schriftführung anlegt" in member_page
    assert season_form not in member_page and "Erste Saison anlegen" not in member_page
    Season.objects.create(club=club, name="2020", start=datetime.date(2020, 1, 1), end=datetime.date(2020, 12, 31))
    past = secretary_client.get(club.get_absolute_url()).content.decode()
    assert "Zurzeit läuft keine Saison." in past
    assert "Erste Saison anlegen" not in past and "Dieser Verein hat noch keine Saison" not in past
