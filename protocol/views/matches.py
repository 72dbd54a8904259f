"""The Partie: a new one, its sheet, its history, its settings."""

from __future__ import annotations

from functools import cache

from django.contrib import messages
from django.contrib.messages import get_messages
from django.db import transaction
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template import engines
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from league.models import Member, Season
from league.registry import access
from league.registry.access import require_club
from league.registry.addresses import MatchAddresses
from protocol import confirmations, games, matches, reading, recording
from protocol.forms.entries import ReasonForm
from protocol.forms.match import NewMatchForm, ruleset_table
from protocol.models import Match
from protocol.records import chronicle
from protocol.sheet import page_parts
from protocol.views import state_tag, sync
from protocol.views.common import match_clock, match_context, require_match
from protocol.views.sheet import BlankSheetForm, blank_game

MATCH_PAGE = "protocol/match.html"  # protocol/jinja2/


@require_safe
def match_detail(request, slug, pk):
    """The match page: its kept parts (protocol.sheet.page_parts) and what is the viewer's own."""
    return match_page(request, slug, pk)


def match_page(request, slug, pk, *, saved: Match | None = None) -> HttpResponse:
    """The match page as :func:`match_detail` answers it. ``saved``: the Partie a Spiel's save
    has just written (protocol.views.entries), as the save left it (its version, status and
    winner; the user's rights checked by the save): the page is the save's answer, in the same
    request. The phone is spared the redirect's second round trip; the page says its own
    address (``Content-Location``, and its canonical link with the base of its relative links:
    static/js/match.js shows it at that address, so that a reload asks for the match page and
    not the form again)."""
    match = saved if saved is not None else require_match(request, slug, pk)
    facts = state_tag.facts_of(request, match)  # read with it: a save's Partie as the save left it
    key = state_tag.kept_key(request, facts, match)
    confirmed = state_tag.confirmed(facts, key)
    context = {"club": match.club, "match": match, "can_record": access.can_record(request.user, match),
               "clock": match_clock(match), "addresses": MatchAddresses(slug, match.pk),
               "parts": page_parts.parts(request, key, lambda: match_context(request, match, just_fetched=True,
                                                                             confirmed=confirmed))}
    context["signatures"] = confirmations.signatures_for_page(match, request.user, confirmed=confirmed)
    if context["signatures"]:
        context["awaiting_agreement"] = confirmations.awaits_agreement(match, context["signatures"])
        context["corrections_after_confirmation"] = confirmations.corrections_after_confirmation(match)
    if context["can_record"]:  # entries typed offline are sent from here too (static/js/offline/entry.js)
        context |= sync.offline_page(request, match, "match")
    if saved is not None:
        context["address"] = match.get_absolute_url()
    # written by Jinja2 (protocol/jinja2/protocol/match.html, config.jinja), as its parts are; the
    # request's values its frame shows as the template language's context processors give them
    # (one CSRF token for the page: Django's Jinja2 backend would mask one anew at each use)
    context |= {"request": request, "user": request.user, "messages": get_messages(request),
                "csrf_token": get_token(request)}
    response = HttpResponse(engines["jinja2"].get_template(MATCH_PAGE).render(context))
    if saved is not None:
        response["Content-Location"] = context["address"]
    return response


@require_safe
def match_sheet(request, slug, pk):
    """The match's state alone (Mischer, next Spiel, leader, Stechen banner, sheet, standings), for
    the other devices at the table that follow it: match.html fetches it every few seconds.

    Answered with an ETag of its content and kept by the browser only to be asked again
    (``no-cache``): an unchanged state is a bodiless 304, not 60-80 kB, so a phone polling
    every 4 seconds through a three-hour evening does not spend 150 MB of mobile data. The ETag
    is asked before anything is computed, in one statement (``state_tag``): the 304 renders nothing;
    a table card's holder is answered so too. The poll of a phone whose offline queue holds
    entries says how many (protocol.queue_report), kept from the same statement's facts. A changed
    state is rendered once for every viewer with the same rights (``state_tag.shared_key``): the
    table's other phones and the members following it are sent the same bytes."""
    facts = state_tag.poll_facts(request, slug, pk)
    etag = state_tag.state_etag(request, facts) if facts is not None else None
    kept = None
    if etag is not None and state_tag.may_see(request, facts):
        state_tag.note_queue(request, facts)
        unchanged = get_conditional_response(request, etag=etag)
        if unchanged is not None:
            unchanged["ETag"] = etag
            patch_cache_control(unchanged, private=True, no_cache=True)
            return unchanged
        # The bytes rendered for a viewer with the same rights, while the state is the same.
        kept = page_parts.kept_state(state_tag.shared_key(request, facts))
    if kept is not None:
        response = HttpResponse(kept)
    else:
        match = require_match(request, slug, pk)  # who may not see it is refused here, as on every page
        key = state_tag.kept_key(request, facts, match)
        confirmed = state_tag.confirmed(facts, key)
        response = HttpResponse(page_parts.state(request, key, lambda: match_context(
            request, match, just_fetched=True, confirmed=confirmed)))
    if etag is not None:
        response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    return response


@require_safe
def match_history(request, slug, pk):
    match = require_match(request, slug, pk)
    changes = list(match.changes.select_related("user").order_by("at", "id"))
    _describe(match, changes)
    changes.reverse()  # newest first
    return render(request, "protocol/history.html", {"club": match.club, "match": match, "changes": changes})


def _describe(match, changes):
    """Give each of the match's ``changes`` (all of them, oldest first) its ``sentence``."""
    lines = chronicle.sentences(match.ruleset, changes, reading.stored_events(match),
                                [seat.name for seat in match.seats.all()])
    for change, sentence in zip(changes, lines, strict=True):
        change.sentence = sentence
    return changes


@require_http_methods(["GET", "POST"])
def new_match(request, slug):
    club = require_club(request, slug, access.can_create_match)
    today = timezone.localdate()
    me = club.members.filter(user=request.user).first()
    initial = {"date": today, "season": Season.current_for(club, today, game=NewMatchForm.base_fields["ruleset"].initial), "place": club.place,
               "scorekeeper": me.name if me else ""}
    form = NewMatchForm(request.POST or None, club=club, initial=initial)
    if request.method == "POST" and form.is_valid():
        match = _create(request, club, form, me)
        if match is not None:
            messages.success(request, _("The match has begun. Good luck!"))
            return redirect(match)
    return render(request, "protocol/new_match.html", {"club": club, "form": form, "rulesets": ruleset_table(),
                                                       "games": games.PLUGINS.values(),
                                                       "blank_form": BlankSheetForm(default_game=blank_game(club))})


def _create(request, club, form, me):
    data = form.cleaned_data
    chosen = {m.pk: m for m in club.members.filter(pk__in=data["member_ids"])}
    players = [chosen[pk] for pk in data["member_ids"] if pk in chosen]
    names = [m.name for m in players] + data["guest_names"]
    scorekeeper_name = data.get("scorekeeper") or (names[0] if names else "")
    if not access.can_manage_club(request.user, club) and (me is None or me.name != scorekeeper_name):
        form.add_error("scorekeeper", _("As a member you can start a match only as its scorekeeper (Art. 4a)."))
        return None
    try:
        with transaction.atomic():
            for guest in data["guest_names"]:
                member, _created = Member.objects.get_or_create(club=club, name=guest, defaults={"is_guest": True})
                players.append(member)
            # not one of the players: the engine refuses the match (Art. 4), on the field
            scorekeeper = next((m for m in players if m.name == scorekeeper_name), None)
            return matches.create_match(
                club=club, season=data.get("season"), date=data["date"], place=data.get("place", ""),
                members=players, scorekeeper=scorekeeper, settings=form.settings(len(players)), user=request.user,
                ruleset=data["ruleset"])
    except recording.RuleViolation as refused:
        form.add_rule_errors(refused.errors)
        return None


@require_http_methods(["GET", "POST"])
def match_settings(request, slug, pk):
    match = require_match(request, slug, pk, access.can_manage_match)
    fields = games.plugin_of(match).settings_form
    if fields is None:
        messages.info(request, _("This game has no settings to change."))
        return redirect(match)
    players = match.seats.count()
    initial = fields.initial_from(match.settings, players) | {"version": match.version}
    form = settings_page_form(match.ruleset)(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            recording.update_settings(match, form.settings(players), user=request.user,
                                      version=form.cleaned_data["version"], reason=form.cleaned_data["reason"])
            messages.success(request, _("The settings were changed; every game was checked and scored again."))
            return redirect(match)
        except recording.StaleMatch as stale:
            messages.error(request, stale.message)
        except recording.RuleViolation as refused:
            form.add_rule_errors(refused.errors)
    return render(request, "protocol/settings.html", {"club": match.club, "match": match, "form": form})


@cache
def settings_page_form(key: str) -> type:
    """The settings form of a game that has any, with the reason every change needs."""
    return type(f"SettingsPage_{key}", (games.plugin(key).settings_form, ReasonForm), {})


@require_safe
def club_audit(request, slug):
    """The secretary's audit: every change to the club's Partien, newest first, with reasons."""
    from django.core.paginator import Paginator

    from protocol.models import Change
    club = require_club(request, slug, access.can_manage_club)
    changes = (Change.objects.filter(match__club=club).select_related("user", "match")
               .order_by("-at", "-id"))
    page = Paginator(changes, 50).get_page(request.GET.get("seite"))
    for match in {change.match for change in page}:
        described = {c.pk: c for c in _describe(match, list(match.changes.order_by("at", "id")))}
        for change in page:
            if change.match_id == match.pk:
                change.sentence = described[change.pk].sentence
    return render(request, "protocol/audit.html", {"club": club, "page": page})
