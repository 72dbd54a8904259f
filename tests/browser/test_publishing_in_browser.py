"""The club's own website shows the published table in an iframe; another website can't.

Chromium decides, from the headers the live server sends. The two websites and the site's
public address are https origins (the only kind a club may list), so the browser's requests
to them are answered by Playwright: the club's pages are a plain HTML page with the iframe,
and every request to ``https://trumpfbuch.example`` is passed to the live test server and its
real response (headers included) handed back to chromium.
"""

import pytest
from django.urls import reverse

from tests.standings_season import NAMES, four_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SITE = "https://trumpfbuch.example"
CLUB_WEBSITE = "https://www.ctv-nuertingen.example"
OTHER_WEBSITE = "https://fremd.example"


@pytest.fixture
def table(club):
    """The league's four of the known season (tests/conftest.py), not the browser tests' running Partie."""
    return four_of(club)


@pytest.fixture
def websites(browser, live_server, club, known_season):
    club.published = True
    club.embed_origins = CLUB_WEBSITE
    club.save()
    embed = SITE + reverse("public_embed", kwargs={"slug": club.slug, "season_pk": known_season.pk})
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="de-DE")

    def site(route):
        route.fulfill(response=route.fetch(url=route.request.url.replace(SITE, live_server.url)))

    def website(route):
        route.fulfill(status=200, content_type="text/html; charset=utf-8",
                      body=f'<!doctype html><html lang="de"><title>Unser Verein</title><h1>Tabelle</h1>'
                           f'<iframe id="tabelle" title="Tabelle" src="{embed}" width="340" height="500"></iframe>')

    context.route(f"{SITE}/**", site)
    context.route(f"{CLUB_WEBSITE}/**", website)
    context.route(f"{OTHER_WEBSITE}/**", website)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.console = []
    page.on("console", lambda message: page.console.append(message.text))
    yield page
    context.close()


def test_the_club_website_shows_the_table_in_its_iframe(websites):
    page = websites
    page.goto(CLUB_WEBSITE + "/tabelle.html")
    frame = page.frame_locator("#tabelle")
    for name in NAMES:
        assert frame.get_by_role("rowheader", name=name).is_visible()
    assert frame.locator("link[rel=stylesheet]").count() == 1  # styled by the site's own file
    assert not [text for text in page.console if "frame-ancestors" in text]


def test_another_website_gets_a_refusal_from_chromium(websites):
    page = websites
    with page.expect_console_message(lambda message: "frame-ancestors" in message.text) as refusal:
        page.goto(OTHER_WEBSITE + "/tabelle.html")
    assert "has been blocked" in refusal.value.text and CLUB_WEBSITE in refusal.value.text
    frame = page.frame_locator("#tabelle")
    assert frame.get_by_role("rowheader", name="Anna").count() == 0
