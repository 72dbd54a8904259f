"""A long Partie's sheet is printed in the background: the PDF button leads to the job's page,
which ends in the download; a short one still comes at once."""

import datetime
import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from jobs.models import Job
from league.models import Member
from protocol import matches, recording
from protocol.sheet.background import SHEET_IN_BACKGROUND_AFTER
from tests.unit.builders import quiet


def partie(club, secretary, entries):
    table = [Member.objects.get_or_create(club=club, name=n)[0] for n in ("Anna", "Bernd", "Carla", "Dieter")]
    return matches.create_match(club=club, date=datetime.date(2026, 11, 20), members=table,
                                scorekeeper=table[1], settings={"limit": 100_000}, events=[quiet()] * entries,
                                user=secretary)


def pdf_url(match):
    return reverse("protocol:pdf", kwargs={"slug": match.club.slug, "pk": match.pk})


def test_a_sheet_of_up_to_the_threshold_comes_at_once(club, secretary, member_client, member_user):
    match = partie(club, secretary, SHEET_IN_BACKGROUND_AFTER)
    response = member_client.get(pdf_url(match))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert not Job.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_long_sheet_is_printed_in_the_background_and_ends_in_the_download(club, secretary, member_client,
                                                                           member_user, run_worker):
    match = partie(club, secretary, SHEET_IN_BACKGROUND_AFTER + 1)
    response = member_client.get(pdf_url(match))
    job = Job.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("job", kwargs={"slug": club.slug, "pk": job.pk})
    page = member_client.get(response["Location"]).content.decode()
    assert "Spielprotokollblatt (PDF)" in page and 'hx-trigger="every 1s"' in page
    assert member_client.get(pdf_url(match))["Location"] == response["Location"]  # asked again: the same job

    run_worker()
    fragment = member_client.get(reverse("job_progress", kwargs={"slug": club.slug, "pk": job.pk})).content.decode()
    download = reverse("job_download", kwargs={"slug": club.slug, "pk": job.pk})
    assert download in fragment and "hx-trigger" not in fragment
    pdf = member_client.get(download)
    assert pdf["Content-Type"] == "application/pdf"
    assert f'filename="spielprotokoll-ctv-2026-11-20-partie-{match.pk}.pdf"' in pdf["Content-Disposition"]
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(b"".join(pdf.streaming_content))).pages)
    assert "Anna" in text and str(SHEET_IN_BACKGROUND_AFTER + 1) in text  # the last Spiel's number

    recording.add_event(match, "game", quiet()["game"], user=secretary)  # the Partie goes on: a new sheet
    match.refresh_from_db()
    assert member_client.get(pdf_url(match))["Location"] != response["Location"]
    assert Job.objects.count() == 2
