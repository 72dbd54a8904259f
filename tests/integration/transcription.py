"""The transcription grid's sheet as the page sends it, and its check endpoint."""

import json

from django.urls import reverse

from protocol.games.chaotentrumpf.notation import write_entry, write_inversions

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


def post(client, name, club, payload, **headers):
    body = payload if isinstance(payload, (bytes, str)) else json.dumps(payload)
    return client.post(url(name, club), body, content_type="application/json", **headers)


def check(client, club, payload):
    response = post(client, "transcribe_check", club, payload)
    assert response.status_code == 200, response.content
    return response.json()


def points_row(entry, scores, inversions=""):
    """A row typed as points only: one cell per seat (empty: he does not play this Spiel)."""
    return {"entry": entry, "inversions": inversions, "lines": [], "scores": [str(v) for v in scores]}


def typed(doc, cards=False):
    """A protocol/1 document as the secretary would type it: a Spiel with ``results`` in full,
    a Spiel with ``scores`` as points only (its trump, if noted, in the entry cell)."""
    players = doc["players"]
    rows = []
    for event in doc["events"]:
        (kind, body), = event.items()
        entry = write_entry(kind, body, players, cards=cards) if kind != "game" or {"trump", "selection"} & set(body) else ""
        inversions = write_inversions(body.get("inversions", []), players) if kind == "game" else ""
        if kind == "game" and "scores" in body:
            rows.append(points_row(entry, [body["scores"].get(p, "") for p in players], inversions))
            continue
        results = body.get("results") or {} if kind == "game" else {}
        lines = [[results[p][f] for f in ("tricks", "points", "trumps")] if p in results else ["", "", ""]
                 for p in players]
        rows.append(row(entry, lines, inversions))
    return {"token": "", "header": header(players=", ".join(players), scorekeeper=doc["scorekeeper"],
                                          **{k: str(v) for k, v in doc["settings"].items()}), "rows": rows}
