"""The offline pack's URLs: the rules pack (immutable, named by its hash), the service worker
and the web app manifest. All public: they hold no one's data (the rules are published)."""

from __future__ import annotations

import json

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.cache import patch_vary_headers
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
    if accepts_brotli(request):  # the stored zip packs to about a third (pack.py)
        response = HttpResponse(pack.brotli_copy(), content_type="application/zip")
        response["Content-Encoding"] = "br"
    else:
        response = HttpResponse(current.data, content_type="application/zip")
    patch_vary_headers(response, ["Accept-Encoding"])
    response["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    return response


def accepts_brotli(request) -> bool:
    """Accept-Encoding names br, not with q=0."""
    for part in request.headers.get("Accept-Encoding", "").lower().split(","):
        coding, *params = (piece.strip() for piece in part.split(";"))
        if coding == "br":
            return not any(p.replace(" ", "") in ("q=0", "q=0.0", "q=0.00", "q=0.000") for p in params)
    return False


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
