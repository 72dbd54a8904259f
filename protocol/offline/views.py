"""The offline pack's URLs: the rules pack (immutable, named by its hash), the service worker
and the web app manifest. All public: they hold no one's data (the rules are published)."""

from __future__ import annotations

import json

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.http import require_safe

from . import pack, precache

YEAR = 365 * 24 * 60 * 60
THEME = "#0f3d2a"  # site.css --felt-900: the header
BACKGROUND = "#f7f5ef"  # site.css --paper


@require_safe
def rules_pack(request, name: str):
    current = pack.current()
    if name != current.filename:  # an old page asks for an old engine: it must reload
        raise Http404("Dieses Regelpaket gibt es nicht (mehr).")
    response = HttpResponse(current.data, content_type="application/zip")
    response["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    return response


@require_safe
def service_worker(request):
    """The service worker, at the root so that its scope is the whole site; never cached by
    HTTP, so that the browser sees a new precache list at once after a deploy."""
    config = json.dumps(precache.worker_config(), ensure_ascii=False, separators=(",", ":"))
    response = render(request, "offline/sw.js", {"config": config}, content_type="text/javascript")
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def manifest(request):
    """The web app manifest (German): Trumpfbuch on the home screen, standalone."""
    icon = static("img/icon.svg")
    data = {
        "name": "Trumpfbuch", "short_name": "Trumpfbuch", "lang": "de", "dir": "ltr",
        "description": "Das Spielprotokoll der Kartenspielvereine: Chaotentrumpf, Doppelkopf, Tarot.",
        "id": "/", "start_url": "/", "scope": "/", "display": "standalone",
        "theme_color": THEME, "background_color": BACKGROUND,
        "icons": [{"src": icon, "sizes": "any", "type": "image/svg+xml", "purpose": "any"}] + [
            {"src": static(f"img/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png",
             "purpose": "any maskable"} for size in (192, 512)],
    }
    response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=1),
                            content_type="application/manifest+json; charset=utf-8")
    response["Cache-Control"] = "public, max-age=86400"
    return response
