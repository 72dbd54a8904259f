"""Every season has its game; a Partie goes only into a season of its game, and a
tournament's Partien are only the tables of its rounds: on every path a Partie comes in
(the new-Partie form, a protocol file, a season workbook, a paper protocol transcribed).

Found: a member created a Chaotentrumpf Partie inside the Doppelkopf tournament season,
entered one Spiel, ended it, and it entered the tournament table at rank 1.
"""

import datetime
import importlib
import json

import pytest
from django.apps import apps
from django.urls import reverse

from league.checks import misfits
from league.models import Club, Member, Round, Season
from league.spreadsheets.exports import season_xlsx
from league.spreadsheets.imports import import_season
from protocol import matches, recording
from protocol.documents import transfer
from protocol.models import Match
from tests.unit.builders import quiet

FOUR = ["Anna", "Bernd", "Carla", "Dieter"]
WRONG_GAME = "ist eine Saison für Doppelkopf; eine Partie Chaotentrumpf kann nicht in sie eingetragen werden"
TOURNAMENT = "ist ein Turnier: ihre Partien sind die Tische ihrer Runden"
NOT_OFFERED = "Diese Saison kann nicht gewählt werden"


@pytest.fixture
def seasons(club):
    year = {"start": datetime.date(2026, 1, 1), "end": datetime.date(2026, 12, 31)}
    return {
        "liga": Season.objects.create(club=club, name="Liga 2026", **year),
        "doko": Season.objects.create(club=club, name="Doko-Abende", ruleset="doppelkopf", **year),
        "turnier": Season.objects.create(club=club, name="Turnier", ruleset="doppelkopf", mode="tournament",
                                         game_settings={"rules": "tcg"}, ranking_rule="tcg", **year),
    }


@pytest.fixture
def four(club, member_user, scorekeeper):
    for name in ("Carla", "Dieter"):
        Member.objects.get_or_create(club=club, name=name)
    return [club.members.get(name=name) for name in FOUR]


def create(club, four, season, settings=None, **extra):
    return matches.create_match(club=club, date=datetime.date(2026, 11, 20), members=four, scorekeeper=four[1],
                                settings=settings or {}, season=season, **extra)


# -- the one check -------------------------------------------------------------------------

def test_a_partie_goes_into_a_league_season_of_its_game(club, four, seasons):
    assert create(club, four, seasons["liga"]).season == seasons["liga"]
    assert create(club, four, seasons["doko"], ruleset="doppelkopf", settings={"rules": "tcg"}).season


@pytest.mark.parametrize("name, message", [("doko", WRONG_GAME), ("turnier", TOURNAMENT)])
def test_a_season_of_another_game_or_a_tournament_refuses_a_partie_of_its_own(club, four, seasons, name, message):
    with pytest.raises(recording.RuleViolation, match=message) as refused:
        create(club, four, seasons[name])
    assert refused.value.errors[0].field == "season"
    assert not Match.objects.exists()


def test_a_tournament_takes_the_tables_of_its_own_rounds_only(club, four, seasons):
    turnier = seasons["turnier"]
    round_ = Round.objects.create(season=turnier, number=1, date=datetime.date(2026, 11, 20), seed=1)
    table = create(club, four, turnier, ruleset="doppelkopf", settings={"rules": "tcg"}, round=round_, table_number=1)
    assert (table.round, table.table_number) == (round_, 1)
    with pytest.raises(recording.RuleViolation, match="Saison dieser Runde"):
        create(club, four, seasons["doko"], ruleset="doppelkopf", settings={"rules": "tcg"}, round=round_,
               table_number=2)


# -- the new-Partie form ---------------------------------------------------------------------

def new_match_post(four, season, **extra):
    data = {"ruleset": "chaotentrumpf", "date": "2026-11-20", "limit": 1000, "cards_per_deal": 5,
            "no_trump_points": -100, "no_trick_points": -200, "scorekeeper": "Bernd", "season": season.pk}
    data |= {f"seat{i}": member.pk for i, member in enumerate(four)}
    return data | extra


def test_the_form_offers_league_seasons_each_named_with_its_game(scorekeeper_client, club, four, seasons):
    page = scorekeeper_client.get(reverse("protocol:new", kwargs={"slug": club.slug}))
    field = page.context["form"].fields["season"]
    assert set(field.queryset) == {seasons["liga"], seasons["doko"]}
    html = page.content.decode()
    assert f'value="{seasons["doko"].pk}" data-ruleset="doppelkopf">Doko-Abende (Doppelkopf)' in html
    assert "Turnier" not in html.split('name="season"')[1].split("</select>")[0]


@pytest.mark.parametrize("name, message", [("doko", WRONG_GAME), ("turnier", NOT_OFFERED)])
def test_the_form_refuses_a_season_of_another_game_or_a_tournament_at_the_season(scorekeeper_client, club, four,
                                                                                  seasons, name, message):
    response = scorekeeper_client.post(reverse("protocol:new", kwargs={"slug": club.slug}),
                                       new_match_post(four, seasons[name]))
    assert response.status_code == 200
    assert any(message in error for error in response.context["form"].errors["season"])
    assert not Match.objects.exists()


# -- a protocol file -------------------------------------------------------------------------

def protocol(**header):
    return {"format": "protocol/1", "ruleset": "chaotentrumpf", "date": "2026-11-20", "players": FOUR,
            "scorekeeper": "Bernd", "settings": {}, "events": [quiet()], **header}


@pytest.mark.parametrize("name, message", [("doko", WRONG_GAME), ("turnier", TOURNAMENT)])
def test_a_protocol_file_is_refused_by_a_season_chosen_or_named(club, four, seasons, name, message):
    with pytest.raises(transfer.ImportRefused, match=message):
        transfer.import_document(protocol(), club=club, season=seasons[name])
    with pytest.raises(transfer.ImportRefused, match=message):
        transfer.import_document(protocol(season=seasons[name].name), club=club)
    assert not Match.objects.exists()


def test_a_protocol_file_without_a_season_goes_into_the_league_season_of_its_game_and_date(club, four, seasons):
    seasons["liga"].delete()
    assert transfer.import_document(protocol(), club=club).match.season is None  # not the tournament's
    doppelkopf = protocol(ruleset="doppelkopf", settings={"rules": "tcg"}, events=[])
    assert transfer.import_document(doppelkopf, club=club).match.season == seasons["doko"]


def test_the_upload_page_does_not_offer_a_tournament(secretary_client, club, seasons):
    from django.core.files.uploadedfile import SimpleUploadedFile
    upload = SimpleUploadedFile("partie.json", json.dumps(protocol()).encode(), content_type="application/json")
    response = secretary_client.post(reverse("protocol:import", kwargs={"slug": club.slug}),
                                     {"file": upload, "season": seasons["turnier"].pk})
    assert response.status_code == 200 and NOT_OFFERED in response.content.decode()
    assert not Match.objects.exists()


# -- a season workbook -----------------------------------------------------------------------

@pytest.fixture
def workbook(club, four, seasons):
    for day in (3, 10):
        matches.create_match(club=club, date=datetime.date(2026, 2, day), members=four, scorekeeper=four[0],
                             settings={}, season=seasons["liga"], events=[quiet()] * 3)
    return season_xlsx(club, seasons["liga"])


@pytest.mark.parametrize("ruleset, mode, message", [("doppelkopf", "league", WRONG_GAME),
                                                    ("chaotentrumpf", "tournament", TOURNAMENT)])
def test_a_season_workbook_is_refused_by_a_season_of_another_game_or_a_tournament(workbook, ruleset, mode, message):
    other = Club.objects.create(name="Skatfreunde Wendlingen", slug="wendlingen")
    season = Season.objects.create(club=other, name="Liga 2026", start=datetime.date(2026, 1, 1),
                                   end=datetime.date(2026, 12, 31), ruleset=ruleset, mode=mode)
    for chosen in (season, None):  # chosen, or named by the workbook's rows
        report = import_season(workbook, club=other, season=chosen)
        assert not report.saved and any(message in p.message for p in report.problems)
        assert {p.sheet for p in report.problems} == {"Partien"}
    assert not Match.objects.filter(club=other).exists()


def test_a_season_the_workbook_creates_is_a_chaotentrumpf_league(workbook):
    other = Club.objects.create(name="Skatfreunde Wendlingen", slug="wendlingen")
    assert import_season(workbook, club=other).saved
    assert other.seasons.get().ruleset == "chaotentrumpf"


# -- a paper protocol transcribed ------------------------------------------------------------

@pytest.mark.parametrize("name", ["doko", "turnier"])
def test_a_transcription_is_refused_into_a_season_of_another_game_or_a_tournament(secretary_client, club, seasons,
                                                                                  name):
    header = {"date": "2026-11-20", "place": "", "season": str(seasons[name].pk), "limit": "1000",
              "players": ", ".join(FOUR), "scorekeeper": "", "cards_per_deal": "5", "decks": "",
              "no_trump_points": "-100", "no_trick_points": "-200", "scorekeeper_skips_shuffling": "",
              "max_games": ""}
    row = {"entry": "P", "inversions": "", "lines": [["3", "56", "2"], ["4", "40", "1"], ["3", "30", "0"],
                                                     ["0", "0", "0"]]}
    response = secretary_client.post(reverse("protocol:transcribe_save", kwargs={"slug": club.slug}),
                                     json.dumps({"token": "", "header": header, "rows": [row]}),
                                     content_type="application/json")
    assert response.status_code == 400 and NOT_OFFERED in response.json()["error"]
    assert not Match.objects.exists()


# -- the seasons' own forms ------------------------------------------------------------------

def test_the_season_form_asks_for_the_game_and_keeps_it_while_the_season_has_partien(secretary_client, club, four,
                                                                                     seasons):
    liga = seasons["liga"]
    url = reverse("season_edit", kwargs={"slug": club.slug, "pk": liga.pk})
    assert "ruleset" in secretary_client.get(url).context["form"].fields
    data = {"name": liga.name, "start": "2026-01-01", "end": "2026-12-31", "ranking_rule": "ppg", "ruleset": "tarot"}
    assert secretary_client.post(url, data).status_code == 302  # no Partie yet: the game may change
    liga.refresh_from_db()
    assert liga.ruleset == "tarot"
    doko = seasons["doko"]
    create(club, four, doko, ruleset="doppelkopf", settings={"rules": "tcg"})
    url = reverse("season_edit", kwargs={"slug": club.slug, "pk": doko.pk})
    response = secretary_client.post(url, data | {"name": doko.name})
    assert "bleibt eine Saison für Doppelkopf" in response.context["form"].errors["ruleset"][0]


def test_a_league_season_with_partien_does_not_become_a_tournament(secretary_client, club, four, seasons):
    doko = seasons["doko"]
    create(club, four, doko, ruleset="doppelkopf", settings={"rules": "tcg"})
    url = reverse("tournament_settings", kwargs={"slug": club.slug, "season_pk": doko.pk})
    response = secretary_client.post(url, {"mode": "tournament", "ruleset": "doppelkopf", "rules": "tcg",
                                           "ranking_rule": "tcg"})
    assert response.status_code == 200 and "mode" in response.context["form"].errors
    doko.refresh_from_db()
    assert not doko.is_tournament


# -- the seasons stored before: the migration and the check -----------------------------------

def test_the_migration_gives_each_season_the_game_of_most_of_its_partien(club, four, seasons):
    migration = importlib.import_module("league.migrations.0003_season_game")
    dko = create(club, four, seasons["doko"], ruleset="doppelkopf", settings={"rules": "tcg"})
    create(club, four, seasons["liga"])
    Match.objects.filter(pk=dko.pk).update(season=seasons["liga"])  # as stored before the rule
    create(club, four, seasons["liga"])
    empty = Season.objects.create(club=club, name="Leer", start=datetime.date(2027, 1, 1),
                                  end=datetime.date(2027, 12, 31))
    only_doppelkopf = Season.objects.create(club=club, name="Doko 2025", start=datetime.date(2025, 1, 1),
                                            end=datetime.date(2025, 12, 31), ruleset="doppelkopf")
    Match.objects.filter(pk=dko.pk).update(season=only_doppelkopf)
    Match.objects.filter(pk=create(club, four, seasons["doko"], ruleset="doppelkopf",
                                   settings={"rules": "tcg"}).pk).update(season=seasons["liga"])
    Season.objects.filter(pk__in=[seasons["liga"].pk, empty.pk, only_doppelkopf.pk]).update(ruleset="")
    migration.give_every_season_its_game(apps, None)
    games = dict(Season.objects.values_list("name", "ruleset"))
    assert (games["Liga 2026"], games["Leer"], games["Doko 2025"]) == ("chaotentrumpf", "chaotentrumpf", "doppelkopf")
    assert Match.objects.count() == 4  # nothing deleted, nothing moved
    assert [(w.id, w.obj) for w in misfits()] == [("league.W001", seasons["liga"])]


def test_the_check_lists_a_tournament_with_a_partie_outside_its_rounds(club, four, seasons):
    stray = create(club, four, seasons["liga"])
    Match.objects.filter(pk=stray.pk).update(season=seasons["turnier"])  # the bug, before the fix
    found = {w.id: w.msg for w in misfits()}
    assert set(found) == {"league.W001", "league.W002"}
    assert "Turnier „Turnier“" in found["league.W002"] and "1 Partien" in found["league.W002"]


@pytest.mark.django_db(transaction=True)
def test_a_backup_from_before_restores_each_season_with_the_game_of_its_partien(tmp_path):
    from django.core.management import call_command

    club = Club.objects.create(name="Doko-Freunde", slug="doko")
    four = [Member.objects.create(club=club, name=name) for name in FOUR]
    year = {"start": datetime.date(2026, 1, 1), "end": datetime.date(2026, 12, 31)}
    doko = Season.objects.create(club=club, name="Doko", ruleset="doppelkopf", **year)
    Season.objects.create(club=club, name="Leer", start=datetime.date(2027, 1, 1), end=datetime.date(2027, 12, 31))
    create(club, four, doko, ruleset="doppelkopf", settings={"rules": "tcg"})
    backup = tmp_path / "sicherung.json"
    call_command("backup", str(backup))
    old = json.loads(backup.read_text())
    for row in old["clubs"]:
        for season in row["seasons"]:
            season["ruleset"] = ""  # as league seasons were written then
    backup.write_text(json.dumps(old))
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(backup), verbosity=0)
    assert dict(Season.objects.values_list("name", "ruleset")) == {"Doko": "doppelkopf", "Leer": "chaotentrumpf"}
