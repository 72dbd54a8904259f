"""Protokoll nachtragen with rows typed as points only: a paper sheet that holds just the
points per player per Spiel. Every check is the engine's (rules/points_only.py); totals,
Stechen and the Mischer run as for full rows, and the save stores the points-only Spiele."""

import uuid

import pytest

from protocol.models import Match
from protocol.rules import evaluate
from tests.integration.transcription import check, points_row, post, row, sheet, typed
from tests.unit.points_only_documents import as_points, partie_with_stechen

STECHEN_SEED = 218  # partie_with_stechen: 40 Spiele, a Strafe, a Stechen of Carla and Dieter
FULL = [(3, 56, 2), (4, 40, 1), (3, 30, 0), (0, 0, 0)]  # Pik: 71, 40, -70, -200 (Hinweise 6)


def standing(answer):
    return {key: answer[key] for key in ("status", "winner", "ended_by", "totals", "stages")}


def test_a_points_row_gets_its_shuffler_scores_and_totals_and_says_what_was_not_checked(secretary_client, club):
    answer = check(secretary_client, club, sheet(points_row("", [71, 40, -70, -200]), points_row("P", [71, 40, "−70", -200])))
    first, second = answer["rows"]
    assert first["state"] == second["state"] == "ok" and first["errors"] == []
    assert (first["number"], first["shuffler"], first["kind"], first["points_only"]) == (1, "Bernd", "game", True)
    assert first["scores"] == {"Anna": 71, "Bernd": 40, "Carla": -70, "Dieter": -200}
    assert second["totals"] == {"Anna": 142, "Bernd": 80, "Carla": -140, "Dieter": -400}
    assert first["reading"] == "nur Punkte: Augen, Stiche und Trümpfe nicht geprüft"
    assert second["reading"] == "nur Punkte: Augen, Stiche und Trümpfe nicht geprüft; Trumpf Pik"
    assert "nur Punkte" in first["explanations"]["Anna"]
    assert answer["ready"] and answer["next"]["shuffler"] == "Dieter"


def test_a_partie_may_mix_full_rows_and_points_rows(secretary_client, club):
    answer = check(secretary_client, club, sheet(row("P", FULL), points_row("P", [71, 40, -70, -200])))
    full, points = answer["rows"]
    assert "points_only" not in full and points["points_only"] is True
    assert points["totals"] == {p: 2 * s for p, s in full["scores"].items()}


def test_a_points_line_art_16_cannot_produce_is_refused_with_the_article(secretary_client, club):
    answer = check(secretary_client, club, sheet(points_row("P", [-200, -200, -200, -200])))
    (error,) = answer["rows"][0]["errors"]
    assert answer["rows"][0]["state"] == "error" and not answer["ready"]
    assert error["cell"] is None and "kein Stich" in error["message"] and "Art. 7, 10, 16a" in error["message"]
    assert answer["problem"].startswith("Spiel 1: Alle haben den Wert")


def test_a_points_value_no_case_of_art_16_gives_is_refused_at_its_cell(secretary_client, club):
    answer = check(secretary_client, club, sheet(points_row("", [9999, 40, -70, -200])))
    (error,) = answer["rows"][0]["errors"]
    assert error["cell"] == "p0.score" and error["player"] == "Anna"
    assert "Anna: 9999 Punkte ergeben sich aus keinem Fall von Art. 16" in error["message"]


def test_points_that_are_no_number_are_the_engines_error_at_their_cell(secretary_client, club):
    answer = check(secretary_client, club, sheet(points_row("", ["71", "vierzig", "-70", "-200"])))
    (error,) = answer["rows"][0]["errors"]
    assert error["cell"] == "p1.score" and error["message"] == "Punkte von Bernd: eine ganze Zahl eintragen (Art. 4a, 16a)."


def test_a_points_row_waits_until_every_player_has_his_points(secretary_client, club):
    answer = check(secretary_client, club, sheet(points_row("", [71, 40, -70, ""]), points_row("", [71, 40, -70, -200])))
    assert [r["state"] for r in answer["rows"]] == ["incomplete", "waiting"]
    assert answer["problem"] == "Spiel 1 ist noch nicht vollständig."


def test_a_noted_trump_the_points_do_not_fit_is_named(secretary_client, club):
    answer = check(secretary_client, club, sheet(points_row("A", [71, 40, -70, -200])))
    (error,) = answer["rows"][0]["errors"]
    assert "Mit Trumpf Wert As passen diese Punkte nicht" in error["message"] and "Art. 16b, 16c" in error["message"]


def test_a_40_spiele_sheet_typed_as_points_gives_the_same_totals_winner_and_stechen(secretary_client, club):
    doc = partie_with_stechen(STECHEN_SEED)
    expected = evaluate(doc).match
    assert len(expected.games) == 40 and expected.tiebreaks and expected.sanctions
    full = check(secretary_client, club, typed(doc))
    for points in (as_points(doc), as_points(doc, keep_facts=True)):
        paper = typed(points)
        assert sum("scores" in r for r in paper["rows"]) == 40
        answer = check(secretary_client, club, paper)
        assert answer["ready"] and all(r["state"] == "ok" for r in answer["rows"])
        assert standing(answer) == standing(full)
        assert answer["winner"] == expected.winner and answer["status"] == "finished"
        assert [r.get("opens") for r in answer["rows"]] == [r.get("opens") for r in full["rows"]]
        assert [r.get("shuffler") for r in answer["rows"]] == [r.get("shuffler") for r in full["rows"]]
        assert [r.get("stage") for r in answer["rows"]] == [r.get("stage") for r in full["rows"]]


def test_the_save_stores_the_points_only_spiele(secretary_client, club):
    doc = partie_with_stechen(STECHEN_SEED)
    points = as_points(doc, every=2)
    response = post(secretary_client, "transcribe_save", club, typed(points) | {"token": str(uuid.uuid4())})
    assert response.status_code == 200, response.content
    match = Match.objects.get()
    stored = [(e.data.get("scores"), e.data.get("results")) for e in match.events.all() if e.kind == "game"]
    assert stored == [(e["game"].get("scores"), e["game"].get("results")) for e in points["events"] if "game" in e]
    assert sum(scores is not None for scores, _ in stored) == 20
    assert match.winner.name == evaluate(doc).match.winner


def test_a_refused_points_line_saves_nothing(secretary_client, club):
    response = post(secretary_client, "transcribe_save", club,
                    sheet(points_row("", [-200, -200, -200, -200]), row("E"), token=str(uuid.uuid4())))
    assert response.status_code == 400 and "Art. 7, 10, 16a" in response.json()["error"]
    assert Match.objects.count() == 0


@pytest.mark.parametrize("scores", [[71, 40, -70, -200], "71 40", [["71"]], ["1" * 13]])
def test_points_cells_that_are_no_texts_are_a_400_with_a_german_message(secretary_client, club, scores):
    payload = sheet(points_row("", []))
    payload["rows"][0]["scores"] = scores
    for name in ("transcribe_check", "transcribe_save"):
        response = post(secretary_client, name, club, payload)
        assert response.status_code == 400
        assert "Zeile 1 der Abschrift ist unlesbar" in response.json()["error"] and "Punkte" in response.json()["error"]
    assert Match.objects.count() == 0


def test_a_points_row_reads_in_english(secretary_client, club):
    response = post(secretary_client, "transcribe_check", club, sheet(points_row("P", [71, 40, -70, -200]),
                                                                      points_row("", [-200, -200, -200, -200])),
                    HTTP_ACCEPT_LANGUAGE="en")
    first, second = response.json()["rows"]
    assert first["reading"] == "points only: card points, tricks and trumps not checked; Trump Spades"
    assert second["errors"][0]["message"].startswith("Everyone has the value for “no trick”")
