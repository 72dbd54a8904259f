"""A whole Partie kept through the pages, as the Protokollant does it at the table."""

import html
import json
import uuid

import pytest
from django.urls import reverse

from league.models import Member
from protocol.models import Event, Match
from tests.conftest import saved
from tests.integration.pages import game_post, new_match_post, url
from tests.unit.builders import twins


@pytest.fixture
def players(club, member_user, scorekeeper):
    for name in ("Carla", "Dieter"):
        Member.objects.create(club=club, name=name)
    return ["Anna", "Bernd", "Carla", "Dieter"]


def test_the_scorekeeper_keeps_a_whole_partie_from_the_first_spiel_to_the_stechen(scorekeeper_client, club, players):
    client = scorekeeper_client
    response = client.post(reverse("protocol:new", kwargs={"slug": club.slug}),
                           new_match_post(club, players, "Bernd", guests="Gerda"))
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    assert [s.name for s in match.seats.all()] == players + ["Gerda"]
    assert Member.objects.get(name="Gerda").is_guest

    # A typing mistake: 1 Auge is impossible. Refused, with the article, nothing saved.
    body = twins(others=("Carla", "Dieter", "Gerda"))["game"]
    wrong = json.loads(json.dumps(body))
    wrong["results"]["Anna"]["points"] = 1
    response = client.post(url(match, "game_new"), game_post(match, wrong, submission=uuid.uuid4()))
    assert response.status_code == 200 and "Art. 13a" in response.content.decode()
    assert not Event.objects.exists()

    for _ in range(4):  # 312 each time for Anna and Bernd: after four Spiele both exceed 1000
        match.refresh_from_db()
        response = client.post(url(match, "game_new"), game_post(match, body, submission=uuid.uuid4()))
        assert saved(response, match)
    match.refresh_from_db()
    assert match.status == "tiebreak"
    page = client.get(url(match)).content.decode()
    assert "Stechen" in page and "Obergrenze 100" in page

    # A Strafe during the Stechen deducts from the Stechen total (the stage under way).
    response = client.post(url(match, "sanction_new"), {
        "kind": "penalty", "player": "Bernd", "points": 100, "reason": "zu früh ausgespielt",
        "decided_by": ["Anna", "Carla", "Dieter", "Gerda"], "version": match.version, "submission": uuid.uuid4()})
    assert response.status_code == 302

    # The Spiel form now asks only the Stechen's players.
    form = client.get(url(match, "game_new")).content.decode()
    assert 'name="p0_tricks"' in form and 'name="p1_tricks"' in form and 'name="p2_tricks"' not in form

    match.refresh_from_db()
    stechen = {"trump": {"level": "suit", "value": "Kreuz"},
               "results": {"Anna": {"tricks": 10, "points": 110, "trumps": 5}, "Bernd": {"tricks": 0, "points": 0, "trumps": 0}}}
    response = client.post(url(match, "game_new"), game_post(match, stechen, submission=uuid.uuid4()), follow=True)
    match.refresh_from_db()
    assert match.status == "finished" and match.winner.name == "Anna" and match.ended_by == "tiebreak"
    assert "Anna hat die Partie gewonnen" in response.content.decode()


def test_a_double_submit_of_the_same_form_records_one_spiel(scorekeeper_client, running_match):
    body = {"trump": {"level": "colour", "value": "rot"},
            "results": {"Anna": {"tricks": 3, "points": 30, "trumps": 1}, "Bernd": {"tricks": 3, "points": 30, "trumps": 1},
                        "Carla": {"tricks": 2, "points": 20, "trumps": 1}, "Dieter": {"tricks": 2, "points": 20, "trumps": 1}}}
    data = game_post(running_match, body, submission=uuid.uuid4())
    first = scorekeeper_client.post(url(running_match, "game_new"), data)
    second = scorekeeper_client.post(url(running_match, "game_new"), data)
    # the first is answered with the match page; the second, a Spiel saved already, is sent there
    assert saved(first, running_match) and second.status_code == 302
    assert Event.objects.filter(match=running_match).count() == 1
    assert "Dieses Spiel war bereits gespeichert." in scorekeeper_client.get(second["Location"]).content.decode()


def test_a_double_submit_of_a_strafe_records_it_once_and_says_so(scorekeeper_client, running_match):
    data = {"kind": "warning", "player": "Bernd", "reason": "zu früh ausgespielt",
            "decided_by": ["Anna", "Carla", "Dieter"], "version": running_match.version, "submission": uuid.uuid4()}
    first = scorekeeper_client.post(url(running_match, "sanction_new"), data)
    second = scorekeeper_client.post(url(running_match, "sanction_new"), data, follow=True)
    assert first.status_code == 302 and second.status_code == 200
    assert "Dieser Eintrag war bereits gespeichert." in second.content.decode()
    assert Event.objects.filter(match=running_match).count() == 1


def test_a_stale_form_from_a_second_device_is_refused_and_keeps_what_was_typed(scorekeeper_client, secretary_client,
                                                                               running_match):
    body = {"trump": {"level": "colour", "value": "rot"},
            "results": {"Anna": {"tricks": 3, "points": 30, "trumps": 1}, "Bernd": {"tricks": 3, "points": 30, "trumps": 1},
                        "Carla": {"tricks": 2, "points": 20, "trumps": 1}, "Dieter": {"tricks": 2, "points": 20, "trumps": 1}}}
    seen = running_match.version
    assert saved(scorekeeper_client.post(url(running_match, "game_new"),
                                         game_post(running_match, body, version=seen, submission=uuid.uuid4())),
                 running_match)
    other = dict(body, results=dict(body["results"], Anna={"tricks": 3, "points": 33, "trumps": 1},
                                    Bernd={"tricks": 3, "points": 27, "trumps": 1}))
    response = secretary_client.post(url(running_match, "game_new"),
                                     game_post(running_match, other, version=seen, submission=uuid.uuid4()))
    page = response.content.decode()
    assert response.status_code == 409 and "anderen Gerät" in page
    assert 'value="33"' in page  # nothing typed is lost
    assert Event.objects.filter(match=running_match).count() == 1


def test_the_same_spiel_typed_on_two_phones_is_saved_once_and_the_second_phone_is_told(
        scorekeeper_client, secretary_client, running_match):
    body = {"trump": {"level": "colour", "value": "rot"},
            "results": {"Anna": {"tricks": 3, "points": 30, "trumps": 1}, "Bernd": {"tricks": 3, "points": 30, "trumps": 1},
                        "Carla": {"tricks": 2, "points": 20, "trumps": 1}, "Dieter": {"tricks": 2, "points": 20, "trumps": 1}}}
    seen = running_match.version
    for client in (scorekeeper_client, secretary_client):  # both typed Spiel 1 on the page of version ``seen``
        response = client.post(url(running_match, "game_new"), game_post(running_match, body, version=seen,
                                                                         submission=uuid.uuid4()), follow=True)
        assert response.status_code == 200
    assert "Spiel 1 war schon auf einem anderen Gerät eingetragen, mit denselben Werten" in response.content.decode()
    assert Event.objects.filter(match=running_match).count() == 1


def test_the_live_preview_shows_scores_and_errors_at_their_fields(scorekeeper_client, running_match):
    body = {"trump": {"level": "suit", "value": "Pik"},
            "results": {"Anna": {"tricks": 3, "points": 56, "trumps": 2}, "Bernd": {"tricks": 4, "points": 40, "trumps": 1},
                        "Carla": {"tricks": 3, "points": 30, "trumps": 0}, "Dieter": {"tricks": 0, "points": 0, "trumps": 0}}}
    preview = scorekeeper_client.post(url(running_match, "game_preview"), game_post(running_match, body)).content.decode()
    assert "56 Augen + 15 Trumpfwertung (Pik, meiste Trümpfe, Art. 16b) = 71" in preview
    body["results"]["Dieter"]["points"] = 5
    preview = scorekeeper_client.post(url(running_match, "game_preview"), game_post(running_match, body)).content.decode()
    assert 'id="err-p3_points" class="field-errors" hx-swap-oob="true"><ul class="errorlist"><li>Dieter hat keinen Stich' in preview
    assert not Event.objects.exists()


def test_the_live_preview_reads_the_partie_once_per_keystroke(scorekeeper_client, running_match):
    from django.db import connection

    body = {"trump": {"level": "suit", "value": "Pik"},
            "results": {"Anna": {"tricks": 3, "points": 56, "trumps": 2}, "Bernd": {"tricks": 4, "points": 40, "trumps": 1},
                        "Carla": {"tricks": 3, "points": 30, "trumps": 0}, "Dieter": {"tricks": 0, "points": 0, "trumps": 0}}}
    scorekeeper_client.post(url(running_match, "game_preview"), game_post(running_match, body))  # the state kept
    asked = []
    with connection.execute_wrapper(lambda execute, sql, *rest: (asked.append(sql), execute(sql, *rest))[1]):
        preview = scorekeeper_client.post(url(running_match, "game_preview"), game_post(running_match, body))
    assert "= 71" in preview.content.decode()
    assert sum(1 for sql in asked if 'FROM "protocol_match"' in sql) == 1, asked  # fetched with its rights, no second read


def test_the_preview_stays_quiet_about_fields_not_yet_typed(scorekeeper_client, running_match):
    data = {"trump_mode": "direct", "trump": "suit:Pik", "version": running_match.version, "p0_tricks": "3"}
    preview = scorekeeper_client.post(url(running_match, "game_preview"), data).content.decode()
    assert "errorlist" not in preview and "Stiche, Augen und Trümpfe für jeden Spieler" in preview


def test_a_correction_with_a_reason_recomputes_and_keeps_history(secretary_client, running_match, secretary):
    from protocol import recording
    from tests.unit.builders import quiet
    recording.add_event(running_match, "game", quiet()["game"], user=secretary)
    running_match.refresh_from_db()
    fixed = quiet()["game"]
    fixed["results"]["Anna"]["points"] = 20
    fixed["results"]["Bernd"]["points"] = 40
    data = game_post(running_match, fixed) | {"why-reason": "Augen vertauscht", "why-version": running_match.version}
    response = secretary_client.post(url(running_match, "entry_correct", position=0), data)
    assert response.status_code == 302
    assert Event.objects.get(match=running_match).data["results"]["Anna"]["points"] == 20
    history = secretary_client.get(url(running_match, "history")).content.decode()
    assert "Augen vertauscht" in history and "Spiel 1 korrigiert: Anna Augen 30 → 20, Bernd Augen 30 → 40" in html.unescape(history)


def test_annulling_a_spiel_needs_a_reason_and_keeps_it_on_the_sheet(scorekeeper_client, running_match, secretary):
    from protocol import recording
    from tests.unit.builders import quiet
    recording.add_event(running_match, "game", quiet()["game"], user=secretary)
    running_match.refresh_from_db()
    refused = scorekeeper_client.post(url(running_match, "game_annul", position=0), {"reason": "", "version": running_match.version})
    assert refused.status_code == 200 and not Event.objects.get().data.get("annulled")
    scorekeeper_client.post(url(running_match, "game_annul", position=0), {"reason": "vergeben", "version": running_match.version})
    page = scorekeeper_client.get(url(running_match)).content.decode()
    assert Event.objects.get().data["annulled"] is True and "is-annulled" in page and "vergeben" in page


def test_a_lot_is_drawn_and_recorded(scorekeeper_client, running_match):
    response = scorekeeper_client.post(url(running_match, "lot_new"), {"purpose": "Wer spielt aus", "f0": "Kreuz", "f2": "Herz"},
                                       follow=True)
    lot = running_match.lots.get()
    assert lot.data["winner"] in ("Anna", "Carla") and lot.data["cards"][-1][0] in "XH"
    assert "gewinnt den Losentscheid" in response.content.decode()
    last = lot.data["cards"][-1]
    faces = response.content.decode().split('class="card-face">')[1:]
    assert faces[-1].startswith({"X": "Kreuz ", "H": "Herz "}[last[0]])  # a card by its name, never "XK"
    assert all(not face.startswith(code + "<") for face, code in zip(faces, lot.data["cards"]))


def test_a_lot_with_features_of_different_kinds_is_refused(scorekeeper_client, running_match):
    response = scorekeeper_client.post(url(running_match, "lot_new"), {"purpose": "x", "f0": "Kreuz", "f2": "rot"})
    assert response.status_code == 200 and "LE a" in response.content.decode() and not running_match.lots.exists()


def test_the_secretary_imports_a_protocol_file_and_a_broken_one_saves_nothing(secretary_client, club):
    from pathlib import Path
    data = Path(__file__).resolve().parents[1] / "data"
    with open(data / "invalid.json", "rb") as f:
        response = secretary_client.post(reverse("protocol:import", kwargs={"slug": club.slug}), {"file": f})
    assert response.status_code == 200 and "nicht importiert" in response.content.decode()
    assert not Match.objects.exists()
    with open(data / "first-spiel.json", "rb") as f:
        response = secretary_client.post(reverse("protocol:import", kwargs={"slug": club.slug}), {"file": f})
    assert response.status_code == 302 and Match.objects.get().game_count == 1


def test_a_member_may_start_a_partie_only_as_its_protokollant(member_client, club, players):
    data = new_match_post(club, players, "Bernd")
    response = member_client.post(reverse("protocol:new", kwargs={"slug": club.slug}), data)
    assert response.status_code == 200 and "Art. 4a" in response.content.decode() and not Match.objects.exists()
    response = member_client.post(reverse("protocol:new", kwargs={"slug": club.slug}), data | {"scorekeeper": "Anna"})
    assert response.status_code == 302 and Match.objects.get().scorekeeper_seat.name == "Anna"


def test_settings_outside_the_rules_are_refused_with_the_article(secretary_client, club, players):
    data = new_match_post(club, players, "Bernd", limit=800)
    response = secretary_client.post(reverse("protocol:new", kwargs={"slug": club.slug}), data)
    assert response.status_code == 200 and "Art. 17a" in response.content.decode() and not Match.objects.exists()


def test_a_spiel_without_a_trump_is_refused_with_the_article(scorekeeper_client, running_match):
    body = {"results": {p: {"tricks": t, "points": 10 * t, "trumps": 1}
                        for p, t in zip(["Anna", "Bernd", "Carla", "Dieter"], [3, 3, 2, 2])}}
    response = scorekeeper_client.post(url(running_match, "game_new"), game_post(running_match, body, submission=uuid.uuid4()))
    assert response.status_code == 200 and "Der Trumpf fehlt" in response.content.decode()
    preview = scorekeeper_client.post(url(running_match, "game_preview"), game_post(running_match, body))
    assert preview.status_code == 200 and "Der Trumpf fehlt" in preview.content.decode()
    assert not Event.objects.exists()


def test_ending_by_time_with_a_tie_at_the_top_starts_a_stechen(scorekeeper_client, running_match, secretary):
    from protocol import recording
    from tests.unit.builders import quiet
    recording.add_event(running_match, "game", quiet()["game"], user=secretary)  # Anna and Bernd lead with 31
    running_match.refresh_from_db()
    response = scorekeeper_client.post(url(running_match, "end"), {"reason": "time", "version": running_match.version},
                                       follow=True)
    running_match.refresh_from_db()
    assert running_match.status == "tiebreak" and "Stechen" in response.content.decode()


def test_the_secretary_annuls_a_partie_with_a_reason_and_it_stays_visible(secretary_client, running_match):
    refused = secretary_client.post(url(running_match, "annul"), {"reason": "", "version": running_match.version})
    assert refused.status_code == 200 and not Event.objects.exists()
    secretary_client.post(url(running_match, "annul"), {"reason": "Karten unvollständig", "version": running_match.version})
    running_match.refresh_from_db()
    page = secretary_client.get(url(running_match)).content.decode()
    assert running_match.status == "annulled" and "Karten unvollständig" in page and "annulliert" in page


def test_the_secretary_changes_the_obergrenze_with_a_reason_and_the_rules_check_it(secretary_client, running_match):
    from protocol.models import Change
    data = {"limit": 900, "cards_per_deal": 5, "no_trump_points": -100, "no_trick_points": -200,
            "reason": "NÜV vereinbart", "version": running_match.version}
    refused = secretary_client.post(url(running_match, "settings"), data)
    assert refused.status_code == 200 and "Art. 17a" in refused.content.decode()
    response = secretary_client.post(url(running_match, "settings"), data | {"limit": 1500})
    running_match.refresh_from_db()
    assert response.status_code == 302 and running_match.settings == {"limit": 1500}
    assert Change.objects.get(match=running_match, action="edit_match").reason == "NÜV vereinbart"


def test_load_demo_fills_an_empty_site_once(db):
    from io import StringIO

    from django.core.management import call_command
    out = StringIO()
    call_command("load_demo", stdout=out)
    call_command("load_demo", stdout=out)  # make run calls it every time
    assert Match.objects.filter(status="running").count() == 1 and Match.objects.count() == 13
    assert "schon angelegt" in out.getvalue()
