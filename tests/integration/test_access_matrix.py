"""Every URL x every persona x GET/POST, with the answer each one must get.

The URLs come from the URLconf itself, so a new view fails this test until its access is
declared here. Ids of another club's objects under this club's address must never work.
"""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from jobs.models import Job
from league.models import Club, Member, Round, Season, TableSeat
from protocol import matches, recording
from protocol.documents.backup_files import write_backup
from protocol.models import Event, Lot
from tests.conftest import saved
from tests.integration import pages
from tests.integration.doppelkopf import dk_match, dk_post
from tests.integration.tarot import tarot_match, tarot_post
from tests.routes import (
    PERSONAS,
    ROUTES,
    all_route_names,
    kwargs_for,
    pattern_keys,
)
from tests.unit.builders import quiet


def test_every_url_has_declared_access():
    missing = [name for name in all_route_names() if name not in ROUTES]
    assert missing == [], f"declare who may use these URLs in ROUTES: {missing}"


@pytest.fixture
def world(db, club, secretary, member_user, scorekeeper, outsider, running_match, make_user, settings, tmp_path):
    recording.add_event(running_match, "game", quiet()["game"], user=secretary)
    running_match.refresh_from_db()
    Club.objects.filter(pk=club.pk).update(published=True)
    season = Season.objects.create(club=club, name="2026", start=datetime.date(2026, 1, 1), end=datetime.date(2026, 12, 31))
    lot = Lot.objects.create(match=running_match, purpose="x", data={"features": {}, "kind": "suit", "cards": ["XA"], "winner": "Anna"})
    staff = make_user("stefan", is_staff=True)
    other = Club.objects.create(name="Skatfreunde", slug="skat")
    other_table = [Member.objects.create(club=other, name=n) for n in ("Xaver", "Yvonne", "Zacharias")]
    other_match = matches.create_match(club=other, date=datetime.date(2026, 11, 1), members=other_table,
                                        scorekeeper=other_table[0], settings={}, events=[quiet(other_table and ["Xaver", "Yvonne", "Zacharias"])])
    other_season = Season.objects.create(club=other, name="2026", start=datetime.date(2026, 1, 1), end=datetime.date(2026, 12, 31))
    users = {"outsider": outsider, "member": member_user, "scorekeeper": scorekeeper, "secretary": secretary, "staff": staff}
    # two rounds without seats: the first is never the last, so no persona deletes it
    rounds = [Round.objects.create(season=s, number=n, date=s.start, seed=n) for s in (season, other_season) for n in (1, 2)]
    # the first round seats one table (its card, its reissue)
    for position, name in enumerate(("Anna", "Bernd", "Carla", "Dieter")):
        TableSeat.objects.create(round=rounds[0], table=1, position=position, member=Member.objects.get(club=club, name=name))
    jobs = [Job.objects.create(kind="season_export", club=c, started_by=member_user, state=Job.State.DONE,
                               filename="saison.xlsx") for c in (club, other)]
    for job in jobs:
        with job.writing_result() as file:
            file.write(b"PK")
    checks = [Job.objects.create(kind="season_check", club=c, started_by=secretary, state=Job.State.DONE,
                                 params={"upload": "saison.xlsx", "season": None}, report={"ok": True, "dry_run": True})
              for c in (club, other)]
    points_checks = [Job.objects.create(kind="points_check", club=c, started_by=secretary, state=Job.State.DONE,
                                        params={"upload": "punkte.xlsx", "season": None, "game": "chaotentrumpf"},
                                        report={"ok": True, "dry_run": True}) for c in (club, other)]
    settings.BACKUP_DIR = tmp_path / "backups"
    backup, _data = write_backup(settings.BACKUP_DIR)
    site_job = Job.objects.create(kind="site_backup", club=None, started_by=staff, state=Job.State.DONE,
                                  report={"name": backup.name, "clubs": 2, "matches": 2, "users": 5})
    return {"club": club, "match": running_match, "season": season, "lot": lot, "users": users, "round": rounds[0], "job": jobs[0], "check": checks[0],
            "points_check": points_checks[0],
            "member": Member.objects.get(club=club, name="Carla"), "versus": Member.objects.get(club=club, name="Anna"),
            "secretary": secretary,
            "backup": backup.name, "site_job": site_job,
            "other": {"club": other, "match": other_match, "season": other_season, "member": other_table[0],
                      "round": rounds[2], "job": jobs[1], "check": checks[1], "points_check": points_checks[1],
                      "site_job": jobs[1]}}  # a club's job is no site job: not found there


def client_for(persona, w):
    client = Client()
    if persona != "anonymous":
        client.force_login(w["users"][persona])
    return client


@pytest.mark.parametrize("persona", PERSONAS)
def test_each_persona_gets_the_declared_answer_on_every_url(world, persona):
    client = client_for(persona, world)
    problems = []
    for name in all_route_names():
        allowed, methods = ROUTES[name]
        url = reverse(name, kwargs=kwargs_for(name, pattern_keys(name), world))
        for method in ("get", "post"):
            response = getattr(client, method)(url)
            code = response.status_code
            if methods == "gone":
                ok = code == 404
            elif methods == "no card":  # a table card's address (GET only) of a code that is no card
                ok = code == (404 if method == "get" else 405)
            elif methods == "json":
                ok = code in (200, 400) if persona in allowed else code == (401 if persona == "anonymous" else 403)
                ok = ok and response["Content-Type"] == "application/json"
            elif method == "get" and methods == "post" or method == "post" and methods == "get":
                ok = code in (405, 403) or (persona == "anonymous" and code == 302)
            elif persona == "anonymous" and persona not in allowed:
                ok = code == 302 and "/konto/login/" in response["Location"]
            elif persona in allowed:
                ok = code in (200, 302, 400, 409)
            else:
                ok = code == 403
            if not ok:
                problems.append(f"{method.upper()} {name} {url}: {code}")
    assert problems == []


@pytest.mark.parametrize("persona", ["anonymous", "member"])
def test_every_page_answers_head_like_get_without_a_body(world, persona):
    # Link checkers and uptime monitors ask with HEAD; a page that is there must not say 405.
    client = client_for(persona, world)
    problems = []
    for name in all_route_names():
        if ROUTES[name][1] != "get":
            continue
        url = reverse(name, kwargs=kwargs_for(name, pattern_keys(name), world))
        got, head = client.get(url), client.head(url)
        body = b"".join(head.streaming_content) if head.streaming else head.content
        if head.status_code != got.status_code or body:
            problems.append(f"HEAD {name} {url}: {head.status_code} (GET: {got.status_code})")
    assert problems == []


@pytest.mark.parametrize("persona", ["member", "scorekeeper", "secretary", "staff"])
def test_another_clubs_ids_under_this_clubs_address_are_not_found(world, persona):
    client = client_for(persona, world)
    problems = []
    for name in all_route_names():
        keys = pattern_keys(name)
        if not {"pk", "season_pk", "member_pk", "round_pk"} & set(keys):
            continue
        url = reverse(name, kwargs=kwargs_for(name, keys, world, club_key="other"))
        for method in ("get", "post"):
            code = getattr(client, method)(url).status_code
            if code not in (403, 404, 405):
                problems.append(f"{method.upper()} {name} {url}: {code}")
    assert problems == []


@pytest.mark.parametrize("persona", ["member", "scorekeeper", "secretary"])
def test_another_clubs_pages_are_closed_to_this_clubs_people(world, persona):
    other = world["other"]
    client = client_for(persona, world)
    for url in (other["club"].get_absolute_url(), other["match"].get_absolute_url(),
                reverse("protocol:game_new", kwargs={"slug": other["club"].slug, "pk": other["match"].pk})):
        assert client.get(url).status_code == 403, url


# -- a Partie of each game's own pages ----------------------------------------------------------

# Per game: the Partie (Anna, Bernd, Carla and Dieter; Bernd keeps the protocol), the POST data
# of its Spiel form, the pages who may read it gets, the pages who may record it gets.
GAME_PAGES = {
    "doppelkopf": (dk_match, dk_post, ["match", "sheet"], ["game_new", "sanction_new", "end"]),
    "tarot": (tarot_match, tarot_post, ["match"], ["game_new", "sanction_new"]),
}


@pytest.mark.parametrize("game", GAME_PAGES)
@pytest.mark.parametrize("persona, read, record", [
    ("secretary_client", 200, 200), ("scorekeeper_client", 200, 200), ("member_client", 200, 403),
    ("outsider_client", 403, 403), ("client", 302, 302)])
def test_each_persona_gets_the_pages_of_each_game_it_may(request, game, persona, read, record,
                                                          club, member_user, scorekeeper, secretary):
    make, post, reading, recording = GAME_PAGES[game]
    match = make(club, secretary)
    client = request.getfixturevalue(persona)
    for name in reading:
        assert client.get(pages.url(match, name)).status_code == read, name
    for name in recording:
        assert client.get(pages.url(match, name)).status_code == record, name
    assert client.post(pages.url(match, "game_preview"), post(match)).status_code == record
    response = client.post(pages.url(match, "game_new"), post(match))
    assert saved(response, match) if record == 200 else response.status_code == record
    assert Event.objects.filter(match=match).count() == (1 if record == 200 else 0)
