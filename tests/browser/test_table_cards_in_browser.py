"""The table cards of a tournament round in a real browser: the secretary prints them, a player
at table 1 opens the address printed on its card on a phone that never logged in, enters a
Spiel and ends the Partie, a second phone at the table (the same card) confirms the result; the
card refuses table 2's Partie. The card's pages at 360 px are kept as screenshots in /tmp and
checked by axe. A card's phone keeps entering without network, reloads its page from the
service worker and hands the Spiel over when the network returns."""

import datetime
import re
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

from league.models import Member, Round, Season
from league.tournaments import cards
from league.tournaments.rounds import draw_round
from protocol import matches
from protocol.models import Confirmation, Event
from tests.browser.conftest import log_in
from tests.browser.offline import QUIET, go_offline, open_ready, save_offline, type_spiel, url, wait_waiting
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/table-cards")
NAMES = ["Brigitte", "Achim", "Dagmar", "Egon", "Frieda", "Gerd", "Hanne"]


@pytest.fixture
def round_of_two_tables(club, secretary, member_user):
    """Round 1 of a Doppelkopf tournament of eight, drawn to two tables, their matches created."""
    today = datetime.date.today()
    players = [Member.objects.get(club=club, name="Anna")] + [Member.objects.create(club=club, name=n) for n in NAMES]
    season = Season.objects.create(club=club, name="Vereinsturnier", start=today, end=today, mode="tournament",
                                   ruleset="doppelkopf", game_settings={"rules": "tcg"}, ranking_rule="tcg")
    round_ = Round.objects.create(season=season, number=1, date=today, seed=7, created_by=secretary)
    for number, table in enumerate(draw_round(round_, players), start=1):
        matches.create_match(club=club, date=today, members=table, scorekeeper=table[0], settings={"rules": "tcg"},
                             season=season, ruleset="doppelkopf", user=secretary, round=round_, table_number=number)
    return round_


def phone_context(browser, live_server):
    context = browser.new_context(viewport={"width": 360, "height": 780}, locale="de-DE", has_touch=True,
                                  bypass_csp=True)  # axe is injected
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.base_url = live_server.url
    return context, page


def card_addresses(pdf: bytes) -> list[str]:
    """The short addresses printed on the cards, in order."""
    text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    return re.findall(r"\S+/t/[0-9A-Z]{5}-[0-9A-Z]{5}/", text)


def test_a_table_enters_and_confirms_from_its_printed_card_without_an_account(browser, live_server, round_of_two_tables,
                                                                              axe_violations):
    SHOTS.mkdir(parents=True, exist_ok=True)
    round_ = round_of_two_tables
    one, two = (round_.matches.get(table_number=n) for n in (1, 2))

    # The secretary prints the round's cards from its page.
    secretary_context, secretary = phone_context(browser, live_server)
    log_in(secretary, "schriftfuehrer", PASSWORD)
    secretary.goto(live_server.url + round_.get_absolute_url())
    link = secretary.get_by_role("link", name="Tischkarten (PDF)")
    pdf = secretary.request.get(live_server.url + link.get_attribute("href"))
    assert pdf.status == 200 and pdf.headers["content-type"] == "application/pdf"
    addresses = card_addresses(pdf.body())
    assert len(addresses) == 2
    table_one_card = "http://" + addresses[0]  # printed without its scheme; the test server speaks http
    assert secretary.get_by_role("link", name="Karte von Tisch 1 (PDF)").count() == 1
    assert secretary.get_by_role("link", name="Karte von Tisch 2 neu ausstellen").count() == 1

    # A player of table 1 types the card's address on a phone that never logged in.
    player_context, player = phone_context(browser, live_server)
    player.goto(table_one_card)
    assert player.url == live_server.url + one.get_absolute_url()
    assert "Tischkarte von Tisch 1, Runde 1" in player.locator(".messages, [role=status], main").first.inner_text()
    assert player.locator("script[data-user^='karte-']").count() == 1  # its pages kept for the table offline
    player.screenshot(path=str(SHOTS / "match-360.png"), full_page=True)
    assert axe_violations(player) == []
    player.goto(live_server.url + reverse("protocol:game_new", kwargs={"slug": one.club.slug, "pk": one.pk}))
    names = [seat.name for seat in one.seats.all()]
    for name in names[:2]:
        player.locator("label.chip", has_text=name).click()
    player.locator("input[name=re_points]").fill("121")
    player.screenshot(path=str(SHOTS / "game-360.png"), full_page=True)
    player.get_by_role("button", name="Spiel speichern").click()
    player.wait_for_url(live_server.url + one.get_absolute_url())
    assert Event.objects.filter(match=one, kind="game").count() == 1

    # The table ends its Partie (the round's games are played).
    player.goto(live_server.url + reverse("protocol:end", kwargs={"slug": one.club.slug, "pk": one.pk}))
    player.locator("input[name=reason][value=games]").check()
    player.get_by_role("button", name="Partie beenden").click()
    player.wait_for_url(live_server.url + one.get_absolute_url())
    one.refresh_from_db()
    assert one.status == "finished"

    # A second phone at the table opens the same card and confirms for its player.
    second_context, second = phone_context(browser, live_server)
    second.goto(table_one_card)
    second.get_by_role("button", name=f"{names[1]} bestätigt das Ergebnis").click()
    second.wait_for_url(re.compile(r".*/partien/\d+/(#signatures)?$"))
    assert Confirmation.objects.filter(match=one, seat__name=names[1]).count() == 1
    second.screenshot(path=str(SHOTS / "confirmed-360.png"), full_page=True)

    # The card of table 1 does not open table 2's Partie, nor the club.
    refused = player.goto(live_server.url + two.get_absolute_url())
    assert refused.status == 403
    assert "Diese Tischkarte öffnet nur die Partie von Tisch 1 in Runde 1" in player.locator("main").inner_text()
    player.screenshot(path=str(SHOTS / "refused-360.png"), full_page=True)
    assert axe_violations(player) == []
    assert player.goto(live_server.url + one.club.get_absolute_url()).status == 403
    width = player.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 360
    for context in (secretary_context, player_context, second_context):
        context.close()


@pytest.fixture
def chaotentrumpf_table(club, secretary, member_user, scorekeeper):
    """Table 1 of a Chaotentrumpf tournament round: Anna, Bernd, Carla and Dieter, its match created."""
    today = datetime.date.today()
    members = {m.name: m for m in club.members.all()}
    for name in ("Carla", "Dieter"):
        members[name] = Member.objects.create(club=club, name=name)
    season = Season.objects.create(club=club, name="Pokalabend", start=today, end=today, mode="tournament",
                                   ruleset="chaotentrumpf", ranking_rule="total")
    round_ = Round.objects.create(season=season, number=1, date=today, seed=3, created_by=secretary)
    table = [members[n] for n in ("Anna", "Bernd", "Carla", "Dieter")]
    return matches.create_match(club=club, date=today, members=table, scorekeeper=table[0], settings={},
                                season=season, ruleset="chaotentrumpf", user=secretary, round=round_, table_number=1)


def test_a_card_keeps_the_table_entering_offline_and_hands_over_when_the_network_returns(phone, chaotentrumpf_table):
    match = chaotentrumpf_table
    card = cards.cards_of(match.round, [1])[1]
    phone.goto(phone.base_url + cards.path(cards.code_of(card)))  # no login: the card alone
    assert phone.url == phone.base_url + match.get_absolute_url()
    open_ready(phone, url(phone, match, "spiel/"))
    go_offline(phone)
    type_spiel(phone, QUIET, trump="colour:rot")
    save_offline(phone, 1)
    phone.reload()  # without network: the worker's copy of the page, kept for the card's phone
    phone.wait_for_function("() => document.documentElement.dataset.offlineReady === 'true'", timeout=120_000)
    assert "1 Eintrag wartet auf Übertragung" in phone.locator("[data-offline-bar]").inner_text()
    assert not Event.objects.filter(match=match).exists()
    phone.context.set_offline(False)
    wait_waiting(phone, 0)
    assert Event.objects.filter(match=match, kind="game").count() == 1
