"""One Partie of each game and what its history says of each kind of change."""

import datetime

from league.models import Member
from protocol import matches
from tests.unit.builders import quiet

PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]


def new_match(club, secretary, ruleset, settings, players=PLAYERS, place=""):
    """A Partie of ``ruleset`` on 20.11.2026 kept by Bernd; the players' members made where missing."""
    members = {m.name: m for m in club.members.all()}
    for name in players:
        if name not in members:
            members[name] = Member.objects.create(club=club, name=name)
    return matches.create_match(club=club, date=datetime.date(2026, 11, 20), place=place,
                                 members=[members[n] for n in players], scorekeeper=members["Bernd"],
                                 settings=settings, ruleset=ruleset, user=secretary)


def chaotentrumpf_game(carla_points=20):
    body = quiet()["game"]
    body["results"]["Carla"]["points"] = carla_points
    body["results"]["Dieter"]["points"] = 40 - carla_points
    return body


GAMES = {
    "chaotentrumpf": {
        "settings": {"limit": 1000}, "penalty": 200, "game": chaotentrumpf_game,
        "settings_change": ({"limit": 1500}, "Obergrenze 1000 → 1500"),
        "first": "Spiel 1 eingetragen: Trumpf rot, Anna Stiche 3, Anna Augen 30, Anna Trümpfe 1, Bernd Stiche 3",
        "correction": "Spiel 2 korrigiert: Carla Augen 20 → 25, Dieter Augen 20 → 15",
    },
    "doppelkopf": {
        "settings": {"rules": "tcg"}, "penalty": 5,
        "game": lambda points=121: {"type": "normal", "dealer": "Anna", "re": ["Anna", "Bernd"], "re_points": points},
        "settings_change": ({"rules": "ddv"}, "Regeln TCG-Turnierregeln → DDV-Turnierspielregeln"),
        "first": "Spiel 1 eingetragen: Spielart Normalspiel, Geber Anna, Re Anna, Bernd, Augen Re 121",
        "correction": "Spiel 2 korrigiert: Augen Re 121 → 151",
    },
    "tarot": {
        "settings": {}, "penalty": 100,
        "game": lambda points=49: {"dealer": "Anna", "taker": "Bernd", "contract": "garde", "oudlers": 2,
                                   "points": points},
        "settings_change": None,
        "first": "Spiel 1 eingetragen: Geber Anna, Spielnehmer Bernd, Vertrag Garde, Bouts 2, Punkte 49",
        "correction": "Spiel 2 korrigiert: Punkte 49 → 54",
    },
}
CORRECTED = {"chaotentrumpf": 25, "doppelkopf": 151, "tarot": 54}
