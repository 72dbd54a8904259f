"""The devices at the table follow the match by polling its state every 4 seconds:
an unchanged state costs the phone a bodiless 304, a Spiel saved elsewhere shows at once."""

import pytest

from protocol import recording
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD
from tests.unit.builders import twins

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_phone_following_the_match_is_answered_304_until_a_spiel_is_saved(phone, running_match, secretary):
    page = phone
    polls = []  # (asked with the ETag it has, bytes of body the server sent)

    def poll(response):
        if "/blatt/" in response.url:
            polls.append((bool(response.request.all_headers().get("if-none-match")),
                          response.request.sizes()["responseBodySize"]))

    page.on("response", poll)
    log_in(page, "anna", PASSWORD)
    page.goto(page.base_url + running_match.get_absolute_url())
    page.wait_for_function("() => document.querySelector('#match-state') !== null")
    for _ in range(40):  # the second poll of an unchanged state (every 4 s; later on a busy machine)
        if (True, 0) in polls:
            break
        page.wait_for_timeout(500)
    assert (True, 0) in polls, polls  # asked "still this?", answered 304 without a body
    seen = len(polls)
    recording.add_event(running_match, "game", twins()["game"], user=secretary)
    page.locator("#match-state").get_by_text("Gleichstand an der Spitze (312)").wait_for(timeout=20_000)
    assert any(size > 0 for _asked, size in polls[seen:]), polls
    assert page.problems == []
