"""The tournament day, the secretary's side: Sabine registers walk-in guests at the door, ticks
who is present, draws the next round from them (no repeated tablemates where avoidable, a
visible note of who sits out) and follows each table on the round board. Anna, a member,
sees none of it."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import Attendance, Member, Season
from league.tournaments import seating
from protocol import confirmations, recording
from protocol.models import Change, Match

DAY = datetime.date(2027, 3, 13)
NAMES = ["Brigitte", "Anke", "Dagmar", "Achim", "Michelle", "Bodo", "Carsten", "Doris", "Egon", "Frieda",
         "Gerd", "Hanne", "Ingo", "Jutta"]


@pytest.fixture
def day(club, secretary, member_user):
    for name in NAMES:
        Member.objects.create(club=club, name=name)
    return Season.objects.create(club=club, name="Turniertag", start=DAY, end=DAY, mode=Season.Mode.TOURNAMENT,
                                 ruleset="doppelkopf", game_settings={"rules": "tcg"},
                                 ranking_rule=Season.RankingRule.TCG)


def url(name, club, **kwargs):
    return reverse(name, kwargs={"slug": club.slug, **kwargs})


def walk_in(client, club, season, name):
    return client.post(url("walk_in", club, season_pk=season.pk), {"name": name})


def mark_present(client, club, season, members):
    response = client.post(url("attendance", club, season_pk=season.pk), {"present": [m.pk for m in members]})
    assert response.status_code == 302


def draw_next(client, club, season, kind="random"):
    return client.post(url("round_draw_next", club, season_pk=season.pk), {"kind": kind}, follow=True)


def play_out(round_, secretary):
    """Play each of the round's matches to its end: one game (the dealer, last, sits out at
    five), then ended."""
    for match in round_.matches.exclude(status=Match.Status.ANNULLED):
        names = [seat.name for seat in match.seats.all()]
        recording.add_event(match, "game", {"type": "normal", "dealer": names[-1], "re": names[:2],
                                            "re_points": 121}, user=secretary)
        recording.add_event(match, "end", {"reason": "games"}, user=secretary)


def board(client, club, round_):
    response = client.get(url("round_board", club, round_pk=round_.pk))
    assert response.status_code == 200
    return {t.number: t.state for t in response.context["tables"]}, response


def test_a_walk_in_guest_is_one_name_and_one_tap(secretary_client, club, day):
    response = walk_in(secretary_client, club, day, "Gisela Gast")
    assert response.status_code == 302
    gisela = club.members.get(name="Gisela Gast")
    assert gisela.is_guest and Attendance.objects.filter(season=day, member=gisela).exists()
    # A name like hers is refused with a message naming her; nothing is saved.
    response = walk_in(secretary_client, club, day, "gisela GAST")
    assert response.status_code == 400
    assert "Gisela Gast" in response.context["walk_in"].errors["name"][0]
    assert not club.members.filter(name="gisela GAST").exists()
    # A member who is there already is only marked present.
    response = walk_in(secretary_client, club, day, "Egon")
    assert response.status_code == 302
    assert club.members.filter(name="Egon").count() == 1
    assert not club.members.get(name="Egon").is_guest
    assert Attendance.objects.filter(season=day, member__name="Egon").exists()


def test_a_name_the_rules_refuse_is_refused_in_german(secretary_client, club, day):
    response = walk_in(secretary_client, club, day, "Gast\x00")
    assert response.status_code == 400
    assert response.context["walk_in"].errors["name"]
    assert not Attendance.objects.filter(season=day).exists()


def test_the_list_marks_who_is_present_and_who_would_sit_out(secretary_client, club, day):
    first_eleven = list(club.members.order_by("name")[:11])
    mark_present(secretary_client, club, day, first_eleven)
    assert set(Attendance.objects.filter(season=day).values_list("member", flat=True)) == {m.pk for m in first_eleven}
    page = secretary_client.get(url("attendance", club, season_pk=day.pk))
    assert len(page.context["would_sit_out"]) == 1  # Doppelkopf: 11 fit 5 + 5, one sits out
    # Unticking a no-show takes him off the list.
    mark_present(secretary_client, club, day, first_eleven[1:])
    assert Attendance.objects.filter(season=day).count() == 10


def test_everyone_on_the_list_is_marked_present_in_one_tap(secretary_client, club, day):
    club.members.filter(name="Jutta").update(active=False)  # left the club: not on the list
    response = secretary_client.post(url("attendance", club, season_pk=day.pk), {"everyone": "1"}, follow=True)
    listed = set(club.members.filter(active=True).values_list("pk", flat=True))
    assert set(Attendance.objects.filter(season=day).values_list("member", flat=True)) == listed
    assert f"{len(listed)} Spieler sind für die nächste Runde anwesend." in response.content.decode()


def test_round_two_seats_nobody_with_a_tablemate_of_round_one(secretary_client, secretary, club, day):
    for guest in ("Gisela Gast", "Hubert Gast"):
        assert walk_in(secretary_client, club, day, guest).status_code == 302
    mark_present(secretary_client, club, day, list(club.members.exclude(name__in=["Sabine", "Anna"])))
    response = draw_next(secretary_client, club, day)
    first = day.rounds.get(number=1)
    assert first.seats.count() == 16 and first.sitting_out == []
    # The drawn round opens on its seating plan, which creates its Partien and prints its cards.
    assert response.redirect_chain[-1][0] == url("round", club, round_pk=first.pk)
    assert "Die 4 Partien anlegen" in response.content.decode()
    states, _ = board(secretary_client, club, first)
    assert set(states.values()) == {"waiting"}

    secretary_client.post(url("round_start", club, round_pk=first.pk))
    states, response = board(secretary_client, club, first)
    assert set(states.values()) == {"running"}
    assert 'data-follow-seconds="30"' in response.content.decode()  # it follows the tables by itself
    # The next round waits for every table.
    draw_next(secretary_client, club, day)
    assert day.rounds.count() == 1

    # A table without an entry for a while shows as silent.
    quiet = first.matches.get(table_number=2)
    long_ago = timezone.now() - datetime.timedelta(hours=1)
    Change.objects.filter(match=quiet).update(at=long_ago)
    Match.objects.filter(pk=quiet.pk).update(created_at=long_ago)
    states, _ = board(secretary_client, club, first)
    assert states[2] == "silent" and states[1] == "running"

    play_out(first, secretary)
    confirmed = first.matches.get(table_number=1)
    for seat in confirmed.seats.all():
        confirmations.confirm(confirmed, seat, user=secretary)
    states, response = board(secretary_client, club, first)
    assert states == {1: "confirmed", 2: "finished", 3: "finished", 4: "finished"}
    assert response.context["can_draw_next"]
    assert 'data-follow-seconds' not in response.content.decode()  # the draw's form stays as chosen

    draw_next(secretary_client, club, day)
    second = day.rounds.get(number=2)
    tables = [[s.member_id for s in second.seats.filter(table=t)] for t in range(1, 5)]
    before = [[[s.member_id for s in first.seats.filter(table=t)] for t in range(1, 5)]]
    assert seating.repeats(tables, seating.meetings(before)) == 0
    assert all(len(t) == 4 for t in tables)


def test_who_sits_out_is_named_on_the_round_and_sits_first_next_time(secretary_client, secretary, club, day):
    eleven = list(club.members.filter(name__in=NAMES[:11]))
    mark_present(secretary_client, club, day, eleven)
    draw_next(secretary_client, club, day)
    first = day.rounds.get(number=1)
    assert len(first.sitting_out) == 1 and first.seats.count() == 10
    out = club.members.get(pk=first.sitting_out[0])
    page = secretary_client.get(url("round", club, round_pk=first.pk))
    assert f"{out.name} setzt diese Runde aus." in page.content.decode()
    _, response = board(secretary_client, club, first)
    assert response.context["sitting_out"] == [out.name]
    # A late arrival: twelve now, tables of four; nobody sits out.
    secretary_client.post(url("round_start", club, round_pk=first.pk))
    play_out(first, secretary)
    assert walk_in(secretary_client, club, day, "Gisela Gast").status_code == 302
    draw_next(secretary_client, club, day, kind="standings")
    second = day.rounds.get(number=2)
    assert second.seats.count() == 12 and second.sitting_out == [] and second.draw_kind == "standings"
    assert second.seats.filter(member=out).exists()


@pytest.mark.parametrize("name, method", [("attendance", "get"), ("walk_in", "post"),
                                          ("round_draw_next", "post")])
def test_a_member_may_not_run_the_door(member_client, club, day, name, method):
    response = getattr(member_client, method)(url(name, club, season_pk=day.pk), {"name": "Gast", "kind": "random"})
    assert response.status_code == 403
    assert not Attendance.objects.filter(season=day).exists() and not day.rounds.exists()


def test_a_member_may_not_see_the_round_board(secretary_client, member_client, club, day):
    mark_present(secretary_client, club, day, list(club.members.filter(name__in=NAMES[:8])))
    draw_next(secretary_client, club, day)
    assert member_client.get(url("round_board", club, round_pk=day.rounds.get().pk)).status_code == 403


def test_nothing_is_drawn_with_too_few_present(secretary_client, club, day):
    mark_present(secretary_client, club, day, list(club.members.filter(name__in=NAMES[:3])))
    response = draw_next(secretary_client, club, day)
    assert not day.rounds.exists()
    assert "mindestens 4" in response.content.decode()



def test_the_round_form_starts_from_those_present(secretary_client, club, day):
    present = list(club.members.filter(name__in=NAMES[:9]))
    mark_present(secretary_client, club, day, present)
    page = secretary_client.get(url("round_new", club, season_pk=day.pk))
    assert sorted(page.context["form"].initial["players"]) == sorted(m.pk for m in present)
