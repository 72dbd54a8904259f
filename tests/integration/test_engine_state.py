"""The engine's state of a Partie kept per version (protocol.engine_state): whatever was kept
answers exactly as a replay of the stored events, and a device that polls a Partie nobody
changed gets its state without the engine replaying anything."""

import datetime
import json
from pathlib import Path

import pytest
from django.core.cache import cache

from league.models import Member
from league.registry.recent import Recent
from protocol import engine_state, matches, reading, recording
from protocol.rules import evaluate
from protocol.rules.match import Engine, GameRules
from tests.conftest import saved, sheet_rows
from tests.integration.kept_state import assert_kept_state_is_the_full_replay, played, stored
from tests.integration.pages import game_post, url
from tests.unit.builders import quiet
from tests.unit.doppelkopf_deals import deal
from tests.unit.tarot_deals import plain

DATA = Path(__file__).resolve().parents[1] / "data"


def new_match(club, secretary, players, ruleset, settings=None):
    members = {m.name: m for m in club.members.all()}
    for name in players:
        if name not in members:
            members[name] = Member.objects.create(club=club, name=name)
    return matches.create_match(club=club, date=datetime.date(2026, 11, 20), place="Nürtingen",
                                 members=[members[n] for n in players], scorekeeper=members[players[1]],
                                 settings=settings or {}, ruleset=ruleset, user=secretary)


def write_all(match, writes, django_capture_on_commit_callbacks):
    for write in writes:
        with django_capture_on_commit_callbacks(execute=True):  # the state is kept on commit
            write(stored(match))
        assert_kept_state_is_the_full_replay(match)


def test_chaotentrumpf_with_corrections_and_a_stechen_keeps_exactly_the_replayed_state(
        club, secretary, django_capture_on_commit_callbacks):
    doc = json.loads((DATA / "stechen.json").read_text())
    match = new_match(club, secretary, doc["players"], "chaotentrumpf", doc["settings"])
    entries = [next(iter(e.items())) for e in doc["events"]]
    assert entries[1][0] == "game"
    second = entries[1][1]
    annulled = dict(second) | {"annulled": True, "annul_reason": "vergeben"}
    add = [lambda m, k=k, b=b: recording.add_event(m, k, b, user=secretary) for k, b in entries]
    writes = add[:3] + [
        lambda m: recording.correct_event(m, 1, annulled, user=secretary, reason="vergeben"),
        lambda m: recording.add_event(m, "penalty", {"player": "Carla", "points": 100, "reason": "Karte gezeigt"},
                                     user=secretary),
        lambda m: recording.remove_event(m, 3, user=secretary, reason="doch keine Strafe"),
        lambda m: recording.correct_event(m, 1, second, user=secretary, reason="doch gültig"),
    ] + add[3:]
    write_all(match, writes, django_capture_on_commit_callbacks)
    computed = reading.page(stored(match), just_fetched=True).computed
    assert computed.status == "finished" and len(computed.tiebreaks) == 1  # the Stechen was kept too


def test_doppelkopf_with_a_correction_and_the_end_keeps_exactly_the_replayed_state(
        club, secretary, django_capture_on_commit_callbacks):
    match = new_match(club, secretary, ["Anna", "Bernd", "Carla", "Dieter"], "doppelkopf", {"rules": "tcg"})
    dealers = ["Anna", "Bernd", "Carla", "Dieter"]
    writes = [lambda m, i=i: recording.add_event(m, "game", deal(points=100 + 10 * i, dealer=dealers[i % 4],
                                                                 re_says=i % 3), user=secretary)
              for i in range(5)]
    writes += [
        lambda m: recording.correct_event(m, 2, deal(points=150, dealer="Carla"), user=secretary, reason="verzählt"),
        lambda m: recording.add_event(m, "warning", {"player": "Dieter", "reason": "laut"}, user=secretary),
        lambda m: recording.add_event(m, "end", {"reason": "agreed"}, user=secretary),
    ]
    write_all(match, writes, django_capture_on_commit_callbacks)


def test_tarot_with_a_correction_and_the_end_keeps_exactly_the_replayed_state(
        club, secretary, django_capture_on_commit_callbacks):
    players = ["Anna", "Bernd", "Carla", "Dieter"]
    match = new_match(club, secretary, players, "tarot")
    writes = [lambda m, i=i: recording.add_event(m, "game", plain(dealer=players[i % 4], taker=players[(i + 1) % 4],
                                                                 points=30 + 7 * i), user=secretary)
              for i in range(5)]
    writes += [
        lambda m: recording.correct_event(m, 0, plain(points=60), user=secretary, reason="verzählt"),
        lambda m: recording.add_event(m, "end", {"reason": "time"}, user=secretary),
    ]
    write_all(match, writes, django_capture_on_commit_callbacks)


def test_the_preview_from_the_kept_state_is_the_preview_of_a_replay(club, secretary, django_capture_on_commit_callbacks):
    match = new_match(club, secretary, ["Anna", "Bernd", "Carla", "Dieter"], "chaotentrumpf")
    write_all(match, [lambda m: recording.add_event(m, "game", quiet()["game"], user=secretary)],
              django_capture_on_commit_callbacks)
    evaluation, index = recording.preview(stored(match), "game", quiet()["game"])
    replay = evaluate(reading.document(stored(match), reading.stored_events(match) + [quiet()]))
    assert index == 1 and evaluation.as_json() == replay.as_json()


@pytest.fixture
def engine_calls(monkeypatch):
    """How often the engine replays a Partie from its start, and how many entries it is fed."""
    calls = {"replays": 0, "fed": 0}
    start, feed = GameRules.start, Engine.feed

    def counted_start(self, document):
        calls["replays"] += 1
        return start(self, document)

    def counted_feed(self, event):
        calls["fed"] += 1
        return feed(self, event)

    monkeypatch.setattr(GameRules, "start", counted_start)
    monkeypatch.setattr(Engine, "feed", counted_feed)
    return calls


def test_a_poll_at_an_unchanged_version_replays_nothing(running_match, secretary, member_client, engine_calls,
                                                        django_capture_on_commit_callbacks):
    match = played(running_match, secretary, django_capture_on_commit_callbacks)
    engine_calls.update(replays=0, fed=0)
    for _ in range(3):  # three devices at the table poll the state
        response = member_client.get(url(match, "sheet"))
        assert response.status_code == 200
    assert engine_calls == {"replays": 0, "fed": 0}
    assert member_client.get(url(match)).status_code == 200  # the match page itself too
    assert engine_calls == {"replays": 0, "fed": 0}


@pytest.mark.django_db(transaction=True)  # committed for real: the save's answer reads the state it kept on commit
def test_a_new_spiel_is_fed_to_the_kept_state_and_the_next_poll_needs_no_replay(
        running_match, secretary, scorekeeper_client, member_client, engine_calls,
        django_capture_on_commit_callbacks):
    match = played(running_match, secretary, django_capture_on_commit_callbacks)
    engine_calls.update(replays=0, fed=0)
    data = game_post(match, quiet()["game"])
    with django_capture_on_commit_callbacks(execute=True):
        response = scorekeeper_client.post(url(match, "game_new"), data)
    assert saved(response, match), response.content.decode()[:3000]
    assert engine_calls == {"replays": 0, "fed": 1}  # the one new Spiel, nothing replayed, the page answered too
    sheet = member_client.get(url(match, "sheet"))
    assert engine_calls == {"replays": 0, "fed": 1}
    assert stored(match).game_count == 7
    assert sheet_rows(sheet) == 7  # every Spiel on the sheet, the new one too
    assert sheet.content.decode().count("<tr><th scope=\"row\">") == 7


def test_a_save_keeps_only_its_spiel_in_the_cache_and_another_worker_feeds_it_to_the_state_before(
        running_match, secretary, member_client, engine_calls, monkeypatch, django_capture_on_commit_callbacks):
    for _ in range(engine_state.APPENDED_AT_MOST + 3):  # each save after the one before committed
        match = played(running_match, secretary, django_capture_on_commit_callbacks, spiele=1)
    kept = cache.get(engine_state.key(match))
    assert kept[0] == engine_state.APPENDED and kept[2] == {"game": quiet()["game"]}  # the newest Spiel, not the state
    before, depth = kept, 0
    while isinstance(before, tuple):  # back to a state kept whole, every APPENDED_AT_MOST-th save at the latest
        before, depth = cache.get(before[1]), depth + 1
    assert isinstance(before, bytes) and depth <= engine_state.APPENDED_AT_MOST
    monkeypatch.setattr(engine_state, "_SHARED", Recent(engine_state.SHARED))  # another worker: nothing of this one's
    engine_calls.update(replays=0, fed=0)
    sheet = member_client.get(url(match, "sheet"))
    assert engine_calls == {"replays": 0, "fed": depth}  # the entries since the whole state, nothing replayed
    assert sheet.content.decode().count('<tr><th scope="row">') == engine_state.APPENDED_AT_MOST + 3
    monkeypatch.setattr(engine_state, "_SHARED", Recent(engine_state.SHARED))
    assert_kept_state_is_the_full_replay(match)
    monkeypatch.setattr(engine_state, "_SHARED", Recent(engine_state.SHARED))
    replays = engine_calls["replays"]
    bulk = reading.BulkReading([stored(match)]).evaluation(stored(match))  # a workbook's reading
    assert engine_calls["replays"] == replays  # the entries fed to the state kept whole, nothing replayed
    assert bulk.as_json() == evaluate(reading.document(stored(match), ordered=False)).as_json()
    cache.delete(kept[1])  # the state before is gone (the cache's timeout): the stored events are replayed
    monkeypatch.setattr(engine_state, "_SHARED", Recent(engine_state.SHARED))
    engine_calls.update(replays=0)
    replay = evaluate(reading.document(stored(match), ordered=False))
    assert reading.page(stored(match)).evaluation.as_json() == replay.as_json()
    assert engine_calls["replays"] == 2  # the page's and the comparison's


def test_the_live_preview_feeds_only_the_entry_being_typed(running_match, secretary, engine_calls,
                                                           django_capture_on_commit_callbacks):
    match = played(running_match, secretary, django_capture_on_commit_callbacks)
    engine_calls.update(replays=0, fed=0)
    evaluation, index = recording.preview(match, "game", quiet()["game"])
    assert index == 6 and not evaluation.errors
    assert engine_calls == {"replays": 0, "fed": 1}


def test_a_write_that_is_refused_keeps_nothing(running_match, secretary, django_capture_on_commit_callbacks):
    match = played(running_match, secretary, django_capture_on_commit_callbacks, spiele=1)
    bad = quiet()["game"]
    bad["results"]["Anna"]["points"] = 1
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(recording.RuleViolation):
        recording.add_event(match, "game", bad, user=secretary)
    assert_kept_state_is_the_full_replay(match)
    assert stored(match).game_count == 1


def test_renaming_the_club_is_a_new_key_so_the_sheet_never_shows_the_old_name(running_match, secretary):
    match = stored(running_match)
    before = engine_state.key(match)
    match.club.name = "2. CTV"
    assert engine_state.key(match) != before
