"""The page for a club's own points lists: the secretary uploads and maps, reads the dry run
(each Partie checked by the engine, its totals and winner, how the names and columns were
read) in a background job, changes a column and checks again without a second upload, and
confirms the import; the standings are then the list's totals. Others get 403."""

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from league.models import Member
from league.standings.ranking import standings
from protocol.models import Match
from tests.points_workbooks import PLAYERS, chaotentrumpf_partien, sheet_rows, three_partien_workbook, totals, workbook

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def url(club):
    return reverse("points_list_import", kwargs={"slug": club.slug})


def upload(data, name="punkte.xlsx"):
    return SimpleUploadedFile(name, data, content_type=XLSX)


def job_page(client, response):
    assert response.status_code == 302 and "/auftrag/" in response["Location"], response
    return client.get(response["Location"]).content.decode()


def confirmed_twice(client, club):
    """The import confirmed, and tapped once more: the same job (nothing imported twice)."""
    confirm = reverse("points_list_confirm", kwargs={"slug": club.slug, "pk": club.jobs.get(kind="points_check").pk})
    started, again = client.post(confirm), client.post(confirm)
    assert again["Location"] == started["Location"]
    return started


@pytest.fixture(scope="module")
def partien():
    return chaotentrumpf_partien(3)


@pytest.fixture
def four(club, member_user, scorekeeper):
    return {name: Member.objects.get_or_create(club=club, name=name)[0] for name in PLAYERS}


@pytest.mark.django_db(transaction=True)
def test_the_secretary_checks_then_imports_the_old_lists(secretary_client, secretary, club, season, four, partien,
                                                         run_worker):
    assert "Alte Punktelisten importieren" in secretary_client.get(
        reverse("club_seasons", kwargs={"slug": club.slug})).content.decode()
    response = secretary_client.post(url(club), {"file": upload(three_partien_workbook(partien)),
                                                 "season": season.pk})
    run_worker()
    page = job_page(secretary_client, response)
    assert "Probelauf" in page and "Jetzt importieren" in page and not Match.objects.exists()
    winner = max(totals(partien[2]).items(), key=lambda item: item[1])[0]
    assert "Partie 3" in page and "Sieger" in page and winner in page
    assert "Kopfzeile 5" in page and "Spieler B-E" in page
    started = confirmed_twice(secretary_client, club)
    run_worker()
    page = job_page(secretary_client, started)
    assert "importiert: 3 Partien" in page
    assert reverse("standings_season", kwargs={"slug": club.slug, "season_pk": season.pk}) in page
    table = {row.name: row.points for row in standings(club, season, season.ranking_rule)}
    expected: dict[str, int] = {}
    for document in partien:
        for name, total in totals(document).items():
            expected[name] = expected.get(name, 0) + total
    assert table == expected
    for match in Match.objects.all():
        assert match.changes.first().user == secretary
        assert reverse("protocol:match", kwargs={"slug": club.slug, "pk": match.pk}) in page


@pytest.mark.django_db(transaction=True)
def test_a_column_is_changed_and_the_same_file_checked_again(secretary_client, club, season, four, partien,
                                                              run_worker):
    rows = sheet_rows(partien[0], datetime.date(2026, 3, 6), extra=("Kreide", "x"))  # notes, headed like a player
    response = secretary_client.post(url(club), {"file": upload(workbook({"Partie 1": rows})), "season": season.pk})
    run_worker()
    page = job_page(secretary_client, response)
    assert "Kreide" in page and "Jetzt importieren" not in page and "Partie 1!F4" in page and "Partie 1!F5" in page
    check = club.jobs.get(kind="points_check")
    again = secretary_client.get(url(club) + f"?nach={check.pk}").content.decode()
    assert 'value="B-F"' in again  # the columns as the dry run read them
    response = secretary_client.post(url(club) + f"?nach={check.pk}",
                                     {"season": season.pk, "players": "B-E", "ignore": "F", "header_row": 4})
    run_worker()
    page = job_page(secretary_client, response)
    assert "Jetzt importieren" in page and "ignoriert F" in page
    assert club.jobs.filter(kind="points_check").count() == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("raw", [b"kein Excel", b"PK\x03\x04 kaputt", b"\xd0\xcf\x11\xe0" + b"\0" * 64])
def test_garbage_gets_a_german_message_not_a_500(secretary_client, club, season, raw, run_worker):
    response = secretary_client.post(url(club), {"file": upload(raw), "season": season.pk})
    run_worker()
    page = job_page(secretary_client, response)
    assert "Excel" in page and "Jetzt importieren" not in page
    assert club.jobs.get().state == "done" and not Match.objects.exists()


@pytest.mark.parametrize("data, said", [
    ({"players": "B-"}, "keine Spalte"), ({"date": "B1:C3"}, "weder eine Spalte"), ({}, "Spielart")])
def test_a_wrong_answer_is_said_at_its_field(secretary_client, club, data, said):
    response = secretary_client.post(url(club), {"file": upload(b"PK"), **data})
    assert response.status_code == 200 and said in response.content.decode()
    assert not club.jobs.exists()


def test_an_empty_or_huge_upload_is_refused_at_once(secretary_client, club, season):
    for data, said in ((b"", "leer"), (b"0" * (2 * 1024 * 1024 + 1), "2 MB")):
        response = secretary_client.post(url(club), {"file": upload(data), "season": season.pk})
        assert response.status_code == 200 and said in response.content.decode()
    assert not club.jobs.exists()


@pytest.mark.parametrize("persona", ["member", "scorekeeper", "outsider"])
def test_only_the_secretary_may_import(request, club, season, persona, partien):
    client = request.getfixturevalue(f"{persona}_client")
    assert client.get(url(club)).status_code == 403
    response = client.post(url(club), {"file": upload(three_partien_workbook(partien)), "season": season.pk})
    assert response.status_code == 403 and not club.jobs.exists()


def test_anonymous_visitors_are_sent_to_the_login(client, club):
    response = client.get(url(club))
    assert response.status_code == 302 and "/konto/login/" in response["Location"]

