"""WSGI entry point, e.g. for `gunicorn config.wsgi`."""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

# What the app loads lives as long as the worker: modules, URL patterns, translations (some
# 150,000 objects). A collection of the oldest generation walks every one of them, a pause of
# 100 ms and more in the middle of a request under a tournament's load; frozen, the collector
# looks only at what requests leave behind. The URL patterns load their views first, so that
# those are frozen too rather than imported by the first request.
get_resolver().url_patterns  # noqa: B018 - loads the views
gc.freeze()
