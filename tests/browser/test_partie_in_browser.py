"""A Protokollant plays a whole Partie on a phone, in a real browser."""

import re

import pytest

from league.models import Member
from protocol.models import Match
from tests.browser.conftest import choose_trump, log_in
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fill_line(page, seat, tricks, points, trumps):
    for field, value in (("tricks", tricks), ("points", points), ("trumps", trumps)):
        page.locator(f"input[name=p{seat}_{field}]").fill(str(value))


def test_a_protokollant_keeps_a_partie_to_the_winner_on_a_phone(phone, club, scorekeeper, member_user):
    for name in ("Carla", "Dieter"):
        Member.objects.create(club=club, name=name)
    page = phone
    log_in(page, "bernd", PASSWORD)
    page.goto(page.base_url + f"/verein/{club.slug}/")
    page.get_by_role("link", name="Neue Partie").click()

    # The table, clockwise: Anna, Bernd, Carla, Dieter; Bernd keeps the protocol.
    for seat, name in enumerate(["Anna", "Bernd", "Carla", "Dieter"]):
        page.get_by_label(f"Platz {seat + 1}", exact=True).select_option(label=name)
    page.locator("select[name=scorekeeper]").select_option("Bernd")
    page.get_by_role("button", name="Partie beginnen").click()
    page.wait_for_url("**/partien/*/")
    assert "Die Partie hat begonnen" in page.content()
    assert page.locator(".status-facts").inner_text().count("Carla")  # Art. 5b: left of Bernd shuffles first

    def enter(lines, trump="rank:A", mistake=None):
        page.get_by_role("link", name=re.compile(r"^Spiel \d+ eintragen$")).click()
        choose_trump(page, trump)
        for seat, line in enumerate(lines):
            fill_line(page, seat, *line)
        if mistake:
            seat, field, wrong, right = mistake
            page.locator(f"input[name=p{seat}_{field}]").fill(str(wrong))
            page.locator(f"input[name=p{seat}_{field}]").blur()
            page.locator(f"#err-p{seat}_{field} li").wait_for()  # the live check shows the error at its field
            assert "Art. 13a" in page.locator(f"#err-p{seat}_{field}").inner_text()
            wrong_input = page.locator(f"input[name=p{seat}_{field}]")
            # A function, not an expression: Playwright eval()s an expression, which the CSP forbids.
            page.wait_for_function(f"() => document.querySelector('input[name=p{seat}_{field}]')"
                                   ".getAttribute('aria-invalid') === 'true'")  # the field is marked
            assert f"err-p{seat}_{field}" in wrong_input.get_attribute("aria-describedby")
            wrong_input.fill(str(right))
            wrong_input.blur()
            page.locator(f"#err-p{seat}_{field} li").wait_for(state="detached")
            page.wait_for_function(
                f"() => !document.querySelector('input[name=p{seat}_{field}]').hasAttribute('aria-invalid')")
        page.locator("#preview table").wait_for()  # the scores before saving
        page.get_by_role("button", name="Spiel speichern").click()
        page.wait_for_url("**/partien/*/")

    twins = [(5, 156, 6), (5, 156, 6), (0, 0, 0), (0, 0, 0)]
    enter(twins, mistake=(0, "points", 1, 156))
    assert "+312" in page.locator("table.sheet").inner_text()

    # A Strafe for Carla, decided by the others.
    page.get_by_role("link", name="Strafe, Verwarnung, Disqualifikation").click()
    page.get_by_label("Spieler", exact=True).select_option("Carla")
    page.get_by_label("Abzug in Punkten").fill("200")
    page.get_by_label("Grund").fill("Karte verdeckt getauscht")
    page.get_by_role("button", name="Eintragen").click()
    page.wait_for_url("**/partien/*/")
    assert "Karte verdeckt getauscht" in page.locator("table.sheet").inner_text()

    for _ in range(3):
        enter(twins)
    assert "Stechen" in page.locator(".status-panel").inner_text()  # both over 1000: Art. 17b
    assert page.locator("table.sheet").inner_text().count("Obergrenze 100")

    # The Stechen asks only Anna and Bernd.
    page.get_by_role("link", name=re.compile(r"^Spiel \d+ eintragen$")).click()
    assert page.locator("input[name=p2_tricks]").count() == 0
    choose_trump(page, "suit:Kreuz")
    fill_line(page, 0, 10, 110, 5)
    fill_line(page, 1, 0, 0, 0)
    page.locator("#preview table").wait_for()
    page.get_by_role("button", name="Spiel speichern").click()
    page.wait_for_url("**/partien/*/")

    assert "Anna hat die Partie gewonnen" in page.locator(".status-panel").inner_text()
    match = Match.objects.get()
    assert match.status == "finished" and match.winner.name == "Anna"
    # The league pages with their charts pass the Content-Security-Policy too.
    for path in (f"/verein/{club.slug}/", f"/verein/{club.slug}/tabelle/ewig/", f"/verein/{club.slug}/archiv/",
                 f"/verein/{club.slug}/mitglied/{match.winner.pk}/?saison=alle"):
        page.goto(page.base_url + path)
        assert page.locator("h1").count() == 1
    assert page.problems == [], sorted(set(page.problems))
