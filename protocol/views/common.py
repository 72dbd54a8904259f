"""Fetching a Partie with its access check (``require_match``), and the page context every match page needs."""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Exists, OuterRef
from django.http import Http404

from league.models import Club, Member
from league.registry import access, correction_window
from league.registry.addresses import MatchAddresses
from league.registry.round_clock import clock_of
from league.registry.statements import Statements
from protocol import confirmations, games, reading
from protocol.models import Match
from protocol.sheet.fragments import Fragments
from protocol.views import state_tag


def _match_statement(match, slug, user):
    # with the facts the state's key is made of besides its columns (state_tag.facts_of)
    matches = (Match.objects.select_related("club", "season", "winner").filter(pk=match, club__slug=slug)
               .annotate(**state_tag.fact_columns()))
    if user is not None:  # the viewer's roles in the club, read with it
        matches = matches.annotate(
            viewer_secretary=Exists(Club.secretaries.through.objects.filter(club_id=OuterRef("club_id"), user_id=user)),
            viewer_member=Exists(Member.objects.filter(club_id=OuterRef("club_id"), user_id=user)))
    return (matches,)


# Written as SQL once per process: every page of a Partie, its preview and its save read it
# first, and building it cost more than running it.
_MATCH = Statements(_match_statement, match=int, slug=str, user=int)


def require_match(request, slug: str, pk: int, allowed: Callable | None = None, *, methods=None) -> Match:
    """The match ``pk`` of the club ``slug`` (a match id of another club is a 404), if the user
    may see it and ``allowed(user, match)`` (an ``access`` decision) admits him: else the login
    for an anonymous visitor, 403 for everyone else (``access.require``); then 405 for a
    method not in ``methods`` (if given; ``access.require_method``)."""
    user = request.user
    found = _MATCH.objects(match=int(pk), slug=slug, user=user.pk if user.is_authenticated else None)
    if not found:
        raise Http404(f"No {Match._meta.object_name} matches the given query.")
    match = found[0]
    if user.is_authenticated:  # the checks below ask no more
        access.remember_roles(user, match.club, secretary=bool(match.viewer_secretary), member=bool(match.viewer_member))
    access.require(request.user, access.can_view_match(request.user, match))
    if allowed is not None:
        access.require(request.user, allowed(request.user, match))
    access.require_method(request, methods)
    return match


def match_clock(match: Match):
    """A tournament table's round clock where time is limited (Art. 17c), while it plays."""
    return clock_of(match.round) if match.round_id and match.status != Match.Status.FINISHED else None


def match_context(request, match: Match, computed=None, *, just_fetched: bool = False,
                  confirmed: bool | None = None) -> dict:
    """What the sheet shows, computed by the rules engine from the stored facts
    (``computed``: the engine's match, when the view has it already; ``just_fetched``: the
    view fetched ``match`` (``require_match``) and wrote nothing, reading.page; ``confirmed``:
    whether anybody confirmed it, where the view read that already)."""
    as_stored = computed is None  # read here for the match as stored: its fragments may be kept
    if computed is None:
        computed = reading.page(match, just_fetched=just_fetched).computed  # the page only reads it
    user = request.user
    plugin = games.plugin_of(match)
    standings = plugin.standings(computed)
    can_correct = access.can_correct(user, match)
    signatures = confirmations.signatures_for_page(match, user, confirmed=confirmed)
    return {
        "club": match.club,
        "match": match,
        "computed": computed,
        "plugin": plugin,
        "is_open": plugin.is_open(computed),
        "can_end": plugin.can_end(computed),
        # the sheet and "Games in detail", written once per version (protocol.sheet.fragments)
        "fragments": Fragments(match, computed, plugin, can_correct=can_correct, keep=as_stored),
        "addresses": MatchAddresses(match.club.slug, match.pk),  # its buttons' and its poll's
        "standings": standings,
        "status_facts": plugin.status_facts(computed, standings),
        "ended_by": plugin.ended_by(computed),
        "empty_sheet": plugin.empty_sheet(computed),
        "header_facts": plugin.header_facts(computed),
        "entry_facts": plugin.entry_facts(computed),
        "status_headline": plugin.status_headline(computed),
        "standings_heading": plugin.standings_heading(computed),
        "stage": computed.current_stage,
        "can_record": access.can_record(user, match),
        "can_correct": can_correct,
        "can_manage": access.can_manage_match(user, match),
        "signatures": signatures,
        "awaiting_agreement": confirmations.awaits_agreement(match, signatures),
        # a tournament table: its round's clock where time is limited (Art. 17c)
        "clock": match_clock(match),
        # provisional within the club's correction window, then final (asked as the page is shown)
        "finality": confirmations.finality(match, signatures),
        "correction_closes": correction_window.closes_at(match),
    }
