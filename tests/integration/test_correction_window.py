"""The correction window: a finished Partie is provisional ("vorläufig") until the club's window
closes or every player confirmed it, then final ("endgültig") and only the secretary corrects it
(league.registry.correction_window). The window closing is time: nothing is written then, so each
test moves ``finished_at`` into the past (as the clock would) or freezes the clock, never sleeps."""

import datetime
import importlib
import io
import json

import pytest
from django.apps import apps
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import timezone
from freezegun import freeze_time
from openpyxl import load_workbook

from league.models import Season
from league.registry import access
from league.spreadsheets.exports import season_xlsx
from protocol import confirmations, matches, reading, recording
from protocol.models import Change, Event, Match
from tests.integration.phones import hand_over
from tests.unit.builders import quiet, sweep, twins

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(club):
    return Season.objects.create(club=club, name="2026", start=datetime.date(2026, 1, 1),
                                 end=datetime.date(2026, 12, 31))


@pytest.fixture
def finished(running_match, season, scorekeeper):
    """Anna, Bernd (the Protokollant), Carla and Dieter in the season; Anna exceeds the
    Obergrenze in Spiel 2."""
    Match.objects.filter(pk=running_match.pk).update(season=season)
    match = Match.objects.get(pk=running_match.pk)
    for game in (quiet(), sweep()):
        recording.add_event(match, "game", game["game"], user=scorekeeper)
        match.refresh_from_db()
    assert match.status == "finished"
    return match


def another(finished):
    """A second Partie of the same table in the same season, running."""
    return matches.create_match(club=finished.club, season=finished.season, date=datetime.date(2026, 11, 27),
                                members=[seat.member for seat in finished.seats.all()],
                                scorekeeper=finished.seats.get(name="Bernd").member, settings={})


def close_window(match):
    """Time passes: the Partie finished a minute longer ago than its club's window (nothing
    else is written, as when the clock moves on)."""
    Match.objects.filter(pk=match.pk).update(
        finished_at=timezone.now() - match.club.correction_window - datetime.timedelta(minutes=1))
    match.refresh_from_db()


def past_window(match):
    """The clock moves on past the Partie's window, nothing written (what a kept page sees)."""
    return freeze_time(match.finished_at + match.club.correction_window + datetime.timedelta(minutes=1))


def confirm_all(match):
    for seat in match.seats.all():
        match.confirmations.create(seat=seat, version=match.version)


def url(match, name, **kwargs):
    return reverse(f"protocol:{name}", kwargs={"slug": match.club.slug, "pk": match.pk, **kwargs})


# -- the club setting -----------------------------------------------------------------------

def settings_post(client, club, amount, unit="hours"):
    return client.post(reverse("club_settings", kwargs={"slug": club.slug}),
                       {"name": club.name, "place": club.place, "correction_window": amount,
                        "correction_window_unit": unit})


def test_the_window_is_24_hours_unless_the_secretary_sets_another(secretary_client, club):
    assert club.correction_window == datetime.timedelta(hours=24)
    page = secretary_client.get(reverse("club_settings", kwargs={"slug": club.slug})).text
    assert "Korrekturfrist" in page and 'name="correction_window" value="24"' in page
    assert '<option value="hours" selected>Stunden</option>' in page


@pytest.mark.parametrize("amount, unit, window", [
    ("30", "minutes", datetime.timedelta(minutes=30)),
    ("48", "hours", datetime.timedelta(hours=48)),
    ("0", "minutes", datetime.timedelta(0)),
    ("14", "days", datetime.timedelta(days=14)),
])
def test_the_secretary_sets_the_window_from_0_minutes_to_14_days(secretary_client, club, amount, unit, window):
    assert settings_post(secretary_client, club, amount, unit).status_code == 302
    club.refresh_from_db()
    assert club.correction_window == window
    page = secretary_client.get(reverse("club_settings", kwargs={"slug": club.slug})).text
    assert f'name="correction_window" value="{amount}"' in page  # shown in the unit it was set in


@pytest.mark.parametrize("amount, unit, message", [
    ("15", "days", "Die Korrekturfrist muss zwischen 0 Minuten und 14 Tagen liegen (eingegeben: 15 Tage)."),
    ("337", "hours", "Die Korrekturfrist muss zwischen 0 Minuten und 14 Tagen liegen (eingegeben: 337 Stunden)."),
    ("-5", "minutes", "Die Korrekturfrist muss zwischen 0 Minuten und 14 Tagen liegen (eingegeben: -5 Minuten)."),
    ("ein Tag", "days", "Bitte die Korrekturfrist als ganze Zahl eingeben, z. B. 24."),
    ("", "hours", "Bitte die Korrekturfrist eingeben (0 für keine)."),
])
def test_a_window_out_of_bounds_is_refused_at_its_field_in_german(secretary_client, club, amount, unit, message):
    response = settings_post(secretary_client, club, amount, unit)
    assert response.status_code == 200
    html = response.content.decode()
    error = html[html.index('id="id_correction_window_error"'):]
    assert message in error[:400]
    club.refresh_from_db()
    assert club.correction_window == datetime.timedelta(hours=24)  # nothing saved


# -- when the Partie finished ---------------------------------------------------------------

def test_finished_at_is_the_moment_it_finished_and_goes_when_a_correction_reopens_it(finished, scorekeeper,
                                                                                    secretary):
    moment = finished.finished_at
    assert moment is not None and timezone.now() - moment < datetime.timedelta(minutes=1)
    recording.correct_event(finished, 0, twins()["game"], user=scorekeeper, reason="Augen vertauscht")
    finished.refresh_from_db()
    assert finished.status == "finished" and finished.finished_at == moment  # still finished: the same window
    recording.remove_event(finished, 1, user=secretary, reason="Spiel gehört zur nächsten Partie")
    finished.refresh_from_db()
    assert finished.status == "running" and finished.finished_at is None
    with freeze_time(timezone.now() + datetime.timedelta(hours=2)):
        recording.add_event(finished, "game", sweep()["game"], user=scorekeeper)
        finished.refresh_from_db()
        assert finished.status == "finished" and finished.finished_at == timezone.now()  # a new window


def test_the_migration_takes_the_last_change_before_any_confirmation(finished, member_user):
    migration = importlib.import_module("protocol.migrations.0013_match_finished_at")
    evening = datetime.datetime(2026, 11, 20, 20, 0, tzinfo=datetime.UTC)
    for minutes, change in enumerate(finished.changes.order_by("at", "id")):  # the evening's writes
        Change.objects.filter(pk=change.pk).update(at=evening + datetime.timedelta(minutes=minutes))
    end = evening + datetime.timedelta(minutes=finished.changes.count() - 1)
    confirmations.confirm(finished, finished.seats.get(name="Anna"), user=member_user)  # after the end
    running = another(finished)
    Match.objects.update(finished_at=None)  # as stored before the field
    migration.finished_at_last_change(apps, None)
    finished.refresh_from_db()
    assert finished.finished_at == end
    assert Match.objects.get(pk=running.pk).finished_at is None


def test_an_imported_partie_of_an_earlier_day_is_final_at_once_and_tonights_provisional(finished, scorekeeper):
    from protocol.documents.transfer import import_document

    earlier = reading.document(finished) | {"date": "2026-03-01"}  # a protocol file, a season's workbook
    imported = Match.objects.select_related("club").get(pk=import_document(earlier, club=finished.club).match.pk)
    assert imported.finished_at == timezone.make_aware(datetime.datetime(2026, 3, 2))  # that evening, at the latest
    assert confirmations.finality(imported) == "final"
    assert access.can_correct(scorekeeper, imported) is False
    tonight = reading.document(finished) | {"date": timezone.localdate().isoformat()}
    imported = Match.objects.select_related("club").get(pk=import_document(tonight, club=finished.club).match.pk)
    assert timezone.now() - imported.finished_at < datetime.timedelta(minutes=1)
    assert confirmations.finality(imported) == "provisional"


# -- who corrects -----------------------------------------------------------------------------

def personas(secretary, scorekeeper, member_user, outsider):
    return {"secretary": secretary, "scorekeeper": scorekeeper, "member": member_user, "outsider": outsider,
            "anonymous": AnonymousUser()}


def may_correct(match, people):
    match = Match.objects.select_related("club").get(pk=match.pk)
    return {name: access.can_correct(user, match) for name, user in people.items()}


def test_the_protokollant_corrects_a_finished_partie_while_its_window_is_open(finished, secretary, scorekeeper,
                                                                          member_user, outsider):
    people = personas(secretary, scorekeeper, member_user, outsider)
    assert may_correct(finished, people) == {"secretary": True, "scorekeeper": True, "member": False,
                                             "outsider": False, "anonymous": False}
    close_window(finished)
    assert may_correct(finished, people) == {"secretary": True, "scorekeeper": False, "member": False,
                                             "outsider": False, "anonymous": False}


def test_the_window_is_the_clubs_and_runs_from_the_end(finished, secretary, scorekeeper, member_user, outsider):
    finished.club.correction_window = datetime.timedelta(minutes=30)
    finished.club.save()
    people = personas(secretary, scorekeeper, member_user, outsider)
    with freeze_time(finished.finished_at + datetime.timedelta(minutes=29)):
        assert may_correct(finished, people)["scorekeeper"] is True
    with freeze_time(finished.finished_at + datetime.timedelta(minutes=31)):
        assert may_correct(finished, people) == {"secretary": True, "scorekeeper": False, "member": False,
                                                 "outsider": False, "anonymous": False}


def test_once_every_player_confirmed_only_the_secretary_corrects(finished, secretary, scorekeeper, member_user,
                                                                 outsider):
    confirm_all(finished)
    assert may_correct(finished, personas(secretary, scorekeeper, member_user, outsider)) == {
        "secretary": True, "scorekeeper": False, "member": False, "outsider": False, "anonymous": False}
    assert confirmations.finality(Match.objects.get(pk=finished.pk)) == "final"  # though the window is open


def test_after_the_window_the_correction_pages_refuse_the_protokollant(finished, scorekeeper_client,
                                                                       secretary_client):
    assert scorekeeper_client.get(url(finished, "entry_correct", position=0)).status_code == 200
    close_window(finished)
    for name in ("entry_correct", "entry_remove", "game_annul"):
        assert scorekeeper_client.get(url(finished, name, position=0)).status_code == 403, name
        assert scorekeeper_client.post(url(finished, name, position=0), {"reason": "x"}).status_code == 403, name
        assert secretary_client.get(url(finished, name, position=0)).status_code == 200, name
    assert Event.objects.get(match=finished, position=0).data == quiet()["game"]


# -- the offline queue's corrections --------------------------------------------------------------

def send_correction(client, match, body=None):
    return hand_over(client, match, kind="correction", position=0, body=body or twins(), reason="Augen vertauscht")


def test_the_queue_sends_the_protokollants_correction_within_the_window_and_nothing_else(finished,
                                                                                       scorekeeper_client):
    refused = hand_over(scorekeeper_client, finished, kind="penalty",
                        body={"player": "Carla", "points": 100, "reason": "zu spät", "decided_by": ["Anna", "Bernd", "Dieter"]})
    assert refused.status_code == 403 and "keine Einträge" in refused.json()["message"]  # recording: the secretary's
    answer = send_correction(scorekeeper_client, finished)
    assert answer.status_code == 201, answer.content
    assert Event.objects.get(match=finished, position=0).data == twins()["game"]
    assert finished.events.count() == 2


def test_after_the_window_the_queue_refuses_a_correction_but_the_secretarys(finished, scorekeeper_client,
                                                                           member_client, secretary_client):
    assert send_correction(scorekeeper_client, finished).status_code == 201  # within the window: his
    close_window(finished)
    for client in (scorekeeper_client, member_client):
        refused = send_correction(client, finished, quiet())
        assert refused.status_code == 403 and refused.json()["message"]
    assert Event.objects.get(match=finished, position=0).data == twins()["game"]
    assert Change.objects.filter(match=finished, action="correct").count() == 1
    assert send_correction(secretary_client, finished, quiet()).status_code == 201
    assert Event.objects.get(match=finished, position=0).data == quiet()["game"]


# -- where it shows ---------------------------------------------------------------------------------

def test_the_match_page_says_provisional_until_the_window_closes(finished, member_client, secretary):
    running = another(finished)  # a running Partie is neither, nor an annulled one
    page = member_client.get(running.get_absolute_url()).text
    assert "vorläufig" not in page and "endgültig</span>" not in page
    recording.add_event(running, "annul_match", {"reason": "Karten unvollständig"}, user=secretary)
    page = member_client.get(running.get_absolute_url()).text
    assert "annulliert" in page and "vorläufig" not in page and "endgültig</span>" not in page

    page = member_client.get(finished.get_absolute_url()).text
    closes = timezone.localtime(finished.finished_at + datetime.timedelta(hours=24)).strftime("%d.%m.%Y %H:%M")
    assert "vorläufig" in page and f"Das Ergebnis kann noch bis {closes} korrigiert werden" in page
    assert "endgültig</span>" not in page
    close_window(finished)
    page = member_client.get(finished.get_absolute_url()).text
    assert "vorläufig" not in page
    assert "endgültig</span>" in page and "korrigieren kann es nur noch der Schriftführer" in page


def test_the_match_page_says_final_once_every_player_confirmed(finished, member_client):
    confirm_all(finished)
    page = member_client.get(finished.get_absolute_url()).text
    assert "endgültig</span>" in page and "vorläufig" not in page


def test_the_archive_marks_a_provisional_partie(finished, member_client):
    archive = reverse("archive", kwargs={"slug": finished.club.slug})
    assert '<span class="badge badge--accent">vorläufig</span>' in member_client.get(archive).text
    assert '<span class="badge badge--accent">vorläufig</span>' in member_client.get(archive).text  # kept
    with past_window(finished):
        assert "vorläufig" not in member_client.get(archive).text


def test_the_kept_standings_stop_saying_provisional_when_the_window_closes(finished, member_client, season):
    table = reverse("standings_season", kwargs={"slug": finished.club.slug, "season_pk": season.pk})
    first = member_client.get(table).text
    assert "1 Partie dieser Tabelle kann noch korrigiert werden" in first
    assert "1 Partie dieser Tabelle kann noch korrigiert werden" in member_client.get(table).text  # kept
    with past_window(finished):  # no write a stamp sees: the kept table stays, its mark goes
        assert "kann noch korrigiert werden" not in member_client.get(table).text


def test_the_kept_member_page_stops_saying_provisional_when_the_window_closes(finished, member_client, season):
    anna = finished.seats.get(name="Anna").member
    page = reverse("member_page", kwargs={"slug": finished.club.slug, "member_pk": anna.pk})
    assert "vorläufig" in member_client.get(page, {"saison": season.pk}).text
    with past_window(finished):  # the member's stamp (versions, updated_at) is the same: his list was kept
        assert "vorläufig" not in member_client.get(page, {"saison": season.pk}).text


def test_the_kept_pages_say_final_once_the_last_player_confirmed(finished, member_client, season, scorekeeper):
    """Within the window: the confirmations are written through protocol.confirmations, which
    moves the versions the kept pages are asked by."""
    anna = finished.seats.get(name="Anna").member
    page = reverse("member_page", kwargs={"slug": finished.club.slug, "member_pk": anna.pk})
    table = reverse("standings_season", kwargs={"slug": finished.club.slug, "season_pk": season.pk})
    archive = reverse("archive", kwargs={"slug": finished.club.slug})
    for address in (page, table, archive):
        assert "vorläufig" in member_client.get(address, {"saison": season.pk}).text
    for seat in finished.seats.all():
        confirmations.confirm(finished, seat, user=scorekeeper)
    for address in (page, table, archive):
        assert "vorläufig" not in member_client.get(address, {"saison": season.pk}).text, address


def test_the_club_page_marks_a_provisional_partie_among_the_recent_ones(finished, member_client):
    assert "vorläufig" in member_client.get(finished.club.get_absolute_url()).text
    close_window(finished)
    assert "vorläufig" not in member_client.get(finished.club.get_absolute_url()).text


def partien_rows(club, season):
    sheet = load_workbook(io.BytesIO(season_xlsx(club, season)))["Partien"]
    header = [cell.value for cell in sheet[1]]
    return [dict(zip(header, row)) for row in sheet.iter_rows(min_row=2, values_only=True)]


def test_the_season_workbook_says_provisional_or_final_per_partie(finished, season, secretary):
    running_match = another(finished)
    assert {row["Nr."]: row["Ergebnis"] for row in partien_rows(finished.club, season)} == {
        finished.pk: "vorläufig", running_match.pk: None}
    close_window(finished)
    recording.add_event(running_match, "annul_match", {"reason": "Karten unvollständig"}, user=secretary)
    assert {row["Nr."]: row["Ergebnis"] for row in partien_rows(finished.club, season)} == {
        finished.pk: "endgültig", running_match.pk: None}  # annulled: neither


def test_the_published_results_say_provisional_until_the_window_closes(finished, client, season):
    club = finished.club
    club.published = True
    club.save()
    kwargs = {"slug": club.slug, "season_pk": season.pk}
    page = client.get(reverse("public_season", kwargs=kwargs)).text
    assert "1 Partie dieser Tabelle kann noch korrigiert werden" in page
    assert "kann noch korrigiert werden" in client.get(reverse("public_embed", kwargs=kwargs)).text
    document = json.loads(client.get(reverse("public_json", kwargs=kwargs)).content)
    closes = finished.finished_at + datetime.timedelta(hours=24)
    assert document["final"] is False
    assert document["provisional"]["matches"] == 1
    assert datetime.datetime.fromisoformat(document["provisional"]["until"]) == closes.replace(microsecond=0)
    close_window(finished)
    assert "kann noch korrigiert werden" not in client.get(reverse("public_season", kwargs=kwargs)).text
    document = json.loads(client.get(reverse("public_json", kwargs=kwargs)).content)
    assert document["final"] is True and document["provisional"] == {"matches": 0, "until": None}


@pytest.mark.django_db(transaction=True)
def test_a_restored_backup_keeps_the_window_and_when_each_partie_finished(finished, tmp_path):
    from django.core.management import call_command

    club = finished.club
    club.correction_window = datetime.timedelta(minutes=90)
    club.save()
    moment = datetime.datetime(2026, 11, 20, 21, 30, tzinfo=datetime.UTC)
    Match.objects.filter(pk=finished.pk).update(finished_at=moment)
    backup = tmp_path / "sicherung.json"
    call_command("backup", str(backup))
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(backup), verbosity=0)
    restored = Match.objects.select_related("club").get(pk=finished.pk)
    assert restored.club.correction_window == datetime.timedelta(minutes=90)
    assert restored.finished_at == moment  # not the moment of the restore: the window stays closed
