"""The secretary's side of the tournament day at 360 px in a real browser: a walk-in guest is
registered with one name and one tap, and the round board shows each table's state, without
sideways scrolling and without a serious axe finding."""

import datetime

import pytest
from django.db import transaction
from django.urls import reverse

from league.models import Attendance, Member, Season
from league.tournaments.next_round import draw_next
from league.tournaments.rounds import round_tables
from protocol import matches, recording
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Brigitte", "Achim", "Dagmar", "Egon", "Frieda", "Gerd", "Hanne"]


@pytest.fixture
def running_round(club, secretary, member_user):
    """Round 1 of a Doppelkopf tournament day, drawn from the eight present: table 1 finished,
    table 2 running."""
    day = datetime.date.today()
    season = Season.objects.create(club=club, name="Turniertag", start=day, end=day, mode="tournament",
                                   ruleset="doppelkopf", game_settings={"rules": "tcg"}, ranking_rule="tcg")
    present = [club.members.get(name="Anna"), *(Member.objects.create(club=club, name=n) for n in NAMES)]
    Attendance.objects.bulk_create([Attendance(season=season, member=m) for m in present])
    with transaction.atomic():
        round_, _ = draw_next(season, "random", secretary)
    for number, table in enumerate(round_tables(round_), start=1):
        seated = [seat.member for seat in table.seats]
        match = matches.create_match(club=club, date=day, members=seated, scorekeeper=seated[0], season=season,
                                     settings={"rules": "tcg"}, ruleset="doppelkopf", user=secretary, round=round_,
                                     table_number=number)
        if number == 1:
            names = [m.name for m in seated]
            recording.add_event(match, "game", {"type": "normal", "dealer": names[3], "re": names[:2],
                                                "re_points": 121}, user=secretary)
            recording.add_event(match, "end", {"reason": "games"}, user=secretary)
    return round_


def test_the_secretary_registers_a_guest_and_reads_the_round_board_on_a_phone(browser, live_server, running_round,
                                                                              axe_violations, club):
    context = browser.new_context(viewport={"width": 360, "height": 780}, locale="de-DE", has_touch=True,
                                  bypass_csp=True)  # axe is injected
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base_url = live_server.url
    season = running_round.season
    try:
        log_in(page, "schriftfuehrer", PASSWORD)
        page.goto(live_server.url + reverse("attendance", kwargs={"slug": club.slug, "season_pk": season.pk}))
        page.get_by_label("Name des Gastes").fill("Gisela Gast")
        page.get_by_role("button", name="Gast anmelden").click()
        page.get_by_text("Gast „Gisela Gast“ ist angemeldet und anwesend.").wait_for()
        assert Attendance.objects.filter(season=season, member__name="Gisela Gast", member__is_guest=True).exists()
        assert axe_violations(page) == []

        page.goto(live_server.url + reverse("round_board", kwargs={"slug": club.slug, "round_pk": running_round.pk}))
        states = page.locator(".board-table .badge").all_inner_texts()
        assert states == ["beendet", "läuft"]
        assert page.locator("[data-state='finished']").count() == 1
        assert page.locator("[data-state='running']").count() == 1
        assert page.get_by_role("button", name="Nächste Runde auslosen").count() == 0  # table 2 still plays
        scroll, inner = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
        assert scroll <= inner
        assert axe_violations(page) == []
        page.screenshot(path="/tmp/round-board-360.png", full_page=True)
    finally:
        context.close()
