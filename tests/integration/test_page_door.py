"""A read is not a write (architecture.md): a page gets the engine's answer as a state nobody can
change or feed (protocol.reading.Page), and only the recording door feeds the engine, a fork of
its own, so a save never changes what the pages of a version share."""

import ast
import copy
import dataclasses
from pathlib import Path

import pytest

from protocol import reading, recording
from protocol.models import Match
from tests.unit.builders import quiet

ROOT = Path(__file__).resolve().parents[2]


def as_stored(match):
    return Match.objects.select_related("club", "season", "winner").get(pk=match.pk)


def with_spiele(match, user, on_commit, n):
    with on_commit(execute=True):  # the states are kept when the save commits
        for _ in range(n):
            recording.add_event(as_stored(match), "game", quiet()["game"], user=user)
    return as_stored(match)


def test_a_pages_state_has_no_engine_to_feed_cannot_be_changed_and_a_save_leaves_it_as_it_was(
        running_match, secretary, django_capture_on_commit_callbacks):
    match = with_spiele(running_match, secretary, django_capture_on_commit_callbacks, 2)
    page = reading.page(match, just_fetched=True)
    assert len(page.computed.games) == 2 and page.version == match.version
    for name in ("feed", "replay", "fork", "engine", "finish"):
        assert not hasattr(page, name), name
    with pytest.raises(dataclasses.FrozenInstanceError):
        page.version = match.version + 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        page.evaluation = None
    with pytest.raises(AttributeError):
        page.events.append(quiet())  # the stored entries as read, a tuple
    # the save that follows the page feeds a fork of its own: the page's state stays as it was
    answer, events = copy.deepcopy(page.evaluation.as_json()), list(page.events)
    with django_capture_on_commit_callbacks(execute=True):
        recording.add_event(match, "game", quiet()["game"], user=secretary, version=match.version, page=page)
    assert page.evaluation.as_json() == answer and list(page.events) == events
    assert len(page.computed.games) == 2 and len(page.computed.envelope.events) == 2
    assert len(reading.page(as_stored(match)).computed.games) == 3  # the next page reads the save


def test_the_engines_kept_state_is_read_and_kept_only_behind_the_two_doors():
    """Everything else reads through protocol.reading (``peek``, ``get``, ``get_many``, ``keep``
    of protocol.engine_state hand out or take a state that can be fed)."""
    doors = {ROOT / "protocol" / "reading.py", ROOT / "protocol" / "recording.py", ROOT / "protocol" / "engine_state.py"}
    found = []
    for folder in ("protocol", "league", "jobs", "bench", "config"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path in doors:
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if (isinstance(node, ast.Attribute) and node.attr in {"peek", "get", "get_many", "keep"}
                        and isinstance(node.value, ast.Name) and node.value.id == "engine_state"):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} engine_state.{node.attr}")
    assert found == []
    assert not (ROOT / "protocol" / "services.py").exists()  # one way to each thing, no second door
