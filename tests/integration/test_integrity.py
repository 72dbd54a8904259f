"""Every write happens entirely or not at all: a failing database mid-save, a killed server."""

import datetime
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import pytest
from django.db import connection
from django.db.models import QuerySet
from django.test import Client

from league.models import Member
from league.registry.statements import Insert
from protocol import matches, reading, recording
from protocol.models import Change, Event, Match, SanctionLine, ScoreLine
from tests.integration.pages import game_post
from tests.unit.builders import quiet

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def match(club, secretary):
    table = [Member.objects.get_or_create(club=club, name=n)[0] for n in ("Anna", "Bernd", "Carla", "Dieter")]
    match = matches.create_match(club=club, date=datetime.date(2026, 11, 20), members=table,
                                 scorekeeper=table[1], settings={}, user=secretary)
    recording.add_event(match, "game", quiet()["game"], user=secretary)
    match.refresh_from_db()
    return match


def snapshot(match):
    return (Match.objects.filter(pk=match.pk).values("version", "status", "game_count").get(),
            list(Event.objects.filter(match=match).values_list("position", "kind", "data")),
            Change.objects.filter(match=match).count(),
            list(ScoreLine.objects.filter(match=match).values_list("game_number", "member_id", "score", "total")),
            list(SanctionLine.objects.filter(match=match).values_list("kind", "points")))


WRITES = {
    "add a Spiel": lambda m: recording.add_event(m, "game", quiet()["game"], version=m.version),
    "add a Strafe": lambda m: recording.add_event(m, "penalty", {"player": "Anna", "points": 100, "reason": "x"},
                                                  version=m.version),
    "correct a Spiel": lambda m: recording.correct_event(m, 0, quiet(annulled=True, annul_reason="x")["game"],
                                                         version=m.version, reason="vergeben"),
    "remove a Spiel": lambda m: recording.remove_event(m, 0, version=m.version, reason="doppelt"),
    "change settings": lambda m: recording.update_settings(m, {"limit": 2000}, version=m.version, reason="NÜV"),
}


def _failing_inserts(monkeypatch, *models):
    """The inserts a Spiel's save writes as SQL of its own (league.registry.statements.Insert)
    fail for ``models``."""
    original = Insert.rows

    def rows(self, objs):
        if self.model in models:
            raise RuntimeError("database gone")
        return original(self, objs)

    monkeypatch.setattr(Insert, "rows", rows)


def _fail_at_history(monkeypatch):
    """Every write records its Change after the facts it stored."""
    def failing_create(*args, **kwargs):
        raise RuntimeError("database gone")
    monkeypatch.setattr(Change.objects, "create", failing_create)
    _failing_inserts(monkeypatch, Change)


def _fail_at_cache(monkeypatch):
    """The cache rows are written last; whichever way they change, the write fails there."""
    def failing_bulk_create(*args, **kwargs):
        raise RuntimeError("database gone")

    original_delete = QuerySet.delete

    def failing_delete(queryset):
        if queryset.model in (ScoreLine, SanctionLine):
            raise RuntimeError("database gone")
        return original_delete(queryset)

    monkeypatch.setattr(ScoreLine.objects, "bulk_create", failing_bulk_create)
    monkeypatch.setattr(SanctionLine.objects, "bulk_create", failing_bulk_create)
    monkeypatch.setattr(QuerySet, "delete", failing_delete)
    _failing_inserts(monkeypatch, ScoreLine, SanctionLine)


FAILURES = [(write, "history", _fail_at_history) for write in WRITES] + [
    # A settings change that alters no score rewrites no cache row: the history case covers it.
    (write, "cache", _fail_at_cache) for write in WRITES if write != "change settings"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("write, point, fail", FAILURES, ids=[f"{w}, {p}" for w, p, _ in FAILURES])
def test_a_database_failure_after_the_first_row_leaves_nothing_half_saved(match, monkeypatch, write, point, fail):
    before = snapshot(match)
    fail(monkeypatch)
    with pytest.raises(RuntimeError):
        WRITES[write](Match.objects.get(pk=match.pk))
    assert snapshot(match) == before


@pytest.mark.django_db(transaction=True)
def test_a_failing_import_creates_no_members_and_no_match(club, monkeypatch):
    from protocol.documents.transfer import import_document
    from tests.unit.builders import document
    monkeypatch.setattr(ScoreLine.objects, "bulk_create", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("gone")))
    with pytest.raises(RuntimeError):
        import_document(document([quiet()]) | {"date": "2026-11-20"}, club=club)
    assert not Member.objects.exists() and not Match.objects.exists()


def consistent(match):
    """The stored facts pass the engine, and the league cache is exactly its answer."""
    evaluation = reading.page(match).evaluation
    assert evaluation.errors == []
    positions = list(Event.objects.filter(match=match).values_list("position", flat=True))
    assert positions == list(range(len(positions)))
    computed = evaluation.match
    match.refresh_from_db()
    assert (match.status, match.game_count) == (computed.status, len(computed.games))
    stored = sorted(ScoreLine.objects.filter(match=match).values_list("game_number", "score", "total"))
    expected = sorted((g.number, s.points, g.totals[p]) for g in computed.games if g.scores for p, s in g.scores.items())
    assert stored == expected


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_killing_the_server_during_saves_leaves_every_match_consistent(match, secretary):
    if connection.vendor != "postgresql":
        pytest.skip("a second process on the same database needs PostgreSQL (runs in .ci/run's second pass)")
    client = Client()
    client.force_login(secretary)
    session = client.cookies["sessionid"].value
    csrf = "k" * 32
    settings = connection.settings_dict
    env = os.environ | {"DATABASE_URL": f"postgres://{settings['USER']}@{settings['HOST'] or '127.0.0.1'}:"
                                        f"{settings['PORT'] or 5432}/{settings['NAME']}",
                        "DEBUG": "true", "ALLOWED_HOSTS": "127.0.0.1"}
    url = match.get_absolute_url() + "spiel/"
    accepted = 0
    for round_ in range(3):
        port = free_port()
        server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-w", "2", "-b", f"127.0.0.1:{port}",
                                   "config.wsgi"], cwd=ROOT, env=env, start_new_session=True,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(150):  # wait until it serves (a worker's first request loads Django)
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10)
                    break
                except OSError:  # refused, reset or timed out while it starts
                    time.sleep(0.2)
            stop = threading.Event()

            def post_games():
                try:
                    post_until_stopped()
                finally:
                    from django.db import connections
                    connections.close_all()  # this thread's own connection

            def post_until_stopped():
                nonlocal accepted
                while not stop.is_set():
                    current = Match.objects.get(pk=match.pk)
                    data = game_post(current, quiet()["game"], submission=uuid.uuid4()) | {"csrfmiddlewaretoken": csrf}
                    request = urllib.request.Request(
                        f"http://127.0.0.1:{port}{url}", data=urllib.parse.urlencode(data).encode(),
                        headers={"Cookie": f"sessionid={session}; csrftoken={csrf}",
                                 "Referer": f"http://127.0.0.1:{port}{url}"})
                    try:
                        with urllib.request.urlopen(request, timeout=5) as response:
                            # saved: answered with the match page, which says its address
                            if response.status == 200 and response.headers["Content-Location"] == match.get_absolute_url():
                                accepted += 1
                    except Exception:  # noqa: BLE001 - the server is being killed
                        pass

            worker = threading.Thread(target=post_games)
            worker.start()
            time.sleep(0.6 + 0.4 * round_)
            os.killpg(server.pid, signal.SIGKILL)  # mid-save, without warning
            stop.set()
            worker.join(10)
        finally:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGKILL)
            server.wait(10)
        consistent(Match.objects.get(pk=match.pk))
    assert accepted > 0 and Event.objects.filter(match=match).count() >= accepted
