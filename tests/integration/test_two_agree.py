"""Two at the table agree (``Season.two_agree``): with the setting on, a tournament table's result
counts in the standings and on the live board only once a player other than its Protokollant
accepted it as it stands; a correction needs a new acceptance. With the setting off, every
finished table counts at once, as before.

Personas: the secretary Sabine sets the tournament up and corrects a result; ``north`` is the
phone that opened table 1's card and enters (its Protokollant's seat); ``east`` is a second
player's phone that opened the same card and accepts; Anna (member_user) is a member.
"""

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Club
from league.tournaments import cards
from protocol import recording
from protocol.models import Event
from tests.integration.pages import url
from tests.integration.tournament_day import eight_at_two_tables
from tests.integration.tournament_day import finish as finish_table


def settings_post(two_agree):
    data = {"mode": "tournament", "ruleset": "doppelkopf", "rules": "tcg", "ranking_rule": "tcg"}
    return data | ({"two_agree": "on"} if two_agree else {})


@pytest.fixture
def agreeing(secretary_client, club, member_user):
    """The tournament of eight at two tables, its matches created, "two at the table agree" on."""
    tournament = eight_at_two_tables(secretary_client, club)
    season = tournament["season"]
    response = secretary_client.post(
        reverse("tournament_settings", kwargs={"slug": club.slug, "season_pk": season.pk}), settings_post(True))
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.two_agree and season.needs_agreement
    return tournament


def phone(tournament, table):
    card = cards.cards_of(tournament["round"], [table])[table]
    client = Client()
    assert client.get(cards.path(cards.code_of(card))).status_code == 302
    return client


def finish(client, match):
    finish_table(client, match)
    match.refresh_from_db()
    assert match.status == "finished"


def accept(client, match, seat):
    match.refresh_from_db()
    response = client.post(url(match, "confirm", position=seat.position), {"version": match.version})
    assert response.status_code == 302


def counted(client, club, season):
    """The names in the tournament's standings and the page's note, as the secretary sees them."""
    response = client.get(reverse("tournament", kwargs={"slug": club.slug, "season_pk": season.pk}))
    assert response.status_code == 200
    return {row.member.name for row in response.context["rows"]}, response.content.decode()


def table_states(client, club, round_):
    response = client.get(reverse("round_board", kwargs={"slug": club.slug, "round_pk": round_.pk}))
    assert response.status_code == 200
    return {t.number: t.state for t in response.context["tables"]}, response.content.decode()


def test_an_unaccepted_table_is_left_out_until_a_second_player_accepts(secretary_client, club, agreeing):
    season, match = agreeing["season"], agreeing["matches"][1]
    north = phone(agreeing, 1)
    finish(north, match)
    players = {s.name for s in match.seats.all()}

    names, page = counted(secretary_client, club, season)
    assert not names & players
    assert "1 Tisch wartet auf die Bestätigung eines zweiten Spielers" in page
    states, page = table_states(secretary_client, club, agreeing["round"])
    assert states[1] == "awaiting" and "wartet auf Bestätigung" in page

    north_seat = match.scorekeeper_seat
    accept(north, match, north_seat)  # the Protokollant alone is not two
    names, _page = counted(secretary_client, club, season)
    assert not names & players
    notice = "sobald ein anderer Spieler als der Protokollant es bestätigt hat"
    assert notice in north.get(match.get_absolute_url()).content.decode()

    version = Club.objects.get(pk=club.pk).data_version
    east = phone(agreeing, 1)  # East's own phone, with the same card
    east_seat = next(s for s in match.seats.all() if not s.is_scorekeeper)
    accept(east, match, east_seat)
    assert Club.objects.get(pk=club.pk).data_version > version  # the kept table pages are stale now
    names, page = counted(secretary_client, club, season)
    assert players <= names
    assert "wartet auf die Bestätigung" not in page
    states, _page = table_states(secretary_client, club, agreeing["round"])
    assert states[1] in ("finished", "confirmed")
    assert notice not in east.get(match.get_absolute_url()).content.decode()


def test_a_correction_needs_a_new_acceptance(secretary_client, secretary, club, agreeing):
    season, match = agreeing["season"], agreeing["matches"][1]
    north = phone(agreeing, 1)
    finish(north, match)
    accept(north, match, next(s for s in match.seats.all() if not s.is_scorekeeper))  # on the same phone
    players = {s.name for s in match.seats.all()}
    assert players <= counted(secretary_client, club, season)[0]

    match.refresh_from_db()
    game = Event.objects.get(match=match, kind="game")
    recording.correct_event(match, game.position, game.data | {"re_points": 150}, user=secretary,
                            reason="Augen falsch gezählt")
    names, page = counted(secretary_client, club, season)
    assert not names & players
    assert "1 Tisch wartet" in page
    east = phone(agreeing, 1)
    accept(east, match, [s for s in match.seats.all() if not s.is_scorekeeper][-1])
    assert players <= counted(secretary_client, club, season)[0]


def test_the_next_round_waits_for_the_acceptance(secretary_client, club, agreeing):
    north_one, north_two = phone(agreeing, 1), phone(agreeing, 2)
    finish(north_one, agreeing["matches"][1])
    finish(north_two, agreeing["matches"][2])
    states, page = table_states(secretary_client, club, agreeing["round"])
    assert set(states.values()) == {"awaiting"}
    assert "Nächste Runde auslosen" not in page
    response = secretary_client.post(reverse("round_draw_next", kwargs={"slug": club.slug,
                                                                        "season_pk": agreeing["season"].pk}),
                                     {"kind": "random"}, follow=True)
    assert "2 Tische der letzten Runde warten auf die Bestätigung" in response.content.decode()
    assert agreeing["season"].rounds.count() == 1
    close = reverse("round_close", kwargs={"slug": club.slug, "round_pk": agreeing["round"].pk})
    assert "Die Tische 1, 2 warten auf die Bestätigung eines zweiten Spielers" in \
        secretary_client.get(close).content.decode()  # closing the round first says what it means for them


def test_the_live_board_shows_only_accepted_results(secretary_client, club, agreeing):
    club.published = True
    club.save()
    match = agreeing["matches"][1]
    north = phone(agreeing, 1)
    finish(north, match)
    live = reverse("public_live_board", kwargs={"slug": club.slug, "season_pk": agreeing["season"].pk})
    response = Client().get(live)
    assert response.status_code == 200
    assert "wartet auf Bestätigung" in response.content.decode()
    assert response.context["board"].last_results == []
    accept(north, match, next(s for s in match.seats.all() if not s.is_scorekeeper))
    response = Client().get(live)
    assert [t.number for t in response.context["board"].last_results] == [1]


def test_without_the_setting_a_finished_table_counts_at_once(secretary_client, club, member_user):
    tournament = eight_at_two_tables(secretary_client, club)
    season, match = tournament["season"], tournament["matches"][1]
    assert not season.two_agree
    finish(phone(tournament, 1), match)
    names, page = counted(secretary_client, club, season)
    assert {s.name for s in match.seats.all()} <= names
    assert "wartet" not in page
    assert table_states(secretary_client, club, tournament["round"])[0][1] == "finished"


def test_a_member_may_not_change_the_setting(member_client, club, agreeing):
    season = agreeing["season"]
    response = member_client.post(reverse("tournament_settings", kwargs={"slug": club.slug, "season_pk": season.pk}),
                                  settings_post(False))
    assert response.status_code == 403
    season.refresh_from_db()
    assert season.two_agree
