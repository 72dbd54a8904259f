"""The season import's pages: the secretary uploads a workbook, reads the check's report in a
background job, and confirms the import; garbage and other personas are refused."""

import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from jobs.models import Job
from league.models import Season
from league.spreadsheets.exports import season_xlsx
from protocol.models import Change, Match
from tests.season_workbooks import counts, edited, played_season


def url(club):
    return reverse("season_import", kwargs={"slug": club.slug})


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def upload(name, data):
    return SimpleUploadedFile(name, data, content_type=XLSX)


@pytest.fixture
def season_workbook(club, ppg_season, members):
    played_season(club, ppg_season, members, partien=3)
    data = season_xlsx(club, ppg_season)
    Match.objects.filter(club=club).delete()
    Season.objects.filter(club=club).delete()
    return data


def job_page(client, response):
    """The page of the job a POST started (it redirects there)."""
    assert response.status_code == 302 and "/auftrag/" in response["Location"], response
    return client.get(response["Location"]).content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_secretary_checks_then_imports_a_season(secretary_client, club, season_workbook, run_worker):
    before = counts()
    response = secretary_client.post(url(club), {"file": upload("saison.xlsx", season_workbook)})
    assert "Warten auf einen Worker" in job_page(secretary_client, response)
    run_worker()
    page = job_page(secretary_client, response)
    assert "Probelauf" in page and "Jetzt importieren" in page
    assert counts() == before
    check = club.jobs.get(kind="season_check")
    confirm = reverse("season_import_confirm", kwargs={"slug": club.slug, "pk": check.pk})
    started = secretary_client.post(confirm)
    assert secretary_client.post(confirm)["Location"] == started["Location"]  # a second tap imports nothing twice
    run_worker()
    page = job_page(secretary_client, started)
    season = Season.objects.get(club=club, name="2026")
    assert "importiert: 5 Partien" in page
    assert reverse("standings_season", kwargs={"slug": club.slug, "season_pk": season.pk}) in page
    assert Match.objects.filter(club=club, season=season).count() == 5
    assert Change.objects.filter(match__club=club).first().user.username == "schriftfuehrer"


@pytest.mark.django_db(transaction=True)
def test_a_broken_workbook_shows_every_problem_and_offers_no_import(secretary_client, club, season_workbook,
                                                                    run_worker):
    broken = edited(season_workbook, {("Partien", "B2"): "gestern", ("Spiele", "F3"): "zehn"})
    response = secretary_client.post(url(club), {"file": upload("saison.xlsx", broken)})
    run_worker()
    page = job_page(secretary_client, response)
    assert "nicht importiert" in page and "Jetzt importieren" not in page
    assert "gestern" not in page or "Datum" in page
    assert not Match.objects.filter(club=club).exists()
    check = club.jobs.get(kind="season_check")
    confirm = reverse("season_import_confirm", kwargs={"slug": club.slug, "pk": check.pk})
    assert "erneut" in secretary_client.post(confirm).content.decode()  # a refused workbook can't be confirmed
    assert not club.jobs.filter(kind="season_import").exists()


def test_an_empty_file_is_refused_at_the_upload(secretary_client, club):
    response = secretary_client.post(url(club), {"file": upload("saison.xlsx", b"")})
    assert response.status_code == 200 and "leer" in response.content.decode()
    assert not club.jobs.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("raw", [b"kein Excel", b"PK\x03\x04 kaputt", b"\xd0\xcf\x11\xe0" + b"\0" * 64])
def test_garbage_gets_a_german_message_not_a_500(secretary_client, club, raw, run_worker):
    response = secretary_client.post(url(club), {"file": upload("saison.xlsx", raw)})
    run_worker()
    page = job_page(secretary_client, response)
    assert "Excel" in page or "Datei" in page
    assert "Jetzt importieren" not in page and club.jobs.get().state == "done"
    assert not Match.objects.exists()


def test_a_confirmation_without_a_checked_workbook_imports_nothing(secretary_client, club, secretary):
    unchecked = Job.objects.create(kind="season_check", club=club, started_by=secretary, params={"upload": "x"})
    response = secretary_client.post(reverse("season_import_confirm", kwargs={"slug": club.slug, "pk": unchecked.pk}))
    assert response.status_code == 200 and "erneut" in response.content.decode()
    response = secretary_client.post(reverse("season_import_confirm", kwargs={"slug": club.slug, "pk": uuid.uuid4()}))
    assert response.status_code == 404
    assert not Match.objects.exists() and not club.jobs.filter(kind="season_import").exists()


@pytest.mark.parametrize("persona, code", [("member", 403), ("scorekeeper", 403), ("outsider", 403)])
def test_only_the_secretary_may_import(request, club, persona, code):
    client = request.getfixturevalue(f"{persona}_client")  # before the season creates the other members
    season_workbook = request.getfixturevalue("season_workbook")
    assert client.get(url(club)).status_code == code
    assert client.post(url(club), {"file": upload("saison.xlsx", season_workbook)}).status_code == code
    assert not Match.objects.exists()


def test_anonymous_visitors_are_sent_to_the_login(client, club, season_workbook):
    response = client.post(url(club), {"file": upload("saison.xlsx", season_workbook)})
    assert response.status_code == 302 and "/konto/login/" in response["Location"]
    assert not Match.objects.exists()


def test_the_seasons_page_links_the_import(secretary_client, club):
    page = secretary_client.get(reverse("club_seasons", kwargs={"slug": club.slug})).content.decode()
    assert url(club) in page
