import os

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from config import settings as settings_module


def test_settings_load_with_german_and_berlin_time():
    assert settings.LANGUAGE_CODE == "de"
    assert [code for code, _ in settings.LANGUAGES] == ["de", "en"]
    assert settings.TIME_ZONE == "Europe/Berlin"
    assert settings.USE_TZ


def test_the_league_and_protocol_apps_are_installed():
    assert "league" in settings.INSTALLED_APPS
    assert "protocol" in settings.INSTALLED_APPS


def test_tests_hash_passwords_with_md5_for_speed():
    assert settings.PASSWORD_HASHERS == ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.mark.parametrize("raw, expected", [("1", True), ("TRUE", True), ("off", False), ("", False)])
def test_env_bool_reads_the_usual_spellings(monkeypatch, raw, expected):
    monkeypatch.setenv("TRUMPFBUCH_FLAG", raw)
    assert settings_module.env_bool("TRUMPFBUCH_FLAG", default=None) is expected


def test_env_bool_fails_loudly_on_a_typo(monkeypatch):
    monkeypatch.setenv("TRUMPFBUCH_FLAG", "ja")
    with pytest.raises(ImproperlyConfigured, match="TRUMPFBUCH_FLAG"):
        settings_module.env_bool("TRUMPFBUCH_FLAG", default=False)


def test_env_list_splits_on_commas_and_drops_blanks(monkeypatch):
    monkeypatch.setenv("TRUMPFBUCH_HOSTS", " example.org, ,www.example.org ")
    assert settings_module.env_list("TRUMPFBUCH_HOSTS", []) == ["example.org", "www.example.org"]


def test_a_required_variable_that_is_missing_stops_the_start(monkeypatch):
    monkeypatch.delenv("TRUMPFBUCH_MISSING", raising=False)
    with pytest.raises(ImproperlyConfigured, match="TRUMPFBUCH_MISSING"):
        settings_module.env_str("TRUMPFBUCH_MISSING")


def test_the_suite_runs_on_the_database_that_DATABASE_URL_names(db):
    from django.db import connection

    url = os.environ.get("DATABASE_URL", "sqlite://")
    assert connection.vendor == ("postgresql" if url.startswith("postgres") else "sqlite")


def test_every_model_change_has_its_migration(db):
    from django.core.management import call_command

    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def _postgres_options(**env):
    """The database OPTIONS the site's settings give for a PostgreSQL DATABASE_URL (no connection)."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'; "
            "from django.conf import settings; print(settings.DATABASES['default'].get('OPTIONS', {}))")
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2],
                          env=os.environ | {"DATABASE_URL": "postgres://club@db.example.org/trumpfbuch"} | env,
                          capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout.strip(), done.stderr


def test_postgresql_plans_a_clubs_reads_for_an_ssd_unless_told_otherwise():
    prepared = "'server_side_binding': True, 'prepare_threshold': 5"
    assert _postgres_options()[:2] == (0, "{'options': '-c random_page_cost=1.1', " + prepared + "}")
    assert _postgres_options(PG_RANDOM_PAGE_COST="2")[:2] == (0, "{'options': '-c random_page_cost=2.0', " + prepared + "}")
    assert _postgres_options(PG_RANDOM_PAGE_COST="")[:2] == (0, "{" + prepared + "}")  # the server's own setting
    code, _out, err = _postgres_options(PG_RANDOM_PAGE_COST="schnell")
    assert code != 0 and "PG_RANDOM_PAGE_COST='schnell' is not a number." in err


def test_postgresql_prepares_what_a_connection_repeats_unless_a_pooler_forbids_it():
    assert _postgres_options(PG_PREPARE="false")[:2] == (0, "{'options': '-c random_page_cost=1.1'}")
    code, _out, err = _postgres_options(PG_PREPARE="vielleicht")
    assert code != 0 and "PG_PREPARE='vielleicht' is not a boolean" in err


def test_on_postgresql_a_statement_a_connection_repeats_is_planned_once(db):
    """The state poll's statement, run as every 4 seconds' poll runs it, is prepared by the
    connection after its fifth run (psycopg's threshold): the server no longer plans it."""
    from django.db import connection

    from protocol.views.state_tag import _POLL

    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only (runs in .ci/run's second pass)")
    for _ in range(6):
        _POLL.run(match=1, slug="ctv", user=0)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any('"protocol_match"' in sql and "protocol_confirmation" in sql for sql in prepared), prepared


def test_on_postgresql_the_sites_connection_plans_with_that_cost(db):
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only (runs in .ci/run's second pass)")
    with connection.cursor() as cursor:
        cursor.execute("SHOW random_page_cost")
        assert cursor.fetchone()[0] == "1.1"
