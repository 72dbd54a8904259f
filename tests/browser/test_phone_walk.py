"""The Protokollant's evening walked on a phone: 320 and 390 px, German and English, eight players
with long names (five at Doppelkopf and Tarot, their most).

Every page he reaches (match page, the entry of a Spiel in all three games, Strafe, correction,
end, history, signing) fits the screen, keeps no German word on the English pages, and each page
is kept as a screenshot in artefacts/walk/ (git-ignored) for a human to look at. The two defects
seen at 360 px get their own tests: names breaking mid-word on the entry page, and a Strafe's
reason squeezed into the sheet's first column.
"""

from pathlib import Path

import pytest

from tests.browser.conftest import choose_trump
from tests.browser.eight_players import fill_twins
from tests.browser.long_evening import EIGHT, REASON
from tests.conftest import PASSWORD
from tests.integration.pages import url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTEFACTS = Path(__file__).resolve().parents[2] / "artefacts" / "walk"
# Words of the German UI that must not be left on an English page (names and reasons are the club's own).
GERMAN = ("eintragen", "speichern", "Spieler", "Mischer", "Geber", "Punkte", "Stiche", "Augen", "Trümpfe",
          "Partie", "korrigieren", "Verwarnung", "bestätigt", "Obergrenze", "Zeitbegrenzung", "Grund", "Ansage",
          "Vertrag", "Spielnehmer", "Angriff", "Verteidigung", "Eintrag", "Sieger", "gewonnen", "regeln", "Wert ",
          "Stechen", "annulliert", "Teilnehmer", "Normalspiel")

# Each player's three inputs and the column heads, measured in one go (viewport coordinates).
LINE_LAYOUT = """(players) => {
  const rect = (node) => { const r = node.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width}; };
  const heads = [...document.querySelectorAll(".lines__head span")].slice(1).map(rect);
  const seats = [];
  for (let seat = 0; seat < players; seat++) {
    seats.push(["tricks", "points", "trumps"].map((f) => rect(document.querySelector(`input[name=p${seat}_${f}]`))));
  }
  return {heads, seats};
}"""


# A number written with a hyphen for its minus sign ("-70" beside "−70"); hyphens inside names and dates are none.
ASCII_MINUS = r"""() => (document.querySelector('main').innerText.match(/(^|[\s(])-\d+/g) || []).slice(0, 3)"""
# The controls a thumb taps on an entry page (a radio or checkbox counts by its label, which is tapped).
SMALL_TARGETS = """() => [...document.querySelectorAll(
    'main button, main select, main input:not([type=radio]):not([type=checkbox]):not([type=hidden]), main .chip, '
    + 'main .trump-button, main summary, main .segmented__option')]
  .filter(e => e.offsetParent !== null && !e.closest('[hidden], .is-spare'))
  .map(e => [e, e.getBoundingClientRect()]).filter(([e, r]) => r.height < 43.5)
  .slice(0, 5).map(([e, r]) => e.tagName.toLowerCase() + (e.name ? '[' + e.name + ']' : '') + ' '
                              + Math.round(r.height) + 'px')"""


def device(browser, live_server, language, width, username="bernd"):
    """Bernd's phone (or ``username``'s), in ``language``, logged in."""
    context = browser.new_context(viewport={"width": width, "height": 800}, has_touch=True,
                                  locale="en-GB" if language == "en" else "de-DE")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.base_url = live_server.url
    page.goto(live_server.url + "/konto/login/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(PASSWORD)
    with page.expect_navigation():
        page.locator("input[name=password]").press("Enter")
    return context, page


# The elements of ``selector`` in which a word does not fit its line (so the browser breaks it inside);
# an element that begins with text (a name before its explanation) is judged by that text.
BROKEN_WORDS = """selector => [...document.querySelectorAll(selector)].filter(e => {
    const text = e.firstChild && e.firstChild.nodeType === 3 ? e.firstChild.textContent : e.textContent;
    const words = text.trim().split(/[\\s-]+/);
    return !words.every(w => { const probe = document.createElement('span');
        probe.textContent = w; probe.style.whiteSpace = 'nowrap'; e.appendChild(probe);
        const ok = probe.getBoundingClientRect().width <= e.getBoundingClientRect().width + 0.5;
        probe.remove(); return ok; });
}).map(e => e.textContent.trim())"""


# The selects of ``selector`` whose chosen option's words are wider than the select leaves them (its arrow aside).
SELECT_CUT = """selector => [...document.querySelectorAll(selector)].filter(e => {
    const probe = document.createElement('span'); probe.textContent = e.options[e.selectedIndex].text;
    probe.style.font = getComputedStyle(e).font; probe.style.whiteSpace = 'nowrap';
    probe.style.position = 'absolute'; document.body.appendChild(probe); const wide = probe.getBoundingClientRect().width; probe.remove();
    return wide > e.clientWidth - 36;
}).map(e => e.options[e.selectedIndex].text)"""


def sideways(page) -> int:
    """How far the page reaches beyond the screen, in px (0: it fits)."""
    return page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")


def entry_page(page, match):
    page.goto(page.base_url + url(match, "game_new"))


# -- the two defects seen at 360 px -------------------------------------------------------------

def test_long_names_on_the_entry_page_and_in_the_state_block_break_between_words_not_inside_them(browser, live_server, evening):
    for width in (320, 360, 414):
        context, page = device(browser, live_server, "de", width)
        entry_page(page, evening["chaotentrumpf"])
        assert sideways(page) <= 0, width
        # each name's words stay whole: no line of the name ends inside a word
        broken = page.evaluate(BROKEN_WORDS, ".lines__name")
        assert broken == [], (width, broken)
        entry_page(page, evening["tarot"])  # the poignées, player by player
        assert page.evaluate(BROKEN_WORDS, ".poignee-grid__name") == [], width
        # the partner's first choice reads in full in its select (no "the taker plays al…")
        assert page.evaluate(SELECT_CUT, "select[name=partner]") == [], width
        page.goto(page.base_url + evening["tarot"].get_absolute_url())  # the leader: the longest name
        assert page.evaluate(BROKEN_WORDS, ".status-facts dd") == [], width
        page.goto(page.base_url + evening["chaotentrumpf"].get_absolute_url())  # the Mischer
        assert page.evaluate(BROKEN_WORDS, ".status-facts dd") == [], width
        entry_page(page, evening["chaotentrumpf"])
        # every player's inputs stay in a row of three, each at least a thumb wide, under the column heads
        # (measured in one go: the page may scroll between two measurements, which moves every y)
        layout = page.evaluate(LINE_LAYOUT, len(EIGHT))
        for seat, boxes in enumerate(layout["seats"]):
            assert len({round(b["y"]) for b in boxes}) == 1 and min(b["width"] for b in boxes) >= 44, (width, seat)
            for box, head in zip(boxes, layout["heads"], strict=True):
                middle = head["x"] + head["width"] / 2
                assert box["x"] <= middle <= box["x"] + box["width"], (width, seat)
        context.close()


def test_a_strafes_reason_takes_the_rows_width_on_the_phone(browser, live_server, evening):
    context, page = device(browser, live_server, "de", 360)
    page.goto(page.base_url + evening["chaotentrumpf"].get_absolute_url())
    reason = page.locator("tr.is-penalty th small").first  # the Strafe (a Verwarnung follows)
    row = page.locator("tr.is-penalty").first.bounding_box()
    box = reason.bounding_box()
    assert REASON in reason.inner_text()
    assert box["width"] >= 0.8 * row["width"]  # across the row, not in the first column
    assert box["height"] <= 3 * 20  # a line or two, not a tall narrow column
    assert sideways(page) <= 0
    # the Strafe's figure stays in Carla's column, below the reason, readable
    carla = EIGHT.index("Carla") + 1
    figure = page.locator(f"tr.is-penalty td:nth-of-type({carla}) small").first
    assert figure.inner_text() == "−200"
    assert figure.bounding_box()["y"] >= box["y"] + box["height"] - 2
    page.set_viewport_size({"width": 1200, "height": 800})  # the wide table keeps the reason in its cell
    box = reason.bounding_box()
    first = page.locator("tr.is-penalty th").first.bounding_box()
    assert box["x"] + box["width"] <= first["x"] + first["width"] + 1
    context.close()


# -- the whole evening -------------------------------------------------------------------------

def pages(evening):
    ct = evening["chaotentrumpf"]
    yield "match", ct.get_absolute_url()
    for game in ("chaotentrumpf", "doppelkopf", "tarot"):
        yield f"{game}-entry", url(evening[game], "game_new")
    yield "strafe", url(ct, "sanction_new")
    yield "correction", url(ct, "entry_correct", position=0)
    yield "end", url(ct, "end")
    yield "history", url(ct, "history")
    yield "doppelkopf-match", evening["doppelkopf"].get_absolute_url()
    yield "tarot-match", evening["tarot"].get_absolute_url()
    yield "signing", evening["finished"].get_absolute_url()


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_protokollants_evening_at_320_and_390_px(browser, live_server, evening, language):
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    found = []
    for width in (320, 390):
        context, page = device(browser, live_server, language, width)
        for name, address in pages(evening):
            page.goto(page.base_url + address)
            page.evaluate("() => document.querySelectorAll('main details').forEach(d => { d.open = true; })")
            if (wide := sideways(page)) > 0:
                found.append(f"{width}px {language} {name}: {wide} px sideways")
            if language == "en":
                shown = page.locator("main").inner_text()
                left = [w for w in GERMAN if w in shown]
                if left:
                    found.append(f"{width}px en {name}: German words {left}")
            if hyphens := page.evaluate(ASCII_MINUS):
                found.append(f"{width}px {language} {name}: a hyphen for a minus sign in {hyphens}")
            if "entry" in name and (small := page.evaluate(SMALL_TARGETS)):
                found.append(f"{width}px {language} {name}: tap targets under 44 px: {small}")
            page.screenshot(path=str(ARTEFACTS / f"{name}-{language}-{width}.png"), full_page=True)
        context.close()
    # a Spiel typed in at 320 px: the preview's scores and explanations fit, in the reader's language
    context, page = device(browser, live_server, language, 320)
    entry_page(page, evening["chaotentrumpf"])
    choose_trump(page, "rank:A")
    fill_twins(page)
    page.wait_for_function("() => document.querySelectorAll('#preview tbody tr').length === 8")
    if (wide := sideways(page)) > 0:
        found.append(f"320px {language} preview: {wide} px sideways")
    if broken := page.evaluate(BROKEN_WORDS, "#preview tbody th"):  # a name's words whole (the th holds it first)
        found.append(f"320px {language} preview: names broken inside a word {broken}")
    if cut := page.evaluate("""() => [...document.querySelectorAll('#preview td.num, #preview thead th')]
            .filter(td => td.scrollWidth > td.clientWidth + 0.5).map(td => td.innerText)"""):
        found.append(f"320px {language} preview: figures cut {cut}")
    if language == "en" and (left := [w for w in GERMAN if w in page.locator("#preview").inner_text()]):
        found.append(f"320px en preview: German words {left}")
    page.screenshot(path=str(ARTEFACTS / f"chaotentrumpf-preview-{language}-320.png"), full_page=True)
    context.close()
    assert found == [], "\n".join(found)


def test_the_scorekeepers_shuffling_exemption_sits_beside_its_label(browser, live_server, evening, club):
    """The checkbox of Art. 5c on the new-match page and in the transcription's head, at 320 px."""
    context, page = device(browser, live_server, "de", 320, "schriftfuehrer")  # the secretary transcribes
    for address in (f"/verein/{club.slug}/partien/neu/", f"/verein/{club.slug}/partien/nachtragen/"):
        page.goto(page.base_url + address)
        if page.locator("details.tx-more").count():
            page.locator("details.tx-more summary").click()  # the transcription's other agreements
        box = page.locator("input[name$=scorekeeper_skips_shuffling]").first
        box.scroll_into_view_if_needed()
        # the label's words (its box reaches under the checkbox: the whole row is the tap target)
        label = page.locator(f"label[for='{box.get_attribute('id')}']").evaluate(
            """(label) => { const range = document.createRange(); range.selectNodeContents(label);
                            const r = range.getBoundingClientRect();
                            return {x: r.left, y: r.top, width: r.width, height: r.height}; }""")
        mark = box.bounding_box()
        assert mark["x"] + mark["width"] <= label["x"] + 1, address  # left of its words
        assert label["y"] - 2 <= mark["y"] + mark["height"] / 2 <= label["y"] + label["height"] + 2, address
    context.close()
