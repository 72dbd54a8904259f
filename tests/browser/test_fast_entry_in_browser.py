"""Faster entry at the table: a plain 4-player Spiel in at most 3 taps plus the digits.

The trump is one tap on a large button (grouped by level), the digits are typed with Tab from
field to field, the save is the third tap; after the save the match page has the focus on
"Spiel 2 eintragen", so the next Spiel starts with Enter. Every control of the entry page is
at least 44 px tall (a finger, not a mouse pointer).
"""

import re

import pytest

from tests.browser.conftest import log_in
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A plain Spiel, red trump: tricks, Augen, Trümpfe of Anna, Bernd, Carla, Dieter (seating order).
PLAIN = [(3, 30, 1), (3, 30, 1), (2, 20, 1), (2, 20, 1)]
CONTROLS = "main input, main select, main button, main a.btn, main summary, main label.trump-button"
# The controls smaller than a finger; a radio or a checkbox is tapped on its label.
SMALL = """() => [...document.querySelectorAll('""" + CONTROLS + """')]
  .filter(e => e.offsetParent !== null && getComputedStyle(e).opacity !== '0')
  .map(e => [e, /^(radio|checkbox)$/.test(e.type) ? (e.closest('label') || e.labels[0] || e) : e])
  .map(([e, target]) => [e.name || e.textContent.trim().slice(0, 30), target.getBoundingClientRect().height])
  .filter(([, h]) => h < 44)"""


class Taps:
    """Every tap the test performs goes through here, so the count is the user's."""

    def __init__(self):
        self.count = 0

    def __call__(self, locator):
        self.count += 1
        locator.tap()


def type_lines(page, lines):
    """The digits, field after field with Tab (the keyboard's "next" key on a phone)."""
    keys = [str(value) for line in lines for value in line]
    for i, digits in enumerate(keys):
        page.keyboard.type(digits)
        if i < len(keys) - 1:
            page.keyboard.press("Tab")


def test_a_plain_spiel_takes_three_taps_plus_the_digits(phone, running_match):
    page = phone
    log_in(page, "bernd", PASSWORD)
    page.goto(page.base_url + running_match.get_absolute_url())
    tap = Taps()

    tap(page.get_by_role("link", name="Spiel 1 eintragen"))
    page.wait_for_url("**/spiel/")
    assert page.evaluate("() => document.activeElement.name") == "trump"  # the first field not pre-filled
    assert page.evaluate(SMALL) == [], page.evaluate(SMALL)  # every control is a finger's size
    # The trump: one tap on a large button in its level's group, no list to open.
    farbe = page.locator(".trump-level", has=page.locator(".trump-level__name", has_text="Farbe"))
    tap(farbe.get_by_text("Rot", exact=True))
    assert page.locator("input[name=trump]:checked").get_attribute("value") == "colour:rot"
    # ... and the cursor is already in Anna's first field: the digits follow without a tap.
    assert page.evaluate("() => document.activeElement.name") == "p0_tricks"
    type_lines(page, PLAIN)
    page.locator("#preview table").wait_for()
    tap(page.get_by_role("button", name="Spiel speichern"))
    page.wait_for_url(re.compile(r".*/partien/\d+/$"))

    assert tap.count <= 3
    assert "Das Spiel ist gespeichert" in page.locator(".messages").inner_text()
    running_match.refresh_from_db()
    assert running_match.game_count == 1
    # The next field after the save: "Spiel 2 eintragen" has the focus; Enter opens it.
    assert page.evaluate("() => document.activeElement.textContent.trim()") == "Spiel 2 eintragen"
    page.keyboard.press("Enter")
    page.wait_for_url("**/spiel/")
    assert page.locator("h1").inner_text() == "Spiel 2"
    assert page.problems == []


def test_an_inversion_is_one_labelled_row_in_plain_words(phone, running_match):
    page = phone
    log_in(page, "bernd", PASSWORD)
    page.goto(page.base_url + running_match.get_absolute_url() + "spiel/")
    page.get_by_text("Inversionen (Art. 11)").click()
    row = page.locator("fieldset.inversion-row").first
    assert row.locator("legend").inner_text() == "Inversion 1"
    row.get_by_label("Wer invertiert").select_option("Carla")
    kinds = row.get_by_label("Mit welcher Inversion").locator("option").all_inner_texts()
    assert "Normal: zum Gegenstück (6 Karten in Folge)" in kinds
    row.get_by_label("Mit welcher Inversion").select_option("normal")
    row.get_by_label("Zu welchem Trumpf").select_option("colour:schwarz")
    assert row.get_by_label("Karte").is_hidden()  # only for a Totalultrainversion to a single card
    # the row fits a phone: no select is cut or wider than the screen
    width = page.evaluate("() => window.innerWidth")
    for select in row.locator("select").all():
        box = select.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
    assert page.evaluate(SMALL) == []


@pytest.mark.parametrize("ruleset, game_settings, page_path", [
    ("chaotentrumpf", {}, "strafe/"), ("doppelkopf", {"rules": "tcg"}, "spiel/"), ("tarot", {}, "spiel/")])
def test_every_entry_page_has_tap_targets_of_44_px(phone, club, secretary, scorekeeper, ruleset, game_settings,
                                                   page_path):
    from tests.integration.each_game import new_match
    match = new_match(club, secretary, ruleset, game_settings)
    page = phone
    log_in(page, "bernd", PASSWORD)
    page.goto(page.base_url + match.get_absolute_url() + page_path)
    page.locator("main form").first.wait_for()
    for details in page.locator("main details").all():  # the folded parts count too
        details.evaluate("d => d.open = true")
    assert page.evaluate(SMALL) == [], page.evaluate(SMALL)
