"""A Protokollant keeps a Doppelkopf match on a phone, in a real browser."""

import re

import pytest
from playwright.sync_api import expect

from league.models import Member
from protocol.models import Match
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_protokollant_keeps_a_doppelkopf_match_on_a_phone(phone, club, scorekeeper, member_user):
    for name in ("Carla", "Dieter"):
        Member.objects.create(club=club, name=name)
    page = phone
    log_in(page, "bernd", PASSWORD)
    page.goto(page.base_url + f"/verein/{club.slug}/")
    page.get_by_role("link", name="Neue Partie").click()

    # Doppelkopf: its rules show, the settings of Chaotentrumpf do not.
    page.locator("input[name=ruleset][value=doppelkopf]").check()
    # The page's script may still be loading after the click: wait for what it shows.
    expect(page.locator("input[name=rules][value=tcg]")).to_be_visible()
    expect(page.locator("input[name=limit]")).to_be_hidden()
    for seat, name in enumerate(["Anna", "Bernd", "Carla", "Dieter"]):
        page.get_by_label(f"Platz {seat + 1}", exact=True).select_option(label=name)
    page.locator("select[name=scorekeeper]").select_option("Bernd")
    page.get_by_role("button", name="Partie beginnen").click()
    page.wait_for_url("**/partien/*/")
    assert Match.objects.get().ruleset == "doppelkopf"

    def enter(dealer, re_party, re_points, game_type="normal", re_announcement=None, mistake=None):
        page.get_by_role("link", name=re.compile(r"^Spiel \d+ eintragen$")).click()
        page.locator("select[name=type]").select_option(game_type)
        page.locator("select[name=dealer]").select_option(dealer)
        for name in re_party:
            page.locator(f"input[name=re][value={name}]").check()
        if mistake is not None:  # the live check names the rule at the field
            page.locator("input[name=re_points]").fill(str(mistake))
            page.locator("input[name=re_points]").blur()
            page.locator("#err-re_points li").wait_for()
            assert "TCG-Regeln" in page.locator("#err-re_points").inner_text()
        page.locator("input[name=re_points]").fill(str(re_points))
        if re_announcement:
            page.locator("select[name=re_announcement]").select_option(re_announcement)
        page.locator("input[name=re_points]").blur()
        page.locator("#err-re_points li").wait_for(state="detached")
        page.locator("#preview table").wait_for()  # the scores before saving
        assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing wider than the phone
        page.get_by_role("button", name="Spiel speichern").click()
        page.wait_for_url("**/partien/*/")

    # TCG seed: Re announced keine 60 and made only 180 against Kontra's 60: 10 for Kontra.
    enter("Anna", ["Anna", "Bernd"], 180, re_announcement="3", mistake=5)
    sheet = page.locator("table.sheet").inner_text()
    assert "+10" in sheet and "−10" in sheet
    # Carla's Damensolo, won with 121: 1 + the solo point, three times for her.
    enter("Bernd", ["Carla"], 121, game_type="solo_damen")
    totals = page.locator("table.sheet tfoot").inner_text()
    assert [int(n.replace("−", "-")) for n in re.findall(r"[−-]?\d+", totals)] == [-12, -12, 16, 8]
    assert "Carla" in page.locator(".standing-list .is-leader").inner_text()
