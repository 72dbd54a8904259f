"""Two devices on the same Partie, many scorekeepers at once: no write is lost or doubled.

Real threads need a real server: these run on PostgreSQL (the second run of .ci/run). On
SQLite the same compare-and-swap is covered without threads in test_services.py.
"""

import datetime
import threading

import pytest
from django.db import connection

from league.models import Member
from protocol import matches, recording
from protocol.models import Event, Match
from tests.conftest import saved
from tests.unit.builders import quiet

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("threads racing on one database need PostgreSQL (runs in .ci/run's second pass)")


def make_match(club, n):
    table = [Member.objects.get_or_create(club=club, name=name)[0] for name in ("Anna", "Bernd", "Carla", "Dieter")]
    return matches.create_match(club=club, date=datetime.date(2026, 11, 20) + datetime.timedelta(days=n),
                                members=table, scorekeeper=table[1], settings={})


def run_in_threads(jobs):
    barrier = threading.Barrier(len(jobs))
    outcomes = [None] * len(jobs)

    def worker(i, job):
        from django.db import connections
        try:
            barrier.wait()
            outcomes[i] = job()
        except Exception as exc:  # noqa: BLE001 - the outcome is what the test looks at
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i, job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return outcomes


def test_two_devices_saving_the_same_stale_form_store_exactly_one_spiel(club):
    match = make_match(club, 0)
    version = match.version

    def save():
        return recording.add_event(Match.objects.get(pk=match.pk), "game", quiet()["game"], version=version)

    outcomes = run_in_threads([save, save])
    saved = [o for o in outcomes if isinstance(o, Event)]
    refused = [o for o in outcomes if isinstance(o, recording.StaleMatch)]
    assert len(saved) == 1 and len(refused) == 1, outcomes
    assert Event.objects.filter(match=match).count() == 1
    match.refresh_from_db()
    assert match.version == version + 1 and match.game_count == 1


def test_two_phones_handing_over_the_same_spiel_at_once_store_it_once(club):
    from protocol import handover
    match = make_match(club, 0)

    def hand_over():
        try:
            return handover.hand_over(Match.objects.get(pk=match.pk), "game", quiet()["game"], position=0)
        except handover.SameEntry as same:
            return same

    outcomes = run_in_threads([hand_over, hand_over])
    assert sorted(type(o).__name__ for o in outcomes) == ["Event", "SameEntry"], outcomes
    assert Event.objects.filter(match=match).count() == 1


def test_many_scorekeepers_in_different_partien_lose_nothing(club):
    matches = [make_match(club, n) for n in range(8)]

    def keep(match_id):
        def job():
            for _ in range(3):
                match = Match.objects.get(pk=match_id)
                recording.add_event(match, "game", quiet()["game"], version=match.version)
            return "ok"
        return job

    outcomes = run_in_threads([keep(m.pk) for m in matches])
    assert outcomes == ["ok"] * 8
    for match in matches:
        match.refresh_from_db()
        assert Event.objects.filter(match=match).count() == 3 and match.game_count == 3


def test_a_double_tap_on_save_stores_one_spiel_and_neither_answer_says_not_saved(club, secretary):
    import uuid

    from django.contrib.messages import get_messages
    from django.test import Client
    from django.urls import reverse

    from tests.integration.pages import game_post

    for n in range(6):
        clients = [Client(), Client()]
        for c in clients:
            c.force_login(secretary)
        match = make_match(club, n)
        url = reverse("protocol:game_new", kwargs={"slug": club.slug, "pk": match.pk})
        data = game_post(match, quiet()["game"], submission=uuid.uuid4())  # the very same form, sent twice

        def tap(c):
            return lambda: c.post(url, data)

        answers = run_in_threads([tap(c) for c in clients])
        # one is answered with the match page that says so, the other sent there with its word
        first, second = sorted(answers, key=lambda a: getattr(a, "status_code", 0))
        assert saved(first, match) and "Das Spiel ist gespeichert." in first.content.decode(), answers
        assert second.status_code == 302 and second["Location"] == match.get_absolute_url(), answers
        said = [str(m) for m in get_messages(second.wsgi_request)]
        assert said == ["Dieses Spiel war bereits gespeichert."], said
        assert Event.objects.filter(match=match).count() == 1


def test_two_secretaries_removing_each_other_at_once_leave_the_club_one(club, secretary, make_user):
    from django.test import Client
    from django.urls import reverse

    zora = make_user("zora", first_name="Zora", last_name="Zweite")
    for attempt in range(10):
        club.secretaries.set([secretary, zora])
        clients = {}
        for person in (secretary, zora):
            clients[person.pk] = Client()
            clients[person.pk].force_login(person)

        def remove(me, other):
            return lambda: clients[me.pk].post(reverse("secretary_remove",
                                                       kwargs={"slug": club.slug, "user_id": other.pk}))

        answers = run_in_threads([remove(secretary, zora), remove(zora, secretary)])
        assert sorted(getattr(a, "status_code", a) for a in answers) == [302, 403], (attempt, answers)
        assert club.secretaries.count() == 1, f"attempt {attempt}: the club was left without a secretary"
