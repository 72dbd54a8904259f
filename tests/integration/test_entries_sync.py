"""The offline queue's JSON endpoint (protocol/views/sync.py): the same compare-and-swap and
one-time submission as an online save, every answer JSON (never a redirect to HTML)."""

import json
import uuid
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from protocol import reading, recording
from protocol.models import Change, Event
from tests.integration.phones import hand_over
from tests.unit.builders import quiet, sweep, twins


def url(match):
    return reverse("protocol:entries_sync", kwargs={"slug": match.club.slug, "pk": match.pk})


def send(client, match, kind="game", body=None, version=None, submission=None, **extra):
    """The entry as a phone hands it over: typed for the next place of the Partie it saw
    (``position``, unless given) on ``version``."""
    return hand_over(client, match, kind=kind, body=body if body is not None else quiet()["game"],
                     version=match.version if version is None else version,
                     submission=str(submission or uuid.uuid4()), **extra)


def test_an_entry_is_saved_once_and_a_second_send_says_already(scorekeeper_client, running_match):
    submission = uuid.uuid4()
    first = send(scorekeeper_client, running_match, submission=submission)
    assert first.status_code == 201 and first.json() == {"version": running_match.version + 1, "position": 0}
    again = send(scorekeeper_client, running_match, submission=submission)
    assert again.status_code == 200
    assert again.json() == {"version": running_match.version + 1, "position": 0, "already": True}
    assert Event.objects.filter(match=running_match).count() == 1


def test_the_same_spiel_from_a_second_phone_is_recognised_not_stored_twice(scorekeeper_client, running_match):
    recording.add_event(running_match, "game", quiet()["game"], version=running_match.version)  # phone B, online
    same = send(scorekeeper_client, running_match, version=running_match.version - 1, position=0)  # phone A
    assert same.status_code == 200
    answer = same.json()
    assert answer["same"] is True and answer["already"] is True and answer["position"] == 0
    assert answer["version"] == running_match.version
    assert "Spiel 1" in answer["message"] and "nicht doppelt" in answer["message"]
    assert Event.objects.filter(match=running_match).count() == 1
    assert Change.objects.filter(match=running_match, action="add").count() == 1


def test_another_spiel_at_a_place_filled_meanwhile_is_a_conflict_with_both_entries(scorekeeper_client,
                                                                                   running_match):
    recording.add_event(running_match, "game", quiet()["game"], version=running_match.version)  # phone B
    mine = twins()["game"]
    clash = send(scorekeeper_client, running_match, body=mine, version=running_match.version - 1, position=0)
    assert clash.status_code == 409
    answer = clash.json()
    assert answer["version"] == running_match.version and len(answer["document"]["events"]) == 1
    conflict = answer["conflict"]
    assert conflict["position"] == 0 and conflict["name"] == "Spiel 1" and conflict["correction"] is False
    assert conflict["stored"] == quiet() and conflict["yours"] == {"game": mine}
    assert conflict["next_position"] == 1 and conflict["next_name"] == "Spiel 2"
    # only what differs, side by side (the whole entries are in "stored" and "yours")
    assert conflict["stored_text"].startswith("Trumpf rot, Anna Stiche 3, Anna Augen 30, Anna Trümpfe 1")
    assert conflict["yours_text"].startswith("Trumpf A, Anna Stiche 5, Anna Augen 156, Anna Trümpfe 6")
    assert answer["message"].startswith("Spiel 1 wurde inzwischen auf einem anderen Gerät eingetragen: ")
    assert "— Ihr Eintrag: " in answer["message"]
    assert Event.objects.filter(match=running_match).count() == 1  # nothing appended behind B's Spiel

    # "Als Spiel 2 eintragen": the phone sends it again for the next free place.
    placed = send(scorekeeper_client, running_match, body=mine, position=conflict["next_position"])
    assert placed.status_code == 201 and placed.json()["position"] == 1
    assert [e.data for e in Event.objects.filter(match=running_match)] == [quiet()["game"], mine]


def test_a_blind_replay_without_a_place_is_refused_and_kept_on_the_phone(scorekeeper_client, running_match):
    recording.add_event(running_match, "game", quiet()["game"], version=running_match.version)
    payload = {"kind": "game", "body": quiet()["game"], "version": running_match.version,
               "submission": str(uuid.uuid4())}
    blind = scorekeeper_client.post(url(running_match), json.dumps(payload), content_type="application/json")
    assert blind.status_code == 400 and "position" in blind.json()["message"]
    assert Event.objects.filter(match=running_match).count() == 1


def test_a_free_place_takes_the_entry_though_another_device_corrected_meanwhile(scorekeeper_client,
                                                                                 running_match):
    recording.add_event(running_match, "game", quiet()["game"], version=running_match.version)
    seen = running_match.version
    recording.correct_event(running_match, 0, twins()["game"], version=running_match.version, reason="nachgezählt")
    saved = send(scorekeeper_client, running_match, version=seen, position=1)
    assert saved.status_code == 201 and saved.json() == {"version": seen + 2, "position": 1}


def test_an_entry_whose_place_was_struck_meanwhile_is_a_conflict(scorekeeper_client, running_match):
    for _ in range(2):
        recording.add_event(running_match, "game", quiet()["game"], version=running_match.version)
    seen = running_match.version
    recording.remove_event(running_match, 1, version=running_match.version, reason="doppelt")
    gone = send(scorekeeper_client, running_match, version=seen, position=2)
    assert gone.status_code == 409
    conflict = gone.json()["conflict"]
    assert conflict["stored"] is None and conflict["next_position"] == 1 and conflict["next_name"] == "Spiel 2"
    assert "gestrichen" in gone.json()["message"]
    assert Event.objects.filter(match=running_match).count() == 1


def test_the_same_strafe_from_two_phones_is_stored_once_and_another_is_a_conflict(scorekeeper_client,
                                                                                  running_match):
    strafe = {"player": "Carla", "points": 200, "reason": "Karte verdeckt getauscht",
              "decided_by": ["Anna", "Bernd", "Dieter"]}
    seen = running_match.version
    recording.add_event(running_match, "penalty", strafe, version=running_match.version)
    same = send(scorekeeper_client, running_match, kind="penalty", body=strafe, version=seen, position=0)
    assert same.status_code == 200 and same.json()["same"] is True
    other = send(scorekeeper_client, running_match, kind="penalty", body=strafe | {"points": 100}, version=seen,
                 position=0)
    assert other.status_code == 409
    assert other.json()["conflict"]["name"] == "Strafe vor dem ersten Spiel"
    assert "Carla 200 Punkte" in other.json()["conflict"]["stored_text"]
    assert "Carla 100 Punkte" in other.json()["conflict"]["yours_text"]
    assert Event.objects.filter(match=running_match).count() == 1


def test_meanwhile_lists_what_other_devices_recorded_after_the_version_a_phone_saw(scorekeeper_client,
                                                                                   running_match):
    seen = running_match.version
    submission = uuid.uuid4()
    recording.add_event(running_match, "game", quiet()["game"], version=running_match.version, submission=submission)
    recording.correct_event(running_match, 0, twins()["game"], version=running_match.version, reason="nachgezählt")
    answer = scorekeeper_client.get(url(running_match), {"seit": seen}).json()
    lines = answer["meanwhile"]
    assert [line["text"].split(":")[0] for line in lines] == ["Spiel 1 eingetragen", "Spiel 1 korrigiert"]
    assert lines[0]["submission"] == str(submission) and lines[1]["submission"] is None
    assert "Grund: nachgezählt" in lines[1]["text"]
    assert scorekeeper_client.get(url(running_match), {"seit": running_match.version}).json()["meanwhile"] == []
    assert "meanwhile" not in scorekeeper_client.get(url(running_match)).json()
    bad = scorekeeper_client.get(url(running_match), {"seit": "gestern"})
    assert bad.status_code == 400 and "seit" in bad.json()["message"]


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
     ' "recorded_at": "gestern", "position": 0}', "ISO 8601"),
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
               "submission": str(uuid.uuid4()), "position": 0}
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
    recording.add_event(running_match, "game", quiet()["game"], version=running_match.version)
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
    recording.add_event(running_match, "game", quiet()["game"], version=running_match.version)
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
    recording.add_event(running_match, "game", quiet()["game"], version=running_match.version)
    answer = correct(scorekeeper_client, running_match, **change)
    assert answer.status_code == status
    assert words in (answer.json().get("message") or answer.json()["errors"][0]["message"])
    assert Event.objects.get(match=running_match, position=0).data == quiet()["game"]


def test_a_correction_breaking_a_rule_answers_422_with_the_field(scorekeeper_client, running_match):
    recording.add_event(running_match, "game", quiet()["game"], version=running_match.version)
    body = quiet()
    body["game"]["results"]["Dieter"]["tricks"] = 0  # no trick, yet Augen and a trump (Art. 13a, 16a)
    refused = correct(scorekeeper_client, running_match, body=body)
    assert refused.status_code == 422
    assert "Dieter" in {e["player"] for e in refused.json()["errors"]}
    assert Event.objects.get(match=running_match, position=0).data == quiet()["game"]


def test_a_correction_needs_the_right_to_correct(member_client, scorekeeper_client, running_match):
    recording.add_event(running_match, "game", quiet()["game"], version=running_match.version)
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
        recording.add_event(running_match, "game", quiet()["game"], version=running_match.version)
    running_match.refresh_from_db()
    recording.correct_event(running_match, 0, twins()["game"], version=running_match.version, reason="Trumpf verwechselt")
    for _ in range(2):  # read and replayed, then kept
        data = _offline_data(scorekeeper_client.get(page_url).content.decode())
        running_match.refresh_from_db()
        assert data["version"] == running_match.version
        # key for key in the format's order, as the 409 answer writes it: a queued correction
        # compares the entry as this page showed it with the answer's (JSON text)
        assert json.dumps(data["document"]) == json.dumps(reading.document(running_match))
        assert data["document"]["events"][0] == twins()


def test_the_match_page_a_save_lands_on_carries_the_new_entry_not_the_document(scorekeeper_client, running_match):
    """A phone that kept the document one entry ago (it posted the Spiel form, saying so) brings
    it up to date from the match page it lands on, without fetching the document again; any
    other visit of the match page carries neither."""
    page_url = running_match.get_absolute_url()
    for body in (quiet(), twins()):
        running_match.refresh_from_db()
        recording.add_event(running_match, "game", body["game"], version=running_match.version)
    running_match.refresh_from_db()
    assert "last" not in _offline_data(scorekeeper_client.get(page_url).content.decode())
    scorekeeper_client.cookies["trumpfbuch-kept"] = f"{running_match.pk}.{running_match.version - 2}"
    assert "last" not in _offline_data(scorekeeper_client.get(page_url).content.decode())  # two behind: fetched
    scorekeeper_client.cookies["trumpfbuch-kept"] = f"{running_match.pk}.{running_match.version - 1}"
    data = _offline_data(scorekeeper_client.get(page_url).content.decode())
    document = reading.document(running_match)
    assert "document" not in data and data["version"] == running_match.version and data["count"] == 2
    assert json.dumps(data["last"]) == json.dumps(document["events"][-1])  # key for key, as the document


def test_the_spiel_form_carries_only_what_the_phone_does_not_keep(scorekeeper_client, running_match):
    """The Spiel form opened from the match page a save landed on: the phone keeps the document
    of this very version (its cookie says so), so the page carries none; kept one version ago,
    the newest entry; kept older, of another Partie or not at all, the whole document."""
    page_url = reverse("protocol:game_new", kwargs={"slug": running_match.club.slug, "pk": running_match.pk})
    for body in (quiet(), twins()):
        running_match.refresh_from_db()
        recording.add_event(running_match, "game", body["game"], version=running_match.version)
    running_match.refresh_from_db()
    document = reading.document(running_match)
    whole = scorekeeper_client.get(page_url).content.decode()
    assert json.dumps(_offline_data(whole)["document"]) == json.dumps(document)
    for told in (f"{running_match.pk}.{running_match.version - 2}", f"{running_match.pk + 1}.{running_match.version}"):
        scorekeeper_client.cookies["trumpfbuch-kept"] = told
        assert json.dumps(_offline_data(scorekeeper_client.get(page_url).content.decode())["document"]) == json.dumps(document)
    scorekeeper_client.cookies["trumpfbuch-kept"] = f"{running_match.pk}.{running_match.version - 1}"
    data = _offline_data(scorekeeper_client.get(page_url).content.decode())
    assert "document" not in data and data["count"] == 2
    assert json.dumps(data["last"]) == json.dumps(document["events"][-1])
    scorekeeper_client.cookies["trumpfbuch-kept"] = f"{running_match.pk}.{running_match.version}"
    kept = scorekeeper_client.get(page_url).content.decode()
    data = _offline_data(kept)
    assert data["version"] == running_match.version and not {"document", "last", "count"} & set(data)
    assert len(kept) < len(whole) - len(json.dumps(document)) // 2  # the document was most of the page


# -- corrections from two phones ---------------------------------------------------------------

def test_the_same_correction_from_a_second_phone_is_recognised_not_made_twice(scorekeeper_client, running_match):
    recording.add_event(running_match, "game", quiet()["game"], version=running_match.version)
    seen = running_match.version
    recording.correct_event(running_match, 0, twins()["game"], version=running_match.version, reason="nachgezählt")
    same = correct(scorekeeper_client, running_match, version=seen, was=quiet())
    assert same.status_code == 200 and same.json()["same"] is True
    assert Change.objects.filter(match=running_match, action="correct").count() == 1


def test_a_correction_of_an_entry_changed_meanwhile_is_a_conflict_and_can_be_made_anyway(scorekeeper_client,
                                                                                        running_match):
    recording.add_event(running_match, "game", quiet()["game"], version=running_match.version)
    seen = running_match.version
    other = quiet()
    other["game"]["trump"] = {"level": "colour", "value": "schwarz"}
    recording.correct_event(running_match, 0, other["game"], version=running_match.version, reason="Trumpf falsch")
    clash = correct(scorekeeper_client, running_match, version=seen, was=quiet())
    assert clash.status_code == 409
    answer = clash.json()
    assert answer["conflict"]["correction"] is True and answer["conflict"]["stored"] == other
    assert answer["message"].startswith("Spiel 1 wurde inzwischen auf einem anderen Gerät geändert: ")
    assert "— Ihre Korrektur: " in answer["message"]
    assert Event.objects.get(match=running_match, position=0).data == other["game"]
    # "Trotzdem korrigieren": the phone has seen the other correction now and sends it on top.
    anyway = correct(scorekeeper_client, running_match, version=answer["version"], was=other)
    assert anyway.status_code == 201
    assert Event.objects.get(match=running_match, position=0).data == twins()["game"]


def test_a_correction_of_an_untouched_entry_goes_through_though_the_version_moved(scorekeeper_client,
                                                                                running_match):
    recording.add_event(running_match, "game", quiet()["game"], version=running_match.version)
    seen = running_match.version
    recording.add_event(running_match, "game", quiet()["game"], version=running_match.version)  # Spiel 2 meanwhile
    saved = correct(scorekeeper_client, running_match, version=seen, was=quiet())
    assert saved.status_code == 201 and saved.json()["position"] == 0


# -- what the endpoint refuses, each answered in JSON ------------------------------------------

@pytest.mark.parametrize("moment", ["2026-02-30T10:00:00", "2026-11-26T25:00:00", "2026-11-26T10:00:00+25:00"])
def test_an_impossible_time_of_capture_is_a_400_naming_the_field(scorekeeper_client, running_match, moment):
    answer = send(scorekeeper_client, running_match, recorded_at=moment)
    assert answer.status_code == 400 and answer["Content-Type"] == "application/json"
    assert "recorded_at" in answer.json()["message"]
    assert not Event.objects.filter(match=running_match).exists()


@pytest.mark.parametrize("raw", ['{"kind": ' + "[" * 5000 + "]" * 5000 + "}", "[" * 50_000])
def test_a_body_nested_thousands_deep_is_a_400(scorekeeper_client, running_match, raw):
    answer = scorekeeper_client.post(url(running_match), raw, content_type="application/json")
    assert answer.status_code == 400 and "verschachtelt" in answer.json()["message"]


def test_one_submission_id_in_two_partien_is_answered_in_each(scorekeeper_client, running_match, club, scorekeeper):
    from protocol.models import Match
    submission = uuid.uuid4()
    assert send(scorekeeper_client, running_match, submission=submission).status_code == 201
    second = Match.objects.get(pk=running_match.pk)
    second.pk = None
    second.version = 0
    second.save()
    for seat in running_match.seats.all():
        seat.pk, seat.match = None, second
        seat.save()
    answer = send(scorekeeper_client, second, submission=submission)  # the same id, another Partie
    assert answer.status_code == 201 and answer.json()["position"] == 0
    again = send(scorekeeper_client, second, submission=submission)
    assert again.status_code == 200 and again.json()["already"] is True
    assert Event.objects.filter(submission=submission).count() == 2


def test_nothing_is_added_to_a_finished_or_confirmed_partie(scorekeeper_client, secretary_client, running_match):
    recording.add_event(running_match, "game", sweep()["game"], version=running_match.version)  # Anna over 1000
    running_match.refresh_from_db()
    assert running_match.status == "finished"
    denied = send(scorekeeper_client, running_match)  # finished: the Protokollant records no more
    assert denied.status_code == 403 and denied.json()["message"]
    refused = send(secretary_client, running_match)  # the secretary may, but the engine says it is over
    assert refused.status_code == 422 and refused.json()["errors"][0]["article"]
    running_match.confirmations.create(seat=running_match.seats.first(), version=running_match.version)
    assert send(scorekeeper_client, running_match).status_code == 403
    assert Event.objects.filter(match=running_match).count() == 1


def test_nothing_is_added_to_an_annulled_partie(scorekeeper_client, secretary_client, running_match, secretary):
    recording.add_event(running_match, "annul_match", {"reason": "Karten unvollständig"}, user=secretary,
                        version=running_match.version)
    running_match.refresh_from_db()
    assert running_match.status == "annulled"
    for client in (scorekeeper_client, secretary_client):
        answer = send(client, running_match)
        assert answer.status_code == 403 and answer.json()["message"]
    assert Event.objects.filter(match=running_match).count() == 1


def test_the_201st_entry_is_refused_by_the_engine(scorekeeper_client, running_match):
    from protocol.rules.envelope import MAX_EVENTS
    warning = {"player": "Carla", "reason": "zu laut"}
    Event.objects.bulk_create([Event(match=running_match, position=i, kind="warning", data=warning)
                               for i in range(MAX_EVENTS)])
    answer = send(scorekeeper_client, running_match, kind="warning", body=warning, position=MAX_EVENTS)
    assert answer.status_code == 422
    assert str(MAX_EVENTS) in answer.json()["errors"][0]["message"]
    assert Event.objects.filter(match=running_match).count() == MAX_EVENTS


def test_a_member_without_the_right_to_record_is_refused(member_client, outsider_client, running_match):
    for client in (member_client, outsider_client):
        answer = send(client, running_match)
        assert answer.status_code in (403, 404) and answer.json()["message"]
    assert not Event.objects.filter(match=running_match).exists()


def test_two_spiele_at_one_place_are_shown_by_what_differs(scorekeeper_client, running_match):
    recording.add_event(running_match, "game", quiet()["game"], version=running_match.version)
    mine = quiet()["game"]
    mine["results"]["Anna"]["points"] = 33
    mine["results"]["Bernd"]["points"] = 27
    clash = send(scorekeeper_client, running_match, body=mine, version=running_match.version - 1, position=0)
    assert clash.json()["message"] == ("Spiel 1 wurde inzwischen auf einem anderen Gerät eingetragen: "
                                       "Anna Augen 30, Bernd Augen 30 — Ihr Eintrag: Anna Augen 33, Bernd Augen 27")


# -- the offline bar ----------------------------------------------------------------------------

@pytest.mark.parametrize("language, ready, waiting", [
    ("de", "Offline-Modus bereit", "{n} Einträge warten auf Übertragung"),
    ("en", "Offline mode ready", "{n} entries waiting to be sent")])
def test_the_offline_bar_speaks_the_readers_language_on_every_kind_of_page(scorekeeper_client, running_match,
                                                                           language, ready, waiting):
    """The bar's words are written once per language and kind of page: a German page after an
    English one (and the other way round) still has its own; the match page offers no "ready"
    (it has no form to keep offline), a correction page asks for the reason."""
    recording.add_event(running_match, "game", quiet()["game"], version=running_match.version)
    where = {"slug": running_match.club.slug, "pk": running_match.pk}
    pages = {"game": reverse("protocol:game_new", kwargs=where), "match": running_match.get_absolute_url(),
             "correction": reverse("protocol:entry_correct", kwargs=where | {"position": 0})}
    for other in ("en", "de"):  # the other language first: what it wrote is not this one's
        scorekeeper_client.get(pages["game"], HTTP_ACCEPT_LANGUAGE=other)
    html = {kind: scorekeeper_client.get(page, HTTP_ACCEPT_LANGUAGE=language).content.decode()
            for kind, page in pages.items()}
    for kind, page in html.items():
        assert f'data-text-waiting="{waiting}"' in page, kind
        assert ('data-text-ready="' in page) is (kind != "match"), kind
        assert ('data-text-reason="' in page) is (kind == "correction"), kind
    assert f'data-text-ready="{ready}"' in html["game"]
