"""Anna's page on a phone when some of her Spiele were recorded as points only: the trump rate
and the Spiele it leaves out read in full at 320 to 414 px, nothing scrolls sideways, and axe
finds nothing serious."""

import datetime

import pytest
from django.urls import reverse

from league.models import Member, Season
from protocol import matches
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD
from tests.unit.builders import document, quiet, sweep, twins
from tests.unit.points_only_documents import as_points

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SPIELE = [quiet(), twins(), quiet(), sweep()]


@pytest.fixture
def annas_season(club, member_user):
    season = Season.objects.create(club=club, name="2026", start=datetime.date(2026, 1, 1),
                                   end=datetime.date(2026, 12, 31))
    table = [Member.objects.get_or_create(club=club, name=name)[0] for name in ("Anna", "Bernd", "Carla", "Dieter")]
    for day, events in enumerate([SPIELE, as_points(document(SPIELE), every=2)["events"]], 1):
        matches.create_match(club=club, season=season, date=datetime.date(2026, 3, day), members=table,
                             scorekeeper=table[0], settings={}, events=events)
    return season, table[0]


def test_the_trump_rate_and_the_spiele_it_leaves_out_fit_a_phone(browser, live_server, club, annas_season,
                                                                 axe_violations):
    season, anna = annas_season
    context = browser.new_context(viewport={"width": 320, "height": 780}, locale="de-DE", has_touch=True,
                                  bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base_url = live_server.url
    log_in(page, "anna", PASSWORD)
    page.wait_for_url(f"{live_server.url}/**")
    address = reverse("member_page", kwargs={"slug": club.slug, "member_pk": anna.pk})
    found = []
    for width in (320, 360, 414):
        page.set_viewport_size({"width": width, "height": 780})
        page.goto(f"{live_server.url}{address}?saison={season.pk}")
        stat = page.locator(".stat", has_text="Trumpfwertung")
        note = stat.locator(".stat__sub")
        assert note.inner_text() == "in 100\u00a0% der eigenen Spiele, ohne 2 Spiele, die nur als Punkte erfasst sind"
        box, card = note.bounding_box(), stat.bounding_box()
        assert box["x"] + box["width"] <= card["x"] + card["width"] + 0.5  # wrapped inside its card, not cut
        scroll, inner = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        if scroll > inner:
            found.append(f"{width}px scrolls sideways: {scroll} > {inner}")
        found += [f"{width}px {v}" for v in axe_violations(page)]
    context.close()
    assert found == []
