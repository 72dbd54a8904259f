"""The ratings (league.ratings): the numbers OpenSkill's own Plackett–Luce gives for the same
results in the same order, per game and never mixed, computed again from a corrected Partie
to the very numbers a rebuild gives."""

import datetime

import pytest
from openskill.models import PlackettLuce

from league.models import Member
from league.ratings import ledger
from league.ratings.models import RatedMatch, Rating, RatingStep
from protocol import matches, recording
from tests.standings_season import STECHEN_WIN
from tests.unit.builders import sweep, twins

END = {"end": {"reason": "time"}}
DK = [{"game": {"type": "normal", "dealer": "Anna", "re": ["Anna", "Carla"], "re_points": 150}},
      {"game": {"type": "solo_damen", "dealer": "Bernd", "re": ["Dieter"], "re_points": 100}},
      {"game": {"annulled": True, "annul_reason": "vergeben"}},
      {"game": {"scores": {"Anna": -2, "Bernd": 2, "Carla": -2, "Dieter": 2}}},
      {"game": {"scores": {"Anna": 0, "Bernd": 0, "Carla": 0, "Dieter": 0}}},
      END]
TAROT = [{"game": {"dealer": "Anna", "taker": "Bernd", "contract": "garde", "oudlers": 2, "points": 49}},
         {"game": {"scores": {"Anna": -70, "Bernd": -70, "Carla": 210, "Dieter": -70}}},
         END]


@pytest.fixture
def four(club, secretary):
    return {name: Member.objects.get_or_create(club=club, name=name)[0] for name in ("Anna", "Bernd", "Carla", "Dieter")}


def play(club, four, events, day, game="chaotentrumpf", **settings):
    return matches.create_match(club=club, date=datetime.date(2026, 3, day), members=list(four.values()),
                                scorekeeper=four["Anna"], settings=settings, events=events, ruleset=game)


def expected(results):
    """What openskill itself says after ``results``: (teams of names, ranks), in order."""
    model, state = PlackettLuce(), {}
    for teams, ranks in results:
        rated = model.rate([[state.get(p, model.rating()) for p in team] for team in teams], ranks=ranks)
        for team, after in zip(teams, rated, strict=True):
            state.update(zip(team, after, strict=True))
    return {name: (r.mu, r.sigma) for name, r in state.items()}


def ratings(club, game):
    return {r.member.name: (r.mu, r.sigma) for r in Rating.objects.filter(club=club, game=game).select_related("member")}


def test_chaotentrumpf_partien_are_rated_as_openskill_ranks_them(club, four):
    play(club, four, [twins()] * 4 + [STECHEN_WIN], 2)  # Anna wins the Stechen against Bernd
    play(club, four, [sweep("Dieter", ("Anna", "Bernd", "Carla"))], 1)  # played first: an earlier date
    ledger.refresh(club, "chaotentrumpf")
    assert ratings(club, "chaotentrumpf") == expected([
        ([["Dieter"], ["Anna"], ["Bernd"], ["Carla"]], [0, 1, 1, 1]),
        ([["Anna"], ["Bernd"], ["Carla"], ["Dieter"]], [0, 1, 2, 2]),
    ])
    assert Rating.objects.get(member=four["Anna"], game="chaotentrumpf").games == 2


def test_doppelkopf_games_are_rated_party_against_party_from_the_record(club, four):
    match = play(club, four, DK, 1, "doppelkopf", rules="tcg")
    ledger.refresh(club, "doppelkopf")
    assert ratings(club, "doppelkopf") == expected([
        ([["Anna", "Carla"], ["Bernd", "Dieter"]], [0, 1]),
        ([["Dieter"], ["Anna", "Bernd", "Carla"]], [1, 0]),
        ([["Bernd", "Dieter"], ["Anna", "Carla"]], [0, 1]),  # points only: the signs tell the sides
    ])
    rated = RatedMatch.objects.get(match=match)
    assert (rated.contests, rated.left_out) == (3, 1)  # the annulled Spiel counts for nothing
    anna = RatingStep.objects.get(member=four["Anna"], game="doppelkopf")
    # one party: Carla in the first, the solo's Kontra and the last; Bernd in the solo's Kontra
    assert anna.partners == {str(four["Carla"].pk): [3, 2], str(four["Bernd"].pk): [1, 1]}


def test_tarot_deals_are_rated_taker_against_defenders(club, four):
    play(club, four, TAROT, 1, "tarot")
    ledger.refresh(club, "tarot")
    assert ratings(club, "tarot") == expected([
        ([["Bernd"], ["Anna", "Carla", "Dieter"]], [0, 1]),
        ([["Carla"], ["Anna", "Bernd", "Dieter"]], [0, 1]),
    ])


def test_games_never_mix(club, four):
    play(club, four, [sweep()], 1)
    play(club, four, TAROT, 2, "tarot")
    for game in ("chaotentrumpf", "tarot"):
        ledger.refresh(club, game)
    assert ratings(club, "chaotentrumpf") == expected([([["Anna"], ["Bernd"], ["Carla"], ["Dieter"]], [0, 1, 1, 1])])
    assert ratings(club, "tarot") == expected([
        ([["Bernd"], ["Anna", "Carla", "Dieter"]], [0, 1]), ([["Carla"], ["Anna", "Bernd", "Dieter"]], [0, 1])])


def test_an_annulled_or_running_partie_counts_for_nothing(club, four):
    play(club, four, [sweep(), {"annul_match": {"reason": "Karten unvollständig"}}], 1)
    play(club, four, [twins()], 2)
    ledger.refresh(club, "chaotentrumpf")
    assert not Rating.objects.exists() and not RatingStep.objects.exists()


def test_a_correction_of_an_old_partie_recomputes_from_it_and_equals_a_rebuild(club, four, secretary):
    first = play(club, four, [sweep("Bernd", ("Anna", "Carla", "Dieter"))], 1)
    for day in (2, 3, 4):
        play(club, four, [sweep(["Anna", "Carla", "Dieter"][day - 2],
                                [p for p in ("Anna", "Bernd", "Carla", "Dieter") if p != ["Anna", "Carla", "Dieter"][day - 2]])], day)
    ledger.refresh(club, "chaotentrumpf")
    before = ratings(club, "chaotentrumpf")
    first.refresh_from_db()
    recording.correct_event(first, 0, sweep("Dieter", ("Anna", "Bernd", "Carla"))["game"], user=secretary,
                            reason="Stiche vertauscht")
    assert ledger.refresh(club, "chaotentrumpf") == 4  # from the corrected Partie on
    incremental = ratings(club, "chaotentrumpf")
    assert incremental != before
    steps = list(RatingStep.objects.values_list("member_id", "match_id", "mu", "sigma", "games"))
    ledger.rebuild(club, "chaotentrumpf")
    assert ratings(club, "chaotentrumpf") == incremental
    assert sorted(RatingStep.objects.values_list("member_id", "match_id", "mu", "sigma", "games")) == sorted(steps)
    assert incremental == expected([
        ([["Dieter"], ["Anna"], ["Bernd"], ["Carla"]], [0, 1, 1, 1]),
        ([["Anna"], ["Bernd"], ["Carla"], ["Dieter"]], [0, 1, 1, 1]),
        ([["Carla"], ["Anna"], ["Bernd"], ["Dieter"]], [0, 1, 1, 1]),
        ([["Dieter"], ["Anna"], ["Bernd"], ["Carla"]], [0, 1, 1, 1]),
    ])


def test_a_new_partie_is_rated_after_the_last_without_recomputing_the_others(club, four):
    play(club, four, [sweep()], 1)
    ledger.refresh(club, "chaotentrumpf")
    kept = RatingStep.objects.filter(date=datetime.date(2026, 3, 1)).values_list("pk", flat=True)
    kept = set(kept)
    play(club, four, [sweep("Bernd", ("Anna", "Carla", "Dieter"))], 2)
    assert ledger.refresh(club, "chaotentrumpf") == 1
    assert kept <= set(RatingStep.objects.values_list("pk", flat=True))
    assert ledger.refresh(club, "chaotentrumpf") == 0  # nothing changed since
    incremental = ratings(club, "chaotentrumpf")
    ledger.rebuild(club, "chaotentrumpf")
    assert ratings(club, "chaotentrumpf") == incremental  # the very floats, not nearly


def test_finishing_a_partie_queues_its_game_to_be_rated(club, four, secretary, django_capture_on_commit_callbacks,
                                                       settings):
    from django_tasks import default_task_backend

    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    match = play(club, four, [twins()], 1)
    with django_capture_on_commit_callbacks(execute=True):
        recording.add_event(match, "game", twins()["game"], user=secretary)  # still running: nothing
    assert default_task_backend.results == []
    match.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        recording.add_event(match, "game", sweep()["game"], user=secretary)
    [queued] = default_task_backend.results
    assert queued.task.name == "refresh_ratings" and queued.args == [club.pk, "chaotentrumpf"]


def test_rebuild_ratings_command_gives_the_same_numbers(club, four):
    from django.core.management import call_command

    play(club, four, DK, 1, "doppelkopf", rules="tcg")
    ledger.refresh(club, "doppelkopf")
    incremental = ratings(club, "doppelkopf")
    call_command("rebuild_ratings", club=club.slug, game="doppelkopf", stdout=open("/dev/null", "w"))
    assert ratings(club, "doppelkopf") == incremental


# -- where people look ---------------------------------------------------------------------

@pytest.fixture
def rated_doppelkopf(club, member_client, four):
    """Anna's club after DK (three rated Spiele, one left out), ten more Spiele won with Carla and three lost
    with Bernd."""
    play(club, four, DK, 1, "doppelkopf", rules="tcg")
    won = {"game": {"type": "normal", "dealer": "Bernd", "re": ["Anna", "Carla"], "re_points": 180}}
    lost = {"game": {"type": "normal", "dealer": "Carla", "re": ["Anna", "Bernd"], "re_points": 60}}
    play(club, four, [won] * 10 + [lost] * 3 + [END], 2, "doppelkopf", rules="tcg")
    ledger.refresh(club, "doppelkopf")
    return four


def member_url(club, member, **query):
    from django.urls import reverse

    url = reverse("member_page", kwargs={"slug": club.slug, "member_pk": member.pk})
    return url + "?saison=alle&spiel=doppelkopf"


def test_the_member_page_shows_annas_rating_provisional_and_her_partners(club, member_client, rated_doppelkopf):
    anna = rated_doppelkopf["Anna"]
    rating = Rating.objects.get(member=anna, game="doppelkopf")
    from league.ratings.figures import shown

    page = member_client.get(member_url(club, anna), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Wertung" in page and f"{shown(rating.mu, rating.sigma):,}".replace(",", ".") in page
    assert "vorläufig" in page and "gewertet nach 16 Ergebnissen" in page  # 16 of 40 Spiele
    assert "Bester Partner" in page and "12 von 13 Spielen gemeinsam gewonnen" in page  # Carla
    assert "Schlechtester Partner" in page and "1 von 4 Spielen gemeinsam gewonnen" in page  # Bernd
    assert "Wie wird gewertet?" in page
    english = member_client.get(member_url(club, anna), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Best partner" in english and "provisional" in english


def test_a_member_page_kept_before_the_rating_pass_shows_the_rating_after_it(club, member_client, four):
    """The page is kept between writes (league.standings.kept_page); the ratings' pass runs in
    the background after the Partie was written, and moves the version of whom it rated."""
    play(club, four, DK, 1, "doppelkopf", rules="tcg")
    anna = four["Anna"]
    assert "Wie wird gewertet?" not in member_client.get(member_url(club, anna)).text  # not rated yet
    assert "Wie wird gewertet?" not in member_client.get(member_url(club, anna)).text  # kept so
    ledger.refresh(club, "doppelkopf")
    assert "Wie wird gewertet?" in member_client.get(member_url(club, anna)).text


def test_the_rating_list_ranks_the_club_and_hides_guests_unless_the_club_wants(club, member_client, rated_doppelkopf):
    from django.urls import reverse

    Member.objects.filter(pk=rated_doppelkopf["Dieter"].pk).update(is_guest=True)
    url = reverse("ratings", kwargs={"slug": club.slug})
    page = member_client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Wertungsliste" in page and "Anna" in page and "Dieter" not in page
    assert page.index("Anna") < page.index("Bernd")  # Anna won 11 of 13
    club.ratings_show_guests = True
    club.save()
    assert "Dieter" in member_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_a_guests_rating_shows_on_his_page_only_if_the_club_wants(club, member_client, rated_doppelkopf):
    dieter = rated_doppelkopf["Dieter"]
    Member.objects.filter(pk=dieter.pk).update(is_guest=True)
    assert "Wertungsliste" not in member_client.get(member_url(club, dieter), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    club.ratings_show_guests = True
    club.save()
    assert "Wertungsliste" in member_client.get(member_url(club, dieter), HTTP_ACCEPT_LANGUAGE="de").content.decode()


def test_an_outsider_sees_no_rating_list(club, outsider_client, rated_doppelkopf):
    from django.urls import reverse

    response = outsider_client.get(reverse("ratings", kwargs={"slug": club.slug}))
    assert response.status_code in (403, 404)


def test_how_it_is_rated_in_german_and_english(client):
    from django.urls import reverse

    german = client.get(reverse("how_rated"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Wie wird gewertet?" in german and "Plackett-Luce" in german and "Vorläufig unter 40 Ergebnissen" in german
    english = client.get(reverse("how_rated"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Why a win can move a rating little" in english and "Re against Kontra" in english


def test_the_member_pages_rating_costs_the_same_queries_as_the_history_grows(
        club, member_client, four, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    won = {"game": {"type": "normal", "dealer": "Bernd", "re": ["Anna", "Carla"], "re_points": 180}}
    lost = {"game": {"type": "normal", "dealer": "Carla", "re": ["Anna", "Bernd"], "re_points": 60}}
    play(club, four, [won, lost] * 3 + [END], 1, "doppelkopf", rules="tcg")
    ledger.refresh(club, "doppelkopf")
    url = member_url(club, four["Anna"])
    with CaptureQueriesContext(connection) as small:
        assert "Bester Partner" in member_client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    for day in range(2, 14):
        play(club, four, [won, lost] * 3 + [END], day, "doppelkopf", rules="tcg")
    ledger.refresh(club, "doppelkopf")
    with django_assert_max_num_queries(len(small.captured_queries)):
        page = member_client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 200 and "gewertet nach 78 Ergebnissen" in page.content.decode()


def test_the_club_workbook_has_a_rating_sheet_per_rated_game(club, four):
    import io

    from openpyxl import load_workbook

    from league.spreadsheets.exports import season_xlsx

    play(club, four, [sweep()], 1)
    play(club, four, TAROT, 2, "tarot")
    for game in ("chaotentrumpf", "tarot"):
        ledger.refresh(club, game)
    book = load_workbook(io.BytesIO(season_xlsx(club, None)), read_only=True)
    assert book.sheetnames[-2:] == ["Wertung Chaotentrumpf", "Wertung Tarot"]
    rows = list(book["Wertung Chaotentrumpf"].iter_rows(min_row=1, max_row=3, values_only=True))
    assert rows[0] == ("Platz", "Mitglied", "Wertung", "Ergebnisse", "vorläufig")
    assert rows[1][:2] == (1, "Anna") and rows[1][4] == "ja"  # one Partie: provisional


def test_a_correction_that_reopens_a_rated_partie_queues_it_and_takes_its_ratings_away(
        club, four, secretary, django_capture_on_commit_callbacks, settings):
    from django_tasks import default_task_backend

    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    match = play(club, four, [sweep()], 1)
    ledger.refresh(club, "chaotentrumpf")
    assert Rating.objects.count() == 4
    with django_capture_on_commit_callbacks(execute=True):
        recording.correct_event(match, 0, twins()["game"], user=secretary, reason="Stiche falsch gezählt")
    match.refresh_from_db()
    assert match.status == "running"
    [queued] = default_task_backend.results
    assert queued.args == [club.pk, "chaotentrumpf"]
    assert ledger.refresh(club, "chaotentrumpf") == 0
    assert not Rating.objects.exists() and not RatingStep.objects.exists() and not RatedMatch.objects.exists()


def test_the_secretary_chooses_whether_guests_ratings_are_shown(club, secretary_client):
    from django.urls import reverse

    address = reverse("club_settings", kwargs={"slug": club.slug})
    assert "Wertungen der Gäste zeigen" in secretary_client.get(address, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    response = secretary_client.post(address, {"name": club.name, "place": club.place, "ratings_show_guests": "on",
                                               "correction_window": 24, "correction_window_unit": "hours"})
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.ratings_show_guests
