"""manage.py generate_history: deterministic, engine-valid history with the service's cache."""

from django.core.management import call_command

from protocol import reading, score_cache
from protocol.models import Match, SanctionLine, ScoreLine

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
