"""A Spiel's save answers with the match page itself (protocol.views.entries.game_new): shown
at its own address, its way back after a login or a change of language leads to the match
page, not to the form that was sent; and a saved Spiel's form sent once more, refused by the
state it finds, comes back with a new one-time id, so that the next Spiel typed into it is
saved and not taken for the first."""

import re
import uuid

from protocol.models import Event
from tests.conftest import saved
from tests.integration.pages import game_post, url
from tests.unit.builders import quiet


def hidden(page: str, name: str) -> str:
    return re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', page).group(1)


def test_the_saves_answer_is_the_match_page_at_its_own_address(scorekeeper_client, running_match):
    response = scorekeeper_client.post(url(running_match, "game_new"), game_post(running_match, quiet()["game"]))
    assert saved(response, running_match)
    page = response.content.decode()
    address = running_match.get_absolute_url()
    assert f'<link rel="canonical" href="{address}">' in page and f'<base href="{address}">' in page
    assert "Das Spiel ist gespeichert." in page
    assert hidden(page, "next") == address  # the language switch comes back to the match page
    assert "<base" not in scorekeeper_client.get(address).content.decode()  # the page itself needs none


def test_a_saved_spiels_form_sent_again_and_refused_gets_a_new_one_time_id(scorekeeper_client, running_match):
    submission = str(uuid.uuid4())
    first = game_post(running_match, quiet()["game"], submission=submission)
    assert saved(scorekeeper_client.post(url(running_match, "game_new"), first), running_match)
    running_match.refresh_from_db()
    # the same form again, now refused (a Spiel of the new state with a line the rules refuse)
    refused = game_post(running_match, quiet()["game"], submission=submission, p0_points=1)
    page = scorekeeper_client.post(url(running_match, "game_new"), refused).content.decode()
    assert "Art. 13" in page
    fresh = hidden(page, "submission")
    assert fresh != submission and uuid.UUID(fresh)
    # the next Spiel typed into that form is saved, not taken for the first
    again = game_post(running_match, quiet()["game"], submission=fresh)
    assert saved(scorekeeper_client.post(url(running_match, "game_new"), again), running_match)
    assert Event.objects.filter(match=running_match, kind="game").count() == 2


def test_a_refused_form_keeps_its_one_time_id_while_nothing_was_saved_under_it(scorekeeper_client, running_match):
    submission = str(uuid.uuid4())
    refused = game_post(running_match, quiet()["game"], submission=submission, p0_points=1)
    page = scorekeeper_client.post(url(running_match, "game_new"), refused).content.decode()
    assert hidden(page, "submission") == submission  # a double tap on it still saves once
