"""``CACHE_URL`` -> Django's ``CACHES``: one cache that every worker of the site shares.

The site keeps two kinds of things in the cache, both keyed so that they can never be
stale: the league tables (keyed by the data's stamp, league.table_cache) and the engine's
state of each Partie (keyed by the match and its version, protocol.engine_state). Each
gunicorn worker and the background worker must see the same entries, or every process
computes them again; a per-process cache (Django's default) is therefore only for tests.

- ``file://`` (the default: ``private/cache`` beside manage.py) or ``file:///abs/dir``:
  Django's file cache (``config.file_cache``: it counts its files now and then, not at every
  write), shared by all processes on one host, no server needed;
- ``db://`` or ``db://table``: Django's database cache (table ``trumpfbuch_cache``, made by
  ``manage.py createcachetable``, which ``make migrate`` runs), shared by every app server
  of the database;
- ``redis://host:port/db`` (or ``rediss://``): Django's RedisCache (the ``redis`` package),
  for a federation whose app servers share one Redis;
- ``locmem://``: one process only (the tests).

``?max_entries=N`` bounds the file and database caches (default 5000; beyond it, Django
culls a third). Every key is prefixed with the database's identity, so two databases served
from one checkout (a bench beside the club's site) never read each other's entries, and with
the code's fingerprint (``code_version``), so a deploy that changes a table's markup, a word of
the translations or the engine's state never reads what the code before it kept.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from django.core.exceptions import ImproperlyConfigured

DEFAULT_TABLE = "trumpfbuch_cache"
DEFAULT_MAX_ENTRIES = 5000
# What the kept entries are made from: the code, its templates and its translations.
CODE_FOLDERS = ("config", "jobs", "league", "protocol", "templates", "locale")
CODE_SUFFIXES = (".py", ".html", ".txt", ".po")


def key_prefix(database: dict) -> str:
    """A short, stable name of the database (engine, host, port, name)."""
    ident = "|".join(str(database.get(k) or "") for k in ("ENGINE", "HOST", "PORT", "NAME"))
    return "tb" + hashlib.blake2b(ident.encode(), digest_size=4).hexdigest()


def code_version(root: Path) -> str:
    """A short fingerprint of the code under ``root`` (each file's path and content, not its
    time): the same on every worker and app server of one release, new with each change."""
    digest = hashlib.blake2b(digest_size=4)
    for folder in CODE_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in CODE_SUFFIXES and path.is_file():
                digest.update(path.relative_to(root).as_posix().encode() + b"\0")
                digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_from_url(url: str, *, default_dir: Path, database: dict, code: str = "") -> dict:
    """The ``CACHES["default"]`` entry that ``url`` names (see the module docstring); ``code``
    is the release's ``code_version``."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    try:
        max_entries = int(query.get("max_entries", [DEFAULT_MAX_ENTRIES])[0])
    except ValueError:
        raise ImproperlyConfigured(f"CACHE_URL={url!r}: max_entries is not a whole number.") from None
    common = {"KEY_PREFIX": key_prefix(database) + code, "TIMEOUT": 60 * 60}
    bounded = {"OPTIONS": {"MAX_ENTRIES": max_entries}}
    scheme = parts.scheme
    if scheme == "file":
        location = parts.path if parts.path not in ("", "/") else str(default_dir)
        return common | bounded | {"BACKEND": "config.file_cache.FileCache",
                                   "LOCATION": location}
    if scheme == "db":
        table = (parts.netloc + parts.path).strip("/") or DEFAULT_TABLE
        return common | bounded | {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": table}
    if scheme in ("redis", "rediss"):
        location = url.split("?", 1)[0]
        return common | {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": location}
    if scheme == "locmem":
        return common | {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                         "LOCATION": parts.netloc or "trumpfbuch"}
    raise ImproperlyConfigured(
        f"CACHE_URL={url!r} is not file://, db://, redis://, rediss:// or locmem://.")
