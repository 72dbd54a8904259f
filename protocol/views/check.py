"""The public check page of a printed sheet: ``/pruefen/<code>/`` (the sheet's QR code) and
``/pruefen/`` (the code typed in). No login: whoever holds the paper may check it.

It shows the Partie as stored now, read by the rules engine as the match page reads it
(``reading.page``): the players, their totals, the winner, the games recorded as points
only (each with what was not checked, and their count), the confirmations with their times, and whether the Partie changed since the version the sheet printed. It shows no
reason (of an annulment, a Strafe or a correction) and nothing of anybody's account. A bad,
tampered or unknown code is a 404 page that says so; nothing here is cached anywhere.
"""

from __future__ import annotations

from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from league.registry import access
from protocol import confirmations, games, reading
from protocol.forms.check import CheckCodeForm
from protocol.models import Match
from protocol.sheet import check


@never_cache
@require_safe
def check_form(request):
    """The form to type a code from a sheet; a good one leads to its check page."""
    form = CheckCodeForm(request.GET or None)
    if form.is_valid():
        return redirect("sheet_check", code=str(form.cleaned_data["pruefcode"]))
    status = 200 if not form.is_bound else 404 if form.refused_as_unknown else 400
    return _private(render(request, "protocol/check_form.html", {"form": form}, status=status))


@never_cache
@require_safe
def check_page(request, code):
    """The Partie of a signed code as stored now, beside the version the sheet printed."""
    signed = check.parse(code)
    match = None if signed is None else (
        Match.objects.select_related("club", "season", "winner").filter(pk=signed.match_id).first())
    if match is None:
        return _private(render(request, "protocol/check_form.html",
                               {"form": CheckCodeForm(), "refused": True}, status=404))
    if code != str(signed):  # typed into the address bar, small letters or an O for a 0
        return redirect("sheet_check", code=str(signed))
    computed = reading.page(match, just_fetched=True).computed
    context = {
        "match": match,
        "code": str(signed),
        "game": games.plugin_of(match).name,
        "computed": computed,
        "results": check.results(computed) if computed is not None else [],
        "points_only": check.points_only(computed) if computed is not None else None,
        "printed": signed.version,
        "current": match.version,
        "signatures": confirmations.signatures_for_page(match, None),  # None: nobody confirms here
        # a member of the club goes on to the match page (its history has the reasons)
        "match_url": match.get_absolute_url() if access.can_view_match(request.user, match) else "",
        "form": CheckCodeForm(),
    }
    return _private(render(request, "protocol/check.html", context))


def _private(response):
    """Never kept by a browser or a proxy (``never_cache`` says no-store), not indexed, and the
    code never sent on as a Referer."""
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "no-referrer"
    return response
