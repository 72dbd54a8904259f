"""The club's records and two members head to head, as Anna (a member) reads them: each
record links to the Partie it came from, Doppelkopf's partners and opponents come from the
record, guests hold no record unless the club shows them, a bad address is a 404 (never a
500) and nobody outside the club reads either page. Deleting a Partie rates its game again."""

import datetime

import pytest
from django.urls import reverse

from league.models import Club, Member
from league.ratings import ledger
from league.ratings.models import RatedMatch, Rating
from protocol import matches
from tests.integration.test_ratings import DK, expected, play, ratings
from tests.standings_season import STECHEN_WIN
from tests.unit.builders import sweep, twins


@pytest.fixture
def four(club, member_user):
    """Anna (the member_client's, so that she reads her own club) and three more at her table."""
    return {name: Member.objects.get_or_create(club=club, name=name)[0] for name in ("Anna", "Bernd", "Carla", "Dieter")}


@pytest.fixture
def evenings(club, four):
    """Four Chaotentrumpf evenings: Anna wins a Stechen, Dieter sweeps in one Spiel, Anna comes
    back from 512 behind, Anna sweeps (her second win in a row); and a Doppelkopf evening."""
    partien = [play(club, four, [twins()] * 4 + [STECHEN_WIN], 1),
               play(club, four, [sweep("Dieter", ("Anna", "Bernd", "Carla"))], 2),
               play(club, four, [twins("Bernd", "Carla", ("Anna", "Dieter")), sweep("Anna")], 3),
               play(club, four, [sweep("Anna")], 4),
               play(club, four, DK, 5, "doppelkopf", rules="tcg")]
    for game in ("chaotentrumpf", "doppelkopf"):
        ledger.refresh(club, game)
    return partien


def records_url(club, game=None):
    return reverse("records", kwargs={"slug": club.slug}) + (f"?spiel={game}" if game else "")


def versus_url(club, first, second):
    return reverse("head_to_head", kwargs={"slug": club.slug, "member_pk": first.pk, "other_pk": second.pk})


def match_url(club, match):
    return reverse("protocol:match", kwargs={"slug": club.slug, "pk": match.pk})


def record(page: str, title: str) -> str:
    """The text of one record on the page: from its title to the next."""
    start = page.index(title)
    end = page.find("<dt>", start)
    return page[start:end if end > 0 else None]


def shows(section: str, value: str, unit: str) -> bool:
    """Whether a record's section shows ``value`` and, under it, ``unit``."""
    return f'stat__value">{value}</span>' in section and f'stat__sub">{unit}</span>' in section


def test_anna_reads_each_record_with_the_partie_it_came_from(club, member_client, evenings):
    stechen, dieter_sweeps, comeback, second_win, _ = evenings
    page = member_client.get(records_url(club, "chaotentrumpf"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    highest = record(page, "Höchstes Spiel")
    assert shows(highest, "1.248", "Punkte") and "Dieter" in highest and match_url(club, dieter_sweeps) in highest
    assert "Spiel 1 der Partie vom 02.03.2026" in highest  # Anna's 1248 came later: the earlier stands
    turn = record(page, "Größte Aufholjagd zum Sieg")
    assert shows(turn, "512", "Punkte Rückstand") and "Anna" in turn and match_url(club, comeback) in turn
    streak = record(page, "Längste Siegesserie")
    assert shows(streak, "2", "Partien in Folge") and match_url(club, second_win) in streak  # linked to its last Partie
    won = record(page, "Meiste gewonnene Stechen")
    assert shows(won, "1", "Stechen gewonnen") and "Anna" in won and match_url(club, stechen) in won
    shortest = record(page, "Kürzeste Partie bis zur Obergrenze")
    assert shows(shortest, "1", "Spiel") and "Dieter" in shortest and match_url(club, dieter_sweeps) in shortest
    english = member_client.get(records_url(club, "chaotentrumpf"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Biggest comeback to a win" in english and shows(record(english, "Biggest comeback"), "512", "points behind")


def test_a_game_without_obergrenze_says_why_it_has_no_such_records(club, member_client, evenings):
    page = member_client.get(records_url(club, "doppelkopf"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Höchstes Spiel" in page and "Kürzeste Partie bis zur Obergrenze" not in page
    assert "Doppelkopf hat keine Obergrenze und kein Stechen" in page
    assert 'aria-current="page">Doppelkopf' in page  # the game choice: the club plays two games


def test_a_guest_holds_no_record_unless_the_club_shows_guests(club, member_client, evenings, four):
    Member.objects.filter(pk=four["Dieter"].pk).update(is_guest=True)
    page = member_client.get(records_url(club, "chaotentrumpf"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Dieter" not in record(page, "Höchstes Spiel") and match_url(club, evenings[2]) in record(page, "Höchstes Spiel")
    club.ratings_show_guests = True
    club.save()
    page = member_client.get(records_url(club, "chaotentrumpf"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Dieter" in record(page, "Höchstes Spiel")


def test_an_annulled_partie_counts_for_nothing(club, member_client, four):
    play(club, four, [sweep("Bernd", ("Anna", "Carla", "Dieter")).copy(), ], 1)
    annulled = play(club, four, [twins(), {"annul_match": {"reason": "Karten unvollständig"}}], 2)
    ledger.refresh(club, "chaotentrumpf")
    page = member_client.get(records_url(club), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert match_url(club, annulled) not in page and "Bernd" in record(page, "Höchstes Spiel")


def test_the_records_page_costs_the_same_queries_as_the_club_plays_on(
        club, member_client, four, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    play(club, four, [sweep()], 1)
    ledger.refresh(club, "chaotentrumpf")
    with CaptureQueriesContext(connection) as small:
        member_client.get(records_url(club))
    for day in range(2, 30):
        play(club, four, [twins("Bernd", "Carla", ("Anna", "Dieter")), sweep(("Anna", "Bernd")[day % 2],
             tuple(p for p in ("Anna", "Bernd", "Carla", "Dieter") if p != ("Anna", "Bernd")[day % 2]))], day)
    ledger.refresh(club, "chaotentrumpf")
    with django_assert_max_num_queries(len(small.captured_queries)):
        assert member_client.get(records_url(club)).status_code == 200


def test_anna_and_carla_head_to_head_as_partners_and_against_dieter(club, member_client, evenings, four):
    anna, carla, dieter = four["Anna"], four["Carla"], four["Dieter"]
    page = member_client.get(versus_url(club, anna, carla), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Anna gegen Carla" in page
    doppelkopf = page[page.index('id="versus-doppelkopf"'):]
    assert "2 von 3 Spielen gemeinsam gewonnen" in doppelkopf  # Re, Kontra against the solo, and lost once
    assert match_url(club, evenings[4]) in doppelkopf
    chaotentrumpf = page[page.index('id="versus-chaotentrumpf"'):page.index('id="versus-doppelkopf"')]
    assert "Als Partner" not in chaotentrumpf  # one ranking of the table: no sides
    assert "Anna 3-mal, Carla 0-mal · 1-mal gleichauf" in chaotentrumpf  # Dieter swept them all alike and all(match_url(club, m) in chaotentrumpf for m in evenings[:4])
    against = member_client.get(versus_url(club, anna, dieter), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "von 3 Spielen gegeneinander gewann Anna 2, Dieter 1" in against
    english = member_client.get(versus_url(club, anna, dieter), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Anna against Dieter" in english and "of 3 games against each other Anna won 2, Dieter 1" in english


def test_the_head_to_head_costs_the_same_queries_as_they_play_on(
        club, member_client, four, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    play(club, four, DK, 1, "doppelkopf", rules="tcg")
    ledger.refresh(club, "doppelkopf")
    url = versus_url(club, four["Anna"], four["Carla"])
    with CaptureQueriesContext(connection) as small:
        member_client.get(url)
    for day in range(2, 20):
        play(club, four, DK, day, "doppelkopf", rules="tcg")
    ledger.refresh(club, "doppelkopf")
    with django_assert_max_num_queries(len(small.captured_queries)):
        page = member_client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "38 von 57 Spielen gemeinsam gewonnen" in page  # 2 of 3 an evening, 19 evenings


def test_the_member_page_offers_the_head_to_head_and_the_choice_leads_there(club, member_client, evenings, four):
    anna, bernd = four["Anna"], four["Bernd"]
    page = member_client.get(reverse("member_page", kwargs={"slug": club.slug, "member_pk": anna.pk}),
                             HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Direkter Vergleich" in page and f'<option value="{bernd.pk}">Bernd</option>' in page
    chosen = member_client.get(reverse("head_to_head_choice", kwargs={"slug": club.slug, "member_pk": anna.pk}),
                               {"gegen": bernd.pk})
    assert chosen.status_code == 302 and chosen["Location"] == versus_url(club, anna, bernd)


def test_bad_addresses_are_not_found(club, member_client, evenings, four):
    anna = four["Anna"]
    elsewhere = Member.objects.create(club=Club.objects.create(name="Skatfreunde", slug="skat"), name="Xaver")
    choice = reverse("head_to_head_choice", kwargs={"slug": club.slug, "member_pk": anna.pk})
    for url in (versus_url(club, anna, anna), versus_url(club, anna, elsewhere), versus_url(club, elsewhere, anna),
                reverse("head_to_head", kwargs={"slug": club.slug, "member_pk": anna.pk, "other_pk": 999999}),
                f"{choice}?gegen=abc", f"{choice}?gegen={elsewhere.pk}", records_url(club, "skat"),
                reverse("records", kwargs={"slug": "gibt-es-nicht"})):
        assert member_client.get(url).status_code == 404, url
    assert member_client.get(choice)["Location"].endswith(f"/mitglied/{anna.pk}/")  # nobody chosen: back


def test_nobody_outside_the_club_reads_them(club, evenings, four, client, outsider_client, make_user):
    other = Club.objects.create(name="Skatfreunde", slug="skat")
    xaver = make_user("xaver")
    Member.objects.create(club=other, name="Xaver", user=xaver)
    client.force_login(xaver)
    for reader in (client, outsider_client):
        for url in (records_url(club), versus_url(club, four["Anna"], four["Bernd"])):
            assert reader.get(url).status_code in (403, 404), url


def test_deleting_a_partie_rates_its_game_again_without_it(
        club, four, django_capture_on_commit_callbacks, settings):
    from django_tasks import default_task_backend

    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    kept = play(club, four, [sweep("Dieter", ("Anna", "Bernd", "Carla"))], 1)
    gone = play(club, four, [sweep()], 2)
    ledger.refresh(club, "chaotentrumpf")
    with django_capture_on_commit_callbacks(execute=True):
        gone.delete()  # as the admin deletes it
    [queued] = default_task_backend.results
    assert queued.task.name == "refresh_ratings" and queued.args == [club.pk, "chaotentrumpf"]
    assert ledger.refresh(club, "chaotentrumpf") == 0  # nothing after it to rate again
    assert ratings(club, "chaotentrumpf") == expected([([["Dieter"], ["Anna"], ["Bernd"], ["Carla"]], [0, 1, 1, 1])])
    assert list(RatedMatch.objects.values_list("match_id", flat=True)) == [kept.pk]
    with django_capture_on_commit_callbacks(execute=True):
        matches.create_match(club=club, date=datetime.date(2026, 3, 3), members=list(four.values()),
                             scorekeeper=four["Anna"], settings={}, events=[twins()])  # running: never rated
    default_task_backend.clear()
    with django_capture_on_commit_callbacks(execute=True):
        club.matches.filter(status="running").delete()  # the admin's "delete selected"
    assert default_task_backend.results == []  # a running Partie was never rated: nothing to do
    assert Rating.objects.filter(club=club).count() == 4
