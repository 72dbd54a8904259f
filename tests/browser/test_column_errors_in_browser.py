"""A sum the engine refuses names a column, not a player: "Die Stiche ergeben zusammen 11"
(Art. 7, 10) marks every player's Stiche on the phone, in the live check while typing, and
the marks go when the sum is right."""

import pytest

from tests.browser.conftest import choose_trump, log_in
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ELEVEN = [(3, 30, 1), (3, 30, 1), (3, 20, 1), (2, 20, 1)]  # 11 Stiche of a hand of 10
MARKED = """(column) => [...document.querySelectorAll(`input[name$="_${column}"]`)]
  .filter((input) => /^p\\d_/.test(input.name))
  .map((input) => [input.getAttribute("aria-invalid"), input.getAttribute("aria-describedby") || "",
                   getComputedStyle(input).borderTopColor])"""


def test_the_live_check_marks_the_whole_column_a_sum_names(phone, table):
    page = phone
    page.emulate_media(reduced_motion="reduce")  # the border's colour without its transition
    log_in(page, "bernd", PASSWORD)
    page.goto(f"{page.base_url}/verein/{table.club.slug}/partien/{table.pk}/spiel/")
    choose_trump(page, "colour:rot")
    for seat, line in enumerate(ELEVEN):
        for field, value in zip(("tricks", "points", "trumps"), line):
            page.locator(f"input[name=p{seat}_{field}]").fill(str(value))
    page.locator("input[name=p3_trumps]").blur()
    page.locator("#err-tricks li").wait_for()
    assert "Die Stiche ergeben zusammen 11" in page.locator("#err-tricks").inner_text()
    page.wait_for_function("() => document.querySelectorAll('input[aria-invalid=true][name$=_tricks]').length === 4")
    tricks = page.evaluate(MARKED, "tricks")
    assert all(invalid == "true" and "err-tricks" in described for invalid, described, _colour in tricks)
    plain = page.evaluate(MARKED, "points")
    assert all(invalid is None for invalid, _described, _colour in plain)
    assert {colour for *_rest, colour in tricks}.isdisjoint({colour for *_rest, colour in plain})  # the red mark

    page.locator("input[name=p2_tricks]").fill("2")  # 10: the sum is right again
    page.locator("input[name=p2_tricks]").blur()
    page.locator("#preview table").wait_for()
    page.wait_for_function("() => !document.querySelector('input[aria-invalid=true][name$=_tricks]')")
    assert all("err-tricks" not in described for _invalid, described, _c in page.evaluate(MARKED, "tricks"))
