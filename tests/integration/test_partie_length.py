"""The entry forms refuse the Spiel after the last one a Partie holds (the engine's limit);
a Partie stored longer before the limit still shows and prints (its first entries) and is
listed by the check."""

import datetime
import uuid

import pytest

from jobs import work
from jobs.models import Job
from league.checks import misfits
from league.models import Member
from protocol import matches, reading, recording
from protocol.models import Event
from protocol.rules.envelope import MAX_EVENTS
from tests.integration.pages import game_post, url
from tests.unit.builders import quiet


@pytest.fixture
def full_match(club, member_user, scorekeeper, secretary):
    """A Partie of Anna, Bernd, Carla and Dieter (Bernd keeps it) with as many Spiele as a Partie holds."""
    members = {m.name: m for m in club.members.all()}
    for name in ("Carla", "Dieter"):
        members[name] = Member.objects.create(club=club, name=name)
    table = [members[n] for n in ("Anna", "Bernd", "Carla", "Dieter")]
    return matches.create_match(club=club, date=datetime.date(2026, 11, 20), members=table,
                                scorekeeper=members["Bernd"], settings={"limit": 100_000},
                                events=[quiet()] * MAX_EVENTS, user=secretary)


def test_the_spiel_form_refuses_the_spiel_after_the_last_with_the_engines_message(scorekeeper_client, full_match):
    response = scorekeeper_client.post(url(full_match, "game_new"),
                                       game_post(full_match, quiet()["game"], submission=uuid.uuid4()))
    assert response.status_code == 200
    assert f"höchstens {MAX_EVENTS} Einträge" in response.content.decode()
    assert Event.objects.filter(match=full_match).count() == MAX_EVENTS


@pytest.mark.parametrize("replayed", [True, False])
def test_the_service_refuses_one_entry_more_whether_it_replays_or_reads_again(full_match, secretary, replayed):
    page = reading.page(full_match, just_fetched=True) if replayed else None
    with pytest.raises(recording.RuleViolation, match=f"höchstens {MAX_EVENTS} Einträge"):
        recording.add_event(full_match, "warning", {"player": "Anna", "reason": "zu früh"}, user=secretary,
                            page=page)
    assert Event.objects.filter(match=full_match).count() == MAX_EVENTS


def test_a_partie_stored_longer_before_the_limit_shows_prints_and_is_listed(secretary_client, full_match):
    Event.objects.bulk_create([Event(match=full_match, position=MAX_EVENTS + i, kind="game", data=quiet()["game"])
                               for i in range(50)])
    assert secretary_client.get(url(full_match)).status_code == 200
    response = secretary_client.get(url(full_match, "pdf"))
    job = Job.objects.get()  # a sheet this long is printed in the background (protocol.sheet.background)
    assert response.status_code == 302 and response["Location"].endswith(f"/auftrag/{job.pk}/")
    work.run(str(job.pk))
    assert job.result_path.read_bytes().startswith(b"%PDF")
    (warning,) = misfits()
    assert warning.id == "league.W003" and f"{MAX_EVENTS + 50} Einträge" in warning.msg
