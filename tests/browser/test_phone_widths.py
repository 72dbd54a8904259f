"""Every page fits a phone, the sheet shows every player, and every device at the table sees the same state.

The walk visits every page of the URLconf (the access matrix declares them) once per width, for
the secretary (who reaches every page), a member and a visitor, with the longest real content: an
8-player Partie with long names, a Strafe with a long reason and a Stechen (Art. 17b).
Screenshots of the match page and the entry page at 360 px go to artefacts/phone/ (git-ignored).
"""

import datetime
import re
from pathlib import Path

import pytest
from django.urls import reverse

from protocol import matches
from tests.browser.conftest import choose_trump, log_in
from tests.browser.eight_players import EIGHT, LONG, fill_twins, members_named, pages_for
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTEFACTS = Path(__file__).resolve().parents[2] / "artefacts" / "phone"
WIDTHS = (320, 360, 390, 414)
# The elements that stick out on the right (the innermost ones), to name in a failure.
WIDEST = """() => {
  const out = e => e.getBoundingClientRect().right > window.innerWidth + 0.5
                   || (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible');
  const clipped = e => { for (let a = e.parentElement; a; a = a.parentElement)
                           if (getComputedStyle(a).overflowX !== 'visible') return true; return false; };
  return [...document.body.querySelectorAll('*')].filter(e => out(e) && !clipped(e)).slice(-3)
    .map(e => e.tagName.toLowerCase() + '.' + [...e.classList].join('.')
              + ' ' + Math.round(e.getBoundingClientRect().right)
              + '/' + e.scrollWidth);
}"""


def overflow(page):
    return page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")


@pytest.mark.parametrize("persona,username", [("secretary", "schriftfuehrer"), ("member", "anna"), ("anonymous", None)])
def test_no_page_scrolls_sideways_at_phone_widths(browser, live_server, eight_world, persona, username):
    context = browser.new_context(viewport={"width": 360, "height": 780}, locale="de-DE", has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base_url = live_server.url
    if username:
        log_in(page, username, PASSWORD)
    wide = []
    extra = [("plain match", eight_world["plain"].get_absolute_url())] if username else [("login", reverse("login"))]
    urls = list(pages_for(persona, eight_world)) + extra
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 780})
        for name, url in urls:
            page.goto(live_server.url + url)
            scroll, inner = overflow(page)
            if scroll > inner:
                wide.append(f"{width}px {name} {url}: {scroll} > {inner} {page.evaluate(WIDEST)}")
    context.close()
    assert wide == [], "\n".join(wide)


def test_the_operators_backup_pages_fit_phone_widths(browser, live_server, operator_pages):
    context = browser.new_context(viewport={"width": 360, "height": 780}, locale="de-DE", has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base_url = live_server.url
    log_in(page, "stefan", PASSWORD)
    wide = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 780})
        for name, url in operator_pages:
            page.goto(live_server.url + url)
            scroll, inner = overflow(page)
            if scroll > inner:
                wide.append(f"{width}px {name} {url}: {scroll} > {inner} {page.evaluate(WIDEST)}")
    page.set_viewport_size({"width": 320, "height": 780})
    page.goto(live_server.url + reverse("backups"))
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "backups-320.png"), full_page=True)
    context.close()
    assert wide == [], "\n".join(wide)


def test_the_sheet_shows_all_eight_players_at_360_px(phone, eight_world):
    page = phone
    page.set_viewport_size({"width": 360, "height": 780})
    log_in(page, "bernd", PASSWORD)
    page.goto(page.base_url + eight_world["match"].get_absolute_url())
    assert "Stechen" in page.locator(".status-panel").inner_text()
    wrap = page.locator(".sheet-wrap").bounding_box()
    for header in page.locator("table.sheet thead th").all():  # every column lies inside the screen
        box = header.bounding_box()
        assert box["x"] >= wrap["x"] - 1 and box["x"] + box["width"] <= wrap["x"] + wrap["width"] + 1
    assert page.locator("table.sheet thead th[title='Hannelore Müller-Lüdenscheidt']").count() == 1
    # every figure reads in full, down to 320 px: none is wider than its cell ("−1000", "1248")
    for width in (320, 360):
        page.set_viewport_size({"width": width, "height": 780})
        cut = page.evaluate("""() => [...document.querySelectorAll('table.sheet tbody td, table.sheet tfoot td')]
            .filter(td => td.scrollWidth > td.clientWidth + 0.5).map(td => td.innerText)""")
        assert cut == [], width
    page.set_viewport_size({"width": 360, "height": 780})
    # The Strafe row and the Stechen row read in full, not cut to a column
    assert "Karte verdeckt getauscht" in page.locator("tr.is-penalty").inner_text()
    assert page.locator("tr.is-stechen-start").bounding_box()["width"] <= wrap["width"] + 1
    # Totals carry the real minus sign, like the scores
    assert "-800" not in page.locator("table.sheet").inner_text()
    assert "−800" in page.locator("table.sheet").inner_text()
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "match-360-8-players-stechen.png"), full_page=True)


def test_the_entry_page_with_its_preview_fits_360_px_and_saves(phone, eight_world):
    page = phone
    page.set_viewport_size({"width": 360, "height": 780})
    log_in(page, "bernd", PASSWORD)
    page.goto(page.base_url + eight_world["plain"].get_absolute_url())
    page.get_by_role("link", name=re.compile(r"^Spiel \d+ eintragen$")).click()
    choose_trump(page, "rank:A")
    fill_twins(page)
    page.locator("#preview table").wait_for()
    assert "Art. 16" in page.locator("#preview").inner_text()  # the long explanations are there
    scroll, inner = overflow(page)
    assert scroll <= inner
    # Punkte and Stand of all eight are on screen (one look at the DOM: the preview may be swapped meanwhile)
    page.wait_for_function("() => document.querySelectorAll('#preview tbody tr').length === 8")
    right = page.evaluate("() => Math.max(...[...document.querySelectorAll('#preview td')]"
                          ".map(td => td.getBoundingClientRect().right))")
    assert 0 < right <= inner
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTEFACTS / "entry-360-8-players-preview.png"), full_page=True)
    page.get_by_role("button", name="Spiel speichern").click()  # nothing lies over it
    page.wait_for_url("**/partien/*/")
    assert "−400" in page.locator("table.sheet").inner_text()


def test_two_devices_at_the_table_see_the_same_state(browser, live_server, eight_world):
    devices = []
    for username in ("bernd", "anna"):
        context = browser.new_context(viewport={"width": 360, "height": 780}, locale="de-DE")
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.base_url = live_server.url
        log_in(page, username, PASSWORD)
        page.goto(live_server.url + eight_world["plain"].get_absolute_url())
        devices.append((context, page))
    (_, keeper), (_, reader) = devices
    before = reader.locator(".status-facts").inner_text()
    assert re.search(r"Nächstes Spiel\s+2", before)

    # Bernd saves Spiel 2 on his phone: Anna's page follows, the whole state block and the sheet.
    keeper.get_by_role("link", name="Spiel 2 eintragen").click()
    choose_trump(keeper, "rank:A")
    fill_twins(keeper)
    keeper.locator("#preview table").wait_for()
    keeper.get_by_role("button", name="Spiel speichern").click()
    keeper.wait_for_url("**/partien/*/")
    want = keeper.locator(".status-facts").inner_text()
    assert want != before
    reader.wait_for_function("want => document.querySelector('.status-facts').innerText === want", arg=want,
                             timeout=10_000)
    assert reader.locator("table.sheet").inner_text() == keeper.locator("table.sheet").inner_text()

    # A Strafe decides the lead: Anna's page names the new leader.
    keeper.get_by_role("link", name="Strafe, Verwarnung, Disqualifikation").click()
    keeper.get_by_label("Spieler", exact=True).select_option("Bernd")
    keeper.get_by_label("Abzug in Punkten").fill("100")
    keeper.get_by_label("Grund").fill("Karten gezeigt")
    keeper.get_by_role("button", name="Eintragen").click()
    keeper.wait_for_url("**/partien/*/")
    reader.wait_for_function("() => document.querySelector('#sheet').innerText.includes('Karten gezeigt')",
                             timeout=10_000)
    assert LONG in reader.locator(".status-facts").inner_text()
    assert reader.locator(".status-facts").inner_text() == keeper.locator(".status-facts").inner_text()
    for context, _ in devices:
        context.close()


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_members_partien_read_on_a_phone_without_swiping(browser, live_server, eight_world, language):
    """Carla opens her page: each of her Partien is one row of two lines (date, place, points;
    then the others at the table), nothing to swipe inside the table, the whole row a tap target
    that opens the Partie."""
    carla = eight_world["member"]
    address = reverse("member_page", kwargs={"slug": eight_world["club"].slug, "member_pk": carla.pk})
    context = browser.new_context(viewport={"width": 320, "height": 780}, has_touch=True,
                                  locale="en-GB" if language == "en" else "de-DE")
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base_url = live_server.url
    page.goto(live_server.url + reverse("login"))
    page.locator("input[name=username]").fill("anna")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{live_server.url}/**")
    for width in (320, 390):
        page.set_viewport_size({"width": width, "height": 780})
        page.goto(f"{live_server.url}{address}?saison={eight_world['season'].pk}")
        assert page.evaluate("document.documentElement.lang") == language
        wrap = page.evaluate("""() => { const w = document.querySelector('table.partien').closest('.table-wrap');
                                        return [w.scrollWidth, w.clientWidth]; }""")
        assert wrap[0] <= wrap[1], f"{width}px: the Partien table scrolls sideways {wrap}"
        row = page.locator("table.partien tbody tr").first
        row.scroll_into_view_if_needed()  # below the rating and the head-to-head choice, as Carla scrolls
        date, others = row.locator(".partien__date").bounding_box(), row.locator(".partien__others").bounding_box()
        assert others["y"] >= date["y"] + date["height"] - 1  # the others on a line of their own
        assert others["width"] > 0.7 * width - 64  # across the row, not a narrow column
        assert row.bounding_box()["height"] >= 44
        assert not row.locator(".partien__more").first.is_visible()  # games and points per game: wider screens
        page.touchscreen.tap(others["x"] + others["width"] / 2, others["y"] + others["height"] / 2)  # beside the date
        page.wait_for_url(f"**{eight_world['match'].get_absolute_url()}")
    context.close()


def sweep(players):
    """The first takes every Stich with all twelve Asse (1248); the Partie is over at once (Art. 17a)."""
    results = {p: {"tricks": 0, "points": 0, "trumps": 0} for p in players}
    results[players[0]] = {"tricks": 10, "points": 312, "trumps": 12}
    return {"results": results, "trump": {"level": "rank", "value": "A"}}


# The points column's heading: its text against its cell (cut: "SPIE…") and, with the table's
# scroller moved as far as it goes towards it, whether it lies in full beside the place and
# name that stay in view (a sticky name as wide as the screen hides every number).
POINTS_HEADING = """() => {
  const th = [...document.querySelectorAll('thead th')].find((h) => /^(Punkte|Points)$/i.test(h.textContent.trim()));
  if (!th) return null;
  const wrap = th.closest('.table-wrap');
  const seen = () => { const box = wrap.getBoundingClientRect();
                       return [box.left + wrap.clientLeft, box.left + wrap.clientLeft + wrap.clientWidth]; };
  wrap.scrollLeft += th.getBoundingClientRect().right - seen()[1];
  const [left, right] = seen();
  const cell = th.getBoundingClientRect();
  const name = th.parentElement.children[1].getBoundingClientRect();
  const head = th.closest('thead').getBoundingClientRect();
  return {text: th.textContent.trim(), scroll: th.scrollWidth, client: th.clientWidth, head: head.height,
          seen: cell.left >= left - 1 && cell.right <= right + 1 && cell.left >= name.right - 1};
}"""


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_public_tables_and_the_embed_fit_phone_widths_with_the_points_in_full(
        browser, live_server, eight_world, language):
    """The public page, the embed inside a club's website and the club's own table, with eight
    players and long names: no sideways scrolling of the page, the points column's heading in
    full and to be seen beside the place and name, no empty band of wrapped headings above them."""
    club, season = eight_world["club"], eight_world["season"]
    members = members_named(club, EIGHT)
    matches.create_match(club=club, date=datetime.date(2026, 11, 19), members=[members[n] for n in EIGHT],
                          scorekeeper=members["Bernd"], settings={}, season=season, events=[{"game": sweep(EIGHT)}],
                          user=eight_world["secretary"])
    pages = {
        "public": reverse("public_season", kwargs={"slug": club.slug, "season_pk": season.pk}),
        "embed": reverse("public_embed", kwargs={"slug": club.slug, "season_pk": season.pk}),
        "standings": reverse("standings_season", kwargs={"slug": club.slug, "season_pk": season.pk}),
    }
    context = browser.new_context(viewport={"width": 390, "height": 780}, has_touch=True,
                                  locale="en-GB" if language == "en" else "de-DE")
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(live_server.url + reverse("login"))
    page.locator("input[name=username]").fill("anna")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(f"{live_server.url}/**")
    wrong = []
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 780})
        for name, url in pages.items():
            page.goto(live_server.url + url)
            assert page.locator("tbody tr").count() == 8, name
            scroll, inner = overflow(page)
            if scroll > inner:
                wrong.append(f"{width}px {name}: {scroll} > {inner} {page.evaluate(WIDEST)}")
            points = page.evaluate(POINTS_HEADING)
            assert points, f"{name}: no points column"
            if points["scroll"] > points["client"]:
                wrong.append(f"{width}px {name}: {points['text']} cut, {points['scroll']} > {points['client']}")
            if not points["seen"]:
                wrong.append(f"{width}px {name}: {points['text']} never in view beside the names")
            if points["head"] > 60:  # two lines of headings at most
                wrong.append(f"{width}px {name}: the headings take {points['head']:.0f} px")
        if width == 390:
            ARTEFACTS.mkdir(parents=True, exist_ok=True)
            page.goto(live_server.url + pages["public"])
            page.screenshot(path=str(ARTEFACTS / f"public-390-{language}.png"), full_page=True)
    context.close()
    assert wrong == [], "\n".join(wrong)


# Each word of a name (split at spaces and after hyphens) on one line: a name that breaks inside
# a word where a break between its words would do is hard to read.
WORDS_WHOLE = """(cell) => {
  const text = cell.firstChild.nodeType === 3 ? cell.firstChild : cell.querySelector('a').firstChild;
  const broken = [];
  for (const match of text.textContent.matchAll(/[^\\s-]+-?/g)) {
    const range = document.createRange();
    range.setStart(text, match.index);
    range.setEnd(text, match.index + match[0].length);
    if (range.getClientRects().length > 1) broken.push(match[0]);
  }
  return broken;
}"""
# The element a finger 18 px above a sort link's middle lands on (the link's touch area reaches
# beyond its letters).
ABOVE_LINK = """(a) => { const box = a.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2 - 18);
  return hit && hit.closest('a') === a; }"""


def test_the_archive_and_the_table_read_well_on_a_phone_with_eight_long_names(browser, live_server, eight_world):
    """At 360 px, with Partien of eight players with long names: the archive's players wrap in
    their cell (the table scrolls a few screens, not thousands of pixels), its date filters show
    their whole field, each Partie's PDF and workbook are tap targets, and so is each heading that
    sorts; the league table breaks a long name between its words, not inside one."""
    club, season = eight_world["club"], eight_world["season"]
    members = members_named(club, EIGHT)
    matches.create_match(club=club, date=datetime.date(2026, 11, 19), members=[members[n] for n in EIGHT],
                         scorekeeper=members["Bernd"], settings={}, season=season, events=[{"game": sweep(EIGHT)}],
                         user=eight_world["secretary"])
    context = browser.new_context(viewport={"width": 360, "height": 780}, locale="de-DE", has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base_url = live_server.url
    log_in(page, "schriftfuehrer", PASSWORD)
    page.goto(live_server.url + reverse("archive", kwargs={"slug": club.slug}))
    assert overflow(page)[0] <= 360
    wrap = page.locator(".table-wrap:has(> .archive)")
    assert wrap.evaluate("(w) => w.scrollWidth") < 3 * 360  # eight long names wrap in their cell
    players = page.locator("td.archive__players").filter(has_text=LONG).first
    assert players.bounding_box()["height"] > 60  # on several lines
    for name in ("von", "bis"):  # the dates: the whole field in view
        field = page.locator(f"input[name={name}]")
        assert field.evaluate("(f) => f.scrollWidth <= f.clientWidth + 1"), name
        assert field.bounding_box()["width"] >= 200, name
    files = page.locator("td.archive__files a")
    assert files.count() >= 2
    for n in range(files.count()):
        box = files.nth(n).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, files.nth(n).inner_text()
    sort = page.locator("thead th a").first
    sort.scroll_into_view_if_needed()
    assert sort.evaluate(ABOVE_LINK)
    page.goto(live_server.url + reverse("standings_season", kwargs={"slug": club.slug, "season_pk": season.pk}))
    names = page.locator(".standings tbody td:nth-child(2)")
    broken = {names.nth(n).inner_text(): names.nth(n).evaluate(WORDS_WHOLE) for n in range(names.count())}
    assert LONG in broken and {name: words for name, words in broken.items() if words} == {}
    # His page: the Partie he won, still provisional, keeps its date clear of its two badges.
    page.set_viewport_size({"width": 320, "height": 780})
    page.goto(live_server.url + reverse("member_page", kwargs={"slug": club.slug, "member_pk": members[LONG].pk})
              + f"?saison={season.pk}")
    won = page.locator(".partien tbody tr").filter(has=page.locator(".badge--win")).first
    assert won.locator(".badge").count() >= 2  # winner and provisional
    date, place = won.locator(".partien__date a").bounding_box(), won.locator(".partien__place").bounding_box()
    assert date["x"] + date["width"] <= place["x"] + 1
    context.close()
