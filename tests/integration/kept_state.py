"""A Partie as the next request fetches it, and its kept engine state checked against a replay."""

from protocol import engine_state, reading, recording
from protocol.models import Match
from protocol.rules import evaluate
from tests.unit.builders import quiet


def stored(match):
    """The match as the next request fetches it."""
    return Match.objects.select_related("club", "season", "winner").get(pk=match.pk)


def assert_kept_state_is_the_full_replay(match):
    fresh = stored(match)
    kept = engine_state.get(fresh)
    assert kept is not None, "the write kept no state for the version it made"
    replay = evaluate(reading.document(fresh, ordered=False))
    assert kept.version == fresh.version
    assert kept.events == reading.stored_events(fresh)
    if kept.computed is not None:  # the sheet's rows walk the envelope's events
        assert kept.computed.envelope.events == kept.events
    assert kept.evaluation.as_json() == replay.as_json()
    assert reading.page(fresh, just_fetched=True).evaluation.as_json() == replay.as_json()


def played(running_match, secretary, django_capture_on_commit_callbacks, spiele=6):
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(spiele):
            recording.add_event(stored(running_match), "game", quiet()["game"], user=secretary)
    return stored(running_match)
