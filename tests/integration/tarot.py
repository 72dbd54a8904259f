"""A Tarot Partie of the club and its deal form, as the tests fill it."""

import uuid

from tests.integration.each_game import new_match
from tests.integration.pages import url

FOUR = ["Anna", "Bernd", "Carla", "Dieter"]


def tarot_match(club, secretary, players=FOUR):
    return new_match(club, secretary, "tarot", {}, players, place="Nürtingen")


def seat(match, name):
    return [s.name for s in match.seats.all()].index(name)


def tarot_post(match, **fields):
    """The POST data of the deal form: the FFT worked example unless changed (poignées by name)."""
    poignees = fields.pop("poignees", {"Bernd": "simple"})
    data = {"dealer": "Anna", "taker": "Bernd", "contract": "garde", "oudlers": "2", "points": "49",
            "petit_au_bout": "attack", "version": match.version, "submission": uuid.uuid4()}
    data.update({f"p{seat(match, name)}_poignee": size for name, size in poignees.items()})
    data.update(fields)
    return data


def save(client, match, **fields):
    match.refresh_from_db()
    return client.post(url(match, "game_new"), tarot_post(match, **fields))
