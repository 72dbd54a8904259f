"""The tournament day in a real browser: 32 players at 8 tables of Chaotentrumpf, 3 rounds.

Sabine, the secretary, ticks the members present on her phone, registers two walk-in guests
with one name and one tap each, draws round 1, creates its Partien and prints the table cards.
Every table opens its card's address in a browser of its own that never logged in and enters
its one Spiel (points only), which ends the Partie (Art. 17c); a second player accepts the
result ("two at the table agree"; table 2 on a second phone). Table 8 loses the network for a
while: its Spiel waits on the phone, the round board waits for the table, and the Spiel is
handed over when the network is back. The live board (its own browser) shows each result
within seconds. Rounds 2 and 3 are drawn with no repeated tablemates (32 players: avoidable),
as the draw says and the seats show. The final standings, the live board's and the season
workbook's equal the rules engine's totals over the stored facts. A card refuses another
table's Partie and the club, and stops working once its round is closed or the card is
reissued. The pages of the secretary and of a table fit 360 px; axe finds nothing serious.
"""

import datetime
import io
import re
import subprocess
from collections import defaultdict
from itertools import combinations
from pathlib import Path

import openpyxl
import pytest
from django.urls import reverse

from league.models import Attendance, Member, Season, TableSeat
from league.standings.ranking import standings
from league.tournaments import cards as table_cards
from protocol import reading
from protocol.models import Confirmation, Event, Match
from protocol.rules import evaluate
from tests.browser.conftest import log_in
from tests.browser.offline import SLOW, go_offline, open_ready, wait_waiting
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/tournament-day")
# With Sabine (the secretary) and Anna: 30 members; the two guests make 32, eight tables of four.
MEMBERS = ["Achim", "Bettina", "Cornelius", "Dagmar", "Egon", "Friedhelm", "Gerda", "Hubertus", "Irmgard", "Jochen",
           "Kunigunde", "Ludwig", "Mechthild", "Norbert", "Ottilie", "Pankraz", "Quirin", "Rosemarie", "Siegfried",
           "Theresia", "Ulrich", "Veronika", "Waltraud", "Xenia", "Yvonne", "Zacharias", "Brunhilde", "Detlef"]
GUESTS = ["Gisela Gastfreund", "Valentin Zugereist"]
OFFLINE_TABLE, TWO_PHONES, REISSUED = 8, 2, 3
# Each table's one Spiel as points only (what a Spiel of four can give, each with one leader):
# the Partie is limited to one Spiel (Art. 17c), so the Spiel ends it. A round turns the seats.
SCORES = {1: (45, 30, 20, -90), 2: (55, 30, 20, -200), 3: (160, 30, 20, -90), 4: (65, 20, 20, -200),
          5: (200, 30, 20, -200), 6: (45, 40, -80, -200), 7: (75, 20, 20, -200), 8: (240, 20, 20, -200)}
# The live board has shown a result at most this long after the table's second player accepted it.
WITHIN_SECONDS = 10
# The moment the live board first shows each table's counted result ("round/table": Date.now()),
# among the round's tables or the latest results.
WATCH_BOARD = """() => {
  window.shownAt = {};
  const board = document.getElementById('live-board');
  const shown = (key) => { if (!(key in window.shownAt)) { window.shownAt[key] = Date.now(); } };
  const note = () => {
    const round = board.querySelector('.live__round h2').textContent.match(/Runde (\\d+)/);
    board.querySelectorAll('.live__round [data-table]').forEach((table) => {
      if (round && ['finished', 'confirmed'].includes(table.querySelector('[data-state]').dataset.state)) {
        shown(round[1] + '/' + table.dataset.table);
      }
    });
    board.querySelectorAll('.live__results .live__table-head').forEach((head) => {
      const found = head.textContent.match(/Runde (\\d+), Tisch (\\d+)/);
      if (found) { shown(found[1] + '/' + found[2]); }
    });
  };
  new MutationObserver(note).observe(board, {childList: true, subtree: true});
  note();
}"""


@pytest.fixture
def day(club, secretary, member_user):
    """A published club of 30 active members and its tournament of the day: Chaotentrumpf, one
    Spiel a table (Art. 17c), ranked by the total points, two at each table agree."""
    club.published = True
    club.save(update_fields=["published"])
    Member.objects.bulk_create([Member(club=club, name=name) for name in MEMBERS])
    today = datetime.date.today()
    return Season.objects.create(club=club, name="Turniertag", start=today, end=today, mode=Season.Mode.TOURNAMENT,
                                 ruleset="chaotentrumpf", game_settings={"max_games": 1},
                                 ranking_rule=Season.RankingRule.TOTAL, two_agree=True)


def context_page(browser, live_server, *, width=360, height=780, offline=False, axe=False):
    """A page in a browser of its own (German, a phone's width unless told). Only the phone
    that goes ``offline`` keeps pages in its service worker and starts the engine in the
    background: Pyodide's start holds a page's thread for seconds, while the tables of a
    round wait their turn here."""
    context = browser.new_context(viewport={"width": width, "height": height}, locale="de-DE", has_touch=True,
                                  bypass_csp=axe, service_workers="allow" if offline else "block")
    if not offline:
        context.route("**/vendor/pyodide/**", lambda route: route.abort())
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.base_url = live_server.url
    problems = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.problems = problems
    return page


def pdf_text(pdf: bytes) -> str:
    return subprocess.run(["pdftotext", "-raw", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()


def printed_addresses(page, link_name) -> dict[int, str]:
    """The short address printed on each card the link gives, by table (http: the test server)."""
    link = page.get_by_role("link", name=link_name, exact=True)
    response = page.request.get(page.base_url + link.get_attribute("href"))
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    assert response.body().startswith(b"%PDF-")
    text = pdf_text(response.body())
    found = re.findall(r"^Tisch (\d+)$.*?(\S+/t/[0-9A-Z]{5}-[0-9A-Z]{5}/)", text, re.S | re.M)
    assert len(found) == len(re.findall(r"/t/[0-9A-Z]{5}-[0-9A-Z]{5}/", text)), text
    return {int(table): "http://" + address for table, address in found}


def sideways(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")


def url(match, name):
    return reverse(f"protocol:{name}", kwargs={"slug": match.club.slug, "pk": match.pk})


def enter_spiel(page, match, scores, *, opened=False):
    """The Protokollant's Spiel as points only (the switch "Nur Punkte"), in seating order;
    ``opened``: on the entry page open already, saved without waiting for the page it leads to."""
    if not opened:
        page.goto(page.base_url + url(match, "game_new"))
    page.get_by_role("switch", name="Nur Punkte").check()
    for seat, points in enumerate(scores):
        page.locator(f"input[name=p{seat}_score]").fill(str(points))
    # The tap once the preview has answered the whole Spiel: its answer, swapped in above the
    # button, moves the button, and a tap in that moment lands beside it.
    page.locator("#preview table").wait_for()
    page.get_by_role("button", name="Spiel speichern").click(no_wait_after=opened)
    if not opened:
        page.wait_for_url(page.base_url + match.get_absolute_url())


def east_accepts(page, match):
    """A player other than the Protokollant taps that he accepts the result, on this phone."""
    east = seat_names(match)[1]
    page.get_by_role("button", name=f"{east} bestätigt das Ergebnis", exact=True).click()
    page.locator(".signature-list__item.is-confirmed").first.wait_for()


def seat_names(match):
    return [seat.name for seat in match.seats.order_by("position")]


def turned(scores, round_number):
    return scores[round_number - 1:] + scores[:round_number - 1]


def play_tables(tables):
    """Each of ``tables`` (phone, card address, match, points): the phone at the table opens its
    card and enters its Spiel (the Partie's last) on the Spiel form; a second player's
    acceptance is the form of the signatures posted from that phone (the button itself is
    tapped at tables 1, 2 and 8 of round 1)."""
    for page, card, match, scores in tables:
        page.goto(card, wait_until="commit")  # the Partie's page is walked at tables 1, 2 and 8
        assert page.url == page.base_url + match.get_absolute_url()  # the card opens its table's Partie
        page.goto(page.base_url + url(match, "game_new"))
        token = page.locator("input[name=csrfmiddlewaretoken]").first.input_value()
        enter_spiel(page, match, scores, opened=True)
        page.wait_for_url(page.base_url + match.get_absolute_url(), wait_until="commit")
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED  # its one Spiel ended it (Art. 17c)
        east = match.seats.get(position=1)
        accepted = page.request.post(page.base_url + reverse("protocol:confirm", kwargs={
            "slug": match.club.slug, "pk": match.pk, "position": east.position}),
            form={"csrfmiddlewaretoken": token, "version": match.version}, max_redirects=0)
        assert accepted.status == 302 and Confirmation.objects.filter(match=match, seat=east).exists()
        page.goto("about:blank")  # the phone waits for the next round's card


def round_matches(season, number):
    return {m.table_number: m for m in Match.objects.filter(round__season=season, round__number=number)}


def create_partien(secretary, n):
    secretary.get_by_role("button", name=f"Die {n} Partien anlegen").click()
    secretary.get_by_text(f"{n} Partien angelegt").wait_for()


def repeated_pairs(season, number) -> int:
    """Pairs at one table of round ``number`` who sat together in an earlier round, from the seats."""
    tables = defaultdict(lambda: defaultdict(set))
    for round_number, table, member in TableSeat.objects.filter(round__season=season).values_list(
            "round__number", "table", "member"):
        tables[round_number][table].add(member)
    met = {frozenset(p) for r, ts in tables.items() if r < number for t in ts.values() for p in combinations(t, 2)}
    return sum(frozenset(p) in met for t in tables[number].values() for p in combinations(t, 2))


def board_of(page, season, number) -> str:
    round_pk = season.rounds.get(number=number).pk
    return page.base_url + reverse("round_board", kwargs={"slug": season.club.slug, "round_pk": round_pk})


def next_round(secretary, season, number, *, print_cards=True) -> tuple[dict, dict]:
    """"Nächste Runde auslosen" on the board of the round before (no tablemate again: the draw
    says so, and the seats show it), its Partien created, its cards printed (else their codes
    as the secretary would print them): the round's matches and card addresses by table."""
    secretary.goto(board_of(secretary, season, number - 1))
    secretary.get_by_role("button", name="Nächste Runde auslosen").click()
    message = secretary.get_by_text(re.compile(rf"Runde {number} ist ausgelost: 8 Tische"))
    message.wait_for()
    said = int(re.search(r"(\d+) Paare sitzen wieder zusammen", message.inner_text()).group(1))
    assert said == repeated_pairs(season, number) == 0
    assert len(round_matches(season, number)) == 0  # the Partien come with the next tap
    create_partien(secretary, 8)  # the drawn round opens on its seating plan
    matches = round_matches(season, number)
    if print_cards:
        return matches, printed_addresses(secretary, "Tischkarten (PDF)")
    issued = table_cards.cards_of(season.rounds.get(number=number), sorted(matches))
    return matches, {table: secretary.base_url + table_cards.path(table_cards.code_of(card)) for table, card in issued.items()}


def engine_standings(season) -> list[tuple[int, str, int, int]]:
    """(rank, name, Partien, points) by the rules engine run over each table's stored facts, best
    first; equal points share a rank."""
    points, played = defaultdict(int), defaultdict(int)
    for match in Match.objects.filter(season=season).exclude(status=Match.Status.ANNULLED):
        computed = evaluate(reading.document(match)).match
        assert computed.status == "finished"
        for name, total in computed.totals.items():
            points[name] += total
            played[name] += 1
    ordered = sorted(points, key=lambda name: (-points[name], name))
    return [(1 + sum(p > points[name] for p in points.values()), name, played[name], points[name]) for name in ordered]


# The rows of an HTML table as its headers name the cells, without the badges (every row: the live
# board hides those of its other pages).
READ_TABLE = """(selector) => {
  const table = document.querySelector(selector);
  const headers = [...table.tHead.rows[0].cells].map((cell) => cell.textContent.trim());
  return [...table.tBodies[0].rows].map((row) =>
    Object.fromEntries([...row.cells].map((cell, i) => {
      const text = cell.cloneNode(true);
      text.querySelectorAll('.badge').forEach((badge) => badge.remove());  // "Sie" beside the reader's name
      return [headers[i], text.textContent.trim()];
    })));
}"""


def read_table(page, selector) -> list[dict]:
    return page.evaluate(READ_TABLE, selector)


def whole(value) -> int:
    """A number as the pages print it ("1.234", "−90"), or as the workbook holds it."""
    return value if isinstance(value, int) else int(str(value).replace(".", "").replace("\u2212", "-"))


def ranking(rows, points="Punkte") -> list[tuple[int, str, int, int]]:
    """(rank, name, Partien, points) of a standings table's rows, in their order."""
    return [(whole(row.get("Platz", row.get("#"))), row.get("Mitglied", row.get("Name")), whole(row.get("Partien", 3)),
             whole(row[points])) for row in rows]


def accepted_at(season) -> dict[str, float]:
    """"round/table": when a player other than the table's Protokollant accepted its result."""
    return {f"{c.match.round.number}/{c.match.table_number}": c.at.timestamp()
            for c in Confirmation.objects.filter(match__season=season, seat__is_scorekeeper=False)
            .select_related("match__round")}


def counted_players(season) -> set[str]:
    return {row.member.name for row in standings(season.club, season)}


def test_a_tournament_day_of_eight_tables_and_three_rounds(browser, live_server, day, run_worker, axe_violations):
    SHOTS.mkdir(parents=True, exist_ok=True)
    season, club = day, day.club
    contexts = []

    def phone(**options):
        page = context_page(browser, live_server, **options)
        contexts.append(page.context)
        return page

    at_table = {}  # the phone at each table number, round after round

    def phone_at(number):
        return at_table.setdefault(number, phone())

    try:
        # -- At the door: the members present, two walk-in guests ---------------------------
        secretary = phone(axe=True)
        log_in(secretary, "schriftfuehrer", PASSWORD)
        secretary.goto(live_server.url + reverse("attendance", kwargs={"slug": club.slug, "season_pk": season.pk}))
        secretary.locator("input[name=present]").evaluate_all("(boxes) => boxes.forEach((box) => { box.checked = true; })")
        secretary.get_by_role("button", name="Anwesenheit speichern").click()
        secretary.get_by_text("30 Spieler sind für die nächste Runde anwesend.").wait_for()
        for guest in GUESTS:
            secretary.get_by_label("Name des Gastes").fill(guest)
            secretary.get_by_role("button", name="Gast anmelden").click()
            secretary.get_by_text(f"Gast „{guest}“ ist angemeldet und anwesend.").wait_for()
        assert set(Attendance.objects.filter(season=season, member__is_guest=True).values_list(
            "member__name", flat=True)) == set(GUESTS)
        assert Attendance.objects.filter(season=season).count() == 32
        assert sideways(secretary) <= 0 and axe_violations(secretary) == []

        # -- Round 1: drawn, its Partien created, the cards printed -------------------------
        secretary.get_by_role("button", name="Nächste Runde auslosen").click()
        secretary.get_by_text("Runde 1 ist ausgelost: 8 Tische").wait_for()
        create_partien(secretary, 8)  # on the round's seating plan, where the draw leads
        first = round_matches(season, 1)
        assert sorted(first) == list(range(1, 9))
        cards = printed_addresses(secretary, "Tischkarten (PDF)")
        assert sorted(cards) == list(range(1, 9)) and len(set(cards.values())) == 8
        assert secretary.get_by_role("link", name="Karte von Tisch 1 (PDF)").count() == 1
        assert secretary.get_by_role("link", name="Karte von Tisch 2 neu ausstellen").count() == 1

        # The live board on the hall's screen, in a browser of its own.
        board = phone(width=1280, height=720)
        board.goto(live_server.url + reverse("public_live", kwargs={"slug": club.slug, "season_pk": season.pk}))
        board.locator('[data-table="8"] [data-state="running"]').wait_for(state="attached")
        board.evaluate(WATCH_BOARD)

        # Table 8's phone opens its entry page with the network (its service worker keeps the
        # page and the engine): it loses the network later, while the other tables play.
        offline = phone(offline=True)
        offline.goto(cards[OFFLINE_TABLE])
        offline.goto(live_server.url + url(first[OFFLINE_TABLE], "game_new"))

        # Table 1: its card opens its Partie, and nothing else.
        table_one = phone(axe=True)
        table_one.goto(cards[1])
        assert table_one.url == live_server.url + first[1].get_absolute_url()
        assert "Tischkarte von Tisch 1, Runde 1" in table_one.locator(".messages, [role=status], main").first.inner_text()
        assert table_one.locator("script[data-user^='karte-']").count() == 1  # its pages kept for the table offline
        table_one.screenshot(path=str(SHOTS / "match-360.png"), full_page=True)
        assert axe_violations(table_one) == []
        enter_spiel(table_one, first[1], SCORES[1])
        east_accepts(table_one, first[1])
        refused = table_one.goto(live_server.url + first[2].get_absolute_url())
        assert refused.status == 403
        assert "Diese Tischkarte öffnet nur die Partie von Tisch 1 in Runde 1" in table_one.locator("main").inner_text()
        table_one.screenshot(path=str(SHOTS / "refused-360.png"), full_page=True)
        assert axe_violations(table_one) == [] and sideways(table_one) <= 0
        assert table_one.goto(live_server.url + club.get_absolute_url()).status == 403

        # Table 2: North enters, East accepts on his own phone (the same card).
        north = phone()
        north.goto(cards[TWO_PHONES])
        enter_spiel(north, first[TWO_PHONES], SCORES[TWO_PHONES])
        north.context.close()
        east = phone(axe=True)
        east.goto(cards[TWO_PHONES])
        notice = east.locator("[data-awaiting-agreement]")
        assert "wartet auf Bestätigung" in notice.inner_text()
        assert not set(seat_names(first[TWO_PHONES])) & counted_players(season)  # not counted yet
        east_accepts(east, first[TWO_PHONES])
        assert set(seat_names(first[TWO_PHONES])) <= counted_players(season)
        assert notice.count() == 0 and sideways(east) <= 0 and axe_violations(east) == []
        east.context.close()

        play_tables([(phone_at(n), cards[n], first[n], SCORES[n]) for n in range(3, 8)])

        # Table 8 loses the network: its Spiel waits on the phone, the board waits for it.
        open_ready(offline, live_server.url + url(first[OFFLINE_TABLE], "game_new"))
        go_offline(offline)
        enter_spiel(offline, first[OFFLINE_TABLE], SCORES[OFFLINE_TABLE], opened=True)
        wait_waiting(offline, 1)
        offline.reload()  # without network: the worker's copy of the page, kept for the card's phone
        offline.wait_for_function("() => document.documentElement.dataset.offlineReady === 'true'", timeout=SLOW)
        assert "1 Eintrag wartet auf Übertragung" in offline.locator("[data-offline-bar]").inner_text()
        assert not Event.objects.filter(match=first[OFFLINE_TABLE]).exists()
        secretary.goto(board_of(secretary, season, 1))
        states = secretary.locator(".board-table [data-state]")
        assert [s.get_attribute("data-state") for s in states.all()] == ["finished"] * 7 + ["running"]
        assert states.all_inner_texts() == ["beendet"] * 7 + ["läuft"]
        assert secretary.get_by_role("button", name="Nächste Runde auslosen").count() == 0  # table 8 still plays
        assert sideways(secretary) <= 0 and axe_violations(secretary) == []
        secretary.screenshot(path=str(SHOTS / "round-board-360.png"), full_page=True)

        offline.context.set_offline(False)
        wait_waiting(offline, 0)
        assert Event.objects.filter(match=first[OFFLINE_TABLE], kind="game").count() == 1
        offline.goto(live_server.url + first[OFFLINE_TABLE].get_absolute_url())
        east_accepts(offline, first[OFFLINE_TABLE])
        offline.context.close()

        # -- Round 1 closed: table 1's card stops working ------------------------------------
        secretary.reload()
        assert [s.get_attribute("data-state") for s in states.all()] == ["finished"] * 8
        secretary.goto(live_server.url + reverse("round_close", kwargs={"slug": club.slug, "round_pk": first[1].round_id}))
        secretary.get_by_role("button", name="Runde abschließen").click()
        secretary.get_by_text("Runde 1 ist abgeschlossen").wait_for()
        closed = table_one.goto(live_server.url + first[1].get_absolute_url())
        assert closed.status == 403 and "die Runde ist abgeschlossen" in table_one.locator("main").inner_text()
        assert table_one.goto(cards[1]).status == 403
        table_one.context.close()

        # -- Round 2: no one meets a tablemate again; table 3's card is reissued -------------
        second, cards = next_round(secretary, season, 2, print_cards=False)
        old = phone()
        old.goto(cards[REISSUED])
        assert old.url == live_server.url + second[REISSUED].get_absolute_url()
        secretary.get_by_role("link", name=f"Karte von Tisch {REISSUED} neu ausstellen").click()
        secretary.get_by_role("button", name="Karte neu ausstellen").click()
        secretary.get_by_text(f"Die Karte von Tisch {REISSUED} wurde neu ausgestellt").wait_for()
        assert old.goto(live_server.url + second[REISSUED].get_absolute_url()).status == 403
        assert "neu ausgestellt" in old.locator("main").inner_text()
        old.context.close()
        new_card = printed_addresses(secretary, f"Karte von Tisch {REISSUED} (PDF)")[REISSUED]
        assert new_card != cards[REISSUED]
        cards[REISSUED] = new_card
        play_tables([(phone_at(n), cards[n], second[n], turned(SCORES[n], 2)) for n in sorted(second)])

        # -- Round 3 -----------------------------------------------------------------------
        third, cards = next_round(secretary, season, 3, print_cards=False)
        play_tables([(phone_at(n), cards[n], third[n], turned(SCORES[n], 3)) for n in sorted(third)])

        # -- The final standings and the season workbook equal the engine's ------------------
        expected = engine_standings(season)
        assert len(expected) == 32 and {played for _, _, played, _ in expected} == {3}
        secretary.goto(live_server.url + reverse("tournament", kwargs={"slug": club.slug, "season_pk": season.pk}))
        assert ranking(read_table(secretary, "#table-title ~ div table, #table-title ~ table")) == expected
        secretary.get_by_role("button", name="Saison exportieren (.xlsx)").click()
        secretary.wait_for_url("**/auftrag/*/")
        run_worker()
        secretary.reload()
        link = secretary.get_by_role("link", name=re.compile("herunterladen"))
        workbook = secretary.request.get(live_server.url + link.get_attribute("href"))
        header, *body = openpyxl.load_workbook(io.BytesIO(workbook.body()))["Tabelle"].iter_rows(values_only=True)
        assert ranking([dict(zip(header, row, strict=True)) for row in body if row[1]]) == expected

        # The live board showed each result within seconds of its acceptance.
        board.wait_for_function("() => Object.keys(window.shownAt).length === 24", timeout=WITHIN_SECONDS * 1000)
        shown_at = board.evaluate("() => window.shownAt")
        assert len(accepted_at(season)) == 24  # every table's result accepted by a second player
        late = {key: round(shown_at[key] / 1000 - at, 1) for key, at in accepted_at(season).items()
                if not 0 < shown_at[key] / 1000 - at <= WITHIN_SECONDS}
        assert late == {}, late
        assert ranking(read_table(board, ".live__standings table"), points="Punkte") == expected
        assert board.problems == []
    finally:
        for context in contexts:
            context.close()
