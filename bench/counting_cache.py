"""The load test's cache: the site's own (``CACHE_URL``), counting its hits and misses.

``bench/settings_load.py`` puts these backends in the place of the one ``config/caches.py``
chose, for the gunicorn workers of the load test only. Each worker adds its counts to
``$BENCH_CACHE_STATS/<pid>.json`` every 50 reads and when it exits; ``bench/load.py`` adds
them up to the hit rate it reports.
"""

from __future__ import annotations

import atexit
import json
import os
from pathlib import Path

from django.core.cache.backends.db import DatabaseCache

from config.file_cache import FileCache

_MISSING = object()


class Counting:
    """Counts ``get`` and ``get_many`` by the keys found and not found."""

    counts = {"hits": 0, "misses": 0}

    def get(self, key, default=None, version=None):
        value = super().get(key, _MISSING, version)
        self._count(value is not _MISSING, 1)
        return default if value is _MISSING else value

    def get_many(self, keys, version=None):
        keys = list(keys)
        found = super().get_many(keys, version)
        self._count(True, len(found))
        self._count(False, len(keys) - len(found))
        return found

    def _count(self, hit: bool, n: int) -> None:
        Counting.counts["hits" if hit else "misses"] += n
        if sum(Counting.counts.values()) % 50 == 0:
            _write()


def _write() -> None:
    folder = os.environ.get("BENCH_CACHE_STATS")
    if folder:
        (Path(folder) / f"{os.getpid()}.json").write_text(json.dumps(Counting.counts))


atexit.register(_write)


class CountingFileCache(Counting, FileCache):
    pass


class CountingDatabaseCache(Counting, DatabaseCache):
    pass
