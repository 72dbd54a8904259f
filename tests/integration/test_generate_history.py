"""manage.py generate_history: deterministic, engine-valid history with the service's cache."""

from django.core.management import call_command

from protocol import reading, score_cache
from protocol.models import Match, SanctionLine, ScoreLine
from tests.integration.pages import table_rows

TINY = ["--clubs", "1", "--seasons", "1", "--matches", "5", "--seed", "1"]


def documents():
    return [reading.document(m) for m in Match.objects.order_by("date", "pk")]


def cache_of(match):
    scores = sorted(ScoreLine.objects.filter(match=match).values_list(
        *score_cache.SCORE_FIELDS))
    sanctions = sorted(SanctionLine.objects.filter(match=match).values_list(
        "member_id", "kind", "points", "after_game", "stage", "reason"))
    return (match.status, match.winner_id, match.ended_by, match.game_count, scores, sanctions)


def test_it_makes_the_same_protocols_for_the_same_seed(db):
    call_command("generate_history", *TINY, "--prefix", "Erst")
    first = documents()
    Match.objects.all().delete()
    call_command("generate_history", *TINY, "--prefix", "Zweit")
    second = documents()
    for doc in first + second:
        doc.pop("club")
    assert len(first) == 5 and first == second


def test_every_partie_passes_the_engine_and_caches_what_the_service_would(db):
    call_command("generate_history", *TINY)
    matches = list(Match.objects.order_by("pk"))
    assert len(matches) == 5
    assert sum(m.game_count for m in matches) > 5 * 10
    for match in matches:
        assert not reading.page(match).evaluation.errors
        generated = cache_of(match)
        score_cache.refresh_cache(match, reading.page(match).evaluation)
        match.refresh_from_db()
        assert cache_of(match) == generated


def test_partien_written_in_bulk_show_on_the_kept_all_time_table(db, client):
    """The generator writes past the recording door: it moves the club's and members' versions
    itself (league.registry.versions), so a table kept before shows its Partien."""
    import datetime
    import random

    from django.urls import reverse

    from league.models import Club, Season
    from protocol.management.commands import generate_history

    call_command("generate_history", *TINY)
    club = Club.objects.get()
    address = reverse("standings_all_time", kwargs={"slug": club.slug})

    def played():
        response = client.get(address)
        assert response.status_code == 200  # the generated clubs' tables are public
        return sum(int(row["Partien"]) for row in table_rows(response.text))

    season = Season.objects.create(club=club, name="1999", start=datetime.date(1999, 1, 1),
                                   end=datetime.date(1999, 12, 31))
    before = played()
    assert played() == before  # kept
    generate_history._season(club, season, {m.name: m for m in club.members.all()}, 5, random.Random(2))
    assert played() > before
