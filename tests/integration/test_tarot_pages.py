"""A Tarot match kept through the pages: new match, deals, preview, penalties, the end."""

import uuid

import pytest
from django.urls import reverse

from protocol import reading
from protocol.models import Change, Event, Match
from tests.conftest import saved
from tests.integration.pages import url
from tests.integration.tarot import FOUR, save, tarot_match, tarot_post


@pytest.fixture
def match(club, member_user, scorekeeper, secretary):
    """Anna, Bernd, Carla and Dieter at one table; Bernd keeps the protocol."""
    return tarot_match(club, secretary)


# Who may do what: tests/integration/test_access_matrix.py, for every game.


def test_a_new_match_of_tarot(scorekeeper_client, club, match):
    Match.objects.all().delete()
    members = {m.name: m.pk for m in club.members.all()}
    data = {"ruleset": "tarot", "date": "2026-11-20", "scorekeeper": "Bernd"}
    data.update({f"seat{i}": members[name] for i, name in enumerate(FOUR)})
    response = scorekeeper_client.post(reverse("protocol:new", kwargs={"slug": club.slug}), data)
    created = Match.objects.get()
    assert response.status_code == 302 and created.ruleset == "tarot" and created.settings == {}


def test_the_fft_worked_example_through_the_form(scorekeeper_client, match):
    form = scorekeeper_client.get(url(match, "game_new")).content.decode()
    assert 'name="taker"' in form and 'name="partner"' not in form and "Poignée (10)" in form
    assert saved(save(scorekeeper_client, match), match)
    assert Event.objects.get(match=match).data == {
        "dealer": "Anna", "taker": "Bernd", "contract": "garde", "partner": None, "oudlers": 2, "points": 49,
        "petit_au_bout": "attack", "poignees": [{"player": "Bernd", "size": "simple"}], "chelem": None,
        "null": False}
    computed = reading.page(match).computed
    assert computed.totals == {"Anna": -106, "Bernd": 318, "Carla": -106, "Dieter": -106}
    page = scorekeeper_client.get(url(match)).content.decode()
    for text in ("Bernd · Garde", "D 106", "+318", "−106", "+ 20 Poignée = 106 je Verteidiger"):
        assert text in page, text

    # a second deal, lost by a half point: 40,5 with two bouts
    assert saved(save(scorekeeper_client, match, dealer="Bernd", taker="Carla", contract="prise", points="40,5",
                      petit_au_bout="", poignees={}), match)
    computed = reading.page(match).computed
    assert computed.games[1].extra == {"defender_score": -26}
    assert computed.totals == {"Anna": -80, "Bernd": 344, "Carla": -184, "Dieter": -80}

    match.refresh_from_db()
    response = scorekeeper_client.post(url(match, "end"), {"reason": "games", "version": match.version}, follow=True)
    match.refresh_from_db()
    assert match.status == "finished" and match.winner.name == "Bernd" and match.ended_by == "games"
    assert "Bernd hat die Partie gewonnen" in response.content.decode()


def test_impossible_points_show_the_engines_error_and_save_nothing(scorekeeper_client, match):
    response = save(scorekeeper_client, match, oudlers="3", points="10", petit_au_bout="")
    page = response.content.decode()
    assert response.status_code == 200 and "jeder Bout zählt 4,5" in page and "Règlement officiel" in page
    assert page.index("jeder Bout") > page.index('id="err-points"')
    assert not Event.objects.exists()


def test_points_that_are_not_a_number_are_refused_by_the_form(scorekeeper_client, match):
    response = save(scorekeeper_client, match, points="viel")
    assert response.status_code == 200 and 'id="err-points"' in response.content.decode()
    assert not Event.objects.exists()


def test_a_poignee_error_stands_next_to_its_player(scorekeeper_client, match):
    page = save(scorekeeper_client, match, poignees={"Bernd": "triple", "Carla": "triple"}).content.decode()
    assert "es gibt nur 21" in page and not Event.objects.exists()


def test_with_five_players_the_taker_calls_a_partner(scorekeeper_client, club, secretary, member_user, scorekeeper):
    match = tarot_match(club, secretary, players=FOUR + ["Erika"])
    assert 'name="partner"' in scorekeeper_client.get(url(match, "game_new")).content.decode()
    response = save(scorekeeper_client, match, partner="Erika", poignees={})
    assert saved(response, match)
    computed = reading.page(match).computed
    assert computed.games[0].scores["Erika"] == computed.games[0].extra["defender_score"]
    assert "Bernd mit Erika" in scorekeeper_client.get(url(match)).content.decode() or \
        "Bernd with Erika" in scorekeeper_client.get(url(match)).content.decode()


def test_a_deal_declared_null_scores_0(scorekeeper_client, match):
    match.refresh_from_db()
    post = {"dealer": "Anna", "null": "on", "version": match.version, "submission": uuid.uuid4()}
    assert saved(scorekeeper_client.post(url(match, "game_new"), post), match)
    computed = reading.page(match).computed
    assert computed.games[0].scores == {p: 0 for p in FOUR}


def test_the_preview_shows_the_scores_and_d(scorekeeper_client, match):
    page = scorekeeper_client.post(url(match, "game_preview"), tarot_post(match)).content.decode()
    assert "106 je Verteidiger" in page and "+318" in page
    page = scorekeeper_client.post(url(match, "game_preview"), tarot_post(match, points="")).content.decode()
    assert "+318" not in page and "preview__bad" not in page
    page = scorekeeper_client.post(url(match, "game_preview"),
                                   tarot_post(match, oudlers="0", petit_au_bout="attack")).content.decode()
    assert 'id="err-petit_au_bout" class="field-errors" hx-swap-oob="true"><ul' in page
    assert not Event.objects.exists()


def test_a_penalty_is_100_points_or_a_multiple(scorekeeper_client, match):
    page = scorekeeper_client.get(url(match, "sanction_new")).content.decode()
    assert "100–1000" in page
    post = {"kind": "penalty", "player": "Carla", "points": 150, "reason": "zweite Verwarnung",
            "decided_by": ["Anna"], "version": match.version, "submission": uuid.uuid4()}
    response = scorekeeper_client.post(url(match, "sanction_new"), post)
    assert "in Schritten von 100" in response.content.decode() and not Event.objects.exists()
    response = scorekeeper_client.post(url(match, "sanction_new"), post | {"points": 100, "submission": uuid.uuid4()})
    assert response.status_code == 302
    assert reading.page(match).computed.totals["Carla"] == -100


def test_a_correction_with_its_reason_in_the_history(scorekeeper_client, match):
    save(scorekeeper_client, match)
    match.refresh_from_db()
    form = scorekeeper_client.get(url(match, "entry_correct", position=0)).content.decode()
    assert 'value="49"' in form and 'value="simple" selected' in form
    post = tarot_post(match, points="51") | {"why-reason": "Punkte verzählt", "why-version": match.version}
    assert scorekeeper_client.post(url(match, "entry_correct", position=0), post).status_code == 302
    change = Change.objects.get(match=match, action=Change.Action.CORRECT)
    assert change.reason == "Punkte verzählt" and change.after["game"]["points"] == 51
    assert reading.page(match).computed.games[0].extra["defender_score"] == 110


def test_tarot_has_no_settings_page(secretary_client, match):
    response = secretary_client.get(url(match, "settings"))
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    assert url(match, "settings") not in secretary_client.get(url(match)).content.decode()


def test_the_whole_match_can_be_annulled(secretary_client, match, scorekeeper_client):
    save(scorekeeper_client, match)
    match.refresh_from_db()
    response = secretary_client.post(url(match, "annul"), {"reason": "Karten unvollständig", "version": match.version})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == "annulled"
    assert "Karten unvollständig" in secretary_client.get(url(match)).content.decode()
