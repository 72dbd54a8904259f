""""Draw again" keeps the draw the secretary Sabine chose for the round (league.tournaments.draws):
a round seated by the standings is seated by the standings again, the FFT rotation by its
rotation (which no seed changes: every table as before, the printed cards still hold), a random
round at random with a new seed."""

import pytest
from django.urls import reverse

from league.standings.ranking import standings
from league.tournaments import cards, draws, seating
from protocol import recording
from protocol.models import Match
from tests.integration.tournament_day import doppelkopf_day

NAMES = ["Brigitte", "Anke", "Dagmar", "Achim", "Michelle", "Bodo", "Carsten", "Doris", "Egon", "Frieda",
         "Gerd", "Hanne", "Ingo", "Jutta", "Kurt", "Lene"]


@pytest.fixture
def day(club, secretary, member_user):
    return doppelkopf_day(club, NAMES)


def url(name, club, **kwargs):
    return reverse(name, kwargs={"slug": club.slug, **kwargs})


def seating_of(round_):
    return [list(round_.seats.filter(table=t).order_by("position").values_list("member", flat=True))
            for t in sorted(set(round_.seats.values_list("table", flat=True)))]


@pytest.fixture
def after_round_one(secretary_client, secretary, club, day):
    """Sixteen present, round 1 drawn at random and played out (Re, the first two seats, wins 121)."""
    players = list(club.members.filter(name__in=NAMES))
    assert secretary_client.post(url("attendance", club, season_pk=day.pk),
                                 {"present": [m.pk for m in players]}).status_code == 302
    secretary_client.post(url("round_draw_next", club, season_pk=day.pk), {"kind": "random"})
    first = day.rounds.get(number=1)
    secretary_client.post(url("round_start", club, round_pk=first.pk))
    for match in first.matches.all():
        names = [seat.name for seat in match.seats.all()]
        recording.add_event(match, "game", {"type": "normal", "dealer": names[-1], "re": names[:2], "re_points": 121},
                            user=secretary)
        recording.add_event(match, "end", {"reason": "games"}, user=secretary)
    assert not first.matches.exclude(status=Match.Status.FINISHED).exists()
    return first


def draw_second(client, club, day, kind):
    client.post(url("round_draw_next", club, season_pk=day.pk), {"kind": kind})
    second = day.rounds.get(number=2)
    assert second.draw_kind == kind
    return second


def redraw(client, club, round_):
    response = client.post(url("round_redraw", club, round_pk=round_.pk), follow=True)
    assert response.status_code == 200
    round_.refresh_from_db()
    return response.content.decode()


def test_a_rotation_is_drawn_again_as_the_rotation(secretary_client, club, day, after_round_one):
    second = draw_second(secretary_client, club, day, "rotation")
    drawn, seed = seating_of(second), second.seed
    players = sorted(pk for table in drawn for pk in table)
    assert drawn == draws.rotation(players, 1, seating.FOURS_AND_FIVES)  # the FFT rotation's second round
    card = cards.cards_of(second, [1])[1]

    page = redraw(secretary_client, club, second)
    assert second.seed != seed and second.draw_kind == "rotation"
    assert seating_of(second) == drawn
    assert "Runde 2 ist neu ausgelost: Jeder Tisch ist besetzt wie zuvor." in page
    assert cards.find(cards.code_of(card)).refusal == ""  # the printed cards still open their tables


def test_a_round_by_the_standings_is_drawn_again_by_the_standings(secretary_client, club, day, after_round_one):
    second = draw_second(secretary_client, club, day, "standings")
    ranking = [row.member.pk for row in standings(club, day)]
    expected = draws.draw("standings", sorted(ranking), 0, [seating_of(after_round_one)],
                          ranking=ranking, round_index=1).tables
    assert seating_of(second) == expected

    redraw(secretary_client, club, second)
    assert second.draw_kind == "standings" and seating_of(second) == expected
    # the leaders of round 1 sit at table 1 again, not wherever a new seed would put them
    assert ranking[0] in seating_of(second)[0]


def test_a_random_round_is_drawn_again_at_random(secretary_client, club, day, after_round_one):
    second = draw_second(secretary_client, club, day, "random")
    drawn, seed = seating_of(second), second.seed
    page = redraw(secretary_client, club, second)
    assert second.seed != seed and second.draw_kind == "random"
    assert sorted(map(sorted, seating_of(second))) != sorted(map(sorted, drawn)) or "wie zuvor" in page
    assert seating.repeats(seating_of(second), seating.meetings([seating_of(after_round_one)])) == 0
