"""The league never mixes games: a Doppelkopf or Tarot Partie never reaches a Chaotentrumpf
table, every all-time view is per game, and each game names its own end."""

import datetime

import pytest
from django.urls import reverse

from league.models import Member
from league.standings.ranking import standings
from protocol import matches
from protocol.models import Match

TAROT_TABLE = ["Frank", "Erika", "Gisela", "Jürgen"]
# The FFT worked example: Frank (the taker) makes his garde.
DEAL = {"dealer": "Erika", "taker": "Frank", "contract": "garde", "partner": None, "oudlers": 2, "points": 49,
        "petit_au_bout": None, "poignees": [], "chelem": None, "null": False}


def url(name, club, **kwargs):
    return reverse(name, kwargs={"slug": club.slug, **kwargs})


@pytest.fixture
def tarot(club):
    """A three-deal Tarot Partie ended by time, of players who never played Chaotentrumpf."""
    members = [Member.objects.get_or_create(club=club, name=n)[0] for n in TAROT_TABLE]
    return matches.create_match(club=club, date=datetime.date(2026, 3, 20), members=members,
                                scorekeeper=members[0], settings={}, ruleset="tarot",
                                events=[{"game": DEAL}] * 3 + [{"end": {"reason": "time"}}])


@pytest.fixture
def mixed(known_season, tarot):
    """Old data: the Tarot Partie filed into the Chaotentrumpf season (today every path refuses
    that; the tables must not add it up all the same)."""
    Match.objects.filter(pk=tarot.pk).update(season=known_season)
    return known_season


def names(rows):
    return [row.member.name for row in rows]


def test_a_tarot_partie_filed_in_a_chaotentrumpf_season_never_reaches_its_table(member_client, club, mixed, tarot):
    assert tarot.status == Match.Status.FINISHED
    assert not set(TAROT_TABLE) & set(names(standings(club, mixed)))
    page = member_client.get(url("standings_season", club, season_pk=mixed.pk)).text
    assert "Jürgen" not in page and "Chaotentrumpf" in page


def test_the_all_time_table_is_one_table_per_game(member_client, club, mixed, tarot):
    default = member_client.get(url("standings_all_time", club))
    assert default.context["game"] == "chaotentrumpf"
    assert "Jürgen" not in default.text
    assert "?spiel=tarot" in default.text  # the switch to the other game's table
    tarot_page = member_client.get(url("standings_all_time", club) + "?spiel=tarot")
    assert sorted(r.member.name for r in tarot_page.context["rows"]) == sorted(TAROT_TABLE)
    assert "Anna" not in [r.member.name for r in tarot_page.context["rows"]]


def test_an_unknown_game_in_the_address_is_not_found(member_client, club, known_season):
    assert member_client.get(url("standings_all_time", club) + "?spiel=skat").status_code == 404
    assert member_client.get(url("standings_all_time", club) + "?spiel=tarot").status_code == 404  # none played


def test_the_public_sees_the_same_separated_tables(client, club, mixed, tarot):
    club.standings_public = True
    club.save()
    text = client.get(url("standings_all_time", club)).text
    assert "Jürgen" not in text and "Anna" in text


def test_a_members_all_time_page_names_the_game_and_never_adds_games_up(member_client, club, mixed, tarot):
    frank = club.members.get(name="Frank")
    Match.objects.filter(pk=tarot.pk).update(season=None)
    page = member_client.get(url("member_page", club, member_pk=frank.pk) + "?saison=alle")
    assert page.context["game"] == "tarot"
    assert "Tarot" in page.text
    assert page.context["row"].played == 1
    anna = club.members.get(name="Anna")
    assert member_client.get(url("member_page", club, member_pk=anna.pk) + "?saison=alle").context["game"] \
        == "chaotentrumpf"


def test_the_archive_names_each_partie_s_game_and_filters_by_it(member_client, club, mixed, tarot):
    page = member_client.get(url("archive", club))
    assert "Tarot" in page.text and "Chaotentrumpf" in page.text
    only = member_client.get(url("archive", club) + "?spiel=tarot")
    assert [m.pk for m in only.context["table"].data] == [tarot.pk]


def test_a_tarot_end_is_labelled_by_tarot_s_own_rules(member_client, club, tarot):
    text = member_client.get(url("archive", club)).text
    assert "Zeitbegrenzung" in text
    assert "Art. 17c" not in text  # Chaotentrumpf's article


def test_the_club_page_shows_one_table_per_game_under_way(member_client, club, table):
    from league.models import Season
    today = datetime.date.today()
    ct = Season.objects.create(club=club, name="Liga", start=today, end=today, ruleset="chaotentrumpf")
    ta = Season.objects.create(club=club, name="Tarot-Abende", start=today, end=today, ruleset="tarot")
    members = [Member.objects.get_or_create(club=club, name=n)[0] for n in TAROT_TABLE]
    matches.create_match(club=club, season=ta, date=today, members=members, scorekeeper=members[0],
                         settings={}, ruleset="tarot", events=[{"game": DEAL}, {"end": {"reason": "time"}}])
    page = member_client.get(url("club", club))
    shown = [(t["season"], [r.member.name for r in t["table"].data]) for t in page.context["current_tables"]]
    assert [s for s, _ in shown] == [ct, ta]
    assert shown[0][1] == [] and sorted(shown[1][1]) == sorted(TAROT_TABLE)
    assert "Tabelle Tarot-Abende" in page.text


def test_the_club_spreadsheet_has_one_table_per_game_and_names_each_partie_s_game(club, mixed, tarot):
    import io

    from openpyxl import load_workbook

    from league.spreadsheets.exports import season_xlsx
    workbook = load_workbook(io.BytesIO(season_xlsx(club, None)), read_only=True)
    assert workbook.sheetnames[:2] == ["Tabelle Chaotentrumpf", "Tabelle Tarot"]
    tarot_table = [row[1] for row in workbook["Tabelle Tarot"].iter_rows(min_row=2, values_only=True)
                   if len(row) > 1 and isinstance(row[0], int)]
    assert sorted(tarot_table) == sorted(TAROT_TABLE)
    rows = list(workbook["Partien"].iter_rows(values_only=True))
    header = rows[0]
    tarot_row = next(dict(zip(header, row, strict=True)) for row in rows[1:] if row[0] == tarot.pk)
    assert tarot_row["Spielart"] == "Tarot"
    assert tarot_row["Ausgang"] == "Zeitbegrenzung"  # Tarot's own words, no Chaotentrumpf article
