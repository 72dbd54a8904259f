"""The English UI is complete: the engine's words (messages, end reasons, trumps, plurals) and the
dates on the charts come in the reader's language; the German UI keeps the engine's German.

The engine marks its German texts with ``N_`` (protocol/rules/words.py); the site translates them
with gettext through the English catalogue (locale/en).
"""

import datetime
import html
import re
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

from league.models import Member
from protocol import matches, recording
from protocol.rules.words import N_, Text
from tests.conftest import saved
from tests.unit.builders import game, sweep, twins

pytestmark = pytest.mark.django_db

TABLE = ("Anna", "Bernd", "Carla", "Dieter")


@pytest.fixture
def table(club, member_user, scorekeeper, secretary):
    members = {m.name: m for m in club.members.all()}
    for name in ("Carla", "Dieter"):
        members[name] = Member.objects.create(club=club, name=name)
    return [members[n] for n in TABLE]


def match_with(club, table, secretary, events, day=20):
    return matches.create_match(club=club, date=datetime.date(2026, 11, day), members=table, scorekeeper=table[1],
                                settings={}, events=events, user=secretary)


def page(client, url, language, method="get", **data):
    response = getattr(client, method)(url, data, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code in (200, 302), response.status_code
    return html.unescape(response.content.decode())


def test_end_reasons_read_in_the_readers_language(club, table, secretary, scorekeeper_client):
    by_limit = match_with(club, table, secretary, [sweep()])
    by_tiebreak = match_with(club, table, secretary,
                             [twins()] * 4 + [game({"Anna": (10, 110, 5), "Bernd": (0, 0, 0)}, trump=("suit", "Kreuz"))])
    english = page(scorekeeper_client, by_limit.get_absolute_url(), "en")
    assert "upper limit exceeded (Art. 17a)" in english and "Obergrenze" not in english
    assert "tie-break decided (Art. 17b)" in page(scorekeeper_client, by_tiebreak.get_absolute_url(), "en")
    assert "Stechen entschieden (Art. 17b)" in page(scorekeeper_client, by_tiebreak.get_absolute_url(), "de")
    # How the score came about, and the trump, in English too
    details = page(scorekeeper_client, by_limit.get_absolute_url(), "en")
    assert "312 card points × 4 trump scoring (rank Ace, most trumps, Art. 16b) = 1248" in details
    assert "no trick: " in details and "kein Stich" not in details


def test_a_refused_spiel_explains_itself_in_english_with_the_right_plural(club, table, secretary,
                                                                            scorekeeper_client):
    match = match_with(club, table, secretary, [])
    url = reverse("protocol:game_new", kwargs={"slug": club.slug, "pk": match.pk})
    form = {"trump_mode": "direct", "trump": "colour:rot", "version": match.version}
    lines = {"Anna": (1, 10, 9), "Bernd": (3, 30, 1), "Carla": (3, 30, 1), "Dieter": (0, 5, 0)}
    for seat, name in enumerate(TABLE):
        for field, value in zip(("tricks", "points", "trumps"), lines[name], strict=True):
            form[f"p{seat}_{field}"] = value
    english = page(scorekeeper_client, url, "en", "post", **form)
    assert "Anna has 1 trick with 4 cards, so at most 4 trumps, not 9 (Art. 15a, 16b)." in english
    assert "Dieter has no trick and cannot have card points (Art. 13a)." in english
    german = page(scorekeeper_client, url, "de", "post", **form)
    assert "Anna hat 1 Stich mit 4 Karten, also höchstens 4 Trümpfe, nicht 9 (Art. 15a, 16b)." in german
    # the trump buttons: levels and values in the reader's language
    blank = page(scorekeeper_client, url, "en")
    assert re.search(r'data-trump="rank:A">\s*Ace\s*<', blank)
    assert re.search(r'data-trump="suit:Pik">\s*Spades\s*<', blank)
    assert "Rank" in blank and ">Wert<" not in blank


def test_chart_axes_write_dates_in_the_readers_language(club, table, secretary, scorekeeper_client):
    for day in (6, 20):
        match_with(club, table, secretary, [sweep()], day=day)
    url = reverse("member_page", kwargs={"slug": club.slug, "member_pk": table[0].pk}) + "?saison=alle"
    ticks = {language: re.findall(r"<text[^>]*>([^<]*)</text>", page(scorekeeper_client, url, language))
             for language in ("en", "de")}
    english = [t for t in ticks["en"] if "Nov" in t]
    german = [t for t in ticks["de"] if "Nov" in t]
    assert english and all(re.fullmatch(r"Nov \d{1,2}", t) for t in english)
    assert german and all(re.fullmatch(r"\d{1,2}\. Nov", t) for t in german)


def test_the_engine_stays_german_as_data_and_makemessages_finds_its_words():
    text = Text(N_("%(player)s kann höchstens %(hand)s machen (Art. 7, 10)."), player="Anna",
                hand=Text(N_("%(n)s Stiche"), n=10))
    assert text == "Anna kann höchstens 10 Stiche machen (Art. 7, 10)."  # compared, stored, exported: German
    assert f"{text}" == "Anna kann höchstens 10 Stiche machen (Art. 7, 10)."
    from django.utils import translation
    with translation.override("en"):
        assert str(text) == "Anna can take at most 10 tricks (Art. 7, 10)."
    # makemessages passes N_ to xgettext as a keyword (protocol/management/commands/makemessages.py)
    from protocol.management.commands.makemessages import Command
    assert "--keyword=N_" in Command.xgettext_options
    engine = Path(__file__).resolve().parents[2] / "protocol" / "games" / "chaotentrumpf" / "rules" / "partie.py"
    found = subprocess.run(["xgettext", "--language=Python", "--from-code=UTF-8", *Command.xgettext_options,
                            "--output=-", str(engine)], capture_output=True, text=True, check=True).stdout
    assert 'msgid "Stechen entschieden (Art. 17b)"' in found


def test_a_doppelkopf_error_and_explanation_read_in_english(club, secretary, member_user, scorekeeper,
                                                             scorekeeper_client):
    from tests.integration.doppelkopf import dk_match, dk_post
    from tests.integration.pages import url
    match = dk_match(club, secretary)
    refused = page(scorekeeper_client, url(match, "game_new"), "en", "post", **dk_post(match, re_points=5))
    assert ("5 card points are impossible with 40 cards: every trick has at least 8 card points (four jacks), "
            "a party has 0 or at least 8 (TCG rules, general: 40 cards).") in refused
    assert "unmöglich" not in refused
    preview = page(scorekeeper_client, url(match, "game_preview"), "en", "post", **dk_post(match, re_points=151))
    assert "Re wins (Re 151, Kontra 89 card points); won (no 12) 1" in preview
    assert "gewinnt" not in preview and " je " not in preview
    german = page(scorekeeper_client, url(match, "game_preview"), "de", "post", **dk_post(match, re_points=151))
    assert "Re gewinnt (Re 151, Kontra 89 Augen); gewonnen (keine 12) 1" in german


def test_a_tarot_error_and_explanation_read_in_english_with_the_right_plural(club, secretary, member_user,
                                                                             scorekeeper, scorekeeper_client):
    from tests.integration.pages import url
    from tests.integration.tarot import tarot_match, tarot_post
    match = tarot_match(club, secretary)
    refused = page(scorekeeper_client, url(match, "game_new"), "en", "post",
                   **tarot_post(match, oudlers="3", points="10", petit_au_bout=""))
    assert "3 bouts alone are worth 13.5 points; with them the attack cannot have 10 points" in refused
    assert "(each bout counts 4.5; the FFT's Règlement officiel)" in refused and "jeder Bout" not in refused
    preview = page(scorekeeper_client, url(match, "game_preview"), "en", "post", **tarot_post(match))
    assert "Garde, 2 bouts, 49 points: 25 + 8 + 10 (Petit au bout) = 43, x 2 = 86, + 20 poignée = 106 per defender" \
        in preview
    one = page(scorekeeper_client, url(match, "game_preview"), "en", "post",
               **tarot_post(match, oudlers="1", points="51", poignees={}))
    assert "Garde, 1 bout, 51 points" in one
    german = page(scorekeeper_client, url(match, "game_preview"), "de", "post", **tarot_post(match))
    assert "Garde, 2 Bouts, 49 Punkte: 25 + 8 + 10 (Petit au bout) = 43, x 2 = 86, + 20 Poignée = 106 je Verteidiger" \
        in german


def test_a_refused_penalty_and_a_broken_protocol_explain_themselves_in_english(club, secretary, member_user,
                                                                                scorekeeper, scorekeeper_client):
    import uuid

    from protocol.rules import match as engine_match
    from tests.integration.pages import url
    from tests.integration.tarot import tarot_match
    match = tarot_match(club, secretary)
    post = {"kind": "penalty", "player": "Carla", "points": 150, "reason": "zweite Verwarnung",
            "decided_by": ["Carla"], "version": match.version, "submission": uuid.uuid4()}
    english = page(scorekeeper_client, url(match, "sanction_new"), "en", "post", **post)
    assert ("A penalty deducts 100 to 1000 points in steps of 100 (FFT rules: arbitration: penalty points of "
            "100 each), not 150.") in english
    assert "Abzug" not in english
    german = page(scorekeeper_client, url(match, "sanction_new"), "de", "post", **post | {"submission": uuid.uuid4()})
    assert ("Eine Strafe beträgt 100 bis 1000 Punkte Abzug in Schritten von 100 (FFT-Regeln: "
            "Schiedsrichtergesetz: Strafpunkte zu je 100), nicht 150.") in german
    assert "Carla is accused and does not take part in deciding about themselves" in english
    # the envelope's refusals: German as data (the JSON), English where the site shows them
    from django.utils import translation

    from protocol.games.chaotentrumpf.rules import RULESET as chaotentrumpf
    evaluation = chaotentrumpf.evaluate({"format": "protocol/1", "ruleset": "chaotentrumpf", "date": "2026-11-20",
                                         "players": ["Anna"], "scorekeeper": "Anna", "events": [], "colour": 1})
    messages = {e.field: e.message for e in evaluation.errors}
    assert messages["colour"] == "Unbekanntes Feld 'colour' im Protokoll."
    assert evaluation.as_json()["errors"][0]["message"].startswith("Unbekanntes Feld")
    with translation.override("en"):
        assert str(messages["colour"]) == "Unknown field 'colour' in the protocol."
        assert str(messages["players"]).endswith("players play, not 1.")
        assert str(engine_match.PenaltyRules(1, 50).message(0)) == "A penalty deducts 1 to 50 points, not 0."


# -- free text, history sentences and Tarot's numbers --------------------------------------------

def test_the_free_text_refusals_read_in_english_and_stay_german_as_data(scorekeeper_client, running_match):
    import uuid

    from django.utils import translation

    from protocol.rules import text
    url = reverse("protocol:sanction_new", kwargs={"slug": running_match.club.slug, "pk": running_match.pk})
    post = {"kind": "warning", "player": "Anna", "reason": "laut\x01", "version": running_match.version}
    english = page(scorekeeper_client, url, "en", "post", **post | {"submission": uuid.uuid4()})
    assert "“Reason” contains a control character (U+0001); please remove it." in english
    assert "Steuerzeichen" not in english
    german = page(scorekeeper_client, url, "de", "post", **post | {"submission": uuid.uuid4()})
    assert "„Grund“ enthält ein Steuerzeichen (U+0001); bitte entfernen." in german
    problems = {
        text.name_problem("x" * 81): ("„Name“ hat höchstens 80 Zeichen, nicht 81.",
                                      "“Name” has at most 80 characters, not 81."),
        text.reason_problem("\u200b"): ("„Grund“ besteht nur aus unsichtbaren Zeichen; bitte einen lesbaren Text "
                                        "eingeben.", "“Reason” consists of invisible characters only; please enter a "
                                        "readable text."),
        text.name_problem(""): ("„Name“ darf nicht leer sein.", "“Name” must not be empty."),
        text.name_problem("a\x00"): ("„Name“ enthält ein Nullzeichen (U+0000); bitte entfernen.",
                                     "“Name” contains a null character (U+0000); please remove it."),
        text.name_problem("a\ud800"): ("„Name“ enthält ein ungültiges Zeichen (ein einzelnes Surrogat, U+D800); "
                                       "bitte entfernen.", "“Name” contains an invalid character (a lone surrogate, "
                                       "U+D800); please remove it."),
        text.name_problem("Gast\u202e"): ("„Name“ enthält ein Steuerzeichen der Schreibrichtung (U+202E), das den "
                                          "Text danach umgekehrt anzeigen kann; bitte entfernen.",
                                          "“Name” contains a text direction control (U+202E) that can show the text "
                                          "after it reversed; please remove it."),
        text.name_problem("Jose\u0301"): ("„Name“ ist nicht in der Unicode-Normalform NFC.",
                                          "“Name” is not in Unicode normal form NFC."),
        text.lookalike_message("Anna", "Anna"): ("„Anna“ steht zweimal da; jeder Name darf nur einmal vorkommen.",
                                                 "“Anna” is there twice; each name may appear only once."),
    }
    for problem, (german_text, english_text) in problems.items():
        assert problem == german_text  # stored, exported, compared: German
        with translation.override("en"):
            assert str(problem) == english_text


def test_an_import_with_lookalike_names_is_refused_in_english(secretary_client, club):
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile
    raw = json.dumps({"format": "protocol/1", "ruleset": "chaotentrumpf", "date": "2026-11-20",
                      "players": ["Anna", "Bernd", "Carla", "anna"], "scorekeeper": "Bernd", "events": []}).encode()
    response = secretary_client.post(reverse("protocol:import", kwargs={"slug": club.slug}),
                                     {"file": SimpleUploadedFile("p.json", raw)}, HTTP_ACCEPT_LANGUAGE="en")
    english = html.unescape(response.content.decode())
    assert "“anna” can hardly be told from “Anna”" in english and "kaum zu unterscheiden" not in english


@pytest.mark.parametrize("ruleset, first, correction", [
    ("doppelkopf", "Game 1 entered: game type normal game, dealer Anna, Re Anna, Bernd, Re card points 121",
     "Game 2 corrected: Re card points 121 → 151"),
    ("tarot", "Game 1 entered: dealer Anna, taker Bernd, contract Garde, bouts 2, points 49",
     "Game 2 corrected: points 49 → 54"),
])
def test_the_history_of_doppelkopf_and_tarot_reads_in_english(ruleset, first, correction, club, secretary,
                                                                secretary_client):
    from tests.integration.each_game import CORRECTED, GAMES, new_match
    g = GAMES[ruleset]
    match = new_match(club, secretary, ruleset, g["settings"])
    for kind, body in (("game", g["game"]()),
                       ("penalty", {"player": "Carla", "points": g["penalty"], "reason": "Karten gezeigt",
                                    "decided_by": ["Anna", "Bernd"]}),
                       ("game", g["game"]())):
        match.refresh_from_db()
        recording.add_event(match, kind, body, user=secretary)
    match.refresh_from_db()
    recording.correct_event(match, 2, g["game"](CORRECTED[ruleset]), user=secretary, reason="verzählt")
    url = reverse("protocol:history", kwargs={"slug": club.slug, "pk": match.pk})
    english = page(secretary_client, url, "en")
    assert "Match created: Anna, Bernd, Carla, Dieter" in english
    assert first in english and correction in english
    assert (f"Penalty after game 1 entered: Carla {g['penalty']} points (decided by Anna, Bernd) — Reason: "
            "Karten gezeigt") in english
    for german in ("eingetragen", "Spiel 1", "Geber", "Punkte", "Augen", "Grund", "entschieden"):
        assert german not in english, german
    assert "Spiel 1 eingetragen" in page(secretary_client, url, "de")


def test_tarots_half_points_follow_the_readers_language(club, secretary, member_user, scorekeeper,
                                                        scorekeeper_client):
    from tests.integration.pages import url
    from tests.integration.tarot import save, tarot_match, tarot_post
    match = tarot_match(club, secretary)
    half = tarot_post(match, contract="prise", points="40.5", poignees={})
    english = page(scorekeeper_client, url(match, "game_preview"), "en", "post", **half)
    assert "Prise, 2 bouts, 40.5 points" in english and "40,5" not in english
    german = page(scorekeeper_client, url(match, "game_preview"), "de", "post", **half)
    assert "Prise, 2 Bouts, 40,5 Punkte" in german
    assert saved(save(scorekeeper_client, match, contract="prise", points="40,5", poignees={}), match)
    sheet = page(scorekeeper_client, url(match), "en")
    assert "40.5" in sheet and "40,5" not in sheet
    assert "40,5" in page(scorekeeper_client, url(match), "de")
    match.refresh_from_db()
    refused = page(scorekeeper_client, url(match, "game_new"), "en", "post",
                   **tarot_post(match, oudlers="3", points="10", petit_au_bout=""))
    assert "3 bouts alone are worth 13.5 points" in refused


def test_the_sheets_rows_name_the_trump_and_the_tiebreak_in_english(club, table, secretary, scorekeeper_client):
    stechen = match_with(club, table, secretary, [twins()] * 4)  # Anna and Bernd tie above the Obergrenze
    english = page(scorekeeper_client, stechen.get_absolute_url(), "en")
    assert "Bernd · rank Ace" in english or "· rank Ace" in english
    assert "Tie-break: Anna, Bernd – upper limit" in english
    assert "Wert As" not in english and "je Teilnehmer" not in english
    german = page(scorekeeper_client, stechen.get_absolute_url(), "de")
    assert "· Wert As" in german and "Stechen: Anna, Bernd – Obergrenze" in german


def test_a_doppelkopf_row_of_the_sheet_names_the_game_type_in_english(club, secretary, member_user, scorekeeper,
                                                                       scorekeeper_client):
    from tests.integration.doppelkopf import dk_match, save
    match = dk_match(club, secretary)
    assert saved(save(scorekeeper_client, match, re_points=151), match)
    assert "normal game · Re Anna, Bernd · Re wins" in page(scorekeeper_client, match.get_absolute_url(), "en")
    assert "Normalspiel · Re Anna, Bernd · Re gewinnt" in page(scorekeeper_client, match.get_absolute_url(), "de")


def test_the_ranking_sentence_and_a_members_trump_rate_read_in_english(club, table, secretary, member_client):
    """The club page and the table say how they rank in the reader's words (matches, games: as
    their columns say), and a member's trump rate fits any member ("their games")."""
    from league.models import Season
    season = Season.objects.create(club=club, name="2026", start=datetime.date(2026, 1, 1),
                                   end=datetime.date(2026, 12, 31))
    matches.create_match(club=club, date=datetime.date(2026, 11, 20), members=table, scorekeeper=table[1],
                         settings={}, events=[sweep()], user=secretary, season=season)
    for url in (club.get_absolute_url(), reverse("standings", kwargs={"slug": club.slug})):
        english = page(member_client, url, "en")
        assert "Ranked by matches won, then by points per game × 100." in english
        assert "Partien won" not in english and "per Spiel" not in english
        assert "Sortiert nach gewonnenen Partien, dann nach Punkten je Spiel × 100." in page(member_client, url, "de")
    anna = reverse("member_page", kwargs={"slug": club.slug, "member_pk": table[0].pk})
    english = page(member_client, anna, "en")
    assert "in 100\u00a0% of their games" in english and "of his games" not in english
    assert "in 100\u00a0% der eigenen Spiele" in page(member_client, anna, "de")


def test_the_transcription_check_reads_in_english(secretary_client, club):
    """The transcription page's line under the grid and each row's reading and errors come in
    the reader's language; the German page keeps its German."""
    import json

    def check(sheet, language):
        response = secretary_client.post(reverse("protocol:transcribe_check", kwargs={"slug": club.slug}),
                                          json.dumps(sheet), content_type="application/json",
                                          HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200
        return response.json()

    header = {"date": "2026-11-20", "place": "", "season": "", "limit": "1000", "players": "", "scorekeeper": "",
              "cards_per_deal": "5", "decks": "", "no_trump_points": "-100", "no_trick_points": "-200",
              "scorekeeper_skips_shuffling": "", "max_games": ""}
    empty = {"entry": "", "inversions": "", "lines": []}
    assert check({"token": "", "header": header, "rows": [empty]}, "en")["problem"] == \
        "The head of the protocol still lacks: Players, clockwise."
    assert check({"token": "", "header": header, "rows": [empty]}, "de")["problem"] == \
        "Im Kopf des Protokolls fehlt noch: Spieler im Uhrzeigersinn."
    wrong = {"entry": "P", "inversions": "", "lines": [["3", "56", "2"], ["4", "40", "1"], ["3", "30", "0"],
                                                        ["0", "1", "0"]]}
    answer = check({"token": "", "header": header | {"players": ", ".join(TABLE)}, "rows": [wrong]}, "en")
    assert answer["problem"] == "Game 1: Dieter has no trick and cannot have card points (Art. 13a)."
    assert answer["rows"][0]["errors"][0]["message"] == "Dieter has no trick and cannot have card points (Art. 13a)."
    assert answer["rows"][0]["reading"] == "Trump Spades"
    german = check({"token": "", "header": header | {"players": ", ".join(TABLE)}, "rows": [wrong]}, "de")
    assert german["problem"] == "Spiel 1: Dieter hat keinen Stich und kann keine Augen haben (Art. 13a)."
    assert german["rows"][0]["reading"] == "Trumpf Pik"
    assert check({"token": "", "header": header | {"players": ", ".join(TABLE)}, "rows": []}, "en")["problem"] == \
        "No row has been entered yet."
