"""Backup and restore: every page of the club is the same after a restore into an empty database."""

import io
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from league.models import Club
from protocol import matches, recording
from protocol.models import Match
from protocol.records.demo import load_demo

pytestmark = pytest.mark.django_db(transaction=True)
TOKEN = re.compile(r'(csrfmiddlewaretoken" value=|X-CSRFToken": )"[^"]+"')


def pages(urls):
    client = Client()
    client.force_login(get_user_model().objects.get(username="schriftfuehrer"))
    out = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        out[url] = TOKEN.sub(r"\1-", response.content.decode())
    return out


def site_urls():
    club = Club.objects.get()
    urls = [club.get_absolute_url()]
    for match in Match.objects.all():
        urls += [match.get_absolute_url(), match.get_absolute_url() + "verlauf/", match.get_absolute_url() + "protokoll.json"]
    return urls


def test_a_restored_backup_shows_every_page_as_before(tmp_path):
    load_demo(seed=3)
    match = Match.objects.filter(status="running").get()
    recording.add_event(match, "warning", {"player": match.seats.first().name, "reason": "zu früh gelegt"})
    urls = site_urls()
    before = pages(urls)
    backup = tmp_path / "sicherung.json"
    call_command("backup", str(backup))

    call_command("flush", interactive=False, verbosity=0)
    assert not Match.objects.exists()
    call_command("restore", str(backup), verbosity=0)
    assert pages(urls) == before
    restored = Match.objects.get(pk=match.pk)
    assert restored.changes.count() == match.changes.count() and restored.status == match.status
    # New entries after a restore get fresh ids (PostgreSQL's sequences were moved on).
    table = list(Club.objects.get().members.all()[:3])
    newer = matches.create_match(club=table[0].club, date=match.date, members=table, scorekeeper=table[0], settings={})
    assert newer.pk > max(Match.objects.exclude(pk=newer.pk).values_list("pk", flat=True))


def test_after_a_restore_everyone_logs_in_with_his_old_password(tmp_path, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    load_demo(seed=3)
    anna = get_user_model().objects.exclude(username="schriftfuehrer").first()
    anna.set_password("kreuz-as-sticht")
    anna.save()
    backup = tmp_path / "sicherung.json"
    call_command("backup", str(backup))
    call_command("flush", interactive=False, verbosity=0)
    out = io.StringIO()
    call_command("restore", str(backup), stdout=out)
    assert "Passw" not in out.getvalue()
    response = Client().post("/konto/login/", {"username": anna.username, "password": "kreuz-as-sticht"})
    assert response.status_code == 302 and response.wsgi_request.user.is_authenticated


def test_a_backup_without_passwords_is_the_option_and_the_restore_says_so(tmp_path):
    load_demo(seed=3)
    users = get_user_model().objects.count()
    backup = tmp_path / "weitergabe.json"
    out = io.StringIO()
    call_command("backup", str(backup), "--without-passwords", stdout=out)
    assert "Ohne Passwörter" in out.getvalue()
    assert "password" not in json.loads(backup.read_text())["users"][0]
    call_command("flush", interactive=False, verbosity=0)
    out = io.StringIO()
    call_command("restore", str(backup), stdout=out)
    said = out.getvalue()
    assert "keine Passwörter" in said and f"{users} Benutzer können sich erst wieder anmelden" in said
    assert not any(u.has_usable_password() for u in get_user_model().objects.all())


def test_a_restore_into_a_database_with_data_is_refused(tmp_path):
    load_demo(seed=3)
    backup = tmp_path / "b.json"
    call_command("backup", str(backup))
    with pytest.raises(CommandError, match="nicht leer"):
        call_command("restore", str(backup))


def test_a_damaged_backup_is_refused_whole(tmp_path):
    load_demo(seed=3)
    backup = tmp_path / "b.json"
    call_command("backup", str(backup))
    data = json.loads(backup.read_text())
    game = next(e for e in data["clubs"][0]["matches"][-1]["protocol"]["events"] if "game" in e)
    first = next(iter(game["game"]["results"].values()))
    first["points"] = 1  # impossible: Art. 13a
    backup.write_text(json.dumps(data))
    call_command("flush", interactive=False, verbosity=0)
    with pytest.raises(CommandError, match="Art. 13a"):
        call_command("restore", str(backup))
    assert not Club.objects.exists() and not get_user_model().objects.exists()


def test_a_tournament_comes_back_with_its_rounds_seating_and_tables(tmp_path):
    """A Doppelkopf tournament round: the season's mode and game, the seating plan and each
    table's match survive a backup and restore unchanged."""
    import datetime

    from league.models import Member, Round, Season, TableSeat
    from league.tournaments.rounds import draw_round

    club = Club.objects.create(name="Doko-Freunde", slug="doko")
    secretary = get_user_model().objects.create_user("schriftfuehrer")
    club.secretaries.add(secretary)
    members = [Member.objects.create(club=club, name=f"Spieler {n}") for n in range(8)]
    season = Season.objects.create(club=club, name="Turnier 2026", start=datetime.date(2026, 1, 1),
                                   end=datetime.date(2026, 12, 31), mode="tournament", ruleset="doppelkopf",
                                   game_settings={"rules": "tcg"}, ranking_rule="tcg")
    round_ = Round.objects.create(season=season, number=1, date=datetime.date(2026, 11, 20), seed=7)
    for number, table in enumerate(draw_round(round_, members), start=1):
        matches.create_match(club=club, date=round_.date, members=table, scorekeeper=table[0],
                             settings={"rules": "tcg"}, season=season, ruleset="doppelkopf",
                             round=round_, table_number=number)

    def state():
        return (list(Season.objects.values_list("mode", "ruleset", "game_settings", "ranking_rule")),
                list(Round.objects.values_list("pk", "number", "date", "seed")),
                sorted(TableSeat.objects.values_list("round", "table", "position", "member")),
                sorted(Match.objects.values_list("pk", "round", "table_number", "ruleset")))

    before = state()
    backup = tmp_path / "sicherung.json"
    call_command("backup", str(backup))
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(backup), verbosity=0)
    assert state() == before
    assert len(before[2]) == 8 and all(table for _, _, table, _ in before[3])


def test_a_backup_of_old_data_with_nul_is_refused_before_anything_is_written(tmp_path):
    load_demo(seed=3)
    backup = tmp_path / "b.json"
    call_command("backup", str(backup))
    data = json.loads(backup.read_text())
    data["clubs"][0]["members"][0]["name"] = "Gast\x00"  # what a JSON import on SQLite could store before
    backup.write_text(json.dumps(data))
    call_command("flush", interactive=False, verbosity=0)
    with pytest.raises(CommandError, match="Nullzeichen.*check_texts --repair"):
        call_command("restore", str(backup))
    assert not Club.objects.exists() and not get_user_model().objects.exists()
