"""What a signature holds, per persona (protocol/confirmations.py, protocol/views/signing.py,
league/registry/access.py; README "Unterschriften").

- A player confirms his own seat on his own login; the Protokollant confirms for a seat
  without a login (a guest, a member without an account) on his phone; nobody else confirms
  for anybody.
- A result is confirmed once per player; the second tap says so and stores nothing.
- Only the final result of a finished Partie is confirmed (not a running one, not during a
  Stechen, not an annulled one), and only the result the player saw (the page's version).
- Once a player confirmed, only the secretary corrects the Partie, on the page and through
  the offline queue's endpoint; only the secretary adds entries to a finished Partie.
"""

import datetime
import html
import re
import uuid

import pytest
from django.conf import settings
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import reverse

from protocol import confirmations, matches, recording
from protocol.models import Change, Confirmation, Event, Match
from tests.integration.phones import hand_over
from tests.unit.builders import quiet

PERSONAS = ["secretary", "scorekeeper", "player", "bystander", "outsider", "anonymous"]
# the user each persona logs in as (conftest.py); the player is Anna, at the table
USERS = {"secretary": "secretary", "scorekeeper": "scorekeeper", "player": "member_user", "bystander": "bystander",
         "outsider": "outsider"}
TABLE = ["Anna", "Bernd", "Carla", "Gisela"]  # Carla: a member without a login; Gisela: a guest
STRAFE = {"player": "Carla", "points": 100, "reason": "Karte gezeigt", "decided_by": ["Anna", "Bernd", "Gisela"]}


@pytest.fixture
def client_of(request, bystander, outsider):
    """The test client of a persona (anonymous: not logged in)."""
    def client(persona):
        browser = Client()
        if persona != "anonymous":
            browser.force_login(request.getfixturevalue(USERS[persona]))
        return browser
    return client


def confirm(browser, match, seat, version=None, **extra):
    """Tap "… bestätigt das Ergebnis" for ``seat`` on the page of ``match`` as loaded at ``version``."""
    url = reverse("protocol:confirm", kwargs={"slug": match.club.slug, "pk": match.pk, "position": seat.position})
    return browser.post(url, {"version": match.version if version is None else version}, **extra)


def messages_of(response) -> str:
    """The messages the page shows the user ("… hat das Ergebnis bestätigt.")."""
    found = re.findall(r'<li class="message[^"]*">(.*?)</li>', response.content.decode(), flags=re.S)
    return " ".join(html.unescape(m) for m in found)


def refused(response, persona) -> bool:
    """Refused by access: the login for an anonymous visitor, 403 for everyone else."""
    if persona == "anonymous":
        return response.status_code == 302 and response["Location"].startswith(resolve_url(settings.LOGIN_URL))
    return response.status_code == 403


# -- who confirms for whom ---------------------------------------------------------------------

# (persona, seat) pairs that may confirm: the player his own seat; the Protokollant his own and
# those without a login. The secretary signs for nobody (she is not at this table).
MAY_CONFIRM = {("player", "Anna"), ("scorekeeper", "Bernd"), ("scorekeeper", "Carla"), ("scorekeeper", "Gisela")}


@pytest.mark.parametrize("persona", PERSONAS)
def test_each_confirms_only_his_own_seat_and_the_protokollant_the_seats_without_a_login(
        client_of, finished_match, persona):
    browser = client_of(persona)
    for seat in finished_match.seats.select_related("member"):
        response = confirm(browser, finished_match, seat)
        if (persona, seat.name) in MAY_CONFIRM:
            assert response.status_code == 302 and response["Location"].endswith("#signatures"), seat.name
        else:
            assert refused(response, persona), seat.name
    given = Confirmation.objects.select_related("seat", "by")
    assert {c.seat.name for c in given} == {name for who, name in MAY_CONFIRM if who == persona}
    assert {c.by.username for c in given} <= {"player": {"anna"}, "scorekeeper": {"bernd"}}.get(persona, set())


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_match_page_offers_each_only_the_buttons_he_may_tap(client_of, finished_match, persona):
    page = client_of(persona).get(finished_match.get_absolute_url())
    if persona in ("anonymous", "outsider"):
        assert refused(page, persona)
        return
    buttons = [line.seat.name for line in page.context["signatures"] if line.may_confirm]
    assert buttons == [name for name in TABLE if (persona, name) in MAY_CONFIRM]


# -- once ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("persona, name", sorted(MAY_CONFIRM))
def test_nobody_confirms_twice(client_of, finished_match, persona, name):
    browser = client_of(persona)
    seat = finished_match.seats.get(name=name)
    first = confirm(browser, finished_match, seat, follow=True)
    assert f"{name} hat das Ergebnis bestätigt." in messages_of(first)
    second = confirm(browser, finished_match, seat, follow=True)  # a second tap, or a second tab
    assert f"{name} hatte dieses Ergebnis schon bestätigt." in messages_of(second)
    assert "hat das Ergebnis bestätigt" not in messages_of(second)
    assert Confirmation.objects.filter(seat=seat).count() == 1
    assert Change.objects.filter(match=finished_match, action=Change.Action.CONFIRM).count() == 1


def test_two_devices_confirming_at_once_store_one_confirmation(finished_match, scorekeeper):
    seat = finished_match.seats.get(name="Gisela")
    first = confirmations.confirm(finished_match, seat, user=scorekeeper)
    again = confirmations.confirm(finished_match, seat, user=scorekeeper)  # the other device was quicker
    assert again.pk == first.pk and Confirmation.objects.count() == 1


# -- only a finished Partie, only the result seen -------------------------------------------------

def partie(club, secretary, events):
    """A Partie of the same table as ``finished_match`` (whose members it needs)."""
    members = {m.name: m for m in club.members.all()}
    return matches.create_match(club=club, date=datetime.date(2026, 11, 21), members=[members[n] for n in TABLE],
                                scorekeeper=members["Bernd"], settings={}, events=events, user=secretary)


NOT_OVER = {
    "running": ([quiet(TABLE)], "Das Ergebnis kann bestätigt werden, sobald die Partie beendet ist."),
    # Anna and Bernd lead with 31 each when time is called: a Stechen (Art. 17b)
    "tiebreak": ([quiet(TABLE), {"end": {"reason": "time"}}],
                 "Das Ergebnis kann bestätigt werden, sobald die Partie beendet ist."),
    "annulled": ([quiet(TABLE), {"annul_match": {"reason": "Karten fehlten"}}],
                 "Eine annullierte Partie hat kein Ergebnis, das zu bestätigen wäre."),
}


@pytest.mark.parametrize("status", list(NOT_OVER))
@pytest.mark.parametrize("persona", PERSONAS)
def test_nobody_confirms_a_partie_that_is_not_over(client_of, finished_match, club, secretary, persona, status):
    events, words = NOT_OVER[status]
    match = partie(club, secretary, events)
    assert match.status == status
    browser = client_of(persona)
    for seat in match.seats.all():
        response = confirm(browser, match, seat, follow=persona not in ("anonymous", "outsider"))
        if persona in ("anonymous", "outsider"):
            assert refused(response, persona)
        else:
            assert words in messages_of(response)
    assert not Confirmation.objects.filter(match=match).exists()
    assert not Change.objects.filter(match=match, action=Change.Action.CONFIRM).exists()


@pytest.mark.parametrize("persona, name", [("player", "Anna"), ("scorekeeper", "Gisela")])
def test_a_player_confirms_only_the_result_he_saw(client_of, finished_match, secretary, persona, name):
    browser = client_of(persona)
    seat = finished_match.seats.get(name=name)
    seen = finished_match.version
    page = browser.get(finished_match.get_absolute_url()).content.decode()
    assert f'name="version" value="{seen}"' in page
    # the secretary records a Strafe while the sheet lies on the table: another result
    recording.add_event(finished_match, "penalty", STRAFE, user=secretary, version=seen)
    response = confirm(browser, finished_match, seat, version=seen, follow=True)
    assert "Das Ergebnis hat sich geändert, seit die Seite geladen wurde" in messages_of(response)
    response = confirm(browser, finished_match, seat, version="", follow=True)  # no version at all: the same
    assert "Das Ergebnis hat sich geändert" in messages_of(response)
    assert not Confirmation.objects.exists()


# -- after a confirmation: the secretary corrects, on every path ----------------------------------

@pytest.fixture
def confirmed(finished_match, secretary, member_user):
    """The finished Partie with a Verwarnung for Carla (entry 2), which Anna has confirmed."""
    recording.add_event(finished_match, "warning", {"player": "Carla", "reason": "zu laut"}, user=secretary,
                        version=finished_match.version)
    finished_match.refresh_from_db()
    confirmations.confirm(finished_match, finished_match.seats.get(name="Anna"), user=member_user)
    return finished_match


def page_correction(browser, match, position=1):
    url = reverse("protocol:entry_correct", kwargs={"slug": match.club.slug, "pk": match.pk, "position": position})
    return browser.post(url, {"kind": "warning", "player": "Carla", "reason": "sehr laut", "version": match.version,
                              "why-reason": "Grund ergänzt", "why-version": match.version})


def sync_correction(browser, match, position=1):
    return hand_over(browser, match, kind="correction", position=position, reason="Grund ergänzt",
                body={"warning": {"player": "Carla", "reason": "sehr laut"}})


def sync_refused(response, persona) -> bool:
    return response.status_code == (401 if persona == "anonymous" else 403) and response.json()["message"]


def warning_reason(match) -> str:
    return Event.objects.get(match=match, kind="warning").data["reason"]


@pytest.mark.parametrize("persona", PERSONAS)
def test_after_a_confirmation_only_the_secretary_corrects_on_the_page(client_of, confirmed, persona):
    response = page_correction(client_of(persona), confirmed)
    if persona == "secretary":
        assert response.status_code == 302 and warning_reason(confirmed) == "sehr laut"
    else:
        assert refused(response, persona) and warning_reason(confirmed) == "zu laut"
        assert not confirmed.changes.filter(action=Change.Action.CORRECT).exists()


@pytest.mark.parametrize("persona", PERSONAS)
def test_after_a_confirmation_only_the_secretary_corrects_through_the_phones_endpoint(client_of, confirmed, persona):
    response = sync_correction(client_of(persona), confirmed)
    if persona == "secretary":
        assert response.status_code == 201 and warning_reason(confirmed) == "sehr laut"
    else:
        assert sync_refused(response, persona) and warning_reason(confirmed) == "zu laut"
        assert not confirmed.changes.filter(action=Change.Action.CORRECT).exists()


@pytest.mark.parametrize("persona", PERSONAS)
def test_after_a_confirmation_only_the_secretary_adds_a_strafe_on_either_path(client_of, confirmed, persona):
    browser = client_of(persona)
    url = reverse("protocol:sanction_new", kwargs={"slug": confirmed.club.slug, "pk": confirmed.pk})
    on_page = browser.post(url, {"kind": "penalty", "player": "Carla", "points": 100, "reason": "Karte gezeigt",
                                 "decided_by": ["Anna", "Bernd", "Gisela"], "version": confirmed.version,
                                 "submission": uuid.uuid4()})
    if persona == "secretary":
        assert on_page.status_code == 302
        confirmed.refresh_from_db()
        assert hand_over(browser, confirmed, kind="penalty", body=STRAFE).status_code == 201
        assert confirmed.events.filter(kind="penalty").count() == 2
    else:
        assert refused(on_page, persona)
        assert sync_refused(hand_over(browser, confirmed, kind="penalty", body=STRAFE), persona)
        assert not confirmed.events.filter(kind="penalty").exists()


@pytest.fixture
def reopened(confirmed, secretary):
    """The secretary corrected the Spiel after Anna's confirmation: nobody passed 1000 any more,
    the Partie runs again and Anna's confirmation stands for the earlier result."""
    recording.correct_event(confirmed, 0, quiet(TABLE)["game"], user=secretary, version=confirmed.version,
                            reason="Augen falsch gezählt")
    confirmed.refresh_from_db()
    assert confirmed.status == Match.Status.RUNNING and confirmed.confirmations.exists()
    return confirmed


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_partie_reopened_after_a_confirmation_is_still_corrected_by_the_secretary_only(
        client_of, reopened, persona):
    browser = client_of(persona)
    if persona == "secretary":
        assert sync_correction(browser, reopened).status_code == 201
        reopened.refresh_from_db()
        assert page_correction(browser, reopened).status_code == 302
        assert reopened.changes.filter(action=Change.Action.CORRECT).count() == 3  # the reopening and these two
    else:
        assert refused(page_correction(browser, reopened), persona)
        assert sync_refused(sync_correction(browser, reopened), persona)
        assert warning_reason(reopened) == "zu laut"


def test_in_a_reopened_partie_the_protokollant_records_on_but_corrects_nothing(scorekeeper_client, reopened):
    """The Partie runs again (access.can_record); what was recorded before the confirmation stays
    the secretary's to correct (access.can_correct)."""
    assert sync_correction(scorekeeper_client, reopened).status_code == 403
    added = hand_over(scorekeeper_client, reopened, kind="game", body=quiet(TABLE)["game"])
    assert added.status_code == 201 and reopened.events.filter(kind="game").count() == 2
    reopened.refresh_from_db()
    assert sync_correction(scorekeeper_client, reopened, position=2).status_code == 403  # not even his new Spiel
