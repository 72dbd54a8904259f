"""The offline pack's URLs: the rules pack (immutable, named by its hash), the service worker
and the web app manifest. All public: they hold no one's data (the rules are published)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.views.decorators.http import require_safe

from . import pack

YEAR = 365 * 24 * 60 * 60


@require_safe
def rules_pack(request, name: str):
    current = pack.current()
    if name != current.filename:  # an old page asks for an old engine: it must reload
        raise Http404("Dieses Regelpaket gibt es nicht (mehr).")
    response = HttpResponse(current.data, content_type="application/zip")
    response["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    return response
