"""A Tarot Partie of the club and its deal form, as the tests fill it."""

import datetime
import uuid

from league.models import Member
from protocol import matches
from tests.integration.pages import url

FOUR = ["Anna", "Bernd", "Carla", "Dieter"]


def tarot_match(club, secretary, players=FOUR):
    members = {m.name: m for m in club.members.all()}
    for name in players:
        if name not in members:
            members[name] = Member.objects.create(club=club, name=name)
    return matches.create_match(club=club, date=datetime.date(2026, 11, 20), place="Nürtingen",
                                 members=[members[n] for n in players], scorekeeper=members["Bernd"],
                                 settings={}, ruleset="tarot", user=secretary)


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
