"""Table cards (league.tournaments.cards, card_access, card_pages): a tournament table's card opens
that table's Partie on a phone without an account, for its entries and confirmations, until the
round is closed or the card reissued; nowhere else.

Personas: the secretary Sabine prints and reissues the cards; ``table_one`` and ``table_two`` are
phones at the tables that opened nothing but their card (anonymous clients); Anna (member_user) is
a signed-in member who also opens a card.
"""

import re
import shutil
import subprocess

import pytest
import segno
from django.test import Client
from django.urls import reverse

from league.models import Member, Season, TableCard
from league.registry.qr import qr_svg
from league.tournaments import cards
from league.tournaments.card_pages import printed_cards
from league.tournaments.rounds import round_tables, seating_of
from protocol.models import Change, Confirmation, Event
from tests.conftest import saved
from tests.integration.doppelkopf import dk_post
from tests.integration.pages import url
from tests.integration.phones import hand_over
from tests.integration.tournament_day import DAY, NAMES, eight_at_two_tables


@pytest.fixture
def tournament(secretary_client, club, member_user):
    """A Doppelkopf tournament (TCG) of eight: round 1 drawn to two tables, their matches created."""
    return eight_at_two_tables(secretary_client, club)


def card_url(tournament, table):
    """The address printed on the card of ``table`` (the cards issued as the secretary prints them)."""
    round_ = tournament["round"]
    card = cards.cards_of(round_, [table])[table]
    return cards.path(cards.code_of(card))


def phone_with_card(tournament, table):
    phone = Client()
    response = phone.get(card_url(tournament, table))
    assert response.status_code == 302, response.content.decode()
    assert response["Location"] == tournament["matches"][table].get_absolute_url()
    return phone


def game(match):
    """The Doppelkopf Spiel form of the match's table, Re won by its first two seats."""
    match.refresh_from_db()
    names = [s.name for s in match.seats.all()]
    return dk_post(match, dealer=names[0], re=names[:2], re_points=121)


def finish(phone, match):
    assert saved(phone.post(url(match, "game_new"), game(match)), match)
    match.refresh_from_db()
    assert phone.post(url(match, "end"), {"reason": "games", "version": match.version}).status_code == 302
    match.refresh_from_db()
    assert match.status == "finished"


def test_a_card_opens_its_tables_match_and_its_entry_without_an_account(tournament):
    table_one = phone_with_card(tournament, 1)
    match = tournament["matches"][1]
    page = table_one.get(match.get_absolute_url())
    assert page.status_code == 200
    assert url(match, "game_new") in page.content.decode()  # the entry buttons of the Protokollant
    assert "export.xlsx" not in page.content.decode()  # the club's spreadsheet is the members'
    assert table_one.get(url(match, "game_new")).status_code == 200
    assert table_one.get(url(match, "sanction_new")).status_code == 200
    answer = table_one.post(url(match, "game_new"), game(match))
    assert saved(answer, match) and Event.objects.filter(match=match, kind="game").count() == 1
    change = Change.objects.get(match=match, action="add")
    assert change.user is None  # no account: the table's card


def test_a_card_refuses_the_other_table_the_club_and_the_secretarys_pages(tournament, club, secretary_client):
    table_one = phone_with_card(tournament, 1)
    one, two = tournament["matches"][1], tournament["matches"][2]
    refused = [
        two.get_absolute_url(), url(two, "game_new"), url(two, "history"),
        reverse("club", kwargs={"slug": club.slug}),
        reverse("standings", kwargs={"slug": club.slug}),
        reverse("tournament", kwargs={"slug": club.slug, "season_pk": tournament["season"].pk}),
        reverse("round", kwargs={"slug": club.slug, "round_pk": tournament["round"].pk}),
        reverse("round_cards_pdf", kwargs={"slug": club.slug, "round_pk": tournament["round"].pk}),
        reverse("club_members", kwargs={"slug": club.slug}),
        reverse("club_settings", kwargs={"slug": club.slug}),
        url(one, "settings"), url(one, "annul"),
    ]
    for address in refused:
        response = table_one.get(address)
        assert response.status_code == 403, address
        assert "Diese Tischkarte öffnet nur die Partie von Tisch 1 in Runde 1" in response.content.decode(), address
    assert table_one.post(url(two, "game_new"), game(two)).status_code == 403
    assert table_one.post(url(one, "annul"), {"reason": "x", "version": one.version}).status_code == 403
    assert not Event.objects.filter(match=two).exists() and one.status == "running"
    admin = table_one.get("/admin/")
    assert admin.status_code == 302 and "/admin/login/" in admin["Location"]  # Django's admin: its own login
    sync = hand_over(table_one, two, kind="game", body={"type": "normal"})
    assert sync.status_code == 403 and "Tisch 1" in sync.json()["message"]


def test_a_reissued_card_stops_working_and_the_new_one_works(tournament, club, secretary_client):
    old_address = card_url(tournament, 1)
    table_one = phone_with_card(tournament, 1)
    match = tournament["matches"][1]
    page = secretary_client.get(reverse("table_card_reissue", kwargs={"slug": club.slug, "round_pk": tournament["round"].pk,
                                                                       "table": 1}))
    assert page.status_code == 200 and "Karte von Tisch 1 neu ausstellen" in page.content.decode()
    secretary_client.post(reverse("table_card_reissue", kwargs={"slug": club.slug, "round_pk": tournament["round"].pk,
                                                                "table": 1}))
    refused = table_one.get(match.get_absolute_url())  # the phone that opened the old card
    assert refused.status_code == 403
    assert "Diese Tischkarte gilt nicht mehr: sie wurde neu ausgestellt" in refused.content.decode()
    assert table_one.post(url(match, "game_new"), game(match)).status_code == 403
    again = Client().get(old_address)
    assert again.status_code == 403 and "wurde neu ausgestellt" in again.content.decode()
    new_address = card_url(tournament, 1)
    assert new_address != old_address
    assert TableCard.objects.get(round=tournament["round"], table=1, replaced_at=None).generation == 2
    fresh = phone_with_card(tournament, 1)
    assert saved(fresh.post(url(match, "game_new"), game(match)), match)
    plan = secretary_client.get(tournament["round"].get_absolute_url()).content.decode()
    assert "neu ausgestellt: Ausgabe 2" in plan


def test_a_closed_rounds_card_stops_working(tournament, club, secretary_client):
    table_one = phone_with_card(tournament, 1)
    match = tournament["matches"][1]
    close = reverse("round_close", kwargs={"slug": club.slug, "round_pk": tournament["round"].pk})
    page = secretary_client.get(close).content.decode()
    assert "Tische 1, 2 spielen noch" in page
    assert secretary_client.post(close).status_code == 302
    for response in (table_one.get(match.get_absolute_url()), Client().get(card_url(tournament, 1))):
        assert response.status_code == 403
        assert "Diese Tischkarte gilt nicht mehr: die Runde ist abgeschlossen" in response.content.decode()
    sync = hand_over(table_one, match, kind="game", body={"type": "normal"})
    assert sync.status_code == 403 and "abgeschlossen" in sync.json()["message"]
    assert secretary_client.get(match.get_absolute_url()).status_code == 200  # the secretary keeps his rights
    plan = secretary_client.get(tournament["round"].get_absolute_url()).content.decode()
    assert "abgeschlossen</span>" in plan and "Tischkarten (PDF)" not in plan
    listed = secretary_client.get(reverse("tournament", kwargs={"slug": club.slug, "season_pk": tournament["season"].pk}))
    assert "abgeschlossen</span>" in listed.content.decode()


@pytest.mark.parametrize("typed", ["K7M2X-Q9PTA", "0000000000", "abc", "K7M2X-Q9PTA-K7M2X", "%00"])
def test_a_forged_or_mistyped_code_is_no_card(tournament, typed):
    response = Client().get(f"/t/{typed}/")
    assert response.status_code == 404
    assert "Diese Tischkarte gibt es nicht" in response.content.decode()


def test_a_tampered_code_is_no_card_and_opens_nothing(tournament):
    real = cards.code_of(cards.cards_of(tournament["round"], [1])[1])
    tampered = real[:-1] + ("0" if real[-1] != "0" else "1")
    phone = Client()
    assert phone.get(f"/t/{tampered}/").status_code == 404
    assert phone.get(tournament["matches"][1].get_absolute_url()).status_code == 302  # the login: no card held


def test_the_code_is_forgiving_as_typed(tournament):
    real = cards.code_of(cards.cards_of(tournament["round"], [2])[2])
    typed = real.lower().replace("0", "o").replace("1", "l")
    response = Client().get(f"/t/{typed}/")
    assert response.status_code == 302 and response["Location"] == tournament["matches"][2].get_absolute_url()


def test_a_signed_in_member_with_a_card_keeps_his_own_rights(tournament, club, member_client):
    anna = Member.objects.get(club=club, name="Anna")
    own_table = next(t for t, m in tournament["matches"].items() if m.seats.filter(member=anna).exists())
    other = 2 if own_table == 1 else 1
    response = member_client.get(card_url(tournament, other))
    assert response.status_code == 302
    assert member_client.get(reverse("club", kwargs={"slug": club.slug})).status_code == 200  # a member reads the club
    match = tournament["matches"][other]
    assert saved(member_client.post(url(match, "game_new"), game(match)), match)  # the card's table
    mine = tournament["matches"][own_table]
    assert member_client.get(mine.get_absolute_url()).status_code == 200  # read as a member
    keeps_it = mine.scorekeeper_seat.member == anna  # North of the draw keeps the sheet
    assert member_client.get(url(mine, "game_new")).status_code == (200 if keeps_it else 403)  # as without the card
    assert member_client.get(url(match, "settings")).status_code == 403  # the card gives no more than a table


def test_the_cards_session_saves_a_spiel_through_the_sync_endpoint(tournament):
    table_two = phone_with_card(tournament, 2)
    match = tournament["matches"][2]
    names = [s.name for s in match.seats.all()]
    body = {"type": "normal", "dealer": names[0], "re": names[:2], "re_points": 121}
    answer = hand_over(table_two, match, kind="game", body=body)
    assert answer.status_code == 201, answer.content
    assert Event.objects.filter(match=match, kind="game").count() == 1
    state = table_two.get(reverse("protocol:entries_sync", kwargs={"slug": match.club.slug, "pk": match.pk}))
    assert state.status_code == 200 and state.json()["version"] == answer.json()["version"]


def test_the_tables_phone_confirms_each_seat_and_the_history_says_so(tournament):
    table_one = phone_with_card(tournament, 1)
    match = tournament["matches"][1]
    finish(table_one, match)
    page = table_one.get(match.get_absolute_url()).content.decode()
    seats = list(match.seats.all())
    for seat in seats:
        assert f"{seat.name} bestätigt das Ergebnis" in page
    second = phone_with_card(tournament, 1)  # another player's phone at the same table
    response = second.post(url(match, "confirm", position=seats[1].position), {"version": match.version})
    assert response.status_code == 302
    given = Confirmation.objects.get(match=match)
    assert given.seat == seats[1] and given.by is None
    signed = second.get(match.get_absolute_url()).content.decode()
    assert "auf dem Gerät mit der Tischkarte" in signed and "Telefon des Protokollanten" not in signed
    history = second.get(url(match, "history")).content.decode()
    assert f"{seats[1].name} hat das Ergebnis bestätigt (auf dem Gerät mit der Tischkarte)" in history
    other = tournament["matches"][2]
    assert second.post(url(other, "confirm", position=0), {"version": other.version}).status_code == 403


def test_a_finished_tables_card_records_nothing_more(tournament):
    table_one = phone_with_card(tournament, 1)
    match = tournament["matches"][1]
    finish(table_one, match)
    assert table_one.post(url(match, "game_new"), game(match)).status_code == 403
    assert Event.objects.filter(match=match, kind="game").count() == 1


def one_table_drawn(secretary_client, club):
    """A tournament evening of four, drawn to one table, its match not created yet."""
    players = [Member.objects.get(club=club, name="Anna")] + [Member.objects.create(club=club, name=n) for n in NAMES[:3]]
    season = Season.objects.create(club=club, name="Abend", start=DAY, end=DAY, mode="tournament", ruleset="doppelkopf",
                                   game_settings={"rules": "tcg"}, ranking_rule="tcg")
    secretary_client.post(reverse("round_new", kwargs={"slug": club.slug, "season_pk": season.pk}),
                          {"date": DAY.isoformat(), "players": [m.pk for m in players]})
    return season.rounds.get()


def test_a_card_before_the_matches_waits_for_them(secretary_client, club, member_user):
    round_ = one_table_drawn(secretary_client, club)
    address = cards.path(cards.code_of(cards.cards_of(round_, [1])[1]))
    phone = Client()
    waiting = phone.get(address)
    assert waiting.status_code == 200 and "noch nicht angelegt" in waiting.content.decode()
    secretary_client.post(reverse("round_start", kwargs={"slug": club.slug, "round_pk": round_.pk}))
    assert phone.get(address)["Location"] == round_.matches.get().get_absolute_url()


def test_only_the_secretary_prints_and_reissues_cards(tournament, club, member_client, client):
    round_ = tournament["round"]
    addresses = [reverse("round_cards_pdf", kwargs={"slug": club.slug, "round_pk": round_.pk}),
                 reverse("table_card_pdf", kwargs={"slug": club.slug, "round_pk": round_.pk, "table": 1}),
                 reverse("table_card_reissue", kwargs={"slug": club.slug, "round_pk": round_.pk, "table": 1}),
                 reverse("round_close", kwargs={"slug": club.slug, "round_pk": round_.pk})]
    for address in addresses:
        assert member_client.get(address).status_code == 403
        assert member_client.post(address).status_code in (403, 405)
        assert "/konto/login/" in client.get(address)["Location"]
    assert not TableCard.objects.exists() and round_.closed_at is None


# -- the printed cards ------------------------------------------------------------------------

def pdf_text(data: bytes) -> str:
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=data, capture_output=True, check=True).stdout.decode()


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)")
def test_the_cards_print_with_table_players_and_address(tournament, club, secretary_client):
    round_ = tournament["round"]
    sheet = secretary_client.get(reverse("round_cards_pdf", kwargs={"slug": club.slug, "round_pk": round_.pk}))
    assert sheet.status_code == 200 and sheet["Content-Type"] == "application/pdf"
    assert sheet["Cache-Control"] == "private, no-store"
    text = pdf_text(sheet.content)
    for table, match in tournament["matches"].items():
        code = cards.code_of(TableCard.objects.get(round=round_, table=table, replaced_at=None))
        assert f"Tisch {table}" in text
        assert cards.shown(code) in text  # the code to type
        assert f"testserver/t/{cards.shown(code)}/" in text  # the short address
        for seat in match.seats.all():
            assert seat.name in text
    one = secretary_client.get(reverse("table_card_pdf", kwargs={"slug": club.slug, "round_pk": round_.pk, "table": 2}))
    text = pdf_text(one.content)
    assert "Tisch 2" in text and "Tisch 1" not in text
    assert TableCard.objects.filter(round=round_).count() == 2  # printing again issues nothing new


def test_the_qr_code_holds_the_cards_exact_address(tournament, rf):
    round_ = tournament["round"]
    (printed,) = printed_cards(round_, [t for t in round_tables(round_) if t.number == 1], "https://turnier.example")
    assert printed.url == f"https://turnier.example/t/{cards.shown(printed.code)}/"
    assert cards.find(printed.url.rsplit("/t/", 1)[1].strip("/")).card == printed.card
    # The SVG's modules are the QR code of that address and of no other (segno's own matrix).
    expected = segno.make(printed.url, error="m", micro=False)
    assert printed.qr == qr_svg(printed.url, "QR-Code der Karte von Tisch 1")
    drawn = _dark_modules(printed.qr)
    assert drawn == {(x, y) for y, row in enumerate(expected.matrix) for x, bit in enumerate(row) if bit}
    other = segno.make(printed.url.replace(printed.code[:5], "ZZZZZ"), error="m", micro=False)
    assert drawn != {(x, y) for y, row in enumerate(other.matrix) for x, bit in enumerate(row) if bit}


def _dark_modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules the SVG's path draws (segno writes rows of horizontal runs: ``M x y hN``
    moves, relative ``m`` moves, ``h`` runs), in the code's own coordinates (the border of 4 off)."""
    path = re.search(r'stroke="#000" d="([^"]+)"', svg).group(1)
    x = y = 0.0
    dark = set()
    for command, value in re.findall(r"([MmHhVv])\s*(-?[0-9.]+(?:[ ,]-?[0-9.]+)?)", path):
        numbers = [float(n) for n in re.split(r"[ ,]", value)]
        if command == "M":
            x, y = numbers
        elif command == "m":
            x, y = x + numbers[0], y + numbers[1]
        elif command == "h":
            for i in range(int(numbers[0])):
                dark.add((int(x) + i - 4, int(y - 0.5) - 4))
            x += numbers[0]
    return dark


def test_a_new_draw_withdraws_the_cards_printed_for_the_old_one(secretary_client, club, member_user):
    round_ = one_table_drawn(secretary_client, club)
    old = cards.path(cards.code_of(cards.cards_of(round_, [1])[1]))
    before = seating_of(round_)
    for _ in range(10):  # one table of four: a random draw seats them as before once in 24 (the cards hold then)
        secretary_client.post(reverse("round_redraw", kwargs={"slug": club.slug, "round_pk": round_.pk}))
        if seating_of(round_) != before:
            break
    response = Client().get(old)
    assert response.status_code == 403 and "wurde neu ausgestellt" in response.content.decode()
    new = cards.cards_of(round_, [1])[1]
    assert new.generation == 2 and Client().get(cards.path(cards.code_of(new))).status_code == 200


def test_a_confirmation_on_a_signed_in_members_phone_with_the_card_names_his_account(tournament, club,
                                                                                      member_client):
    """Anna, signed in, opened the card of the table she does not play at and lets a player
    there confirm on her phone: the signatures say whose phone it was."""
    anna = Member.objects.get(club=club, name="Anna")
    table = next(t for t, m in tournament["matches"].items() if not m.seats.filter(member=anna).exists())
    match = tournament["matches"][table]
    finish(phone_with_card(tournament, table), match)
    assert member_client.get(card_url(tournament, table)).status_code == 302
    seat = match.seats.all()[1]
    response = member_client.post(url(match, "confirm", position=seat.position), {"version": match.version})
    assert response.status_code == 302
    page = member_client.get(match.get_absolute_url()).content.decode()
    assert "auf dem Telefon von Anna" in page


def test_a_cards_login_link_in_a_saves_answer_comes_back_to_the_match_page(tournament):
    """The match page a save answers with is shown at its own address: the login link of the
    card's holder (no account) comes back to it, not to the Spiel form that was sent."""
    phone = phone_with_card(tournament, 1)
    match = tournament["matches"][1]
    response = phone.post(url(match, "game_new"), game(match))
    assert saved(response, match)
    login = re.search(r'href="(/konto/login/[^"]*)"', response.content.decode()).group(1)
    assert login.endswith("?next=" + match.get_absolute_url())
