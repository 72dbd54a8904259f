"""The Spiel form's save feeds the engine state this process shares with the pages and polls
of the version (engine_state.peek) through a fork (Engine.fork, recording.add_event): the
state shared for a version never changes, a refused, stale or rolled back save leaves it as it
was and keeps nothing, and every saved version's state is what a replay answers."""

import copy

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from protocol import engine_state, recording
from tests.conftest import saved, sheet_rows
from tests.integration.kept_state import assert_kept_state_is_the_full_replay, played, stored
from tests.integration.pages import game_post, url
from tests.unit.builders import quiet, twins


def shared(match):
    """The state this process shares for the match's stored version, and its answer now."""
    state = engine_state.peek(stored(match))
    assert state is not None
    return state, copy.deepcopy(state.evaluation.as_json())


def refused_game():
    bad = quiet()["game"]
    bad["results"]["Anna"]["points"] = 1  # 1 Augenpunkt with 3 Stiche: refused by the rules
    return bad


def test_a_refused_save_leaves_the_shared_state_as_it_was_and_keeps_nothing(
        running_match, secretary, scorekeeper_client, django_capture_on_commit_callbacks):
    match = played(running_match, secretary, django_capture_on_commit_callbacks, spiele=3)
    state, answer = shared(match)
    with django_capture_on_commit_callbacks(execute=True):
        response = scorekeeper_client.post(url(match, "game_new"), game_post(match, refused_game()))
    assert response.status_code == 200 and response.context["form"].errors
    assert stored(match).version == match.version and stored(match).game_count == 3
    again, _ = shared(match)
    assert again is state and state.evaluation.as_json() == answer
    assert len(state.events) == 3 and len(state.computed.games) == 3
    assert_kept_state_is_the_full_replay(match)


def test_two_saves_in_a_row_feed_the_shared_states_and_keep_exactly_the_replayed_state(
        running_match, secretary, scorekeeper_client, member_client, django_capture_on_commit_callbacks):
    match = played(running_match, secretary, django_capture_on_commit_callbacks, spiele=3)
    first, first_answer = shared(match)
    for n in (4, 5):
        current = stored(match)
        with django_capture_on_commit_callbacks(execute=True):
            response = scorekeeper_client.post(url(current, "game_new"), game_post(current, quiet()["game"]))
        assert saved(response, match), response.content.decode()[:2000]
        assert stored(match).game_count == n
        assert_kept_state_is_the_full_replay(match)
        page = member_client.get(url(match))
        assert sheet_rows(page) == n
    assert first.evaluation.as_json() == first_answer  # the version before both saves, unchanged
    assert len(first.computed.games) == 3


def test_a_stale_form_is_refused_with_409_and_the_shared_state_stays(
        running_match, secretary, scorekeeper_client, django_capture_on_commit_callbacks):
    match = played(running_match, secretary, django_capture_on_commit_callbacks, spiele=2)
    old = stored(match)
    with django_capture_on_commit_callbacks(execute=True):  # another device saves first
        recording.add_event(stored(match), "game", quiet()["game"], user=secretary)
    state, answer = shared(match)
    with django_capture_on_commit_callbacks(execute=True):
        # another Spiel than the other device's (the same one would be recognised as the same deal)
        response = scorekeeper_client.post(url(match, "game_new"), game_post(old, twins()["game"]))
    assert response.status_code == 409
    assert stored(match).game_count == 3
    assert shared(match)[0] is state and state.evaluation.as_json() == answer
    assert_kept_state_is_the_full_replay(match)


def test_a_save_whose_transaction_rolls_back_keeps_nothing_and_changes_nothing_shared(
        running_match, secretary, django_capture_on_commit_callbacks):
    match = played(running_match, secretary, django_capture_on_commit_callbacks, spiele=2)
    state, answer = shared(match)
    kept_before = dict(engine_state._SHARED)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError):
        with transaction.atomic():
            recording.add_event(stored(match), "game", quiet()["game"], user=secretary)
            raise RuntimeError("the request failed after the save")
    assert stored(match).version == match.version and stored(match).game_count == 2
    assert dict(engine_state._SHARED) == kept_before
    assert shared(match)[0] is state and state.evaluation.as_json() == answer
    assert_kept_state_is_the_full_replay(match)


def statements(captured):
    """The statements a request sent, without the savepoints of the test's own transaction and
    the begin and commit of a transaction of its own (SQLite's are statements, PostgreSQL's not)."""
    return [q["sql"] for q in captured.captured_queries
            if not q["sql"].startswith(("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT"))]


# The save keeps its state for its process's readers when it commits (on_commit): committed for
# real here, as the request's own answer, the match page, reads it right after.
@pytest.mark.django_db(transaction=True)
def test_saving_a_spiel_and_the_page_it_answers_with_ask_the_database_only_what_they_need(
        running_match, secretary, secretary_client, django_capture_on_commit_callbacks):
    match = played(running_match, secretary, django_capture_on_commit_callbacks, spiele=3)
    secretary_client.get(url(match, "game_new"))  # the form, as the device showed it
    data = game_post(match, quiet()["game"])
    with CaptureQueriesContext(connection) as post, django_capture_on_commit_callbacks(execute=True):
        response = secretary_client.post(url(match, "game_new"), data)
    assert saved(response, match), response.content.decode()[:2000]
    assert sheet_rows(response) == 4
    # session, user, the match (with the facts of its state's key: its confirmations, its
    # Protokollant's user and the viewer's roles); the claim writing the match's cache, the
    # Spiel's score lines, the Spiel, its history line, the players' versions of their kept pages
    # (league.registry.versions: the club's stays, the Partie is running); the match page it
    # answers with asks nothing more
    assert len(statements(post)) == 8, statements(post)


def test_the_save_finds_the_state_its_form_read_after_a_tournaments_other_tables_were_read(
        running_match, secretary, secretary_client, django_capture_on_commit_callbacks):
    """A worker serves the thirty tables of a tournament in turn: between a phone's Spiel form
    and its save (45-90 s) it reads the other tables' states. The save still feeds the state
    the form read, without asking the shared cache for it again."""
    from types import SimpleNamespace

    from django.core.cache import cache

    match = played(running_match, secretary, django_capture_on_commit_callbacks, spiele=3)
    secretary_client.get(url(match, "game_new"))  # the form, as the device showed it
    state, _ = shared(match)
    club = SimpleNamespace(name=match.club.name)
    for table in range(30):  # the other tables' states, each read by this worker
        other = SimpleNamespace(pk=10_000 + table, version=1, updated_at=None, season_id=None, club=club,
                                date=match.date, place="")
        engine_state.keep(other, state, handed_over=True)
    cache.clear()  # what the process holds is all there is: the save may not unpickle it
    assert engine_state.peek(stored(match)) is state
    with django_capture_on_commit_callbacks(execute=True):
        response = secretary_client.post(url(match, "game_new"), game_post(match, quiet()["game"]))
    assert saved(response, match) and stored(match).game_count == 4
    assert_kept_state_is_the_full_replay(match)
