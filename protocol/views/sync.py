"""The offline queue's way in: entries typed on a phone without network, sent as JSON when it
is back (static/js/offline/queue.js).

``POST …/eintraege/`` with ``{kind, body, version, submission, recorded_at, position}`` hands
an entry over (protocol.handover): ``position`` is the place in the Partie's entries it was typed
for (its index in ``protocol/1`` ``events``), ``version`` the match's version the phone saw, and
``submission`` its one-time id (unique within the Partie). A correction is ``{kind: "correction",
position, body: {<the entry's own kind>: {…}}, reason, was, …}``: ``position`` is the entry it
corrects and ``was`` that entry as the phone saw it (``{kind: body}``); it goes
protocol.recording.correct_event (its right: access.can_correct). The answers, always JSON:

- 201 ``{version, position}`` saved; 200 ``{…, already: true}`` this submission was saved
  before (a second tab, a lost answer: exactly once); 200 ``{…, already: true, same: true,
  message}`` another device saved the very same entry at that place: recorded once;
- 409 ``{version, document, message, conflict}`` the place was filled (or the corrected entry
  changed, or an entry struck) on another device meanwhile: ``conflict`` holds both entries and
  their words (protocol.handover.Clash); nothing is saved, the phone asks its Protokollant;
  409 ``{version, document, message}`` without ``conflict``: a correction without ``was``
  typed on an older version (compare and swap);
- 422 ``{errors: [{message, article, field, player}]}`` the engine refuses the entry;
- 400 bad JSON or a missing part, 401 not signed in (``login``: where to), 403 no right.

``GET`` answers ``{version, document, state}``: the match as stored; with ``?seit=N`` also
``meanwhile``: what was recorded after version N in the history's words (protocol.handover), which
a phone shows before it hands over what it typed offline. ``HEAD`` answers 204 (is the server
there?).

Each request may say in the header ``X-Trumpfbuch-Waiting`` how many entries still wait on the
phone (a POST: behind the one it hands over), for the round board (protocol.queue_report).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import resolve_url
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from league.registry import access
from league.registry.addresses import of_match
from protocol import handover, queue_report, reading, recording
from protocol.entry_form import sanction
from protocol.entry_form import state as entry_state
from protocol.format_order import in_format_order
from protocol.views.common import require_match

KINDS = ("game", *sanction.KINDS, "end", "correction")  # what a Protokollant records (annulling: the manager)


class BadEntry(Exception):
    """The request is no entry (German message for the Protokollant)."""


def entries_sync(request, slug, pk):
    try:
        match = require_match(request, slug, pk, access.can_send_entries, methods=("GET", "HEAD", "POST"))
    except access.LoginRequired:
        login = f"{resolve_url(settings.LOGIN_URL)}?{urlencode({'next': match_path(slug, pk)})}"
        return JsonResponse({"message": _("Please log in again to send the waiting entries."), "login": login},
                            status=401)
    except access.CardRefused as refused:  # a table card of another table, or one that no longer holds
        return JsonResponse({"message": refused.message}, status=403)
    except PermissionDenied:
        return JsonResponse({"message": _("You may not record entries in this match.")}, status=403)
    except access.MethodNotAllowed:
        return JsonResponse({"message": _("Only GET, HEAD and POST.")}, status=405)
    except Http404:
        return JsonResponse({"message": _("There is no such match.")}, status=404)
    queue_report.note(request, match)  # the phone's queue as it hands it over: how many wait still
    if request.method == "HEAD":  # the entry page asks whether the server answers before a save
        return HttpResponse(status=204)
    if request.method == "GET":
        return answer_state(request, match)
    try:
        entry = read_entry(request.body)
    except BadEntry as bad:
        return JsonResponse({"message": str(bad)}, status=400)
    if entry.kind != "correction" and not access.can_record(request.user, match):  # within the correction window
        return JsonResponse({"message": _("You may not record entries in this match.")}, status=403)
    try:
        if entry.kind == "correction":
            event = correct(request, match, entry)
        else:
            event = handover.hand_over(match, entry.kind, entry.body, position=entry.position, user=request.user,
                                       submission=entry.submission, recorded_at=entry.recorded_at)
    except BadEntry as bad:
        return JsonResponse({"message": str(bad)}, status=400)
    except PermissionDenied:
        return JsonResponse({"message": _("You may not correct entries in this match.")}, status=403)
    except recording.AlreadySaved as saved:
        match.refresh_from_db(fields=["version"])
        return JsonResponse({"version": match.version, "position": saved.position, "already": True})
    except handover.SameEntry as same:
        match.refresh_from_db(fields=["version"])
        return JsonResponse({"version": match.version, "position": same.position, "already": True, "same": True,
                             "message": handover.same_message(same.name)})
    except handover.Clash as clash:
        match.refresh_from_db()
        return JsonResponse({"message": clash.message, "conflict": clash.answer} | stored(match, with_state=False),
                            status=409)
    except recording.StaleMatch as stale:
        match.refresh_from_db()
        return JsonResponse({"message": stale.message} | stored(match, with_state=False), status=409)
    except recording.RuleViolation as refused:
        return JsonResponse({"errors": [entry_state.error_json(e, e.field) for e in refused.errors]}, status=422)
    return JsonResponse({"version": match.version, "position": event.position}, status=201)


def answer_state(request, match) -> JsonResponse:
    """The match as stored (GET); with ``?seit=N`` also what was recorded after version N."""
    since = request.GET.get("seit")
    answer = stored(match)
    if since is not None:
        if not since.isdigit() or len(since) > 9:
            return JsonResponse({"message": _("The parameter “seit” must be a version number (0, 1, 2 …).")},
                                status=400)
        answer["meanwhile"] = handover.meanwhile(match, int(since))
    return JsonResponse(answer)


def correct(request, match, entry: Entry):
    """Save the correction ``entry`` of the entry at its position: the entry keeps its kind (the
    correction page's rule)."""
    if not access.can_correct(request.user, match):
        raise PermissionDenied
    kind, body = next(iter(entry.body.items()))
    stored_kind = match.events.filter(position=entry.position).values_list("kind", flat=True).first()
    if stored_kind is None and entry.was is None:
        raise BadEntry(f"Die Partie hat keinen Eintrag an Stelle {entry.position}.")
    if stored_kind is not None and kind != stored_kind:
        raise BadEntry("Die Art eines Eintrags lässt sich nicht ändern; bitte ihn löschen und neu eintragen.")
    return handover.hand_over_correction(match, entry.position, body, was=entry.was, version=entry.version,
                                         reason=entry.reason, user=request.user, submission=entry.submission,
                                         recorded_at=entry.recorded_at)


def match_path(slug, pk) -> str:
    return of_match("protocol:match", slug, pk)


def stored(match, *, with_state: bool = True) -> dict:
    document = reading.document(match)
    answer = {"version": match.version, "document": document}
    if with_state:
        answer["state"] = entry_state.state(document)
    return answer


@dataclass
class Entry:
    """An entry as a phone hands it over (see the module)."""

    kind: str
    body: dict[str, Any]  # a correction's: {<the entry's kind>: {…}}
    version: int
    submission: uuid.UUID
    recorded_at: Any
    position: int
    reason: str = ""
    was: dict[str, Any] | None = None  # a correction's: the entry as the phone saw it


def read_entry(raw: bytes) -> Entry:
    """The request's JSON as an :class:`Entry`, or BadEntry."""
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise BadEntry("Die Anfrage ist kein gültiges JSON.") from None
    except RecursionError:  # "[[[[…" nested thousands deep
        raise BadEntry("Die Anfrage ist zu tief verschachtelt; ein Eintrag ist ein flaches JSON-Objekt.") from None
    if not isinstance(data, dict):
        raise BadEntry("Die Anfrage muss ein JSON-Objekt sein: {kind, body, version, submission, position}.")
    kind, body, version = data.get("kind"), data.get("body"), data.get("version")
    if kind not in KINDS:
        raise BadEntry(f"Unbekannte Art des Eintrags: {kind!r} (erlaubt: {', '.join(KINDS)}).")
    if not isinstance(body, dict):
        raise BadEntry("Der Eintrag (body) fehlt oder ist kein Objekt.")
    if not _count(version):
        raise BadEntry("Die Version (version), auf der der Eintrag beruht, fehlt oder ist keine Zahl.")
    try:
        submission = uuid.UUID(str(data.get("submission")))
    except ValueError:
        raise BadEntry("Die Kennung des Eintrags (submission) fehlt oder ist keine UUID.") from None
    position = data.get("position")
    if kind == "correction":
        if not _count(position):
            raise BadEntry("Die Stelle des korrigierten Eintrags (position) fehlt oder ist keine Zahl.")
        if len(body) != 1 or not isinstance(next(iter(body.values())), dict):
            raise BadEntry("Die Korrektur (body) muss genau einen Eintrag mit seiner Art enthalten, "
                           "z. B. {\"game\": {…}}.")
        reason, was = data.get("reason"), data.get("was")
        if was is not None and not (isinstance(was, dict) and len(was) == 1
                                    and isinstance(next(iter(was.values())), dict)):
            raise BadEntry("Der korrigierte Eintrag, wie das Gerät ihn sah (was), muss ein Eintrag mit seiner Art "
                           "sein, z. B. {\"game\": {…}}.")
        return Entry(kind, body, version, submission, read_time(data.get("recorded_at")), position,
                     reason if isinstance(reason, str) else "", was)
    if not _count(position):
        # Without its place an entry could only be appended blindly: a second phone's copy of the
        # same Spiel would be stored twice. An old page sends none: it is kept on the phone.
        raise BadEntry("Die Stelle, für die der Eintrag erfasst wurde (position), fehlt oder ist keine Zahl. "
                       "Bitte die Seite neu laden; der Eintrag bleibt auf dem Gerät erhalten.")
    return Entry(kind, body, version, submission, read_time(data.get("recorded_at")), position)


def _count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31


def read_time(value):
    """When the phone captured the entry (ISO 8601); never later than now (a phone's clock may run ahead)."""
    if value in (None, ""):
        return None
    try:
        moment = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:  # well-formed, yet no real moment: 30 February, hour 25, offset +25:00
        moment = None
    if moment is None:
        raise BadEntry("Der Zeitpunkt der Erfassung (recorded_at) ist keine gültige Zeitangabe nach ISO 8601 "
                       "(z. B. 2026-11-26T21:04:00+01:00).")
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    now = timezone.now()
    if moment < now - timedelta(days=30):
        raise BadEntry("Der Zeitpunkt der Erfassung (recorded_at) liegt mehr als 30 Tage zurück.")
    return min(moment, now)


def offline_page(request, match, kind: str, event=None, events=None) -> dict:
    """What the entry page carries for the offline evening (static/js/offline/entry.js): the
    stored document and its version (the engine checks queued entries on top of them), the
    endpoint, the entry pages (an entry that no longer fits is edited there) and the login to come
    back to. ``kind``: the page's form (game | sanction | end | correction), "match" on the match
    page; ``event``: the entry a correction page corrects (its position and kind); ``events``:
    the stored events at ``match.version`` where the view read them already (its kept reading)."""
    slug = match.club.slug
    # the page to come back to after a login: the match page, also where it answers a save
    back = of_match("protocol:match", slug, match.pk) if kind == "match" else request.get_full_path()
    return {"offline": {
        "match": match.pk, "kind": kind, "version": match.version, "ruleset": match.ruleset,
        # The match page only sends what waits (a 409 brings the stored document): the page
        # stays small (under 80 kB for 7 players and 60 Spiele, README: Performance).
        **(_carried(request, match, events) if kind != "match" else _newest(request, match)),
        "sync": of_match("protocol:entries_sync", slug, match.pk),
        "pages": {"game": of_match("protocol:game_new", slug, match.pk),
                  "sanction": of_match("protocol:sanction_new", slug, match.pk),
                  "end": of_match("protocol:end", slug, match.pk)},
        "login": f"{resolve_url(settings.LOGIN_URL)}?{urlencode({'next': back})}",
        **({"position": event.position, "entry": event.kind, "page": request.path} if event is not None else {}),
    }}


# Set by a phone's page whenever it keeps a document for the evening offline
# (static/js/offline/entry.js): the match and the version of that document, "<match>.<version>".
KEPT_COOKIE = "trumpfbuch-kept"


def _carried(request, match, events) -> dict:
    """The stored document an entry page carries, unless the phone keeps it already (the cookie
    it set as it kept it): nothing when it keeps this very version (the Spiel form opened from
    the match page its save landed on), the newest entry when it keeps the one before, else the
    whole document (about 37 kB for 60 Spiele). ``events``: as for :func:`offline_page`."""
    if request.COOKIES.get(KEPT_COOKIE) == f"{match.pk}.{match.version}":
        return {}
    if newest := _newest(request, match):
        return newest
    return {"document": reading.entry_document(match, events) if events is not None else reading.document(match)}


def _newest(request, match) -> dict:
    """What a page carries for the document the phone keeps when it kept it one version ago (the
    match page its own save lands on): how many entries are stored and the newest one (in the
    format's order). The phone appends the entry and asks the server nothing; any other
    difference is fetched (static/js/offline/entry.js). Only then: every other visit of the
    match page stays as small as before."""
    if request.COOKIES.get(KEPT_COOKIE) != f"{match.pk}.{match.version - 1}":
        return {}
    page = reading.page(match, just_fetched=True)  # the kept state the match page just showed
    if not page.events:
        return {}
    return {"count": len(page.events), "last": in_format_order(page.events[-1], page.computed.players)}
