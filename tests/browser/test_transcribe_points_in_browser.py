"""The secretary types a paper sheet that holds only the points per player (a Punktetabelle
of 40 Spiele with a Strafe and a Stechen of Carla and Dieter) into the transcription grid by
keyboard, in a real browser: the switch "nur Punkte" for the whole grid, the first Spiel
switched back to a full row, a line Art. 16 cannot produce refused at its cell; then the
page at 360 px (screenshot to /tmp) and axe-core."""

import re

import pytest

from league.models import Member
from protocol.games.chaotentrumpf.notation import write_entry
from protocol.models import Match
from protocol.rules import evaluate
from tests.browser.conftest import log_in, watched_page
from tests.browser.transcribing import focused, settled, wait_until
from tests.conftest import PASSWORD
from tests.unit.points_only_documents import as_points, partie_with_stechen

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]
STECHEN_SEED = 218  # partie_with_stechen: 40 Spiele, a Strafe, a Stechen of Carla and Dieter
WRONG_ROW = 5
RELOAD_AFTER = 12
SCREENSHOT = "/tmp/transcribe-points-360.png"


@pytest.fixture
def desk(browser, live_server):
    page = watched_page(browser, live_server, viewport={"width": 1280, "height": 900}, bypass_csp=True)
    yield page
    page.context.close()


def test_a_secretary_types_a_sheet_of_points_by_keyboard(desk, club, secretary, axe_violations):
    full = partie_with_stechen(STECHEN_SEED)
    paper = as_points(full)
    expected = evaluate(full).match
    assert len(expected.games) == 40 and expected.tiebreaks and expected.winner == "Dieter"
    for name in PLAYERS:
        Member.objects.create(club=club, name=name)
    page = desk
    keyboard = page.keyboard
    log_in(page, "schriftfuehrer", PASSWORD)
    page.goto(page.base_url + f"/verein/{club.slug}/partien/nachtragen/")
    page.locator("[name=limit]").fill(str(full["settings"]["limit"]))
    page.locator("[name=players]").fill(", ".join(PLAYERS))
    page.locator('input[data-row="0"][data-cell="entry"]').wait_for()
    settled(page)

    # The whole grid as points; the first Spiel is on the sheet in full, its row switched back.
    page.locator("#tx-points").check()
    page.locator('input[data-row="0"][data-cell="p0.score"]').wait_for()
    assert page.locator("thead .tx-player__fields").first.inner_text() == "Punkte"
    page.locator('.tx-mode[data-row="0"]').click()
    assert page.locator('.tx-mode[data-row="0"]').get_attribute("aria-pressed") == "false"
    page.locator('input[data-row="0"][data-cell="entry"]').focus()

    def type_row(i, full_event, event):
        (kind, body), = event.items()
        if i == 0:  # in full: trump, then Stiche, Augen, Trümpfe per player
            game = full_event["game"]
            keyboard.type(write_entry("game", game, PLAYERS))
            for player in PLAYERS:
                for field in ("tricks", "points", "trumps"):
                    keyboard.press("Tab")
                    keyboard.type(str(game["results"][player][field]))
        elif kind != "game":  # a Strafe: in the trump cell, also in a points row
            if focused(page)[1] != "entry":
                keyboard.press("Shift+Tab")
            assert focused(page) == [str(i), "entry"]
            keyboard.type(write_entry(kind, body, PLAYERS))
        else:
            if focused(page)[1] == "entry":
                keyboard.press("Tab")
            for n, player in enumerate(p for p in PLAYERS if p in body["scores"]):
                if n:
                    keyboard.press("Tab")  # the Stechen's other players: their cells are off, Tab skips them
                assert focused(page) == [str(i), f"p{PLAYERS.index(player)}.score"]
                score = 9999 if i == WRONG_ROW and n == 0 else body["scores"][player]
                keyboard.type(str(score))
        keyboard.press("Enter")
        settled(page)

    for i, (full_event, event) in enumerate(zip(full["events"], paper["events"])):
        type_row(i, full_event, event)
        row = page.locator(f'tbody.tx-row[data-row="{i}"]')
        if i == WRONG_ROW:
            # The impossible points show at their cell, in German, naming the article.
            cell = page.locator(f'input[data-row="{i}"][data-cell="p0.score"]')
            assert cell.get_attribute("aria-invalid") == "true"
            message = page.locator(f"#{cell.get_attribute('aria-describedby').split()[-1]}").inner_text()
            assert "9999 Punkte ergeben sich aus keinem Fall von Art. 16" in message
            cell.fill(str(event["game"]["scores"]["Anna"]))
            page.locator(f'input[data-row="{i + 1}"][data-cell="p0.score"]').focus()
            settled(page)
            assert cell.get_attribute("aria-invalid") is None
        assert "is-ok" in row.get_attribute("class"), (i, page.locator(f"#tx-errors-{i}").inner_text())
        if i and "game" in event:
            assert "is-points" in row.get_attribute("class")
            assert "nur Punkte" in row.locator(".tx-echo").inner_text()
        if i == RELOAD_AFTER:
            # The tab is closed mid-way: the draft comes back with its points rows and the switch.
            wait_until(page, "(JSON.parse(localStorage.getItem(document.getElementById('tx').dataset.storageKey)"
                             f" || '{{}}').rows || []).filter(r => r.entry || r.scores.some(Boolean)).length === {i + 1}")
            page.reload()
            page.locator("#tx-draft").wait_for()
            keyboard.press("Enter")
            wait_until(page, f"document.activeElement.dataset.row === '{i + 1}'")
            settled(page)
            assert page.locator("#tx-points").is_checked()
            assert page.locator("tbody.tx-row.is-ok.is-points").count() == i, (  # the first row is in full
                page.locator("tbody.tx-row").evaluate_all("bs => bs.map(b => b.className)"),
                page.locator("#tx-problem").inner_text())

    banner = page.locator("tbody.tx-banner--stechen")
    assert "Stechen: Carla, Dieter" in banner.inner_text()
    assert "Dieter" in page.locator("tbody.tx-banner--won").inner_text()
    assert "is-ready" in page.locator("#tx-problem").get_attribute("class")
    assert axe_violations(page) == []

    # On a phone of 320 to 414 px only the grid scrolls sideways; at 360 px axe-core finds nothing.
    for width in (320, 414, 360):
        page.set_viewport_size({"width": width, "height": 780})
        assert page.evaluate("document.documentElement.scrollWidth") <= width, width
    page.locator('input[data-row="38"][data-cell="p2.score"]').scroll_into_view_if_needed()
    page.screenshot(path=SCREENSHOT)
    page.locator("#tx-points").scroll_into_view_if_needed()
    page.screenshot(path=SCREENSHOT.replace(".png", "-top.png"))
    assert axe_violations(page) == []
    page.set_viewport_size({"width": 1280, "height": 900})

    keyboard.press("Control+Enter")
    page.wait_for_url(re.compile(r".*/partien/\d+/$"))
    match = Match.objects.get()
    assert match.status == "finished" and match.winner.name == expected.winner
    games = [e.data for e in match.events.all() if e.kind == "game"]
    assert "results" in games[0] and all("scores" in g for g in games[1:])
    totals = page.locator("table.sheet tfoot td").all_inner_texts()
    assert [int(t.replace("−", "-")) for t in totals] == [expected.totals[p] for p in PLAYERS]
    assert page.problems == [], sorted(set(page.problems))
