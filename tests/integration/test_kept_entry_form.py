"""The inputs of a new Spiel's form are written once per state of the Partie and read by every
phone that opens the form (protocol/forms/kept.py): each phone still gets its own one-time id
for the save and its own CSRF token, nothing of one viewer is in what the others read, and the
next state opens with its own inputs."""

import re

from protocol.models import Event
from tests.conftest import saved
from tests.integration.pages import game_post, url
from tests.unit.builders import quiet

UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def inputs(page: str) -> str:
    """The form's kept inputs: from the trump to the annulment, as the page shows them."""
    return re.search(r'<fieldset class="panel trump-box">.*?(?=<section id="preview")', page, flags=re.S).group(0)


def own(page: str, name: str) -> str:
    return re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', page).group(1)


def test_two_phones_at_the_table_share_the_inputs_and_keep_their_own_ids(
        running_match, scorekeeper_client, secretary_client):
    bernd = scorekeeper_client.get(url(running_match, "game_new")).content.decode()
    again = scorekeeper_client.get(url(running_match, "game_new")).content.decode()
    secretary = secretary_client.get(url(running_match, "game_new")).content.decode()
    assert inputs(bernd) == inputs(again) == inputs(secretary)
    ids = {own(page, "submission") for page in (bernd, again, secretary)}
    assert len(ids) == 3 and all(re.fullmatch(UUID, one) for one in ids)  # a double tap is told apart per form
    assert own(bernd, "csrfmiddlewaretoken") != own(secretary, "csrfmiddlewaretoken")
    shared = inputs(bernd)
    assert not re.search(UUID, shared) and "csrfmiddlewaretoken" not in shared and 'name="version"' not in shared
    # what the page adds per request surrounds them: the version the save claims
    assert own(bernd, "version") == str(running_match.version)


def test_the_next_state_opens_with_its_own_inputs(running_match, scorekeeper_client):
    first = scorekeeper_client.get(url(running_match, "game_new")).content.decode()
    assert 'id="id_p0_tricks"' in inputs(first) and not re.search(r'name="p0_tricks"[^>]*value=', first)
    response = scorekeeper_client.post(url(running_match, "game_new"), game_post(running_match, quiet()["game"]))
    assert saved(response, running_match) and Event.objects.filter(match=running_match).count() == 1
    running_match.refresh_from_db()
    following = scorekeeper_client.get(url(running_match, "game_new")).content.decode()
    assert own(following, "version") == str(running_match.version)
    assert "Spiel 2" in following
    # typed before the save, the form a refused save shows again holds what was typed: not kept
    refused = game_post(running_match, quiet()["game"], p0_tricks="99")
    shown = scorekeeper_client.post(url(running_match, "game_new"), refused).content.decode()
    assert re.search(r'<input[^>]*name="p0_tricks"[^>]*value="99"', shown)
    assert not re.search(r'<input[^>]*name="p0_tricks"[^>]*value="99"',
                         scorekeeper_client.get(url(running_match, "game_new")).content.decode())
