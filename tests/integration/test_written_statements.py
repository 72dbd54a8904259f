"""The inserts and the claim a Spiel's save writes as SQL of its own (league.registry.statements:
``Insert``, ``Update``) store exactly what Django's own ``create``, ``bulk_create`` and
``update`` store, on SQLite and on PostgreSQL: the history, the cache rows and the Partie's
version are what every page reads afterwards."""

import datetime
import uuid

import pytest
from django.db.models.signals import post_save
from django.utils import timezone

from league.registry.statements import Insert, Update
from protocol import recording
from protocol.models import Change, Event, Match, ScoreLine
from tests.unit.builders import quiet

pytestmark = pytest.mark.django_db


def _row(model, pk, *leave_out):
    row = model.objects.filter(pk=pk).values().get()
    return {name: value for name, value in row.items() if name not in ("id", *leave_out)}


def test_an_event_inserted_is_the_row_django_creates(running_match, secretary):
    body = {"trump": {"level": "suit", "value": "Herz"}, "lines": [{"player": "Anna", "tricks": 2}], "note": "„Ä“ 😀"}
    submission = uuid.uuid4()
    before = timezone.now()
    (mine,) = Insert(Event, returning=True).rows([Event(match=running_match, position=90, kind="game", data=body,
                                                        submission=submission, created_by=secretary)])
    django = Event.objects.create(match=running_match, position=91, kind="game", data=body,
                                  submission=uuid.uuid4(), created_by=secretary)
    assert mine.pk and Event.objects.get(pk=mine.pk).data == body  # the id read back is the row's
    assert _row(Event, mine.pk, "position", "submission", "created_at") == _row(
        Event, django.pk, "position", "submission", "created_at")
    stored = Event.objects.get(pk=mine.pk)
    assert stored.submission == submission and before <= stored.created_at <= timezone.now()
    assert not mine._state.adding


def test_an_event_inserted_on_an_sqlite_without_returning_reads_its_id_as_django_does(
        running_match, monkeypatch):
    """An SQLite before 3.35 (Debian 11, Ubuntu 20.04) has no RETURNING: the new id is the one
    the insert gave (PostgreSQL always has it)."""
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("only SQLite was ever without RETURNING")
    monkeypatch.setattr(connection.features, "can_return_columns_from_insert", False)
    (first,) = Insert(Event, returning=True).rows([Event(match=running_match, position=80, kind="game", data={})])
    (second,) = Insert(Event, returning=True).rows([Event(match=running_match, position=81, kind="game", data={})])
    assert Event.objects.get(pk=first.pk).position == 80 and Event.objects.get(pk=second.pk).position == 81


def test_score_lines_inserted_together_are_the_rows_django_bulk_creates(running_match):
    member = running_match.seats.first().member
    lines = [ScoreLine(match=running_match, member=member, game_number=n, score=-100 * n, total=7, annulled=n == 2,
                       took_trump_bonus=n == 3) for n in (1, 2, 3)]
    Insert(ScoreLine).rows(lines)
    ScoreLine.objects.bulk_create([ScoreLine(match=running_match, member=member, game_number=n + 10, score=-100 * n,
                                             total=7, annulled=n == 2, took_trump_bonus=n == 3) for n in (1, 2, 3)])
    rows = list(ScoreLine.objects.filter(match=running_match).order_by("game_number").values(
        "game_number", "score", "total", "annulled", "took_trump_bonus", "stage", "points_only"))
    assert [r | {"game_number": r["game_number"] % 10} for r in rows[3:]] == rows[:3]
    assert Insert(ScoreLine).rows([]) == []


def test_the_claim_changes_the_partie_only_at_the_version_read(running_match):
    claim = Update(Match, sets=("version", "updated_at", "status", "winner_id", "finished_at"), where=("id", "version"))
    moment = timezone.now().replace(microsecond=123456)
    version = running_match.version
    sets = {"version": version + 1, "updated_at": moment, "status": "finished", "winner": None,
            "finished_at": moment - datetime.timedelta(hours=1)}
    assert claim.run(sets, {"id": running_match.pk, "version": version + 5}) == 0  # another device saved first
    assert Match.objects.get(pk=running_match.pk).version == version
    assert claim.run(sets, {"id": running_match.pk, "version": version}) == 1
    stored = Match.objects.get(pk=running_match.pk)
    assert (stored.version, stored.updated_at, stored.status, stored.winner_id, stored.finished_at) == (
        version + 1, moment, "finished", None, moment - datetime.timedelta(hours=1))


def test_a_receiver_of_the_models_signal_hears_of_each_row(running_match, secretary):
    """Written by hand, the rows would pass a receiver by: one connected is heard (Django's save)."""
    heard = []

    def receiver(sender, instance, created, **kwargs):
        heard.append((instance.action, created))

    post_save.connect(receiver, sender=Change, dispatch_uid="test.change_saved")
    try:
        recording.add_event(running_match, "game", quiet()["game"], user=secretary)
    finally:
        post_save.disconnect(sender=Change, dispatch_uid="test.change_saved")
    assert heard == [("add", True)]
    assert Change.objects.filter(match=running_match, action="add").count() == 1
