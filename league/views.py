"""Thin views: fetch with an access check, act, redirect. Logic lives in models, forms
and access."""

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe
from django_tables2 import RequestConfig

from protocol import confirmations

from .forms import ClubSettingsForm, MemberForm, SeasonForm, SecretaryAddForm
from .models import Club, Season
from .registry import access
from .registry.access import require_club
from .standings import games, pages
from .standings.ranking import standings
from .standings.tables import MemberTable


@require_safe
def home(request):
    if not Club.objects.exists():  # a fresh site: its first visitor sets up the club
        return redirect("first_run")
    context = {
        "my_clubs": Club.objects.for_user(request.user),
        "public_clubs": Club.objects.with_public_standings(),
        "secretary_club_ids": set(
            request.user.secretary_of_clubs.values_list("id", flat=True)
            if request.user.is_authenticated
            else []
        ),
    }
    return render(request, "league/home.html", context)


@require_safe
def club(request, slug):
    club = require_club(request, slug, access.can_view_standings)
    full_view = access.can_view_club_data(request.user, club)
    context = {
        "club": club,
        "full_view": full_view,
        "can_manage": access.can_manage_club(request.user, club),
        # One table per game under way: the seasons running today, the latest-starting of each game.
        "current_tables": [_current_table(request, club, season) for season in current_seasons(club)],
        "has_season": club.seasons.exists(),  # none at all: the secretary is led to the first
    }
    if full_view:
        members = MemberTable(club.members.filter(active=True), prefix="members-")
        RequestConfig(request, paginate=False).configure(members)
        context["member_table"] = members
        context["seasons"] = club.seasons.all()
        context["secretaries"] = club.secretaries.order_by("first_name", "username")
        context["running_matches"] = club.matches.filter(status__in=["running", "tiebreak"]).select_related("winner")
        recent = club.matches.filter(status__in=["finished", "annulled"]).select_related("winner", "season")
        context["recent_matches"] = [_with_finality(m) for m in confirmations.with_confirmed_by_all(recent)[:10]]
    return render(request, "league/club.html", context)


def _with_finality(match):
    """The Partie with its ``finality``: provisional within the club's correction window."""
    match.finality = confirmations.finality(match)
    return match


def current_seasons(club, today=None) -> list[Season]:
    """The seasons under way today, one per game (the latest-starting of each), in the
    registry's order of the games."""
    today = today or timezone.localdate()
    running = {}
    for season in club.seasons.filter(start__lte=today, end__gte=today).order_by("start"):
        running[games.of_season(season)] = season  # later starts win, as in Season.current_for
    return [running[game] for game in games.ordered(running)]


def _current_table(request, club, season) -> dict:
    """The club page's table of a season under way: the top rows, and the viewer's row if
    he is further down."""
    rows = standings(club, season)
    table = pages.standings_table(request, club, rows[:pages.CLUB_PAGE_ROWS], orderable=False,
                                  compact_rule=season.ranking_rule)
    return {
        "season": season,
        "game": games.of_season(season),
        "game_name": games.name(games.of_season(season)),
        "table": table,
        "count": len(rows),
        "me": next((r for r in rows[pages.CLUB_PAGE_ROWS:] if r.member.pk == table.me), None),
        "rule_text": pages.rule_text(season),
    }


# ---------- The Schriftführer's pages: members, seasons, club settings ----------

def _bound(request):
    return request.POST if request.method == "POST" else None


def _save(form):
    """Save the form; if a concurrent change broke a constraint after validation, say so
    on the form instead of failing with a 500."""
    try:
        with transaction.atomic():
            return form.save()
    except IntegrityError:
        form.add_error(None, _("Someone changed the same data at the same time. "
                               "Please check the entries and save again."))
        return None


@require_safe
def club_members(request, slug):
    club = require_club(request, slug, access.can_manage_club)
    members = list(club.members.select_related("user"))
    context = {
        "club": club,
        "active_members": [m for m in members if m.active],
        "former_members": [m for m in members if not m.active],
    }
    return render(request, "league/members.html", context)


@require_http_methods(["GET", "POST"])
def member_edit(request, slug, pk=None):
    club = require_club(request, slug, access.can_manage_club)
    member = get_object_or_404(club.members.select_related("user"), pk=pk) if pk else None
    stored_name = member.name if member else None
    form = MemberForm(_bound(request), instance=member, club=club)
    if form.is_valid() and (saved := _save(form)):
        if member:
            messages.success(request, _("The member “%(name)s” was saved.") % {"name": saved.name})
        else:
            messages.success(request, _("“%(name)s” was added to the members.") % {"name": saved.name})
        return redirect("club_members", slug=club.slug)
    context = {"club": club, "form": form, "member": member, "stored_name": stored_name}
    return render(request, "league/member_form.html", context)


def member_set_active(request, slug, pk):
    """Members are never deleted (old protocols name them): they become former members."""
    club = require_club(request, slug, access.can_manage_club, methods=("POST",))
    member = get_object_or_404(club.members, pk=pk)
    member.active = request.POST.get("active") == "1"
    member.save(update_fields=["active"])
    if member.active:
        messages.success(request, _("%(name)s is an active member again.") % {"name": member.name})
    else:
        messages.success(request, _("%(name)s is now a former member. Old protocols keep the name.")
                         % {"name": member.name})
    return redirect("club_members", slug=club.slug)


@require_safe
def club_seasons(request, slug):
    club = require_club(request, slug, access.can_manage_club)
    context = {
        "club": club,
        "seasons": club.seasons.all(),
        "current_seasons": current_seasons(club),
    }
    return render(request, "league/seasons.html", context)


@require_http_methods(["GET", "POST"])
def season_edit(request, slug, pk=None):
    club = require_club(request, slug, access.can_manage_club)
    season = get_object_or_404(club.seasons, pk=pk) if pk else None
    stored_name = season.name if season else None
    form = SeasonForm(_bound(request), instance=season, club=club)
    if form.is_valid() and (saved := _save(form)):
        if season:
            messages.success(request, _("The season “%(name)s” was saved.") % {"name": saved.name})
        else:
            messages.success(request, _("The season “%(name)s” was added.") % {"name": saved.name})
        return redirect("club_seasons", slug=club.slug)
    context = {"club": club, "form": form, "season": season, "stored_name": stored_name}
    return render(request, "league/season_form.html", context)


def _settings_page(request, club, settings_form=None, secretary_form=None):
    context = {
        "club": club,
        # A copy, so that a refused name does not appear in the page header.
        "form": settings_form or ClubSettingsForm(instance=Club.objects.get(pk=club.pk)),
        "secretary_form": secretary_form or SecretaryAddForm(club=club),
        "secretaries": club.secretaries.order_by("first_name", "username"),
        "only_secretary": club.secretaries.count() == 1,
    }
    return render(request, "league/club_settings.html", context)


@require_http_methods(["GET", "POST"])
def club_settings(request, slug):
    club = require_club(request, slug, access.can_manage_club)
    if request.method == "POST":
        form = ClubSettingsForm(request.POST, instance=Club.objects.get(pk=club.pk))
        if form.is_valid() and _save(form):
            messages.success(request, _("The club's settings were saved."))
            return redirect("club_settings", slug=club.slug)
        return _settings_page(request, club, settings_form=form)
    return _settings_page(request, club)


def secretary_add(request, slug):
    club = require_club(request, slug, access.can_manage_club, methods=("POST",))
    form = SecretaryAddForm(request.POST, club=club)
    if not form.is_valid():
        return _settings_page(request, club, secretary_form=form)
    person = form.cleaned_data["username"]
    club.secretaries.add(person)
    messages.success(request, _("%(name)s is now a secretary of the club.")
                     % {"name": person.get_full_name() or person.get_username()})
    return redirect("club_settings", slug=club.slug)


def secretary_remove(request, slug, user_id):
    club = require_club(request, slug, access.can_manage_club, methods=("POST",))
    with transaction.atomic():
        # A club always keeps one secretary. Two secretaries removing each other at the same
        # moment each passed the first check before the other's removal; so lock the
        # club and ask both questions again under the lock: the second one finds that he is
        # no secretary any more, or that the other is the last one.
        club = access.require_club_locked(request, club, access.can_manage_club)
        person = get_object_or_404(club.secretaries, pk=user_id)
        if club.secretaries.count() == 1:
            if person == request.user:
                messages.error(request, _("You are the only secretary of this club and cannot remove "
                                          "yourself. Add another secretary first."))
            else:
                messages.error(request, _("%(name)s is the only secretary of this club and cannot be "
                                          "removed. Add another secretary first.")
                               % {"name": person.get_full_name() or person.get_username()})
            return redirect("club_settings", slug=club.slug)
        club.secretaries.remove(person)
    name = person.get_full_name() or person.get_username()
    messages.success(request, _("%(name)s is no longer a secretary of the club.") % {"name": name})
    if not access.can_manage_club(request.user, club):
        return redirect(club)
    return redirect("club_settings", slug=club.slug)
