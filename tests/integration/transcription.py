"""The transcription grid's sheet as the page sends it, and its check endpoint."""

import json

from django.urls import reverse

PLAYERS = ["Anna", "Bernd", "Carla", "Dieter"]


def header(**changes):
    values = {"date": "2026-11-20", "place": "Nürtingen", "season": "", "limit": "1000",
              "players": ", ".join(PLAYERS), "scorekeeper": "", "cards_per_deal": "5", "decks": "",
              "no_trump_points": "-100", "no_trick_points": "-200", "scorekeeper_skips_shuffling": "", "max_games": ""}
    return values | changes


def row(entry, lines=(), inversions=""):
    return {"entry": entry, "inversions": inversions, "lines": [[str(v) for v in line] for line in lines]}


def sheet(*rows, token="", **changes):
    return {"token": token, "header": header(**changes), "rows": list(rows)}


def url(name, club):
    return reverse(f"protocol:{name}", kwargs={"slug": club.slug})


def post(client, name, club, payload):
    body = payload if isinstance(payload, (bytes, str)) else json.dumps(payload)
    return client.post(url(name, club), body, content_type="application/json")


def check(client, club, payload):
    response = post(client, "transcribe_check", club, payload)
    assert response.status_code == 200, response.content
    return response.json()
