"""The new-Partie form offers the seasons of the game chosen, in a real browser."""

import datetime

import pytest

from league.models import Member, Season
from protocol.models import Match
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_choosing_doppelkopf_offers_only_its_seasons(phone, club, scorekeeper, member_user):
    for name in ("Carla", "Dieter"):
        Member.objects.create(club=club, name=name)
    today = datetime.date.today()
    year = {"start": today - datetime.timedelta(days=30), "end": today + datetime.timedelta(days=30)}
    liga = Season.objects.create(club=club, name="Liga", **year)
    doko = Season.objects.create(club=club, name="Doko-Abende", ruleset="doppelkopf", **year)
    Season.objects.create(club=club, name="Turnier", ruleset="doppelkopf", mode="tournament", **year)
    page = phone
    log_in(page, "bernd", PASSWORD)
    page.goto(page.base_url + f"/verein/{club.slug}/partien/neu/")
    season = page.locator("select[name=season]")
    assert season.input_value() == str(liga.pk)  # the current season of Chaotentrumpf
    assert page.locator("select[name=season] option", has_text="Turnier").count() == 0

    page.locator("input[name=ruleset][value=doppelkopf]").check()
    assert season.input_value() == ""  # the Chaotentrumpf season is neither shown nor chosen
    assert page.locator(f"select[name=season] option[value='{liga.pk}']").get_attribute("hidden") is not None
    assert page.locator(f"select[name=season] option[value='{doko.pk}']").get_attribute("hidden") is None
    season.select_option(str(doko.pk))
    for seat, name in enumerate(["Anna", "Bernd", "Carla", "Dieter"]):
        page.get_by_label(f"Platz {seat + 1}", exact=True).select_option(label=name)
    page.locator("select[name=scorekeeper]").select_option("Bernd")
    page.get_by_role("button", name="Partie beginnen").click()
    page.wait_for_url("**/partien/*/")
    assert Match.objects.get().season == doko
