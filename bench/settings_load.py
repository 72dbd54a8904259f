"""The site's settings for the load test's gunicorn: the same, with the cache counting its
hits (bench/counting_cache.py) and the bench's floors beside the site's URLs (bench/floor_urls.py)."""

from config.settings import *  # noqa: F403
from config.settings import CACHES

_COUNTING = {"config.file_cache.FileCache": "bench.counting_cache.CountingFileCache",
             "django.core.cache.backends.db.DatabaseCache": "bench.counting_cache.CountingDatabaseCache"}
CACHES["default"]["BACKEND"] = _COUNTING.get(CACHES["default"]["BACKEND"], CACHES["default"]["BACKEND"])
ROOT_URLCONF = "bench.floor_urls"
