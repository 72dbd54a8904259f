"""protocol.recording and protocol.matches: every write is checked by the engine, whole or not at all, with history."""

import datetime
import uuid

import pytest

from league.models import Member
from protocol import matches, reading, recording, score_cache
from protocol.models import Change, Event, Match, SanctionLine, ScoreLine
from protocol.rules import evaluate
from tests.unit.builders import quiet, sweep

NAMES = ["Anna", "Bernd", "Carla", "Dieter"]


@pytest.fixture
def table(club):
    return [Member.objects.create(club=club, name=n) for n in NAMES]


@pytest.fixture
def match(club, table, secretary):
    return matches.create_match(club=club, date=datetime.date(2026, 11, 20), members=table,
                                scorekeeper=table[0], settings={}, user=secretary)


def body(event):
    return next(iter(event.values()))


def test_a_new_match_has_its_seating_and_a_history_entry(match):
    assert [s.name for s in match.seats.all()] == NAMES
    assert match.scorekeeper_seat.name == "Anna"
    assert match.changes.get().action == Change.Action.CREATE_MATCH


def test_a_spiel_is_saved_and_the_cache_follows_the_engine(match, secretary):
    recording.add_event(match, "game", body(quiet()), user=secretary, version=match.version)
    match.refresh_from_db()
    assert match.version == 1 and match.game_count == 1 and match.status == "running"
    lines = {line.member.name: (line.score, line.total) for line in ScoreLine.objects.filter(match=match)}
    assert lines == {"Anna": (31, 31), "Bernd": (31, 31), "Carla": (21, 21), "Dieter": (21, 21)}


def test_a_winning_spiel_finishes_the_match_with_its_winner(match, secretary):
    recording.add_event(match, "game", body(sweep()), user=secretary)
    match.refresh_from_db()
    assert match.status == "finished" and match.winner.name == "Anna" and match.ended_by == "limit"


def test_an_invalid_spiel_is_refused_and_nothing_is_saved(match, secretary):
    bad = body(quiet())
    bad["results"]["Anna"]["points"] = 1
    with pytest.raises(recording.RuleViolation) as refused:
        recording.add_event(match, "game", bad, user=secretary, version=match.version)
    assert refused.value.errors[0].player == "Anna" and "Art. 13a" in refused.value.errors[0].message
    match.refresh_from_db()
    assert match.version == 0 and not match.events.exists() and match.changes.count() == 1


def test_a_stale_form_is_refused_and_nothing_is_lost(match, secretary):
    seen = match.version
    recording.add_event(match, "game", body(quiet()), user=secretary, version=seen)  # device 1
    other = Match.objects.get(pk=match.pk)
    with pytest.raises(recording.StaleMatch):
        recording.add_event(other, "game", body(quiet()), user=secretary, version=seen)  # device 2
    assert Event.objects.filter(match=match).count() == 1


def test_a_double_submit_records_the_spiel_once(match, secretary):
    token = uuid.uuid4()
    recording.add_event(match, "game", body(quiet()), user=secretary, version=0, submission=token)
    with pytest.raises(recording.AlreadySaved):
        recording.add_event(match, "game", body(quiet()), user=secretary, version=0, submission=token)
    assert match.events.count() == 1


def test_a_correction_keeps_the_history_and_rederives_everything_after(match, secretary):
    recording.add_event(match, "game", body(quiet()), user=secretary)
    recording.add_event(match, "game", body(quiet()), user=secretary)
    fixed = body(quiet())
    fixed["results"]["Anna"]["points"] = 20
    fixed["results"]["Bernd"]["points"] = 40
    recording.correct_event(match, 0, fixed, user=secretary, reason="Augen vertauscht")
    totals = ScoreLine.objects.filter(match=match, game_number=2).values_list("member__name", "total")
    assert dict(totals)["Anna"] == 21 + 31 and dict(totals)["Bernd"] == 41 + 31
    change = match.changes.get(action=Change.Action.CORRECT)
    assert change.user == secretary and change.reason == "Augen vertauscht"
    assert change.before["game"]["results"]["Anna"]["points"] == 30 and change.after["game"]["results"]["Anna"]["points"] == 20


def test_a_correction_needs_a_reason(match, secretary):
    recording.add_event(match, "game", body(quiet()), user=secretary)
    with pytest.raises(recording.RuleViolation):
        recording.correct_event(match, 0, body(quiet()), user=secretary, reason=" ")


def test_a_correction_that_breaks_a_later_entry_is_refused(match, secretary):
    recording.add_event(match, "game", body(quiet()), user=secretary)
    recording.add_event(match, "game", body(quiet()), user=secretary)
    with pytest.raises(recording.RuleViolation):  # after a win there can be no second Spiel
        recording.correct_event(match, 0, body(sweep()), user=secretary, reason="falsch abgelesen")
    assert match.events.get(position=0).data == body(quiet())


def test_a_removed_entry_is_gone_from_the_sheet_but_not_from_the_history(match, secretary):
    recording.add_event(match, "penalty", {"player": "Carla", "points": 200, "reason": "x"}, user=secretary)
    recording.add_event(match, "game", body(quiet()), user=secretary)
    assert SanctionLine.objects.get(match=match).points == 200
    recording.remove_event(match, 0, user=secretary, reason="Strafe war ein Irrtum")
    assert list(match.events.values_list("position", "kind")) == [(0, "game")]
    assert not SanctionLine.objects.filter(match=match).exists()
    assert match.changes.get(action=Change.Action.REMOVE).before["penalty"]["points"] == 200


def test_the_stored_document_is_what_the_engine_reads(match, secretary):
    recording.add_event(match, "game", body(quiet()), user=secretary)
    doc = reading.document(match)
    assert doc["players"] == NAMES and doc["scorekeeper"] == "Anna" and doc["date"] == "2026-11-20"
    assert doc["events"] == [quiet()]


def cache_of(match):
    return (sorted(ScoreLine.objects.filter(match=match).values_list(*score_cache.SCORE_FIELDS)),
            sorted(SanctionLine.objects.filter(match=match).values_list(*score_cache.SANCTION_FIELDS)))


def full_cache(match):
    """What a rewrite from scratch stores: every row of the engine's answer."""
    scores, sanctions = score_cache.cache_rows(Match.objects.get(pk=match.pk), reading.page(match).evaluation)
    return (sorted(tuple(getattr(r, f) for f in score_cache.SCORE_FIELDS) for r in scores),
            sorted(tuple(getattr(r, f) for f in score_cache.SANCTION_FIELDS) for r in sanctions))


def test_the_cache_written_piecewise_is_the_engines_whole_answer(match, secretary):
    """Appends write only their own rows, corrections only what changed: after every write
    the league's rows are exactly what a rewrite from the engine gives."""
    penalty = {"player": "Carla", "points": 100, "reason": "Karte gezeigt"}
    writes = [
        lambda m: recording.add_event(m, "game", body(quiet()), user=secretary),
        lambda m: recording.add_event(m, "penalty", penalty, user=secretary),
        lambda m: recording.add_event(m, "game", body(quiet()), user=secretary),
        lambda m: recording.add_event(m, "warning", {"player": "Dieter", "reason": "laut"}, user=secretary),
        lambda m: recording.correct_event(m, 0, body(quiet(annulled=True, annul_reason="vergeben")),
                                          user=secretary, reason="vergeben"),
        lambda m: recording.remove_event(m, 1, user=secretary, reason="doppelt"),
        lambda m: recording.add_event(m, "game", body(quiet()), user=secretary),
    ]
    for write in writes:
        write(Match.objects.get(pk=match.pk))
        assert cache_of(match) == full_cache(match)
    assert len(cache_of(match)[0]) == 3 * 4 and len(cache_of(match)[1]) == 1


def test_a_save_from_an_outdated_match_object_still_caches_exactly(match, secretary):
    """The form's version is current but the object in hand was read before the last save."""
    old = Match.objects.get(pk=match.pk)
    recording.add_event(Match.objects.get(pk=match.pk), "game", body(quiet()), user=secretary)
    current = Match.objects.get(pk=match.pk).version
    recording.add_event(old, "game", body(quiet()), user=secretary, version=current,
                        page=reading.Page(old.version, (), evaluate(reading.document(old, [], ordered=False))))
    assert Event.objects.filter(match=match).count() == 2
    assert cache_of(match) == full_cache(match)
