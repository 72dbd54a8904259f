"""The live board on the hall's projector and on a phone at home: readable from 5 m, it follows
the tables without reloads and keeps the last board, with its time, when the network drops."""

import pytest
from django.urls import reverse

from tests.integration.tournament_day import eight_at_two_tables, finish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The text nodes a reader sees, with their computed font size, smaller than the projector's 32 px.
SMALL_TEXT = """() => {
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, element = node.parentElement;
    if (!node.textContent.trim() || !element.getClientRects().length) { continue; }
    const size = parseFloat(getComputedStyle(element).fontSize);
    if (size < 32) { small.push(`${node.textContent.trim()} (${size}px)`); }
  }
  return small;
}"""


# The round clock's minutes and seconds are no longer ``shown``.
COUNTS_DOWN = """(shown) => {
  const left = document.querySelector("[data-round-clock] [data-left]");
  return left && left.textContent !== shown;
}"""


@pytest.fixture
def projector(browser, live_server):
    context = browser.new_context(locale="de-DE", viewport={"width": 1920, "height": 1080}, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    problems = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.problems = problems
    page.base_url = live_server.url
    yield page
    context.close()


def test_the_board_follows_the_tables_keeps_its_last_state_offline_and_fits_a_phone(
        projector, club, member_user, secretary_client, axe_violations):
    club.published = True
    club.save(update_fields=["published"])
    tournament = eight_at_two_tables(secretary_client, club)
    season = tournament["season"]  # 30 minutes a round, the clock started: the board counts down
    assert secretary_client.post(reverse("tournament_settings", kwargs={"slug": club.slug, "season_pk": season.pk}), {
        "mode": "tournament", "ruleset": "doppelkopf", "rules": "tcg", "ranking_rule": "tcg",
        "round_minutes": "30"}).status_code == 302
    secretary_client.post(reverse("round_clock_start", kwargs={"slug": club.slug, "round_pk": tournament["round"].pk}))
    page = projector
    polls = []  # the statuses of the board's polls
    page.on("response", lambda r: polls.append(r.status) if "/live/stand/" in r.url else None)
    page.goto(page.base_url + reverse("public_live", kwargs={"slug": club.slug, "season_pk": tournament["season"].pk}))
    page.locator('[data-table="2"] [data-state="running"]').wait_for()
    page.evaluate("() => { window.notReloaded = true; }")
    page.wait_for_timeout(4_500)  # one poll of an unchanged board
    assert polls and set(polls) == {304}, polls  # asked with the ETag the page came with: nothing sent

    finish(secretary_client, tournament["matches"][1])
    page.locator('[data-table="1"] [data-state="finished"]').wait_for(timeout=10_000)
    page.get_by_text("Runde 1, Tisch 1").wait_for()
    assert page.evaluate("() => window.notReloaded") is True  # followed, not reloaded
    timer = page.locator("[data-round-clock] [data-left]")
    assert timer.inner_text().startswith(("29:", "30:"))
    page.wait_for_function(COUNTS_DOWN, arg=timer.inner_text())  # the new board's clock counts on
    assert page.locator(".live__standings tbody tr").count() == 4  # the table's four in the standings
    assert page.evaluate(SMALL_TEXT) == []  # readable from 5 m
    assert axe_violations(page) == []

    page.context.set_offline(True)
    notice = page.locator("[data-live-notice]")
    notice.wait_for(state="visible", timeout=10_000)
    assert "Verbindung unterbrochen" in notice.inner_text() and notice.inner_text().startswith("Stand: ")
    assert page.locator('[data-table="1"] [data-state="finished"]').is_visible()  # the last board stays
    page.wait_for_function(COUNTS_DOWN, arg=timer.inner_text())  # and its clock goes on without the network
    page.context.set_offline(False)
    notice.wait_for(state="hidden", timeout=10_000)

    page.set_viewport_size({"width": 360, "height": 740})  # a phone at home
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    assert axe_violations(page) == []
    assert page.problems == []
