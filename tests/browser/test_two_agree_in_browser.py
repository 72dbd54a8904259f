"""Two at the table agree, on a phone at 360 px: table 1 of a tournament that wants a second
player's acceptance has ended its Partie (North, through its card); East opens the same card on
his own phone, sees that the result waits for him, accepts it with one tap, and the table counts
in the standings. The page stays inside the screen and axe finds nothing serious."""

import pytest
from django.test import Client

from league.standings.ranking import standings
from league.tournaments import cards
from protocol.models import Confirmation
from tests.browser.test_table_cards_in_browser import phone_context, round_of_two_tables  # noqa: F401 (a fixture)
from tests.integration.tournament_day import finish

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_east_accepts_norths_result_on_his_phone(browser, live_server, round_of_two_tables, axe_violations):
    round_ = round_of_two_tables
    season = round_.season
    season.two_agree = True
    season.save()
    match = round_.matches.get(table_number=1)
    address = cards.path(cards.code_of(cards.cards_of(round_, [1])[1]))
    north = Client()
    assert north.get(address).status_code == 302
    finish(north, match)
    players = {s.name for s in match.seats.all()}
    assert not players & {row.member.name for row in standings(season.club, season)}

    context, east = phone_context(browser, live_server)
    try:
        east.goto(live_server.url + address)
        notice = east.locator("[data-awaiting-agreement]")
        assert "wartet auf Bestätigung" in notice.inner_text()
        seat = next(s for s in match.seats.all() if not s.is_scorekeeper)
        east.get_by_role("button", name=f"{seat.name} bestätigt das Ergebnis").click()
        east.locator(".signature-list__item.is-confirmed").first.wait_for()
        assert notice.count() == 0
        assert east.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert axe_violations(east) == []
    finally:
        context.close()
    assert Confirmation.objects.filter(match=match, seat=seat).exists()
    assert players <= {row.member.name for row in standings(season.club, season)}
