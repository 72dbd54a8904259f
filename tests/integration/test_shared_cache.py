"""One cache for every worker (config/caches.py): what one process keeps, another finds.

Each backend is tested for real: the file cache on disk, the database cache in its table,
Redis on 127.0.0.1:6379 (database 15). A second process (``manage.py shell``, as a second
gunicorn worker would be) writes through the settings that ``CACHE_URL`` gives it.
"""

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.db import connection
from django.test import override_settings

from config.caches import DEFAULT_TABLE, cache_from_url, code_version

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
DATABASE = {"ENGINE": "django.db.backends.sqlite3", "NAME": "/srv/club.sqlite3"}


def write_in_another_process(cache_url, tmp_path, key, value):
    """Another worker of the same site: its CACHES come from CACHE_URL alone."""
    env = os.environ | {"CACHE_URL": cache_url, "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}"}
    code = (f"from django.core.cache import cache; cache.set({key!r}, {value!r}); "
            "from django.conf import settings; print(settings.CACHES['default']['BACKEND'])")
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def site_cache(cache_url, tmp_path):
    """The CACHES the other process has, for this one (same database, same key prefix)."""
    return {"default": cache_from_url(cache_url, default_dir=tmp_path / "unused",
                                      database={"ENGINE": "django.db.backends.sqlite3",
                                                "NAME": str(tmp_path / "site.sqlite3")},
                                      code=code_version(ROOT))}


def test_by_default_the_site_shares_a_file_cache_beside_manage_py():
    caches = cache_from_url("file://", default_dir=Path("/srv/trumpfbuch/private/cache"), database=DATABASE)
    assert caches["BACKEND"] == "config.file_cache.FileCache"
    assert caches["LOCATION"] == "/srv/trumpfbuch/private/cache"


@pytest.mark.parametrize("url, backend, location", [
    ("file:///var/cache/trumpfbuch", "config.file_cache.FileCache", "/var/cache/trumpfbuch"),
    ("db://", "db.DatabaseCache", DEFAULT_TABLE),
    ("db://club_cache", "db.DatabaseCache", "club_cache"),
    ("redis://10.0.0.5:6379/2", "redis.RedisCache", "redis://10.0.0.5:6379/2"),
    ("rediss://cache.example.org:6380/0", "redis.RedisCache", "rediss://cache.example.org:6380/0"),
])
def test_cache_url_names_the_backend_and_where_it_keeps_entries(url, backend, location):
    caches = cache_from_url(url, default_dir=Path("/unused"), database=DATABASE)
    assert caches["BACKEND"] == (backend if backend.startswith("config.") else f"django.core.cache.backends.{backend}")
    assert caches["LOCATION"] == location


def test_two_databases_never_share_entries_and_one_database_always_does():
    one = cache_from_url("redis://h/0", default_dir=None, database=DATABASE)["KEY_PREFIX"]
    same = cache_from_url("file://", default_dir=Path("/x"), database=dict(DATABASE))["KEY_PREFIX"]
    other = cache_from_url("redis://h/0", default_dir=None, database=DATABASE | {"NAME": "/srv/bench.sqlite3"})
    assert one == same != other["KEY_PREFIX"]


def release(root: Path, table_markup: str) -> Path:
    """A checkout of the site at ``root`` whose standings table renders ``table_markup``."""
    for name, text in {"templates/league/standings.html": table_markup,
                       "league/standings/tables.py": "COLUMNS = ('rank', 'name')\n",
                       "locale/de/LC_MESSAGES/django.po": 'msgid "Winner"\nmsgstr "Sieger"\n'}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_a_new_release_never_reads_the_tables_its_predecessor_kept(tmp_path):
    before = release(tmp_path / "a", "<table class='standings'>")
    same = code_version(before)
    assert code_version(release(tmp_path / "b", "<table class='standings'>")) == same  # another path, other workers
    os.utime(before / "templates/league/standings.html", (0, 0))
    assert code_version(before) == same  # copied or touched: the same release

    (before / "templates/league/standings.html").write_text("<table class='standings phone'>")
    markup = code_version(before)
    (before / "locale/de/LC_MESSAGES/django.po").write_text('msgid "Winner"\nmsgstr "Gewinner"\n')
    words = code_version(before)
    assert len({same, markup, words}) == 3
    prefixes = {cache_from_url("file://", default_dir=tmp_path, database=DATABASE, code=c)["KEY_PREFIX"]
                for c in (same, markup, words)}
    assert len(prefixes) == 3


def test_the_site_keys_its_cache_by_the_code_it_runs():
    site = subprocess.run([sys.executable, "-c", "import django, os; os.environ['DJANGO_SETTINGS_MODULE']="
                           "'config.settings'; django.setup(); from django.conf import settings; "
                           "print(settings.CACHES['default']['KEY_PREFIX'])"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60, env=os.environ | {"CACHE_URL": "file://"})
    assert site.returncode == 0, site.stderr
    assert site.stdout.strip().endswith(code_version(ROOT))


@pytest.mark.parametrize("url", ["memcached://127.0.0.1", "file://?max_entries=many"])
def test_a_cache_url_it_cannot_use_stops_the_start(url):
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL"):
        cache_from_url(url, default_dir=Path("/x"), database=DATABASE)


def test_the_file_cache_is_shared_by_the_workers_of_one_host(tmp_path):
    url = f"file://{tmp_path / 'cache'}"
    key = f"shared-{uuid.uuid4().hex}"
    assert write_in_another_process(url, tmp_path, key, "Stand nach Spiel 12") == "config.file_cache.FileCache"
    with override_settings(CACHES=site_cache(url, tmp_path)):
        assert cache.get(key) == "Stand nach Spiel 12"
        cache.set("from-this-worker", {"Anna": 71})
        assert cache.get("from-this-worker") == {"Anna": 71}


def test_the_file_cache_counts_its_files_now_and_then_and_still_keeps_its_bound(tmp_path):
    from config.file_cache import FileCache

    cache_ = FileCache(str(tmp_path / "cache"), {"OPTIONS": {"MAX_ENTRIES": 100}})
    assert cache_.cull_every == 2
    listed = []
    count_files = cache_._names
    cache_._names = lambda: listed.append(1) or count_files()
    for n in range(400):
        cache_.set(f"entry-{n}", n)
    assert len(listed) == 200  # every second write, not every write
    assert len(list((tmp_path / "cache").iterdir())) <= 100 + cache_.cull_every
    assert cache_.get("entry-399") == 399


def test_the_file_cache_makes_its_folder_again_and_leaves_no_half_written_file(tmp_path):
    """Somebody empties the cache by deleting its folder while the site runs: the next write
    makes it again. A value that cannot be written (a function: not picklable) leaves the
    entry as it was and no temporary file behind."""
    import shutil

    from config.file_cache import FileCache

    folder = tmp_path / "cache"
    cache_ = FileCache(str(folder), {})
    cache_.set("stand", "Spiel 12")
    shutil.rmtree(folder)
    cache_.set("stand", "Spiel 13")
    assert cache_.get("stand") == "Spiel 13"
    with pytest.raises(Exception):  # noqa: B017 - pickle's error, whichever it is
        cache_.set("stand", lambda: None)
    assert cache_.get("stand") == "Spiel 13"
    assert [p.name for p in folder.iterdir()] == [Path(cache_._key_to_file("stand")).name]


def test_the_file_cache_reads_what_django_wrote_and_django_what_it_writes(tmp_path):
    """Entries kept before an upgrade (Django's own file cache, zlib's default level) are read,
    and the fastest level it writes now is read by Django's: the level is only the writer's."""
    from django.core.cache.backends.filebased import FileBasedCache

    from config.file_cache import FileCache

    ours, djangos = FileCache(str(tmp_path), {}), FileBasedCache(str(tmp_path), {})
    state = {"Anna": list(range(2000)), "Bernd": "Stand nach Spiel 40" * 200}
    djangos.set("before", state)
    ours.set("after", state)
    assert ours.get("before") == state and djangos.get("after") == state


def redis_answers():
    import redis
    try:
        return redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except redis.exceptions.ConnectionError:
        return False


def test_redis_is_shared_by_every_app_server(tmp_path):
    if not redis_answers():
        pytest.skip(f"no Redis answers at {REDIS_URL} (.ci/run starts one)")
    key = f"shared-{uuid.uuid4().hex}"
    assert write_in_another_process(REDIS_URL, tmp_path, key, "Stand nach Spiel 12") == \
        "django.core.cache.backends.redis.RedisCache"
    with override_settings(CACHES=site_cache(REDIS_URL, tmp_path)):
        try:
            assert cache.get(key) == "Stand nach Spiel 12"
            cache.set(key, {"Anna": 71})
            assert cache.get(key) == {"Anna": 71}
        finally:
            cache.delete(key)  # only this test's key: database 15 may be shared


@pytest.mark.django_db
def test_the_database_cache_keeps_entries_in_its_table(tmp_path):
    with override_settings(CACHES=site_cache("db://", tmp_path)):
        call_command("createcachetable")
        cache.set("table:season-7", [("Anna", 1200), ("Bernd", 800)])
        assert cache.get("table:season-7") == [("Anna", 1200), ("Bernd", 800)]
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT count(*) FROM {DEFAULT_TABLE}")
            assert cursor.fetchone()[0] == 1
