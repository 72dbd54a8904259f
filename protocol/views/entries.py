"""Entries of a Partie: a Spiel (with the live preview), Strafen, the end, annulments and
corrections. Every check is the rules engine's, through protocol.recording."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from league.registry import access
from protocol import games, handover, queue_report, reading, recording
from protocol.forms import kept
from protocol.forms.entries import EndForm, ReasonForm, SanctionForm
from protocol.forms.game import EntryTokens
from protocol.records import chronicle
from protocol.views import sync
from protocol.views.common import match_context, require_match
from protocol.views.matches import match_page


def _game_form(match, computed, data=None, initial=None, players=None):
    """The entry form of the match's ruleset (protocol/games/)."""
    return games.plugin_of(match).form(computed, data, initial=initial, players=players)


@require_http_methods(["GET", "POST"])
def game_new(request, slug, pk):
    match = require_match(request, slug, pk, access.can_record)
    plugin = games.plugin_of(match)
    # read and replayed once, for the form and for the save: the state this process shares,
    # which nobody can change (the save feeds a fork of its engine, recording.add_event)
    page = reading.page(match, just_fetched=True)
    computed = page.computed
    if not plugin.is_open(computed):
        messages.info(request, _("The match is over; no more games can be entered."))
        return redirect(match)
    initial = {"version": match.version} | plugin.new_initial(computed)
    if request.method == "GET":  # the inputs kept for the Partie's state: the form made only to write them
        fields = kept.new_entry_fields(plugin, computed, initial, lambda: _game_form(match, computed, initial=initial))
        return _form_page(request, match, page, computed, EntryTokens(initial={"version": match.version}), fields)
    form = _game_form(match, computed, request.POST, initial=initial)
    if form.is_valid():
        try:
            recording.add_event(match, "game", form.body(), user=request.user, page=page,
                                version=form.cleaned_data["version"], submission=form.cleaned_data["submission"])
        except recording.AlreadySaved:
            messages.info(request, _("This game had already been saved."))
            return redirect(match)
        except recording.StaleMatch as stale:
            if same := handover.same_saved_since(match, {"game": form.body()}, form.cleaned_data["version"]):
                messages.info(request, handover.same_message(same))  # the same Spiel from another phone
                return redirect(match)
            return _stale(request, match, form, stale)
        except recording.RuleViolation as refused:
            form.add_rule_errors(refused.errors)
            match.refresh_from_db()  # as stored: the refused save changed nothing
            computed = reading.page(match).computed
        else:
            _say_saved(request, match)
            # the match page itself, not a redirect to it: one round trip less for the phone
            return match_page(request, slug, pk, saved=match)
    if form.is_bound:
        form.data = _with_unused_submission(match, form.data)
    return _form_page(request, match, page, computed, form)


def _with_unused_submission(match, data):
    """The fields of a form shown again, with a new one-time id if an entry was saved under the
    one they carry: a saved Spiel's form sent once more (a reload of the page its save answered
    with, without the script that gives that page its own address) and refused by the state it
    finds now. Kept, that id would take the next Spiel typed into this form for the saved one,
    and drop it ("already saved")."""
    if not recording.saved_under(match, data.get("submission")):
        return data
    data = data.copy()
    data["submission"] = str(uuid.uuid4())
    return data


def _form_page(request, match, page, computed, form, fields=None):
    """The form of a new Spiel: the Partie, the Spiel's number and what the rules say of it (the
    Mischer, the Stechen), its inputs (``fields``: kept, else written from ``form``) and the
    offline queue's document from the view's reading (the events are not read again); not the
    sheet, the standings or the signatures of the match page."""
    plugin = games.plugin_of(match)
    context = {"club": match.club, "match": match, "plugin": plugin, "computed": computed,
               "entry_facts": plugin.entry_facts(computed), "form": form, "fields": fields, "mode": "new"}
    return render(request, "protocol/game_form.html", context | sync.offline_page(request, match, "game", events=page.events))


def _after_save(request, match):
    _say_saved(request, match)
    return redirect(match)


def _say_saved(request, match) -> None:
    # The save left the engine's status and winner on ``match`` (the cache it wrote).
    if match.status == "finished" and match.winner is None:
        messages.success(request, _("The match is over. Several players share the highest total: no winner."))
    elif match.status == "finished":
        messages.success(request, _("%(name)s has won the match!") % {"name": match.winner.name})
    elif match.status == "tiebreak":
        messages.warning(request, _("Several players exceeded the limit: a tie-break begins (Art. 17b)."))
    else:
        messages.success(request, _("The game was saved."))


def _stale(request, match, form, stale):
    """Refuse a stale form but keep what was typed, on a form for the match as it is now."""
    match.refresh_from_db()
    context = match_context(request, match)
    computed = context["computed"]
    data = request.POST.copy()  # its id saved nothing: a saved one is "already saved" before
    data["version"] = match.version
    fresh = _game_form(match, computed, data)
    fresh.is_valid()
    messages.error(request, stale.message)
    if not context["is_open"]:
        return redirect(match)
    return render(request, "protocol/game_form.html", context | {"form": fresh, "mode": "new"}, status=409)


def game_preview(request, slug, pk):
    """The live check while typing (htmx): scores, new totals and every error at its field."""
    match = require_match(request, slug, pk, access.can_record, methods=("POST",))
    queue_report.note(request, match)  # the entry page has no state poll: its previews tell what waits
    plugin = games.plugin_of(match)
    computed = reading.page(match, just_fetched=True).computed  # fetched just now: its version is the stored one
    position = request.POST.get("position")
    players = plugin.next_players(computed)
    if position not in (None, ""):
        game = _stored_game(match, computed, position)
        players = plugin.players_of(computed, game)
    form = _game_form(match, computed, request.POST, players=players)
    preview = None
    complete = plugin.complete(form)
    if form.is_valid() and complete:
        evaluation, index = recording.preview(match, "game", form.body(),
                                              int(position) if position not in (None, "") else None)
        mine = [e for e in evaluation.errors if e.event == index]
        form.add_rule_errors(mine)
        if not evaluation.errors:
            preview = next(g for g in evaluation.match.games if g.event == index)
        elif not mine:
            form.add_error(None, _("This game would make a later entry invalid: %(msg)s")
                           % {"msg": evaluation.errors[0].message})
    slots = []
    for name in form.slot_names():
        shown = complete or name == "__all__" or bool(request.POST.get(name, "").strip())
        slots.append((name, form.errors.get(name, []) if shown else []))
    return render(request, plugin.preview_template,
                  {"match": match, "plugin": plugin, "form": form, "preview": preview, "complete": complete, "slots": slots})


def _stored_game(match, computed, position):
    try:
        position = int(position)
    except (TypeError, ValueError):
        raise Http404 from None
    game = next((g for g in computed.games if g.event == position), None)
    if game is None:
        raise Http404
    return game


@require_http_methods(["GET", "POST"])
def entry_correct(request, slug, pk, position):
    match = require_match(request, slug, pk, access.can_correct)
    event = match.events.filter(position=position).first()
    if event is None:
        raise Http404
    context = match_context(request, match)
    computed = context["computed"]
    reason = ReasonForm(request.POST or None, initial={"version": match.version}, prefix="why")
    plugin = context["plugin"]
    if event.kind == "game":
        game = _stored_game(match, computed, position)
        initial = plugin.initial_from(computed, event.data, game) | {"version": match.version}
        form = _game_form(match, computed, request.POST or None, initial=initial,
                          players=plugin.players_of(computed, game))
        template = "protocol/game_form.html"
    elif event.kind in ("penalty", "warning", "disqualification"):
        form = SanctionForm(request.POST or None, players=computed.players, ruleset=plugin.ruleset,
                            initial=SanctionForm.initial_from(event.kind, event.data) | {"version": match.version})
        template = "protocol/sanction_form.html"
    else:
        return redirect("protocol:entry_remove", slug=match.club.slug, pk=match.pk, position=position)
    if request.method == "POST" and form.is_valid() and reason.is_valid():
        if event.kind == "game":
            kind, body = "game", form.body()
        else:
            kind, body = form.event()
        if kind != event.kind:
            form.add_error("kind", _("The kind of an entry cannot be changed; remove it and enter a new one."))
        else:
            try:
                recording.correct_event(match, position, body, user=request.user,
                                        version=reason.cleaned_data["version"], reason=reason.cleaned_data["reason"])
                messages.success(request, _("The entry was corrected; everything after it was recomputed."))
                return redirect(match)
            except recording.StaleMatch as stale:
                messages.error(request, stale.message)
            except recording.RuleViolation as refused:
                mine = [e for e in refused.errors if e.event == position]
                form.add_rule_errors(mine)
                events = reading.stored_events(match)
                for error in refused.errors:
                    if error.event != position:
                        form.add_error(None, _("%(entry)s would become invalid: %(msg)s")
                                       % {"entry": chronicle.entry_name(events, error.event or 0),
                                          "msg": error.message})
    context |= sync.offline_page(request, match, "correction", event)  # corrected offline too, like a new entry
    return render(request, template, context | {"form": form, "reason_form": reason, "mode": "correct",
                                               "position": position, "event": event,
                                               "entry_name": _entry_name(match, position)})


def _entry_name(match, position):
    """"Spiel 8" or "Strafe nach Spiel 8": the entry as the sheet numbers it."""
    return chronicle.entry_name(reading.stored_events(match), position)


def _confirmed(request, match, form, write, success, **page):
    """A confirmation page (reason or choice, then one button): ``write(cleaned_data)`` on a
    valid POST, every refusal shown on the form, nothing saved unless all is well."""
    if request.method == "POST" and form.is_valid():
        try:
            done = write(form.cleaned_data)
            if success:
                messages.success(request, success)
            return done or redirect(match)
        except recording.StaleMatch as stale:
            messages.error(request, stale.message)
        except recording.RuleViolation as refused:
            for error in refused.errors:
                form.add_error(None, error.message)
    return render(request, "protocol/confirm.html", match_context(request, match) | page | {"form": form})


def _event_at(match, position, kind=None):
    events = match.events.filter(position=position)
    event = (events.filter(kind=kind) if kind else events).first()
    if event is None:
        raise Http404
    return event


@require_http_methods(["GET", "POST"])
def entry_remove(request, slug, pk, position):
    match = require_match(request, slug, pk, access.can_correct)
    event = _event_at(match, position)
    if event.kind == "annul_match":
        access.require(request.user, access.can_manage_match(request.user, match))
    return _confirmed(
        request, match, ReasonForm(request.POST or None, initial={"version": match.version}),
        lambda data: recording.remove_event(match, position, user=request.user, version=data["version"],
                                            reason=data["reason"]),
        _("The entry was removed; it stays in the history."),
        title=_("Remove: %(entry)s") % {"entry": _entry_name(match, position)}, event=event, button=_("Remove entry"),
        explanation=_("The entry disappears from the sheet; the history keeps it with your reason."))


@require_http_methods(["GET", "POST"])
def game_annul(request, slug, pk, position):
    match = require_match(request, slug, pk, access.can_correct)
    event = _event_at(match, position, "game")

    def annul(data):
        reason = data["reason"].strip()
        body = dict(event.data) | {"annulled": True, "annul_reason": reason}
        recording.correct_event(match, position, body, user=request.user, version=data["version"], reason=reason)

    wording = games.plugin_of(match).wording
    return _confirmed(
        request, match, ReasonForm(request.POST or None, initial={"version": match.version}), annul,
        wording.game_annulled,
        title=_("Annul game %(n)s") % {"n": match.events.filter(kind="game", position__lt=position).count() + 1},
        event=event, button=_("Annul game"), explanation=wording.annulled_game_explained)


@require_http_methods(["GET", "POST"])
def sanction_new(request, slug, pk):
    match = require_match(request, slug, pk, access.can_record)
    context = match_context(request, match)
    computed = context["computed"]
    form = SanctionForm(request.POST or None, players=[p for p in computed.players if p not in computed.disqualified],
                        ruleset=context["plugin"].ruleset, initial={"version": match.version})
    if request.method == "POST" and form.is_valid():
        kind, body = form.event()
        try:
            recording.add_event(match, kind, body, user=request.user, version=form.cleaned_data["version"],
                                submission=form.cleaned_data["submission"])
            messages.success(request, _("Recorded: it shows on the sheet at once."))
            return _after_save(request, match) if kind == "disqualification" else redirect(match)
        except recording.AlreadySaved:
            messages.info(request, _("This entry had already been saved."))
            return redirect(match)
        except recording.StaleMatch as stale:
            if same := handover.same_saved_since(match, {kind: body}, form.cleaned_data["version"]):
                messages.info(request, handover.same_message(same))  # the same Strafe from another phone
                return redirect(match)
            messages.error(request, stale.message)
        except recording.RuleViolation as refused:
            form.add_rule_errors(refused.errors)
    return render(request, "protocol/sanction_form.html",
                  context | sync.offline_page(request, match, "sanction") | {"form": form, "mode": "new"})


@require_http_methods(["GET", "POST"])
def match_end(request, slug, pk):
    match = require_match(request, slug, pk, access.can_record)
    def end(data):
        recording.add_event(match, "end", {"reason": data["reason"]}, user=request.user, version=data["version"])
        return _after_save(request, match)

    plugin = games.plugin_of(match)
    form = EndForm(request.POST or None, initial={"version": match.version}, reasons=plugin.end_choices)
    return _confirmed(request, match, form, end, None, title=plugin.wording.end_title, button=_("End the match"),
                      explanation=plugin.wording.end_explained, **sync.offline_page(request, match, "end"))


@require_http_methods(["GET", "POST"])
def match_annul(request, slug, pk):
    match = require_match(request, slug, pk, access.can_manage_match)
    def annul(data):
        reason = data["reason"].strip()
        recording.add_event(match, "annul_match", {"reason": reason}, user=request.user, version=data["version"],
                            reason=reason)

    wording = games.plugin_of(match).wording
    return _confirmed(
        request, match, ReasonForm(request.POST or None, initial={"version": match.version}), annul,
        wording.match_annulled, title=wording.annul_match, button=_("Annul match"), danger=True,
        explanation=_("An annulled match counts for nothing in the league; its sheet stays visible."))
