"""Shared fixtures: the people who use the site, as personas.

club            – "1. CTV gegen alles!" in Nürtingen, standings not public
secretary       – User "schriftfuehrer", Schriftführer of club (and a Member of it)
member_user     – User "anna", linked to the Member "Anna" of club
outsider        – User "olaf", no relation to the club
bystander       – User "emil", linked to the Member "Emil" of club, who plays in no Partie here
secretary_client / member_client / outsider_client – Django test clients logged in as those
client          – pytest-django's anonymous client
All users have the password given by the `password` fixture.
"""

import pytest
from django.test import Client, override_settings

from config.caches import cache_from_url
from league.models import Club, Member

# Each test process keeps its own cache (config/caches.py): the autouse fixture below empties
# it before every test, which must never reach a cache the site or another run shares. The
# shared caches are tested on their own (tests/integration/test_shared_cache.py).
override_settings(CACHES={"default": cache_from_url("locmem://", default_dir=None, database={})}).enable()

PASSWORD = "kreuz-as-sticht"


def pytest_addoption(parser):
    parser.addoption("--with-game", action="append", default=[], metavar="KEY:PACKAGE",
                     help="add a game kept elsewhere to the registry before the tests are collected "
                          "(e.g. zaehlspiel:tests.fourth_game): the contract tests then run on it too")


def pytest_configure(config):
    from protocol import games

    for spec in config.getoption("--with-game"):
        key, _, package = spec.partition(":")
        games.install(key, package)


def saved(response, match) -> bool:
    """A Spiel's save went through: it answers with the match page itself (200, not a redirect
    to it; protocol.views.entries.game_new), which says its own address (Content-Location).
    A refused form is answered 200 too, at its own address, without that header."""
    return response.status_code == 200 and response.get("Content-Location") == match.get_absolute_url()


def sheet_rows(response) -> int:
    """The rows of the sheet's body on a match page or a state poll's answer, as the phone shows
    them: each entry's own and the headings after it."""
    html = response.content.decode()
    body = html[html.index('<div id="sheet">'):]
    return body[body.index("<tbody>"):body.index("</tbody>")].count("<tr")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """On SQLite the test database is a file (one per test process), not Django's shared
    in-memory database: the browser tests' live server answers in threads, and the shared
    in-memory cache locks whole tables and fails at once ("database table is locked") where a
    file's locks wait out the busy timeout, as the site's own SQLite database does."""
    from django.conf import settings
    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        database.setdefault("TEST", {})["NAME"] = str(tmp_path_factory.mktemp("db") / "test.sqlite3")


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # MD5 is insecure and therefore fast: fine for throw-away test users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _empty_cache():
    # Each test starts with an empty cache and nothing kept by the process, as a freshly
    # started server does (SQLite gives a new Partie the primary key of a rolled back one).
    from django.core.cache import cache

    from protocol import engine_state
    from protocol.sheet import kept_rows
    cache.clear()
    engine_state._SHARED.clear()
    kept_rows._KEPT.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _site_language():
    # Each test starts in the site's language, German: a request in English leaves English
    # active in the thread, and a rules test after it in the same worker would read English.
    from django.utils import translation
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _jobs_dir(settings, tmp_path):
    # Background jobs keep their uploads and files in a directory of the test's own.
    settings.JOBS_DIR = tmp_path / "jobs"


@pytest.fixture
def run_worker():
    """Run the queued background jobs now: the database backend's own worker (``db_worker``),
    in this process, until the queue is empty. Needs ``django_db(transaction=True)``: the
    worker takes its own transactions."""
    from django.core.management import call_command

    def run():
        call_command("db_worker", "--batch", "--no-reload", "--no-startup-delay", "--interval", "0", verbosity=0)

    return run


@pytest.fixture
def password():
    return PASSWORD


@pytest.fixture
def make_user(django_user_model):
    def make(username, **extra):
        return django_user_model.objects.create_user(
            username=username, password=PASSWORD, **extra
        )

    return make


@pytest.fixture
def club(db):
    return Club.objects.create(name="1. CTV gegen alles!", slug="ctv", place="Nürtingen")


@pytest.fixture
def secretary(club, make_user):
    user = make_user("schriftfuehrer", first_name="Sabine", last_name="Schreiber")
    club.secretaries.add(user)
    Member.objects.create(club=club, name="Sabine", user=user)
    return user


@pytest.fixture
def member_user(club, make_user):
    user = make_user("anna", first_name="Anna")
    Member.objects.create(club=club, name="Anna", user=user)
    return user


@pytest.fixture
def outsider(db, make_user):
    return make_user("olaf", first_name="Olaf")


def _logged_in(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def bystander(club, make_user):
    user = make_user("emil", first_name="Emil")
    Member.objects.create(club=club, name="Emil", user=user)
    return user


@pytest.fixture
def secretary_client(secretary):
    return _logged_in(secretary)


@pytest.fixture
def member_client(member_user):
    return _logged_in(member_user)


@pytest.fixture
def outsider_client(outsider):
    return _logged_in(outsider)


@pytest.fixture
def scorekeeper(club, make_user):
    """User "bernd", linked to the Member "Bernd" who keeps the protocol of `running_match`."""
    user = make_user("bernd", first_name="Bernd")
    Member.objects.create(club=club, name="Bernd", user=user)
    return user


@pytest.fixture
def scorekeeper_client(scorekeeper):
    return _logged_in(scorekeeper)


@pytest.fixture
def running_match(club, member_user, scorekeeper, secretary):
    """A Partie of Anna, Bernd, Carla and Dieter; Bernd keeps the protocol."""
    import datetime

    from protocol import matches

    members = {m.name: m for m in club.members.all()}
    for name in ("Carla", "Dieter"):
        members[name] = Member.objects.create(club=club, name=name)
    table = [members[n] for n in ("Anna", "Bernd", "Carla", "Dieter")]
    return matches.create_match(club=club, date=datetime.date(2026, 11, 20), place="Nürtingen",
                                members=table, scorekeeper=members["Bernd"], settings={}, user=secretary)


@pytest.fixture
def finished_match(club, secretary, scorekeeper, member_user):
    """A finished Partie to sign: Anna took every Stich (1248 > 1000) and has won; Bernd kept
    the protocol; Carla is a member without a login; Gisela is a guest."""
    import datetime

    from protocol import matches
    from tests.unit.builders import sweep

    members = {m.name: m for m in club.members.all()}
    members["Carla"] = Member.objects.create(club=club, name="Carla")
    members["Gisela"] = Member.objects.create(club=club, name="Gisela", is_guest=True)
    table = [members[n] for n in ("Anna", "Bernd", "Carla", "Gisela")]
    match = matches.create_match(club=club, date=datetime.date(2026, 11, 20), members=table,
                                 scorekeeper=members["Bernd"], settings={},
                                 events=[sweep(others=("Bernd", "Carla", "Gisela"))], user=secretary)
    assert match.status == "finished"
    return match


def can_log_in(username, password):
    """Whether the login page lets ``username`` in with ``password`` (through the site's login,
    as a person would: django-axes wants the request)."""
    from django.urls import reverse

    response = Client().post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302


# A finished Partie of each game, the last entry as the engine scored it (protocol/recording.py).
FINISHING = {
    "doppelkopf": [{"game": {"type": "solo_damen", "dealer": "Anna", "re": ["Carla"], "re_points": 180}},
                   {"end": {"reason": "time"}}],
    "tarot": [{"game": {"dealer": "Anna", "taker": "Bernd", "contract": "garde", "oudlers": 2, "points": 49}},
              {"end": {"reason": "time"}}],
}


@pytest.fixture
def finished_partie(club, secretary, scorekeeper, member_user):
    """``finished_partie(game)``: a finished Partie of ``game`` (chaotentrumpf: Anna takes every
    Stich, 1248 > 1000; doppelkopf: Carla's Damensolo wins with 180; tarot: Bernd's garde is made) of Anna,
    Bernd (the Protokollant), Carla and Dieter, saved by the secretary."""
    import datetime

    from protocol import matches
    from tests.unit.builders import sweep

    def make(game):
        members = {m.name: m for m in club.members.all()}
        for name in ("Carla", "Dieter"):
            if name not in members:
                members[name] = Member.objects.create(club=club, name=name)
        events = [sweep()] if game == "chaotentrumpf" else FINISHING[game]
        settings = {"rules": "tcg"} if game == "doppelkopf" else {}
        match = matches.create_match(club=club, date=datetime.date(2026, 11, 20), place="Nürtingen",
                                     members=[members[n] for n in ("Anna", "Bernd", "Carla", "Dieter")],
                                     scorekeeper=members["Bernd"], settings=settings, events=list(events),
                                     ruleset=game, user=secretary)
        assert match.status == "finished", match.status
        return match

    return make


# -- the league's known season (tests/standings_season.py) -----------------------------------

@pytest.fixture
def season(club):
    import datetime

    from league.models import Season

    return Season.objects.create(club=club, name="2026", start=datetime.date(2026, 1, 1), end=datetime.date(2026, 12, 31))


@pytest.fixture
def table(club):
    from tests.standings_season import four_of

    return four_of(club)


@pytest.fixture
def known_season(club, season, table):
    from tests.standings_season import BERND_SWEEPS_THREE, STECHEN_WIN, play
    from tests.unit.builders import quiet, sweep, twins

    play(club, season, table, [sweep()], 1)  # Anna wins at once
    play(club, season, table, [twins()] * 4 + [STECHEN_WIN], 2)  # Anna wins the Stechen against Bernd
    play(club, season, table, [sweep("Bernd", ("Anna", "Carla", "Dieter")),
                               {"annul_match": {"reason": "Karten unvollständig"}}], 3)  # counts for nothing
    play(club, season, table, [quiet(), {"penalty": {"player": "Carla", "points": 200, "reason": "getauscht"}},
                               {"disqualification": {"player": "Dieter", "reason": "wiederholt"}},
                               BERND_SWEEPS_THREE], 4)
    return season


# -- a season of eight to export and import (tests/season_workbooks.py) -----------------------

@pytest.fixture
def ppg_season(club):
    import datetime

    from league.models import Season

    return Season.objects.create(club=club, name="2026", start=datetime.date(2026, 1, 1),
                                 end=datetime.date(2026, 12, 31), ranking_rule=Season.RankingRule.PPG)


@pytest.fixture
def members(club):
    from tests.season_workbooks import NAMES

    return {name: Member.objects.get_or_create(club=club, name=name)[0] for name in NAMES}
