"""Anna's rating on her page and the club's rating list on a phone: the figure, its chart and
her partners read in full at 320 to 414 px, nothing scrolls sideways, and axe finds nothing
serious; so do the club's records and Anna's head-to-head with Carla, reached from her page; and
all of them in English at 320 px."""

import datetime

import pytest
from django.urls import reverse

from league.models import Member
from league.ratings import ledger
from protocol import matches
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WON = {"game": {"type": "normal", "dealer": "Bernd", "re": ["Anna", "Carla"], "re_points": 180}}
LOST = {"game": {"type": "normal", "dealer": "Carla", "re": ["Anna", "Bernd"], "re_points": 60}}


@pytest.fixture
def rated_club(club, member_user):
    table = [Member.objects.get_or_create(club=club, name=name)[0]
             for name in ("Anna", "Bernd", "Carla", "Dieter Langname-Zweitname")]
    for day in (1, 2, 3):
        matches.create_match(club=club, date=datetime.date(2026, 3, day), members=table, scorekeeper=table[0],
                             settings={"rules": "tcg"}, ruleset="doppelkopf",
                             events=[WON, LOST] * 3 + [{"end": {"reason": "time"}}])
    ledger.refresh(club, "doppelkopf")
    return table[0]


def test_the_rating_and_the_rating_list_fit_a_phone(browser, live_server, club, rated_club, axe_violations):
    anna = rated_club
    context = browser.new_context(viewport={"width": 320, "height": 780}, locale="de-DE", has_touch=True,
                                  bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base_url = live_server.url
    log_in(page, "anna", PASSWORD)
    page.wait_for_url(f"{live_server.url}/**")
    member = reverse("member_page", kwargs={"slug": club.slug, "member_pk": anna.pk})
    ratings = reverse("ratings", kwargs={"slug": club.slug})
    carla = Member.objects.get(club=club, name="Carla")
    records = reverse("records", kwargs={"slug": club.slug})
    versus = reverse("head_to_head", kwargs={"slug": club.slug, "member_pk": anna.pk, "other_pk": carla.pk})
    found = []
    for width in (320, 360, 414):
        page.set_viewport_size({"width": width, "height": 780})
        page.goto(f"{live_server.url}{member}?saison=alle&spiel=doppelkopf")
        section = page.locator("section", has=page.get_by_role("heading", name="Wertung"))
        text = section.inner_text().casefold()  # the labels are set in capitals
        assert "vorläufig" in text and "bester partner" in text and "schlechtester partner" in text
        assert section.locator("svg[role=img]").count() == 1  # the course of the rating
        page.goto(f"{live_server.url}{ratings}")
        assert page.get_by_role("table").locator("tbody tr").count() == 4
        if width != 360:  # the narrowest and the widest phone: the records and the head-to-head
            page.goto(f"{live_server.url}{member}?saison=alle&spiel=doppelkopf")
            page.get_by_label("Anna gegen").select_option(label="Carla")
            page.get_by_role("button", name="Vergleichen").click()
            page.wait_for_url(f"{live_server.url}{versus}")
            text = page.locator("main").inner_text()
            assert "9 von 9 Spielen gemeinsam gewonnen" in text  # Re together three times an evening
            assert "von 9 Spielen gegeneinander gewann Anna 0, Carla 9" in text  # Carla's Kontra beat Anna's Re
            page.goto(f"{live_server.url}{records}")
            assert "höchstes spiel" in page.locator("main").inner_text().casefold()  # the labels are set in capitals
        for address in (member, ratings) + ((records, versus) if width != 360 else ()):
            page.goto(f"{live_server.url}{address}" + ("?saison=alle&spiel=doppelkopf" if address == member else ""))
            scroll, inner = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
            if scroll > inner:
                found.append(f"{width}px {address} scrolls sideways: {scroll} > {inner}")
            found += [f"{width}px {address} {v}" for v in axe_violations(page)]
    # In English (the language switch's cookie), at the narrowest phone: the longer words fit too.
    page.set_viewport_size({"width": 320, "height": 780})
    context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    for address in (member, ratings, records, versus):
        page.goto(f"{live_server.url}{address}" + ("?saison=alle&spiel=doppelkopf" if address == member else ""))
        scroll, inner = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        if scroll > inner:
            found.append(f"en 320px {address} scrolls sideways: {scroll} > {inner}")
        found += [f"en 320px {address} {v}" for v in axe_violations(page)]
    page.goto(f"{live_server.url}{member}?saison=alle&spiel=doppelkopf")
    assert "best partner" in page.locator("main").inner_text().casefold()
    context.close()
    assert found == []
