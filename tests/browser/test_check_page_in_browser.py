"""The check page of a printed sheet on a phone: a visitor without a login scans the QR code (or
types the code) and reads the Partie as stored now, at 320-414 px without sideways scrolling, in
German and English, with no serious accessibility violation."""

import datetime

import pytest

from league.models import Member
from protocol import confirmations, matches, recording
from protocol.sheet import check
from tests.unit.builders import quiet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG_NAMES = ["Friederike Annegret Müller-Lüdenscheidt", "Maximilian Konstantin von Hohenberg",
              "Wilhelmine Charlotte Schwarzenbacher", "Bartholomäus Engelbert Quadflieg",
              "Hildegard Roswitha Zimmermann-Ostertag", "Konstantin Wolfgang Schleiermacher",
              "Anneliese Waltraud Brockmöller", "Theodor Friedemann Wiesenthal-Krause"]


@pytest.fixture
def checked(club, secretary, scorekeeper, member_user, finished_partie):
    """A Partie of eight long names played on after its sheet was printed, and a finished one
    corrected after a player confirmed it: the check pages of both sheets."""
    members = [Member.objects.create(club=club, name=name) for name in LONG_NAMES]
    eight = matches.create_match(club=club, date=datetime.date(2026, 11, 20), place="Nürtingen", members=members,
                                 scorekeeper=members[0], settings={}, user=secretary)
    printed_eight = eight.version
    recording.add_event(eight, "penalty", {"player": LONG_NAMES[3], "points": 100, "reason": "Karten gezeigt"},
                        user=secretary)
    finished = finished_partie("chaotentrumpf")
    confirmations.confirm(finished, finished.seats.get(name="Anna"), user=member_user)
    printed_finished = finished.version
    recording.correct_event(finished, 0, quiet()["game"], user=secretary, version=finished.version,
                            reason="neu gezählt")
    return {"eight": check.path(check.make(eight.pk, printed_eight)),
            "corrected": check.path(check.make(finished.pk, printed_finished)),
            "code": check.make(finished.pk, printed_finished)}


@pytest.mark.parametrize("locale,changed,heading", [("de-DE", "nach dem Druck geändert", "Ausdruck prüfen"),
                                                    ("en-GB", "changed after printing", "Check a printed sheet")])
def test_the_check_page_reads_on_a_phone_without_swiping_and_without_violations(
        browser, live_server, checked, axe_violations, locale, changed, heading):
    found = []
    for width in (320, 360, 414):
        context = browser.new_context(viewport={"width": width, "height": 780}, locale=locale, has_touch=True,
                                      bypass_csp=True)
        page = context.new_page()
        page.set_default_timeout(15_000)
        for name in ("eight", "corrected"):
            page.goto(live_server.url + checked[name])
            assert page.get_by_role("heading", level=1).inner_text() == heading
            assert changed in page.locator(".status-panel").inner_text()
            width_now = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
            if width_now[0] > width_now[1]:
                found.append(f"{width}px {name}: scrolls sideways {width_now}")
            found += [f"{width}px {name}: {v}" for v in axe_violations(page)]
        assert page.locator(".standing-list li").count() == 4
        assert page.locator(".signature-list__earlier").count() == 1  # Anna confirmed the earlier result
        button = page.get_by_role("button", name="Prüfen" if locale == "de-DE" else "Check").bounding_box()
        assert button["height"] >= 44
        context.close()
    assert found == [], "\n".join(found)


def test_a_visitor_types_the_code_from_the_paper(browser, live_server, checked, axe_violations):
    context = browser.new_context(viewport={"width": 360, "height": 780}, locale="de-DE", has_touch=True,
                                  bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/pruefen/")
    assert axe_violations(page) == []
    head, mac = checked["code"].rsplit("-", 2)[0], checked["code"].split("-", 2)[2]
    page.get_by_role("textbox", name="Prüfcode").fill(f"{head}-{mac[:-1]}{'0' if mac[-1] != '0' else '1'}")  # mistyped
    page.get_by_role("button", name="Prüfen").click()
    assert "Diesen Prüfcode hat die Seite nicht gedruckt" in page.locator(".field").inner_text()
    assert page.get_by_role("textbox", name="Prüfcode").get_attribute("aria-invalid") == "true"
    assert axe_violations(page) == []

    page.get_by_role("textbox", name="Prüfcode").fill(checked["code"].lower().replace("-", " "))  # as read aloud
    page.get_by_role("button", name="Prüfen").click()
    page.wait_for_url(f"**{checked['corrected']}")
    assert "nach dem Druck geändert" in page.locator(".status-panel").inner_text()

    page.goto(live_server.url + "/pruefen/1-1-AAAA-AAAA/")  # made up: the 404 page with the form
    assert page.get_by_role("heading", level=1).inner_text() == "Prüfcode nicht gefunden"
    assert axe_violations(page) == []
    context.close()
