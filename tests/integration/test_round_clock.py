"""The round's clock where time is limited (Art. 17c; FFT-Regeln "Spielrhythmus"): the secretary
Sabine starts it on the round board; the board and table 1's Partie page (its card's phone) show
the time left; when it is up the Partie page says what happens and nothing ends by itself.
Anna (a member) may not start it."""

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.models import Round, Season
from league.tournaments import cards
from tests.integration.tournament_day import eight_at_two_tables


@pytest.fixture
def timed(secretary_client, club, member_user):
    """The tournament of eight at two tables with 30 minutes per round."""
    tournament = eight_at_two_tables(secretary_client, club)
    season = tournament["season"]
    response = secretary_client.post(
        reverse("tournament_settings", kwargs={"slug": club.slug, "season_pk": season.pk}),
        {"mode": "tournament", "ruleset": "doppelkopf", "rules": "tcg", "ranking_rule": "tcg", "round_minutes": "30"})
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.round_duration == datetime.timedelta(minutes=30)
    return tournament


def board_page(client, club, round_):
    response = client.get(reverse("round_board", kwargs={"slug": club.slug, "round_pk": round_.pk}))
    assert response.status_code == 200
    return response.content.decode()


def start(client, club, round_):
    return client.post(reverse("round_clock_start", kwargs={"slug": club.slug, "round_pk": round_.pk}), follow=True)


def table_phone(tournament, table):
    card = cards.cards_of(tournament["round"], [table])[table]
    phone = Client()
    assert phone.get(cards.path(cards.code_of(card))).status_code == 302
    return phone


def test_the_secretary_starts_the_clock_and_the_board_and_the_table_show_the_time_left(secretary_client, club, timed):
    round_ = timed["round"]
    page = board_page(secretary_client, club, round_)
    assert "Die Uhr (30 Minuten) ist noch nicht gestartet." in page and "Uhr starten" in page
    assert "js/round_clock.js" in page  # the countdown's module, no inline script

    response = start(secretary_client, club, round_)
    assert "Die Uhr der Runde 1 läuft." in response.content.decode()
    round_.refresh_from_db()
    assert round_.started_at is not None
    page = board_page(secretary_client, club, round_)
    left = re.search(r'data-seconds-left="(\d+)"', page)
    assert left and 29 * 60 < int(left.group(1)) <= 30 * 60
    assert re.search(r"Verbleibende Zeit: <strong data-left role=\"timer\">(30:00|29:\d\d)</strong>", page)
    assert "Uhr starten" not in page

    started = round_.started_at
    assert "lief schon" in start(secretary_client, club, round_).content.decode()  # once
    round_.refresh_from_db()
    assert round_.started_at == started

    match = timed["matches"][1]
    table_page = table_phone(timed, 1).get(match.get_absolute_url()).content.decode()
    assert re.search(r"Verbleibende Zeit: <strong data-left role=\"timer\">(30:00|29:\d\d)</strong>", table_page)


def test_when_the_time_is_up_the_table_is_asked_to_end_by_time(secretary_client, club, timed):
    round_, match = timed["round"], timed["matches"][1]
    Round.objects.filter(pk=round_.pk).update(started_at=timezone.now() - datetime.timedelta(minutes=31))
    page = table_phone(timed, 1).get(match.get_absolute_url()).content.decode()
    up = re.search(r'<p class="notice round-clock__up" data-time-up( hidden)? role="status">([^<]*)', page)
    assert up and up.group(1) is None
    assert "Die Partie endet durch Zeitbegrenzung (Art. 17c" in up.group(2)
    assert reverse("protocol:end", kwargs={"slug": club.slug, "pk": match.pk}) in page  # the scorekeeper's way
    match.refresh_from_db()
    assert match.status == "running"  # nothing ends by itself


def test_a_member_cannot_start_the_clock(member_client, club, timed):
    round_ = timed["round"]
    assert start(member_client, club, round_).status_code == 403
    round_.refresh_from_db()
    assert round_.started_at is None


def test_without_a_time_limit_there_is_no_clock(secretary_client, club, member_user):
    tournament = eight_at_two_tables(secretary_client, club)  # Doppelkopf: its rules fix no time
    round_ = tournament["round"]
    assert "Zeit der Runde" not in board_page(secretary_client, club, round_)
    assert "keine Zeit je Runde" in start(secretary_client, club, round_).content.decode()
    round_.refresh_from_db()
    assert round_.started_at is None


def test_the_fft_formats_take_their_time_from_the_rules(club):
    def season(fmt):
        return Season(club=club, mode=Season.Mode.TOURNAMENT, ruleset="tarot", tournament_format=fmt)
    assert season("7x3").round_duration == datetime.timedelta(minutes=35)
    assert season("5x4").round_duration == datetime.timedelta(minutes=45)
    assert Season(club=club, mode=Season.Mode.TOURNAMENT, ruleset="tarot", tournament_format="7x3",
                  round_minutes=40).round_duration == datetime.timedelta(minutes=40)
