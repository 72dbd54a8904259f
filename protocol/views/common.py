"""Fetching a Partie with its access check, and the page context every match page needs."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from league.models import Club
from protocol import access, confirmations, games, services
from protocol.models import Match


class LoginRequired(Exception):
    pass


def get_club(request, slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


def get_match(request, slug: str, pk: int) -> Match:
    """The match of this club (a match id of another club is a 404), if the user may see it."""
    match = get_object_or_404(Match.objects.select_related("club", "season", "winner"), pk=pk, club__slug=slug)
    if not access.can_view(request.user, match):
        if not request.user.is_authenticated:
            raise LoginRequired
        raise PermissionDenied
    return match


def login_redirect(request):
    return redirect_to_login(request.get_full_path())


def match_context(request, match: Match, computed=None) -> dict:
    """What the sheet shows, computed by the rules engine from the stored facts
    (``computed``: the engine's match, when the view has it already)."""
    if computed is None:
        computed = services.evaluate_match(match).match
    user = request.user
    kind = games.plugin_of(match)
    standings = kind.standings(computed)
    return {
        "club": match.club,
        "match": match,
        "computed": computed,
        "kind": kind,
        "is_open": kind.is_open(computed),
        "can_end": kind.can_end(computed),
        "rows": kind.rows(computed),
        "standings": standings,
        "status_facts": kind.status_facts(computed, standings),
        "ended_by": kind.ended_by(computed),
        "empty_sheet": kind.empty_sheet(computed),
        "header_facts": kind.header_facts(computed),
        "entry_facts": kind.entry_facts(computed),
        "status_headline": kind.status_headline(computed),
        "standings_heading": kind.standings_heading(computed),
        "stage": computed.current_stage,
        "can_record": access.can_record(user, match),
        "can_correct": access.can_correct(user, match),
        "can_manage": access.can_manage(user, match),
        "signatures": confirmations.signatures_for_page(match, user),
    }


def match_view(check=None):
    """Decorator: fetch the match of ``slug``/``pk`` with its access check, then ``check``."""
    from functools import wraps

    def decorator(view):
        @wraps(view)
        def wrapper(request, slug, pk, *args, **kwargs):
            try:
                match = get_match(request, slug, pk)
            except LoginRequired:
                return login_redirect(request)
            if check is not None:
                access.require(check(request.user, match))
            return view(request, match, *args, **kwargs)
        return wrapper
    return decorator
