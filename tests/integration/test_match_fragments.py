"""The match page's sheet and "Games in detail" (protocol.sheet.markup, each Spiel's rows kept
by protocol.sheet.kept_rows): each Spiel written once, never stale, each viewer's buttons as
his rights say, and small: 7 players and 60 Spiele under 80 kB of HTML."""

import datetime
import random

from league.models import Member
from protocol import engine_state, matches, reading, recording
from protocol.games.chaotentrumpf import plugin as chaotentrumpf
from protocol.games.chaotentrumpf.simulation import simulate_match
from tests.integration.kept_state import played, stored
from tests.integration.pages import url
from tests.unit.builders import quiet

SEVEN = ["Anna", "Bernd", "Carla", "Dieter", "Erika", "Frank", "Gisela"]


def test_each_spiel_is_written_once_and_a_save_writes_only_the_new_one(
        running_match, secretary, scorekeeper_client, member_client, monkeypatch,
        django_capture_on_commit_callbacks):
    match = played(running_match, secretary, django_capture_on_commit_callbacks, spiele=3)
    written = []
    game_row = chaotentrumpf.Chaotentrumpf.game_row
    monkeypatch.setattr(chaotentrumpf.Chaotentrumpf, "game_row",
                        lambda self, c, game: written.append(game.number) or game_row(self, c, game))
    for _ in range(3):  # three devices poll the same version
        assert member_client.get(url(match, "sheet")).content.decode().count('<tr><th scope="row">') == 3
    assert written == [1, 2, 3]
    with django_capture_on_commit_callbacks(execute=True):
        recording.add_event(stored(match), "game", quiet()["game"], user=secretary)
    assert member_client.get(url(match, "sheet")).content.decode().count('<tr><th scope="row">') == 4
    assert written == [1, 2, 3, 4]  # the Spiele before it are what the page showed before


def test_the_buttons_of_each_spiel_are_the_viewers(running_match, secretary, scorekeeper_client, member_client,
                                                   django_capture_on_commit_callbacks):
    match = played(running_match, secretary, django_capture_on_commit_callbacks, spiele=2)
    keeper = scorekeeper_client.get(url(match)).content.decode()
    assert 'href="eintrag/0/korrigieren/"' in keeper and 'href="eintrag/1/annullieren/"' in keeper
    member = member_client.get(url(match)).content.decode()  # the same version, no right to correct
    assert "korrigieren/" not in member and 'id="spiel-2"' in member


def test_a_page_shares_the_kept_state_and_a_save_feeds_a_copy(running_match, secretary,
                                                              django_capture_on_commit_callbacks):
    match = played(running_match, secretary, django_capture_on_commit_callbacks, spiele=2)
    shared = engine_state.peek(stored(match))
    assert shared is engine_state.peek(stored(match))  # one copy for every reader of the version
    assert engine_state.get(stored(match)) is not shared  # a writer's own copy
    with django_capture_on_commit_callbacks(execute=True):
        recording.add_event(stored(match), "game", quiet()["game"], user=secretary)
    assert len(shared.evaluation.match.games) == 2  # the readers' copy was not fed
    assert len(reading.page(stored(match)).computed.games) == 3


def test_seven_players_and_sixty_spiele_are_under_80_kb(club, secretary, secretary_client):
    members = [Member.objects.get_or_create(club=club, name=name)[0] for name in SEVEN]
    for attempt in range(100):
        doc = simulate_match(SEVEN, random.Random(7 + attempt), settings={"limit": 5000}, max_events=130)
        games = [i for i, event in enumerate(doc["events"]) if "game" in event]
        if len(games) >= 60:
            break
    events = doc["events"][: games[59] + 1]
    match = matches.create_match(club=club, date=datetime.date(2026, 11, 20), members=members,
                                 scorekeeper=members[0], settings={"limit": 5000}, events=events, user=secretary)
    page = secretary_client.get(url(match))
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count("<details id=\"spiel-") == 60 and html.count("korrigieren/") >= 60
    assert len(page.content) < 80 * 1024, len(page.content)
