"""The history of a Partie reads as German sentences, with the Spiel numbers of the sheet.

Each game goes through every kind of change (a Spiel, a Strafe, a correction, a removal, a
Verwarnung, a settings change, a Disqualifikation, the end, the annulment); the match's
history page and the club's audit page both say each one in words, never as raw data."""

import html
import re

import pytest
from django.urls import reverse

from protocol import recording
from tests.integration.each_game import CORRECTED, GAMES, new_match


@pytest.mark.parametrize("ruleset", GAMES)
def test_every_kind_of_change_reads_as_a_sentence_with_the_spiel_number_of_the_sheet(
        ruleset, club, secretary, secretary_client):
    g = GAMES[ruleset]
    match = new_match(club, secretary, ruleset, g["settings"])

    def add(kind, body):
        match.refresh_from_db()
        recording.add_event(match, kind, body, user=secretary)

    add("game", g["game"]())
    add("penalty", {"player": "Carla", "points": g["penalty"], "reason": "Karten gezeigt",
                    "decided_by": ["Anna", "Bernd"]})
    add("game", g["game"]())  # entry 3, but Spiel 2: a Strafe is no Spiel
    match.refresh_from_db()
    recording.correct_event(match, 2, {"game": g["game"](CORRECTED[ruleset])}["game"], user=secretary,
                           reason="verzählt")
    match.refresh_from_db()
    recording.remove_event(match, 1, user=secretary, reason="doch keine Strafe")
    add("warning", {"player": "Dieter", "reason": "falsch bedient"})
    if g["settings_change"]:
        match.refresh_from_db()
        recording.update_settings(match, match.settings | g["settings_change"][0], user=secretary, reason="Beschluss")
    add("disqualification", {"player": "Dieter", "reason": "wiederholt", "decided_by": ["Anna", "Bernd"]})
    add("end", {"reason": "time"})

    page = html.unescape(secretary_client.get(reverse("protocol:history", kwargs={"slug": club.slug, "pk": match.pk}))
                         .content.decode())
    expected = [
        "Partie angelegt: Anna, Bernd, Carla, Dieter",
        g["first"],
        f"Strafe nach Spiel 1 eingetragen: Carla {g['penalty']} Punkte (entschieden von Anna, Bernd)"
        " — Grund: Karten gezeigt",
        "Spiel 2 eingetragen",
        g["correction"] + "</strong> — Grund: verzählt",
        f"Strafe nach Spiel 1 gestrichen: Carla {g['penalty']} Punkte",
        "Verwarnung nach Spiel 2 eingetragen: Dieter — Grund: falsch bedient",
        "Disqualifikation nach Spiel 2 eingetragen: Dieter (entschieden von Anna, Bernd) — Grund: wiederholt",
        "Ende der Partie eingetragen: Zeitbegrenzung",
    ] + ([f"Einstellungen geändert: {g['settings_change'][1]}"] if g["settings_change"] else [])
    for sentence in expected:
        assert sentence in page, "\n".join(re.findall(r"<strong>.*?</strong>.*?</p>", page))
    assert "{'" not in page and "results" not in page and "re_points" not in page

    audit = html.unescape(secretary_client.get(reverse("protocol:audit", kwargs={"slug": club.slug})).content.decode())
    assert g["correction"] in audit and "Strafe nach Spiel 1 gestrichen" in audit


@pytest.mark.parametrize("ruleset", GAMES)
def test_an_annulled_spiel_and_an_annulled_partie_read_as_annulments(ruleset, club, secretary, secretary_client):
    g = GAMES[ruleset]
    match = new_match(club, secretary, ruleset, g["settings"])
    recording.add_event(match, "game", g["game"](), user=secretary)
    match.refresh_from_db()
    annulled = g["game"]() | {"annulled": True, "annul_reason": "falsch gegeben"}
    recording.correct_event(match, 0, annulled, user=secretary, reason="annulliert")
    match.refresh_from_db()
    recording.add_event(match, "annul_match", {"reason": "Karten unvollständig"}, user=secretary)
    page = html.unescape(secretary_client.get(reverse("protocol:history", kwargs={"slug": club.slug, "pk": match.pk}))
                         .content.decode())
    assert "Spiel 1 annulliert — Grund: falsch gegeben" in page
    assert "Partie annulliert — Grund: Karten unvollständig" in page

