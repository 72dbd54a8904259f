"""The live board of a published tournament (league.publishing.live): its page for the hall's
projector and a phone at home, and the board every screen polls with its ETag.

Personas: the secretary Sabine draws and keeps the tournament; ``client`` is anyone on the
internet (the projector's browser, a player's family at home), signed in nowhere.
"""

import pytest
from django.urls import reverse

from protocol import confirmations
from tests.conftest import saved
from tests.integration.doppelkopf import dk_post
from tests.integration.pages import url
from tests.integration.tournament_day import NAMES, eight_at_two_tables


@pytest.fixture
def tournament(secretary_client, club, member_user):
    """A Doppelkopf tournament (TCG) of eight of the published club: round 1 drawn to two
    tables, their matches created."""
    club.published = True
    club.save(update_fields=["published"])
    return eight_at_two_tables(secretary_client, club)


def live(club, season, name="public_live"):
    return reverse(name, kwargs={"slug": club.slug, "season_pk": season.pk})


def save_game(client, match):
    """A Spiel of the table, Re (its first two seats) winning with 121."""
    match.refresh_from_db()
    names = [s.name for s in match.seats.all()]
    assert saved(client.post(url(match, "game_new"), dk_post(match, dealer=names[0], re=names[:2], re_points=121)), match)


def finish(client, match):
    save_game(client, match)
    match.refresh_from_db()
    assert client.post(url(match, "end"), {"reason": "games", "version": match.version}).status_code == 302
    match.refresh_from_db()


def state_of(page: str, table: int) -> str:
    """The state the board shows of ``table`` (its data-state)."""
    start = page.index(f'data-table="{table}"')
    marker = 'data-state="'
    at = page.index(marker, start) + len(marker)
    return page[at:page.index('"', at)]


def test_a_published_tournament_shows_its_standings_and_its_rounds_tables(tournament, club, client, secretary_client):
    finish(secretary_client, tournament["matches"][1])
    response = client.get(live(club, tournament["season"]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Vereinsturnier" in page and "Runde 1" in page and "Tisch 2" in page
    for name in ["Anna", *NAMES]:
        assert name in page
    assert "js/live.js" in page and 'type="module"' in page
    assert "<script>" not in page  # no inline script: the site's CSP refuses it
    assert "Tabelle" in page and "TCG-Wertung" in page  # the standings, by the tournament's score
    assert "\u2212100,0" in page and "100,0" in page  # written as on the club's pages: a real minus, one decimal
    finished = [s.name for s in tournament["matches"][1].seats.all()]
    assert page.count('<th scope="row">') == len(finished)  # those who finished a Partie
    for name in finished:
        assert f'<th scope="row">{name}</th>' in page


def test_an_unpublished_club_has_no_live_board(tournament, club, client):
    club.published = False
    club.save(update_fields=["published"])
    assert client.get(live(club, tournament["season"])).status_code == 404
    assert client.get(live(club, tournament["season"], "public_live_board")).status_code == 404


def test_a_season_of_another_club_has_no_board_under_a_published_one(tournament, club, client):
    from league.models import Club
    other = Club.objects.create(name="Andere", slug="andere", published=True)
    assert client.get(reverse("public_live", kwargs={"slug": other.slug,
                                                     "season_pk": tournament["season"].pk})).status_code == 404


def test_an_unchanged_board_is_a_bodiless_304_and_a_saved_spiel_changes_it(tournament, club, client,
                                                                            secretary_client, django_assert_max_num_queries):
    address = live(club, tournament["season"], "public_live_board")
    first = client.get(address)
    assert first.status_code == 200 and first["ETag"].startswith('W/"')
    assert "no-cache" in first["Cache-Control"]
    with django_assert_max_num_queries(1):  # the ETag's one statement, nothing rendered
        again = client.get(address, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304 and again.content == b""
    save_game(secretary_client, tournament["matches"][1])
    changed = client.get(address, headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert "Anna" in changed.content.decode()


def test_a_changed_board_is_written_once_and_every_other_screen_gets_the_same_bytes(
        tournament, club, client, secretary_client, django_assert_max_num_queries):
    from django.test import Client

    address = live(club, tournament["season"], "public_live_board")
    first = client.get(address)
    save_game(secretary_client, tournament["matches"][1])
    written = client.get(address, headers={"If-None-Match": first["ETag"]})  # the projector: the new board
    assert written.status_code == 200 and written["ETag"] != first["ETag"]
    with django_assert_max_num_queries(1):  # a phone at home asks next: the ETag's statement alone
        again = Client().get(address, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 200 and again.content == written.content and again["ETag"] == written["ETag"]
    assert "no-cache" in again["Cache-Control"]


def test_the_page_carries_the_etag_of_the_board_it_shows(tournament, club, client):
    page = client.get(live(club, tournament["season"])).content.decode()
    tag = client.get(live(club, tournament["season"], "public_live_board"))["ETag"]
    assert f'data-live-etag="{tag.replace(chr(34), "&quot;")}"' in page


def test_the_rounds_tables_go_from_not_started_to_running_finished_and_confirmed(tournament, club, client,
                                                                                  secretary_client, secretary):
    address = live(club, tournament["season"], "public_live_board")
    one, two = tournament["matches"][1], tournament["matches"][2]
    board = client.get(address).content.decode()
    assert state_of(board, 1) == "running" and "läuft" in board  # a created Partie is in play
    finish(secretary_client, one)
    save_game(secretary_client, two)
    board = client.get(address).content.decode()
    assert (state_of(board, 1), state_of(board, 2)) == ("finished", "running")
    assert "Runde 1, Tisch 1" in board  # the last results
    tag = client.get(address)["ETag"]
    for seat in one.seats.all():  # confirmations raise no version: the ETag still moves
        confirmations.confirm(one, seat, user=secretary)
    confirmed = client.get(address, headers={"If-None-Match": tag})
    assert confirmed.status_code == 200
    assert state_of(confirmed.content.decode(), 1) == "confirmed" and "bestätigt" in confirmed.content.decode()


def test_the_public_page_of_a_tournament_links_its_live_board(tournament, club, client):
    page = client.get(reverse("public_season", kwargs={"slug": club.slug, "season_pk": tournament["season"].pk}))
    assert f'href="{live(club, tournament["season"])}"' in page.content.decode()
    assert "Das Turnier live verfolgen" in page.content.decode()


def test_a_seat_drawn_anew_changes_the_boards_etag(tournament, club, client):
    address = live(club, tournament["season"], "public_live_board")
    tag = client.get(address)["ETag"]
    seat = tournament["round"].seats.order_by("pk").first()
    seat.delete()  # as a redraw does: as many seats as before, each a new one
    seat.pk = None
    seat.save()
    assert client.get(address, headers={"If-None-Match": tag}).status_code == 200


def test_a_round_whose_tables_are_not_set_up_yet_says_so(tournament, club, client):
    from league.models import Round
    season = tournament["season"]
    Round.objects.create(season=season, number=2, date=season.start, seed=2)
    page = client.get(live(club, season)).content.decode()
    assert "Runde 2" in page and "Ihre Tische sind noch nicht angelegt." in page


def test_the_board_shows_the_rounds_clock_once_the_secretary_starts_it(tournament, club, client, secretary_client):
    """The same clock as the round board's (league.registry.round_clock), counted down on the
    screen by static/js/round_clock.js from data-seconds-left, offline too; starting it and the
    time running out change the board without a Spiel."""
    import datetime
    import re

    from django.utils import timezone

    from league.models import Round

    season, round_ = tournament["season"], tournament["round"]
    board = live(club, season, "public_live_board")
    assert "data-round-clock" not in client.get(board).content.decode()  # no time per round: no clock
    assert secretary_client.post(
        reverse("tournament_settings", kwargs={"slug": club.slug, "season_pk": season.pk}),
        {"mode": "tournament", "ruleset": "doppelkopf", "rules": "tcg", "ranking_rule": "tcg",
         "round_minutes": "30"}).status_code == 302
    before = client.get(board)
    page = before.content.decode()
    assert "data-round-clock" in page and "data-seconds-left" not in page
    assert "Die Uhr (30 Minuten) ist noch nicht gestartet." in page

    secretary_client.post(reverse("round_clock_start", kwargs={"slug": club.slug, "round_pk": round_.pk}))
    started = client.get(board, HTTP_IF_NONE_MATCH=before["ETag"])
    assert started.status_code == 200, "a started clock is a new board"
    page = started.content.decode()
    left = re.search(r'data-round-clock data-seconds-left="(\d+)"', page)
    assert left and 29 * 60 < int(left.group(1)) <= 30 * 60
    assert re.search(r'Verbleibende Zeit <strong data-left role="timer">(30:00|29:\d\d)</strong>', page)
    assert re.search(r'<p class="live__clock-up" data-time-up hidden>Die Zeit ist um.</p>', page)

    Round.objects.filter(pk=round_.pk).update(started_at=timezone.now() - datetime.timedelta(minutes=31))
    page = client.get(live(club, season)).content.decode()  # the page as a screen opens it when time is up
    assert 'data-seconds-left="0"' in page
    assert re.search(r'<p class="live__clock-left" hidden>', page)
    assert re.search(r'<p class="live__clock-up" data-time-up>Die Zeit ist um.</p>', page)
