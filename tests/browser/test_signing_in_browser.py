"""Signing the sheet: at the end of a Partie each player confirms the result, like his signature on paper.

Members confirm on their own login, a guest on the Protokollant's phone; the match page, the
history and the PDF show who confirmed and when. After a confirmation only the secretary
corrects, and the confirmations given before stand for the earlier result.
"""

import re
import subprocess

import pytest
from django.utils import timezone

from protocol import confirmations
from protocol.models import Confirmation
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def signature_of(page, name):
    return page.locator(".signature-list__item", has=page.locator(".signature-list__name", has_text=name))


def test_players_confirm_the_result_on_their_own_login_and_guests_on_the_protokollants_phone(
        browser, live_server, finished_match):
    devices = {}
    for username in ("bernd", "anna"):
        context = browser.new_context(viewport={"width": 360, "height": 780}, locale="de-DE", has_touch=True)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.base_url = live_server.url
        log_in(page, username, PASSWORD)
        page.goto(live_server.url + finished_match.get_absolute_url())
        devices[username] = (context, page)
    keeper, anna = devices["bernd"][1], devices["anna"][1]

    # Anna sees the final sheet and confirms on her own phone; she can confirm nobody else.
    assert "Anna hat die Partie gewonnen" in anna.locator(".status-panel").inner_text()
    assert anna.locator("#signatures button").count() == 1
    anna.get_by_role("button", name="Ich bestätige das Ergebnis").click()
    anna.wait_for_url(re.compile(r".*/partien/\d+/(#signatures)?$"))
    assert re.search(r"✓ bestätigt \d\d\.\d\d\.\d{4}", signature_of(anna, "Anna").inner_text())
    assert anna.locator("#signatures button").count() == 0

    # Bernd confirms for himself, and for Carla and the guest Gisela after they saw his screen.
    keeper.reload()
    assert "bestätigt" in signature_of(keeper, "Anna").inner_text()
    keeper.get_by_role("button", name="Ich bestätige das Ergebnis").click()
    keeper.get_by_role("button", name="Gisela bestätigt das Ergebnis").click()
    assert "auf dem Telefon des Protokollanten" in signature_of(keeper, "Gisela").inner_text()
    assert "auf dem Telefon" not in signature_of(keeper, "Anna").inner_text()
    anna.reload()  # on the other phones Carla's line waits for her
    assert "noch nicht bestätigt" in signature_of(anna, "Carla").inner_text()
    keeper.get_by_role("button", name="Carla bestätigt das Ergebnis").click()
    assert keeper.locator("#signatures .is-confirmed").count() == 4
    assert Confirmation.objects.filter(match=finished_match).count() == 4

    # The history says who confirmed, and where.
    keeper.get_by_role("link", name="Verlauf der Änderungen").click()
    history = keeper.locator(".history").inner_text()
    assert "Anna hat das Ergebnis bestätigt" in history
    assert "Gisela hat das Ergebnis bestätigt (auf dem Gerät des Protokollanten)" in history

    # The Protokollant no longer corrects a confirmed result: no button, and the address is closed.
    keeper.goto(live_server.url + finished_match.get_absolute_url())
    assert keeper.get_by_role("link", name="Korrigieren").count() == 0
    response = keeper.goto(live_server.url + f"/verein/{finished_match.club.slug}/partien/{finished_match.pk}/eintrag/0/korrigieren/")
    assert response.status == 403
    for context, _ in devices.values():
        context.close()


def test_a_correction_after_a_confirmation_is_the_secretarys_and_is_shown_as_such(phone, finished_match):
    anna_seat = finished_match.seats.get(name="Anna")
    confirmations.confirm(finished_match, anna_seat, user=anna_seat.member.user)

    page = phone
    log_in(page, "schriftfuehrer", PASSWORD)
    page.goto(page.base_url + finished_match.get_absolute_url())
    page.locator("#spiel-1 summary").click()
    page.locator("#spiel-1").get_by_role("link", name="Korrigieren").click()
    for field, value in (("p0_tricks", 9), ("p0_points", 300), ("p1_tricks", 1), ("p1_points", 12)):
        page.locator(f"input[name={field}]").fill(str(value))
    page.get_by_label("Grund", exact=True).fill("Augen falsch gezählt")
    page.get_by_role("button", name=re.compile("speichern|Korrektur")).click()
    page.wait_for_url(re.compile(r".*/partien/\d+/$"))

    anna = page.locator(".signature-list__item", has=page.locator(".signature-list__name", has_text="Anna"))
    assert "bestätigte das frühere Ergebnis" in anna.inner_text()
    assert "noch nicht bestätigt" in anna.inner_text()  # the new result awaits her confirmation
    correction = page.locator(".signature-list__correction").inner_text()
    assert "nach einer Bestätigung korrigiert" in correction and "Augen falsch gezählt" in correction
    page.get_by_role("link", name="Verlauf der Änderungen").click()
    assert "Korrektur durch den Schriftführer" in page.locator(".history").inner_text()


def test_the_pdf_sheet_prints_who_confirmed_and_when(client, finished_match, member_user, tmp_path):
    confirmations.confirm(finished_match, finished_match.seats.get(name="Anna"), user=member_user)
    client.force_login(member_user)
    response = client.get(f"/verein/{finished_match.club.slug}/partien/{finished_match.pk}/blatt.pdf")
    assert response.status_code == 200
    pdf = tmp_path / "blatt.pdf"
    pdf.write_bytes(response.content)
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    given = Confirmation.objects.get()
    assert "in der App bestätigt" in text  # on Anna's signature line, with the moment she confirmed
    assert timezone.localtime(given.at).strftime("%d.%m.%Y %H:%M") in text
    assert text.count("in der App bestätigt") == 1  # only Anna confirmed
