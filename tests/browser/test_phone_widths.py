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

from jobs.models import Job
from league.models import Member, Round, Season
from protocol import services
from protocol.documents.backup_files import write_backup
from protocol.models import Lot
from tests.browser.conftest import choose_trump, log_in
from tests.conftest import PASSWORD
from tests.integration.test_access_matrix import OPERATORS, ROUTES, all_route_names, kwargs_for, pattern_keys

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTEFACTS = Path(__file__).resolve().parents[2] / "artefacts" / "phone"
WIDTHS = (320, 360, 390, 414)
LONG = "Anna-Katharina Oberhuber-Schwarzenegger"
EIGHT = [LONG, "Bernd", "Carla", "Dieter", "Emil", "Frieda", "Gustav", "Hannelore Müller-Lüdenscheidt"]
DOWNLOADS = ("pdf", "export", "download", "public_csv", "public_json",  # not pages: files the browser saves or shows itself
             "rules_pack", "service_worker", "manifest")
FRAGMENTS = {"protocol:sheet", "job_progress", "site_job_progress",  # swapped into their pages by htmx
             "protocol:entries_sync"}  # JSON for the offline queue (static/js/offline/entry.js)
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


def twins(players):
    """The first two share the Trumpfwertung on rank As (312 each); the others take no Stich (Art. 16)."""
    results = {p: {"tricks": 0, "points": 0, "trumps": 0} for p in players}
    for p in players[:2]:
        results[p] = {"tricks": 5, "points": 156, "trumps": 6}
    return {"results": results, "trump": {"level": "rank", "value": "A"}}


def fill_twins(page):
    """The same Spiel, typed into the entry form of the eight."""
    for seat in range(8):
        line = (5, 156, 6) if seat < 2 else (0, 0, 0)
        for field, value in zip(("tricks", "points", "trumps"), line, strict=True):
            page.locator(f"input[name=p{seat}_{field}]").fill(str(value))


def members_named(club, names) -> dict:
    """The club's members by name, each of ``names`` created where the club has none of that name."""
    members = {m.name: m for m in club.members.all()}
    for name in names:
        if name not in members:
            members[name] = Member.objects.create(club=club, name=name)
    return members


@pytest.fixture
def table(club, secretary, scorekeeper, member_user):
    """Two Partien of eight: one in a Stechen after a Strafe, one with a single Spiel."""
    members = members_named(club, EIGHT)
    seats = [members[n] for n in EIGHT]
    penalty = {"player": "Carla", "points": 200,
               "reason": "Karte verdeckt getauscht, obwohl die Mitspieler es gesehen und gerügt hatten"}
    events = [{"game": twins(EIGHT)}, {"penalty": penalty}] + [{"game": twins(EIGHT)}] * 3
    season = Season.objects.create(club=club, name="Saison 2026 Chaotentrumpf Nürtingen",
                                   start=datetime.date(2026, 1, 1), end=datetime.date(2026, 12, 31))
    stechen = services.create_match(club=club, date=datetime.date(2026, 11, 20), place="Vereinsheim am Neckarufer",
                                    members=seats, scorekeeper=members["Bernd"], settings={}, season=season,
                                    events=events, user=secretary)
    assert stechen and services.evaluate_match(stechen).match.current_stage.depth == 1
    plain = services.create_match(club=club, date=datetime.date(2026, 11, 21), members=seats,
                                  scorekeeper=members["Bernd"], settings={}, events=[{"game": twins(EIGHT)}],
                                  user=secretary)
    lot = Lot.objects.create(match=stechen, purpose="x", data={"features": {}, "kind": "suit", "cards": ["XA"],
                                                               "winner": "Bernd"})
    rnd = Round.objects.create(season=season, number=1, date=season.start, seed=1)
    club.published, club.embed_origins = True, "https://www.ctv-nuertingen.example"  # the public pages too
    club.save()
    # a member's finished export and the secretary's checked workbook: the background job pages
    job = Job.objects.create(kind="season_export", club=club, started_by=member_user, state=Job.State.DONE,
                             filename="ctv-saison-2026-chaotentrumpf-nuertingen.xlsx")
    with job.writing_result() as file:
        file.write(b"PK")
    check = Job.objects.create(kind="season_check", club=club, started_by=secretary, state=Job.State.DONE,
                               params={"upload": "saison.xlsx", "season": None}, report={"ok": True, "dry_run": True})
    return {"club": club, "match": stechen, "plain": plain, "season": season, "lot": lot, "round": rnd,
            "member": members["Carla"], "secretary": secretary, "job": job, "check": check}


def overflow(page):
    return page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")


def pages_for(persona, w):
    for name in all_route_names():
        allowed, methods = ROUTES[name]
        if methods == "post" or persona not in allowed or any(d in name for d in DOWNLOADS) or name in FRAGMENTS:
            continue
        yield name, reverse(name, kwargs=kwargs_for(name, pattern_keys(name), w))


@pytest.mark.parametrize("persona,username", [("secretary", "schriftfuehrer"), ("member", "anna"), ("anonymous", None)])
def test_no_page_scrolls_sideways_at_phone_widths(browser, live_server, table, persona, username):
    context = browser.new_context(viewport={"width": 360, "height": 780}, locale="de-DE", has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base_url = live_server.url
    if username:
        log_in(page, username, PASSWORD)
    wide = []
    extra = [("plain match", table["plain"].get_absolute_url())] if username else [("login", reverse("login"))]
    urls = list(pages_for(persona, table)) + extra
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 780})
        for name, url in urls:
            page.goto(live_server.url + url)
            scroll, inner = overflow(page)
            if scroll > inner:
                wide.append(f"{width}px {name} {url}: {scroll} > {inner} {page.evaluate(WIDEST)}")
    context.close()
    assert wide == [], "\n".join(wide)


@pytest.fixture
def operator_pages(table, make_user, settings, tmp_path):
    """The staff's own pages (only they reach them; user "stefan"): the list of backups with
    long file names, a finished backup job ending in its download, one waiting for a worker."""
    settings.BACKUP_DIR = tmp_path / "backups"
    for day in range(1, 4):
        backup, _data = write_backup(settings.BACKUP_DIR, now=datetime.datetime(2026, 11, day, 3, 0, tzinfo=datetime.UTC))
    staff = make_user("stefan", is_staff=True)
    done = Job.objects.create(kind="site_backup", club=None, started_by=staff, state=Job.State.DONE,
                              report={"name": backup.name, "clubs": 1, "matches": 2, "users": 4})
    waiting = Job.objects.create(kind="site_backup", club=None, started_by=staff)
    w = {**table, "backup": backup.name, "site_job": done}
    urls = [(name, url) for name, url in pages_for("staff", w) if ROUTES[name][0] == OPERATORS]
    urls.append(("waiting job", reverse("site_job", args=[waiting.pk])))
    assert {"backups", "site_job"} <= {name for name, _url in urls}
    return urls


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


def test_the_sheet_shows_all_eight_players_at_360_px(phone, table):
    page = phone
    page.set_viewport_size({"width": 360, "height": 780})
    log_in(page, "bernd", PASSWORD)
    page.goto(page.base_url + table["match"].get_absolute_url())
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


def test_the_entry_page_with_its_preview_fits_360_px_and_saves(phone, table):
    page = phone
    page.set_viewport_size({"width": 360, "height": 780})
    log_in(page, "bernd", PASSWORD)
    page.goto(page.base_url + table["plain"].get_absolute_url())
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


def test_two_devices_at_the_table_see_the_same_state(browser, live_server, table):
    devices = []
    for username in ("bernd", "anna"):
        context = browser.new_context(viewport={"width": 360, "height": 780}, locale="de-DE")
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.base_url = live_server.url
        log_in(page, username, PASSWORD)
        page.goto(live_server.url + table["plain"].get_absolute_url())
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
def test_a_members_partien_read_on_a_phone_without_swiping(browser, live_server, table, language):
    """Carla opens her page: each of her Partien is one row of two lines (date, place, points;
    then the others at the table), nothing to swipe inside the table, the whole row a tap target
    that opens the Partie."""
    carla = table["member"]
    address = reverse("member_page", kwargs={"slug": table["club"].slug, "member_pk": carla.pk})
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
        page.goto(f"{live_server.url}{address}?saison={table['season'].pk}")
        assert page.evaluate("document.documentElement.lang") == language
        wrap = page.evaluate("""() => { const w = document.querySelector('table.partien').closest('.table-wrap');
                                        return [w.scrollWidth, w.clientWidth]; }""")
        assert wrap[0] <= wrap[1], f"{width}px: the Partien table scrolls sideways {wrap}"
        row = page.locator("table.partien tbody tr").first
        date, others = row.locator(".partien__date").bounding_box(), row.locator(".partien__others").bounding_box()
        assert others["y"] >= date["y"] + date["height"] - 1  # the others on a line of their own
        assert others["width"] > 0.7 * width - 64  # across the row, not a narrow column
        assert row.bounding_box()["height"] >= 44
        assert not row.locator(".partien__more").first.is_visible()  # games and points per game: wider screens
        page.touchscreen.tap(others["x"] + others["width"] / 2, others["y"] + others["height"] / 2)  # beside the date
        page.wait_for_url(f"**{table['match'].get_absolute_url()}")
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
        browser, live_server, table, language):
    """The public page, the embed inside a club's website and the club's own table, with eight
    players and long names: no sideways scrolling of the page, the points column's heading in
    full and to be seen beside the place and name, no empty band of wrapped headings above them."""
    club, season = table["club"], table["season"]
    members = members_named(club, EIGHT)
    services.create_match(club=club, date=datetime.date(2026, 11, 19), members=[members[n] for n in EIGHT],
                          scorekeeper=members["Bernd"], settings={}, season=season, events=[{"game": sweep(EIGHT)}],
                          user=table["secretary"])
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
