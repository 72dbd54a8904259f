"""Browser tests: Debian's chromium driven by Playwright against the live test server."""

import datetime
import os
import shutil

import pytest
from django.urls import reverse

from jobs.models import Job
from league.models import Member, Round, Season
from protocol import matches, reading, recording
from protocol.documents.backup_files import write_backup
from protocol.models import Lot
from tests.browser import long_evening
from tests.browser.eight_players import EIGHT, members_named, pages_for, twins
from tests.routes import OPERATORS, ROUTES
from tests.unit.builders import sweep

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}

@pytest.fixture(scope="session")
def browser():
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls
    # are safe. Only while the browser tests run: it must never leak into a deployment.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        yield from _launch()
    finally:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


def _launch():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"chromium not found at {CHROMIUM}: apt-get install chromium (.ci/run does it)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _patient_service_worker(settings):
    """A test server on a busy machine may take longer than the service worker's 3 s before
    it shows a kept page: the tests want the server's answer, not the kept one."""
    settings.OFFLINE_NETWORK_TIMEOUT = 30


def _phone(browser, live_server):
    """A phone of its own: a browser context with its own cookies, storage and service worker."""
    return watched_page(browser, live_server, viewport=PHONE, has_touch=True)


def watched_page(browser, live_server, **options):
    """A page in a context of its own (German), whose script errors and failed requests are
    kept in ``page.problems``."""
    context = browser.new_context(locale="de-DE", **options)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.base_url = live_server.url
    problems = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.problems = problems
    return page


@pytest.fixture
def phone(browser, live_server):
    page = _phone(browser, live_server)
    yield page
    page.context.close()


@pytest.fixture
def second_phone(browser, live_server):
    """Another phone at the same table (another player's, or the secretary's)."""
    page = _phone(browser, live_server)
    yield page
    page.context.close()


def log_in(page, username, password):
    page.goto(page.base_url + "/konto/login/")
    page.get_by_label("Benutzername").fill(username)
    page.get_by_label("Passwort").fill(password)
    page.get_by_role("button", name="Anmelden").click()


def choose_trump(page, code):
    """Tap the trump button of ``code`` ("rank:A", "suit:Kreuz", "colour:rot") on the Spiel form."""
    page.locator(f"label[data-trump='{code}']").click()


@pytest.fixture
def table(club, scorekeeper, member_user, secretary):
    """A running Chaotentrumpf Partie of Anna, Bernd (the Protokollant), Carla and Dieter, dated today
    (the offline tests)."""
    members = {m.name: m for m in club.members.all()}
    for name in ("Carla", "Dieter"):
        members[name] = Member.objects.create(club=club, name=name)
    return matches.create_match(club=club, date=datetime.date.today(), place="Nürtingen",
                                 members=[members[n] for n in ("Anna", "Bernd", "Carla", "Dieter")],
                                 scorekeeper=members["Bernd"], settings={}, user=secretary)


@pytest.fixture
def axe_violations():
    """``axe_violations(page)``: the serious and critical axe-core violations of the page now
    (axe-core from node_modules, injected: the page's context needs ``bypass_csp=True``)."""
    from pathlib import Path

    axe = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
    if not axe.exists():
        pytest.fail(f"axe-core is not installed at {axe}: run `make test-tools` (npm ci)")
    run = """async () => {
      const result = await axe.run(document, {resultTypes: ['violations']});
      return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                         nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
    }"""

    def violations(page):
        page.add_script_tag(path=str(axe))
        return [v for v in page.evaluate(run) if v["impact"] in ("serious", "critical")]

    return violations


# -- the walks' Partien of eight (tests/browser/eight_players.py, long_evening.py) -------------

@pytest.fixture
def eight_world(club, secretary, scorekeeper, member_user):
    """Two Partien of eight: one in a Stechen after a Strafe, one with a single Spiel."""
    members = members_named(club, EIGHT)
    seats = [members[n] for n in EIGHT]
    penalty = {"player": "Carla", "points": 200,
               "reason": "Karte verdeckt getauscht, obwohl die Mitspieler es gesehen und gerügt hatten"}
    events = [{"game": twins(EIGHT)}, {"penalty": penalty}] + [{"game": twins(EIGHT)}] * 3
    season = Season.objects.create(club=club, name="Saison 2026 Chaotentrumpf Nürtingen",
                                   start=datetime.date(2026, 1, 1), end=datetime.date(2026, 12, 31))
    stechen = matches.create_match(club=club, date=datetime.date(2026, 11, 20), place="Vereinsheim am Neckarufer",
                                    members=seats, scorekeeper=members["Bernd"], settings={}, season=season,
                                    events=events, user=secretary)
    assert stechen and reading.page(stechen).computed.current_stage.depth == 1
    plain = matches.create_match(club=club, date=datetime.date(2026, 11, 21), members=seats,
                                  scorekeeper=members["Bernd"], settings={}, events=[{"game": twins(EIGHT)}],
                                  user=secretary)
    lot = Lot.objects.create(match=stechen, purpose="x", data={"features": {}, "kind": "suit", "cards": ["XA"],
                                                               "winner": "Bernd"})
    rnd = Round.objects.create(season=season, number=1, date=season.start, seed=1)
    club.published, club.embed_origins = True, "https://www.ctv-nuertingen.example"  # the public pages too
    club.save()
    # a member's finished export and the secretary's checked workbook: the background job pages
    job = Job.objects.create(kind="season_export", club=club, started_by=member_user, state=Job.State.DONE,
                             filename="ctv-saison-2026-chaotentrumpf-nuertingen.xlsx")
    with job.writing_result() as file:
        file.write(b"PK")
    check = Job.objects.create(kind="season_check", club=club, started_by=secretary, state=Job.State.DONE,
                               params={"upload": "saison.xlsx", "season": None}, report={"ok": True, "dry_run": True})
    return {"club": club, "match": stechen, "plain": plain, "season": season, "lot": lot, "round": rnd,
            "member": members["Carla"], "secretary": secretary, "job": job, "check": check}


@pytest.fixture
def operator_pages(eight_world, make_user, settings, tmp_path):
    """The staff's own pages (only they reach them; user "stefan"): the list of backups with
    long file names, a finished backup job ending in its download, one waiting for a worker."""
    settings.BACKUP_DIR = tmp_path / "backups"
    for day in range(1, 4):
        backup, _data = write_backup(settings.BACKUP_DIR, now=datetime.datetime(2026, 11, day, 3, 0, tzinfo=datetime.UTC))
    staff = make_user("stefan", is_staff=True)
    done = Job.objects.create(kind="site_backup", club=None, started_by=staff, state=Job.State.DONE,
                              report={"name": backup.name, "clubs": 1, "matches": 2, "users": 4})
    waiting = Job.objects.create(kind="site_backup", club=None, started_by=staff)
    w = {**eight_world, "backup": backup.name, "site_job": done}
    urls = [(name, url) for name, url in pages_for("staff", w) if ROUTES[name][0] == OPERATORS]
    urls.append(("waiting job", reverse("site_job", args=[waiting.pk])))
    assert {"backups", "site_job"} <= {name for name, _url in urls}
    return urls


@pytest.fixture
def evening(club, secretary, scorekeeper, member_user):
    members = members_named(club, long_evening.EIGHT)
    eight, five = [members[n] for n in long_evening.EIGHT], [members[n] for n in long_evening.FIVE]
    bernd = members["Bernd"]
    day = datetime.date(2026, 11, 20)
    penalty = {"player": "Carla", "points": 200, "reason": long_evening.REASON}
    chaotentrumpf = matches.create_match(club=club, date=day, members=eight, scorekeeper=bernd, settings={},
                                          events=[{"game": twins(long_evening.EIGHT)}, {"penalty": penalty},
                                                  {"game": twins(long_evening.EIGHT[6:] + long_evening.EIGHT[:6])}], user=secretary)
    corrected = twins(long_evening.EIGHT)
    corrected["results"][long_evening.EIGHT[0]]["points"], corrected["results"][long_evening.EIGHT[1]]["points"] = 160, 152
    recording.correct_event(chaotentrumpf, 0, corrected, user=secretary, reason="neu gezählt")  # for the history
    chaotentrumpf.refresh_from_db()
    recording.add_event(chaotentrumpf, "warning", {"player": long_evening.EIGHT[3], "reason": long_evening.REASON}, user=secretary)
    doppelkopf = matches.create_match(club=club, date=day, members=five, scorekeeper=bernd,
                                       settings={"rules": "tcg"}, ruleset="doppelkopf", user=secretary,
                                       events=[{"game": {"type": "normal", "dealer": long_evening.LONGEST, "re": long_evening.FIVE[1:3],
                                                         "re_points": 151}}])
    tarot = matches.create_match(club=club, date=day, members=five, scorekeeper=bernd, settings={},
                                  ruleset="tarot", user=secretary,
                                  events=[{"game": {"dealer": long_evening.LONGEST, "taker": long_evening.FIVE[2], "contract": "garde",
                                                    "partner": long_evening.FIVE[3], "oudlers": 2, "points": 49.5}}])
    four = [long_evening.LONGEST, "Bernd", long_evening.EIGHT[2], "Carla"]
    finished = matches.create_match(club=club, date=day, members=[members[n] for n in four], scorekeeper=bernd,
                                     settings={}, events=[sweep(long_evening.LONGEST, others=four[1:])], user=secretary)
    assert finished.status == "finished"
    return {"chaotentrumpf": chaotentrumpf, "doppelkopf": doppelkopf, "tarot": tarot, "finished": finished}
