"""A Doppelkopf match kept through the pages: new match, games, preview, penalties, the end."""

import uuid

import pytest
from django.urls import reverse

from protocol import reading
from protocol.models import Change, Event, Match
from tests.conftest import saved
from tests.integration.doppelkopf import PLAYERS, dk_match, dk_post, save
from tests.integration.pages import url


@pytest.fixture
def match(club, member_user, scorekeeper, secretary):
    """Anna, Bernd, Carla and Dieter play by TCG rules; Bernd keeps the protocol."""
    return dk_match(club, secretary)


# Who may do what: tests/integration/test_access_matrix.py, for every game.

# -- a new match ----------------------------------------------------------------------------------

def new_match_data(club, names, scorekeeper, **extra):
    members = {m.name: m.pk for m in club.members.all()}
    data = {"ruleset": "doppelkopf", "rules": "ddv", "date": "2026-11-20", "place": "Nürtingen",
            "scorekeeper": scorekeeper}
    data.update({f"seat{i}": members[name] for i, name in enumerate(names)})
    data.update(extra)
    return data


def test_a_new_match_of_doppelkopf_with_the_ddv_rules(scorekeeper_client, club, match):
    Match.objects.all().delete()
    page = scorekeeper_client.get(reverse("protocol:new", kwargs={"slug": club.slug})).content.decode()
    assert 'value="doppelkopf"' in page and 'value="tarot"' in page and 'name="rules"' in page
    response = scorekeeper_client.post(reverse("protocol:new", kwargs={"slug": club.slug}),
                                       new_match_data(club, PLAYERS, "Bernd"))
    created = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == created.get_absolute_url()
    assert created.ruleset == "doppelkopf" and created.settings == {"rules": "ddv"}
    page = scorekeeper_client.get(created.get_absolute_url()).content.decode()
    assert "DDV-Turnierspielregeln" in page and "Obergrenze" not in page


def test_a_doppelkopf_table_needs_four_or_five_players(scorekeeper_client, club, match):
    Match.objects.all().delete()
    response = scorekeeper_client.post(reverse("protocol:new", kwargs={"slug": club.slug}),
                                       new_match_data(club, PLAYERS[:3], "Bernd"))
    assert response.status_code == 200 and ("Es spielen 4 bis 5 Spieler, nicht 3 (DDV-Turnierspielregeln: am Tisch "
                                            "spielen vier; zu fünft sitzt im Vereinsspiel der Geber aus).") \
        in response.content.decode()
    assert not Match.objects.exists()


def test_a_scorekeeper_who_does_not_play_is_refused_by_the_engine_on_its_field(secretary_client, club, match):
    """The engine's check only; the page puts its sentence at the field, citing Doppelkopf's own
    rule (the protocol format: its rules say nothing of the Protokollant), never Art. 4."""
    Match.objects.all().delete()
    response = secretary_client.post(reverse("protocol:new", kwargs={"slug": club.slug}),
                                     new_match_data(club, PLAYERS, "Sabine"))
    assert response.status_code == 200 and not Match.objects.exists()
    assert response.context["form"].errors["scorekeeper"] == ["Der Protokollant muss einer der Spieler sein (Protokollformat)."]


# -- games ----------------------------------------------------------------------------------------

def test_a_whole_tcg_match_with_the_seed_example_through_the_form(scorekeeper_client, match):
    client = scorekeeper_client
    form = client.get(url(match, "game_new")).content.decode()
    assert 'name="re"' in form and 'name="re_announcement"' in form and 'name="kontra_herzstich"' in form

    # TCG seed: Re announced keine 60, Kontra made 60: 10 for Kontra (TCG 3, doubled for Re's announcement)
    assert saved(save(client, match, re_points=180, re_announcement="3"), match)
    body = Event.objects.get(match=match).data
    assert body == {"type": "normal", "dealer": "Anna", "re": ["Anna", "Bernd"], "re_points": 180,
                    "announcements": {"re": ["re", "keine 90", "keine 60"]}}
    # a Damensolo of Carla, won: 1 + the solo point, three times for the soloist
    assert saved(save(client, match, type="solo_damen", dealer="Bernd", re=["Carla"], re_points=121), match)

    page = client.get(url(match)).content.decode()
    for text in ("Normalspiel", "Re Anna, Bernd", "Kontra", "Damensolo", "TCG 3", "× 2 (Re angesagt, TCG 5) = 10",
                 "+6", "−12", "16"):
        assert text in page, text
    computed = reading.page(match).computed
    assert computed.totals == {"Anna": -12, "Bernd": -12, "Carla": 16, "Dieter": 8}

    match.refresh_from_db()
    response = client.post(url(match, "end"), {"reason": "time", "version": match.version}, follow=True)
    match.refresh_from_db()
    assert match.status == "finished" and match.winner.name == "Carla" and match.ended_by == "time"
    page = response.content.decode()
    assert "Carla hat die Partie gewonnen" in page and "Zeitbegrenzung" in page
    assert client.get(url(match, "game_new")).status_code == 403  # the Protokollant's match is over


def test_the_ddv_example_kontra_announced_scores_5(scorekeeper_client, club, secretary, member_user, scorekeeper):
    match = dk_match(club, secretary, rules="ddv")
    form = scorekeeper_client.get(url(match, "game_new")).content.decode()
    assert 'name="kontra_herzstich"' not in form  # no Herzstich under DDV rules
    assert saved(save(scorekeeper_client, match, re_points=80, kontra_announcement="1"), match)
    computed = reading.page(match).computed
    assert computed.games[0].extra == {"winner": "kontra", "value": 5}
    assert computed.totals == {"Anna": -5, "Bernd": -5, "Carla": 5, "Dieter": 5}
    assert "gegen die Alten 1" in scorekeeper_client.get(url(match)).content.decode()


def test_special_points_go_into_the_body_per_party(scorekeeper_client, match):
    response = save(scorekeeper_client, match, re_points=130, re_doppelkopf="1", kontra_fuchs="1", schwarz="")
    assert saved(response, match)
    body = Event.objects.get(match=match).data
    assert body["extras"] == {"re": {"doppelkopf": 1, "fuchs": 0, "karl": 0, "herzstich": 0},
                              "kontra": {"doppelkopf": 0, "fuchs": 1, "karl": 0, "herzstich": 0}}


def test_wrong_points_show_the_engines_error_at_the_field_and_save_nothing(scorekeeper_client, match):
    response = save(scorekeeper_client, match, re_points=250)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Die Augen der Re-Partei sind eine ganze Zahl von 0 bis 240" in page and "TCG-Regeln" in page
    assert 'id="err-re_points"' in page and page.index("0 bis 240") > page.index('id="err-re_points"')
    assert not Event.objects.exists()


def test_a_solo_with_two_in_the_re_party_is_refused_with_the_rule(scorekeeper_client, match):
    response = save(scorekeeper_client, match, type="solo_trumpf", re=["Anna", "Bernd"])
    assert "Trumpfsolo: einer spielt allein" in response.content.decode()
    assert not Event.objects.exists()


def test_with_five_players_the_dealer_sits_out(scorekeeper_client, club, secretary, member_user, scorekeeper):
    match = dk_match(club, secretary, players=PLAYERS + ["Erika"])
    response = save(scorekeeper_client, match, dealer="Erika", re=["Erika", "Anna"])
    assert "sitzt bei fünf Spielern aus" in response.content.decode()
    assert saved(save(scorekeeper_client, match, dealer="Erika", re=["Anna", "Bernd"]), match)
    # the next game's dealer is suggested clockwise (the Protokollant may choose another)
    form = scorekeeper_client.get(url(match, "game_new")).content.decode()
    assert '<option value="Anna" selected>' in form
    page = scorekeeper_client.get(url(match)).content.decode()
    assert "sits-out" in page


# -- the live preview -----------------------------------------------------------------------------

def test_the_preview_shows_scores_and_the_explanation(scorekeeper_client, match):
    response = scorekeeper_client.post(url(match, "game_preview"), dk_post(match, re_points=151))
    page = response.content.decode()
    assert "keine 9 1" in page and "+2" in page and "−2" in page
    assert not Event.objects.exists()


def test_the_preview_puts_each_error_in_its_slot(scorekeeper_client, match):
    page = scorekeeper_client.post(url(match, "game_preview"), dk_post(match, re_points=5)).content.decode()
    assert 'id="err-re_points" class="field-errors" hx-swap-oob="true"' in page
    assert "mindestens 8" in page


def test_the_preview_waits_for_the_re_party(scorekeeper_client, match):
    page = scorekeeper_client.post(url(match, "game_preview"), dk_post(match, re=[])).content.decode()
    assert "preview__bad" not in page and "errorlist" not in page


# -- penalties, corrections, annulment ------------------------------------------------------------

def test_a_penalty_within_the_doppelkopf_bounds(scorekeeper_client, match):
    page = scorekeeper_client.get(url(match, "sanction_new")).content.decode()
    assert "1–50" in page and "100–1000" not in page
    post = {"kind": "penalty", "player": "Carla", "points": 60, "reason": "Karten gezeigt",
            "decided_by": ["Anna", "Bernd"], "version": match.version, "submission": uuid.uuid4()}
    response = scorekeeper_client.post(url(match, "sanction_new"), post)
    assert "Eine Strafe beträgt 1 bis 50 Punkte Abzug" in response.content.decode()
    assert not Event.objects.exists()
    response = scorekeeper_client.post(url(match, "sanction_new"), post | {"points": 5, "submission": uuid.uuid4()})
    assert response.status_code == 302
    assert reading.page(match).computed.totals["Carla"] == -5
    assert "Strafe −5 für Carla: Karten gezeigt" in scorekeeper_client.get(url(match)).content.decode()


def test_a_correction_is_kept_in_the_history(scorekeeper_client, match):
    save(scorekeeper_client, match, re_points=151)
    match.refresh_from_db()
    form = scorekeeper_client.get(url(match, "entry_correct", position=0)).content.decode()
    assert 'value="151"' in form and 'name="re" value="Anna" id="id_re_0" checked' in form
    post = dk_post(match, re_points=181) | {"why-reason": "Augen verzählt", "why-version": match.version}
    response = scorekeeper_client.post(url(match, "entry_correct", position=0), post)
    assert response.status_code == 302
    assert Event.objects.get(match=match).data["re_points"] == 181
    change = Change.objects.get(match=match, action=Change.Action.CORRECT)
    assert change.reason == "Augen verzählt" and change.before["game"]["re_points"] == 151
    assert "Augen verzählt" in scorekeeper_client.get(url(match, "history")).content.decode()
    assert reading.page(match).computed.totals["Anna"] == 3


def test_an_annulled_game_stays_struck_through_and_counts_nothing(scorekeeper_client, match):
    save(scorekeeper_client, match, re_points=151)
    match.refresh_from_db()
    response = scorekeeper_client.post(url(match, "game_annul", position=0),
                                       {"reason": "falsch gegeben", "version": match.version})
    assert response.status_code == 302
    computed = reading.page(match).computed
    assert computed.games[0].annulled and computed.totals["Anna"] == 0
    page = scorekeeper_client.get(url(match)).content.decode()
    assert "is-annulled" in page and "falsch gegeben" in page


def test_the_secretary_switches_the_rules_and_every_game_is_scored_again(secretary_client, match, scorekeeper_client):
    save(scorekeeper_client, match, re_points=80, kontra_announcement="1")
    match.refresh_from_db()
    response = secretary_client.post(url(match, "settings"), {"rules": "ddv", "reason": "DDV vereinbart",
                                                             "version": match.version})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.settings == {"rules": "ddv"}
    assert reading.page(match).computed.totals["Carla"] == 5


def test_a_tie_at_the_end_has_no_winner(scorekeeper_client, match):
    match.refresh_from_db()
    response = scorekeeper_client.post(url(match, "end"), {"reason": "agreed", "version": match.version}, follow=True)
    match.refresh_from_db()
    assert match.status == "finished" and match.winner is None
    assert response.status_code == 200


def test_a_stale_form_is_refused_with_the_typed_values_kept(scorekeeper_client, secretary_client, match):
    match.refresh_from_db()
    stale = dk_post(match, re_points=151)
    assert saved(save(secretary_client, match, re_points=130), match)  # another device saved first
    response = scorekeeper_client.post(url(match, "game_new"), stale)
    page = response.content.decode()
    assert response.status_code == 409 and 'value="151"' in page
    assert Event.objects.filter(match=match).count() == 1


def test_after_a_disqualification_leaves_three_the_match_can_only_end(scorekeeper_client, match):
    post = {"kind": "disqualification", "player": "Dieter", "reason": "wiederholt betrogen",
            "decided_by": ["Anna", "Bernd", "Carla"], "version": match.version, "submission": uuid.uuid4()}
    assert scorekeeper_client.post(url(match, "sanction_new"), post).status_code == 302
    page = scorekeeper_client.get(url(match)).content.decode()
    # The links a user can tap (the offline script's settings name every entry page too).
    assert f'href="{url(match, "game_new")}"' not in page and f'href="{url(match, "end")}"' in page
    assert scorekeeper_client.get(url(match, "game_new")).status_code == 302


def test_a_double_submit_of_a_penalty_records_it_once(scorekeeper_client, match):
    assert 'name="submission" value="' in scorekeeper_client.get(url(match, "sanction_new")).content.decode()
    post = {"kind": "warning", "player": "Carla", "reason": "zu früh gelegt", "version": match.version,
            "submission": uuid.uuid4()}
    for _ in range(2):
        scorekeeper_client.post(url(match, "sanction_new"), post)
    assert Event.objects.filter(match=match).count() == 1


def test_the_chaotentrumpf_penalty_form_keeps_its_one_time_token(scorekeeper_client, running_match):
    page = scorekeeper_client.get(url(running_match, "sanction_new")).content.decode()
    assert 'name="submission" value="' in page and "SV 3" in page
