"""What a table's phone says of its offline queue (protocol.queue_report): the requests it makes
anyway (the state poll of the match page, the queue's hand-over, the live preview) carry how many
entries still wait on it, and the secretary Sabine reads on the round board "3 Einträge warten
auf Übertragung" and when the phone said so; the live board shows that the table waits to send.

Personas: table 1's phone holds its card (no account); Anna is a member who follows a table where she
does not keep the protocol; table 2's phone holds table 2's card.
"""

import datetime
import json
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from freezegun import freeze_time

from league.tournaments import cards
from protocol.models import Match
from protocol.queue_report import FRESH
from tests.integration.pages import url
from tests.integration.tournament_day import eight_at_two_tables

HEADER = "HTTP_X_TRUMPFBUCH_WAITING"


@pytest.fixture
def tournament(secretary_client, club, member_user):
    club.published = True
    club.save(update_fields=["published"])
    return eight_at_two_tables(secretary_client, club)


def card_phone(tournament, table):
    """A browser that opened table ``table``'s card (its session holds the card)."""
    card = cards.cards_of(tournament["round"], [table])[table]
    phone = Client()
    assert phone.get(cards.path(cards.code_of(card))).status_code == 302
    return phone


def poll(client, match, waiting=None, **headers):
    if waiting is not None:
        headers[HEADER] = waiting
    return client.get(url(match, "sheet"), **headers)


def kept(match):
    match = Match.objects.get(pk=match.pk)
    return match.queue_waiting, match.queue_reported_at


def board(client, tournament, language="de"):
    response = client.get(reverse("round_board", kwargs={"slug": tournament["season"].club.slug,
                                                         "round_pk": tournament["round"].pk}),
                          HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def table_item(page, table):
    """The board's list item of ``table``."""
    start = page.index(f"Tisch {table}" if "Tisch" in page else f"Table {table}")
    return page[start:page.index("</li>", start)]


def sync_post(client, match, waiting, **payload):
    """The queue's hand-over of one entry, saying how many wait behind it."""
    sync = reverse("protocol:entries_sync", kwargs={"slug": match.club.slug, "pk": match.pk})
    match.refresh_from_db()
    payload = {"version": match.version, "submission": str(uuid.uuid4()), "position": match.events.count()} | payload
    return client.post(sync, json.dumps(payload), content_type="application/json", **{HEADER: waiting})


def test_the_board_says_how_many_entries_wait_on_a_tables_phone_and_since_when(tournament, secretary_client):
    match = tournament["matches"][1]
    phone = card_phone(tournament, 1)
    page = board(secretary_client, tournament)
    assert "warten auf Übertragung" not in page and "Zuletzt gemeldet" not in page  # nothing said yet

    assert poll(phone, match, "3").status_code == 200
    assert kept(match)[0] == 3
    item = table_item(board(secretary_client, tournament), 1)
    assert 'data-queue-waiting="3"' in item and "3 Einträge warten auf Übertragung." in item
    assert "Zuletzt gemeldet: gerade eben." in item
    assert "warten auf Übertragung" not in table_item(board(secretary_client, tournament), 2)

    with freeze_time(timezone.now() + datetime.timedelta(minutes=2, seconds=5)):
        item = table_item(board(secretary_client, tournament), 1)
        assert "3 Einträge warten auf Übertragung." in item and "Zuletzt gemeldet vor 2 Min." in item
        english = table_item(board(secretary_client, tournament, "en"), 1)
        assert "3 entries wait to be sent." in english and "Its phone last reported 2 min. ago." in english

    assert poll(phone, match, "1").status_code == 200
    assert "1 Eintrag wartet auf Übertragung." in table_item(board(secretary_client, tournament), 1)
    assert "1 entry waits to be sent." in table_item(board(secretary_client, tournament, "en"), 1)


def test_the_hand_over_says_what_waits_behind_each_entry_and_ends_at_zero(tournament, secretary_client):
    match = tournament["matches"][1]
    phone = card_phone(tournament, 1)
    sync = reverse("protocol:entries_sync", kwargs={"slug": match.club.slug, "pk": match.pk})
    # Back online, the phone first asks what was stored meanwhile: its two entries wait.
    assert phone.get(f"{sync}?seit=0", **{HEADER: "2"}).status_code == 200
    assert kept(match)[0] == 2
    names = [seat.name for seat in match.seats.all()]
    game = {"type": "normal", "dealer": names[0], "re": names[:2], "re_points": 121}
    assert sync_post(phone, match, "1", kind="game", body=game).status_code == 201
    assert kept(match)[0] == 1
    assert sync_post(phone, match, "0", kind="game", body=game | {"dealer": names[1]}).status_code == 201
    assert kept(match)[0] == 0
    page = board(secretary_client, tournament)
    assert "warten auf Übertragung" not in page and "wartet auf Übertragung" not in page
    assert "Zuletzt gemeldet: gerade eben." in table_item(page, 1)


@pytest.mark.parametrize("bad", ["-1", "abc", "3.5", "1e3", "0x10", "", " ", "99999", "١٢", "３", "2, 3"])
def test_a_header_that_is_no_small_whole_number_is_ignored(tournament, bad):
    match = tournament["matches"][1]
    phone = card_phone(tournament, 1)
    assert poll(phone, match, "2").status_code == 200
    before = kept(match)
    first = poll(phone, match, bad)
    assert first.status_code == 200
    assert poll(phone, match, bad, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    sync = reverse("protocol:entries_sync", kwargs={"slug": match.club.slug, "pk": match.pk})
    assert phone.get(sync, **{HEADER: bad}).status_code == 200
    assert sync_post(phone, match, bad, kind="game", body={}).status_code == 422  # the engine's refusal, no 500
    assert kept(match) == before


def test_an_unchanged_count_is_written_once_a_minute_not_per_poll(tournament):
    match = tournament["matches"][1]
    phone = card_phone(tournament, 1)
    first = poll(phone, match, "3")
    _, said = kept(match)
    with CaptureQueriesContext(connection) as seen:
        assert poll(phone, match, "3", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert not [q for q in seen.captured_queries if q["sql"].startswith("UPDATE")]
    assert kept(match) == (3, said)
    with freeze_time(said + FRESH + datetime.timedelta(seconds=1)):
        assert poll(phone, match, "3", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304  # the state is the same
        assert kept(match)[1] > said  # "zuletzt gemeldet" moves on
    assert poll(phone, match, "4", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert kept(match)[0] == 4  # a new count at once


def test_only_who_records_at_the_table_is_heard(tournament, member_client, secretary_client):
    # The draw is random and each table's first seat keeps its protocol: Anna follows a table
    # where she is not the Protokollant, so she records nothing there.
    table = next(t for t, m in tournament["matches"].items()
                 if not m.seats.filter(is_scorekeeper=True, member__name="Anna").exists())
    match, other = tournament["matches"][table], 3 - table
    assert poll(member_client, match, "5").status_code == 200
    assert kept(match) == (0, None)
    assert poll(card_phone(tournament, other), match, "5").status_code == 403  # the other table's card
    assert kept(match) == (0, None)
    assert poll(secretary_client, match, "5").status_code == 200  # Sabine may record at every table
    assert kept(match)[0] == 5


def test_the_live_board_shows_which_table_waits_to_send(tournament, client, club):
    season, match = tournament["season"], tournament["matches"][2]
    live = reverse("public_live_board", kwargs={"slug": club.slug, "season_pk": season.pk})
    seen = client.get(live)
    assert "warten auf Übertragung" not in seen.content.decode()
    phone = card_phone(tournament, 2)
    poll(phone, match, "4")
    changed = client.get(live, HTTP_IF_NONE_MATCH=seen["ETag"])
    assert changed.status_code == 200, "the board must show the waiting table"
    page = changed.content.decode()
    start = page.index('data-table="2"')
    assert 'data-queue-waiting="4"' in page[start:] and "4 Einträge warten auf Übertragung." in page[start:]
    assert 'data-queue-waiting' not in page[page.index('data-table="1"'):start]
    with freeze_time(timezone.now() + FRESH * 2):  # the same count said again later: the same board
        poll(phone, match, "4")
        assert client.get(live, HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 304
    poll(phone, match, "0")  # handed over
    after = client.get(live, HTTP_IF_NONE_MATCH=changed["ETag"])
    assert after.status_code == 200 and "data-queue-waiting" not in after.content.decode()
