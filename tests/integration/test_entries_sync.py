"""The offline queue's JSON endpoint (protocol/views/sync.py): the same compare-and-swap and
one-time submission as an online save, every answer JSON (never a redirect to HTML)."""

import json
import uuid
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from protocol import services
from protocol.models import Change, Event
from tests.unit.builders import quiet, twins


def url(match):
    return reverse("protocol:entries_sync", kwargs={"slug": match.club.slug, "pk": match.pk})


def send(client, match, kind="game", body=None, version=None, submission=None, **extra):
    payload = {"kind": kind, "body": body if body is not None else quiet()["game"],
               "version": match.version if version is None else version,
               "submission": str(submission or uuid.uuid4())} | extra
    return client.post(url(match), json.dumps(payload), content_type="application/json")


def test_an_entry_is_saved_once_and_a_second_send_says_already(scorekeeper_client, running_match):
    submission = uuid.uuid4()
    first = send(scorekeeper_client, running_match, submission=submission)
    assert first.status_code == 201 and first.json() == {"version": running_match.version + 1, "position": 0}
    again = send(scorekeeper_client, running_match, submission=submission)
    assert again.status_code == 200
    assert again.json() == {"version": running_match.version + 1, "position": 0, "already": True}
    assert Event.objects.filter(match=running_match).count() == 1


def test_a_stale_version_answers_409_with_the_stored_document(scorekeeper_client, running_match):
    services.add_event(running_match, "game", quiet()["game"], version=running_match.version)  # another phone
    stale = send(scorekeeper_client, running_match, version=running_match.version - 1)
    assert stale.status_code == 409
    answer = stale.json()
    assert answer["version"] == running_match.version and len(answer["document"]["events"]) == 1
    assert "anderen Gerät" in answer["message"]
    assert Event.objects.filter(match=running_match).count() == 1


def test_a_rule_error_answers_422_with_field_and_article(scorekeeper_client, running_match):
    body = quiet()["game"]
    body["results"]["Dieter"]["tricks"] = 0  # no trick, yet Augen and a trump (Art. 13a, 16a)
    refused = send(scorekeeper_client, running_match, body=body)
    assert refused.status_code == 422
    errors = refused.json()["errors"]
    assert errors and all(e["message"] and e["article"].startswith("Art.") for e in errors)
    assert "Dieter" in {e["player"] for e in errors}
    assert not Event.objects.filter(match=running_match).exists()


def test_a_strafe_out_of_bounds_is_refused_naming_the_points(scorekeeper_client, running_match):
    refused = send(scorekeeper_client, running_match, kind="penalty",
                   body={"player": "Carla", "points": 7, "reason": "zu spät", "decided_by": ["Anna", "Bernd", "Dieter"]})
    assert refused.status_code == 422
    assert [(e["field"], e["article"]) for e in refused.json()["errors"]] == [("points", "SV 3")]


@pytest.mark.parametrize("raw, words", [
    ("{not json", "kein gültiges JSON"),
    ("[1, 2]", "JSON-Objekt"),
    ('{"kind": "annul_match", "body": {}, "version": 1, "submission": "x"}', "Unbekannte Art"),
    ('{"kind": "game", "body": 3, "version": 1, "submission": "x"}', "body"),
    ('{"kind": "game", "body": {}, "version": "1", "submission": "x"}', "version"),
    ('{"kind": "game", "body": {}, "version": 1, "submission": "x"}', "submission"),
    ('{"kind": "game", "body": {}, "version": 1, "submission": "8c5d6f56-5f53-4c43-9a43-1f6ad4a0a8f1",'
     ' "recorded_at": "gestern"}', "ISO 8601"),
])
def test_bad_requests_answer_400_in_german(scorekeeper_client, running_match, raw, words):
    answer = scorekeeper_client.post(url(running_match), raw, content_type="application/json")
    assert answer.status_code == 400 and words in answer.json()["message"]
    assert not Event.objects.filter(match=running_match).exists()


def test_not_signed_in_is_401_json_with_the_login(running_match):
    answer = send(Client(), running_match)
    assert answer.status_code == 401
    assert answer.json()["login"].startswith(reverse("login")) and "next=" in answer.json()["login"]


def test_without_the_right_it_is_403_json(member_client, outsider_client, running_match):
    for client in (member_client, outsider_client):
        answer = send(client, running_match)
        assert answer.status_code == 403 and answer.json()["message"]
    assert not Event.objects.filter(match=running_match).exists()


def test_csrf_holds_for_the_json_endpoint(scorekeeper, running_match):
    client = Client(enforce_csrf_checks=True)
    client.force_login(scorekeeper)
    assert send(client, running_match).status_code == 403
    page = client.get(reverse("protocol:match", kwargs={"slug": running_match.club.slug, "pk": running_match.pk}))
    assert page.status_code == 200
    token = client.cookies["csrftoken"].value
    payload = {"kind": "game", "body": quiet()["game"], "version": running_match.version,
               "submission": str(uuid.uuid4())}
    answer = client.post(url(running_match), json.dumps(payload), content_type="application/json",
                         headers={"X-CSRFToken": token})
    assert answer.status_code == 201


def test_get_gives_version_document_and_state(scorekeeper_client, running_match):
    send(scorekeeper_client, running_match)
    answer = scorekeeper_client.get(url(running_match)).json()
    running_match.refresh_from_db()
    assert answer["version"] == running_match.version and len(answer["document"]["events"]) == 1
    assert answer["state"]["number"] == 2 and answer["state"]["dealer"]


def test_the_history_marks_an_entry_captured_offline(scorekeeper_client, running_match):
    typed = timezone.now() - timedelta(minutes=33)
    assert send(scorekeeper_client, running_match, recorded_at=typed.isoformat()).status_code == 201
    change = Change.objects.get(match=running_match, action="add")
    assert abs(change.recorded_at - typed) < timedelta(seconds=1)
    page = scorekeeper_client.get(reverse("protocol:history", kwargs={"slug": running_match.club.slug,
                                                                      "pk": running_match.pk})).content.decode()
    local = timezone.localtime(typed).strftime("%H:%M")
    assert f"offline erfasst {local}, übertragen {timezone.localtime(change.at).strftime('%H:%M')}" in page


def test_head_says_the_server_answers(scorekeeper_client, running_match):
    answer = scorekeeper_client.head(url(running_match))
    assert answer.status_code == 204 and not answer.content
    assert Client().head(url(running_match)).status_code == 401


def correct(client, match, body=None, *, position=0, reason="Augen vertauscht", **extra):
    """Send the correction of the entry at ``position`` (default: Spiel 1 becomes twins())."""
    return send(client, match, kind="correction", body=body if body is not None else twins(),
                position=position, reason=reason, **extra)


def test_a_correction_is_saved_once_and_a_resend_says_already(scorekeeper_client, running_match):
    services.add_event(running_match, "game", quiet()["game"], version=running_match.version)
    typed, submission = timezone.now() - timedelta(minutes=5), uuid.uuid4()
    first = correct(scorekeeper_client, running_match, submission=submission, recorded_at=typed.isoformat())
    assert first.status_code == 201 and first.json() == {"version": running_match.version + 1, "position": 0}
    again = correct(scorekeeper_client, running_match, submission=submission, version=running_match.version)
    assert again.status_code == 200
    assert again.json() == {"version": running_match.version + 1, "position": 0, "already": True}
    change = Change.objects.get(match=running_match, action="correct")  # exactly one
    assert change.reason == "Augen vertauscht" and change.submission == submission
    assert abs(change.recorded_at - typed) < timedelta(seconds=1)
    assert Event.objects.get(match=running_match, position=0).data == twins()["game"]


def test_a_correction_on_a_stale_version_answers_409(scorekeeper_client, running_match):
    services.add_event(running_match, "game", quiet()["game"], version=running_match.version)
    stale = correct(scorekeeper_client, running_match, version=running_match.version - 1)
    assert stale.status_code == 409 and len(stale.json()["document"]["events"]) == 1
    assert not Change.objects.filter(match=running_match, action="correct").exists()


@pytest.mark.parametrize("change, status, words", [
    ({"reason": " "}, 422, "Grund"),
    ({"body": {"penalty": {"player": "Anna", "points": 100, "reason": "x"}}}, 400, "Art eines Eintrags"),
    ({"position": 5}, 400, "Stelle 5"),
    ({"position": "1"}, 400, "position"),
    ({"body": {"game": 3}}, 400, "genau einen Eintrag"),
])
def test_a_bad_correction_is_refused_and_nothing_changes(scorekeeper_client, running_match, change, status, words):
    services.add_event(running_match, "game", quiet()["game"], version=running_match.version)
    answer = correct(scorekeeper_client, running_match, **change)
    assert answer.status_code == status
    assert words in (answer.json().get("message") or answer.json()["errors"][0]["message"])
    assert Event.objects.get(match=running_match, position=0).data == quiet()["game"]


def test_a_correction_breaking_a_rule_answers_422_with_the_field(scorekeeper_client, running_match):
    services.add_event(running_match, "game", quiet()["game"], version=running_match.version)
    body = quiet()
    body["game"]["results"]["Dieter"]["tricks"] = 0  # no trick, yet Augen and a trump (Art. 13a, 16a)
    refused = correct(scorekeeper_client, running_match, body=body)
    assert refused.status_code == 422
    assert "Dieter" in {e["player"] for e in refused.json()["errors"]}
    assert Event.objects.get(match=running_match, position=0).data == quiet()["game"]


def test_a_correction_needs_the_right_to_correct(member_client, scorekeeper_client, running_match):
    services.add_event(running_match, "game", quiet()["game"], version=running_match.version)
    assert correct(Client(), running_match).status_code == 401
    assert correct(member_client, running_match).status_code == 403
    running_match.confirmations.create(seat=running_match.seats.first(), version=running_match.version)
    denied = correct(scorekeeper_client, running_match)  # a player confirmed: the secretary only
    assert denied.status_code == 403 and denied.json()["message"]
    assert not Change.objects.filter(match=running_match, action="correct").exists()


def _offline_data(page: str) -> dict:
    import html
    import re
    raw = re.search(r'<script id="offline-data" type="application/json">(.*?)</script>', page, flags=re.S).group(1)
    return json.loads(html.unescape(raw))


def test_the_spiel_page_carries_the_stored_document_at_its_version(scorekeeper_client, running_match):
    """The offline queue checks entries on top of the document the Spiel page carries: the
    stored events at the page's version, also after another device corrected one of them."""
    page_url = reverse("protocol:game_new", kwargs={"slug": running_match.club.slug, "pk": running_match.pk})
    for _ in range(2):
        running_match.refresh_from_db()
        services.add_event(running_match, "game", quiet()["game"], version=running_match.version)
    running_match.refresh_from_db()
    services.correct_event(running_match, 0, twins()["game"], version=running_match.version, reason="Trumpf verwechselt")
    for _ in range(2):  # read and replayed, then kept
        data = _offline_data(scorekeeper_client.get(page_url).content.decode())
        running_match.refresh_from_db()
        assert data["version"] == running_match.version
        # key for key in the format's order, as the 409 answer writes it: a queued correction
        # compares the entry as this page showed it with the answer's (JSON text)
        assert json.dumps(data["document"]) == json.dumps(services.document(running_match))
        assert data["document"]["events"][0] == twins()
