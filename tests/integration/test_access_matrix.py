"""Every URL x every persona x GET/POST, with the answer each one must get.

The URLs come from the URLconf itself, so a new view fails this test until its access is
declared here. Ids of another club's objects under this club's address must never work.
"""

import datetime

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from jobs.models import Job
from league.models import Club, Member, Round, Season
from protocol import services
from protocol.documents.backup_files import write_backup
from protocol.models import Lot
from protocol.offline import pack
from protocol.sheet import check
from tests.unit.builders import quiet

PERSONAS = ["anonymous", "outsider", "member", "scorekeeper", "secretary", "staff"]

# Who may do what (see league/registry/access.py).
READERS = {"member", "scorekeeper", "secretary", "staff"}
RECORDERS = {"scorekeeper", "secretary", "staff"}
MANAGERS = {"secretary", "staff"}
EVERYONE = set(PERSONAS)
STARTER = {"member", "secretary", "staff"}  # a background job: who started it (here the member) and managers
LOGGED_IN = EVERYONE - {"anonymous"}
OPERATORS = {"staff"}  # the site's own pages (backups), jobs/site_views.py
GONE = set()  # the first-run page: 404 for everyone once a club exists

# url name -> (who may, methods: "get" page/"post" action/"both" form)
ROUTES = {
    "home": (EVERYONE, "get"),
    "club": (READERS, "get"),
    "standings": (READERS, "get"), "standings_season": (READERS, "get"), "standings_all_time": (READERS, "get"),
    "member_page": (READERS, "get"), "archive": (READERS, "get"),
    "export_club": (READERS, "post"), "export_season": (READERS, "post"), "export_match": (READERS, "get"),
    "job": (STARTER, "get"), "job_progress": (STARTER, "get"), "job_download": (STARTER, "get"),
    "job_retry": (STARTER, "post"),
    "club_members": (MANAGERS, "get"), "member_add": (MANAGERS, "both"), "member_edit": (MANAGERS, "both"),
    "member_set_active": (MANAGERS, "post"), "club_seasons": (MANAGERS, "get"), "season_add": (MANAGERS, "both"),
    "season_edit": (MANAGERS, "both"), "club_settings": (MANAGERS, "both"), "secretary_add": (MANAGERS, "post"),
    "secretary_remove": (MANAGERS, "post"), "season_import": (MANAGERS, "both"),
    "season_import_confirm": (MANAGERS, "post"),
    "tournament": (READERS, "get"), "tournament_settings": (MANAGERS, "both"), "round_new": (MANAGERS, "both"),
    "round": (READERS, "get"), "round_pdf": (READERS, "get"), "round_redraw": (MANAGERS, "post"),
    "round_start": (MANAGERS, "post"), "round_delete": (MANAGERS, "post"),
    "protocol:new": (READERS, "both"), "protocol:import": (MANAGERS, "both"), "protocol:audit": (MANAGERS, "get"),
    "protocol:transcribe": (MANAGERS, "get"), "protocol:transcribe_check": (MANAGERS, "post"),
    "protocol:transcribe_save": (MANAGERS, "post"),
    "protocol:export": (READERS, "get"), "protocol:pdf": (READERS, "get"), "protocol:blank_pdf": (READERS, "get"),
    "protocol:match": (READERS, "get"), "protocol:sheet": (READERS, "get"), "protocol:history": (READERS, "get"),
    "protocol:settings": (MANAGERS, "both"), "protocol:game_new": (RECORDERS, "both"),
    "protocol:game_preview": (RECORDERS, "post"), "protocol:sanction_new": (RECORDERS, "both"),
    "protocol:end": (RECORDERS, "both"), "protocol:annul": (MANAGERS, "both"),
    "protocol:entry_correct": (RECORDERS, "both"), "protocol:entry_remove": (RECORDERS, "both"),
    "protocol:game_annul": (RECORDERS, "both"), "protocol:lot_new": (RECORDERS, "both"), "protocol:lot": (READERS, "get"),
    "protocol:confirm": (READERS, "post"),
    # The offline queue's endpoint answers JSON to everyone: 401 (not 302) to a visitor, 403 without the right.
    "protocol:entries_sync": (RECORDERS, "json"),
    # league/accounts: the first run, invitations (an unknown token gets its explaining page), the profile
    "first_run": (GONE, "gone"), "profile": (LOGGED_IN, "both"), "accept_invitation": (EVERYONE, "both"),
    "member_invitation": (MANAGERS, "get"), "member_account_active": (MANAGERS, "post"),
    # Publishing (the club of the world publishes its results): public pages, the secretary's settings.
    "publishing_settings": (MANAGERS, "both"), "public_index": (EVERYONE, "get"), "public_season": (EVERYONE, "get"),
    "public_embed": (EVERYONE, "get"), "public_csv": (EVERYONE, "get"), "public_json": (EVERYONE, "get"),
    # The operators' backups: the list (POST starts a backup job), a file, the job's pages.
    "backups": (OPERATORS, "both"), "backup_download": (OPERATORS, "get"), "site_job": (OPERATORS, "get"),
    "site_job_progress": (OPERATORS, "get"), "site_job_retry": (OPERATORS, "post"),
    # The offline pack (issue 17): the rules pack, the service worker, the manifest hold no one's data.
    "rules_pack": (EVERYONE, "get"), "service_worker": (EVERYONE, "get"), "manifest": (EVERYONE, "get"),
    # The check page of a printed sheet: whoever holds the paper (its code) may see it.
    "sheet_check_form": (EVERYONE, "get"), "sheet_check": (EVERYONE, "get"),
}
SKIPPED_NAMESPACES = {"admin"}
SKIPPED_NAMES = {"login", "logout", "password_change", "password_change_done", "password_reset",
                 "password_reset_done", "password_reset_confirm", "password_reset_complete", "set_language"}


def all_route_names():
    names = []

    def walk(patterns, namespace=None):
        for p in patterns:
            if isinstance(p, URLResolver):
                if p.namespace in SKIPPED_NAMESPACES:
                    continue
                walk(p.url_patterns, p.namespace or namespace)
            elif isinstance(p, URLPattern) and p.name:
                names.append(f"{namespace}:{p.name}" if namespace else p.name)
    walk(get_resolver().url_patterns)
    return sorted(set(n for n in names if n not in SKIPPED_NAMES))


def test_every_url_has_declared_access():
    missing = [name for name in all_route_names() if name not in ROUTES]
    assert missing == [], f"declare who may use these URLs in ROUTES: {missing}"


@pytest.fixture
def world(db, club, secretary, member_user, scorekeeper, outsider, running_match, make_user, settings, tmp_path):
    services.add_event(running_match, "game", quiet()["game"], user=secretary)
    running_match.refresh_from_db()
    Club.objects.filter(pk=club.pk).update(published=True)
    season = Season.objects.create(club=club, name="2026", start=datetime.date(2026, 1, 1), end=datetime.date(2026, 12, 31))
    lot = Lot.objects.create(match=running_match, purpose="x", data={"features": {}, "kind": "suit", "cards": ["XA"], "winner": "Anna"})
    staff = make_user("stefan", is_staff=True)
    other = Club.objects.create(name="Skatfreunde", slug="skat")
    other_table = [Member.objects.create(club=other, name=n) for n in ("Xaver", "Yvonne", "Zacharias")]
    other_match = services.create_match(club=other, date=datetime.date(2026, 11, 1), members=other_table,
                                        scorekeeper=other_table[0], settings={}, events=[quiet(other_table and ["Xaver", "Yvonne", "Zacharias"])])
    other_season = Season.objects.create(club=other, name="2026", start=datetime.date(2026, 1, 1), end=datetime.date(2026, 12, 31))
    users = {"outsider": outsider, "member": member_user, "scorekeeper": scorekeeper, "secretary": secretary, "staff": staff}
    # two rounds without seats: the first is never the last, so no persona deletes it
    rounds = [Round.objects.create(season=s, number=n, date=s.start, seed=n) for s in (season, other_season) for n in (1, 2)]
    jobs = [Job.objects.create(kind="season_export", club=c, started_by=member_user, state=Job.State.DONE,
                               filename="saison.xlsx") for c in (club, other)]
    for job in jobs:
        with job.writing_result() as file:
            file.write(b"PK")
    checks = [Job.objects.create(kind="season_check", club=c, started_by=secretary, state=Job.State.DONE,
                                 params={"upload": "saison.xlsx", "season": None}, report={"ok": True, "dry_run": True})
              for c in (club, other)]
    settings.BACKUP_DIR = tmp_path / "backups"
    backup, _data = write_backup(settings.BACKUP_DIR)
    site_job = Job.objects.create(kind="site_backup", club=None, started_by=staff, state=Job.State.DONE,
                                  report={"name": backup.name, "clubs": 2, "matches": 2, "users": 5})
    return {"club": club, "match": running_match, "season": season, "lot": lot, "users": users, "round": rounds[0], "job": jobs[0], "check": checks[0],
            "member": Member.objects.get(club=club, name="Carla"), "secretary": secretary,
            "backup": backup.name, "site_job": site_job,
            "other": {"club": other, "match": other_match, "season": other_season, "member": other_table[0],
                      "round": rounds[2], "job": jobs[1], "check": checks[1],
                      "site_job": jobs[1]}}  # a club's job is no site job: not found there


def kwargs_for(name, pattern_kwargs, w, club_key=None):
    objects = w["other"] if club_key == "other" else w
    kwargs = {}
    for key in pattern_kwargs:
        if key == "slug":
            kwargs[key] = w["club"].slug
        elif key == "pk" and name in ("member_edit", "member_set_active", "member_invitation", "member_account_active"):
            kwargs[key] = objects["member"].pk
        elif key == "pk" and name == "season_import_confirm":
            kwargs[key] = objects["check"].pk
        elif key == "pk" and name.startswith("site_job"):
            kwargs[key] = objects["site_job"].pk
        elif key == "name" and name == "backup_download":
            kwargs[key] = w["backup"]
        elif key == "name" and name == "rules_pack":
            kwargs[key] = pack.current().filename
        elif key == "pk" and name.startswith("job"):
            kwargs[key] = objects["job"].pk
        elif key == "pk" and name in ("season_edit", "export_season"):
            kwargs[key] = objects["season"].pk
        elif key == "pk":
            kwargs[key] = objects["match"].pk
        elif key == "season_pk":
            kwargs[key] = objects["season"].pk
        elif key == "member_pk":
            kwargs[key] = objects["member"].pk
        elif key == "round_pk":
            kwargs[key] = objects["round"].pk
        elif key == "position":
            kwargs[key] = 0
        elif key == "lot":
            kwargs[key] = w["lot"].pk
        elif key == "user_id":
            kwargs[key] = w["secretary"].pk
        elif key == "member":
            kwargs[key] = objects["member"].pk
        elif key == "token":
            kwargs[key] = "d2k9xq-0123456789abcdef0123456789abcdef"
        elif key == "code":  # the check code printed on the match's sheet
            kwargs[key] = check.make(objects["match"].pk, objects["match"].version)
    return kwargs


def pattern_keys(name):
    resolver = get_resolver()
    namespace, _, short = name.rpartition(":")
    if namespace:
        resolver = resolver.namespace_dict[namespace][1]
    (possibilities,) = [resolver.reverse_dict.getlist(short)]
    keys = list(possibilities[0][0][0][1])
    return keys + ["slug"] if namespace else keys  # the namespace's prefix holds the club


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
