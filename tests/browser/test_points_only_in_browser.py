"""The switch "Nur Punkte" on a phone in chromium: Bernd, who keeps the protocol, records a Spiel
of eight players with long names as the points per player (online), the page fits 320 to 414 px
and axe finds nothing serious; offline the same switch works through the engine in the browser,
the entry is queued and handed over like any other."""

import pytest

from protocol.models import Event
from tests.browser.conftest import choose_trump, log_in
from tests.browser.long_evening import EIGHT
from tests.browser.offline import SLOW, go_offline, open_ready, save_offline, url, wait_waiting
from tests.conftest import PASSWORD
from tests.integration.pages import url as page_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TWINS = [312, 312] + [-200] * 6  # the first two share the Trumpfwertung on rank As, the others take no Stich
SWITCH = "Nur Punkte"


def sideways(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")


def test_bernd_records_a_spiel_of_eight_as_points_only_on_a_phone(browser, live_server, evening, axe_violations):
    match = evening["chaotentrumpf"]
    context = browser.new_context(viewport={"width": 360, "height": 780}, locale="de-DE", has_touch=True,
                                  bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base_url = live_server.url
    problems = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    try:
        log_in(page, "bernd", PASSWORD)
        page.goto(live_server.url + page_url(match, "game_new"))
        switch = page.get_by_role("switch", name=SWITCH)
        assert not switch.is_checked()
        assert page.locator(".lines").is_visible() and not page.locator(".points-entry").is_visible()
        switch.check()
        assert page.locator(".points-entry").is_visible() and not page.locator(".lines").is_visible()
        assert page.locator(".trump-box").is_visible()  # the trump may be noted beside the points
        assert page.evaluate("() => document.activeElement.name") == "p0_score"  # the first player's points next

        # Anna-Katharina's points no Spiel can give: the engine's message at her input, with its article.
        for seat, points in enumerate(TWINS):
            page.locator(f"input[name=p{seat}_score]").fill(str(7777 if seat == 2 else points))
        page.locator("input[name=p7_score]").blur()
        page.locator("#err-p2_score li").wait_for()
        assert "(Art. 13a, 16a, 16b)" in page.locator("#err-p2_score").inner_text()
        page.wait_for_function("() => document.querySelector('input[name=p2_score]').getAttribute('aria-invalid') === 'true'")
        found = [f"360 px, refused: {v}" for v in axe_violations(page)]

        page.locator("input[name=p2_score]").fill("-200")
        choose_trump(page, "rank:A")
        page.locator("#err-p2_score li").wait_for(state="detached")
        page.locator("#preview table").wait_for()
        assert "+312" in page.locator("#preview").inner_text() and "nur Punkte" in page.locator("#preview").inner_text()
        for width in (320, 360, 414):
            page.set_viewport_size({"width": width, "height": 780})
            assert sideways(page) <= 0, width
            box = page.locator("input[name=p0_score]").bounding_box()
            assert box["height"] >= 44 and box["x"] + box["width"] <= width, width  # a big target, on the screen
        page.set_viewport_size({"width": 360, "height": 780})
        page.screenshot(path="/tmp/points-only-chaotentrumpf-360.png", full_page=True)
        found += [f"360 px, scored: {v}" for v in axe_violations(page)]
        assert found == [], "\n".join(found)

        page.get_by_role("button", name="Spiel speichern").click()
        # answered with the match page (without a script it stays at the form's address)
        page.get_by_text("Das Spiel ist gespeichert.").wait_for()
        assert page.locator("link[rel=canonical]").get_attribute("href") == match.get_absolute_url()
        last = Event.objects.filter(match=match, kind="game").order_by("-position").first()
        assert last.data == {"scores": dict(zip(EIGHT, TWINS, strict=True)), "trump": {"level": "rank", "value": "A"}}

        # The next Spiel opens in points mode; switched back, the lines are there again.
        page.goto(live_server.url + page_url(match, "game_new"))
        assert page.get_by_role("switch", name=SWITCH).is_checked()
        page.get_by_role("switch", name=SWITCH).uncheck()
        assert page.locator(".lines").is_visible() and not page.locator(".points-entry").is_visible()
        assert problems == []
    finally:
        context.close()


@pytest.mark.parametrize("game", ["doppelkopf", "tarot"])
def test_the_points_of_five_long_names_fit_every_phone(browser, live_server, evening, axe_violations, game):
    match = evening[game]
    context = browser.new_context(viewport={"width": 320, "height": 780}, locale="de-DE", has_touch=True,
                                  bypass_csp=True)
    page = context.new_page()
    page.base_url = live_server.url
    try:
        log_in(page, "bernd", PASSWORD)
        page.goto(live_server.url + page_url(match, "game_new"))
        page.get_by_role("switch", name=SWITCH).check()
        assert page.locator("select[name=dealer]").is_visible()  # the dealer may be noted
        assert not page.locator("input[name=re_points], input[name=points]").first.is_visible()
        found = []
        for width in (320, 414):
            page.set_viewport_size({"width": width, "height": 780})
            assert sideways(page) <= 0, width
            found += [f"{width} px: {v}" for v in axe_violations(page)]
        page.set_viewport_size({"width": 360, "height": 780})
        page.screenshot(path=f"/tmp/points-only-{game}-360.png", full_page=True)
        assert found == [], "\n".join(found)
    finally:
        context.close()


def test_offline_the_switch_records_points_only_through_the_engine_in_the_browser(phone, table, secretary):
    from protocol import recording
    from tests.unit.builders import twins

    for _ in range(3):  # Anna and Bernd 936 each: a Spiel more of 312 each starts the Stechen (Art. 17b)
        table.refresh_from_db()
        recording.add_event(table, "game", twins()["game"], user=secretary, version=table.version)
    page = phone
    log_in(page, "bernd", PASSWORD)
    open_ready(page, url(page, table, "spiel/"))
    go_offline(page)

    page.get_by_role("switch", name=SWITCH).check()
    for seat, points in enumerate([7777, 31, 21, 21]):
        page.locator(f"input[name=p{seat}_score]").fill(str(points))
    choose_trump(page, "colour:rot")
    page.get_by_role("button", name="Spiel speichern").click()
    page.locator("#err-p0_score li").wait_for(timeout=SLOW)  # the engine's message offline, at Anna's points
    assert "(Art. 13a, 16a, 16b)" in page.locator("#err-p0_score").inner_text()
    assert page.locator("input[name=p0_score]").get_attribute("aria-invalid") == "true"

    page.locator("input[name=p0_score]").fill("31")
    page.locator("#preview table").wait_for(timeout=SLOW)  # the live preview, from the engine offline
    assert "+31" in page.locator("#preview").inner_text()
    save_offline(page, 1)
    assert page.locator("h1").inner_text() == "Spiel 5"
    assert page.get_by_role("switch", name=SWITCH).is_checked()  # the next Spiel in the mode of the last
    assert page.locator("input[name=p0_score]").input_value() == ""
    assert page.evaluate("() => document.activeElement.name") == "p0_score"  # the next Spiel's first points
    assert Event.objects.filter(match=table).count() == 3

    # Both over 1000 in one Spiel: the Stechen's players alone keep their points inputs.
    for seat, points in enumerate([312, 312, -200, -200]):
        page.locator(f"input[name=p{seat}_score]").fill(str(points))
    save_offline(page, 2)
    assert "Stechen: Anna, Bernd" in page.locator("[data-offline-state]").inner_text()
    assert page.locator(".points-row[data-player=Carla]").is_hidden()
    assert page.locator(".points-row[data-player=Anna]").is_visible()

    page.context.set_offline(False)
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    wait_waiting(page, 0)
    stored = [e.data for e in Event.objects.filter(match=table, kind="game").order_by("position")][3:]
    assert stored == [{"scores": {"Anna": 31, "Bernd": 31, "Carla": 21, "Dieter": 21},
                       "trump": {"level": "colour", "value": "rot"}},
                      {"scores": {"Anna": 312, "Bernd": 312, "Carla": -200, "Dieter": -200}}]
    table.refresh_from_db()
    assert table.status == "tiebreak"


def test_without_javascript_the_switch_shows_the_points_and_the_spiel_is_saved(browser, live_server, evening):
    """A phone that runs no script: the switch is a box the form sends; the page shows the
    inputs of the mode it is in (site.css), the server reads the mode from the box."""
    from tests.browser.long_evening import FIVE

    match = evening["doppelkopf"]
    context = browser.new_context(viewport={"width": 360, "height": 780}, locale="de-DE", java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base_url = live_server.url
    try:
        log_in(page, "bernd", PASSWORD)
        page.goto(live_server.url + page_url(match, "game_new"))
        assert not page.locator(".points-entry").is_visible()
        page.get_by_role("switch", name=SWITCH).check()
        assert page.locator(".points-entry").is_visible() and not page.locator("input[name=re_points]").is_visible()
        dealer = page.locator("select[name=dealer]").input_value()  # sits out at five and scores 0 (TCG 8)
        scores = dict(zip([p for p in FIVE if p != dealer], [3, 3, -3, -3], strict=True)) | {dealer: 0}
        for seat, player in enumerate(FIVE):
            page.locator(f"input[name=p{seat}_score]").fill(str(scores[player]))
        page.get_by_role("button", name="Spiel speichern").click()
        # answered with the match page (without a script it stays at the form's address)
        page.get_by_text("Das Spiel ist gespeichert.").wait_for()
        assert page.locator("link[rel=canonical]").get_attribute("href") == match.get_absolute_url()
        last = Event.objects.filter(match=match, kind="game").order_by("-position").first()
        assert last.data == {"scores": scores, "dealer": dealer}
    finally:
        context.close()
