"""The club's records of a game and two members head to head: thin views over
league.ratings.records and league.ratings.head_to_head (both read what the ratings' pass left
per Partie, so a page costs the same few queries however much the club has played)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from league.models import Member
from league.ratings.head_to_head import head_to_head
from league.ratings.models import RatedMatch
from league.ratings.records import KINDS, STECHEN, TO_LIMIT, records_of
from league.registry import access
from league.registry.access import require_club
from league.standings import games
from league.standings.pages import game_of, game_pills
from protocol.models import Match
from protocol.rules import get_ruleset


def has_stechen(game: str) -> bool:
    """Whether ``game`` has an Obergrenze and a Stechen (Art. 17a/b): a game whose
    table counts Stechen (``standings_figures``); the others end by time or agreement."""
    ruleset = get_ruleset(game)
    return ruleset is not None and "tiebreaks" in ruleset.standings_figures


@require_safe
def club_records(request, slug):
    """The club's records of one game (``?spiel=``), each with the Partie it came from."""
    club = require_club(request, slug, access.can_view_club_data)
    rated = games.ordered(RatedMatch.objects.filter(club=club).values_list("game", flat=True).distinct())
    game = game_of(request, rated)
    found = {}
    if game:
        hidden = set() if club.ratings_show_guests else set(club.members.filter(is_guest=True).values_list("pk", flat=True))
        partien = (RatedMatch.objects.filter(club=club, game=game).order_by("date", "match_id")
                   .values_list("match_id", "figures"))
        found = records_of(partien.iterator(chunk_size=2000), shown=lambda pk: pk not in hidden)
    names = dict(Member.objects.filter(pk__in=[r.holder for r in found.values()]).values_list("pk", "name"))
    dates = dict(Match.objects.filter(pk__in=[r.match_pk for r in found.values()]).values_list("pk", "date"))
    kinds = [kind for kind in KINDS if has_stechen(game or "") or kind not in (STECHEN, TO_LIMIT)]
    rows = [{"kind": kind, "record": found.get(kind), "name": names.get(found[kind].holder) if kind in found else "",
             "date": dates.get(found[kind].match_pk) if kind in found else None} for kind in kinds]
    return render(request, "league/records.html", {
        "club": club, "game": game, "game_name": games.name(game) if game else "", "rows": rows,
        "game_pills": game_pills(rated, game), "without_limit": bool(game) and not has_stechen(game),
    })


def _member(club, pk) -> Member:
    return get_object_or_404(club.members, pk=pk)


@require_safe
def head_to_head_page(request, slug, member_pk, other_pk):
    """Two members of the club against each other, per game."""
    club = require_club(request, slug, access.can_view_club_data)
    first, second = _member(club, member_pk), _member(club, other_pk)
    if first.pk == second.pk:
        raise Http404(_("A member has no head-to-head with himself."))
    return render(request, "league/head_to_head.html", {
        "club": club, "first": first, "second": second, "per_game": head_to_head(club, first, second),
    })


@require_safe
def head_to_head_choice(request, slug, member_pk):
    """The member page's choice of the other member (``?gegen=``): to their head-to-head page
    (none chosen: back to the member page)."""
    club = require_club(request, slug, access.can_view_club_data)
    first = _member(club, member_pk)
    if not request.GET.get("gegen"):
        return redirect(reverse("member_page", kwargs={"slug": club.slug, "member_pk": first.pk}))
    try:
        second = _member(club, int(request.GET.get("gegen", "")))
    except ValueError:
        raise Http404(_("Choose another member of the club.")) from None
    return redirect(reverse("head_to_head", kwargs={"slug": club.slug, "member_pk": first.pk, "other_pk": second.pk}))


def opponents_of(member) -> list[Member]:
    """The members who sat at a table of the club with ``member``, by name (the member page's
    choice). One query, of the club's Partien only."""
    return list(Member.objects.filter(seats__match__club_id=member.club_id, seats__match__seats__member=member)
                .exclude(pk=member.pk)
                .distinct().order_by("name").only("pk", "name"))
