"""The Partie pages per persona: who sees what, who may write what (league/registry/access.py)."""

import pytest

from protocol import recording
from protocol.models import Event
from tests.conftest import saved
from tests.integration.pages import game_post, url
from tests.unit.builders import quiet

PERSONAS = ["secretary_client", "scorekeeper_client", "member_client", "outsider_client", "client"]


@pytest.fixture
def played(running_match, secretary):
    recording.add_event(running_match, "game", quiet()["game"], user=secretary)
    recording.add_event(running_match, "penalty", {"player": "Carla", "points": 100, "reason": "nicht bedient"},
                        user=secretary)
    running_match.refresh_from_db()
    return running_match


READ_PAGES = ["match", "sheet", "history", "export"]
RECORD_PAGES = ["game_new", "sanction_new", "end", "lot_new"]
CORRECT_PAGES = [("entry_correct", 0), ("entry_remove", 0), ("game_annul", 0), ("entry_correct", 1)]
MANAGE_PAGES = ["settings", "annul"]

EXPECTED = {
    #                     read  record correct manage
    "secretary_client":   (200, 200, 200, 200),
    "scorekeeper_client": (200, 200, 200, 403),
    "member_client":      (200, 403, 403, 403),
    "outsider_client":    (403, 403, 403, 403),
    "client":             (302, 302, 302, 302),
}


@pytest.mark.parametrize("persona", PERSONAS)
def test_each_persona_gets_exactly_the_pages_it_may(request, persona, played):
    client = request.getfixturevalue(persona)
    read, record, correct, manage = EXPECTED[persona]
    for name in READ_PAGES:
        assert client.get(url(played, name)).status_code == read, name
    for name in RECORD_PAGES:
        assert client.get(url(played, name)).status_code == record, name
    for name, position in CORRECT_PAGES:
        assert client.get(url(played, name, position=position)).status_code == correct, name
    for name in MANAGE_PAGES:
        assert client.get(url(played, name)).status_code == manage, name


def test_anonymous_visitors_are_sent_to_the_login(client, played):
    response = client.get(url(played))
    assert response.status_code == 302 and "/konto/login/" in response["Location"]


@pytest.mark.parametrize("persona, allowed", [("member_client", False), ("outsider_client", False),
                                              ("scorekeeper_client", True), ("secretary_client", True)])
def test_only_the_scorekeeper_and_the_secretary_can_save_a_spiel(request, persona, allowed, running_match):
    client = request.getfixturevalue(persona)
    response = client.post(url(running_match, "game_new"), game_post(running_match, quiet()["game"]))
    assert saved(response, running_match) is allowed
    assert Event.objects.filter(match=running_match).count() == (1 if allowed else 0)


def test_a_match_of_another_club_is_not_found_under_this_club(secretary_client, running_match, make_user):
    from league.models import Club
    other = Club.objects.create(name="Skatfreunde", slug="skat")
    response = secretary_client.get(f"/verein/{other.slug}/partien/{running_match.pk}/")
    assert response.status_code == 404


def test_the_protokollant_cannot_correct_once_the_partie_is_over(scorekeeper_client, secretary_client, played, secretary):
    recording.add_event(played, "annul_match", {"reason": "Karten unvollständig"}, user=secretary)
    assert scorekeeper_client.get(url(played, "entry_correct", position=0)).status_code == 403
    assert secretary_client.get(url(played, "entry_correct", position=0)).status_code == 200


def test_the_sheet_shows_players_scores_totals_and_the_strafe(member_client, played):
    page = member_client.get(url(played)).content.decode()
    for text in ("Anna", "Bernd", "Carla", "Dieter", "+31", "−100", "nicht bedient", "Mischer"):
        assert text in page, text


def test_the_export_is_the_protocol_file(member_client, played):
    import json
    response = member_client.get(url(played, "export"))
    doc = json.loads(response.content)
    assert response["Content-Type"].startswith("application/json")
    assert doc["players"] == ["Anna", "Bernd", "Carla", "Dieter"] and len(doc["events"]) == 2


@pytest.mark.parametrize("persona, status", [("secretary_client", 200), ("scorekeeper_client", 403),
                                             ("member_client", 403), ("outsider_client", 403), ("client", 302)])
def test_only_the_secretary_sees_the_clubs_audit_of_changes(request, persona, status, played):
    from django.urls import reverse
    response = request.getfixturevalue(persona).get(reverse("protocol:audit", kwargs={"slug": played.club.slug}))
    assert response.status_code == status
    if status == 200:
        page = response.content.decode()
        assert "Änderungsprotokoll" in page and "Spiel 1 eingetragen" in page and "Partie angelegt" in page
