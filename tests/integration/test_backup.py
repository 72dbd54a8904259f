"""Backup and restore: every page of the club is the same after a restore into an empty database."""

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from league.models import Club
from protocol import services
from protocol.demo import load_demo
from protocol.models import Match

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
    services.add_event(match, "warning", {"player": match.seats.first().name, "reason": "zu früh gelegt"})
    urls = site_urls()
    before = pages(urls)
    backup = tmp_path / "sicherung.json"
    call_command("backup", str(backup))
    assert "password" not in backup.read_text()  # no hashes unless asked

    call_command("flush", interactive=False, verbosity=0)
    assert not Match.objects.exists()
    call_command("restore", str(backup), verbosity=0)
    assert pages(urls) == before
    restored = Match.objects.get(pk=match.pk)
    assert restored.changes.count() == match.changes.count() and restored.status == match.status
    # New entries after a restore get fresh ids (PostgreSQL's sequences were moved on).
    table = list(Club.objects.get().members.all()[:3])
    newer = services.create_match(club=table[0].club, date=match.date, members=table, scorekeeper=table[0], settings={})
    assert newer.pk > max(Match.objects.exclude(pk=newer.pk).values_list("pk", flat=True))


def test_a_restore_into_a_database_with_data_is_refused(tmp_path):
    load_demo(seed=3)
    backup = tmp_path / "b.json"
    call_command("backup", str(backup))
    with pytest.raises(CommandError, match="nicht leer"):
        call_command("restore", str(backup))


def test_a_damaged_backup_is_refused_whole(tmp_path):
    load_demo(seed=3)
    backup = tmp_path / "b.json"
    call_command("backup", str(backup), "--with-passwords")
    data = json.loads(backup.read_text())
    assert data["users"][0]["password"]
    game = next(e for e in data["clubs"][0]["matches"][-1]["protocol"]["events"] if "game" in e)
    first = next(iter(game["game"]["results"].values()))
    first["points"] = 1  # impossible: Art. 13a
    backup.write_text(json.dumps(data))
    call_command("flush", interactive=False, verbosity=0)
    with pytest.raises(CommandError, match="Art. 13a"):
        call_command("restore", str(backup))
    assert not Club.objects.exists() and not get_user_model().objects.exists()
