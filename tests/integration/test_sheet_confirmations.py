"""Signing the sheet on every game's PDF: the Doppelkopf list and the Tarot Kontrollblatt print
"in der App bestätigt <Datum Zeit>" on the line of each player who confirmed the result in the
app, as the Chaotentrumpf Spielprotokollblatt does (protocol/confirmations.py)."""

import subprocess

import pytest
from django.utils import timezone

from protocol import confirmations, recording
from protocol.models import Confirmation
from tests.integration.doppelkopf import dk_match
from tests.integration.tarot import tarot_match

pytestmark = pytest.mark.django_db

DEALS = {
    "doppelkopf": {"type": "normal", "dealer": "Anna", "re": ["Anna", "Bernd"], "re_points": 180},
    "tarot": {"dealer": "Anna", "taker": "Bernd", "contract": "garde", "oudlers": 2, "points": 49},
}


def finished(game, club, secretary):
    match = (dk_match if game == "doppelkopf" else tarot_match)(club, secretary)
    recording.add_event(match, "game", DEALS[game], user=secretary, version=match.version)
    match.refresh_from_db()
    recording.add_event(match, "end", {"reason": "time"}, user=secretary, version=match.version)
    match.refresh_from_db()
    assert match.status == "finished"
    return match


def pdf_text(client, match, tmp_path) -> str:
    response = client.get(f"/verein/{match.club.slug}/partien/{match.pk}/blatt.pdf")
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    pdf = tmp_path / "blatt.pdf"
    pdf.write_bytes(response.content)
    return subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("game", ["doppelkopf", "tarot"])
def test_the_pdf_prints_who_confirmed_the_result_and_when(game, client, club, secretary, member_user,
                                                          scorekeeper, tmp_path):
    match = finished(game, club, secretary)
    client.force_login(secretary)
    assert "in der App bestätigt" not in pdf_text(client, match, tmp_path)  # nobody has confirmed yet

    confirmations.confirm(match, match.seats.get(name="Anna"), user=member_user)
    confirmations.confirm(match, match.seats.get(name="Bernd"), user=scorekeeper)
    text = pdf_text(client, match, tmp_path)
    assert text.count("in der App bestätigt") == 2  # Anna's and Bernd's lines, not Carla's or Dieter's
    for given in Confirmation.objects.filter(match=match):
        assert timezone.localtime(given.at).strftime("%d.%m.%Y %H:%M") in text
