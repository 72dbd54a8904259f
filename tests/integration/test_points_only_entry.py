"""The Spiel form's switch "nur Punkte" in every game that takes a Spiel recorded as the points
per player: Bernd, who keeps the protocol, types the points (and a noted fact) and saves; a
line the rules refuse shows the engine's German message with its article at the player's
input; the next Spiel opens in the mode of the last one; a correction opens in the mode the
Spiel was recorded in; a Stechen gives only its players points inputs."""

import html
import re

import pytest

from protocol import reading
from protocol.models import Event
from tests.conftest import saved
from tests.integration.each_game import GAMES, new_match
from tests.integration.pages import game_post, url
from tests.unit.builders import quiet, twins

# A line of points each game's rules accept, the fact noted beside them, and a line they refuse
# at a player (his points missing or impossible) with the German message and its article.
LINES = {
    "chaotentrumpf": {
        "settings": {}, "facts": {"trump": "colour:rot"}, "body_facts": {"trump": {"level": "colour", "value": "rot"}},
        "scores": {"Anna": 31, "Bernd": 31, "Carla": 21, "Dieter": 21},
        "refused": {"Anna": 7777, "Bernd": 31, "Carla": 21, "Dieter": 21}, "refused_player": "Anna",
        "message": "Anna: 7777 Punkte ergeben sich aus keinem Fall von Art. 16", "article": "(Art. 13a, 16a, 16b)",
    },
    "doppelkopf": {
        "settings": {"rules": "tcg"}, "facts": {"dealer": "Anna"}, "body_facts": {"dealer": "Anna"},
        "scores": {"Anna": 2, "Bernd": 2, "Carla": -2, "Dieter": -2},
        "refused": {"Anna": 2, "Bernd": 2, "Carla": -2}, "refused_player": "Dieter",
        "message": "Für Dieter fehlen die Punkte: jeder Spieler des Spiels bekommt Punkte", "article": "(Protokollformat)",
    },
    "tarot": {
        "settings": {}, "facts": {"dealer": "Dieter", "taker": "Anna", "contract": "prise"},
        "body_facts": {"dealer": "Dieter", "taker": "Anna", "contract": "prise"},
        "scores": {"Anna": 75, "Bernd": -25, "Carla": -25, "Dieter": -25},
        "refused": {"Anna": 75, "Bernd": -25, "Carla": -25}, "refused_player": "Dieter",
        "message": "Für Dieter fehlen die Punkte: jeder Spieler des Spiels bekommt Punkte",
        "article": "(FFT-Regeln",
    },
}
SEATS = ["Anna", "Bernd", "Carla", "Dieter"]


def points_post(match, scores, facts=(), **extra):
    """The Spiel form's POST with the switch on: the points by seat and the facts noted."""
    data = {"version": match.version, "points_only": "on", "trump_mode": "direct", **dict(facts)}
    data |= {f"p{SEATS.index(player)}_score": str(points) for player, points in scores.items()}
    return data | extra


def full_post(ruleset, match):
    """The form's POST of a full Spiel (the switch off) of each game."""
    if ruleset == "chaotentrumpf":
        return game_post(match, quiet()["game"])
    body = GAMES[ruleset]["game"]()
    data = {"version": match.version} | {k: v for k, v in body.items() if k != "re"}
    return data | ({"re": body["re"]} if "re" in body else {})


def switched_on(page):
    switch = re.search(r'<input[^>]*name="points_only"[^>]*>', page)
    assert switch, "the page has no switch"
    return "checked" in switch.group(0)


def slot(page, name):
    found = re.search(rf'<div id="err-{name}" class="field-errors"[^>]*>(.*?)</div>', page, flags=re.S)
    return html.unescape(found.group(1)) if found else ""


def value_of(page, name):
    found = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
    value = re.search(r'value="([^"]*)"', found.group(0)) if found else None
    return html.unescape(value.group(1)) if value else None


def games_of(match):
    return [e.data for e in Event.objects.filter(match=match, kind="game").order_by("position")]


@pytest.fixture
def partie(club, secretary):
    """``partie(ruleset)``: a Partie of Anna, Bernd, Carla and Dieter, kept by Bernd."""
    return lambda ruleset: new_match(club, secretary, ruleset, LINES[ruleset]["settings"])


@pytest.mark.parametrize("ruleset", sorted(LINES))
def test_bernd_saves_a_spiel_as_points_only_and_the_next_one_opens_so(ruleset, partie, scorekeeper_client):
    match = partie(ruleset)
    line = LINES[ruleset]
    page = scorekeeper_client.get(url(match, "game_new")).content.decode()
    assert not switched_on(page)  # a new Partie starts with the full Spiel
    assert all(f'name="p{i}_score"' in page for i in range(4))
    response = scorekeeper_client.post(url(match, "game_new"), points_post(match, line["scores"], line["facts"]))
    assert saved(response, match), slot(response.content.decode(), "__all__")
    assert games_of(match) == [{"scores": line["scores"]} | line["body_facts"]]
    assert "nur Punkte" in scorekeeper_client.get(url(match)).content.decode()
    following = scorekeeper_client.get(url(match, "game_new")).content.decode()
    assert switched_on(following)  # remembered from the Partie's last Spiel
    assert re.search(r'<input[^>]*name="p0_score"[^>]*autofocus', following)


@pytest.mark.parametrize("ruleset", sorted(LINES))
def test_a_refused_line_shows_the_engines_message_at_the_players_points(ruleset, partie, scorekeeper_client):
    match = partie(ruleset)
    line = LINES[ruleset]
    response = scorekeeper_client.post(url(match, "game_new"), points_post(match, line["refused"], line["facts"]))
    page = response.content.decode()
    seat = SEATS.index(line["refused_player"])
    message = slot(page, f"p{seat}_score")
    assert line["message"] in message and line["article"] in message
    assert re.search(rf'<input[^>]*name="p{seat}_score"[^>]*aria-invalid="true"', page)
    assert switched_on(page)  # the form stays in points mode, the points typed kept
    assert value_of(page, "p1_score") == str(line["refused"]["Bernd"])
    assert games_of(match) == []


@pytest.mark.parametrize("ruleset", sorted(LINES))
def test_the_live_check_in_points_mode_shows_the_scores_and_the_refusal(ruleset, partie, scorekeeper_client):
    match = partie(ruleset)
    line = LINES[ruleset]
    shown = scorekeeper_client.post(url(match, "game_preview"),
                                    points_post(match, line["scores"], line["facts"])).content.decode()
    assert "nur Punkte" in shown
    assert "preview__table" in shown and all(f"+{points}" in shown for points in line["scores"].values() if points > 0)
    # A complete line the rules refuse: the message at Dieter's points, or (a sum) at the points as a whole.
    more = 7000 if ruleset == "chaotentrumpf" else 1  # Art. 16 gives no 7021; the others must sum to 0
    wrong = dict(line["scores"]) | {"Dieter": line["scores"]["Dieter"] + more}
    refused = scorekeeper_client.post(url(match, "game_preview"), points_post(match, wrong, line["facts"])).content.decode()
    expected = "ergeben sich aus keinem Fall" if ruleset == "chaotentrumpf" else "Die Punkte ergeben zusammen 1, nicht 0"
    assert expected in slot(refused, "scores") or expected in slot(refused, "p3_score")
    page = scorekeeper_client.get(url(match, "game_new")).content.decode()
    slots = set(re.findall(r'id="(err-[^"]+)" class="field-errors" hx-swap-oob="true"', refused))
    assert slots and slots <= set(re.findall(r'\bid="([^"]+)"', page))  # every slot the check fills is on the page


@pytest.mark.parametrize("ruleset", sorted(LINES))
def test_a_mixed_partie_counts_both_and_opens_in_the_last_spiels_mode(ruleset, partie, scorekeeper_client):
    match = partie(ruleset)
    line = LINES[ruleset]
    assert saved(scorekeeper_client.post(url(match, "game_new"), full_post(ruleset, match)), match)
    match.refresh_from_db()
    full = dict(reading.page(match).computed.totals)
    assert saved(scorekeeper_client.post(url(match, "game_new"), points_post(match, line["scores"], line["facts"])),
                 match)
    match.refresh_from_db()
    assert dict(reading.page(match).computed.totals) == {p: full[p] + line["scores"][p] for p in SEATS}
    assert switched_on(scorekeeper_client.get(url(match, "game_new")).content.decode())
    # Switched back: a full Spiel, and the next form opens full again.
    assert saved(scorekeeper_client.post(url(match, "game_new"), full_post(ruleset, match)), match)
    assert [("scores" in body) for body in games_of(match)] == [False, True, False]
    assert not switched_on(scorekeeper_client.get(url(match, "game_new")).content.decode())


@pytest.mark.parametrize("ruleset", sorted(LINES))
def test_a_correction_opens_in_the_mode_the_spiel_was_recorded_in(ruleset, partie, scorekeeper_client):
    match = partie(ruleset)
    line = LINES[ruleset]
    scorekeeper_client.post(url(match, "game_new"), full_post(ruleset, match))
    match.refresh_from_db()
    scorekeeper_client.post(url(match, "game_new"), points_post(match, line["scores"], line["facts"]))
    full, points = Event.objects.filter(match=match, kind="game").order_by("position")
    page = scorekeeper_client.get(url(match, "entry_correct", position=full.position)).content.decode()
    assert not switched_on(page)
    page = scorekeeper_client.get(url(match, "entry_correct", position=points.position)).content.decode()
    assert switched_on(page)
    assert [value_of(page, f"p{i}_score") for i in range(4)] == [str(line["scores"][p]) for p in SEATS]
    # Corrected as points only: Bernd's and Anna's points swapped where the rules allow it.
    match.refresh_from_db()
    corrected = dict(line["scores"]) | {"Carla": line["scores"]["Dieter"], "Dieter": line["scores"]["Carla"]}
    response = scorekeeper_client.post(url(match, "entry_correct", position=points.position),
                                       points_post(match, corrected, line["facts"]) | {
                                           "why-reason": "Zeilen vertauscht", "why-version": match.version})
    assert response.status_code == 302
    assert games_of(match)[-1]["scores"] == corrected


def test_a_stechen_gives_only_its_players_points_inputs(club, secretary, scorekeeper_client):
    match = new_match(club, secretary, "chaotentrumpf", {})
    from protocol import recording
    for _ in range(4):
        match.refresh_from_db()
        recording.add_event(match, "game", twins()["game"], user=secretary, version=match.version)
    match.refresh_from_db()
    assert match.status == "tiebreak"
    page = scorekeeper_client.get(url(match, "game_new")).content.decode()
    assert 'name="p0_score"' in page and 'name="p1_score"' in page
    assert 'name="p2_score"' not in page and 'name="p3_score"' not in page
    # Points typed for Carla (an old page) have no input: the Stechen's Spiel is Anna's and Bernd's.
    response = scorekeeper_client.post(url(match, "game_new"),
                                       points_post(match, {"Anna": 60, "Bernd": -200, "Carla": 20}))
    assert saved(response, match)
    assert games_of(match)[-1] == {"scores": {"Anna": 60, "Bernd": -200}}


def test_a_stale_points_form_keeps_what_was_typed_and_a_double_tap_saves_once(partie, scorekeeper_client):
    match = partie("doppelkopf")
    line = LINES["doppelkopf"]
    typed = points_post(match, line["scores"], line["facts"], submission="5f0e8a9c-3c1e-4d8e-9d55-6f3c1b2a7e10")
    assert saved(scorekeeper_client.post(url(match, "game_new"), typed), match)
    again = scorekeeper_client.post(url(match, "game_new"), typed, follow=True).content.decode()
    assert len(games_of(match)) == 1 and "Dieses Spiel war bereits gespeichert." in again
    other = {"Anna": -2, "Bernd": -2, "Carla": 2, "Dieter": 2}
    stale = scorekeeper_client.post(url(match, "game_new"), points_post(match, other, line["facts"], version=0))
    page = stale.content.decode()
    assert stale.status_code == 409 and switched_on(page)
    assert [value_of(page, f"p{i}_score") for i in range(4)] == [str(other[p]) for p in SEATS]
    assert len(games_of(match)) == 1


def test_the_fourth_game_has_no_switch_its_spiel_is_points_already(club, secretary, scorekeeper_client):
    from protocol import games
    games.install("zaehlspiel", "tests.fourth_game")
    try:
        match = new_match(club, secretary, "zaehlspiel", {})
        page = scorekeeper_client.get(url(match, "game_new")).content.decode()
        assert 'name="points_only"' not in page and 'name="p0_points"' in page
        data = {"version": match.version, "dealer": "Anna", "points_only": "on"} | {
            f"p{i}_points": str(10 * (i + 1)) for i in range(4)}
        assert saved(scorekeeper_client.post(url(match, "game_new"), data), match)
        assert games_of(match) == [{"dealer": "Anna", "points": {"Anna": 10, "Bernd": 20, "Carla": 30, "Dieter": 40}}]
    finally:
        games.uninstall("zaehlspiel")


def test_what_was_typed_in_a_hidden_input_before_the_switch_does_not_hold_the_spiel_back(partie, scorekeeper_client):
    """Bernd typed card points "4x" in the full Tarot form, then switched to points only: the
    hidden input is not read, the Spiel is saved as its points."""
    match = partie("tarot")
    line = LINES["tarot"]
    response = scorekeeper_client.post(url(match, "game_new"),
                                       points_post(match, line["scores"], line["facts"], points="4x", oudlers="2"))
    assert saved(response, match)
    assert games_of(match) == [{"scores": line["scores"]} | line["body_facts"]]
    full = scorekeeper_client.post(url(match, "game_new"), full_post("tarot", match) | {"points": "4x"})
    assert full.status_code == 200 and "4x" in full.content.decode()  # switched off, the input is read again
