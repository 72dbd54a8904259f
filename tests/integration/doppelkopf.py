"""A Doppelkopf Partie of the club and its Spiel form, as the tests fill it."""

import uuid

from tests.integration.each_game import new_match
from tests.integration.pages import url

PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]


def dk_match(club, secretary, rules="tcg", players=PLAYERS):
    return new_match(club, secretary, "doppelkopf", {"rules": rules}, players, place="Nürtingen")


def dk_post(match, *, type="normal", dealer="Anna", re=("Anna", "Bernd"), re_points=121, **extra):
    """The POST data of the Doppelkopf game form (fields as on the page)."""
    data = {"type": type, "dealer": dealer, "re": list(re), "re_points": re_points,
            "version": match.version, "submission": uuid.uuid4()}
    data.update(extra)
    return data


def save(client, match, **fields):
    match.refresh_from_db()
    return client.post(url(match, "game_new"), dk_post(match, **fields))
