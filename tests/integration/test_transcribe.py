"""Protokoll nachtragen: the check endpoint row by row, the one save, and who may use it."""

import datetime
import json
import random
import uuid

import pytest
from django.urls import reverse

from league.models import Member, Season
from protocol.games.chaotentrumpf.simulation import simulate_match
from protocol.models import Change, Event, Match
from protocol.rules import evaluate
from tests.integration.transcription import PLAYERS, check, post, row, sheet, typed, url

TWINS = [(5, 156, 6), (5, 156, 6), (0, 0, 0), (0, 0, 0)]  # rank As: 312 each for Anna and Bernd (16c)


# -- the check, row by row ------------------------------------------------------------------

def test_a_complete_row_gets_its_shuffler_scores_and_running_totals(secretary_client, club):
    answer = check(secretary_client, club, sheet(row("P", [(3, 56, 2), (4, 40, 1), (3, 30, 0), (0, 0, 0)]), row("")))
    first = answer["rows"][0]
    assert first["state"] == "ok" and first["errors"] == []
    assert (first["number"], first["shuffler"], first["kind"]) == (1, "Bernd", "game")  # Art. 5b: left of Anna
    assert first["scores"] == {"Anna": 71, "Bernd": 40, "Carla": -70, "Dieter": -200}  # Hinweise 6: 56 + 15
    assert first["totals"] == first["scores"]
    assert first["reading"] == "Trumpf Pik"
    assert answer["rows"][1]["state"] == "empty"
    assert answer["next"] == {"players": PLAYERS, "stage": 0, "limit": 1000, "shuffler": "Carla", "number": 2}
    assert answer["status"] == "running" and answer["ready"] is True


def test_an_impossible_number_is_refused_at_its_cell_naming_the_article(secretary_client, club):
    answer = check(secretary_client, club, sheet(row("P", [(3, 1, 2), (4, 40, 1), (3, 30, 0), (0, 0, 0)])))
    errors = answer["rows"][0]["errors"]
    assert answer["rows"][0]["state"] == "error" and not answer["ready"]
    assert [e["cell"] for e in errors] == ["p0.points"]
    assert "Anna: 1 Augen sind mit 12 Karten nicht möglich" in errors[0]["message"]
    assert "Art. 13a" in errors[0]["message"]
    assert answer["problem"].startswith("Spiel 1: Anna: 1 Augen")


def test_a_sum_that_breaks_a_rule_is_an_error_of_the_row(secretary_client, club):
    answer = check(secretary_client, club, sheet(row("P", [(3, 56, 2), (4, 40, 1), (2, 30, 0), (0, 0, 0)])))
    (error,) = answer["rows"][0]["errors"]
    assert error["cell"] is None and "Stiche ergeben zusammen 9" in error["message"] and "Art. 7, 10" in error["message"]


def test_shorthand_that_cannot_be_read_is_named_in_german_at_its_cell(secretary_client, club):
    answer = check(secretary_client, club, sheet(row("Q", [(3, 56, 2), (4, 40, 1), (3, 30, 0), (0, 0, 0)]),
                                                 row("P", [(3, 56, 2), (4, 40, 1), (3, 30, 0), (0, 0, 0)], "2 x H")))
    assert answer["rows"][0]["errors"] == [{"cell": "entry", "player": None, "message": answer["rows"][0]["errors"][0]["message"]}]
    assert "„Q“ ist kein Trumpf" in answer["rows"][0]["errors"][0]["message"]
    # The row after it can't be checked by the engine yet, but its shorthand is read all the same.
    assert answer["rows"][1]["state"] == "error"
    assert answer["rows"][1]["errors"][0]["cell"] == "inversions"


def test_an_incomplete_row_waits_and_holds_up_the_rows_after_it(secretary_client, club):
    answer = check(secretary_client, club, sheet(row("P", [(3, 56, 2), (4, "", 1)]), row("rot", TWINS)))
    assert [r["state"] for r in answer["rows"]] == ["incomplete", "waiting"]
    assert answer["rows"][0]["errors"] == [] and answer["rows"][0]["shuffler"] == "Bernd"
    assert answer["next"] is None and not answer["ready"]
    assert answer["problem"] == "Spiel 1 ist noch nicht vollständig."


def test_the_banner_names_a_row_as_the_grid_numbers_it_a_strafe_being_no_spiel(secretary_client, club):
    answer = check(secretary_client, club, sheet(
        row("P", [(3, 56, 2), (4, 40, 1), (3, 30, 0), (0, 0, 0)]), row("S 3 200 Karte verdeckt getauscht"),
        row("P", [(3, 56, 2), (4, "", 1)])))
    assert answer["rows"][2]["number"] == 2
    assert answer["problem"] == "Spiel 2 ist noch nicht vollständig."  # the third row, numbered 2
    answer = check(secretary_client, club, sheet(
        row("P", [(3, 56, 2), (4, 40, 1), (3, 30, 0), (0, 0, 0)]), row("S 3 2000 zu viel")))
    assert answer["problem"].startswith("Strafe (Zeile 2): ")


def test_the_trumpfwahl_and_inversions_are_read_and_recognised_by_the_engine(secretary_client, club):
    answer = check(secretary_client, club, sheet(row("X8 H8 P7", [(3, 56, 2), (4, 40, 1), (3, 30, 0), (0, 0, 0)],
                                                     "2 n P, C u rot")))
    first = answer["rows"][0]
    assert first["state"] == "ok"
    assert first["reading"] == ("Trumpfwahl X8 H8 P7: Herz; Bernd: Normalinversion → Pik; "
                                "Carla: Ultrainversion → rot; gespielt mit rot")
    assert first["scores"]["Anna"] == 56 * 4  # Art. 16b: after an Ultrainversion Augen x 4


def test_a_bad_inversion_is_the_engines_error_at_the_inversions_cell(secretary_client, club):
    answer = check(secretary_client, club, sheet(row("P", [(3, 56, 2), (4, 40, 1), (3, 30, 0), (0, 0, 0)], "2 n X")))
    (error,) = answer["rows"][0]["errors"]
    assert error["cell"] == "inversions" and "Normalinversion kann Pik nicht zu Kreuz machen" in error["message"]
    assert "Art. 11b" in error["message"]


def test_a_stechen_opens_its_block_and_names_only_its_players(secretary_client, club):
    rows = [row("A", TWINS) for _ in range(4)] + [row("X", [(10, 110, 5), (0, 0, 0), (1, 0, 0)])]
    answer = check(secretary_client, club, sheet(*rows))
    fourth = answer["rows"][3]
    assert fourth["totals"] == {"Anna": 1248, "Bernd": 1248, "Carla": -800, "Dieter": -800}
    assert fourth["opens"] == {"stage": 1, "players": ["Anna", "Bernd"], "limit": 100,
                               "text": "Stechen: Anna, Bernd – Obergrenze 100 (50 je Teilnehmer, Art. 17b)"}
    stechen = answer["rows"][4]
    assert stechen["stage"] == 1 and stechen["players"] == ["Anna", "Bernd"]
    assert stechen["errors"][0]["cell"] == "p2.tricks"
    assert "Carla spielt im Stechen nicht mit (Art. 17b)" in stechen["errors"][0]["message"]
    # Without Carla's numbers it is the Stechen's first Spiel, and Anna wins it.
    rows[4] = row("X", [(10, 110, 5), (0, 0, 0)])
    answer = check(secretary_client, club, sheet(*rows))
    stechen = answer["rows"][4]
    assert stechen["state"] == "ok" and stechen["totals"] == {"Anna": 130, "Bernd": -200}
    assert stechen["decides"] == {"status": "finished", "winner": "Anna", "ended_by": "Stechen entschieden (Art. 17b)"}
    assert answer["status"] == "finished" and answer["winner"] == "Anna" and answer["ready"]


def test_strafe_verwarnung_and_end_rows(secretary_client, club):
    answer = check(secretary_client, club, sheet(
        row("P", [(3, 56, 2), (4, 40, 1), (3, 30, 0), (0, 0, 0)]),
        row("S 3 200 Karte verdeckt getauscht"), row("V Dieter falsch bedient"), row("E")))
    penalty, warning, end = answer["rows"][1:]
    assert penalty["kind"] == "penalty" and penalty["state"] == "ok"
    assert penalty["totals"]["Carla"] == -270 and penalty["scores"] == {"Carla": -200}
    assert penalty["reading"] == "Strafe −200 für Carla: Karte verdeckt getauscht"
    assert warning["reading"] == "Verwarnung für Dieter: falsch bedient"
    assert end["decides"]["winner"] == "Anna" and answer["ended_by"] == "Zeitbegrenzung (Art. 17c)"


def test_a_strafe_out_of_bounds_is_the_engines_error_naming_the_sv(secretary_client, club):
    answer = check(secretary_client, club, sheet(row("S 3 2000 zu viel")))
    (error,) = answer["rows"][0]["errors"]
    assert error["cell"] == "entry" and "100 bis 1000 Punkte Abzug (SV 3)" in error["message"]


@pytest.mark.parametrize("entry, cell", [("S ² 200 Karte verdeckt", "Platznummer"),
                                         ("S 3 ²⁰⁰ Karte verdeckt", "keine Strafpunkte"),
                                         ("S 3 " + "9" * 250 + " Karte verdeckt", "keine Strafpunkte")])
def test_odd_digits_and_endless_numbers_in_the_shorthand_are_named_at_their_cell(secretary_client, club, entry, cell):
    answer = check(secretary_client, club, sheet(row(entry)))
    (error,) = answer["rows"][0]["errors"]
    assert error["cell"] == "entry" and cell in error["message"]
    response = post(secretary_client, "transcribe_save", club, sheet(row(entry), row("E")))
    assert response.status_code in (200, 400) and Match.objects.count() == 0


def test_an_annulled_spiel_counts_for_nothing_but_for_the_shuffler(secretary_client, club):
    answer = check(secretary_client, club, sheet(row("A P Karten falsch gegeben"),
                                                 row("P", [(3, 56, 2), (4, 40, 1), (3, 30, 0), (0, 0, 0)])))
    annulled, game = answer["rows"]
    assert annulled["annulled"] is True and annulled["shuffler"] == "Bernd"
    assert game["number"] == 2 and game["shuffler"] == "Carla" and game["totals"]["Anna"] == 71


def test_the_header_is_checked_by_the_form_and_the_engine(secretary_client, club):
    answer = check(secretary_client, club, sheet(row("P"), limit="900", scorekeeper="9"))
    errors = answer["header"]["errors"]
    assert "Platz 9 gibt es nicht" in errors["scorekeeper"][0]
    assert answer["rows"][0]["state"] == "waiting" and not answer["ready"]
    answer = check(secretary_client, club, sheet(row("P"), limit="900"))
    assert "Obergrenze muss mindestens 1000 Punkte betragen (Art. 17a" in answer["header"]["errors"]["limit"][0]
    answer = check(secretary_client, club, sheet(players="Anna"))
    assert "Es spielen 2 bis 10 Spieler, nicht 1." in answer["header"]["errors"]["players"]


def test_names_are_written_as_the_club_writes_them_and_new_ones_are_named(secretary_client, club, member_user):
    answer = check(secretary_client, club, sheet(players="anna, Bernd, Carla, Dieter", scorekeeper="b"))
    assert answer["header"]["players"] == PLAYERS
    assert answer["header"]["scorekeeper"] == "Bernd"
    assert answer["header"]["new_members"] == ["Bernd", "Carla", "Dieter"]


def test_the_date_must_lie_in_the_chosen_season(secretary_client, club):
    season = Season.objects.create(club=club, name="2025", start=datetime.date(2025, 1, 1), end=datetime.date(2025, 12, 31))
    answer = check(secretary_client, club, sheet(season=str(season.pk)))
    assert answer["header"]["errors"]["date"]
    current = Season.objects.create(club=club, name="2026", start=datetime.date(2026, 1, 1), end=datetime.date(2026, 12, 31))
    answer = check(secretary_client, club, sheet())
    assert answer["header"]["season"] == current.name and "date" not in answer["header"]["errors"]


def test_a_simulated_partie_typed_in_shorthand_is_what_the_engine_computes(secretary_client, club):
    doc = simulate_match(PLAYERS, random.Random(3), penalty_rate=0.05, warning_rate=0.05, annul_rate=0.05,
                         scorekeeper="Carla")
    expected = evaluate(doc).match
    for cards in (False, True):
        answer = check(secretary_client, club, typed(doc, cards=cards))
        assert answer["ready"] and all(r["state"] == "ok" for r in answer["rows"])
        assert (answer["status"], answer["winner"], answer["totals"]) == (expected.status, expected.winner, expected.totals)
        shufflers = [r["shuffler"] for r in answer["rows"] if r["kind"] == "game"]
        assert shufflers == [g.shuffler for g in expected.games]


# -- the save ---------------------------------------------------------------------------------

def finished_sheet(token=""):
    return sheet(row("A", TWINS), row("S 3 200 Karte verdeckt getauscht"), *[row("A", TWINS) for _ in range(3)],
                 row("X", [(10, 110, 5), (0, 0, 0)]), token=token)


def test_the_save_stores_exactly_one_match_with_its_events_and_the_history_note(secretary_client, club, secretary):
    response = post(secretary_client, "transcribe_save", club, finished_sheet(token=str(uuid.uuid4())))
    assert response.status_code == 200, response.content
    match = Match.objects.get()
    assert response.json() == {"url": match.get_absolute_url()}
    assert match.status == "finished" and match.winner.name == "Anna"
    assert [e.kind for e in match.events.all()] == ["game", "penalty", "game", "game", "game", "game"]
    assert match.events.get(position=1).data == {"player": "Carla", "points": 200, "reason": "Karte verdeckt getauscht",
                                                   "decided_by": ["Anna", "Bernd", "Dieter"]}
    (change,) = match.changes.all()
    today = datetime.date.today()
    assert change.reason == f"Nachgetragen vom Papierprotokoll von Sabine Schreiber am {today:%d.%m.%Y}."
    assert change.user == secretary and change.action == Change.Action.TRANSCRIBE_MATCH
    history = secretary_client.get(reverse("protocol:history", kwargs={"slug": club.slug, "pk": match.pk}))
    assert "Nachgetragen vom Papierprotokoll von Sabine Schreiber" in history.content.decode()
    # The members the club did not know yet were created, as an import does.
    assert set(Member.objects.filter(club=club).values_list("name", flat=True)) >= set(PLAYERS)
    page = secretary_client.get(match.get_absolute_url())
    assert "Partie" in page.content.decode() and page.status_code == 200


def test_the_same_transcription_saved_twice_is_saved_once(secretary_client, club):
    payload = finished_sheet(token=str(uuid.uuid4()))
    first = post(secretary_client, "transcribe_save", club, payload)
    second = post(secretary_client, "transcribe_save", club, payload)
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    assert Match.objects.count() == 1 and Event.objects.filter(submission=payload["token"]).count() == 1


def test_an_invalid_sheet_saves_nothing(secretary_client, club):
    members = Member.objects.count()
    payload = finished_sheet()
    payload["rows"][3] = row("A", [(5, 156, 6), (5, 157, 6), (0, 0, 0), (0, 0, 0)])
    response = post(secretary_client, "transcribe_save", club, payload)
    assert response.status_code == 400
    assert response.json()["error"].startswith("Spiel 3: ")  # the fourth row, after a Strafe
    assert Match.objects.count() == 0 and Change.objects.count() == 0 and Member.objects.count() == members


def test_an_unfinished_sheet_is_not_saved_while_a_row_is_incomplete(secretary_client, club):
    payload = sheet(row("P", [(3, 56, 2), (4, 40, 1), (3, 30, 0), (0, 0, "")]))
    response = post(secretary_client, "transcribe_save", club, payload)
    assert response.status_code == 400 and response.json()["error"] == "Spiel 1 ist noch nicht vollständig."
    assert Match.objects.count() == 0


@pytest.mark.parametrize("body, message", [
    (b"kein json", "nicht als lesbares JSON"),
    (b"\xff\xfe", "nicht als lesbares JSON"),
    (b"[]", "braucht einen Kopf"),
    (json.dumps({"header": {}, "rows": "viele"}), "braucht einen Kopf"),
    (json.dumps({"header": {"players": 4}, "rows": []}), "Das Kopffeld „players“ muss ein kurzer Text sein."),
    (json.dumps({"header": {}, "rows": [{"entry": 3}]}), "Zeile 1 der Abschrift ist unlesbar"),
    (json.dumps({"header": {}, "rows": [{"lines": [[1, 2, 3]]}]}), "Zeile 1 der Abschrift ist unlesbar"),
    (json.dumps({"header": {}, "rows": [{}] * 401}), "höchstens 400 Zeilen"),
    (b"", "nicht als lesbares JSON"),
    (b'{"header": {}, "rows": [], "x": ' + b"[" * 800 + b"]" * 800 + b"}", "nicht als lesbares JSON"),
    (b'{"header": {}, "rows": [], "x": ' + b"7" * 5000 + b"}", "nicht als lesbares JSON"),
])
@pytest.mark.parametrize("name", ["transcribe_check", "transcribe_save"])
def test_a_request_that_is_no_sheet_is_a_400_with_a_german_message(secretary_client, club, body, message, name):
    response = post(secretary_client, name, club, body)
    assert response.status_code == 400
    assert message in response.json()["error"]
    assert Match.objects.count() == 0


# -- who may ----------------------------------------------------------------------------------

def test_the_secretary_gets_the_page_with_the_grid_and_the_shorthand(secretary_client, club):
    response = secretary_client.get(url("transcribe", club))
    assert response.status_code == 200
    html = response.content.decode()
    for part in ('id="tx-grid"', 'data-check-url="/verein/ctv/partien/nachtragen/pruefen/"',
                 'data-storage-key="trumpfbuch.nachtragen.ctv.', 'id="tx-texts"', "js/transcribe.js", "<kbd>Kö</kbd>"):
        assert part in html
    assert "<script>" not in html.replace('<script id="tx-texts" type="application/json">', "")  # CSP: no inline script
    club_page = secretary_client.get(club.get_absolute_url()).content.decode()
    assert url("transcribe", club) in club_page


@pytest.mark.parametrize("persona", ["member_client", "scorekeeper_client", "outsider_client"])
def test_nobody_but_the_secretary_may_transcribe(request, club, persona):
    client = request.getfixturevalue(persona)
    assert client.get(url("transcribe", club)).status_code == 403
    for name in ("transcribe_check", "transcribe_save"):
        assert post(client, name, club, finished_sheet()).status_code == 403
    assert Match.objects.count() == 0


def test_a_member_does_not_see_the_link(member_client, club):
    assert url("transcribe", club) not in member_client.get(club.get_absolute_url()).content.decode()


def test_anonymous_is_sent_to_the_login(client, club):
    for response in (client.get(url("transcribe", club)), post(client, "transcribe_check", club, finished_sheet()),
                     post(client, "transcribe_save", club, finished_sheet())):
        assert response.status_code == 302 and "/konto/login/" in response["Location"]
    assert Match.objects.count() == 0


def test_the_check_and_save_take_no_get(secretary_client, club):
    assert secretary_client.get(url("transcribe_check", club)).status_code == 405
    assert secretary_client.get(url("transcribe_save", club)).status_code == 405


def test_what_holds_up_a_sheet_with_a_bad_header_is_named(secretary_client, club):
    answer = check(secretary_client, club, sheet(row("P"), players=""))
    assert answer["problem"].startswith("Im Kopf des Protokolls fehlt noch: Spieler")
    assert answer["rows"][0]["state"] == "waiting"


def test_a_limit_on_the_number_of_games_ends_the_partie_by_itself(secretary_client, club):
    answer = check(secretary_client, club, sheet(row("P", [(3, 56, 2), (4, 40, 1), (3, 30, 0), (0, 0, 0)]),
                                                 row("r", [(3, 30, 2), (4, 40, 1), (3, 30, 0), (0, 0, 0)]),
                                                 max_games="2"))
    assert answer["rows"][1]["decides"] == {"status": "finished", "winner": "Anna",
                                            "ended_by": "Spielanzahl erreicht (Art. 17c)"}
    assert answer["next"] is None and answer["ready"]


def test_the_secretary_of_another_club_may_not(club, make_user, client):
    from league.models import Club

    other = Club.objects.create(name="Skatfreunde", slug="skat")
    other.secretaries.add(make_user("xaver"))
    client.force_login(other.secretaries.get())
    assert client.get(url("transcribe", club)).status_code == 403
    assert post(client, "transcribe_save", club, finished_sheet()).status_code == 403


def test_an_untouched_head_names_what_is_missing_instead_of_an_error(secretary_client, club):
    answer = check(secretary_client, club, {"token": "", "header": {}, "rows": [row("")]})
    assert answer["problem"].startswith("Im Kopf des Protokolls fehlt noch: Datum")
    assert "zwingend erforderlich" not in answer["problem"]
