"""What the service worker keeps (templates/offline/sw.js), each file with its revision.

- **precached** at the worker's install, revisioned by content hash so that a deploy that
  changes a file refreshes it: site.css, htmx, match.js, every file of static/js/offline/
  (the engine, the offline queue and the entry pages' script), idb, the icons and the
  rules pack (its URL holds its hash). Files the pages name through ``{% static %}`` are
  listed under that URL (hashed by collectstatic outside DEBUG); the offline modules import
  each other by plain names, so they are listed under both.
- **Pyodide** (~13 MB on the phone, under 4 MB over the wire: its standard library trimmed,
  protocol/offline/stdlib.py, everything Brotli-compressed) is not precached: a member who only
  reads tables never downloads it. The match page and the entry pages ask the worker to fetch it
  into the cache named by :func:`pyodide_revision` (a new Pyodide, a new cache; the old one is
  dropped), then start the engine from there once idle (static/js/offline/warm.js).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.urls import reverse

from . import pack

PAGES = ["css/site.css", "vendor/htmx/htmx.min.js", "js/match.js", "js/sw-register.js",
         "img/favicon.svg", "img/icon.svg", "img/icon-192.png", "img/icon-512.png"]
MODULES = ["vendor/idb/index.js"]  # imported by plain name (and listed under both)
OFFLINE_JS = "js/offline"
PYODIDE = "vendor/pyodide"
PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]


def source(name: str) -> Path | None:
    """The file behind static ``name``, found as collectstatic finds it (static/, the apps')."""
    found = finders.find(name)
    return Path(found) if found else None


def revision(name: str) -> str | None:
    """The file's content hash, or None when it is not there (no ``make vendor``)."""
    path = source(name)
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16] if path else None


def plain_url(name: str) -> str:
    """The URL without collectstatic's hash: how modules and Pyodide name each other."""
    return f"{settings.STATIC_URL}{name}"


def offline_modules() -> list[str]:
    folder = source(OFFLINE_JS)
    names = sorted(f"{OFFLINE_JS}/{path.name}" for path in folder.glob("*.js")) if folder else []
    return names + MODULES


def entries() -> list[dict[str, str | None]]:
    """Workbox's precache manifest: ``{"url", "revision"}`` of every file above that is there
    (one missing file would fail the worker's whole install). A URL holding its file's hash
    (collectstatic's, outside DEBUG) is its own revision (``None``): the worker takes the file
    from the browser's HTTP cache, where the page that registered it has just loaded it."""
    listed = {}
    for name in PAGES + offline_modules():
        rev = revision(name)
        if rev is None:
            continue
        listed[static(name)] = rev if static(name) == plain_url(name) else None
        if name not in PAGES:
            listed[plain_url(name)] = rev
    listed[reverse("rules_pack", kwargs={"name": pack.current().filename})] = pack.current().digest[:16]
    return [{"url": url, "revision": rev} for url, rev in sorted(listed.items())]


def pyodide_revision() -> str:
    """Names the cache Pyodide's files are kept in: their lock file and loader, hashed."""
    digest = hashlib.sha256()
    for name in ("pyodide-lock.json", "pyodide.mjs"):
        path = source(f"{PYODIDE}/{name}")
        digest.update(path.read_bytes() if path else b"missing")
    return digest.hexdigest()[:16]


def pyodide_urls() -> list[str]:
    return [plain_url(f"{PYODIDE}/{name}") for name in PYODIDE_FILES]


def worker_config() -> dict:
    """Everything the worker's script is given (templates/offline/sw.js)."""
    return {"precache": entries(), "pyodide": {"cache": f"trumpfbuch-pyodide-{pyodide_revision()}",
                                               "prefix": plain_url(PYODIDE + "/"), "urls": pyodide_urls()},
            "workbox": plain_url("vendor/workbox/"), "login": reverse("login"), "logout": reverse("logout"),
            "networkTimeoutSeconds": settings.OFFLINE_NETWORK_TIMEOUT}
