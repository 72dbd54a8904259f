"""The secretary transcribes a paper evening of 20 Spiele by keyboard alone, in a real browser.

The sheet is dealt by the simulation (seed 46: realistic Spiele, some with an inversion),
with a Strafe after the fifth Spiel and three Spiele in which Anna and Bernd share the
Trumpfwertung, so both exceed 1000 in the 18th and a Stechen of two Spiele decides it
(Art. 17b). Screenshots of the page go to artefacts/transcribe/ (git-ignored).
"""

import random
import re
from pathlib import Path

import pytest

from league.models import Member
from protocol.games.chaotentrumpf.notation import write_entry, write_inversions
from protocol.games.chaotentrumpf.simulation import simulate_game
from protocol.models import Match
from protocol.rules import evaluate
from tests.browser.conftest import log_in, watched_page
from tests.browser.transcribing import focused, settled, wait_until
from tests.conftest import PASSWORD
from tests.unit.builders import twins

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]
SEED = 46
ARTEFACTS = Path(__file__).resolve().parents[2] / "artefacts" / "transcribe"
DESK = {"width": 1280, "height": 900}


def paper_sheet() -> dict:
    """The evening as the Protokollant Dieter wrote it down (a protocol/1 document)."""
    rng = random.Random(SEED)
    doc = {"format": "protocol/1", "ruleset": "chaotentrumpf", "players": PLAYERS, "scorekeeper": "Dieter",
           "settings": {}, "events": []}
    for n in range(15):
        doc["events"].append({"game": simulate_game(PLAYERS, 3, 10, rng, inversion_rate=0.05)})
        if n == 4:
            doc["events"].append({"penalty": {"player": "Carla", "points": 200, "reason": "Karte verdeckt getauscht",
                                              "decided_by": ["Anna", "Bernd", "Dieter"]}})
    doc["events"] += [twins() for _ in range(3)]
    doc["events"] += [{"game": simulate_game(["Anna", "Bernd"], 2, 10, rng)} for _ in range(2)]
    return doc


@pytest.fixture
def desk(browser, live_server):
    page = watched_page(browser, live_server, viewport=DESK)
    yield page
    page.context.close()


class Keys:
    """The keyboard, counting every key that is not a digit (the numbers themselves are free)."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def type(self, text):
        self.count += sum(1 for c in text if not c.isdigit())
        self.page.keyboard.type(text)

    def press(self, key):
        self.count += 1
        self.page.keyboard.press(key)


def shoot(page, name):
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)


def test_a_secretary_transcribes_a_paper_evening_by_keyboard(desk, club, secretary):
    doc = paper_sheet()
    expected = evaluate(doc).match
    assert (len(expected.games), expected.status, expected.winner) == (20, "finished", "Anna")
    assert [t.opened_after_game for t in expected.tiebreaks] == [18]  # Anna and Bernd exceed together
    for name in PLAYERS:
        Member.objects.create(club=club, name=name)

    page = desk
    log_in(page, "schriftfuehrer", PASSWORD)
    page.goto(page.base_url + f"/verein/{club.slug}/")
    page.locator(f'a[href="/verein/{club.slug}/partien/nachtragen/"]').click()
    page.wait_for_url("**/nachtragen/")
    keys = Keys(page)

    # The head of the protocol: the players field has the focus; Enter goes on to the grid.
    assert focused(page) == [None, None] and page.evaluate("document.activeElement.name") == "players"
    keys.type(", ".join(PLAYERS))
    keys.press("Tab")
    keys.type("4")  # Dieter keeps the protocol; Anna, on his left, shuffles first (Art. 5b)
    keys.press("Enter")
    page.locator('input[data-row="0"][data-cell="entry"]').wait_for()
    wait_until(page, "document.activeElement.dataset.cell === 'entry'")
    settled(page)
    assert "Anna" in page.locator("#tx-header-echo").inner_text()

    counts = {}  # row -> non-digit keys for that row
    mistake_row, reload_after = 2, 9

    def enter_row(i, event):
        (kind, body), = event.items()
        before = keys.count
        assert focused(page) == [str(i), "entry"]
        keys.type(write_entry(kind, body, PLAYERS))
        if kind == "game":
            for player in PLAYERS:
                if player not in body["results"]:
                    continue  # the Stechen's other players: their cells are disabled, Tab skips them
                line = body["results"][player]
                for field in ("tricks", "points", "trumps"):
                    keys.press("Tab")
                    wrong = i == mistake_row and player == "Anna" and field == "points"
                    keys.type("1" if wrong else str(line[field]))
            if body.get("inversions"):
                keys.press("Tab")
                keys.type(write_inversions(body["inversions"], PLAYERS))
        keys.press("Enter")
        counts[i] = (keys.count - before, kind, len(body.get("results", {})), bool(body.get("inversions")))
        settled(page)

    for i, event in enumerate(doc["events"]):
        enter_row(i, event)
        row = page.locator(f'tbody.tx-row[data-row="{i}"]')
        if i == mistake_row:
            # The typing error shows next to its cell, in German, naming the article.
            cell = page.locator(f'input[data-row="{i}"][data-cell="p0.points"]')
            assert cell.get_attribute("aria-invalid") == "true"
            message = page.locator(f"#{cell.get_attribute('aria-describedby').split()[-1]}").inner_text()
            assert "Anna" in message and "Art. 13a" in message
            assert "has-errors" in row.get_attribute("class")
            shoot(page, "typing-error")
            # Back up one row, over to Anna's Augen, type them right, and on.
            keys.press("ArrowUp")
            keys.press("Tab")
            keys.press("Tab")
            assert focused(page) == [str(i), "p0.points"]
            keys.type(str(event["game"]["results"]["Anna"]["points"]))
            keys.press("Enter")
            settled(page)
            assert cell.get_attribute("aria-invalid") is None
            assert page.locator(f"#tx-errors-{i} li").count() == 0
        assert "is-ok" in row.get_attribute("class"), (i, page.locator(f"#tx-errors-{i}").inner_text())
        if i == reload_after:
            # The tab is closed mid-way: the draft is offered again, Enter takes it up.
            wait_until(page, "(JSON.parse(localStorage.getItem(document.getElementById('tx').dataset.storageKey)"
                             f" || '{{}}').rows || []).filter(r => r.entry).length === {i + 1}")
            page.reload()
            page.locator("#tx-draft").wait_for()
            assert page.evaluate("document.activeElement.dataset.draft") == "resume"
            keys.press("Enter")
            wait_until(page, f"document.activeElement.dataset.row === '{i + 1}'")
            settled(page)
            assert page.locator("tbody.tx-row.is-ok").count() == i + 1

    # The Stechen opened its block after the 18th Spiel and named only Anna and Bernd.
    stechen_row = len(doc["events"]) - 2
    banner = page.locator("tbody.tx-banner--stechen")
    assert "Stechen: Anna, Bernd – Obergrenze 100" in banner.inner_text()
    assert page.locator(f'input[data-row="{stechen_row}"][data-cell="p2.tricks"]').is_disabled()
    assert not page.locator(f'input[data-row="{stechen_row}"][data-cell="p1.tricks"]').is_disabled()
    assert "Anna" in page.locator("tbody.tx-banner--won").inner_text()
    assert "is-ready" in page.locator("#tx-problem").get_attribute("class")
    shoot(page, "sheet-1280")

    # At most about 15 keys beyond the numbers for a Spiel of four players.
    plain = [n for n, kind, players, inverted in counts.values() if kind == "game" and players == 4 and not inverted]
    inverted = [n for n, kind, players, inv in counts.values() if kind == "game" and players == 4 and inv]
    print(f"\nnon-digit keys per 4-player Spiel: {sorted(plain)} (with inversions: {sorted(inverted)})")
    assert max(plain) <= 15 and sum(plain) / len(plain) <= 15

    keys.press("Control+Enter")
    page.wait_for_url(re.compile(r".*/partien/\d+/$"))
    match = Match.objects.get()
    assert match.status == "finished" and match.winner.name == expected.winner
    assert [e.kind for e in match.events.all()] == [next(iter(e)) for e in doc["events"]]
    assert [e.data.get("results") for e in match.events.all()] == [
        next(iter(e.values())).get("results") for e in doc["events"]]
    status = page.locator(".status-panel").inner_text()
    assert f"{expected.winner} hat die Partie gewonnen" in status
    totals = page.locator("table.sheet tfoot td").all_inner_texts()
    assert [int(t.replace("−", "-")) for t in totals] == [expected.totals[p] for p in PLAYERS]
    assert "Nachgetragen vom Papierprotokoll von Sabine Schreiber" in match.changes.get().reason
    assert page.evaluate("localStorage.length") == 0  # the draft is gone with the save
    shoot(page, "saved-match")
    assert page.problems == [], sorted(set(page.problems))


def test_the_page_works_on_a_phone(phone, club, secretary):
    """Narrow screen: the legend folds away, the grid scrolls sideways, the header stacks."""
    page = phone
    log_in(page, "schriftfuehrer", PASSWORD)
    page.goto(page.base_url + f"/verein/{club.slug}/partien/nachtragen/")
    page.locator("[name=players]").fill("Anna, Bernd, Carla")
    page.locator('input[data-row="0"][data-cell="entry"]').wait_for()
    assert not page.locator("#tx-help").evaluate("d => d.open")
    entry = page.locator('input[data-row="0"][data-cell="entry"]')
    entry.fill("rot")
    for seat, values in enumerate([(4, 40, 3), (3, 30, 2), (3, 50, "")]):
        for field, value in zip(("tricks", "points", "trumps"), values):
            page.locator(f'input[data-row="0"][data-cell="p{seat}.{field}"]').fill(str(value))
    settled(page)
    # Saving too early saves nothing: it names the row and takes the user to the empty cell.
    page.locator("#tx-save").tap()
    wait_until(page, "document.activeElement.dataset.cell === 'p2.trumps'")
    assert "Spiel 1 ist noch nicht vollständig." in page.locator("#tx-problem").inner_text()
    assert Match.objects.count() == 0
    page.locator('input[data-row="0"][data-cell="p2.trumps"]').fill("1")
    settled(page)
    assert "is-ok" in page.locator('tbody.tx-row[data-row="0"]').get_attribute("class")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # only the grid scrolls sideways
    labels = [page.locator(f'input[data-row="0"][data-cell="p1.{f}"]').get_attribute("aria-label")
              for f in ("tricks", "points", "trumps")]
    assert all("Bernd" in label and label.split(",")[0].endswith("1") for label in labels)
    shoot(page, "phone-390")
    assert page.problems == [], sorted(set(page.problems))
