"""A club's own site from nothing, on a phone: the first visitor sets up the club and becomes
its secretary, adds a member and shows her the invitation (link and QR code); the member sets
her password on her own phone and logs in with it from then on. Every page on the way fits
320 px without sideways scrolling and breaks no rule of the Content-Security-Policy."""

from pathlib import Path

import pytest

from tests.browser.conftest import PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (320, 414)
ARTEFACTS = Path(__file__).resolve().parents[2] / "artefacts" / "accounts"  # git-ignored


def sideways(page, name):
    """The widths at which the page scrolls sideways (it must not at any); a screenshot at 320 px."""
    wide = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 780})
        if width == 320:
            ARTEFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTEFACTS / f"{name}-320.png"), full_page=True)
        scroll, inner = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        if scroll > inner:
            wide.append(f"{width}px {page.url}: {scroll} > {inner}")
    page.set_viewport_size(PHONE)
    return wide


def test_from_a_fresh_site_to_a_member_who_logs_in(phone, browser, live_server):
    page, wide = phone, []
    page.goto(page.base_url + "/")
    page.wait_for_url("**/einrichten/")
    wide += sideways(page, "first-run")
    page.get_by_label("Name des Vereins").fill("Skatfreunde Kirchheim")
    page.get_by_label("Ort (freiwillig)").fill("Kirchheim unter Teck")
    page.get_by_label("Ihr Name").fill("Sabine")
    page.get_by_label("Benutzername").fill("sabine")
    page.get_by_label("Passwort", exact=True).fill("Herz-Dame-sticht")
    page.get_by_label("Passwort (noch einmal)").fill("Herz-Dame-sticht")
    page.get_by_role("button", name="Verein und Konto anlegen").click()
    page.wait_for_url("**/verein/skatfreunde-kirchheim/mitglieder/")
    assert "sein Schriftführer" in page.locator(".messages").inner_text()

    page.get_by_role("link", name="Mitglied hinzufügen").click()
    page.get_by_label("Name", exact=True).fill("Carla Groß")
    page.get_by_role("button", name="Mitglied hinzufügen").click()
    page.wait_for_url("**/mitglieder/")
    page.get_by_role("link", name="Einladung für Carla Groß").click()
    page.wait_for_url("**/einladung/")
    qr = page.get_by_role("img", name="QR-Code des Einladungslinks für Carla Groß")
    box = qr.bounding_box()
    assert box["width"] >= 150 and box["width"] == pytest.approx(box["height"], abs=1)  # big enough to scan
    wide += sideways(page, "invitation")
    link = page.locator("#invitation-link").get_attribute("href")
    assert link.startswith(live_server.url + "/konto/einladung/")

    # Carla, on her own phone
    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    carla = context.new_page()
    carla.set_default_timeout(10_000)
    carla_problems = []
    carla.on("console", lambda msg: carla_problems.append(msg.text) if msg.type == "error" else None)
    carla.goto(link)
    assert "Willkommen, Carla Groß" in carla.locator("h1").inner_text()
    wide += sideways(carla, "accept-invitation")
    assert carla.get_by_label("Benutzername").input_value() == "carla-gross"
    carla.get_by_label("Benutzername").fill("carla")
    carla.get_by_label("Passwort", exact=True).fill("Pik-Bube-sticht")
    carla.get_by_label("Passwort (noch einmal)").fill("Pik-Bube-sticht")
    carla.get_by_role("button", name="Passwort speichern und anmelden").click()
    carla.wait_for_url("**/verein/skatfreunde-kirchheim/")
    assert "Angemeldet als Carla Groß" in carla.locator(".site-footer").inner_text()
    carla.get_by_role("link", name="Profil").click()
    carla.get_by_role("link", name="Passwort ändern").click()
    wide += sideways(carla, "password-change")
    carla.get_by_role("button", name="Abmelden").click()
    carla.goto(live_server.url + "/konto/login/")
    carla.get_by_role("link", name="Passwort vergessen?").click()
    wide += sideways(carla, "password-reset")

    carla.base_url = live_server.url
    log_in(carla, "carla", "Pik-Bube-sticht")
    carla.wait_for_url(live_server.url + "/")
    assert "Skatfreunde Kirchheim" in carla.locator("main").inner_text()
    carla.goto(link)  # the link worked once
    assert "Dieser Link funktioniert nicht mehr" in carla.locator("h1").inner_text()
    context.close()

    assert wide == []
    assert page.problems == [] and carla_problems == []
