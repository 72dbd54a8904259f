"""The operators' backup page: staff start a backup in the background, follow it and download
the file, which ``manage.py restore`` takes into an empty database; nobody else gets near it."""

import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from jobs.models import Job
from league.models import Club
from protocol.documents.background import KIND
from protocol.documents.backup_files import write_backup
from protocol.models import Match
from protocol.records.demo import load_demo


@pytest.fixture(autouse=True)
def _backup_dir(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "backups"


@pytest.fixture
def staff_client(make_user, client):
    client.force_login(make_user("stefan", is_staff=True))
    return client


@pytest.mark.django_db(transaction=True)
def test_staff_back_up_now_follow_the_job_and_the_download_restores_into_an_empty_database(
        staff_client, settings, run_worker, tmp_path):
    load_demo(seed=3)
    matches, clubs = Match.objects.count(), Club.objects.count()
    response = staff_client.post(reverse("backups"))
    job = Job.objects.get(kind=KIND)
    assert job.club is None and response["Location"] == reverse("site_job", args=[job.pk])
    page = staff_client.get(response["Location"]).content.decode()
    assert 'hx-trigger="every 1s"' in page  # the page follows the job and survives a reload

    run_worker()
    fragment = staff_client.get(reverse("site_job_progress", args=[job.pk])).content.decode()
    (name,) = [p.name for p in settings.BACKUP_DIR.iterdir()]
    download = reverse("backup_download", args=[name])
    assert "hx-trigger" not in fragment and download in fragment  # polling ends in the download
    assert name in staff_client.get(reverse("backups")).content.decode()  # and the list shows it

    response = staff_client.get(download)
    assert response.status_code == 200 and response["Content-Disposition"].startswith("attachment")
    saved = tmp_path / "heruntergeladen.json"
    saved.write_bytes(b"".join(response.streaming_content))
    assert json.loads(saved.read_text())["format"] == "trumpfbuch-backup/1"
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(saved), verbosity=0)
    assert (Match.objects.count(), Club.objects.count()) == (matches, clubs)


def test_the_list_shows_each_backup_with_size_and_serves_only_listed_names(staff_client, settings):
    written, _data = write_backup(settings.BACKUP_DIR)
    (settings.BACKUP_DIR / "notiz.json").write_text("{}")  # not a backup: never listed nor served
    page = staff_client.get(reverse("backups")).content.decode()
    assert written.name in page and "notiz.json" not in page and "Jetzt sichern" in page
    assert staff_client.get(reverse("backup_download", args=[written.name])).status_code == 200
    for name in ("notiz.json", "..%2Fdb.sqlite3", "trumpfbuch-2020-01-01T000000.json"):
        assert staff_client.get(f"/betrieb/sicherung/datei/{name}").status_code == 404, name


@pytest.mark.django_db(transaction=True)
def test_a_secretary_and_a_member_get_403_and_a_visitor_the_login(secretary_client, member_client, client,
                                                                  settings, run_worker, make_user):
    written, _data = write_backup(settings.BACKUP_DIR)
    job = Job.objects.create(kind=KIND, club=None, state=Job.State.DONE)
    addresses = [reverse("backups"), reverse("backup_download", args=[written.name]),
                 reverse("site_job", args=[job.pk]), reverse("site_job_progress", args=[job.pk])]
    for url in addresses:
        assert secretary_client.get(url).status_code == 403, url
        assert member_client.get(url).status_code == 403, url
    assert secretary_client.post(reverse("backups")).status_code == 403
    assert not Job.objects.exclude(pk=job.pk).exists()  # nothing was started
    anonymous = client.__class__()
    for url in addresses:
        assert anonymous.get(url)["Location"].startswith(reverse("login")), url


def test_a_clubs_job_is_not_found_among_the_sites_jobs(staff_client, club):
    job = Job.objects.create(kind="season_export", club=club)
    assert staff_client.get(reverse("site_job", args=[job.pk])).status_code == 404


def test_manage_py_backup_shows_its_progress_on_a_terminal(db, tmp_path):
    load_demo(seed=3)
    matches = Match.objects.count()
    err, out = io.StringIO(), io.StringIO()
    call_command("backup", str(tmp_path), "--progress", stderr=err, stdout=out)
    assert f"{matches}/{matches}" in err.getvalue() and "Partien werden geschrieben" in err.getvalue()
    assert f"{matches} Partien" in out.getvalue()
    quiet = io.StringIO()
    call_command("backup", str(tmp_path / "zweite.json"), "--no-progress", stderr=quiet, stdout=io.StringIO())
    assert quiet.getvalue() == ""
