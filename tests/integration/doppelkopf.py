"""A Doppelkopf Partie of the club and its Spiel form, as the tests fill it."""

import datetime
import uuid

from league.models import Member
from protocol import matches
from tests.integration.pages import url

PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]


def dk_match(club, secretary, rules="tcg", players=PLAYERS):
    members = {m.name: m for m in club.members.all()}
    for name in players:
        if name not in members:
            members[name] = Member.objects.create(club=club, name=name)
    return matches.create_match(club=club, date=datetime.date(2026, 11, 20), place="Nürtingen",
                                 members=[members[n] for n in players], scorekeeper=members["Bernd"],
                                 settings={"rules": rules}, ruleset="doppelkopf", user=secretary)


def dk_post(match, *, type="normal", dealer="Anna", re=("Anna", "Bernd"), re_points=121, **extra):
    """The POST data of the Doppelkopf game form (fields as on the page)."""
    data = {"type": type, "dealer": dealer, "re": list(re), "re_points": re_points,
            "version": match.version, "submission": uuid.uuid4()}
    data.update(extra)
    return data


def save(client, match, **fields):
    match.refresh_from_db()
    return client.post(url(match, "game_new"), dk_post(match, **fields))
